"""Who won: a game's outcome read from its records, the meaning every
table of a run shares (``runner.Result`` from the full tables,
``summary.Summary`` from per-piece sums, the workflows).

A win is read once here, so the two paths cannot disagree: the won matrix
(a ruleset's own ``won`` seat column where sides hold several seats, else
the game's ``winner``), a sole win, whether wins can be shared, the seat
that moved first and the first mover's figure.
"""
from __future__ import annotations

import numpy as np

from . import stats
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


def first_mover_figure(spec, wins: int, games: int) -> dict:
    """The first mover's win rate with its 95% Wilson interval."""
    lo, hi = stats.wilson(wins, games)
    return {"games": games, "wins": wins, "win_rate": wins / games if games else float("nan"),
            "ci_low": float(lo), "ci_high": float(hi), "turn_order": spec.turn_order}
