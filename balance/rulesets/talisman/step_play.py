"""Talisman Poker's rule parts that change the game, played by the step
machine (``step``): the deck and the deal (``fill_deck``, ``start``), a
damage instance (``damage``), casting a special (``cast``), firing a combo
(``fire``), the end of a turn (``end_turn``: the chosen action resolved),
eliminations (``eliminate``), the invariants of check mode
(``broken_invariants``) and the game's records (``records``). The turn's
start and the choice of action are the step module's (``step.begin``,
``step.heuristic`` over ``policies``).

``cast``, ``fire``, ``resolve`` and ``end_turn`` take the game's
``state.State`` (``s``) and the batch's ``state.Ctx`` (``c``: the rule
vector ``ip``, ``V``, ``NB`` and the policies' scratch ``sizes``).
"""
import numpy as np
from numba import njit
from balance.core.compiled import allocating, inlined, inlined_callable
from numba import types as nt

from ...core import jit
from ...core.kernel import BAN_REMOVE, drawn, ev, setbit  # before kernel_cache_begin
from ...core.rng import below, shuffle
from .cards import ELEM, VAL0
from .layout import (A_CAST, A_COMBO, A_PASS, A_PLACE, C_ALIVE, C_ARRN, C_BITS, C_CASTS, C_COMBOS,
                     C_DMG, C_GUARDS, C_HEALED, C_HN, C_HP, C_NB, C_OUT, C_SKIPS, C_SPEC, E_CAST,
                     E_COMBO, E_DAMAGE, E_DESTROY, E_END, E_GAMBLE, E_GUARD, E_HEAL, E_OUT,
                     E_PASS, E_PLACE, E_STEAL, E_WIND, END_LAST, Z_DECK, Z_DISC, Z_NC, Z_TR,
                     Z_TURN)
from .rules import FLUSH, FOUR, GUARD, OVERCOMING, STEAL, THUNDER, WIND
from .state_slots import (A1, A2, B1, G_CASTS, G_COMBOS, G_END, G_ROUNDS, G_TURNS, G_WINNER, I64,
                          P_CAP, P_COPIES, P_HP, P_START, P_THUNDER, P_V, S_CASTS, S_COMBOS, S_DMG,
                          S_GUARDS, S_HEALED, S_HP, S_OUT, U1, U3)
from .state_zones import (array_to_discard, draw, empty_hand, has_special, next_alive,
                          take_from_hand, to_discard, to_hand)
from .step_combos import combo_amount, combo_sizes_apart, heal_room

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@allocating
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
      forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@inlined
def cast(s, c, masks, counts, tr, on, p, special, tgt):
    """p casts ``special`` (at seat tgt for thunder and steal): the card
    goes to the discard pile, then its effect resolves. ``s``, ``c``: the
    game's ``state.State`` and the batch's ``state.Ctx``."""
    st, S, hand, pile, Z = s.st, s.S, s.hand, s.pile, s.Z
    P = S.shape[0]
    i = has_special(S, hand, p, special, c.NB)
    card = take_from_hand(S, hand, p, i)
    setbit(masks, p, 1, card)
    counts[1, card] += 1
    S[p, C_CASTS] += 1
    to_discard(pile, Z, card)
    if on:
        ev(tr, Z, E_CAST, p, special, tgt, 0, 0, 0)
    if special == THUNDER:
        damage(S, Z, tr, on, p, tgt, c.ip[P_THUNDER])
    elif special == WIND:
        q = next_alive(S, p, P)
        S[q, C_SKIPS] += 1
        if on:
            ev(tr, Z, E_WIND, p, q, S[q, C_SKIPS], 0, 0, 0)
    elif special == GUARD:
        S[p, C_GUARDS] += 1
        if on:
            ev(tr, Z, E_GUARD, p, S[p, C_GUARDS], 0, 0, 0, 0)
    elif special == STEAL:
        nh = S[tgt, C_HN]
        got = -1
        if nh > 0:
            j = below(st, nh)
            got = take_from_hand(S, hand, tgt, j)
            to_hand(S, hand, p, got)
            drawn(masks, counts, p, got)
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


@inlined
def fire(s, c, tr, on, check, p, ct, tgt):
    """p fires combo type ct (at seat tgt for generating, overcoming and
    chaos), then p's array goes to the discard pile. Returns the number of
    broken invariants found (check mode: ``c.sizes`` is current)."""
    # ``c.sizes`` still holds p's combo sizes: both policies compute them
    # (combo_sizes) as their last look at the array, and nothing has changed
    # the array since (check mode verifies)
    S, pile, Z, ip, V, sizes = s.S, s.pile, s.Z, c.ip, c.V, c.sizes
    P = S.shape[0]
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


@inlined
def resolve(s, c, masks, counts, tr, on, check, p, kind, arg, tgt):
    """Carry out p's action (kind, arg, tgt); returns the number of broken
    invariants found (check mode)."""
    if kind == A_PASS:
        if on:
            ev(tr, s.Z, E_PASS, p, 0, 0, 0, 0, 0)
    elif kind == A_PLACE:
        S, V = s.S, c.V
        card = take_from_hand(S, s.hand, p, arg)
        S[p, C_BITS + ELEM[V, card]] |= np.int64(1) << VAL0[V, card]
        S[p, C_ARRN] += 1
        setbit(masks, p, 1, card)
        counts[1, card] += 1
        if on:
            ev(tr, s.Z, E_PLACE, p, card, S[p, C_ARRN], 0, 0, 0)
    elif kind == A_CAST:
        cast(s, c, masks, counts, tr, on, p, arg, tgt)
    else:
        return fire(s, c, tr, on, check, p, arg, tgt)
    return 0


@inlined
def end_turn(s, c, masks, counts, tr, on, check, p, kind, arg, tgt):
    """The end of p's turn: resolve the chosen action (``c.sizes`` holds p's
    combo sizes when it is a combo). ``s``, ``c``: the game's
    ``state.State`` and the batch's ``state.Ctx``. Returns the number of
    broken invariants found (check mode)."""
    S = s.S
    hp0 = S[p, C_HP]
    errors = resolve(s, c, masks, counts, tr, on, check, p, kind, arg, tgt)
    if check:
        if S[p, C_HP] > hp0 and not (kind == A_COMBO and arg == FOUR):
            errors += 1
        if c.ip[P_CAP] > 0 and S[p, C_HP] > hp0 and S[p, C_HP] > c.ip[P_CAP]:
            errors += 1
    return errors


@inlined
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
      forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def records(S, Z, tr, on, P, end, turns, rounds, grow, srow):
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


jit.kernel_cache_end()
