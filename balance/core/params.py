"""Tunable parameters: declared once, validated everywhere.

A ruleset declares its rule parameters and its policy parameters as frozen
dataclasses whose fields are made with :func:`param`::

    @dataclass(frozen=True)
    class Params:
        hp: int = param(20, doc="starting HP (rules: Setup)", bounds=(1, 1000),
                        sweep=(10, 15, 20, 30, 40))

Each field carries its default, a doc line citing the rule, inclusive bounds
and candidate values for sweeps. ``balance params`` prints them, and every
override (``--set``, config files, the Python API) goes through
:func:`resolve`, which raises :class:`~balance.core.errors.BalanceError`
naming the key and the allowed range.

Kernels receive the values as two numpy vectors (:func:`to_kernel`): int64
for int and bool parameters, float64 for float parameters, in declaration
order. :func:`kernel_index` gives each name its slot, so ruleset kernels use
module-level integer constants such as ``P_HP = IDX["hp"]``.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import BalanceError, did_you_mean


@dataclass(frozen=True)
class ParamInfo:
    name: str
    default: Any
    doc: str
    bounds: tuple | None
    sweep: tuple
    kind: type          # int, float or bool
    group: str          # "rule" or "policy"
    choices: tuple | None = None

    def describe_range(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        lo, hi = self.bounds if self.bounds else (None, None)
        return f"{self.kind.__name__} in [{lo}, {hi}]"


def param(default, *, doc: str, bounds: tuple | None = None, sweep: tuple = (),
          choices: tuple | None = None):
    """Declare one tunable number (a dataclass field with metadata)."""
    return dataclasses.field(default=default, metadata={
        "doc": doc, "bounds": bounds, "sweep": tuple(sweep), "choices": choices})


def infos(cls, group: str) -> list[ParamInfo]:
    out = []
    for f in dataclasses.fields(cls):
        kind = type(f.default)
        if kind not in (int, float, bool):
            raise TypeError(f"{cls.__name__}.{f.name}: parameters are int, float or bool")
        md = f.metadata
        out.append(ParamInfo(f.name, f.default, md["doc"], md["bounds"], md["sweep"],
                             kind, group, md["choices"]))
    return out


def int_count(cls) -> int:
    """How many int (and bool) parameters ``cls`` declares: the length of its
    part of a kernel's int vector (a ruleset's rule ints come first)."""
    return sum(1 for f in dataclasses.fields(cls) if not isinstance(f.default, float))


def kernel_index(cls) -> dict[str, int]:
    """Slot of each parameter in its kernel vector (ints/bools vs floats)."""
    idx, n_int, n_float = {}, 0, 0
    for f in dataclasses.fields(cls):
        if isinstance(f.default, float):
            idx[f.name] = n_float
            n_float += 1
        else:
            idx[f.name] = n_int
            n_int += 1
    return idx


_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_EXP_INT = re.compile(r"[+-]?[0-9]+[eE]\+?[0-9]+")      # 1e4: a whole number


def coerce(info: ParamInfo, value) -> Any:
    """Convert ``value`` (a string from the command line, or a number) to the
    parameter's type and check its bounds; raise BalanceError otherwise."""
    name = info.name
    try:
        if info.kind is bool:
            if isinstance(value, bool):
                v = value
            elif isinstance(value, (int, np.integer)) and value in (0, 1):
                v = bool(value)
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                v = value.strip().lower() in _TRUE
            else:
                raise ValueError
        elif info.kind is int:
            if isinstance(value, bool):
                raise ValueError
            if isinstance(value, str):
                s = value.strip().replace("_", "")
                try:
                    v = int(s)
                except ValueError:
                    # 1e4 is a whole number in exponent notation; 30.0 or 2.5e3
                    # (a decimal point) is a float's spelling, refused as a
                    # config file's float is
                    if not _EXP_INT.fullmatch(s):
                        raise
                    v = int(float(s))
            elif isinstance(value, (float, np.floating)):
                raise ValueError
            else:
                v = int(value)
        else:
            if isinstance(value, bool):
                raise ValueError
            v = float(value)
            if not np.isfinite(v):
                raise ValueError
    except (TypeError, ValueError, OverflowError):
        hint = ""
        if info.kind is int and _looks_float(value):
            hint = " (an integer parameter: write a whole number without a decimal point)"
        raise BalanceError(f"parameter {name!r}: {value!r} is not a valid value; "
                           f"allowed: {info.describe_range()}{hint}") from None
    if info.choices is not None and v not in info.choices:
        raise BalanceError(f"parameter {name!r}: {v!r} is not allowed; "
                           f"allowed: {info.describe_range()}")
    if info.bounds is not None and info.kind is not bool:
        lo, hi = info.bounds
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise BalanceError(f"parameter {name!r}: {v} is out of bounds; "
                               f"allowed: {info.describe_range()}")
    return v


def _looks_float(value) -> bool:
    """A float, or a string that reads as a number where an integer was
    refused (30.0, 2.5, 1e-1): the error then says how to write an integer."""
    if isinstance(value, (float, np.floating)):
        return True
    if not isinstance(value, str):
        return False
    try:
        float(value.strip().replace("_", ""))
    except ValueError:
        return False
    return True


def unknown_key_error(key: str, known) -> BalanceError:
    return BalanceError(f"unknown parameter {key!r}{did_you_mean(key, known)} "
                        f"(see `balance params` for the list)")


def parse_assignment(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` -> (key, value) with a clear error."""
    if "=" not in text:
        raise BalanceError(f"expected KEY=VALUE, got {text!r}")
    key, value = text.split("=", 1)
    key, value = key.strip(), value.strip()
    if not key or value == "":
        raise BalanceError(f"expected KEY=VALUE, got {text!r}")
    return key, value


def parse_assignments(items, option: str = "--set") -> dict[str, str]:
    """[``KEY=VALUE``, ...] -> {key: value}; a key given twice with two
    values is an error naming both (one of them would be dropped silently)."""
    out: dict[str, str] = {}
    for text in items:
        key, value = parse_assignment(text)
        if key in out and out[key] != value:
            raise BalanceError(f"{option} {key} is given twice, {key}={out[key]} and "
                               f"{key}={value}; give it once")
        out[key] = value
    return out


class ParamSpace:
    """Rule parameters plus policy parameters of one ruleset."""

    def __init__(self, rule_cls, policy_cls):
        self.rule_cls = rule_cls
        self.policy_cls = policy_cls
        self.infos = {i.name: i for i in infos(rule_cls, "rule") + infos(policy_cls, "policy")}
        clash = {f.name for f in dataclasses.fields(rule_cls)} & \
            {f.name for f in dataclasses.fields(policy_cls)}
        if clash:
            raise TypeError(f"rule and policy parameters share names: {sorted(clash)}")

    def defaults(self) -> dict[str, Any]:
        return {n: i.default for n, i in self.infos.items()}

    def resolve(self, overrides: dict | None = None) -> dict[str, Any]:
        """Defaults updated by validated overrides (values may be strings)."""
        values = self.defaults()
        for key, value in (overrides or {}).items():
            if key not in self.infos:
                raise unknown_key_error(key, self.infos)
            values[key] = coerce(self.infos[key], value)
        return values

    def rules(self, values: dict):
        return self.rule_cls(**{f.name: values[f.name] for f in dataclasses.fields(self.rule_cls)})

    def policy(self, values: dict):
        return self.policy_cls(**{f.name: values[f.name] for f in dataclasses.fields(self.policy_cls)})

    def vectors(self, values: dict) -> tuple[np.ndarray, np.ndarray]:
        """(int64 rule parameters, float64 policy parameters) for a kernel,
        in declaration order (:func:`kernel_index` gives the slots)."""
        return to_kernel(self.rules(values))[0], to_kernel(self.policy(values))[1]

    def kernel_vectors(self, values: dict) -> tuple[np.ndarray, np.ndarray]:
        """(int64 rule parameters followed by the int policy parameters,
        float64 policy parameters): for kernels that read integer policy
        values (search budgets) at ``len(rule ints) + kernel_index(policy)[name]``."""
        ip, pp = self.vectors(values)
        return np.concatenate([ip, to_kernel(self.policy(values))[0]]), pp


def to_kernel(obj) -> tuple[np.ndarray, np.ndarray]:
    """A params dataclass instance -> (int64 vector, float64 vector)."""
    ints, floats = [], []
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if isinstance(f.default, float):
            floats.append(float(v))
        else:
            ints.append(int(v))
    return (np.asarray(ints, dtype=np.int64).reshape(-1),
            np.asarray(floats, dtype=np.float64).reshape(-1))
