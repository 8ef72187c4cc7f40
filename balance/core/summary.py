"""``--summary-only``: a run's figures from per-piece aggregates, in memory
that does not grow with the number of games.

Each piece of games (a chunk of ``play.play_range``) is reduced as soon as
it is played to integer sums: wins, sole wins and seat-games by seat and by
role, draws, first-mover wins, games with a shared win, a histogram of game
lengths, end-reason counts, and per card kind the seats that drew / played
it and how many of those won. Integer sums merge exactly in any order, so
the figures equal those computed from the full tables (tested), on one
machine or a cluster. The per-game and per-seat tables are not kept, and a
ruleset's own extra figures (``spec.summary``, which read those tables)
are left out.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import stats
from .io import json_default, json_rows, version
from .outdir import publish
from .records import Batch, mask_counts
from .results import (count_table, first_mover_figure, first_seats, policy_table, seat_table,
                      shares_wins, sole_wins, won_matrix)

# length histogram bins: turns beyond this are counted in the last bin and
# their exact values kept in ``long`` (rare: capped or very long games)
MAX_BIN = 4096


def reduce(spec, values: dict, b: Batch) -> dict:
    """The integer aggregates of one piece of games (see the module doc)."""
    won = won_matrix(spec, b)
    role = None
    if spec.roles is not None and "role" in spec.seat_columns:
        role = b.seats[:, :, spec.seat_columns.index("role")]
    d = outcome_sums(spec, values, won, b.games[:, 1], b.games[:, 3], role, b.games[:, 2])
    d["first_wins"] = np.array(int(won[np.arange(b.n), first_seats(spec, b)].sum()), np.int64)
    d["counts"] = b.counts.astype(np.int64)
    seats, wins = mask_counts(b.masks, won, spec.n_kinds(values))
    d["kind_seats"], d["kind_wins"] = seats, wins
    return d


def outcome_sums(spec, values: dict, won, turns, end, role=None, rounds=None) -> dict:
    """The aggregates of a piece that need no card masks: from the won
    matrix (bool[n, P]), the game lengths in turns, the end-reason codes,
    the role of each seat (int[n, P], rulesets with roles) and the lengths
    in rounds. Also what the workflows' length intervals need: the sum of
    squared lengths."""
    winners = won.sum(axis=1)
    sole = sole_wins(won)
    n = int(won.shape[0])
    turns = np.asarray(turns, np.int64)
    hist = np.bincount(np.minimum(turns, MAX_BIN), minlength=MAX_BIN + 1).astype(np.int64)
    d = {"n": np.array(n, np.int64),
         "seat_wins": won.sum(axis=0).astype(np.int64),
         "seat_sole": sole.sum(axis=0).astype(np.int64),
         "draws": np.array(int((winners == 0).sum()), np.int64),     # no seat won
         "shared": np.array(int((winners > 1).sum()), np.int64),
         "hist": hist, "long": np.sort(turns[turns > MAX_BIN]).astype(np.int64),
         "turns_sq": np.array(int((turns * turns).sum()), np.int64),
         **({} if rounds is None else _hist("rounds_", np.asarray(rounds, np.int64))),
         "end": np.bincount(np.asarray(end, np.int64),
                            minlength=len(spec.end_reasons)).astype(np.int64)}
    if role is not None:
        role = np.asarray(role, np.int64)
        R = int(max(role.max(initial=0), max(spec.role_names(values), default=0))) + 1
        d["role_games"] = np.bincount(role.ravel(), minlength=R).astype(np.int64)
        d["role_wins"] = np.bincount(role.ravel(), weights=won.ravel(), minlength=R).astype(np.int64)
        d["role_sole"] = np.bincount(role.ravel(), weights=sole.ravel(), minlength=R).astype(np.int64)
    return d


def _hist(prefix: str, x: np.ndarray) -> dict:
    return {prefix + "hist": np.bincount(np.minimum(x, MAX_BIN),
                                         minlength=MAX_BIN + 1).astype(np.int64),
            prefix + "long": np.sort(x[x > MAX_BIN]).astype(np.int64)}


def span(agg: dict, prefix: str = "") -> tuple[int, int]:
    """(shortest, longest) game length of the histogram ``prefix + "hist"``
    (turns; ``"rounds_"``: rounds)."""
    h, long = agg[prefix + "hist"], agg[prefix + "long"]
    nz = np.flatnonzero(h[:-1])
    lo = int(nz[0]) if nz.size else int(long[0])
    hi = int(long[-1]) if long.size else int(nz[-1])
    return lo, hi


def turns_sum(agg: dict) -> int:
    """The total of the game lengths the histogram counts."""
    return int((np.arange(MAX_BIN) * agg["hist"][:-1]).sum() + agg["long"].sum())


def merge(parts: list[dict]) -> dict:
    """Sum piece aggregates (exact, any order)."""
    out = {}
    for p in parts:
        for k, v in p.items():
            if k.endswith("long"):
                out[k] = np.sort(np.concatenate([out.get(k, np.zeros(0, np.int64)), v]))
            elif k in out and out[k].shape != v.shape:          # role bins of other sizes
                m = max(out[k].size, v.size)
                out[k] = np.pad(out[k], (0, m - out[k].size)) + np.pad(v, (0, m - v.size))
            else:
                out[k] = out[k] + v if k in out else v.copy()
    return out


def _order_stat(hist: np.ndarray, long: np.ndarray, k: int) -> int:
    """The k-th smallest game length (0-based) from the histogram."""
    c = np.cumsum(hist[:-1])
    if k < c[-1]:
        return int(np.searchsorted(c, k, side="right"))
    return int(long[k - c[-1]])


def length_stats(hist: np.ndarray, long: np.ndarray) -> dict:
    """``stats.length_stats`` of the lengths the histogram counts: the same
    mean, median, 90th percentile (linear interpolation, numpy's default)
    and maximum as over the per-game column."""
    n = int(hist.sum())
    if n == 0:
        return stats.length_stats([])
    total = float((np.arange(MAX_BIN) * hist[:-1]).sum() + long.sum())

    def pct(q):
        x = q * (n - 1)
        lo = int(np.floor(x))
        a = _order_stat(hist, long, lo)
        b = _order_stat(hist, long, min(lo + 1, n - 1))
        return float(a + (x - lo) * (b - a))
    return {"mean": total / n, "median": pct(0.5), "p90": pct(0.9),
            "max": int(long[-1]) if long.size else int(np.flatnonzero(hist[:-1])[-1])}


@dataclass
class Summary:
    """The figures of a ``--summary-only`` run: the interface of
    :class:`results.Result` that needs no per-game table (``by_seat``,
    ``by_policy``, ``by_role``, ``first_mover``, ``cards``, ``summary``,
    ``save``)."""
    setup: object
    agg: dict
    start: int
    elapsed: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False)
    compiled: bool = False        # this run compiled its kernel

    @property
    def spec(self):
        return self.setup.spec

    @property
    def n(self) -> int:
        return int(self.agg["n"])

    def _shares(self) -> bool:
        return shares_wins(self.spec)

    def by_seat(self) -> pd.DataFrame:
        return seat_table(self.setup.n_players, self.agg["seat_wins"],
                          self.agg["seat_sole"] if self._shares() else None, self.n)

    def by_policy(self) -> pd.DataFrame:
        return policy_table(self.setup.policies, self.agg["seat_wins"],
                            self.agg["seat_sole"] if self._shares() else None, self.n)

    def by_role(self) -> pd.DataFrame | None:
        if "role_games" not in self.agg:
            return None
        names = self.spec.role_names(self.setup.values)
        g = self.agg["role_games"]
        ids = [r for r in range(g.size) if g[r] > 0]
        keys = [names.get(r, str(r)) for r in ids]
        df = count_table(keys, self.agg["role_wins"][ids], g[ids],
                    self.agg["role_sole"][ids] if self._shares() else None)
        df.index.name = "role"
        return df

    def first_mover(self) -> dict:
        return first_mover_figure(self.spec, int(self.agg["first_wins"]), self.n)

    @property
    def cards(self) -> pd.DataFrame:
        if "cards" not in self._cache:
            kinds = self.spec.card_kinds(self.setup.values)
            a = self.agg
            seats = {name: (a["kind_seats"][w], a["kind_wins"][w])
                     for w, name in ((0, "drawn"), (1, "played"))}
            self._cache["cards"] = stats.card_power(
                kinds, seats, self.n * self.setup.n_players, int(a["seat_wins"].sum()),
                a["counts"])
        return self._cache["cards"]

    @property
    def summary(self) -> dict:
        if "summary" not in self._cache:
            table = json_rows
            a, n = self.agg, self.n
            draws = int(a["draws"])
            dlo, dhi = stats.wilson(draws, n)
            out = {**self.setup.describe(), "games": n, "first_game": self.start,
                   "balance_version": version(), "summary_only": True,
                   "draws": {"count": draws, "share": draws / n if n else float("nan"),
                             "ci_low": float(dlo), "ci_high": float(dhi)},
                   "by_seat": table(self.by_seat()), "by_policy": table(self.by_policy()),
                   "length_turns": length_stats(a["hist"], a["long"]),
                   "end_reasons": {str(r): int(c) for r, c in zip(self.spec.end_reasons,
                                                                   a["end"])}}
            role = self.by_role()
            if role is not None:
                out["by_role"] = table(role)
            out["first_mover"] = self.first_mover()
            if self._shares():
                rates = a["seat_wins"] / n if n else np.full(self.setup.n_players, np.nan)
                out["shared_wins"] = {"games_with_shared_win": int(a["shared"]),
                                      "share": int(a["shared"]) / n if n else float("nan"),
                                      "seat_win_rates_sum": float(rates.sum()),
                                      "fair_share": (int(a["seat_wins"].sum()) / (n * len(rates))
                                                     if n else float("nan"))}
            self._cache["summary"] = out
        return self._cache["summary"]

    def save(self, out: str | os.PathLike) -> Path:
        """Write summary.json and cards.csv whole (``core.outdir.publish``)."""

        def write(d):
            self.cards.to_csv(d / "cards.csv", index=False)
            (d / "summary.json").write_text(json.dumps(self.summary, indent=2, default=json_default))
        publish(out, write, keep=(".partial",))
        return Path(out)
