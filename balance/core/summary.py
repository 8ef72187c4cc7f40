"""The one model of a run's outcomes: who won, the run's mergeable sums,
and every figure computed from them.

Who won is read from the records once here, so no two tables can disagree:
the won matrix (a ruleset's own ``won`` seat column where sides hold
several seats, else the game's ``winner``), a sole win, whether wins can be
shared, the seat that moved first.

Each piece of games (a chunk of ``play.play_range``, played here or on a
worker) is reduced to integer sums (:func:`reduce`): wins, sole wins and
seat-games by seat and by role, draws, first-mover wins, games with a
shared win, histograms of game lengths, end-reason counts, and per card
kind the seats that drew / played it and how many of those won. Integer
sums merge exactly in any order (:func:`merge`). :class:`Sums` computes
every figure and table from them: ``results.Result`` reads its figures
from the Sums of its full tables, a ``--summary-only`` run
(:class:`Summary`) from its merged chunks, in memory that does not grow
with the games, and a workflow's point from its own (:meth:`Sums.rates`).
So the figures are the same whichever way the games were kept. The
per-game tables are one optional sink (``results.Result``); a ruleset's own
extra figures (``spec.summary``), which read them, are a full run's only.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import stats
from .errors import BalanceError
from .io import json_default, json_rows, version
from .outdir import publish
from .records import Batch


def won_matrix(spec, batch: Batch) -> np.ndarray:
    """bool[n, P]: whether each seat won each game. A ruleset whose sides can
    hold several seats (teams, zombies) provides a ``won`` seat column; else a
    seat won when it is the game's ``winner``."""
    if "won" in spec.seat_columns:
        return batch.seats[:, :, spec.seat_columns.index("won")].astype(bool)
    P = batch.seats.shape[1]
    return batch.games[:, 0][:, None] == np.arange(P)[None, :]


def sole_wins(won: np.ndarray) -> np.ndarray:
    """bool[n, P]: the seat won and no other seat did."""
    return won & (won.sum(axis=1) == 1)[:, None]


def shares_wins(spec) -> bool:
    """Can several seats win one game (teams, zombies, houses)? Then every
    table shows the sole-win rate beside the win rate, and win rates of the
    seats may add to more than 100%."""
    return "won" in spec.seat_columns


def first_seats(spec, batch: Batch) -> np.ndarray:
    """int64[n]: the seat that moved first in each game (the ``first_seat``
    game column where the rules decide the order, else seat 0)."""
    if "first_seat" in spec.game_columns:
        return batch.games[:, spec.game_columns.index("first_seat")].astype(np.int64)
    return np.zeros(batch.n, np.int64)


def first_won(won: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
    """bool[n]: whether the seat that moved first won each game (``first``:
    int[n] the first seats, as :func:`first_seats`; None: seat 0)."""
    n = won.shape[0]
    first = np.zeros(n, np.int64) if first is None else np.asarray(first, np.int64)
    return won[np.arange(n), first]


def seat_roles(spec, batch: Batch) -> np.ndarray | None:
    """int[n, P]: the role each seat held, where the ruleset has roles (a
    ``role`` seat column); else None."""
    if spec.roles is None or "role" not in spec.seat_columns:
        return None
    return batch.seats[:, :, spec.seat_columns.index("role")]


def capped_games(spec, end) -> np.ndarray:
    """bool[n]: the games whose end reason (codes ``end``) is the turn cap;
    none where the ruleset has no capped end."""
    reasons = list(spec.end_reasons)
    end = np.asarray(end)
    if "turn_cap" not in reasons:
        return np.zeros(end.size, bool)
    return end == reasons.index("turn_cap")


def groups(setup, role_ids=()) -> list[tuple]:
    """The win-rate groups of a setup's seats, in the order every table
    lists them: ``(group, key, members)`` for each seat (``members``: its
    index in an int array), each policy in the order the seats first play
    it (the seats playing it) and each role of ``role_ids`` (``members``:
    the role id; its seats vary by game). A group's rate is its seats' wins
    over its seats."""
    out = [("seat", str(j), np.array([j])) for j in range(setup.n_players)]
    pol = np.array(setup.policies)
    out += [("policy", p, np.flatnonzero(pol == p)) for p in dict.fromkeys(setup.policies)]
    if len(role_ids):
        labels = setup.spec.role_names(setup.values)
        out += [("role", labels.get(r, str(r)), r) for r in role_ids]
    return out


def group_columns(setup, won: np.ndarray, role=None, all_roles: bool = False) -> dict:
    """{(group, key): (w, c)}: per game, the wins ``w`` and the seats ``c``
    of each of :func:`groups` (``won``: bool[n, P], e.g. the sole wins;
    ``role``: int[n, P], rulesets with roles), so that a group's rate is
    sum(w)/sum(c) and two runs of the same games pair game by game. Roles
    no seat held are left out, but with ``all_roles`` those the ruleset
    names, so that pieces of games have the same groups."""
    n = won.shape[0]
    ids = []
    if role is not None:
        labels = setup.spec.role_names(setup.values)
        ids = [r for r in sorted(set(np.unique(role).tolist()) | set(labels))
               if (all_roles and r in labels) or (role == r).any()]
    out = {}
    for g, key, m in groups(setup, ids):
        if g == "role":
            has = role == m
            out[(g, key)] = ((has & won).sum(axis=1).astype(np.int64), has.sum(axis=1))
        else:
            out[(g, key)] = (won[:, m].sum(axis=1).astype(np.int64),
                             np.full(n, m.size, np.int64))
    return out


def first_mover_figure(spec, wins: int, games: int) -> dict:
    """The first mover's win rate with its 95% Wilson interval."""
    lo, hi = stats.wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games if games else float("nan"),
            "ci_low": float(lo), "ci_high": float(hi), "turn_order": spec.turn_order}


def count_table(keys, wins, games, sole=None) -> pd.DataFrame:
    """Win rates with 95% Wilson intervals from counts: ``wins`` of
    ``games`` per key (and ``sole`` wins, where wins can be shared)."""
    wins, games = np.asarray(wins, np.int64), np.asarray(games, np.int64)
    lo, hi = stats.wilson(wins, games)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = pd.DataFrame({"games": games, "wins": wins, "win_rate": wins / games,
                            "ci_low": lo, "ci_high": hi}, index=pd.Index(keys))
        if sole is not None:
            sole = np.asarray(sole, np.int64)
            slo, shi = stats.wilson(sole, games)
            out["sole_wins"] = sole
            out["sole_win_rate"] = sole / games
            out["sole_ci_low"], out["sole_ci_high"] = slo, shi
    return out


def seat_table(n_players: int, seat_wins, seat_sole, n: int) -> pd.DataFrame:
    """Win rate per seat from its win (and sole-win) counts over ``n`` games:
    the table ``stats.rate_table(seats, "seat")`` gives, without the frame."""
    df = count_table(np.arange(n_players), seat_wins, np.full(n_players, n), seat_sole)
    df.index = pd.Index(np.arange(n_players, dtype=np.int64), name="seat")
    return df


def policy_table(policies: list, seat_wins, seat_sole, n: int) -> pd.DataFrame:
    """Win rate per policy (all seats playing it), as ``seat_table``."""
    pol = np.array(policies)
    keys = sorted(set(policies))
    w = [int(np.asarray(seat_wins)[pol == k].sum()) for k in keys]
    so = None if seat_sole is None else [int(np.asarray(seat_sole)[pol == k].sum())
                                         for k in keys]
    df = count_table(keys, w, [int((pol == k).sum()) * n for k in keys], so)
    df.index = pd.CategoricalIndex(keys, categories=keys, name="policy")
    return df


# length histogram bins: turns beyond this are counted in the last bin and
# their exact values kept in ``long`` (rare: capped or very long games)
MAX_BIN = 4096


def reduce(spec, values: dict, b: Batch) -> dict:
    """The integer aggregates of one piece of games (see the module doc)."""
    won = won_matrix(spec, b)
    d = outcome_sums(spec, values, won, b.games[:, 1], b.games[:, 3], seat_roles(spec, b),
                     b.games[:, 2])
    d["first_wins"] = np.array(int(first_won(won, first_seats(spec, b)).sum()), np.int64)
    d["counts"] = b.counts.astype(np.int64)
    from .tally import mask_counts           # compiled: numba loads on first use
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


def length_counts(agg: dict, prefix: str = "") -> tuple[np.ndarray, np.ndarray]:
    """(lengths, games): each game length the histogram ``prefix + "hist"``
    counts, ascending, and how many games had it (a length beyond the
    histogram's bins once per game): what a length plot draws."""
    h, long = agg[prefix + "hist"], agg[prefix + "long"]
    lengths = np.flatnonzero(h[:-1])
    return (np.concatenate([lengths, long]),
            np.concatenate([h[lengths], np.ones(long.size, np.int64)]))


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
        t, d = x - lo, b - a
        # numpy's linear interpolation to the last bit: from the upper
        # neighbour when t >= 0.5 (np.percentile's _lerp)
        return float(b - d * (1 - t)) if t >= 0.5 else float(a + d * t)
    return {"mean": total / n, "median": pct(0.5), "p90": pct(0.9),
            "max": int(long[-1]) if long.size else int(np.flatnonzero(hist[:-1])[-1])}


@dataclass
class Sums:
    """A run's (or a piece's) mergeable sums with its setup: every figure
    and table of a run is computed here, from the sums only.

    ``results.Result`` keeps the per-game tables as well and reads its
    figures from the Sums of its tables (:meth:`of`); :class:`Summary` is a
    ``--summary-only`` run, its Sums merged chunk by chunk; a workflow's
    point is read through :meth:`rates` and :meth:`lengths`."""
    setup: object
    agg: dict
    start: int = 0
    _cache: dict = field(default_factory=dict, repr=False, kw_only=True)

    @staticmethod
    def of(s, batch: Batch) -> "Sums":
        """The Sums of a setup's games in ``batch``."""
        return Sums(s, reduce(s.spec, s.values, batch), batch.start)

    @classmethod
    def merge(cls, parts: list["Sums"]) -> "Sums":
        """The sums of disjoint pieces of one setup's games, as one (exact,
        in any order: :func:`merge`)."""
        first = parts[0].setup
        if any(p.setup.describe() != first.describe() for p in parts[1:]):
            raise BalanceError("cannot merge sums of different setups")
        return cls(first, merge([p.agg for p in parts]), min(p.start for p in parts))

    @property
    def spec(self):
        return self.setup.spec

    @property
    def n(self) -> int:
        return int(self.agg["n"])

    def _sole(self, key: str):
        """The sole-win counts ``key``, where wins can be shared, else None."""
        return self.agg[key] if shares_wins(self.spec) else None

    def by_seat(self) -> pd.DataFrame:
        return seat_table(self.setup.n_players, self.agg["seat_wins"], self._sole("seat_sole"),
                          self.n)

    def by_policy(self) -> pd.DataFrame:
        return policy_table(self.setup.policies, self.agg["seat_wins"], self._sole("seat_sole"),
                            self.n)

    def by_role(self) -> pd.DataFrame | None:
        """Win rate per role held (rulesets with roles), in role order; the
        index is categorical over the roles held and those the ruleset
        names (as the seats table's ``role`` column)."""
        if "role_games" not in self.agg:
            return None
        names = self.spec.role_names(self.setup.values)
        g = self.agg["role_games"]
        ids = [int(r) for r in np.flatnonzero(g)]
        cats = [names.get(r, str(r)) for r in sorted(set(ids) | set(names))]
        sole = self._sole("role_sole")
        df = count_table([names.get(r, str(r)) for r in ids], self.agg["role_wins"][ids], g[ids],
                         None if sole is None else sole[ids])
        df.index = pd.CategoricalIndex(df.index, categories=cats, name="role")
        return df

    def first_mover(self) -> dict:
        """Win rate of the seat that moved first, with its 95% Wilson interval."""
        return first_mover_figure(self.spec, int(self.agg["first_wins"]), self.n)

    def draws(self) -> dict:
        """Games no seat won (a tie whose win is shared is not one)."""
        n, draws = self.n, int(self.agg["draws"])
        lo, hi = stats.wilson(draws, n)
        return {"count": draws, "share": draws / n if n else float("nan"),
                "ci_low": float(lo), "ci_high": float(hi)}

    def shared_wins(self) -> dict | None:
        """Where wins can be shared: how often they were, and what the seat
        win rates add to (the fair share is their mean, not 1/players)."""
        if not shares_wins(self.spec):
            return None
        a, n = self.agg, self.n
        rates = a["seat_wins"] / n if n else np.full(self.setup.n_players, np.nan)
        return {"games_with_shared_win": int(a["shared"]),
                "share": int(a["shared"]) / n if n else float("nan"),
                "seat_win_rates_sum": float(rates.sum()),
                "fair_share": (int(a["seat_wins"].sum()) / (n * len(rates))
                               if n else float("nan"))}

    def length_turns(self) -> dict:
        return length_stats(self.agg["hist"], self.agg["long"])

    def end_reasons(self) -> pd.Series:
        """Games per end reason, in the ruleset's order."""
        reasons = list(self.spec.end_reasons)
        return pd.Series(np.asarray(self.agg["end"][:len(reasons)], np.int64),
                         index=pd.CategoricalIndex(reasons, categories=reasons,
                                                   name="end_reason"), name="count")

    @property
    def cards(self) -> pd.DataFrame:
        """Observational per-card power (``stats.card_power``)."""
        if "cards" not in self._cache:
            kinds = self.spec.card_kinds(self.setup.values)
            a = self.agg
            seats = {name: (a["kind_seats"][w], a["kind_wins"][w])
                     for w, name in ((0, "drawn"), (1, "played"))}
            self._cache["cards"] = stats.card_power(
                kinds, seats, self.n * self.setup.n_players, int(a["seat_wins"].sum()),
                a["counts"])
        return self._cache["cards"]

    def figures(self, **flags) -> dict:
        """The run's summary.json: its description, then ``flags`` (such as
        ``summary_only=True``), then every figure."""
        table = json_rows
        out = {**self.setup.describe(), "games": self.n, "first_game": self.start,
               "balance_version": version(), **flags,
               "draws": self.draws(),
               "by_seat": table(self.by_seat()), "by_policy": table(self.by_policy()),
               "length_turns": self.length_turns(),
               "end_reasons": {str(r): int(c) for r, c in zip(self.spec.end_reasons,
                                                               self.agg["end"])}}
        role = self.by_role()
        if role is not None:
            out["by_role"] = table(role)
        out["first_mover"] = self.first_mover()
        shared = self.shared_wins()
        if shared is not None:
            out["shared_wins"] = shared
        return out

    # --- a workflow's point ------------------------------------------------
    def rates(self) -> pd.DataFrame:
        """Win rates per seat, policy (in the order the seats first play
        them) and role held (Wilson), followed by :meth:`lengths`: the
        tidy table of one sweep point."""
        s, agg, n = self.setup, self.agg, self.n
        keys, wins, games, sole = [], [], [], []
        held = np.flatnonzero(agg["role_games"]).tolist() if "role_games" in agg else []
        for g, key, m in groups(s, held):
            keys.append((g, key))
            if g == "role":
                wins.append(int(agg["role_wins"][m]))
                sole.append(int(agg["role_sole"][m]))
                games.append(int(agg["role_games"][m]))
            else:
                wins.append(int(agg["seat_wins"][m].sum()))
                sole.append(int(agg["seat_sole"][m].sum()))
                games.append(m.size * n)
        df = pd.DataFrame({"group": [k[0] for k in keys], "key": [k[1] for k in keys],
                           "games": games, "wins": wins})
        lo, hi = stats.wilson(df["wins"], df["games"])
        df["win_rate"] = df["wins"] / df["games"]
        df["ci_low"], df["ci_high"] = lo, hi
        if shares_wins(self.spec):
            slo, shi = stats.wilson(np.array(sole), df["games"])
            df["sole_win_rate"] = np.array(sole) / df["games"]
            df["sole_ci_low"], df["sole_ci_high"] = slo, shi
        for k, v in self.lengths().items():
            df[k] = v
        return df

    def lengths(self) -> dict:
        """Game length and end figures: mean turns with a normal interval,
        median, 90th percentile, maximum, draw, capped and (where wins are
        shared) shared-win rates."""
        agg, n, spec = self.agg, self.n, self.spec
        T, T2 = turns_sum(agg), int(agg["turns_sq"])
        G = np.array([[n, T, n], [T, T2, T], [n, T, n]], np.int64)
        m, lo, hi, _ = stats.ratio_mean_g(G)
        ls = length_stats(agg["hist"], agg["long"])
        reasons = list(spec.end_reasons)
        capped = int(agg["end"][reasons.index("turn_cap")]) if "turn_cap" in reasons else 0
        draws = int(agg["draws"])
        out = {"n_games": n, "turns_mean": m, "turns_mean_low": lo, "turns_mean_high": hi,
               "turns_median": ls["median"] if n else np.nan,
               "turns_p90": ls["p90"] if n else np.nan, "turns_max": int(ls["max"]) if n else 0,
               "draw_rate": draws / n if n else np.nan,
               "capped_rate": capped / n if n else np.nan}
        if shares_wins(spec):
            out["shared_win_rate"] = int(agg["shared"]) / n if n else np.nan
        return out


@dataclass
class Summary(Sums):
    """A ``--summary-only`` run: its :class:`Sums` (no per-game table is
    kept), with the interface of ``results.Result`` that needs none
    (``sums``, ``by_seat``, ``by_policy``, ``by_role``, ``first_mover``,
    ``cards``, ``summary``, ``save``; ``ruleset_figures`` is None)."""
    elapsed: float = 0.0
    compiled: bool = False        # this run compiled its kernel
    # the ruleset's own figures (``spec.summary``) read the per-game tables:
    # not computed here (``results.Result.ruleset_figures``)
    ruleset_figures = None

    @property
    def sums(self) -> Sums:
        """Its Sums (itself), as ``results.Result.sums``."""
        return self

    @property
    def summary(self) -> dict:
        if "summary" not in self._cache:
            self._cache["summary"] = self.figures(summary_only=True)
        return self._cache["summary"]

    def save(self, out: str | os.PathLike) -> Path:
        """Write summary.json and cards.csv whole (``core.outdir.publish``)."""

        def write(d):
            self.cards.to_csv(d / "cards.csv", index=False)
            (d / "summary.json").write_text(json.dumps(self.summary, indent=2, default=json_default))
        publish(out, write, keep=(".partial",))
        return Path(out)
