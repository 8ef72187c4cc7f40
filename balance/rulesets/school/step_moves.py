"""Magic School's rules as moves, each written once and played by the
phase machine (``step``) in the game, in the search's rollouts and in the
scenario tests: the deck and the deal (``fill_deck``, ``init_game``), a
spell's effect (``cast``, and ``can_cast``: whether a turn has a spell to
choose), the score area (``to_score``), the meeting's opening and result,
and the discard down to the hand limit. Each takes the game's ``State``
``s`` and the table's ``Ctx`` ``c`` (``state``); where a move needs a
seat's choice (a joker's pile, a discard) it asks the seat's own policy
(``policies``), which keeps its array arguments.
"""
import numpy as np
from balance.core.compiled import compiled, internal, ir_inlined

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.rng import below, below_at, game_state, seat_streams, shuffle
from .cards import house_of_card, is_joker, KIND, KVAL, val, vbit
from .layout import (C_HN, D_DISCARD, D_JOKER, E_BOOKSET, E_DEAL, E_DELETE, E_DISCARD, E_FATE,
                     E_FIRST, E_MEET, E_OPTION, E_SCORE, E_SPELL, E_SWAP, E_TOBOOK, EF_DRAW,
                     EF_PEEK_BOOK, EF_PEEK_DECK, EF_PEEK_FATE, EF_PEEK_HAND, EF_STEAL, EF_SWAP,
                     FCAP, KN_FATE, KN_MASK, KNW, NK, PCAP, POL_INFORMED, POL_SCRIPT, Z_BN,
                     Z_CLOAK, Z_DEC, Z_DECK, Z_FIRST, Z_INV, Z_NC, Z_OPT, Z_PN, Z_PT, Z_SAGE, Z_UP,
                     Z_VOTE)
from .policies import choose_house
from .policies_values import argmax_tie, keep_value, script_next
from .state_slots import (P_DECKS, P_FATE, P_HIDDEN, P_LIMIT, P_MEET, P_SDRAW, P_SETUP, P_START,
                          S_CB, S_CW, S_DEC, S_DRAWS, S_FIRST, S_FVALS, S_GAIN, S_PEEK, S_STEAL,
                          S_SWAPS, S_VOTES, ZG_CB, ZG_CLOAKED, ZG_CW, ZG_DRAW, ZG_PEEK, ZG_STEAL,
                          ZG_SWAP)
from .state_zones import (draw_card, draw_to_hand, hand_index, take, to_discard,
                          to_hand, update_up)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- the deck and the deal ---------------------------------------------------------------
@compiled
def fill_deck(s, c):
    """The unshuffled deck in cards[2, :n], n in Z[Z_NC] (once per batch)."""
    d = c.ip[P_DECKS]
    if d == 0:
        d = 1 if c.P <= 5 else 2
    n = 0
    for x in range(NK * d):
        if c.ban[KIND[x]] != BAN_REMOVE:
            s.cards[2, n] = x
            n += 1
    s.Z[Z_NC] = n


@compiled
def init_game(s, c, seed, game, masks, counts, tr, on):
    """Reset, shuffle, deal (each seat in turn: hand cards, then fate cards),
    set the books (white: face up, then hidden; black likewise), pick the
    first sage, who turns the setup score cards (a joker's pile: its own
    policy's choice)."""
    S, hand, fate, B, Z, cards, KN, KF, st = (s.S, s.hand, s.fate, s.B, s.Z, s.cards, s.KN,
                                              s.KF, s.st)
    P = c.P
    ip = c.ip
    nc = Z[Z_NC]
    for i in range(Z.shape[0]):
        if i != Z_NC:
            Z[i] = 0
    st[0] = game_state(seed, game)
    seat_streams(s.pst, st[0])
    for p in range(P):
        for j in range(S.shape[1]):
            S[p, j] = 0
        for x in range(KNW):
            KN[p, x] = 0
        for q in range(P):
            for i in range(FCAP):
                KF[p, q, i] = 0
    for i in range(nc):
        cards[0, i] = cards[2, i]
    Z[Z_DECK] = nc
    shuffle(st, cards[0], nc)
    Z[Z_INV] = -1
    Z[Z_CLOAK] = -1
    F = ip[P_FATE]
    for p in range(P):
        for _ in range(ip[P_START]):
            x = draw_card(st, cards, Z, tr, on)
            if x >= 0:
                to_hand(S, hand, p, x, masks, counts)
                if on:
                    ev(tr, Z, E_DEAL, p, x, 0, 0, 0, 0)
        for i in range(F):
            x = draw_card(st, cards, Z, tr, on)
            fate[p, i] = x
            if x >= 0:
                KF[p, p, i] = 1
                KN[p, KN_FATE] |= vbit(x)
                setbit(masks, p, 0, KIND[x])
                counts[0, KIND[x]] += 1
                S[p, S_FVALS] |= np.int64(1) << KVAL[KIND[x]]
                if on:
                    ev(tr, Z, E_FATE, p, x, 0, 0, 0, 0)
    for b in range(2):
        for k in range(1 + ip[P_HIDDEN]):
            x = draw_card(st, cards, Z, tr, on)
            if x < 0:
                break
            j = Z[Z_BN + b]
            B[b, 0, j] = x
            B[b, 1, j] = np.int64(k == 0)
            Z[Z_BN + b] = j + 1
            if on:
                ev(tr, Z, E_BOOKSET, -1, b, x, np.int64(k == 0), 0, 0)
        update_up(B, Z, b)
    sage = below(st, P)
    Z[Z_FIRST] = sage
    Z[Z_SAGE] = sage
    S[sage, S_FIRST] = 1
    if on:
        ev(tr, Z, E_FIRST, sage, 0, 0, 0, 0, 0)
    for _ in range(ip[P_SETUP]):
        x = draw_card(st, cards, Z, tr, on)
        if x < 0:
            break
        to_score(s, c, x, sage, tr, on)


# --- spells: the effects -----------------------------------------------------------------
@ir_inlined
def cast(s, c, p, masks, counts, tr, on):
    """Cast entry c.out[0:4] of seat p: the spell card goes to the discard
    pile first, then the effect resolves."""
    st, S, hand, fate, B, Z, pile, cards, KN, KF = (s.st, s.S, s.hand, s.fate, s.B, s.Z, s.pile,
                                                    s.cards, s.KN, s.KF)
    ip = c.ip
    out = c.out
    eff = out[0]
    g_card = hand[p, out[2]] if eff == EF_SWAP else -1
    x = take(S, hand, p, out[1])
    to_discard(cards, Z, x)
    k = KIND[x]
    setbit(masks, p, 1, k)
    counts[1, k] += 1
    black = eff >= EF_STEAL
    S[p, S_CB if black else S_CW] += 1
    Z[ZG_CB if black else ZG_CW] += 1
    seen = -1
    if eff == EF_PEEK_BOOK:
        seen = B[out[2], 0, out[3]]
        KN[p, seen] = 1
        KN[p, KN_MASK + out[2]] |= vbit(seen)
        S[p, S_PEEK] += 1
        Z[ZG_PEEK] += 1
    elif eff == EF_PEEK_FATE:
        seen = fate[out[2], out[3]]
        KF[p, out[2], out[3]] = 1
        S[p, S_PEEK + 1] += 1
        Z[ZG_PEEK + 1] += 1
    elif eff == EF_PEEK_HAND:
        q = out[2]
        out[3] = below(st, S[q, C_HN])
        seen = hand[q, out[3]]
        S[p, S_PEEK + 2] += 1
        Z[ZG_PEEK + 2] += 1
    elif eff == EF_PEEK_DECK:
        seen = cards[0, Z[Z_DECK] - 1]
        S[p, S_PEEK + 3] += 1
        Z[ZG_PEEK + 3] += 1
    elif eff == EF_STEAL:
        q = out[2]
        out[3] = below(st, S[q, C_HN])
        seen = take(S, hand, q, out[3])
        to_hand(S, hand, p, seen, masks, counts)
        S[p, S_STEAL] += 1
        Z[ZG_STEAL] += 1
    elif eff == EF_DRAW:
        S[p, S_DRAWS] += 1
        Z[ZG_DRAW] += 1
    elif eff == EF_SWAP:
        S[p, S_SWAPS] += 1
        Z[ZG_SWAP] += 1
    if on:
        ev(tr, Z, E_SPELL, p, eff, x, out[2], out[3], seen)
    if eff == EF_DRAW:
        for _ in range(ip[P_SDRAW]):
            draw_to_hand(st, S, hand, cards, Z, p, masks, counts, tr, on)
    elif eff == EF_SWAP:
        gi = hand_index(S, hand, p, g_card)
        h = out[3] // PCAP
        j = out[3] % PCAP
        taken = pile[h, j]
        take(S, hand, p, gi)
        pile[h, j] = g_card
        Z[Z_PT + h] += val(g_card) - val(taken)
        to_discard(cards, Z, taken)
        S[p, S_GAIN] += val(g_card) - val(taken)
        if on:
            ev(tr, Z, E_SWAP, p, g_card, taken, h, 0, 0)


@internal
def can_cast(p, S, hand, Z, ban):
    """Seat p holds a card that casts a spell (a castable card always gives
    an entry: a black one draw; a white one a fate peek, since at least one
    other seat is targetable)."""
    up = Z[Z_UP] | Z[Z_UP + 1]
    for i in range(S[p, C_HN]):
        k = KIND[hand[p, i]]
        if k < 52 and (up >> KVAL[k]) & 1 and ban[k] != BAN_FORBID:
            return True
    return False


# --- the score area and the meeting ------------------------------------------------------
@compiled
def to_score(s, c, x, sage, tr, on):
    """Card x enters the score area: its suit's pile, a joker the pile the
    sage picks (its own policy: ``c.bpol``); the cloaked pile discards it."""
    S, Z, pile = s.S, s.Z, s.pile
    if is_joker(x):
        h = choose_house(c.bpol[sage], sage, Z, s.KN, s.pst, c.script, np.int64(D_JOKER), c.buf)
        S[sage, S_DEC] += 1
        Z[Z_DEC] += 1
    else:
        h = house_of_card(x, c.ip)
    dropped = h == Z[Z_CLOAK]
    if dropped:
        to_discard(s.cards, Z, x)
        Z[ZG_CLOAKED] += 1
    else:
        pile[h, Z[Z_PN + h]] = x
        Z[Z_PN + h] += 1
        Z[Z_PT + h] += val(x)
    if on:
        ev(tr, Z, E_SCORE, sage, x, h, np.int64(dropped), 0, 0)


@compiled
def meeting_open(s, c, r, sage, tr, on):
    """The sage's meeting begins: rounds 1 and 3 add a white spell, 2 and 4
    a black one (``meeting_cards`` turned from the deck into the options
    Z[Z_OPT:]); rounds 5 and 6 delete a face-up white / black spell (its
    places into the options). Returns (kind, options): kind 0 add white,
    1 add black, 2 delete white, 3 delete black."""
    B, Z = s.B, s.Z
    kind = (r - 1) % 2 if r <= 4 else 2 + (r - 5)
    book = kind & 1
    n = np.int64(0)
    if kind < 2:
        for _ in range(c.ip[P_MEET]):
            x = draw_card(s.st, s.cards, Z, tr, on)
            if x < 0:
                break
            Z[Z_OPT + n] = x
            n += 1
    else:
        for j in range(Z[Z_BN + book]):
            if B[book, 1, j] == 1:
                Z[Z_OPT + n] = j
                n += 1
    if on:
        ev(tr, Z, E_MEET, sage, kind, n, 0, 0, 0)
        for o in range(n):
            ev(tr, Z, E_OPTION, sage, o, Z[Z_OPT + o] if kind < 2 else B[book, 0, Z[Z_OPT + o]],
               0, 0, 0)
    return kind, n


@compiled
def meeting_end(s, c, kind, sage, n, win, tr, on):
    """Option ``win`` carries: a card turned enters the book face up (the
    others the score area), or a deleted spell goes to the score area;
    with a vote (n > 1), each seat that voted for it is counted."""
    S, B, Z = s.S, s.B, s.Z
    book = kind & 1
    if n > 1:
        for q in range(c.P):
            if Z[Z_VOTE + q] == win:
                S[q, S_VOTES] += 1
    if kind < 2:
        x = Z[Z_OPT + win]
        j = Z[Z_BN + book]
        B[book, 0, j] = x
        B[book, 1, j] = 1
        Z[Z_BN + book] = j + 1
        update_up(B, Z, book)
        if on:
            ev(tr, Z, E_TOBOOK, sage, book, x, 0, 0, 0)
        for o in range(n):
            if o != win:
                to_score(s, c, Z[Z_OPT + o], sage, tr, on)
    else:
        j = Z[Z_OPT + win]
        x = B[book, 0, j]
        for y in range(j, Z[Z_BN + book] - 1):
            B[book, 0, y] = B[book, 0, y + 1]
            B[book, 1, y] = B[book, 1, y + 1]
        Z[Z_BN + book] -= 1
        update_up(B, Z, book)
        if on:
            ev(tr, Z, E_DELETE, sage, book, x, 0, 0, 0)
        to_score(s, c, x, sage, tr, on)


# --- the discard -------------------------------------------------------------------------
@ir_inlined
def discard_down(s, c, p, tr, on):
    """Seat p discards one card at a time down to the hand limit, each
    chosen by its own policy (``c.bpol``: informed its lowest keep value,
    ties uniform; random a uniform card; a scripted card)."""
    S, hand, Z = s.S, s.hand, s.Z
    pol = c.bpol[p]
    fs = c.fs
    while S[p, C_HN] > c.ip[P_LIMIT]:
        n = S[p, C_HN]
        i = -1
        if pol == POL_INFORMED:
            for x in range(n):
                fs[x] = -keep_value(hand[p, x], c.pp[p])
            i = argmax_tie(fs, n, s.pst, p)
        elif pol == POL_SCRIPT:
            k = script_next(c.script, Z, p, np.int64(D_DISCARD))
            if k >= 0:
                i = hand_index(S, hand, p, c.script[k, 2])
        if i < 0:
            i = below_at(s.pst, p, n)     # one card at a time: a uniform subset
        x = take(S, hand, p, i)
        to_discard(s.cards, Z, x)
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        if on:
            ev(tr, Z, E_DISCARD, p, x, 0, 0, 0, 0)


jit.kernel_cache_end()
