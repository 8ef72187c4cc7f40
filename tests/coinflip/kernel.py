"""The coin-flip kernel (tests only): the contract's run_batch, trace_one, KERNELS.

Cached (``cache=True``) like a real ruleset's, so the unmocked first-compile
notice test (tests/test_outputs_designer.py) can run on it in seconds."""
import numpy as np
from numba import njit

from balance.core.kernel import ev, setbit
from balance.core.records import BLOCK
from balance.core.rng import below, game_state

NG, NSEAT = 4, 1


@njit(cache=True)
def play(seed, game, pol, ip, pp, grow, srow, masks, counts, tr, on):
    st, Z, P = np.full(1, game_state(seed, game)), np.zeros(4, np.int64), len(pol)
    for t in range(ip[1]):
        p, Z[2] = t % P, t + 1
        for _ in range(1 + pol[p]):          # bold flips twice: both must be heads
            bias = (ip[2] if p == 0 else 0) + pp[p, 0]     # seat 0's bias, the seat's luck
            if bias != 0:                    # heads with (50 + bias)%
                c = 1 if below(st, 100) < 50 + bias else 0
            else:
                c = below(st, 2)
            counts[0, c] += 1
            setbit(masks, p, 0, c)
            if on:
                ev(tr, Z, 1, p, c, srow[p, 0] + c, 0, 0, 0)
            if c == 0:
                break
        else:
            srow[p, 0] += 1 + pol[p]
        if srow[p, 0] >= ip[0]:
            grow[0], grow[1], grow[2], grow[3] = p, t + 1, t // P + 1, 0
            return Z[3]
    grow[0], grow[1], grow[2], grow[3] = -1, ip[1], (ip[1] + P - 1) // P, 1
    return Z[3]


@njit(cache=True, nogil=True)
def run_batch(b0, b1, seed, start, n, P, pol, ip, pp, check, games, seats, masks, counts,
              errors):
    tr = np.zeros((1, 8), np.int64)
    for g in range(b0 * BLOCK, min(n, b1 * BLOCK)):
        play(seed, start + g, pol, ip, pp, games[g], seats[g], masks[g], counts[g // BLOCK], tr,
             False)


@njit(cache=True)
def trace_one(seed, game, P, pol, ip, pp, games, seats, masks, counts, tr):
    return play(seed, game, pol, ip, pp, games[0], seats[0], masks[0], counts[0], tr, True)


KERNELS = {"run": run_batch, "replay": trace_one}
