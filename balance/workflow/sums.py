"""The workflows' sums of pieces of games, and the sink of their games.

Every table a workflow prints (a sweep point's rates and lengths, compare's
paired differences, the card bans' holder changes, the matchup matrix) is a
function of integer sums over games: win and seat counts, a histogram of
lengths (``core.summary``: a point's table is ``Sums.rates``), and moment
matrices (``stats.gram``) of the per-game columns that the paired
intervals pair. Each workflow has one reduction of a piece of games to
these sums (``compare_sums``, ``cards_sums``, ``matchup_sums``,
``mover_sums``); sums of pieces add up exactly (``summary.merge``).

A command chooses the sink of its games once (:class:`Sink`, from
``--summary-only``) and the workflow asks it for the sums of a range:

- ``"tables"`` plays each configuration's range as one piece whose per-game
  outcomes (or tables) are kept in the workflow's store, and reduces it;
- ``"sums"`` plays the range in pieces of a bounded size (``piece_ranges``),
  reduces each piece as soon as it is played, stores only its sums in the
  workflow's store (keyed by the full description and the code fingerprint,
  as every point) and merges them. Memory then does not grow with the
  number of games, and the tables equal the other sink's (tested), on one
  machine or a Dask cluster.
"""
from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pandas as pd

from ..core import stats, summary
from ..core.machine import table_bytes
from ..core.play import play_range
from ..core.sinks import sink_class
from .outcome import Outcome, Pieces, play_outcome, play_result

# a summary-only piece holds at most this many bytes of tables while it is reduced
PIECE_BYTES = 64 << 20
MIN_PIECE = 1_000


def piece_ranges(setups, start: int, stop: int) -> list[tuple[int, int]]:
    """[start, stop) cut into pieces whose tables stay under ``PIECE_BYTES``
    for the largest of ``setups``."""
    per = max(1, max(table_bytes(s, 1) for s in setups))
    size = max(MIN_PIECE, PIECE_BYTES // per)
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def sums_desc(what: str, setups, start: int, stop: int) -> dict:
    from ..core.registry import fingerprint
    return {"what": what, "setups": [s.describe() for s in setups], "start": int(start),
            "stop": int(stop), "code": fingerprint(setups[0].spec.name)}


def play_piece(s, a: int, b: int):
    """Games [a, b) of a setup as a Batch (a summary-only piece: not kept)."""
    return play_range(s, a, b, progress=False)


def by_pieces(store, what: str, setups, start: int, stop: int, reduce, pieces=None,
              label: str = "") -> dict:
    """Merged sums of games [start, stop) of ``setups``: ``reduce(a, b)`` of
    each piece, fetched from ``store`` when that exact piece was reduced
    before. ``pieces`` (an ``outcome.Pieces`` counting games) advances by
    the games each piece plays, all setups together."""
    acc = None
    for a, b in piece_ranges(setups, start, stop):
        if pieces is not None:
            pieces.start(f"{label} {a:,}-{b:,}".strip())
        part = store.fetch(sums_desc(what, setups, a, b), lambda a=a, b=b: reduce(a, b))
        if pieces is not None:
            pieces.update((b - a) * len(setups))
        acc = part if acc is None else summary.merge([acc, part])
    return acc


class Sink:
    """The sink of a workflow's games, chosen once by its command
    (:meth:`of` its ``--summary-only`` flag): ``"tables"`` or ``"sums"``
    (``core.sinks``). :meth:`sums` gives the merged sums of a range of games
    either way, by the workflow's one reduction of a piece; nothing below
    the command asks which sink it is."""

    def __init__(self, name: str = "tables"):
        sink_class(name)                        # one of core.sinks.SINKS
        self.name = name
        self.played = 0                         # games played here (not from the store)

    @staticmethod
    def of(no_tables: bool) -> "Sink":
        return Sink("sums" if no_tables else "tables")

    @property
    def tables(self) -> bool:
        """Are the per-game tables kept (no ``--summary-only``)?"""
        return self.name == "tables"

    def unit(self, unit: str) -> str:
        """What a workflow's bar counts: its ``unit`` (a point, a lineup)
        with the tables, games with the sums (pieces of games)."""
        return unit if self.tables else "game"

    def total(self, units: int, games: int) -> int:
        """How many of :meth:`unit` ``units`` configurations of ``games`` games are."""
        return units * (1 if self.tables else games)

    def step(self, pieces, label: str, amount: int = 1):
        """A context in which one configuration is played, counted on the bar
        as one unit with the tables (the sums count their pieces' games)."""
        if not self.tables or pieces is None:
            return nullcontext()
        return _Step(pieces, label, amount)

    def run(self, store, s, games: int, progress=None, label: str = "main run"):
        """Games [0, games) of setup ``s`` as one run, kept in ``store``:
        with the tables a ``core.results.Result`` (its per-game tables,
        stored whole), with the sums a ``core.summary.Summary`` (bounded
        pieces reduced by ``summary.reduce`` as they are played, their sums
        stored). Either reads every figure from its ``sums``
        (``summary.Sums``), so a caller reads them the same way."""
        if self.tables:
            return play_result(s, 0, games, store, progress=progress, label=label)
        pieces = Pieces(store, games, "game", f"{label} {s.spec.name}", progress,
                        say_resumed=False)
        try:
            agg = by_pieces(store, "run-sums", [s], 0, games,
                            lambda a, b: summary.reduce(s.spec, s.values, play_piece(s, a, b)),
                            pieces)
        finally:
            pieces.close()
        return summary.Summary(s, agg, 0)

    def sums(self, store, what: str, setups, start: int, stop: int, reduce, pieces=None,
             label: str = "", labels=None, views=None, progress=None, amount=None) -> dict:
        """``reduce(view)`` of games [start, stop) of ``setups``, where
        ``view(i)`` is setup i's games (an ``outcome.Outcome``, or a Batch
        where ``views[i] == "batch"``). With the tables those are the whole
        range, kept in ``store`` (``amount``: what each counts on the bar,
        None: not counted here); with the sums, pieces reduced one by one
        and stored under ``what``."""
        views = views or ["outcome"] * len(setups)
        if not self.tables:
            def piece(a, b):
                self.played += (b - a) * len(setups)
                return reduce(lambda i: _view(setups[i], views[i], play_piece(setups[i], a, b)))
            return by_pieces(store, what, setups, start, stop, piece, pieces, label)
        labels = labels or [label] * len(setups)

        def whole(i):
            s, lab = setups[i], labels[i]
            with (self.step(pieces, lab, amount) if amount else nullcontext()):
                misses = store.misses
                if views[i] == "batch":
                    v = play_result(s, start, stop, store, progress=progress, label=lab).batch
                else:
                    v = play_outcome(s, start, stop, store, progress=progress, label=lab)
                self.played += (stop - start) if store.misses > misses else 0
            return v
        return reduce(whole)


def _view(s, view: str, batch):
    return batch if view == "batch" else Outcome.from_batch(s, batch)


class _Step:
    def __init__(self, pieces, label, amount):
        self.pieces, self.label, self.amount = pieces, label, amount

    def __enter__(self):
        self.pieces.start(self.label)

    def __exit__(self, kind, *_):
        if kind is None:
            self.pieces.update(self.amount)


# --- one configuration: a sweep point ---------------------------------------

def point_sums(o) -> dict:
    """The sums of an ``outcome.Outcome`` that a sweep point's table needs
    (``summary.outcome_sums``: no card masks)."""
    s = o.setup
    return summary.outcome_sums(s.spec, s.values, o.won, o.turns, o.end_reason, o.role,
                                o.rounds)


def mover_sums(o) -> dict:
    """``point_sums`` and the first mover's wins: a sweep point's piece."""
    agg = point_sums(o)
    agg["first_wins"] = np.array(int(summary.first_won(o.won, o.first).sum()), np.int64)
    return agg


def point_table(s, agg: dict) -> pd.DataFrame:
    """Win rates per seat, policy and role (Wilson) and the length figures
    of one configuration, from its sums (``summary.Sums.rates``)."""
    return summary.Sums(s, agg).rates()


def widest(table: pd.DataFrame) -> float:
    """The widest half-width of a rate table's Wilson intervals (``--precision``)."""
    return float(np.nanmax(stats.half_width(table["win_rate"], table["ci_low"],
                                            table["ci_high"])))
