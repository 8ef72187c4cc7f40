"""Magic Resonance's single actions, as the turn (``step_turn``) plays them:
place a rune, peek at one, dissolve one (from the field, or a dissolve card
discarded to draw), find an unspent magic-card use; the end check that
follows every action, the next seat still in, and the trace rows of every
seat's hand.

Each action does its counting and its trace row; who chooses it (a
policy, a script, the search) is the caller's business.
"""
import numpy as np
from balance.core.compiled import compiled

from ...core import jit
from ...core.kernel import ev, setbit  # before kernel_cache_begin
from .layout import (C_DISS, C_H, C_HN, C_IN, C_MARK, C_MN, C_MPTS, C_OUT, C_OWN, C_PEEKS,
                     C_PLACED, C_USED, DISSOLVE, E_DISSOLVE, E_HAND, E_OUT, E_PEEK, E_PLACE,
                     E_REDRAW, E_STATE, END_MAGIC, END_PLAYER, END_PLAYERS, END_RUNES, END_TOTAL,
                     F_KIND, F_KNOW, F_OWNER, M_UEFF, N_MAGIC, NK, Z_ACQ, Z_DISC, Z_DRY, Z_DRYM,
                     Z_FN, Z_SUPPLY, Z_TURN)
from .state import P_ENDPL, P_ENDTOT, P_LEFT
from .state_zones import draw1, hand_to_discard

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def place(S, F, Z, p, k, masks, counts, tr, on):
    """Seat p places a rune of kind k face down in its column (known to it only)."""
    S[p, C_H + k] -= 1
    S[p, C_HN] -= 1
    i = Z[Z_FN]
    F[F_KIND, i] = k
    F[F_OWNER, i] = p
    F[F_KNOW, i] = np.int64(1) << p
    Z[Z_FN] = i + 1
    S[p, C_PLACED] += 1
    setbit(masks, p, 1, k)
    counts[1, k] += 1
    if on:
        col = 0
        for j in range(i + 1):
            if F[F_KIND, j] >= 0 and F[F_OWNER, j] == p:
                col += 1
        ev(tr, Z, E_PLACE, p, k, i, col, 0, 0)


@compiled
def peek(S, F, Z, p, i, by_magic, tr, on):
    """Seat p looks at field slot i (by_magic 1: with a PEEK magic card)."""
    F[F_KNOW, i] |= np.int64(1) << p
    S[p, C_PEEKS] += 1
    if on:
        ev(tr, Z, E_PEEK, p, i, F[F_KIND, i], F[F_OWNER, i], by_magic, 0)


@compiled
def dissolve_remove(S, F, Z, p, i, by_magic, masks, counts, tr, on):
    """A face-down field rune (slot i) goes to the discard pile; by a hand
    dissolve card (by_magic 0) the card is discarded too."""
    k = F[F_KIND, i]
    if on:
        ev(tr, Z, E_DISSOLVE, p, i, k, F[F_OWNER, i], by_magic, 0)
    F[F_KIND, i] = -1
    Z[Z_DISC + k] += 1
    if by_magic == 0:
        hand_to_discard(S, Z, p, np.int64(DISSOLVE))
        S[p, C_DISS] += 1
        setbit(masks, p, 1, DISSOLVE)
        counts[1, DISSOLVE] += 1


@compiled
def dissolve_redraw(S, pile, Z, p, masks, counts, tr, on):
    """A dissolve card is discarded to draw 1 card."""
    hand_to_discard(S, Z, p, np.int64(DISSOLVE))
    S[p, C_DISS] += 1
    setbit(masks, p, 1, DISSOLVE)
    counts[1, DISSOLVE] += 1
    if on:
        ev(tr, Z, E_REDRAW, p, 0, 0, 0, 0, 0)
    draw1(S, pile, Z, p, masks, counts, tr, on, np.int64(1))


@compiled
def usable(S, M, p, u):
    """The lowest magic card of p with use effect u not yet spent, or -1."""
    free = S[p, C_OWN] & ~S[p, C_USED]
    if free == 0:
        return -1
    for c in range(N_MAGIC):
        if (free >> c) & 1 and M[c, M_UEFF] == u:
            return c
    return -1


@compiled
def check_end(S, Z, ip, P, tr, on):
    """Put out every seat left without cards, then the end reason (the
    contract's order when several hold) or -1."""
    nin = 0
    most = 0
    for q in range(P):
        if S[q, C_IN] == 1 and S[q, C_HN] == 0:
            S[q, C_IN] = 0
            S[q, C_OUT] = Z[Z_TURN]
            if on:
                ev(tr, Z, E_OUT, q, 0, 0, 0, 0, 0)
        nin += S[q, C_IN]
        most = max(most, S[q, C_MN])
    if nin <= ip[P_LEFT]:
        return END_PLAYERS
    if Z[Z_ACQ] >= ip[P_ENDTOT]:
        return END_TOTAL
    if Z[Z_DRY]:
        return END_RUNES
    if Z[Z_DRYM]:
        return END_MAGIC
    if most >= ip[P_ENDPL]:
        return END_PLAYER
    return -1


@compiled
def hand_state(S, Z, P, tr):
    """Trace rows: every seat's markers, hand size, magic points, then its hand."""
    for q in range(P):
        ev(tr, Z, E_STATE, q, S[q, C_MARK], S[q, C_HN], S[q, C_MPTS], S[q, C_IN], Z[Z_SUPPLY])
        a = np.int64(0)
        b = np.int64(0)
        for k in range(7):
            a |= S[q, C_H + k] << (8 * k)
        for k in range(7, NK):
            b |= S[q, C_H + k] << (8 * (k - 7))
        ev(tr, Z, E_HAND, q, a, b, 0, 0, 0)


@compiled
def next_in(S, p, P):
    """The next seat after p still in (p itself when none is)."""
    q = p
    for _ in range(P):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 1:
            return q
    return p


jit.kernel_cache_end()
