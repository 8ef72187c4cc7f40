"""Magic School's round checks and the game's end: the trace's state rows
(``show_state``: both books and the score piles, after each round), the
check mode's invariants (``broken_invariants``: every card in exactly one
zone, the books' masks and the piles' totals as their cards say), and the
records (``records``: the winning houses, each seat's house from its fate
cards and the final books, the game and seat records and the end's trace
rows).
"""
import numpy as np
from balance.core.compiled import compiled

from ...core import jit
from ...core.kernel import ev  # before kernel_cache_begin
from .cards import HOUSE_WB, is_joker, vbit
from .layout import (C_HN, E_BOOKS, E_BOOKSET, E_END, E_FATEREVEAL, E_HOUSE, E_PILE, E_PILES,
                     END_NOBODY, END_WON, NCMAX, NSEAT, Z_BN, Z_CLOAK, Z_CLOAK6, Z_DEC, Z_DECK,
                     Z_DISC, Z_FIRST, Z_GSTAT, Z_NC, Z_PN, Z_PT, Z_ROUND, Z_TURN, Z_UP, ZG_NAMES)
from .state_slots import (G_BVALS, G_CLOAK6, G_DEC, G_END, G_FIRST, G_INV6, G_MEMBERS, G_NWIN,
                          G_PVALS, G_ROUNDS, G_STAT, G_TOP, G_TOTAL, G_TURNS, G_WINNER, G_WMASK,
                          G_WVALS, P_FATE, S_FB, S_FW, S_INV6, S_ROLE, S_SCORE, S_WON)
from .state_zones import book_all_values, pile_total

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- the trace's state rows and the invariants -------------------------------------------
@compiled
def show_state(B, Z, pile, tr, x):
    """Trace rows: both books and the score piles (x: 4 ints of scratch)."""
    for b in range(2):
        for j in range(4):
            x[j] = 0
            if j < Z[Z_BN + b]:
                x[j] = (B[b, 0, j] + 1) if B[b, 1, j] == 1 else -(B[b, 0, j] + 1)
        ev(tr, Z, E_BOOKS, -1, b, x[0], x[1], x[2], x[3])
    for h in range(4):
        n = Z[Z_PN + h]
        j = 0
        while True:
            for i in range(4):
                x[i] = pile[h, j + i] + 1 if j + i < n else 0
            ev(tr, Z, E_PILE, -1, h, x[0], x[1], x[2], x[3])
            j += 4
            if j >= n:
                break
    ev(tr, Z, E_PILES, -1, Z[Z_PT], Z[Z_PT + 1], Z[Z_PT + 2], Z[Z_PT + 3], Z[Z_CLOAK])


@compiled
def broken_invariants(s, c, r):
    """Check mode: every card of the deck is in exactly one zone; each
    book's face-up value mask matches its cards; each pile's running total
    (Z_PT) matches its cards."""
    S, hand, fate, B, Z, pile, cards = s.S, s.hand, s.fate, s.B, s.Z, s.pile, s.cards
    seen = c.ix
    F = c.ip[P_FATE]
    errors = 0
    for x in range(NCMAX):
        seen[x] = 0
    total = 0
    for i in range(Z[Z_DECK]):
        seen[cards[0, i]] += 1
    for i in range(Z[Z_DISC]):
        seen[cards[1, i]] += 1
    total += Z[Z_DECK] + Z[Z_DISC]
    for p in range(c.P):
        for i in range(S[p, C_HN]):
            seen[hand[p, i]] += 1
        total += S[p, C_HN]
        for i in range(F):
            if fate[p, i] >= 0:
                seen[fate[p, i]] += 1
                total += 1
    for b in range(2):
        m = 0
        for j in range(Z[Z_BN + b]):
            seen[B[b, 0, j]] += 1
            if B[b, 1, j] == 1:
                m |= vbit(B[b, 0, j])
        total += Z[Z_BN + b]
        if m != Z[Z_UP + b]:
            errors += 1
    for h in range(4):
        for j in range(Z[Z_PN + h]):
            seen[pile[h, j]] += 1
        total += Z[Z_PN + h]
    if total != Z[Z_NC]:
        errors += 1
    for h in range(4):
        if pile_total(pile, Z, h) != Z[Z_PT + h]:
            errors += 1
    for i in range(Z[Z_NC]):
        if seen[cards[2, i]] != 1:
            errors += 1
    return errors


# --- the end: houses, winners, records ---------------------------------------------------
@compiled
def records(s, c, grow, srow, tr, on):
    """After round 6: the highest pile(s) win; houses from the fate cards
    and the final books (face up and hidden); members of a winning house win
    and score its total // members. Returns the winning seats."""
    S, fate, B, Z, pile = s.S, s.fate, s.B, s.Z, s.pile
    P = c.P
    T = c.tally
    members = c.tied
    F = c.ip[P_FATE]
    wm = book_all_values(B, Z, np.int64(0))
    bm = book_all_values(B, Z, np.int64(1))
    top = -1
    for h in range(4):
        T[h] = pile_total(pile, Z, h)
        if T[h] > top:
            top = T[h]
        v = 0
        for j in range(Z[Z_PN + h]):
            v |= vbit(pile[h, j]) if not is_joker(pile[h, j]) else 1
        grow[G_PVALS + h] = v
        grow[G_TOTAL + h] = T[h]
    mask = 0
    for h in range(4):
        if T[h] == top:
            mask |= 1 << h
    for h in range(4):
        members[h] = 0
    for p in range(P):
        w = 0
        b = 0
        for i in range(F):
            m = vbit(fate[p, i])
            w += np.int64((m & wm) != 0)
            b += np.int64((m & bm) != 0)
        hs = HOUSE_WB[np.int64(w > 0) + 2 * np.int64(b > 0)]
        S[p, S_ROLE] = hs
        S[p, S_FW] = w
        S[p, S_FB] = b
        members[hs] += 1
    nwin = 0
    winner = -1
    for p in range(P):
        hs = S[p, S_ROLE]
        if (mask >> hs) & 1:
            S[p, S_WON] = 1
            S[p, S_SCORE] = T[hs] // members[hs]
            nwin += 1
            if winner < 0:
                winner = p
    for p in range(P):
        for j in range(NSEAT):
            srow[p, j] = S[p, j]
    for h in range(4):
        grow[G_MEMBERS + h] = members[h]
    grow[G_WINNER] = winner
    grow[G_TURNS] = Z[Z_TURN]
    grow[G_ROUNDS] = Z[Z_ROUND]
    grow[G_END] = END_WON if nwin > 0 else END_NOBODY
    grow[G_FIRST] = Z[Z_FIRST]
    grow[G_DEC] = Z[Z_DEC]
    grow[G_WMASK] = mask
    grow[G_NWIN] = nwin
    grow[G_TOP] = top
    grow[G_WVALS] = wm
    grow[G_BVALS] = bm
    for i in range(len(ZG_NAMES)):
        grow[G_STAT + i] = Z[Z_GSTAT + i]
    for p in range(P):
        if S[p, S_INV6] == 1:
            grow[G_INV6] = p
    grow[G_CLOAK6] = Z[Z_CLOAK6]
    if on:
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                if B[b, 1, j] == 0:
                    ev(tr, Z, E_BOOKSET, -1, b, B[b, 0, j], 2, 0, 0)
        for p in range(P):
            ev(tr, Z, E_FATEREVEAL, p, fate[p, 0], fate[p, 1] if F > 1 else -1,
               fate[p, 2] if F > 2 else -1, F, 0)
            ev(tr, Z, E_HOUSE, p, S[p, S_ROLE], S[p, S_FW], S[p, S_FB], S[p, S_WON], S[p, S_SCORE])
        ev(tr, Z, E_END, -1, mask, top, nwin, grow[G_END], 0)
    return nwin


jit.kernel_cache_end()
