"""Magic School kernel, part 3: the rules' moves that every round and every
search rollout plays: a spell's effect (``cast``), the score area, the
meeting (in pieces, so that a search can decide a seat's vote or the tie
between them), the discard and the spells of a turn. Each is one copy of
the rule, called by ``kernel.play_round`` (the game) and by
``search.rollout`` (rollouts, with the rollout policy at every seat)."""
import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import BAN_FORBID, ev, setbit  # before kernel_cache_begin
from ...core.rng import below
from .base import (draw_card, draw_to_hand, hand_index, house_of_card, is_joker, KIND, KVAL,
                   next_seat, pbelow, P_LIMIT, P_MAXC, P_MEET, P_SDRAW, S_CB, S_CW, S_DEC,
                   S_DRAWS, S_GAIN, S_PEEK, S_STEAL, S_SWAPS, S_VOTES, take, to_discard, to_hand,
                   update_up, val, vbit, ZG_CB, ZG_CLOAKED, ZG_CW, ZG_DRAW, ZG_PEEK, ZG_STEAL,
                   ZG_SWAP)
from .layout import (C_HN, D_DISCARD, D_JOKER, D_TIE, D_VOTE, EF_DRAW, EF_PEEK_BOOK,
                     EF_PEEK_DECK, EF_PEEK_FATE, EF_PEEK_HAND, EF_STEAL, EF_STOP, EF_SWAP,
                     E_DELETE, E_DISCARD, E_MEET, E_OPTION, E_SCORE, E_SPELL, E_STOPPED, E_SWAP,
                     E_TIE, E_TOBOOK, E_TURN, E_VOTE, KN_MASK, PCAP, POL_INFORMED, POL_SCRIPT,
                     Z_BN, Z_CLOAK, Z_DEC, Z_DECK, Z_ERR, Z_INV, Z_PN, Z_PT, Z_UP)
from .policy import (argmax_tie, choose_house, choose_vote, informed_spell, keep_value,
                     script_next, script_spell, spell_list)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# --- spells: the effects -------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def cast(st, p, S, hand, fate, B, Z, pile, cards, KN, KF, ip, out, masks, counts, tr, on):
    """Cast entry out[0:4] of seat p: the spell card goes to the discard
    pile first, then the effect resolves."""
    eff = out[0]
    g_card = hand[p, out[2]] if eff == EF_SWAP else -1
    c = take(S, hand, p, out[1])
    to_discard(cards, Z, c)
    k = KIND[c]
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
        ev(tr, Z, E_SPELL, p, eff, c, out[2], out[3], seen)
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


# --- the score area and the meeting -------------------------------------------
@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def to_score(c, sage, pol, S, Z, pile, cards, KN, ip, pst, script, tr, on, buf):
    """Card c enters the score area: its suit's pile, a joker the pile the
    sage picks; the cloaked pile discards it."""
    if is_joker(c):
        h = choose_house(pol[sage], sage, Z, KN, pst, script, np.int64(D_JOKER), buf)
        S[sage, S_DEC] += 1
        Z[Z_DEC] += 1
    else:
        h = house_of_card(c, ip)
    dropped = h == Z[Z_CLOAK]
    if dropped:
        to_discard(cards, Z, c)
        Z[ZG_CLOAKED] += 1
    else:
        pile[h, Z[Z_PN + h]] = c
        Z[Z_PN + h] += 1
        Z[Z_PT + h] += val(c)
    if on:
        ev(tr, Z, E_SCORE, sage, c, h, np.int64(dropped), 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def meeting_open(st, r, sage, B, Z, cards, ip, tr, on, opts):
    """The sage's meeting begins: rounds 1 and 3 add a white spell, 2 and 4
    a black one (``meeting_cards`` turned from the deck into opts); rounds
    5 and 6 delete a face-up white / black spell (its places into opts).
    Returns (kind, options): kind 0 add white, 1 add black, 2 delete white,
    3 delete black."""
    kind = (r - 1) % 2 if r <= 4 else 2 + (r - 5)
    book = kind & 1
    n = np.int64(0)
    if kind < 2:
        for _ in range(ip[P_MEET]):
            c = draw_card(st, cards, Z, tr, on)
            if c < 0:
                break
            opts[n] = c
            n += 1
    else:
        for j in range(Z[Z_BN + book]):
            if B[book, 1, j] == 1:
                opts[n] = j
                n += 1
    if on:
        ev(tr, Z, E_MEET, sage, kind, n, 0, 0, 0)
        for o in range(n):
            ev(tr, Z, E_OPTION, sage, o, opts[o] if kind < 2 else B[book, 0, opts[o]], 0, 0, 0)
    return kind, n


@njit(cache=True, _nrt=False, inline="always")
def meeting_vote(kind, sage, P, pol, S, B, Z, KN, ip, pst, script, tr, on, opts, n, tally, tied,
                 votes, fs, buf):
    """One sealed vote per non-invisible seat, from the sage's left, the
    sage last: votes[q] >= 0 on entry is seat q's vote decided beforehand
    (a search), -1 its policy's. Leaves tied[o] = 1 for the options with
    the most votes; returns (how many, the last of them)."""
    for o in range(n):
        tally[o] = 0
        tied[o] = 1
    q = next_seat(sage, P)
    for _ in range(P):
        if q != Z[Z_INV]:
            v = votes[q]
            if v < 0:
                v = choose_vote(pol[q], q, kind, opts, n, tied, B, Z, KN, ip,
                                pst, script, np.int64(D_VOTE), fs, buf)
            votes[q] = v
            tally[v] += 1
            S[q, S_DEC] += 1
            Z[Z_DEC] += 1
            if on:
                ev(tr, Z, E_VOTE, q, v, 0, 0, 0, 0)
        else:
            votes[q] = -1
        q = next_seat(q, P)
    best = 0
    for o in range(n):
        if tally[o] > best:
            best = tally[o]
    k = 0
    win = 0
    for o in range(n):
        tied[o] = np.int64(tally[o] == best)
        k += tied[o]
        if tied[o] == 1:
            win = o
    return k, win


@njit(cache=True, _nrt=False, inline="always")
def meeting_tie(kind, sage, pol, S, B, Z, KN, ip, pst, script, tr, on, opts, n, tied, fs, buf,
                win):
    """The sage breaks a tie among tied[o] == 1: ``win`` if >= 0 (decided
    beforehand by a search), else its policy's choice."""
    if win < 0:
        win = choose_vote(pol[sage], sage, kind, opts, n, tied, B, Z, KN,
                          ip, pst, script, np.int64(D_TIE), fs, buf)
    S[sage, S_DEC] += 1
    Z[Z_DEC] += 1
    if on:
        ev(tr, Z, E_TIE, sage, win, 0, 0, 0, 0)
    return win


@njit(cache=True, _nrt=False, inline="always")
def meeting_end(kind, sage, P, pol, S, B, Z, pile, cards, KN, ip, pst, script, tr, on, opts, n,
                win, votes, buf):
    """Option ``win`` carries: a card turned enters the book face up (the
    others the score area), or a deleted spell goes to the score area."""
    book = kind & 1
    if n > 1:
        for q in range(P):
            if votes[q] == win:
                S[q, S_VOTES] += 1
    if kind < 2:
        c = opts[win]
        j = Z[Z_BN + book]
        B[book, 0, j] = c
        B[book, 1, j] = 1
        Z[Z_BN + book] = j + 1
        update_up(B, Z, book)
        if on:
            ev(tr, Z, E_TOBOOK, sage, book, c, 0, 0, 0)
        for o in range(n):
            if o != win:
                to_score(opts[o], sage, pol, S, Z, pile, cards, KN, ip, pst, script,
                         tr, on, buf)
    else:
        j = opts[win]
        c = B[book, 0, j]
        for x in range(j, Z[Z_BN + book] - 1):
            B[book, 0, x] = B[book, 0, x + 1]
            B[book, 1, x] = B[book, 1, x + 1]
        Z[Z_BN + book] -= 1
        update_up(B, Z, book)
        if on:
            ev(tr, Z, E_DELETE, sage, book, c, 0, 0, 0)
        to_score(c, sage, pol, S, Z, pile, cards, KN, ip, pst, script, tr, on, buf)


@njit(cache=True, _nrt=False, inline="always")
def meeting(st, r, sage, P, pol, S, hand, fate, B, Z, pile, cards, KN, ip, F, pst, script,
            masks, counts, tr, on, opts, tally, tied, votes, fs, buf):
    """The sage's meeting, every choice by the seats' policies: the options
    (``meeting_open``), one sealed vote per non-invisible seat, the sage
    breaking a tie, the result (``meeting_end``). ``kernel.play_round``
    composes the same pieces with the search's choices."""
    kind, n = meeting_open(st, r, sage, B, Z, cards, ip, tr, on, opts)
    if n == 0:
        return
    win = 0
    if n > 1:
        for q in range(P):
            votes[q] = -1
        k, win = meeting_vote(kind, sage, P, pol, S, B, Z, KN, ip, pst, script, tr, on, opts, n,
                              tally, tied, votes, fs, buf)
        if k > 1:
            win = meeting_tie(kind, sage, pol, S, B, Z, KN, ip, pst, script, tr, on, opts, n,
                              tied, fs, buf, np.int64(-1))
    meeting_end(kind, sage, P, pol, S, B, Z, pile, cards, KN, ip, pst, script, tr, on, opts, n,
                win, votes, buf)


# --- a turn -------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def discard_down(p, pol, S, hand, cards, Z, ip, pp, pst, script, tr, on, fs, ix):
    while S[p, C_HN] > ip[P_LIMIT]:
        n = S[p, C_HN]
        i = -1
        if pol == POL_INFORMED:
            for x in range(n):
                fs[x] = -keep_value(hand[p, x], pp)
            i = argmax_tie(fs, n, pst, p)
        elif pol == POL_SCRIPT:
            k = script_next(script, Z, p, np.int64(D_DISCARD))
            if k >= 0:
                i = hand_index(S, hand, p, script[k, 2])
        if i < 0:
            i = pbelow(pst, p, n)     # one card at a time: a uniform subset
        c = take(S, hand, p, i)
        to_discard(cards, Z, c)
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        if on:
            ev(tr, Z, E_DISCARD, p, c, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(cache=True, _nrt=False, inline="always")
def spells(st, p, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst, script,
           masks, counts, tr, on, out, fs, ix, buf, casts):
    """Seat p casts spells by its policy until it stops, holds nothing
    castable or has cast ``casts`` (the turn's max_casts, or what a rollout
    leaves of them)."""
    for _ in range(casts):
        if not can_cast(p, S, hand, Z, ban):
            break
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        if pol[p] == POL_INFORMED:
            informed_spell(p, P, S, hand, fate, B, Z, pile, KN, KF, ip, pp, ban, F, pst, out,
                           fs, ix, buf)
        else:
            r = 1
            if pol[p] == POL_SCRIPT:
                r = script_spell(p, P, S, hand, B, Z, pile, ip, ban, F, script, out)
                if r == 2:
                    Z[Z_ERR] += 1
            if r == 1:
                n = spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, np.int64(-1), out)
                pick = pbelow(pst, p, n + 1)
                if pick == n:
                    out[0] = EF_STOP
                else:
                    spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, pick, out)
                    if out[0] == EF_PEEK_FATE:
                        out[3] = pbelow(pst, p, F)
        if out[0] == EF_STOP:
            break
        if out[0] == EF_PEEK_FATE and F > 1:
            S[p, S_DEC] += 1        # which of the seat's fate cards: a second choice (a target)
            Z[Z_DEC] += 1
        cast(st, p, S, hand, fate, B, Z, pile, cards, KN, KF, ip, out, masks, counts, tr, on)


@njit(cache=True, _nrt=False, inline="always")
def turn(st, p, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst, script,
         masks, counts, tr, on, out, fs, ix, buf):
    """Seat p casts spells until it stops (or reaches max_casts)."""
    if on:
        ev(tr, Z, E_TURN, p, S[p, C_HN], 0, 0, 0, 0)
    spells(st, p, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst, script,
           masks, counts, tr, on, out, fs, ix, buf, ip[P_MAXC])
    if on:
        ev(tr, Z, E_STOPPED, p, S[p, C_HN], 0, 0, 0, 0)


jit.kernel_cache_end()
