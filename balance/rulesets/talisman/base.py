"""Talisman Poker kernel, the base every other module builds on: parameter
slots and record columns by name, the explicit numba signatures, the combo
tables and tallies, and the zones (draw, hand, discard, damage, turn order,
ties). See ``kernel`` for the state and the speed notes."""
import numpy as np
from numba import njit
from balance.core.compiled import inlined, inlined_callable
from numba import types as nt

from ...core import jit
from ...core.kernel import ev, setbit  # before kernel_cache_begin
from ...core.rng import below, shuffle
from ...core.layout import index
from .layout import (C_ALIVE, C_ARRN, C_BITS, C_DMG, C_GUARDS, C_HN, C_HP, C_JUNK, C_NB, C_SPEC,
                     E_DAMAGE, E_DEAL, E_DRAW, E_RESHUFFLE, GAME_COLUMNS, SEAT_COLUMNS, Z_DECK,
                     Z_DISC)
from .rules import (CHAOS, FLUSH, FOUR, GEN_TABLE, GENERATING, IDX, OVER_TABLE, OVERCOMING, PIDX,
                    QIDX)



jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- parameter slots -----------------------------------------------------
P_HP = IDX["hp"]
P_CAP = IDX["hp_cap"]
P_START = IDX["start_hand"]
P_LIMIT = IDX["hand_limit"]
P_THUNDER = IDX["thunder_damage"]
P_FLUSH = IDX["flush_per_card"]
P_GEN = IDX["generating_per_card"]
P_OVER = IDX["overcoming_per_card"]
P_HEAL = IDX["four_symbols_heal_factor"]
P_CHAOS = IDX["chaos_factor"]
P_COPIES = IDX["copies_thunder"]          # five consecutive slots
P_V = IDX["values_per_element"]
P_MAXT = IDX["max_turns"]
Q_MIN = PIDX["min_combo_value"]
Q_STEAL = PIDX["value_steal"]
Q_WIND = PIDX["value_wind"]
Q_GUARD = PIDX["value_guard"]
Q_GAMBLE = PIDX["value_gamble"]
Q_DESTROY = PIDX["destroy_value"]
Q_HEALV = PIDX["heal_value"]
# the int policy parameters follow the int rule parameters (``__init__.kernel_args``)
R_TOPK = QIDX["search_top_k"]
R_DET = QIDX["search_determinizations"]
R_ROLL = QIDX["search_rollouts"]
R_RPOL = QIDX["search_rollout_policy"]
R_CAP = QIDX["search_rollout_turns"]

# --- record columns, by name (layout) -----------------------------------------
GI = index(GAME_COLUMNS)
G_WINNER = GI["winner"]
G_TURNS = GI["turns"]
G_ROUNDS = GI["rounds"]
G_END = GI["end_reason"]
G_COMBOS = GI["combos"]
G_CASTS = GI["casts"]
SI = index(SEAT_COLUMNS)
S_HP = SI["hp"]
S_OUT = SI["out_turn"]
S_DMG = SI["damage_dealt"]
S_HEALED = SI["healed"]
S_COMBOS = SI["combos"]
S_CASTS = SI["casts"]
S_GUARDS = SI["guards_left"]
NG, NSEAT = len(GI), len(SI)   # record widths (the ruleset contract checks them)

SM = 8            # offset of the array summary in the per-game int buffer

# Explicit signatures for the functions that are compiled on their own: numba
# otherwise compiles one extra version per combination of constant (literal)
# arguments it meets while typing a caller (``ev`` had 35), which was a third
# of the cold compile time.
I64 = nt.int64
A1, A2 = nt.int64[::1], nt.int64[:, ::1]
F1, U1, U3 = nt.float64[::1], nt.uint64[::1], nt.uint64[:, :, ::1]
A3, U64 = nt.int64[:, :, ::1], nt.uint64
B1 = nt.boolean
I3 = nt.UniTuple(nt.int64, 3)


# --- combos --------------------------------------------------------------
def _tables():
    run = np.zeros(1 << 12, np.int64)
    top = np.zeros(1 << 12, np.int64)
    for b in range(1, 1 << 12):
        x, n = b, 0
        while x:
            x &= x << 1
            n += 1
        run[b] = n
        top[b] = b.bit_length()
    return run, top


RUN, TOP = _tables()     # longest run of set bits / highest set bit (1-based), for V <= 12
# ELEM[V, c], VAL0[V, c]: element and value-1 of basic card c when there are V
# values per element (avoids integer division in the hot loop)
ELEM = np.array([[c // max(V, 1) for c in range(64)] for V in range(13)], np.int64)
VAL0 = np.array([[c % max(V, 1) for c in range(64)] for V in range(13)], np.int64)


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


# --- zones ---------------------------------------------------------------
@inlined_callable
def draw(st, S, hand, pile, Z, p, masks, counts, tr, on, deal):
    if Z[Z_DECK] == 0:
        if Z[Z_DISC] == 0:
            return -1
        n = Z[Z_DISC]
        for i in range(n):
            pile[0, i] = pile[1, i]
        Z[Z_DECK] = n
        Z[Z_DISC] = 0
        shuffle(st, pile[0], n)
        if on:
            ev(tr, Z, E_RESHUFFLE, -1, n, 0, 0, 0, 0)
    Z[Z_DECK] -= 1
    c = pile[0, Z[Z_DECK]]
    to_hand(S, hand, p, c)
    setbit(masks, p, 0, c)
    counts[0, c] += 1
    if on:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, c, 0, 0, 0, 0)
    return c


@inlined
def to_discard(pile, Z, c):
    pile[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1


@inlined
def to_hand(S, hand, p, c):
    hand[p, S[p, C_HN]] = c
    S[p, C_HN] += 1
    k = c - S[p, C_NB]
    S[p, C_SPEC + k if k >= 0 else C_JUNK] += 1


@inlined
def empty_hand(S, p):
    S[p, C_HN] = 0
    for k in range(5):
        S[p, C_SPEC + k] = 0


@inlined
def take_from_hand(S, hand, p, i):
    """Remove and return hand[p, i], keeping the order of the others."""
    c = hand[p, i]
    k = c - S[p, C_NB]
    S[p, C_SPEC + k if k >= 0 else C_JUNK] -= 1
    n = S[p, C_HN]
    for j in range(i, n - 1):
        hand[p, j] = hand[p, j + 1]
    S[p, C_HN] = n - 1
    return c


@inlined_callable
def array_to_discard(S, pile, Z, p, V):
    n = 0
    for e in range(5):
        b = S[p, C_BITS + e]
        for v in range(V):
            if (b >> v) & 1:
                to_discard(pile, Z, e * V + v)
                n += 1
        S[p, C_BITS + e] = 0
    S[p, C_ARRN] = 0
    return n


@inlined_callable
def damage(S, Z, tr, on, src, t, amount):
    """One damage instance: a guard absorbs it whole."""
    if amount <= 0:
        return
    if S[t, C_GUARDS] > 0:
        S[t, C_GUARDS] -= 1
        if on:
            ev(tr, Z, E_DAMAGE, t, amount, 1, S[t, C_HP], src, 0)
        return
    S[t, C_HP] -= amount
    S[src, C_DMG] += amount
    if on:
        ev(tr, Z, E_DAMAGE, t, amount, 0, S[t, C_HP], src, 0)


@inlined_callable
def next_alive(S, p, P):
    q = p + 1
    if q == P:
        q = 0
    while S[q, C_ALIVE] == 0:
        q += 1
        if q == P:
            q = 0
    return q


@inlined
def pick_tied(st, tied):
    """A heuristic's tie-break: ``tied`` has bit i set for each option i
    scoring the best; returns the lowest set bit when there is one, else
    the j-th set bit (from the lowest) for j = ``below(st, number set)``: one
    draw, and only when options tie. -1 when ``tied`` is 0."""
    if tied == 0:
        return -1
    if tied & (tied - 1) != 0:
        n = 0
        t = tied
        while t != 0:
            t &= t - 1
            n += 1
        for _ in range(below(st, n)):
            tied &= tied - 1
    i = 0
    while (tied >> i) & 1 == 0:
        i += 1
    return i


@inlined
def lowest_hp_opponent(st, S, p, P, need_cards):
    """The living opponent with the lowest HP (with ``need_cards``: among
    those holding cards), ties broken at random (``pick_tied``), or -1."""
    best_hp = 1 << 62
    tied = 0
    for q in range(P):
        if q != p and S[q, C_ALIVE] == 1 and (not need_cards or S[q, C_HN] > 0):
            h = S[q, C_HP]
            if h < best_hp:
                best_hp = h
                tied = 0
            if h == best_hp:
                tied |= np.int64(1) << q
    return pick_tied(st, tied)




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

jit.kernel_cache_end()
