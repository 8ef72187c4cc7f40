"""The workflows' sums of pieces of games, and ``--summary-only`` play.

Every table a workflow prints (a sweep point's rates and lengths, compare's
paired differences, the card bans' holder changes, the matchup matrix) is a
function of integer sums over games: win and seat counts, a histogram of
lengths (``core.summary``: a point's table is ``Sums.rates``), and moment
matrices (``stats.gram``) of the per-game columns that the paired
intervals pair. Sums of pieces of games add up exactly, so:

- the ordinary path reduces the stored per-game outcomes of [0, n) once;
- ``summary_only`` plays [0, n) in pieces of a bounded size
  (``piece_ranges``), reduces each piece as soon as it is played, stores
  only its sums in the workflow's store (keyed by the full description and
  the code fingerprint, as every point) and merges them. Memory then does
  not grow with the number of games, and the tables equal the ordinary
  path's (tested), on one machine or a Dask cluster.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..core import stats, summary
from ..core.machine import table_bytes
from ..core.play import play_range

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


def sum_key(*parts) -> str:
    """The name of one sum in a piece's dict: its parts joined by '|'."""
    return "|".join(str(p) for p in parts)


def part(agg: dict, tag: str) -> dict:
    """The sums named ``tag|...``, with the tag taken off their names."""
    return {k[len(tag) + 1:]: v for k, v in agg.items() if k.startswith(tag + "|")}


def fix_games(G: np.ndarray, n: int) -> np.ndarray:
    """A moment matrix summed over pieces where its group was absent from
    some: those games are rows of zeros, which only count in ``G[0, 0]``."""
    G = np.array(G)
    G[0, 0] = n
    return G


# --- one configuration: a sweep point ---------------------------------------

def point_sums(o) -> dict:
    """The sums of an ``outcome.Outcome`` that a sweep point's table needs."""
    s = o.setup
    return summary.outcome_sums(s.spec, s.values, o.won, o.turns, o.end_reason, o.role,
                                o.rounds)


def point_table(s, agg: dict) -> pd.DataFrame:
    """Win rates per seat, policy and role (Wilson) and the length figures
    of one configuration, from its sums (``summary.Sums.rates``)."""
    return summary.Sums(s, agg).rates()


def widest(table: pd.DataFrame) -> float:
    """The widest half-width of a rate table's Wilson intervals (``--precision``)."""
    return float(np.nanmax(stats.half_width(table["win_rate"], table["ci_low"],
                                            table["ci_high"])))
