"""Ruleset registry: name -> :class:`RulesetSpec`.

Commands reach a ruleset only through this registry, so adding a ruleset is
one new package under ``balance/rulesets/`` plus one line in ``_MODULES``.
Ruleset packages are imported lazily (their numba kernels load on first use).
"""
from __future__ import annotations

import difflib
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import BalanceError
from .params import ParamSpace

# name -> module that defines SPEC
_MODULES = {
    "talisman": "balance.rulesets.talisman",
    "elite": "balance.rulesets.elite",
}


@dataclass
class RulesetSpec:
    """Everything the generic runner, statistics and CLI need from a ruleset.

    ``simulate_range(values, seed, start, stop, n_players, policy_ids, check,
    ban)`` plays games [start, stop) of ``seed`` and returns a
    :class:`balance.core.records.Batch`; ``check`` counts broken invariants
    per game, ``ban`` is None or int64[K] of ``records.BAN_*`` codes per card
    kind. ``trace_game(values, seed, game, n_players, policy_ids, ban)`` returns ``(Batch of one game, events int64[:, 8])``
    and ``format_trace(events, values, n_players, policies)`` turns the events
    into readable lines.
    """
    name: str
    title: str
    version: Callable[[dict], str]           # ruleset version for given values
    players: tuple[int, int]
    space: ParamSpace
    policies: dict[str, int]                 # name -> kernel id
    policy_docs: dict[str, str]
    card_kinds: Callable[[dict], list[str]]
    game_columns: tuple[str, ...]            # first: winner, turns, rounds, end_reason
    seat_columns: tuple[str, ...]            # ruleset-specific per-seat ints
    end_reasons: tuple[str, ...]
    simulate_range: Callable[..., Any]
    trace_game: Callable[..., Any]
    format_trace: Callable[..., list]
    check_values: Callable[[dict, int], None] = lambda values, n_players: None
    roles: Callable[[dict], dict[int, str]] | None = None   # role id -> label
    ban_modes: tuple[str, ...] = ()          # supported card bans: "remove", "forbid"
    docs: str = ""
    extra: dict = field(default_factory=dict)

    def n_kinds(self, values: dict) -> int:
        return len(self.card_kinds(values))


_cache: dict[str, RulesetSpec] = {}


def names() -> list[str]:
    return list(_MODULES)


def get(name: str) -> RulesetSpec:
    if name not in _MODULES:
        close = difflib.get_close_matches(name, list(_MODULES), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise BalanceError(f"unknown ruleset {name!r}{hint} "
                           f"(known: {', '.join(_MODULES)})")
    if name not in _cache:
        _cache[name] = importlib.import_module(_MODULES[name]).SPEC
    return _cache[name]


def policy_id(spec: RulesetSpec, name: str) -> int:
    if name not in spec.policies:
        close = difflib.get_close_matches(name, list(spec.policies), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise BalanceError(f"unknown policy {name!r} for {spec.name}{hint} "
                           f"(known: {', '.join(spec.policies)})")
    return spec.policies[name]


_fingerprints: dict[str, str] = {}


def fingerprint(name: str) -> str:
    """A hash of the code that decides a ruleset's games: its package's
    Python files plus the core RNG and record layout. Stored results (resumable
    chunks, sweep points) carry it, so results of an older kernel are never
    reused after the rules or policies change."""
    if name not in _fingerprints:
        import hashlib
        from pathlib import Path
        mod = importlib.import_module(_MODULES[name])
        files = sorted(Path(mod.__file__).parent.glob("*.py"))
        core = Path(__file__).parent
        files += [core / "rng.py", core / "records.py"]
        h = hashlib.sha256()
        for f in files:
            h.update(f.name.encode())
            h.update(f.read_bytes())
        _fingerprints[name] = h.hexdigest()[:16]
    return _fingerprints[name]
