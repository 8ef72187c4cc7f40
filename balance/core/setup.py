"""A run's configuration, checked: the input checks every command shares
(whole numbers, counts, seeds, players, policies), :class:`Setup` and
:func:`setup`, the data files chosen for the process (:func:`use_data`) and
the keys that name a run's stored chunks (:func:`setup_key`,
:func:`chunk_desc`).

Nothing here plays a game: execution (``core.play``) and results
(``core.results``) build on it.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import numpy as np

from . import registry, variants
from .errors import BalanceError, did_you_mean
from .io import version
from .records import BAN_CODES

MAX_SEED = 2**63 - 1


def resolve_policies(spec, policies, n_players: int) -> list[str]:
    if policies is None or len(policies) == 0:
        policies = [next(iter(spec.policies))]
    if isinstance(policies, str):
        policies = [policies]
    policies = [variants.canonical(spec, p) for p in policies]
    if len(policies) == 1:
        return policies * n_players
    if len(policies) != n_players:
        raise BalanceError(f"give one policy for all seats or one per seat: got "
                           f"{len(policies)} policies for {n_players} players")
    return policies


def check_players(spec, players) -> int:
    lo, hi = spec.players
    try:
        n = whole("players", players)
    except BalanceError:
        raise BalanceError(f"players: {players!r} is not a whole number "
                           f"(allowed: {lo}-{hi})") from None
    if not lo <= n <= hi:
        raise BalanceError(f"players: {n} is outside {lo}-{hi} for {spec.name}")
    return n


MAX_INT64 = 2**63 - 1


def whole(name: str, value) -> int:
    """An integer from an int or a string of ASCII digits; never a float,
    a bool or non-ASCII digits (which int() would accept silently)."""
    if isinstance(value, (bool, float)) or (isinstance(value, str) and not (
            value.strip().lstrip("+-").isascii() and value.strip().lstrip("+-").isdigit())):
        raise BalanceError(f"{name}: {value!r} is not a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BalanceError(f"{name}: {value!r} is not a whole number") from None


def check_count(name: str, value, minimum: int = 1) -> int:
    v = whole(name, value)
    if v < minimum:
        raise BalanceError(f"{name}: {v} must be at least {minimum}")
    if v > MAX_INT64:
        raise BalanceError(f"{name}: {v} is beyond 2**63-1")
    return v


def kernel_keywords(ban, data, seat_values) -> dict:
    """The keywords a run's kernel call takes beyond the games to play (the
    same for a batch, a Dask worker's piece and a replayed game): the ban
    codes, the data tables, each seat's values, each only when set."""
    kw = {} if ban is None else {"ban": ban}
    if data:
        kw["data"] = data
    if seat_values is not None:
        kw["seat_values"] = seat_values
    return kw


def seconds_from_env(name: str, default: float) -> float:
    """A number of seconds >= 0 from environment variable ``name``, else
    ``default``; a bad value is one line naming it."""
    v = os.environ.get(name)
    if v is None:
        return default
    try:
        x = float(v)
    except ValueError:
        x = -1.0
    if not x >= 0:
        raise BalanceError(f"{name}={v!r}: a number of seconds >= 0")
    return x


def check_seed(seed) -> int:
    s = whole("seed", seed)
    if not 0 <= s <= MAX_SEED:
        raise BalanceError(f"seed: {s} is outside [0, 2**63-1]")
    return s


@dataclass
class Setup:
    """A validated run configuration."""
    spec: object
    values: dict
    n_players: int
    policies: list[str]
    seed: int
    ban: dict = field(default_factory=dict)    # card kind -> "remove" | "forbid"
    data: dict = field(default_factory=dict)   # data file name -> spec.DataTable

    @property
    def ban_vector(self) -> np.ndarray | None:
        if not self.ban:
            return None
        kinds = self.spec.card_kinds(self.values)
        v = np.zeros(len(kinds), np.int64)
        for k, mode in self.ban.items():
            v[kinds.index(k)] = BAN_CODES[mode]
        return v

    @property
    def policy_ids(self) -> np.ndarray:
        return np.array([self.spec.policies[variants.base(p)] for p in self.policies],
                        dtype=np.int64)

    @property
    def seat_values(self) -> list | None:
        """Each seat's values where a seat plays a policy variant, else None."""
        return variants.seat_values(self.spec, self.values, self.policies)

    @property
    def kernel_keywords(self) -> dict:
        """:func:`kernel_keywords` of this configuration."""
        return kernel_keywords(self.ban_vector, self.data, self.seat_values)

    def describe(self) -> dict:
        d = {"ruleset": self.spec.name, "version": self.spec.version(self.values),
             "players": self.n_players, "policies": self.policies, "seed": self.seed,
             "params": self.values}
        if self.ban:
            d["ban"] = dict(self.ban)
        if self.data:
            d["data"] = {k: {"source": t.source, "sha256": t.digest} for k, t in self.data.items()}
        return d


# data files chosen for the whole process (the CLI's --cards FILE): ruleset -> {name: path}
DATA: dict[str, dict] = {}


def use_data(ruleset: str, **files) -> None:
    """Play ``ruleset`` with these data files (e.g. ``cards="my_table.csv"``)
    in every later setup of this process, workflows included; ``None``
    restores the package's own."""
    spec = registry.get(ruleset)
    spec.data({k: v for k, v in files.items() if v is not None})      # checks the names
    DATA.setdefault(ruleset, {}).update(files)
    DATA[ruleset] = {k: v for k, v in DATA[ruleset].items() if v is not None}


def setup(ruleset: str, *, seed: int = 0, players: int | None = None, policies=None,
          params: dict | None = None, ban: dict | None = None, data: dict | None = None) -> Setup:
    """Validate a run configuration. ``ban`` maps card kinds to "remove"
    (taken out of the deck) or "forbid" (never played), for interventional
    per-card power; a ruleset lists the modes it supports in
    ``spec.ban_modes``."""
    spec = registry.get(ruleset)
    n = check_players(spec, players if players is not None else spec.players[0])
    pols = resolve_policies(spec, policies, n)
    values = spec.space.resolve(params)
    spec.check_values(values, n)
    ban = dict(ban or {})
    if ban:
        kinds = spec.card_kinds(values)
        for k, mode in ban.items():
            if k not in kinds:
                raise BalanceError(f"unknown card kind {k!r} for {spec.name}"
                                   f"{did_you_mean(k, kinds)}")
            if mode not in spec.ban_modes:
                raise BalanceError(f"card kind {k!r}: ban mode {mode!r} is not supported by "
                                   f"{spec.name} (supported: {', '.join(spec.ban_modes) or 'none'})")
    files = data if data is not None else DATA.get(ruleset, {})
    loaded = _loaded_data(spec, tuple(sorted(files.items())))
    return Setup(spec, values, n, pols, check_seed(seed), ban, loaded)


_data_cache: dict = {}


def _loaded_data(spec, files: tuple) -> dict:
    """The ruleset's data files, loaded once per process and file."""
    if not spec.data_files:
        if files:
            spec.data(dict(files))          # raises: this ruleset has no data files
        return {}
    key = (spec.name, files)
    if key not in _data_cache:
        _data_cache[key] = spec.data(dict(files))
    return _data_cache[key]


def setup_key(s: Setup) -> str:
    """A short hash of everything that determines a run's games."""
    import hashlib
    text = json.dumps({**s.describe(), "balance_version": version(),
                       "code": registry.fingerprint(s.spec.name)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def chunk_desc(s: Setup, a: int, b: int) -> dict:
    """What a stored chunk holds: the full run description, the code
    fingerprint and the game range; a chunk whose stored description differs
    (another seed, ruleset, parameter, code) is refused and played again."""
    return {"what": "chunk", **s.describe(), "start": int(a), "stop": int(b),
            "balance_version": version(), "code": registry.fingerprint(s.spec.name)}
