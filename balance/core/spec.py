"""The ruleset contract: :class:`RulesetSpec`, which declares a ruleset
(its parameters, policies, columns, kernel module and the arrays the kernel
takes) and runs nothing: ``core.batch`` plays its kernel (``batch.play``,
``batch.trace``).

A ruleset is one package under ``balance/rulesets/`` whose ``__init__``
defines ``SPEC = RulesetSpec(...)``, plus one line in
``registry._MODULES``. What the package provides (the table is also in
``docs/ruleset.md``):

- ``rules.py``: the ``Params`` and ``PolicyParams`` dataclasses (``param()``
  fields), the policy ids, card kinds, end reasons;
- ``layout.py``: the game and seat column names and the kernel's state
  slots, as plain constants (``replay`` and tests import it, never the
  compiled code);
- a kernel module (``spec.kernel``, imported on first use) with
  ``run_batch(b0, b1, seed, start, n_games, n_players, policy_ids, *args,
  check, games, seats, masks, counts, errors)``,
  ``trace_one(seed, game, n_players, policy_ids, *args, games, seats, masks,
  counts, tr) -> number of events`` and ``KERNELS``, {"run": dispatcher,
  "replay": dispatcher} for the first-compile notice (``core.jit``);
  ``*args`` are the arrays ``spec.kernel_arrays(values, ban)`` returns
  (the package's ``kernel_args(values, ban)``, whose second array is the
  float policy parameters: the kernel gets them one row per seat, so a
  policy variant plays at its seat only);
- ``replay.py``: ``format_trace(events, values, n_players, policies)``.

A spec that lacks a required field, or whose fields disagree (a headline
parameter that is not declared, a bench configuration with an unknown
policy, columns that do not start with the four every table has), fails
when it is built, with a message naming the ruleset and the field.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .params import ParamSpace
from .errors import BalanceError
from .records import BAN_CODES

FIRST_GAME_COLUMNS = ("winner", "turns", "rounds", "end_reason")


@dataclass(frozen=True)
class DataTable:
    """A data file loaded for the kernel: its arrays (passed to
    ``kernel_args`` by name), where it came from, and a SHA-256 of its
    content that every output records."""
    arrays: tuple
    source: str
    digest: str
    rows: object = None          # the parsed table, for display (a DataFrame)


class SpecError(TypeError):
    """A ruleset package that does not meet the contract (a developer's
    error, raised when the package is registered)."""


_REQUIRED = object()


def _req(doc: str):
    return field(default=_REQUIRED, metadata={"doc": doc})


def _opt(default, doc: str):
    """An optional field; a list or dict default is copied for each spec."""
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata={"doc": doc})
    if callable(default):
        return field(default_factory=lambda: default, metadata={"doc": doc})
    return field(default=default, metadata={"doc": doc})


def _no_check(values: dict, n_players: int) -> None:
    return None


@dataclass
class RulesetSpec:
    """Everything the runner, statistics, workflow and CLI need to know of a
    ruleset (what runs it is ``core.batch``)."""
    name: str = _req("the ruleset's slug, as on the command line")
    title: str = _req("the game's name, for headers")
    version: Callable[[dict], str] = _req("the rules version for given parameter values")
    players: tuple = _req("(fewest, most) players")
    space: ParamSpace = _req("rule and policy parameters (core.params)")
    policies: dict = _req("policy name -> kernel id; the first is the default")
    policy_docs: dict = _req("policy name -> one line on what it does")
    card_kinds: Callable[[dict], list] = _req("card kind names for given parameter values")
    game_columns: tuple = _req("per-game record columns, starting with " + ", ".join(FIRST_GAME_COLUMNS))
    seat_columns: tuple = _req("per-seat record columns")
    end_reasons: tuple = _req("end reason names, by code")
    kernel: str = _req("module path of the kernel (run_batch, trace_one, KERNELS), "
                       "imported on first use")
    kernel_args: Callable[[dict, np.ndarray], tuple] | None = _opt(
        None, "(values, ban codes per card kind) -> the arrays the kernel takes after the "
              "policy ids; default: (int parameters, float parameters, ban codes)")
    format_trace: Callable[..., list] = _req("(events, values, n_players, policies) -> lines")
    compile_time: str = _req("rough cold-compile time, printed by the first-compile notice")
    headline: tuple = _req("parameters the report sweeps, most important first")
    bench: tuple = _req("configurations scripts/bench.py measures: dicts with label, "
                        "players, policies and optional params and games")
    docs: str = _req("path of the ruleset's README (rules decisions, not implemented)")
    summary: Callable | None = _opt(None, "(Result) -> dict of extra headline figures")
    check_values: Callable[[dict, int], None] = _opt(_no_check, "raise BalanceError for a "
                                                     "parameter combination the rules forbid")
    roles: Callable[[dict], dict] | None = _opt(None, "role code -> label (seat column 'role')")
    ban_modes: tuple = _opt((), "supported card bans: 'remove', 'forbid'")
    card_groups: tuple = _opt(("family", "value"), "names of the two natural groupings of "
                              "card kinds named FAMILY-VALUE (elite: suit, rank); other kinds "
                              "are 'special'")
    data_files: dict = _opt({}, "data a designer may replace with a file (name -> loader(path "
                            "or None) -> DataTable), e.g. resonance's magic-card table: "
                            "--cards FILE")
    turn_order: str = _opt("seat 0 moves first, then seat order", "how the rules decide who "
                           "moves first (a 'first_seat' game column records it when not seat 0)")
    trace_rows: int = _opt(1 << 14, "first size of the trace buffer (it grows until a game fits)")
    headline_roles: dict = _opt({}, "headline parameter -> the role label whose win rate the "
                                "report's skill section follows at the sweep's end points (elite: "
                                "reflect_multiplier -> glutton); default: the role that moved most")

    def __post_init__(self):
        name = self.name if self.name is not _REQUIRED else "?"
        missing = [f for f in dataclasses.fields(self) if getattr(self, f.name) is _REQUIRED]
        if missing:
            raise SpecError(f"ruleset {name!r}: missing required field(s): " + "; ".join(
                f"{f.name} ({f.metadata['doc']})" for f in missing))

        def bad(fld, why):
            raise SpecError(f"ruleset {name!r}: field {fld!r}: {why}")

        self.players = tuple(self.players)
        if len(self.players) != 2 or not 1 <= self.players[0] <= self.players[1]:
            bad("players", f"{self.players} is not (fewest, most) with 1 <= fewest <= most")
        for cols in ("game_columns", "seat_columns"):
            v = tuple(getattr(self, cols))
            if len(set(v)) != len(v):
                bad(cols, f"repeated names {sorted({c for c in v if v.count(c) > 1})}")
            setattr(self, cols, v)
        if self.game_columns[:4] != FIRST_GAME_COLUMNS:
            bad("game_columns", f"must start with {FIRST_GAME_COLUMNS}, "
                                f"got {self.game_columns[:4]}")
        if not self.policies:
            bad("policies", "at least one policy is needed")
        if len(set(self.policies.values())) != len(self.policies):
            bad("policies", "two policies share a kernel id")
        if set(self.policy_docs) != set(self.policies):
            bad("policy_docs", f"documents {sorted(self.policy_docs)}, "
                               f"policies are {sorted(self.policies)}")
        for k in self.headline:
            if k not in self.space.infos:
                bad("headline", f"{k!r} is not a declared parameter")
        for k in self.headline_roles:
            if k not in self.headline:
                bad("headline_roles", f"{k!r} is not a headline parameter")
        if not self.bench:
            bad("bench", "at least one configuration is needed")
        for cfg in self.bench:
            if not {"label", "players", "policies"} <= set(cfg):
                bad("bench", f"{cfg} lacks label, players or policies")
            if not self.players[0] <= cfg["players"] <= self.players[1]:
                bad("bench", f"{cfg['label']!r}: {cfg['players']} players is out of range")
            for p in cfg["policies"]:
                if p not in self.policies:
                    bad("bench", f"{cfg['label']!r}: unknown policy {p!r}")
            for k in cfg.get("params", {}):
                if k not in self.space.infos:
                    bad("bench", f"{cfg['label']!r}: unknown parameter {k!r}")
        for m in self.ban_modes:
            if m not in BAN_CODES:
                bad("ban_modes", f"{m!r} is not one of {sorted(BAN_CODES)}")
        if not isinstance(self.kernel, str):
            bad("kernel", "a module path (a string), so that the kernel loads on first use")
        if not self.compile_time:
            bad("compile_time", "say roughly how long the first compile takes")

    # --- derived ----------------------------------------------------------------------
    def n_kinds(self, values: dict) -> int:
        return len(self.card_kinds(values))

    def role_names(self, values: dict) -> dict:
        """role code -> slug, the name tables and options use ("7 glutton"
        -> "glutton", "10 king kong" -> "king_kong", "7 (x100)" -> "7_x100");
        ``roles`` keeps the labels for display."""
        return {k: role_slug(v) for k, v in (self.roles(values) if self.roles else {}).items()}

    def kernel_module(self):
        """The compiled kernel (imported, so compiled or loaded, on first use)."""
        return importlib.import_module(self.kernel)

    def kernels(self) -> dict:
        """{"run": dispatcher, "replay": dispatcher}: what core.jit watches."""
        return self.kernel_module().KERNELS

    # --- how the kernel is fed (``core.batch`` calls it) -------------------------------
    def data(self, given: dict | None = None) -> dict:
        """{name: DataTable} of every data file of the ruleset: the file
        given for it (a path), else its default (the package's own)."""
        given = dict(given or {})
        for name in given:
            if name not in self.data_files:
                raise BalanceError(f"{self.name} has no data file {name!r}"
                                   + (f" (it has: {', '.join(self.data_files)})"
                                      if self.data_files else ""))
        return {name: load(given.get(name)) for name, load in self.data_files.items()}

    def _package_arrays(self, values: dict, codes: np.ndarray, data: dict | None) -> tuple:
        if self.kernel_args is None:
            return (*self.space.vectors(values), codes)
        if self.data_files:
            return self.kernel_args(values, codes, **(data or self.data()))
        return self.kernel_args(values, codes)

    def kernel_arrays(self, values: dict, codes: np.ndarray, data: dict | None = None,
                      seat_values: list | None = None) -> tuple:
        """The arrays the kernel takes after the policy ids, for parameter
        ``values``, ban ``codes`` (one per card kind) and data tables.

        The second array, the float policy parameters, reaches the kernel as
        one row per seat (``spec.players[1]`` rows; seat ``p`` reads row
        ``p``), so that a policy variant (``greedy[hand_damage_value=16]``)
        plays at one seat only: ``seat_values`` gives each seat's values
        (they differ from ``values`` in float policy parameters only);
        without it every row is ``values``' own."""
        args = list(self._package_arrays(values, codes, data))
        rows = [args[1]] * self.players[1]
        for p, v in enumerate(seat_values or ()):
            if v is not values and v != values:
                rows[p] = self._package_arrays(v, codes, data)[1]
        args[1] = np.ascontiguousarray(np.stack(rows), dtype=np.float64)
        return tuple(args)

    @classmethod
    def from_package(cls, rules, layout, **fields) -> "RulesetSpec":
        """The spec of a ruleset laid out as the contract says: the parameter
        space, policies, policy docs, card kinds and (if defined) the value
        check come from ``rules`` (``Params``, ``PolicyParams``, ``POLICIES``,
        ``POLICY_DOCS``, ``card_kinds``, ``check_values``), the columns and end
        reasons from ``layout`` (``GAME_COLUMNS``, ``SEAT_COLUMNS``,
        ``END_REASONS``); ``fields`` give the rest, and may override any."""
        base = dict(space=ParamSpace(rules.Params, rules.PolicyParams),
                    policies=rules.POLICIES, policy_docs=rules.POLICY_DOCS,
                    card_kinds=rules.card_kinds, game_columns=layout.GAME_COLUMNS,
                    seat_columns=layout.SEAT_COLUMNS, end_reasons=layout.END_REASONS)
        if hasattr(rules, "check_values"):
            base["check_values"] = rules.check_values
        return cls(**{**base, **fields})


def role_slug(label: str) -> str:
    """A role label as a name without spaces: lower case, runs of other
    characters become one '_'; a leading rank number is dropped when a word
    follows it."""
    import re
    words = re.findall(r"[0-9a-z]+", str(label).lower())
    if len(words) > 1 and words[0].isdigit() and str(label).split()[1][:1].isalpha():
        words = words[1:]
    return "_".join(words) or str(label)


def field_docs() -> list[tuple[str, bool, str]]:
    """(field, required, what it is) for every field: the contract's table."""
    return [(f.name, f.default is _REQUIRED, f.metadata["doc"])
            for f in dataclasses.fields(RulesetSpec)]


