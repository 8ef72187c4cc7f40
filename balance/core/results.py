"""A run's results: :class:`Result`, the per-game tables of one run
(games, seats; merged, saved as Parquet) and its figures.

The figures (seat, policy and role tables, first mover, draws, shared wins,
lengths, end reasons, cards) are not computed here: they are read from the
run's :class:`summary.Sums`, the tables reduced once (``Result.sums``), the
very model a ``--summary-only`` run and the workflows read. The tables are
what only a full run has: the per-game and per-seat frames, the Parquet
files, and a ruleset's own extra figures (``spec.summary``, which read them).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .errors import BalanceError
from .io import json_default, write_parquet
from .outdir import publish
from .records import Batch
from .setup import Setup
from .summary import Sums, shares_wins, sole_wins, won_matrix


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

    # --- figures: from the run's sums ------------------------------------
    @property
    def sums(self) -> Sums:
        """The run's :class:`summary.Sums`, reduced from its tables once:
        every figure below is read from it."""
        if "sums" not in self._cache:
            self._cache["sums"] = Sums.of(self.setup, self.batch)
        return self._cache["sums"]

    @property
    def cards(self) -> pd.DataFrame:
        return self.sums.cards

    def by_seat(self) -> pd.DataFrame:
        return self.sums.by_seat()

    def by_policy(self) -> pd.DataFrame:
        return self.sums.by_policy()

    def by_role(self) -> pd.DataFrame | None:
        return self.sums.by_role()

    def first_mover(self) -> dict:
        """Win rate of the seat that moved first, with its 95% Wilson interval."""
        return self.sums.first_mover()

    def shared_wins(self) -> dict | None:
        """Where wins can be shared: how often they were, and what the seat
        win rates add to (the fair share is their mean, not 1/players)."""
        return self.sums.shared_wins()

    def end_reasons(self) -> pd.Series:
        return self.sums.end_reasons()

    # --- summary --------------------------------------------------------
    @property
    def summary(self) -> dict:
        if "summary" not in self._cache:
            self._cache["summary"] = {**self.sums.figures(), **self.ruleset_figures}
        return self._cache["summary"]

    @property
    def ruleset_figures(self) -> dict:
        """The ruleset's own figures (``spec.summary``, read from the per-game
        tables, once), which :attr:`summary` ends with; {} when it declares
        none. (A ``summary.Summary`` keeps no table: its are None, not
        computed.)"""
        if "own" not in self._cache:
            self._cache["own"] = {} if self.spec.summary is None else self.spec.summary(self)
        return self._cache["own"]

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
