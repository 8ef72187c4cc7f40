"""A run's results: who won, the rate tables, and :class:`Result`, the
tables of one run (games, seats, cards, summary; merged, saved).

Who won is a game's outcome read from its records, the meaning every table
of a run shares (:class:`Result` from the full tables, ``summary.Summary``
from per-piece sums, the workflows). A win is read once here, so the paths
cannot disagree: the won matrix (a ruleset's own ``won`` seat column where
sides hold several seats, else the game's ``winner``), a sole win, whether
wins can be shared, the seat that moved first and the first mover's figure.
The seat and policy tables are built from win counts (:func:`seat_table`,
:func:`policy_table`), whichever path counted them.
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
from .io import json_default, json_rows, version, write_parquet
from .outdir import publish
from .records import Batch, mask_counts
from .setup import Setup


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


@dataclass
class Result:
    """Tables of one run: ``games``, ``seats``, ``cards`` and ``summary``."""
    setup: Setup
    batch: Batch
    elapsed: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False)
    compiled: bool = False        # this run compiled its kernel (its time is mostly that)

    # --- tables ---------------------------------------------------------
    @property
    def spec(self):
        return self.setup.spec

    def _game_cols(self) -> dict:
        """The games table's columns by name, in order: 1-D arrays (views of
        the record block where they can be) and categoricals. The DataFrame
        (:attr:`games`) and the Parquet file (:meth:`save`) are both built
        from them, so neither goes through the other."""
        b, spec = self.batch, self.spec
        cols = {"game": np.arange(b.start, b.start + b.n, dtype=np.int64)}
        for j, c in enumerate(spec.game_columns):
            cols[c] = b.games[:, j]
        cols["end_reason"] = pd.Categorical.from_codes(
            b.games[:, list(spec.game_columns).index("end_reason")],
            categories=list(spec.end_reasons))
        return cols

    def _seat_cols(self) -> dict:
        """The seats table's columns by name, in order (as :meth:`_game_cols`):
        ``game``, ``seat``, ``policy``, the ruleset's seat columns (``role``
        labelled), ``won`` (bool; and ``sole_win`` where wins can be shared),
        then the drawn/played card masks per 64-kind word."""
        b, spec = self.batch, self.spec
        n, P = b.n, self.setup.n_players
        block = b.seats.reshape(n * P, -1)
        cols = {"game": np.repeat(np.arange(b.start, b.start + n, dtype=np.int64), P),
                "seat": np.tile(np.arange(P, dtype=np.int64), n),
                "policy": _tile_labels(self.setup.policies, n)}
        for j, c in enumerate(spec.seat_columns):
            cols[c] = block[:, j]
        if "role" in cols:
            cols["role"] = self._roles(cols["role"])
        cols.update(self._won_cols())       # a ruleset's own 'won' column: same values, bool
        for w in range(b.masks.shape[3]):
            cols[f"drawn_mask{w}"] = b.masks[:, :, 0, w].reshape(-1)
            cols[f"played_mask{w}"] = b.masks[:, :, 1, w].reshape(-1)
        return cols

    def _won_cols(self) -> dict:
        """``won`` per game and seat, flattened (bool), and ``sole_win`` where
        wins can be shared."""
        won = won_matrix(self.spec, self.batch)
        cols = {"won": won.reshape(-1)}
        if shares_wins(self.spec):
            cols["sole_win"] = sole_wins(won).reshape(-1)
        return cols

    def _roles(self, codes):
        """The role column: labelled by the ruleset's role names (where it has roles)."""
        if self.spec.roles is None:
            return codes
        return _label(codes, self.spec.role_names(self.setup.values))

    @property
    def games(self) -> pd.DataFrame:
        if "games" not in self._cache:
            # one column per array, no copy (a 2-D block split by inserts
            # copied 0.2 s per 1,000,000 talisman games)
            self._cache["games"] = pd.DataFrame(self._game_cols(), copy=False)
        return self._cache["games"]

    @property
    def seats(self) -> pd.DataFrame:
        if "seats" not in self._cache:
            self._cache["seats"] = pd.DataFrame(self._seat_cols(), copy=False)
        return self._cache["seats"]

    @property
    def cards(self) -> pd.DataFrame:
        if "cards" not in self._cache:
            kinds = self.spec.card_kinds(self.setup.values)
            won = won_matrix(self.spec, self.batch)
            n1, k1 = mask_counts(self.batch.masks, won, len(kinds))
            seats = {name: (n1[which], k1[which]) for which, name in ((0, "drawn"), (1, "played"))}
            self._cache["cards"] = stats.card_power(kinds, seats, int(won.size),
                                                    int(won.sum()), self.batch.counts)
        return self._cache["cards"]

    def _seat_counts(self):
        """(wins, sole wins or None) per seat: what the seat and policy tables
        count, from the won matrix (no grouping of the per-seat frame)."""
        if "seat_counts" not in self._cache:
            won = won_matrix(self.spec, self.batch)
            sole = None
            if shares_wins(self.spec):
                sole = sole_wins(won).sum(axis=0)
            self._cache["seat_counts"] = (won.sum(axis=0), sole)
        return self._cache["seat_counts"]

    def by_seat(self) -> pd.DataFrame:
        return seat_table(self.setup.n_players, *self._seat_counts(), self.batch.n)

    def by_policy(self) -> pd.DataFrame:
        return policy_table(self.setup.policies, *self._seat_counts(), self.batch.n)

    def by_role(self) -> pd.DataFrame | None:
        spec = self.spec
        if "role" not in spec.seat_columns:
            return None
        # the columns it reads, not the whole seats table
        role = self.batch.seats[:, :, spec.seat_columns.index("role")].reshape(-1)
        cols = {"role": self._roles(role), **self._won_cols()}
        return stats.rate_table(pd.DataFrame(cols, copy=False), "role")

    def first_mover(self) -> dict:
        """Win rate of the seat that moved first, with its 95% Wilson interval."""
        won = won_matrix(self.spec, self.batch)
        first = first_seats(self.spec, self.batch)
        return first_mover_figure(self.spec, int(won[np.arange(self.batch.n), first].sum()),
                                  self.batch.n)

    def shared_wins(self) -> dict | None:
        """Where wins can be shared: how often they were, and what the seat
        win rates add to (the fair share is their mean, not 1/players)."""
        if not shares_wins(self.spec):
            return None
        won = won_matrix(self.spec, self.batch)
        n = self.batch.n
        winners = won.sum(axis=1)
        return {"games_with_shared_win": int((winners > 1).sum()),
                "share": float((winners > 1).mean()) if n else float("nan"),
                "seat_win_rates_sum": float(won.mean(axis=0).sum()) if n else float("nan"),
                # one division of two integers, as in Summary: the same float on both paths
                "fair_share": int(won.sum()) / won.size if n else float("nan")}

    def end_reasons(self) -> pd.Series:
        return self.games["end_reason"].value_counts(sort=False)

    # --- summary --------------------------------------------------------
    @property
    def summary(self) -> dict:
        if "summary" not in self._cache:
            g = self.games
            n = len(g)
            # a draw: no seat won (a tie whose win is shared is not one)
            draws = int((~won_matrix(self.spec, self.batch).any(axis=1)).sum())
            dlo, dhi = stats.wilson(draws, n)

            table = json_rows
            out = {**self.setup.describe(),
                   "games": n, "first_game": self.batch.start,
                   "balance_version": version(),
                   "draws": {"count": draws, "share": draws / n if n else float("nan"),
                             "ci_low": float(dlo), "ci_high": float(dhi)},
                   "by_seat": table(self.by_seat()),
                   "by_policy": table(self.by_policy()),
                   "length_turns": stats.length_stats(g["turns"]),
                   "end_reasons": {str(k): int(v) for k, v in self.end_reasons().items()}}
            role = self.by_role()
            if role is not None:
                out["by_role"] = table(role)
            out["first_mover"] = self.first_mover()
            shared = self.shared_wins()
            if shared is not None:
                out["shared_wins"] = shared
            if self.spec.summary is not None:
                out.update(self.spec.summary(self))
            self._cache["summary"] = out
        return self._cache["summary"]

    def save(self, out: str | os.PathLike) -> Path:
        """Write games.parquet, seats.parquet, cards.csv and summary.json,
        whole (``core.outdir.publish``: the COMPLETE marker is written last).

        Each Parquet file also carries the run description (ruleset, version,
        parameters, seed) in its schema metadata."""
        meta = json.dumps(self.setup.describe(), default=str)

        def write(d):
            from concurrent.futures import ThreadPoolExecutor
            # pyarrow encodes without the GIL: each file is written on a
            # thread (seats.parquet, the longer, first), while this one
            # tallies the cards and the summary
            with ThreadPoolExecutor(2) as pool:
                writing = [pool.submit(write_parquet, d / f"{name}.parquet", cols(), meta)
                           for name, cols in (("seats", self._seat_cols),
                                              ("games", self._game_cols))]
                self.cards.to_csv(d / "cards.csv", index=False)
                (d / "summary.json").write_text(json.dumps(self.summary, indent=2,
                                                           default=json_default))
                for f in writing:
                    f.result()
        publish(out, write, keep=(".partial",))
        return Path(out)

    @staticmethod
    def merge(parts: list["Result"]) -> "Result":
        """Join results of disjoint game ranges of one setup."""
        first = parts[0].setup
        for p in parts[1:]:
            if p.setup.describe() != first.describe():
                raise BalanceError("cannot merge results of different setups")
        return Result(first, Batch.concat([p.batch for p in parts]),
                      sum(p.elapsed for p in parts))


def _label(codes, labels: dict) -> pd.Categorical:
    codes = np.asarray(codes)
    keys = np.array(sorted(set(np.unique(codes).tolist()) | set(labels)), dtype=np.int64)
    cats = [labels.get(int(k), str(int(k))) for k in keys]
    return pd.Categorical.from_codes(np.searchsorted(keys, codes), categories=cats)


def _tile_labels(per_seat, n: int) -> pd.Categorical:
    """The seats' labels repeated for ``n`` games, as a categorical with
    sorted categories (built from codes: no per-row string)."""
    cats = sorted(set(per_seat))
    return pd.Categorical.from_codes(np.tile([cats.index(x) for x in per_seat], n),
                                     categories=cats)
