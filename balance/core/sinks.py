"""Where the chunks of a run go: its per-game tables or its sums.

A command chooses the sinks of its games (``balance run`` the tables unless
``--summary-only``; the workflows their points' sums): ``play.play_range``
takes the sink's name, ``"tables"`` or ``"sums"``, and nothing below the
command asks again. Each chunk, wherever it was played (this machine's
threads, or a Dask worker: ``core.cluster``), becomes what the sink keeps
by the sink's :meth:`arrays` (the record arrays, or the chunk's
``summary.reduce``) and is given to :meth:`take`; the same arrays are what
the checkpoint store holds (under the sink's ``what``).
"""
from __future__ import annotations

import numpy as np

from . import summary
from .errors import BalanceError
from .machine import check_memory, say_big
from .records import Batch, alloc


class TableSink:
    """The run's per-game tables, allocated once: each chunk is played (or
    loaded) into its rows, so no chunk list is joined at the end."""
    what = "chunk"             # what a stored chunk of this sink holds
    narrowed = True            # sent narrowed by a worker (``store.narrow``)

    def __init__(self, s, start: int, stop: int):
        check_memory(s, stop - start)         # every command, before any game
        say_big(s, stop - start)
        self.start = start
        nk = s.spec.n_kinds(s.values)
        self.G, self.S, self.M, _ = alloc(stop - start, s.n_players, len(s.spec.game_columns),
                                          len(s.spec.seat_columns), nk)
        self.counts = np.zeros((2, nk), np.int64)
        self.errors = {}

    def out(self, a: int, b: int) -> dict:
        """The kernel's keywords for games [a, b): their rows to fill."""
        rows = slice(a - self.start, b - self.start)
        return {"out": (self.G[rows], self.S[rows], self.M[rows])}

    @staticmethod
    def arrays(spec, values: dict, part: Batch, check: bool) -> dict:
        """What a chunk is kept (stored, sent) as: its record arrays."""
        return {"games": part.games, "seats": part.seats, "masks": part.masks,
                "counts": part.counts, **({} if part.errors is None or not check
                                          else {"errors": part.errors})}

    def take(self, a: int, b: int, d: dict, loaded: bool) -> None:
        """Games [a, b) are in: ``loaded`` (from the store, or sent by a
        worker) are copied into their rows; played here, they are there."""
        rows = slice(a - self.start, b - self.start)
        if loaded:
            for arr, name in ((self.G, "games"), (self.S, "seats"), (self.M, "masks")):
                if d[name].shape != arr[rows].shape:
                    raise BalanceError(f"the piece of games {a}-{b} holds {name} of shape "
                                       f"{d[name].shape}, expected {arr[rows].shape}")
                arr[rows] = d[name]
        self.counts[...] += d["counts"]
        self.errors[a] = d.get("errors")

    @staticmethod
    def check(s, games: int) -> None:
        """Refuse before any game a run whose tables would not fit."""
        check_memory(s, games)

    @staticmethod
    def view(s, got: Batch, start: int, elapsed: float = 0.0, compiled: bool = False):
        """The run's :class:`results.Result` of its tables."""
        from .results import Result
        return Result(s, got, elapsed=elapsed, compiled=compiled)

    def result(self, start: int, stop: int, chunk: int) -> Batch:
        errs = [self.errors[a] for a in range(start, stop, chunk)]
        return Batch(start, self.G, self.S, self.M, self.counts,
                     None if not errs or any(e is None for e in errs) else np.concatenate(errs))


class SumsSink:
    """No table: each chunk is reduced to its integer sums as soon as it is
    played (``summary.reduce``, on the worker that played it: only the sums
    travel) and merged into the running sums, of constant size."""
    what = "summary"
    narrowed = False

    def __init__(self, s, start: int, stop: int):
        self.agg = {}

    def out(self, a: int, b: int) -> dict:
        return {}

    @staticmethod
    def arrays(spec, values: dict, part: Batch, check: bool) -> dict:
        return summary.reduce(spec, values, part)

    def take(self, a: int, b: int, d: dict, loaded: bool) -> None:
        self.agg.update(summary.merge([self.agg, d]) if self.agg else d)

    @staticmethod
    def check(s, games: int) -> None:
        """Sums of constant size always fit."""

    @staticmethod
    def view(s, got: dict, start: int, elapsed: float = 0.0, compiled: bool = False):
        """The run's :class:`summary.Summary` of its sums."""
        return summary.Summary(s, got, start, elapsed=elapsed, compiled=compiled)

    def result(self, start: int, stop: int, chunk: int) -> dict:
        return self.agg


SINKS = {"tables": TableSink, "sums": SumsSink}


def sink_class(name: str):
    """The sink named ``name`` (``"tables"`` or ``"sums"``); another name is
    a :class:`BalanceError` naming it and the sinks there are."""
    if name not in SINKS:
        raise BalanceError(f"sink {name!r}: not a sink; the sinks are "
                           f"{', '.join(repr(k) for k in SINKS)}")
    return SINKS[name]
