"""Compiled tallies over whole record tables, for the Python side.

Loaded on first use (``records.mask_counts``), so commands that never
build tables import no numba code here. Integer sums: the same totals
whatever the order.
"""
from __future__ import annotations

import numpy as np
from numba import njit


_DB = np.uint64(0x022FDD63CC95386D)          # de Bruijn sequence B(2, 6)
_DEBRUIJN = np.zeros(64, np.int64)          # (lowest bit * _DB) >> 58 -> its index
for _i in range(64):
    _DEBRUIJN[(((1 << _i) * int(_DB)) % (1 << 64)) >> 58] = _i


@njit(cache=True)
def mask_counts(masks, won, n_kinds):
    """(seats, wins) int64[2, n_kinds]: seats whose drawn (0) / played (1)
    mask holds each kind, and how many of those seats won; one pass,
    visiting only the set bits."""
    n, P, _, W = masks.shape
    seats = np.zeros((2, n_kinds), np.int64)
    wins = np.zeros((2, n_kinds), np.int64)
    for g in range(n):
        for p in range(P):
            w1 = np.int64(1) if won[g, p] else np.int64(0)
            for which in range(2):
                for w in range(W):
                    x = masks[g, p, which, w]
                    while x != 0:
                        low = x & (~x + np.uint64(1))         # lowest set bit
                        k = w * 64 + _DEBRUIJN[(low * _DB) >> np.uint64(58)]
                        seats[which, k] += 1
                        wins[which, k] += w1
                        x ^= low
    return seats, wins
