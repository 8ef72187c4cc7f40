"""The record layout every kernel fills, and the tables built from it.

A kernel call over games [start, stop) returns a :class:`Batch`:

- ``games``  int64[n, G]: one row per game; columns ``spec.game_columns``,
  always starting with ``winner`` (-1 = draw), ``turns``, ``rounds``,
  ``end_reason``.
- ``seats``  int64[n, P, S]: one row per game and seat; columns
  ``spec.seat_columns``.
- ``masks``  uint64[n, P, 2, W]: per game and seat, bit k of word k // 64 is
  set when the seat drew (index 0) or played (index 1) card kind k.
- ``counts`` int64[2, K]: total draws (0) and plays (1) of each card kind.

Integer sums are exact, so per-block partial counts summed in any order give
the same totals whatever the thread count.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# Card-kind bans, for interventional per-card power: 0 = normal, 1 = the
# kind is removed from the deck, 2 = it stays in the deck but is never played.
BAN_NONE, BAN_REMOVE, BAN_FORBID = 0, 1, 2
BAN_CODES = {"remove": BAN_REMOVE, "forbid": BAN_FORBID}

BLOCK = 512          # games per parallel work item (fixed: results never depend on it)
DRAWN, PLAYED = 0, 1


def mask_words(n_kinds: int) -> int:
    return max(1, (n_kinds + 63) // 64)


@dataclass
class Batch:
    start: int
    games: np.ndarray
    seats: np.ndarray
    masks: np.ndarray
    counts: np.ndarray
    errors: np.ndarray | None = None     # per game, broken invariants (check mode)

    @property
    def n(self) -> int:
        return self.games.shape[0]

    @staticmethod
    def concat(parts: list["Batch"]) -> "Batch":
        if len(parts) == 1:
            return parts[0]      # nothing to join: no copy
        parts = sorted(parts, key=lambda b: b.start)
        for a, b in zip(parts, parts[1:]):
            if a.start + a.n != b.start:
                raise ValueError(f"batches are not contiguous: {a.start}+{a.n} != {b.start}")
        return Batch(parts[0].start,
                     np.concatenate([p.games for p in parts]),
                     np.concatenate([p.seats for p in parts]),
                     np.concatenate([p.masks for p in parts]),
                     sum(p.counts for p in parts),
                     None if any(p.errors is None for p in parts)
                     else np.concatenate([p.errors for p in parts]))


def alloc(n_games: int, n_players: int, n_game_cols: int, n_seat_cols: int, n_kinds: int):
    """Output arrays for a kernel call (counts per block, summed afterwards)."""
    n_blocks = (n_games + BLOCK - 1) // BLOCK
    return (np.zeros((n_games, n_game_cols), np.int64),
            np.zeros((n_games, n_players, n_seat_cols), np.int64),
            np.zeros((n_games, n_players, 2, mask_words(n_kinds)), np.uint64),
            np.zeros((max(n_blocks, 1), 2, n_kinds), np.int64))


def ban_vector(ban, n_kinds: int) -> np.ndarray:
    """int64[n_kinds] from None or an array of BAN_* codes per kind."""
    if ban is None:
        return np.zeros(n_kinds, np.int64)
    v = np.ascontiguousarray(ban, dtype=np.int64)
    if v.shape != (n_kinds,):
        raise ValueError(f"ban vector has shape {v.shape}, expected ({n_kinds},)")
    return v


def mask_bit(masks: np.ndarray, which: int, kind: int) -> np.ndarray:
    """bool[n, P]: whether each seat drew/played card kind ``kind``."""
    word = masks[:, :, which, kind // 64]
    return ((word >> np.uint64(kind % 64)) & np.uint64(1)).astype(bool)
