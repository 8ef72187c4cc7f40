"""Compiled tallies over whole record tables, for the Python side.

Loaded on first use (``summary.reduce`` imports it inside the function),
so commands that never build tables import no numba code here. Integer sums: the same totals
whatever the order.
"""
from __future__ import annotations

import numpy as np
from balance.core.compiled import allocating

from .jit import skip_blas_probe

skip_blas_probe()         # before numba loads its first compiled function (see there)


_DB = np.uint64(0x022FDD63CC95386D)          # de Bruijn sequence B(2, 6)
_DEBRUIJN = np.zeros(64, np.int64)          # (lowest bit * _DB) >> 58 -> its index
for _i in range(64):
    _DEBRUIJN[(((1 << _i) * int(_DB)) % (1 << 64)) >> 58] = _i


def mask_counts(masks, won, n_kinds: int):
    """(seats, wins): int64[2, n_kinds] each: for drawn (0) and played (1),
    how many seats had each card kind, and how many of those won (``won``
    bool[n, P]). One compiled pass over the masks."""
    return _mask_counts(np.ascontiguousarray(masks), np.ascontiguousarray(won), n_kinds)


@allocating
def _mask_counts(masks, won, n_kinds):
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


@allocating
def _kind_row(masks, g, which, out):
    """out[k] = how many seats of game g have kind k in mask ``which``."""
    out[:] = 0
    P, W = masks.shape[1], masks.shape[3]
    for p in range(P):
        for w in range(W):
            x = masks[g, p, which, w]
            while x != 0:
                low = x & (~x + np.uint64(1))
                out[w * 64 + _DEBRUIJN[(low * _DB) >> np.uint64(58)]] += 1
                x ^= low


@allocating
def paired_kind_moments(masks_a, masks_b, which, ia, ib):
    """int64[5, K] over the same games of two runs, for kinds k whose index
    is ia[k] in run A and ib[k] in run B (-1: not in that run), with x and y
    the per-game seat counts of kind k in mask ``which``: sum x, sum y,
    sum x^2, sum y^2, sum x*y (the moments of a paired mean difference)."""
    K = ia.size
    out = np.zeros((5, K), np.int64)
    ka = np.zeros(64 * masks_a.shape[3], np.int64)
    kb = np.zeros(64 * masks_b.shape[3], np.int64)
    for g in range(masks_a.shape[0]):
        _kind_row(masks_a, g, which, ka)
        _kind_row(masks_b, g, which, kb)
        for k in range(K):
            x = ka[ia[k]] if ia[k] >= 0 else 0
            y = kb[ib[k]] if ib[k] >= 0 else 0
            out[0, k] += x
            out[1, k] += y
            out[2, k] += x * x
            out[3, k] += y * y
            out[4, k] += x * y
    return out
