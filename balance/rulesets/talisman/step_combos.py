"""Talisman Poker's combos, read from a seat's array: which types it
offers and their sizes (``combo_sizes``, ``combo_types``), the array's
summary the heuristics score placements from (``summarize``) and a combo's
amount (``combo_amount``, ``heal_room``).

A rule part both the turn (``step_play.fire``) and the heuristics
(``policies``) read, so it sits below both.
"""
import numpy as np
from numba import njit
from balance.core.compiled import inlined, inlined_callable
from numba import types as nt

from ...core import jit
from .cards import RUN, TOP
from .layout import C_BITS, C_HP
from .rules import CHAOS, FLUSH, FOUR, GEN_TABLE, GENERATING, OVER_TABLE, OVERCOMING
from .state_slots import (A1, A2, I64, P_CAP, P_CHAOS, P_FLUSH, P_GEN, P_HEAL, P_OVER, SM)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@inlined_callable
def combo_sizes(S, p, buf):
    """buf[t] = the combo's size for each type (0 = not available):
    flush/generating/overcoming: cards in the run; four symbols: sum of the
    four largest per-element values; chaos: value x count for the value with
    the largest value x count (ties: the larger value); buf[5] = that value.
    Also leaves p's array summary in buf[SM:] (see ``summarize``)."""
    summarize(S, p, buf)
    f = buf[SM]
    buf[FLUSH] = f if f >= 2 else 0
    present = buf[SM + 1]
    g = GEN_TABLE[present]
    buf[GENERATING] = g if g >= 2 else 0
    o = OVER_TABLE[present]
    buf[OVERCOMING] = o if o >= 2 else 0
    n_el = buf[SM + 12]
    total = buf[SM + 13]
    if n_el == 5:
        total -= buf[SM + 14]
    buf[FOUR] = total if n_el >= 4 else 0
    buf[CHAOS] = buf[SM + 10]
    buf[5] = buf[SM + 11]


@inlined
def combo_types(S, p):
    """Bit t set when p's array offers combo type t (the types that
    ``combo_sizes`` gives a size > 0, without computing the sizes)."""
    flush = 0
    present = 0
    n_el = 0
    seen = 0
    dup = 0
    for e in range(5):
        b = S[p, C_BITS + e]
        nz = np.int64(b != 0)
        present |= nz << e
        n_el += nz
        flush |= np.int64(RUN[b] >= 2)
        dup |= seen & b
        seen |= b
    return (flush << FLUSH | np.int64(GEN_TABLE[present] >= 2) << GENERATING
            | np.int64(OVER_TABLE[present] >= 2) << OVERCOMING | np.int64(n_el >= 4) << FOUR
            | np.int64(dup != 0) << CHAOS)


@inlined
def summarize(S, p, sm):
    """Summary of p's array in sm[SM:], from which placement_score evaluates
    a candidate card in a few operations: +0 longest flush run, +1 present
    elements, +2..+6 highest value per element, +7..+9 the bit-sliced count
    of elements holding each value (ones, twos, fours), +10 best chaos
    value x count, +11 its value (ties: the larger value), +12 the number of
    elements present, +13 the sum of their highest values, +14 and +15 the
    smallest and second smallest of those highest values (four symbols)."""
    flush = 0
    present = 0
    ones = 0
    twos = 0
    fours = 0
    n_el = 0
    total = 0
    m1 = 1 << 30
    m2 = 1 << 30
    for e in range(5):
        b = S[p, C_BITS + e]
        t = TOP[b]
        sm[SM + 2 + e] = t
        if b != 0:
            n_el += 1
            total += t
            if t < m1:
                m2 = m1
                m1 = t
            elif t < m2:
                m2 = t
            present |= 1 << e
            r = RUN[b]
            if r > flush:
                flush = r
            c1 = ones & b
            ones ^= b
            c2 = twos & c1
            twos ^= c1
            fours |= c2
    best = 0
    bestv = 0
    multi = twos | fours
    while multi != 0:
        low = multi & -multi
        v = TOP[low]
        sh = v - 1
        c = ((ones >> sh) & 1) + 2 * ((twos >> sh) & 1) + 4 * ((fours >> sh) & 1)
        if v * c >= best:
            best = v * c
            bestv = v
        multi ^= low
    sm[SM] = flush
    sm[SM + 1] = present
    sm[SM + 7] = ones
    sm[SM + 8] = twos
    sm[SM + 9] = fours
    sm[SM + 10] = best
    sm[SM + 11] = bestv
    sm[SM + 12] = n_el
    sm[SM + 13] = total
    sm[SM + 14] = m1
    sm[SM + 15] = m2


@njit(nt.void(A2, I64, A1), cache=True, _nrt=False)
def combo_sizes_apart(S, p, buf):
    """``combo_sizes`` compiled once on its own, for the rare callers (each
    inlined copy costs compile time)."""
    combo_sizes(S, p, buf)


@inlined_callable
def combo_amount(ct, size, ip):
    """A combo's amount (damage, or heal before the cap): its size x the
    type's factor (``rules.Params``)."""
    if ct == FLUSH:
        return size * ip[P_FLUSH]
    if ct == GENERATING:
        return size * ip[P_GEN]
    if ct == OVERCOMING:
        return size * ip[P_OVER]
    if ct == FOUR:
        return size * ip[P_HEAL]
    return size * ip[P_CHAOS]


@inlined_callable
def heal_room(S, p, ip):
    """The HP p can still heal under ``hp_cap`` (0 = no cap: unlimited)."""
    cap = ip[P_CAP]
    if cap == 0:
        return 1 << 60
    r = cap - S[p, C_HP]
    return r if r > 0 else 0


jit.kernel_cache_end()
