"""Talisman Poker kernel: njit functions over small int64 arrays.

One game's state (slots and sizes in ``layout.py``):
- ``S`` int64[P, NS]: per-seat scalars (HP, alive, guards, skips, hand size,
  array bitmasks per element, special counts, statistics), columns ``C_*``;
- ``hand`` int64[P, HCAP]: card ids, in the order they entered the hand;
- ``pile`` int64[3, NC_MAX]: row 0 the deck (top = last), row 1 the discard
  pile, row 2 the batch's unshuffled deck (``fill_deck``);
- ``Z`` int64[NZ]: deck size, discard size, turn, trace length, unshuffled
  deck size (``Z_*``).

A player's array (符阵区) holds distinct basic cards, so it is kept as one
bitmask of values per element: bit v-1 of ``S[p, C_BITS + e]``.

Random numbers come in a fixed order from the game's own stream (see
``core/rng.py``); ``reference.py`` replays the same order in plain Python.
The search policies (README, "search") draw only from streams of their own,
keyed by (seed, game, seat, turn), and play their rollouts with ``turn`` on
copies of the state in a per-thread search workspace (``search_work``).

Speed: every function a game runs is compiled without reference counting
(``_nrt=False``: none creates an array; views taken inside cost nothing),
small helpers and the policies are inlined by numba (``inline="always"``),
and functions compiled on their own have explicit signatures (otherwise
numba compiles a version per combination of constant arguments), but the
search's: those compile only when a table has a searching seat (the batch
entries get ``ws=None`` otherwise, ``search_scratch``). The
per-game helpers ``start``, ``turn`` and ``finish`` (one call site each) are
compiled on their own but carry LLVM's ``alwaysinline``
(``forceinline=True``): as plain calls, start and finish cost greedy ~2 %;
numba's ``inline="always"`` on ``turn`` doubled the cold compile. The start
and the end of a turn, ``begin_turn`` and ``end_turn``, are compiled the same
way: ``turn`` calls them and so do the search policies, and numba would
compile each inline copy again. Workspaces are
allocated in Python (``work``); the batch entry ``run_batch`` plays blocks
of games on one thread and ``core.parallel.run_blocks`` runs it on several.
"""
import numpy as np
from numba import njit
from numba import types as nt

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.records import BLOCK, mask_words
from ...core.rng import below, game_state, mix64, shuffle
from ...core.layout import index
from .layout import (A_CAST, A_COMBO, A_PASS, A_PLACE, C_ALIVE, C_ARRN, C_BITS, C_CASTS,
                     C_COMBOS, C_DMG, C_GUARDS, C_HEALED, C_HN, C_HP, C_JUNK, C_NB, C_OUT,
                     C_SKIPS, C_SPEC, E_CAST, E_COMBO, E_DAMAGE, E_DEAL, E_DESTROY, E_DISCARD,
                     E_DRAW, E_END, E_GAMBLE, E_GUARD, E_HEAL, E_OUT, E_PASS, E_PLACE,
                     E_RESHUFFLE, E_SKIP, E_STEAL, E_TURN, E_WIND, END_CAP, END_LAST,
                     GAME_COLUMNS, HCAP, NC_MAX, NIW, NS, NZ, POL_GREEDY, POL_PATIENT, POL_RANDOM,
                     POL_SEARCH_FAST, SEAT_COLUMNS, W_ACTS, W_CAND, W_CNT, W_POOL, W_RPOL, W_SIZES,
                     W_STATS, W_WINS, Z_DECK, Z_DISC, Z_NC, Z_TR, Z_TURN)
from .rules import (CHAOS, FLUSH, FOUR, GEN_TABLE, GENERATING, GUARD, IDX, OVER_TABLE,
                    OVERCOMING, PIDX, QIDX, STEAL, THUNDER, WIND)

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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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
@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def to_discard(pile, Z, c):
    pile[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1


@njit(cache=True, inline="always")
def to_hand(S, hand, p, c):
    hand[p, S[p, C_HN]] = c
    S[p, C_HN] += 1
    k = c - S[p, C_NB]
    S[p, C_SPEC + k if k >= 0 else C_JUNK] += 1


@njit(cache=True, inline="always")
def empty_hand(S, p):
    S[p, C_HN] = 0
    for k in range(5):
        S[p, C_SPEC + k] = 0


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def next_alive(S, p, P):
    q = p + 1
    if q == P:
        q = 0
    while S[q, C_ALIVE] == 0:
        q += 1
        if q == P:
            q = 0
    return q


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
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


# --- policies ------------------------------------------------------------
@njit(cache=True, inline="always")
def special_mask(S, p, NB, ban):
    """Bit s set when p holds special s and it may be played."""
    m = 0
    for k in range(5):
        m |= np.int64((S[p, C_SPEC + k] > 0) & (ban[NB + k] != BAN_FORBID)) << k
    return m


@njit(cache=True)
def fill_special_table(ip, pp, spbest):
    """spbest[m] = the specials greedy may cast when it holds the kinds in
    bitmask m, as a bitmask: the kinds of highest ``special_value`` above 0
    (several on a tie), 0 for none (a table per batch: the values are
    constants, and a lookup avoids a chain of unpredictable branches every
    turn). A tie is broken per game from the game's stream
    (``pick_tied``), never here."""
    for m in range(32):
        tied = 0
        best_sv = 0.0
        for s in range(5):
            if (m >> s) & 1:
                v = special_value(s, ip, pp)
                if v > best_sv:
                    best_sv = v
                    tied = 1 << s
                elif v == best_sv and v > 0.0:
                    tied |= 1 << s
        spbest[m] = tied


@njit(cache=True, inline="always")
def has_special(S, hand, p, s, NB):
    for i in range(S[p, C_HN]):
        if hand[p, i] == NB + s:
            return i
    return -1


@njit(cache=True, inline="always")
def combo_amount(ct, size, ip):
    if ct == FLUSH:
        return size * ip[P_FLUSH]
    if ct == GENERATING:
        return size * ip[P_GEN]
    if ct == OVERCOMING:
        return size * ip[P_OVER]
    if ct == FOUR:
        return size * ip[P_HEAL]
    return size * ip[P_CHAOS]


@njit(cache=True, inline="always")
def heal_room(S, p, ip):
    cap = ip[P_CAP]
    if cap == 0:
        return 1 << 60
    r = cap - S[p, C_HP]
    return r if r > 0 else 0


@njit(cache=True, inline="always")
def combo_value(S, p, P, ct, amount, target, ip, pp):
    """Greedy's immediate value of a combo (damage counts 1 per point)."""
    if ct == FLUSH:
        n = 0
        for q in range(P):
            if q != p and S[q, C_ALIVE] == 1:
                n += 1
        return float(amount * n)
    if ct == FOUR:
        h = min(amount, heal_room(S, p, ip))
        return h * pp[Q_HEALV]
    if ct == OVERCOMING:
        return amount + pp[Q_DESTROY] * S[target, C_ARRN]
    return float(amount)


@njit(cache=True, inline="always")
def victims(S, p, P, amount):
    """Bitmask of the opponents a combo of this damage would put out now
    (unguarded, HP <= damage)."""
    m = 0
    for q in range(P):
        if q != p and S[q, C_ALIVE] == 1 and S[q, C_GUARDS] == 0 and S[q, C_HP] <= amount:
            m |= np.int64(1) << q
    return m


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def placement_score(S, p, card, V, sm, ip):
    """Combo types available after placing ``card`` (x1000) + the best combo
    amount then; ``sm`` is p's array summary (``summarize``)."""
    e = ELEM[V, card]
    v = VAL0[V, card] + 1
    sh = v - 1
    b = S[p, C_BITS + e] | (np.int64(1) << sh)
    n = 0
    best = 0
    # straight flush: adding a card only lengthens runs
    r = RUN[b]
    if sm[SM] > r:
        r = sm[SM]
    if r >= 2:
        n += 1
        best = r * ip[P_FLUSH]
    present = sm[SM + 1] | (1 << e)
    g = GEN_TABLE[present]
    if g >= 2:
        n += 1
        a = g * ip[P_GEN]
        if a > best:
            best = a
    o = OVER_TABLE[present]
    if o >= 2:
        n += 1
        a = o * ip[P_OVER]
        if a > best:
            best = a
    # four symbols: the four largest per-element maxima, element e's raised to v
    te = sm[SM + 2 + e]
    n_el = sm[SM + 12]
    total = sm[SM + 13]
    if te == 0:
        n_el += 1
        rest = sm[SM + 14]              # smallest maximum among the other elements
    else:
        rest = sm[SM + 15] if te == sm[SM + 14] else sm[SM + 14]
    if v > te:
        total += v - te
        te = v
    if n_el >= 4:
        if n_el == 5:
            total -= te if te < rest else rest
        n += 1
        a = total * ip[P_HEAL]
        if a > best:
            best = a
    # chaos: only the count at value v changes
    c = ((sm[SM + 7] >> sh) & 1) + 2 * ((sm[SM + 8] >> sh) & 1) + 4 * ((sm[SM + 9] >> sh) & 1) + 1
    ch = sm[SM + 10]
    if c >= 2 and v * c > ch:
        ch = v * c
    if ch > 0:
        n += 1
        a = ch * ip[P_CHAOS]
        if a > best:
            best = a
    return n * 1000 + best


@njit(cache=True, inline="always")
def special_value(s, ip, pp):
    if s == THUNDER:
        return float(ip[P_THUNDER])
    if s == WIND:
        return pp[Q_WIND]
    if s == GUARD:
        return pp[Q_GUARD]
    if s == STEAL:
        return pp[Q_STEAL]
    return pp[Q_GAMBLE]


@njit(cache=True, inline="always")
def keep_score(c, NB, V, S, p, sm, ip, pp):
    """Greedy's discard order: lowest score goes first."""
    if c >= NB:
        return special_value(c - NB, ip, pp) * 1000.0
    return float(placement_score(S, p, c, V, sm, ip))


@njit(cache=True, inline="always")
def choose_discard(pol, st, S, hand, p, NB, V, sizes, acts, ip, pp):
    n = S[p, C_HN]
    if pol == POL_RANDOM:
        return below(st, n)
    bs = np.inf
    ntied = 0                                 # acts[:ntied]: the hand indices of lowest score
    summarize(S, p, sizes)
    for i in range(n):
        sc = keep_score(hand[p, i], NB, V, S, p, sizes, ip, pp)
        if sc < bs:
            bs = sc
            ntied = 0
        acts[ntied] = i
        ntied += sc == bs
    return acts[below(st, ntied) if ntied > 1 else 0]


@njit(cache=True, inline="always")
def list_actions(S, hand, p, P, NB, acts, ban):
    """The distinct legal actions of p in ``acts[:n]``, returns n (0: only
    passing is legal), in this order: place each basic card (hand order),
    cast each special kind (x each living opponent for thunder and steal),
    fire each combo type (x each living opponent for generating, overcoming
    and chaos). An action is coded kind * 4096 + arg * 16 + target + 1
    (``action_parts``). The random policy picks among them; search
    evaluates them.

    Written without data-dependent branches: every candidate is written to
    ``acts`` and the count advances only when it is legal (random hands make
    branches unpredictable, and mispredictions were most of the random
    policy's time)."""
    na = 0
    for i in range(S[p, C_HN]):
        c = hand[p, i]
        acts[na] = A_PLACE * 4096 + i * 16
        na += (c < NB) & (ban[c] != BAN_FORBID)
    sp = special_mask(S, p, NB, ban)
    for s in range(5):
        has = (sp >> s) & 1
        if s == THUNDER or s == STEAL:
            for q in range(P):
                acts[na] = A_CAST * 4096 + s * 16 + q + 1
                na += has & (q != p) & (S[q, C_ALIVE] == 1)
        else:
            acts[na] = A_CAST * 4096 + s * 16
            na += has
    av = combo_types(S, p)
    for ct in range(5):
        has = (av >> ct) & 1
        if ct == GENERATING or ct == OVERCOMING or ct == CHAOS:
            for q in range(P):
                acts[na] = A_COMBO * 4096 + ct * 16 + q + 1
                na += has & (q != p) & (S[q, C_ALIVE] == 1)
        else:
            acts[na] = A_COMBO * 4096 + ct * 16
            na += has
    return na


@njit(cache=True, inline="always")
def action_parts(a):
    """(kind, arg, target) of an action coded by ``list_actions``."""
    return a >> 12, (a >> 4) & 255, (a & 15) - 1


@njit(cache=True, inline="always")
def choose_random(st, S, hand, p, P, NB, sizes, acts, ban):
    """Uniform over the distinct legal actions (``list_actions``)."""
    na = list_actions(S, hand, p, P, NB, acts, ban)
    if na == 0:
        return A_PASS, 0, -1
    a = acts[below(st, na)]
    if a >> 12 == A_COMBO:
        combo_sizes_apart(S, p, sizes)      # the turn then fires the combo with these sizes
    return action_parts(a)


@njit(cache=True, inline="always")
def choose_greedy(pol, st, S, hand, p, P, NB, V, sizes, acts, ip, pp, ban, spbest):
    """greedy / patient (README, "Policies"). Each choice collects the
    options tied for the best score (a bitmask for ``pick_tied``; for the
    placement, the hand indices in ``acts[:n]``) and draws one uniformly, a
    draw only when options tie, in this order: the target, then only the
    choices the action needs: the combo (patient: the kill type, then its
    victim), the special, the steal target, the placement."""
    target = lowest_hp_opponent(st, S, p, P, False)
    # 1. combos
    combo_sizes(S, p, sizes)
    best_v = 0.0
    best = 0                # bit ct: combo type ct has the best value (> 0)
    kills = 0               # bit ct: combo type ct puts an opponent out now (patient)
    for ct in range(5):
        if sizes[ct] > 0:
            a = combo_amount(ct, sizes[ct], ip)
            v = combo_value(S, p, P, ct, a, target, ip, pp)
            if v > best_v:
                best_v = v
                best = 0
            if v == best_v and v > 0.0:
                best |= 1 << ct
            if pol == POL_PATIENT and ct != FOUR and a > 0:     # only patient uses kills
                if victims(S, p, P, a) != 0:
                    kills |= 1 << ct
    fire = -1
    if pol == POL_PATIENT:
        if kills != 0:
            fire = pick_tied(st, kills)
            if fire != FLUSH:
                target = pick_tied(st, victims(S, p, P, combo_amount(fire, sizes[fire], ip)))
        elif best != 0 and best_v >= pp[Q_MIN]:
            fire = pick_tied(st, best)
    else:
        fire = pick_tied(st, best)
    if fire >= 0:
        if fire == FLUSH or fire == FOUR:
            return A_COMBO, fire, -1
        return A_COMBO, fire, target
    # 2. specials
    best_s = pick_tied(st, spbest[special_mask(S, p, NB, ban)])
    if best_s >= 0:
        t = target
        if best_s == STEAL:
            # prefer the lowest-HP opponent that holds cards
            t = lowest_hp_opponent(st, S, p, P, True)
            if t < 0:
                t = target
        elif best_s != THUNDER:
            t = -1
        return A_CAST, best_s, t
    # 3. placement
    best_sc = -1
    ntied = 0                 # acts[:ntied]: the hand indices with the best placement score
    for i in range(S[p, C_HN]):
        c = hand[p, i]
        if c < NB and ban[c] != BAN_FORBID:
            sc = placement_score(S, p, c, V, sizes, ip)
            if sc > best_sc:
                best_sc = sc
                ntied = 0
            acts[ntied] = i
            ntied += sc == best_sc
    if ntied > 0:
        return A_PLACE, acts[below(st, ntied) if ntied > 1 else 0], -1
    return A_PASS, 0, -1


# --- one game ------------------------------------------------------------
@njit(cache=True)
def fill_deck(ip, ban, pile, Z):
    """The unshuffled deck in pile[2, :n], n in Z[Z_NC] (once per batch)."""
    NB = 5 * ip[P_V]
    n = 0
    for c in range(NB):
        if ban[c] != BAN_REMOVE:
            pile[2, n] = c
            n += 1
    for s in range(5):
        if ban[NB + s] != BAN_REMOVE:
            for _ in range(ip[P_COPIES + s]):
                pile[2, n] = NB + s
                n += 1
    Z[Z_NC] = n


@njit(nt.int64(A2, A2, A1, I64), cache=True, _nrt=False)
def broken_invariants(S, hand, Z, P):
    """Check mode, after each turn: every card is somewhere exactly once (by
    count), each array's size matches its bitmasks, and each hand's special
    counts match its cards. Returns the number of broken invariants."""
    errors = 0
    tot = Z[Z_DECK] + Z[Z_DISC]
    for q in range(P):
        tot += S[q, C_HN] + S[q, C_ARRN]
        nb = 0
        for e in range(5):
            b = S[q, C_BITS + e]
            while b != 0:
                b &= b - 1
                nb += 1
        if nb != S[q, C_ARRN]:
            errors += 1
        for k in range(5):
            n = 0
            for i in range(S[q, C_HN]):
                if hand[q, i] == S[q, C_NB] + k:
                    n += 1
            if n != S[q, C_SPEC + k]:
                errors += 1
    if tot != Z[Z_NC]:
        errors += 1
    return errors


@njit(nt.void(U1, A2, A2, A2, A1, U3, A2, A2, B1, A1, I64), cache=True, _nrt=False,
      forceinline=True)
def start(st, S, hand, pile, Z, masks, counts, tr, on, ip, P):
    """Set up a game: shuffle a copy of the batch's unshuffled deck
    (``fill_deck``), reset every seat, deal ``start_hand`` cards to seat 0,
    then seat 1, ..."""
    n = Z[Z_NC]
    for i in range(n):
        pile[0, i] = pile[2, i]
    Z[Z_DECK] = n
    Z[Z_DISC] = 0
    Z[Z_TURN] = 0
    Z[Z_TR] = 0
    shuffle(st, pile[0], n)
    for p in range(P):
        for j in range(S.shape[1]):
            S[p, j] = 0
        S[p, C_HP] = ip[P_HP]
        S[p, C_ALIVE] = 1
        S[p, C_NB] = 5 * ip[P_V]
        S[p, C_OUT] = -1
        for w in range(masks.shape[2]):
            masks[p, 0, w] = 0
            masks[p, 1, w] = 0
    for p in range(P):
        for _ in range(ip[P_START]):
            draw(st, S, hand, pile, Z, p, masks, counts, tr, on, True)


@njit(cache=True, inline="always")
def cast(st, S, hand, pile, Z, masks, counts, tr, on, ip, P, V, p, s, tgt):
    """p casts special s (at seat tgt for thunder and steal): the card goes
    to the discard pile, then its effect resolves."""
    i = has_special(S, hand, p, s, 5 * V)
    c = take_from_hand(S, hand, p, i)
    setbit(masks, p, 1, c)
    counts[1, c] += 1
    S[p, C_CASTS] += 1
    to_discard(pile, Z, c)
    if on:
        ev(tr, Z, E_CAST, p, s, tgt, 0, 0, 0)
    if s == THUNDER:
        damage(S, Z, tr, on, p, tgt, ip[P_THUNDER])
    elif s == WIND:
        q = next_alive(S, p, P)
        S[q, C_SKIPS] += 1
        if on:
            ev(tr, Z, E_WIND, p, q, S[q, C_SKIPS], 0, 0, 0)
    elif s == GUARD:
        S[p, C_GUARDS] += 1
        if on:
            ev(tr, Z, E_GUARD, p, S[p, C_GUARDS], 0, 0, 0, 0)
    elif s == STEAL:
        nh = S[tgt, C_HN]
        got = -1
        if nh > 0:
            j = below(st, nh)
            got = take_from_hand(S, hand, tgt, j)
            to_hand(S, hand, p, got)
            setbit(masks, p, 0, got)
            counts[0, got] += 1
        if on:
            ev(tr, Z, E_STEAL, p, tgt, got, 0, 0, 0)
    else:  # gamble
        nh = S[p, C_HN]
        for j in range(nh):
            to_discard(pile, Z, hand[p, j])
        empty_hand(S, p)
        if on:
            ev(tr, Z, E_GAMBLE, p, nh, 0, 0, 0, 0)
        for j in range(nh):
            draw(st, S, hand, pile, Z, p, masks, counts, tr, on, False)


@njit(cache=True, inline="always")
def fire(S, pile, Z, tr, on, check, ip, P, V, sizes, p, ct, tgt):
    """p fires combo type ct (at seat tgt for generating, overcoming and
    chaos), then p's array goes to the discard pile. Returns the number of
    broken invariants found (check mode: ``sizes`` is current)."""
    # ``sizes`` still holds p's combo sizes: both policies compute them
    # (combo_sizes) as their last look at the array, and nothing has changed
    # the array since (check mode verifies)
    errors = 0
    if check:
        size0 = sizes[ct]
        chaos0 = sizes[5]
        combo_sizes_apart(S, p, sizes)
        if sizes[ct] != size0 or sizes[5] != chaos0:
            errors += 1
    size = sizes[ct]
    amount = combo_amount(ct, size, ip)
    S[p, C_COMBOS] += 1
    if on:
        ev(tr, Z, E_COMBO, p, ct, tgt, size, amount, sizes[5])
    if ct == FLUSH:
        q = next_alive(S, p, P)
        while q != p:
            damage(S, Z, tr, on, p, q, amount)
            q = next_alive(S, q, P)
    elif ct == FOUR:
        h = min(amount, heal_room(S, p, ip))
        if h > 0:
            S[p, C_HP] += h
            S[p, C_HEALED] += h
        if on:
            ev(tr, Z, E_HEAL, p, h, S[p, C_HP], 0, 0, 0)
    else:
        if ct == OVERCOMING:
            nd = array_to_discard(S, pile, Z, tgt, V)
            if on:
                ev(tr, Z, E_DESTROY, tgt, nd, 0, 0, 0, 0)
        damage(S, Z, tr, on, p, tgt, amount)
    array_to_discard(S, pile, Z, p, V)
    return errors


@njit(cache=True, inline="always")
def resolve(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p, kind, arg,
            tgt):
    """Carry out p's action (kind, arg, tgt); returns the number of broken
    invariants found (check mode)."""
    if kind == A_PASS:
        if on:
            ev(tr, Z, E_PASS, p, 0, 0, 0, 0, 0)
    elif kind == A_PLACE:
        c = take_from_hand(S, hand, p, arg)
        S[p, C_BITS + ELEM[V, c]] |= np.int64(1) << VAL0[V, c]
        S[p, C_ARRN] += 1
        setbit(masks, p, 1, c)
        counts[1, c] += 1
        if on:
            ev(tr, Z, E_PLACE, p, c, S[p, C_ARRN], 0, 0, 0)
    elif kind == A_CAST:
        cast(st, S, hand, pile, Z, masks, counts, tr, on, ip, P, V, p, arg, tgt)
    else:
        return fire(S, pile, Z, tr, on, check, ip, P, V, sizes, p, arg, tgt)
    return 0


@njit(nt.void(U1, A2, A2, A2, A1, U3, A2, A2, B1, A1, F1, I64, A1, A1, I64, I64, I64), cache=True,
      _nrt=False, forceinline=True)
def begin_turn(st, S, hand, pile, Z, masks, counts, tr, on, ip, pp, pol_p, sizes, acts, NB, V,
               p):
    """The start of p's turn: draw, then discard down to the hand limit
    (by policy ``pol_p``'s rule)."""
    draw(st, S, hand, pile, Z, p, masks, counts, tr, on, False)
    while S[p, C_HN] > ip[P_LIMIT]:
        i = choose_discard(pol_p, st, S, hand, p, NB, V, sizes, acts, ip, pp)
        c = take_from_hand(S, hand, p, i)
        to_discard(pile, Z, c)
        if on:
            ev(tr, Z, E_DISCARD, p, c, 0, 0, 0, 0)


@njit(nt.int64(U1, A2, A2, A2, A1, U3, A2, A2, B1, B1, A1, I64, I64, A1, I64, I64, I64, I64),
      cache=True, _nrt=False, forceinline=True)
def end_turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p, kind, arg,
             tgt):
    """The end of p's turn: resolve the chosen action (``sizes`` holds p's
    combo sizes when it is a combo). Returns the number of broken
    invariants found (check mode)."""
    hp0 = S[p, C_HP]
    errors = resolve(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p,
                     kind, arg, tgt)
    if check:
        if S[p, C_HP] > hp0 and not (kind == A_COMBO and arg == FOUR):
            errors += 1
        if ip[P_CAP] > 0 and S[p, C_HP] > hp0 and S[p, C_HP] > ip[P_CAP]:
            errors += 1
    return errors


@njit(nt.int64(U1, A2, A2, A2, A1, U3, A2, A2, B1, B1, A1, F1, A1, A1, A1, A1, A1, I64, I64, I64,
               I64), cache=True, _nrt=False, forceinline=True)
def turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, pp, ban, pol, sizes, acts,
         spbest, P, V, NB, p):
    """Seat p's turn when not skipped, for the random, greedy and patient
    policies: draw, discard down to the hand limit, choose an action and
    resolve it. Returns the number of broken invariants found (check mode)."""
    begin_turn(st, S, hand, pile, Z, masks, counts, tr, on, ip, pp, pol[p], sizes, acts, NB, V, p)
    if pol[p] == POL_RANDOM:
        kind, arg, tgt = choose_random(st, S, hand, p, P, NB, sizes, acts, ban)
    else:
        kind, arg, tgt = choose_greedy(pol[p], st, S, hand, p, P, NB, V, sizes, acts, ip, pp,
                                      ban, spbest)
    return end_turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p, kind,
                    arg, tgt)


@njit(cache=True, inline="always")
def eliminate(S, hand, pile, Z, tr, on, P, V):
    """Put out, in seat order, every seat still in at HP <= 0: its hand
    (in order) then its array go to the discard pile, its guards and
    pending skips are lost. Returns how many went out."""
    n = 0
    for q in range(P):
        if S[q, C_ALIVE] == 1 and S[q, C_HP] <= 0:
            S[q, C_ALIVE] = 0
            S[q, C_OUT] = Z[Z_TURN]
            n += 1
            for j in range(S[q, C_HN]):
                to_discard(pile, Z, hand[q, j])
            empty_hand(S, q)
            array_to_discard(S, pile, Z, q, V)
            S[q, C_GUARDS] = 0
            S[q, C_SKIPS] = 0
            if on:
                ev(tr, Z, E_OUT, q, 0, 0, 0, 0, 0)
    return n


@njit(nt.void(A2, A1, A2, B1, I64, I64, I64, I64, A1, A2), cache=True, _nrt=False,
      forceinline=True)
def finish(S, Z, tr, on, P, end, turns, rounds, grow, srow):
    """The game's row ``grow`` and seat rows ``srow``; the winner is the seat
    left when the game ended by END_LAST (-1: none left, or the turn cap)."""
    winner = -1
    if end == END_LAST:
        for q in range(P):
            if S[q, C_ALIVE] == 1:
                winner = q
    if on:
        ev(tr, Z, E_END, winner, end, turns, rounds, 0, 0)
    combos = 0
    casts = 0
    for q in range(P):
        combos += S[q, C_COMBOS]
        casts += S[q, C_CASTS]
    grow[G_WINNER] = winner
    grow[G_TURNS] = turns
    grow[G_ROUNDS] = rounds
    grow[G_END] = end
    grow[G_COMBOS] = combos
    grow[G_CASTS] = casts
    for q in range(P):
        srow[q, S_HP] = S[q, C_HP]
        srow[q, S_OUT] = S[q, C_OUT]
        srow[q, S_DMG] = S[q, C_DMG]
        srow[q, S_HEALED] = S[q, C_HEALED]
        srow[q, S_COMBOS] = S[q, C_COMBOS]
        srow[q, S_CASTS] = S[q, C_CASTS]
        srow[q, S_GUARDS] = S[q, C_GUARDS]


# --- search (README, "Policies": search) ----------------------------------
# Determinized flat Monte Carlo. A searching seat evaluates each candidate
# action by playing the game out from samples of what it cannot see, on
# copies of the state in its thread's search workspace (``search_work``),
# with the plain policies' own ``turn``; the real game's stream, records,
# masks, counts and trace are never touched.
SEARCH_SALT = np.uint64(0x5EA2C4D1E7A9B3F1)   # the search's streams, apart from the game's
LEVEL_FAST, LEVEL_SEARCH, LEVEL_STRONG, LEVEL_ORACLE = range(4)   # policy id - POL_SEARCH_FAST


@njit(cache=True, _nrt=False)
def play_turns(st, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, pol, sizes, acts, spbest,
               P, V, NB, cur, alive, stop):
    """Play on from seat ``cur``'s turn (turn Z[Z_TURN] + 1), as
    ``play_game``'s loop does but untraced and unchecked, with the plain
    policies ``pol`` (random, greedy or patient), until turn ``stop`` has
    been played or at most one seat is left. Returns (the seat whose turn
    comes next, the seats left, the turns played that were not skipped)."""
    played = 0
    t = Z[Z_TURN]
    while t < stop and alive > 1:
        t += 1
        Z[Z_TURN] = t
        if S[cur, C_SKIPS] > 0:             # wind
            S[cur, C_SKIPS] -= 1
        else:
            turn(st, S, hand, pile, Z, masks, counts, tr, False, False, ip, pp, ban, pol, sizes,
                 acts, spbest, P, V, NB, cur)
            played += 1
            alive -= eliminate(S, hand, pile, Z, tr, False, P, V)
        if alive > 1:
            cur = next_alive(S, cur, P)
    return cur, alive, played


@njit(cache=True, inline="always")
def search_key(seed, game, p, t):
    """The root of seat p's search streams at turn t of game ``game`` of
    run ``seed``: a function of (seed, game, seat, turn) alone. The search
    never draws from the game's own stream, so the real game's draws do not
    depend on how much was searched, nor on anything hidden."""
    return game_state(mix64(game_state(seed, game) ^ SEARCH_SALT), p * 4294967296 + t)


@njit(cache=True, _nrt=False)
def copy_state(S, hand, pile, Z, S2, hand2, pile2, Z2, P):
    """A game's state into another workspace (the cards in use only)."""
    for q in range(P):
        for j in range(NS):
            S2[q, j] = S[q, j]
        for j in range(S[q, C_HN]):
            hand2[q, j] = hand[q, j]
    for j in range(Z[Z_DECK]):
        pile2[0, j] = pile[0, j]
    for j in range(Z[Z_DISC]):
        pile2[1, j] = pile[1, j]
    for j in range(NZ):
        Z2[j] = Z[j]


@njit(cache=True, _nrt=False)
def determinize(sst, S, hand, pile, Z, P, p, NK, pool, cnt):
    """Sample again what seat p cannot see: the cards of the opponents'
    hands and of the deck are pooled in card-id order (so their real
    places are never read), shuffled from the search stream ``sst`` and
    dealt back, each hand keeping its size and the deck its size. p's hand,
    every array, the discard pile (face up), HP, guards and skips stay."""
    for c in range(NK):
        cnt[c] = 0
    for q in range(P):
        if q != p:
            for j in range(S[q, C_HN]):
                cnt[hand[q, j]] += 1
    for j in range(Z[Z_DECK]):
        cnt[pile[0, j]] += 1
    n = 0
    for c in range(NK):
        for _ in range(cnt[c]):
            pool[n] = c
            n += 1
    shuffle(sst, pool, n)
    k = 0
    for q in range(P):
        if q != p:
            m = S[q, C_HN]
            empty_hand(S, q)
            for _ in range(m):
                to_hand(S, hand, q, pool[k])
                k += 1
    for j in range(Z[Z_DECK]):
        pile[0, j] = pool[k]
        k += 1


@njit(cache=True, inline="always")
def greedy_score(S, hand, p, P, V, a, sizes, ip, pp):
    """greedy's immediate score of p's action ``a`` (``sizes``: p's combo
    sizes and array summary, ``combo_sizes``), in greedy's order of
    preference: a combo of value > 0, then a special of value > 0, then a
    placement, then the rest; within each, greedy's value (combo value,
    special value, placement score), then the target of lower HP."""
    kind, arg, t = action_parts(a)
    if kind == A_COMBO:
        v = combo_value(S, p, P, arg, combo_amount(arg, sizes[arg], ip), t if t >= 0 else p,
                        ip, pp)
        tier = 3.0 if v > 0.0 else 0.0
    elif kind == A_CAST:
        v = special_value(arg, ip, pp)
        tier = 2.0 if v > 0.0 else 0.0
    else:
        v = float(placement_score(S, p, hand[p, arg], V, sizes, ip))
        tier = 1.0
    sc = tier * 1e12 + v * 1e3
    if t >= 0:
        sc -= S[t, C_HP]
    return sc


@njit(cache=True, _nrt=False)
def best_first(S, hand, p, P, V, cand, na, sizes, ip, pp, score):
    """Order the candidates cand[:na] by greedy's immediate score
    (``greedy_score``), best first; equal scores keep their order."""
    combo_sizes_apart(S, p, sizes)
    for i in range(na):
        score[i] = greedy_score(S, hand, p, P, V, cand[i], sizes, ip, pp)
    for i in range(1, na):              # stable insertion sort
        a = cand[i]
        x = score[i]
        j = i - 1
        while j >= 0 and score[j] < x:
            cand[j + 1] = cand[j]
            score[j + 1] = score[j]
            j -= 1
        cand[j + 1] = a
        score[j + 1] = x


@njit(cache=True, inline="always")
def rollout(rst, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, rpol, sizes, acts, spbest,
            P, V, NB, p, a, stop):
    """In a copied state: seat p plays action ``a``, then every seat plays
    ``rpol`` until one seat (or none) is left or turn ``stop`` is played.
    Returns 2 x the turns played after p's + 1 when p alone is left."""
    kind, arg, tgt = action_parts(a)
    if kind == A_COMBO:
        combo_sizes_apart(S, p, sizes)
    end_turn(rst, S, hand, pile, Z, masks, counts, tr, False, False, ip, P, V, sizes, p, kind, arg,
             tgt)
    alive = 0
    for q in range(P):
        alive += S[q, C_ALIVE]
    alive -= eliminate(S, hand, pile, Z, tr, False, P, V)
    played = 0
    if alive > 1:
        _, alive, played = play_turns(rst, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, rpol,
                                      sizes, acts, spbest, P, V, NB, next_alive(S, p, P), alive,
                                      stop)
    return 2 * played + np.int64(alive == 1 and S[p, C_ALIVE] == 1)


@njit(cache=True, _nrt=False)
def choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, NB, p, level,
                  SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    """The search policies' choice for seat p (README, "Policies"); reads
    the real state, changes nothing in it. ``level``: LEVEL_FAST,
    LEVEL_SEARCH, LEVEL_STRONG (determinizations /4, x1, x4) or
    LEVEL_ORACLE (x1, the real hidden cards instead of samples).

    Candidates: the distinct legal actions (``list_actions``), in an order
    shuffled from the search stream (every tie below goes to the earlier
    one: a uniform tie-break), kept to the ``search_top_k`` of best greedy
    score. Each determinization d (the same ones for every candidate) and
    each rollout r give a rollout stream seeded by (d, r) alone, so the
    candidates are compared on common random numbers. The candidate with
    the most rollout wins is chosen."""
    cand = IW[W_CAND:W_CAND + 64]
    na = list_actions(S, hand, p, P, NB, cand, ban)
    if na == 0:
        return A_PASS, 0, -1
    if na == 1:
        return action_parts(cand[0])
    sst = UW[0:1]
    rst = UW[1:2]
    sub = search_key(seed, game, p, Z[Z_TURN])
    sst[0] = sub ^ SEARCH_SALT
    shuffle(sst, cand, na)
    sizes = IW[W_SIZES:W_SIZES + SM + 16]
    k = ip[R_TOPK]
    if k > 0 and na > k:
        best_first(S, hand, p, P, V, cand, na, sizes, ip, pp, FW)
        na = k
    D = ip[R_DET]
    if level == LEVEL_FAST:
        D = max(1, D // 4)
    elif level == LEVEL_STRONG:
        D *= 4
    R = ip[R_ROLL]
    stop = min(ip[P_MAXT], Z[Z_TURN] + ip[R_CAP])
    wins = IW[W_WINS:W_WINS + 64]
    rpol = IW[W_RPOL:W_RPOL + P]
    acts = IW[W_ACTS:W_ACTS + 64]
    pool = IW[W_POOL:W_POOL + NC_MAX]
    cnt = IW[W_CNT:W_CNT + 72]
    for q in range(P):
        rpol[q] = POL_RANDOM if ip[R_RPOL] == 1 else POL_GREEDY
    for c in range(na):
        wins[c] = 0
    played = 0
    for d in range(D):
        copy_state(S, hand, pile, Z, SW[0], HW[0], PW[0], ZW[0], P)
        if level != LEVEL_ORACLE:
            determinize(sst, SW[0], HW[0], PW[0], ZW[0], P, p, NB + 5, pool, cnt)
        for c in range(na):
            for r in range(R):
                rst[0] = game_state(sub, d * R + r)
                copy_state(SW[0], HW[0], PW[0], ZW[0], SW[1], HW[1], PW[1], ZW[1], P)
                res = rollout(rst, SW[1], HW[1], PW[1], ZW[1], MW, CW, TW, ip, pp, ban, rpol,
                              sizes, acts, spbest, P, V, NB, p, cand[c], stop)
                wins[c] += res & 1
                played += res >> 1
    best = 0
    for c in range(1, na):
        if wins[c] > wins[best]:
            best = c
    IW[W_STATS] += 1
    IW[W_STATS + 1] += D * R * na
    IW[W_STATS + 2] += played
    IW[W_STATS + 3] += na
    return action_parts(cand[best])


@njit(cache=True, _nrt=False)
def search_turn(seed, game, st, S, hand, pile, Z, masks, counts, tr, on, check, ip, pp, ban,
                sizes, acts, spbest, P, V, NB, p, level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    """A searching seat's turn when not skipped: draw and discard down to
    the hand limit as greedy does, choose by search, resolve. Returns the
    number of broken invariants found (check mode)."""
    begin_turn(st, S, hand, pile, Z, masks, counts, tr, on, ip, pp, POL_GREEDY, sizes, acts, NB,
               V, p)
    kind, arg, tgt = choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, NB, p,
                                   level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW)
    if kind == A_COMBO:
        combo_sizes_apart(S, p, sizes)      # the real array's sizes, for fire
    return end_turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p, kind,
                    arg, tgt)


@njit(cache=True, _nrt=False)
def play_game(seed, game, P, pol, ip, pp, ban, st, S, hand, pile, Z, sizes, acts, spbest,
              games, seats, gmasks, g, bcounts, b, tr, on, check, ws):
    """Play one game; fill its game row ``games[g]``, seat rows ``seats[g]``
    and ``gmasks[g]``; add card counts to ``bcounts[b]``. (Whole arrays and
    indices rather than row views: a view per game costs reference counting,
    and this function is compiled without it, ``_nrt=False``, so the views
    taken here cost nothing.) Returns the number of broken invariants found
    (always 0 unless ``check``). ``ws``: the search workspace
    (``search_work``) when a seat plays a search policy, else None: numba
    then compiles a version without the search and its arguments (with
    them, greedy games were 6-7 % slower)."""
    masks = gmasks[g]
    counts = bcounts[b]
    st[0] = game_state(seed, game)
    start(st, S, hand, pile, Z, masks, counts, tr, on, ip, P)
    V = ip[P_V]
    NB = 5 * V
    maxt = ip[P_MAXT]
    cur = 0
    turns = 0
    rounds = 1
    alive = P
    end = END_CAP
    errors = 0
    while turns < maxt:
        turns += 1
        Z[Z_TURN] = turns
        if on:
            ev(tr, Z, E_TURN, cur, rounds, S[cur, C_HP], S[cur, C_HN], S[cur, C_GUARDS], 0)
        if S[cur, C_SKIPS] > 0:             # wind
            S[cur, C_SKIPS] -= 1
            if on:
                ev(tr, Z, E_SKIP, cur, S[cur, C_SKIPS], 0, 0, 0, 0)
        elif ws is not None and pol[cur] >= POL_SEARCH_FAST:
            SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW = ws
            errors += search_turn(seed, game, st, S, hand, pile, Z, masks, counts, tr, on, check,
                                  ip, pp, ban, sizes, acts, spbest, P, V, NB, cur,
                                  pol[cur] - POL_SEARCH_FAST, SW, HW, PW, ZW, IW, FW, UW, MW, CW,
                                  TW)
            alive -= eliminate(S, hand, pile, Z, tr, on, P, V)
        else:
            errors += turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, pp, ban, pol,
                           sizes, acts, spbest, P, V, NB, cur)
            alive -= eliminate(S, hand, pile, Z, tr, on, P, V)
        if check:
            errors += broken_invariants(S, hand, Z, P)
        if alive <= 1:
            end = END_LAST
            break
        nxt = next_alive(S, cur, P)
        if nxt <= cur:
            rounds += 1
        cur = nxt
    finish(S, Z, tr, on, P, end, turns, rounds, games[g], seats[g])
    return errors


def work(P):
    """One thread's workspace (allocated in Python: the kernels then allocate
    nothing, which keeps them simple to compile)."""
    return (np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
            np.zeros((3, NC_MAX), np.int64), np.zeros(NZ, np.int64),
            np.zeros(SM + 16, np.int64), np.zeros(64, np.int64), np.zeros(1, np.uint64),
            np.zeros((1, 8), np.int64), np.zeros(32, np.int64))


def search_work(P, W, NK):
    """One thread's search workspace, for ``W`` mask words and ``NK`` card
    kinds: the determinized state and the rollout's copy of it (S, hand,
    pile, Z, two of each), the int buffer (``layout.W_*``), the candidates'
    scores, the two search streams, and the masks, counts and trace rows
    the rollouts write into instead of the game's."""
    return (np.zeros((2, P, NS), np.int64), np.zeros((2, P, HCAP), np.int64),
            np.zeros((2, 2, NC_MAX), np.int64), np.zeros((2, NZ), np.int64),
            np.zeros(NIW, np.int64), np.zeros(64, np.float64), np.zeros(2, np.uint64),
            np.zeros((P, 2, W), np.uint64), np.zeros((2, NK), np.int64),
            np.zeros((1, 8), np.int64))


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, *work(int(P)), search_scratch(P, pol, masks, counts))


def search_scratch(P, pol, masks, counts):
    """The search workspace when a seat plays a search policy, else None:
    the kernels are then compiled without the search (a batch of greedy or
    random seats compiles and loads only that; the search's specialisation
    is compiled on the first batch that has a search seat)."""
    if not (np.asarray(pol)[:int(P)] >= POL_SEARCH_FAST).any():
        return None
    return search_work(int(P), masks.shape[-1], counts.shape[-1])


@njit(cache=True, nogil=True)
def play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, S, hand, pile, Z, sizes, acts, st, tr, spbest, ws):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = play_game(seed, start + g, P, pol, ip, pp, ban, st, S, hand, pile, Z,
                                  sizes, acts, spbest, games, seats, masks, g, counts, b, tr,
                                  False, check, ws)


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    S, hand, pile, Z, sizes, acts, st, _, spbest = work(int(P))
    return _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr,
                      S, hand, pile, Z, sizes, acts, st, spbest,
                      search_scratch(P, pol, masks, counts))


@njit(cache=True)
def _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr,
               S, hand, pile, Z, sizes, acts, st, spbest, ws):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    play_game(seed, game, P, pol, ip, pp, ban, st, S, hand, pile, Z, sizes, acts, spbest,
              games, seats, masks, 0, counts, 0, tr, True, False, ws)
    return Z[Z_TR]


# --- one search decision on its own (tests, bench) ---------------------------
def position(seed, game, P, pol, ip, pp, ban, stop):
    """Game ``game`` of ``seed`` played with the plain policies ``pol``
    (a search seat plays greedy here) up to turn ``stop``, stopped after
    that turn's draw and discards (as greedy, a searching seat's rule):
    (the seat to decide, or -1 when the game ended before or the turn is
    skipped, S, hand, pile, Z)."""
    S, hand, pile, Z, sizes, acts, st, tr, spbest = work(int(P))
    nk = len(ban)
    masks = np.zeros((int(P), 2, mask_words(nk)), np.uint64)
    counts = np.zeros((2, nk), np.int64)
    cur = _position(np.uint64(seed), np.int64(game), np.int64(P), pol, ip, pp, ban,
                    np.int64(stop), S, hand, pile, Z, sizes, acts, st, tr, spbest, masks, counts)
    return int(cur), S, hand, pile, Z


@njit(cache=True)
def _position(seed, game, P, pol, ip, pp, ban, stop, S, hand, pile, Z, sizes, acts, st, tr,
              spbest, masks, counts):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    st[0] = game_state(seed, game)
    start(st, S, hand, pile, Z, masks, counts, tr, False, ip, P)
    V = ip[P_V]
    cur, alive, _ = play_turns(st, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, pol, sizes,
                               acts, spbest, P, V, 5 * V, 0, P, stop - 1)
    if alive <= 1 or Z[Z_TURN] != stop - 1 or S[cur, C_SKIPS] > 0:
        return -1
    Z[Z_TURN] = stop
    begin_turn(st, S, hand, pile, Z, masks, counts, tr, False, ip, pp, POL_GREEDY, sizes, acts,
               5 * V, V, cur)
    return cur


def search_decision(seed, game, P, ip, pp, ban, level, S, hand, pile, Z, p, ws=None):
    """The action (kind, arg, target) search at ``level`` (LEVEL_*) chooses
    for seat p in the given state (after its draw and discards, at turn
    Z[Z_TURN] of game ``game`` of ``seed``: the search streams' key), and
    the search counters (``layout.W_STATS``: decisions searched, rollouts,
    rollout turns played, candidates; they add up over the calls given the
    same workspace ``ws``, ``search_work``). The state is not changed."""
    nk = len(ban)
    if ws is None:
        ws = search_work(int(P), mask_words(nk), nk)
    spbest = np.zeros(32, np.int64)
    kind, arg, tgt = _search_decision(np.uint64(seed), np.int64(game), S, hand, pile, Z, ip, pp,
                                      ban, spbest, np.int64(P), np.int64(p), np.int64(level), *ws)
    return (int(kind), int(arg), int(tgt)), ws[4][W_STATS:W_STATS + 4].copy()


@njit(cache=True)
def _search_decision(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, p, level,
                     SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    fill_special_table(ip, pp, spbest)
    V = ip[P_V]
    return choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, 5 * V, p,
                         level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW)


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one, "search": search_turn}

jit.kernel_cache_end()
