"""Policy variants: a policy with some of its float parameters changed,
played at the seats that name it and nowhere else.

A seat's policy is a label:

- ``greedy``: the policy with the run's parameters;
- ``greedy[hand_damage_value=16,five_value=-5]``: a variant, its own values
  of float policy parameters (the heuristics' weights) at that seat;
- ``greedy@tuned.toml``: a variant from a profile file (``balance tune``
  writes one): ``policy = "greedy"`` and a ``[params]`` table.

Every output records the canonical label (``greedy[five_value=-5,...]``,
names sorted, values as declared), never the file name, so a figure can be
regenerated from its record alone. The kernel reads the float policy
parameters one row per seat (``RulesetSpec.kernel_arrays``); the integer
ones (search budgets) are one per run, so a variant may not change them.

Pure Python: no numba.
"""
from __future__ import annotations

import re
from pathlib import Path

from .errors import BalanceError, did_you_mean
from .params import coerce

_LABEL = re.compile(r"^([A-Za-z0-9_]+)(?:\[(.*)\]|@(.+))?$")


def base(label: str) -> str:
    """The policy a label plays (``greedy`` of ``greedy[five_value=-5]``)."""
    return re.split(r"[\[@]", str(label), maxsplit=1)[0]


def split(text: str) -> list[str]:
    """Labels of a comma-separated list, commas inside ``[...]`` kept:
    ``"random,greedy[a=1,b=2]"`` -> ``["random", "greedy[a=1,b=2]"]``."""
    out, depth, cur = [], 0, ""
    for ch in str(text):
        depth += (ch == "[") - (ch == "]")
        if ch == "," and depth <= 0:
            out.append(cur)
            cur, depth = "", 0
        else:
            cur += ch
    out.append(cur)
    return [x.strip() for x in out if x.strip()]


def _profile(path: str, label: str) -> tuple[str | None, dict]:
    import tomllib
    p = Path(path)
    if not p.is_file():
        raise BalanceError(f"policy {label!r}: no profile file {path!r}")
    try:
        doc = tomllib.loads(p.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise BalanceError(f"policy {label!r}: {path} is not a TOML profile ({e})") from None
    params = doc.get("params", {})
    if not isinstance(params, dict):
        raise BalanceError(f"policy {label!r}: [params] in {path} is not a table")
    pol = doc.get("policy")
    return (str(pol) if pol is not None else None), dict(params)


def _pairs(body: str, label: str) -> dict:
    out: dict = {}
    for item in filter(None, (x.strip() for x in body.split(","))):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise BalanceError(f"policy {label!r}: {item!r} is not NAME=VALUE "
                               "(a variant reads greedy[name=value,name=value])")
        if key in out and out[key] != value:
            raise BalanceError(f"policy {label!r}: {key} is given twice")
        out[key] = value
    return out


def _text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def parse(spec, label: str) -> tuple[str, dict]:
    """(policy name, {parameter: value}) of a label, checked: an unknown
    policy, a parameter that is not a float policy parameter of the
    ruleset, a value outside its bounds or a missing profile file is one
    :class:`BalanceError` line."""
    text = str(label).strip()
    m = _LABEL.match(text)
    if m is None:
        raise BalanceError(f"policy {text!r} is not a name, name[param=value,...] or "
                           f"name@profile.toml (policies of {spec.name}: "
                           f"{', '.join(spec.policies)})")
    name, body, path = m.group(1), m.group(2), m.group(3)
    if name not in spec.policies:
        raise BalanceError(f"unknown policy {name!r} for {spec.name}"
                           f"{did_you_mean(name, spec.policies)} "
                           f"(known: {', '.join(spec.policies)})")
    if path is not None:
        named, given = _profile(path, text)
        if named is not None and named != name:
            raise BalanceError(f"policy {text!r}: the profile {path} is for {named!r}, "
                               f"not {name!r}")
    else:
        given = _pairs(body or "", text)
    floats = [i.name for i in spec.space.infos.values()
              if i.group == "policy" and i.kind is float]
    out = {}
    for key, value in given.items():
        info = spec.space.infos.get(key)
        if info is None or info.group != "policy" or info.kind is not float:
            why = ("is a rule parameter (give it with --set)" if info is not None
                   and info.group == "rule" else
                   "is an integer policy parameter, one per run (give it with --set)"
                   if info is not None else f"is not a parameter of {spec.name}")
            raise BalanceError(f"policy {text!r}: {key} {why}; a variant sets float policy "
                               f"parameters ({', '.join(floats) or 'none'})"
                               + (did_you_mean(key, floats) if info is None else ""))
        try:
            out[key] = coerce(info, value)
        except BalanceError as e:
            raise BalanceError(f"policy {text!r}: {e}") from None
    return name, out


def label(name: str, overrides: dict) -> str:
    """The canonical label: names sorted, values as their parameter's type."""
    if not overrides:
        return name
    return f"{name}[{','.join(f'{k}={_text(v)}' for k, v in sorted(overrides.items()))}]"


def canonical(spec, text: str) -> str:
    return label(*parse(spec, text))


def labels(spec, given) -> list[str]:
    """The canonical labels of a comma-separated text or a list of them
    (each item may hold several), in order, each once."""
    items = [given] if isinstance(given, str) else given
    return list(dict.fromkeys(canonical(spec, q) for p in items for q in split(str(p))))


def seat_values(spec, values: dict, labels) -> list | None:
    """Each seat's parameter values (``values`` with its variant's changes),
    or None when no seat plays a variant."""
    parsed = [parse(spec, p) for p in labels]
    if not any(o for _, o in parsed):
        return None
    return [{**values, **o} if o else values for _, o in parsed]
