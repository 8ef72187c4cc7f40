"""Shared machinery of every version: saturating arithmetic, cards (draw,
play, discard), the option buffer, sides, forbidden cards and the ban
fallback, healing, the script policy's pick and coin flips.

Damage is int64 and saturates at ``SAT`` = 2**62 (``sat_mul``,
``sat_add``); ``sat_mul`` skips its integer division when both factors are
< 2**31 (``LIM31``).
"""
import numpy as np
from balance.core.compiled import internal, ir_inlined_nrt

from ....core import jit
from ....core.kernel import drawn, ev, refill_deck, setbit  # before kernel_cache_begin: cached with core
from ....core.rng import below
from ..layout import (C_H, C_HEALED, C_HN, C_HP, C_M, C_MAXHP, C_TEAM, E_DEAL, E_DRAW, E_HEAL,
                      E_RESHUFFLE, P_FIVE, P_REFILL, Z_DECK, Z_DISC, Z_FM, Z_FORB, Z_ON, Z_SERR,
                      Z_SP)
from ..rules import R_6, T_HI, T_LEN, T_LO, T_SUIT
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


def _run_lists():
    """``RUNS[adj, mask, 0]``: the number of runs a suit's 9-bit hand mask
    holds, then each run's number within its suit, by lowest then highest
    rank (``rules.play_table``'s order, ``adj``: ``six_j_adjacent``). Run
    (lo, hi) of suit s is ``PID[s, lo, hi]`` = s x (runs per suit) + its
    number within the suit, so the enumerators read it as
    ``s * (PT.shape[0] // 4) + RUNS[adj, mask, j]``: a 47 KB constant
    (uint8) instead of the rows ``PID[s, RUN0 + mask]`` of a 770 KB table,
    whose cache misses were ~7 % of a v3 greedy game."""
    out = np.zeros((2, 512, 46), np.uint8)
    for adj in (0, 1):
        num = {}
        for lo in range(9):
            for hi in range(lo, 9):
                if not adj and lo <= R_6 < hi:
                    break
                num[lo, hi] = len(num)
        for mask in range(512):
            runs = []
            for lo in range(9):
                for hi in range(lo, 9):
                    if (lo, hi) not in num or (mask >> hi) & 1 == 0:
                        break
                    runs.append(num[lo, hi])
            out[adj, mask, 0] = len(runs)
            out[adj, mask, 1:1 + len(runs)] = runs
    return out


RUNS = _run_lists()

SAT = np.int64(1) << np.int64(62)
LIM31 = np.int64(1) << np.int64(31)     # a, b < LIM31: a x b < SAT


@ir_inlined_nrt
def sat_mul(a, b):
    """a x b for a, b >= 0, saturating at SAT = 2**62 (0 when a or b <= 0)."""
    if a < LIM31 and b < LIM31:
        # < 2**62 = SAT: no integer division, and no branch on the signs, on the hot path
        return max(a, np.int64(0)) * max(b, np.int64(0))
    if a <= 0 or b <= 0:
        return np.int64(0)
    if a > SAT // b:
        return SAT
    r = a * b
    return r if r < SAT else SAT


@ir_inlined_nrt
def sat_add(a, b):
    """a + b for 0 <= a, b <= SAT, saturating at SAT."""
    if a >= SAT - b:
        return SAT
    return a + b


@ir_inlined_nrt
def draws_after_play(hand_left, fives, ip):
    """Cards drawn after a play: ``five_draw`` per 5 played, plus ``refill``
    when the play emptied the hand (General 5(2): 5 + 5 = 10, 5 + 10 = 15)."""
    n = fives * ip[P_FIVE]
    if hand_left == 0:
        n += ip[P_REFILL]
    return n


@ir_inlined_nrt
def add_card(S, p, kind):
    if S[p, C_H + kind] == 0:
        S[p, C_M + kind // 9] |= np.int64(1) << (kind % 9)
    S[p, C_H + kind] += 1
    S[p, C_HN] += 1


@ir_inlined_nrt
def draw(st, S, pile, Z, tr, masks, counts, p, deal):
    if refill_deck(st, pile, Z, Z_DECK, Z_DISC, tr, Z[Z_ON], E_RESHUFFLE) == 0:
        return -1
    Z[Z_DECK] -= 1
    c = pile[0, Z[Z_DECK]]
    add_card(S, p, c)
    drawn(masks, counts, p, c)
    if Z[Z_ON]:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, c, 0, 0, 0, 0)
    return c


@ir_inlined_nrt
def draw_n(st, S, pile, Z, tr, masks, counts, p, n):
    for _ in range(n):
        if draw(st, S, pile, Z, tr, masks, counts, p, np.int64(0)) < 0:
            break


@ir_inlined_nrt
def remove_play(S, pile, Z, masks, counts, p, PT, k):
    """Move the cards of run k from p's hand to the discard pile."""
    s = PT[k, T_SUIT]
    for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
        kind = s * 9 + r
        S[p, C_H + kind] -= 1
        if S[p, C_H + kind] == 0:
            S[p, C_M + s] &= ~(np.int64(1) << r)
        pile[1, Z[Z_DISC]] = kind
        Z[Z_DISC] += 1
        setbit(masks, p, 1, kind)
        counts[1, kind] += 1
    S[p, C_HN] -= PT[k, T_LEN]


@internal
def discard_hand(S, pile, Z, p):
    for kind in range(36):
        c = S[p, C_H + kind]
        for _ in range(c):
            pile[1, Z[Z_DISC]] = kind
            Z[Z_DISC] += 1
        S[p, C_H + kind] = 0
    for s in range(4):
        S[p, C_M + s] = 0
    S[p, C_HN] = 0


@ir_inlined_nrt
def enemy(S, p, q):
    return p != q and S[p, C_TEAM] != S[q, C_TEAM]


@ir_inlined_nrt
def push(acts, n, k, t, o, ot):
    acts[n, 0] = k
    acts[n, 1] = t
    acts[n, 2] = o
    acts[n, 3] = ot
    return n + 1


@ir_inlined_nrt
def run_bits(lo, hi):
    return ((np.int64(1) << (hi + 1)) - 1) ^ ((np.int64(1) << lo) - 1)


@ir_inlined_nrt
def run_walk(PT, PID):
    """(adj, runs per suit) for ``RUNS``: the 6 and the J are adjacent when
    the run 6J exists."""
    return np.int64(1 if PID[0, R_6, R_6 + 1] >= 0 else 0), PT.shape[0] // 4


@ir_inlined_nrt
def forbidden(Z, PT, s, k):
    """Run k (of suit s) holds a forbidden card kind (ban code 2)."""
    return Z[Z_FM + s] & run_bits(PT[k, T_LO], PT[k, T_HI]) != 0


@ir_inlined_nrt
def ban_fallback(Z, f, args):
    """The ban fallback of every decision: ``f(*args, fb)`` lists the
    options without forbidden cards (ban code 2, ``fb``); if every option
    holds one, it lists them all. ``f`` (an option enumerator) is a
    compile-time argument, and this loop is its one call site, so LLVM
    inlines it once (``forceinline``). Returns the number of options."""
    fb = Z[Z_FORB] == 1
    n = 0
    for _ in range(2):
        n = f(*(args + (fb,)))
        if n > 0 or not fb:
            break
        fb = False
    return n


@ir_inlined_nrt
def script_pick(Z, acts, script, n):
    """Tests: the next script row must match an enumerated option exactly."""
    r = Z[Z_SP]
    Z[Z_SP] = r + 1
    if r < script.shape[0]:
        for i in range(n):
            if (acts[i, 0] == script[r, 0] and acts[i, 1] == script[r, 1]
                    and acts[i, 2] == script[r, 2] and acts[i, 3] == script[r, 3]):
                return i
    Z[Z_SERR] += 1
    return 0


@ir_inlined_nrt
def heal_self(S, Z, tr, p, heal):
    h = min(heal, S[p, C_MAXHP] - S[p, C_HP])
    if h > 0:
        S[p, C_HP] += h
        S[p, C_HEALED] += h
        if Z[Z_ON]:
            ev(tr, Z, E_HEAL, p, h, S[p, C_HP], 0, 0, 0)


@internal
def chance(st, q):
    """True with probability q (draws a number only when 0 < q < 1)."""
    if q >= 1.0:
        return True
    if q <= 0.0:
        return False
    return below(st, 1 << 30) < q * (1 << 30)


jit.kernel_cache_end()
