"""Talisman Poker's heuristics: random, greedy and patient (README,
"Policies"): the special table, the option list, the scores of a combo, a
special, a placement and a discard, and each policy's choice. Ties are
broken from the game's stream (``pick_tied``).

The step module asks them for a seat's option (``step.heuristic``) and
takes greedy's score of an option, ``prior`` (the search keeps the
``search_top_k`` best), from here; they read the state and the combos
(``cards``, ``step_combos``) and change nothing but their scratch and the
stream.
"""
import numpy as np
from balance.core.compiled import allocating, compiled, inlined, inlined_callable

from ...core import jit
from ...core.kernel import BAN_FORBID  # before kernel_cache_begin
from ...core.rng import below
from .cards import ELEM, RUN, VAL0
from .layout import (A_CAST, A_COMBO, A_PASS, A_PLACE, C_ALIVE, C_ARRN, C_BITS, C_GUARDS, C_HN,
                     C_HP, C_SPEC, PH_DISCARD, POL_PATIENT, POL_RANDOM, Z_CUR, Z_PHASE)
from .rules import (CHAOS, FLUSH, FOUR, GEN_TABLE, GENERATING, GUARD, OVER_TABLE, OVERCOMING,
                    STEAL, THUNDER, WIND)
from .state_slots import (P_CHAOS, P_FLUSH, P_GEN, P_HEAL, P_OVER, P_THUNDER, Q_DESTROY,
                          Q_GAMBLE, Q_GUARD, Q_HEALV, Q_MIN, Q_STEAL, Q_WIND, SM)
from .step_combos import (combo_amount, combo_sizes, combo_sizes_apart, combo_types, heal_room,
                          summarize)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- ties --------------------------------------------------------------------
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


# --- the policies ------------------------------------------------------------
@inlined
def special_mask(S, p, NB, ban):
    """Bit s set when p holds special s and it may be played."""
    m = 0
    for k in range(5):
        m |= np.int64((S[p, C_SPEC + k] > 0) & (ban[NB + k] != BAN_FORBID)) << k
    return m


@allocating
def fill_special_table(ip, pp, spbest):
    """spbest[q, m] = the specials greedy at seat q may cast when it holds
    the kinds in bitmask m, as a bitmask: the kinds of highest
    ``special_value`` (from q's policy row ``pp[q]``) above 0 (several on a
    tie), 0 for none (a table per seat and batch: the values are constants,
    and a lookup avoids a chain of unpredictable branches every turn). A tie
    is broken per game from the game's stream (``pick_tied``), never here.
    ``pp`` float64[seats, K], ``spbest`` int64[seats, 32]."""
    for q in range(pp.shape[0]):
        row = pp[q]
        for m in range(32):
            tied = 0
            best_sv = 0.0
            for s in range(5):
                if (m >> s) & 1:
                    v = special_value(s, ip, row)
                    if v > best_sv:
                        best_sv = v
                        tied = 1 << s
                    elif v == best_sv and v > 0.0:
                        tied |= 1 << s
            spbest[q, m] = tied


@inlined
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


@inlined
def victims(S, p, P, amount):
    """Bitmask of the opponents a combo of this damage would put out now
    (unguarded, HP <= damage)."""
    m = 0
    for q in range(P):
        if q != p and S[q, C_ALIVE] == 1 and S[q, C_GUARDS] == 0 and S[q, C_HP] <= amount:
            m |= np.int64(1) << q
    return m


@inlined
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


@inlined
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


@inlined
def keep_score(c, NB, V, S, p, sm, ip, pp):
    """Greedy's discard order: lowest score goes first."""
    if c >= NB:
        return special_value(c - NB, ip, pp) * 1000.0
    return float(placement_score(S, p, c, V, sm, ip))


@inlined
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


@inlined
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


@inlined
def action_parts(a):
    """(kind, arg, target) of an action coded by ``list_actions``."""
    return a >> 12, (a >> 4) & 255, (a & 15) - 1


@inlined
def choose_random(st, S, hand, p, P, NB, sizes, acts, ban):
    """Uniform over the distinct legal actions (``list_actions``)."""
    na = list_actions(S, hand, p, P, NB, acts, ban)
    if na == 0:
        return A_PASS, 0, -1
    a = acts[below(st, na)]
    if a >> 12 == A_COMBO:
        combo_sizes_apart(S, p, sizes)      # the turn then fires the combo with these sizes
    return action_parts(a)


@inlined_callable
def choose_greedy(s, c, pol, p):
    """greedy / patient (README, "Policies") for seat p: ``s`` the game's
    ``state.State`` (its stream ``st`` draws the ties), ``c`` the batch's
    ``state.Ctx`` (rule and policy vectors, bans, the special tables
    ``spbest``, the scratch ``sizes`` and ``acts``; the float policy
    parameters and the special table read are seat p's: row ``p`` of
    ``pp`` and of ``spbest``). Each choice collects
    the options tied for the best score (a bitmask for ``pick_tied``; for
    the placement, the hand indices in ``acts[:n]``) and draws one
    uniformly, a draw only when options tie, in this order: the target,
    then only the choices the action needs: the combo (patient: the kill
    type, then its victim), the special, the steal target, the placement."""
    st, S, hand = s.st, s.S, s.hand
    P, NB, V, sizes, acts, ip, pp = c.P, c.NB, c.V, c.sizes, c.acts, c.ip, c.pp[p]  # p's row
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
    best_s = pick_tied(st, c.spbest[p, special_mask(S, p, NB, c.ban)])
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
        card = hand[p, i]
        if card < NB and c.ban[card] != BAN_FORBID:
            sc = placement_score(S, p, card, V, sizes, ip)
            if sc > best_sc:
                best_sc = sc
                ntied = 0
            acts[ntied] = i
            ntied += sc == best_sc
    if ntied > 0:
        return A_PLACE, acts[below(st, ntied) if ntied > 1 else 0], -1
    return A_PASS, 0, -1


@compiled
def prior(s, c, code):
    """greedy's immediate score of an option, in greedy's order of
    preference: a combo of value > 0, a special of value > 0, a placement,
    the rest; within each greedy's value, then the target of lower HP. A
    discard: the lower greedy's keep score, the better."""
    S, hand = s.S, s.hand
    p = s.Z[Z_CUR]
    sizes = c.sizes
    if s.Z[Z_PHASE] == PH_DISCARD:
        summarize(S, p, sizes)
        return -keep_score(hand[p, code], c.NB, c.V, S, p, sizes, c.ip, c.pp[p])
    combo_sizes_apart(S, p, sizes)
    kind, arg, t = action_parts(code)
    if kind == A_COMBO:
        v = combo_value(S, p, c.P, arg, combo_amount(arg, sizes[arg], c.ip), t if t >= 0 else p,
                        c.ip, c.pp[p])
        tier = 3.0 if v > 0.0 else 0.0
    elif kind == A_CAST:
        v = special_value(arg, c.ip, c.pp[p])
        tier = 2.0 if v > 0.0 else 0.0
    elif code == 0:
        v = 0.0
        tier = 0.0
    else:
        v = float(placement_score(S, p, hand[p, arg], c.V, sizes, c.ip))
        tier = 1.0
    sc = tier * 1e12 + v * 1e3
    if t >= 0:
        sc -= S[t, C_HP]
    return sc


jit.kernel_cache_end()
