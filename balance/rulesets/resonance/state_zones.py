"""Magic Resonance's helpers on the state's arrays that the rules and the
policies both play: a uniform number from a seat's own stream, a draw from
the rune deck, a card from hand to the discard pile, a magic-card reveal,
and the count of the cards a seat may place.

They sit below the policies (``policies`` draws from the seat's stream and
discards through them) and the rule parts (``step_*``), so both import
them without importing each other.
"""
import numpy as np
from balance.core.compiled import compiled

from ...core import jit
from ...core.kernel import BAN_FORBID, drawn, ev  # before kernel_cache_begin
from ...core.rng import GAMMA, mix64
from .layout import (C_H, C_HN, E_DEAL, E_DRAW, E_DRY, E_REVEAL, Z_DECK, Z_DISC, Z_DRY,
                     Z_DRYM, Z_MD, Z_MREV, Z_REV)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

_S11 = np.uint64(11)
INV53 = 1.0 / 9007199254740992.0


# --- per-seat random streams ------------------------------------------------
@compiled
def uniform_at(ST, p):
    """Uniform float in [0, 1) from seat p's stream."""
    s = ST[p] + GAMMA
    ST[p] = s
    return np.float64(mix64(s) >> _S11) * INV53


# --- zones ---------------------------------------------------------------
@compiled
def draw1(S, pile, Z, p, masks, counts, tr, on, why):
    """Seat p draws the top rune-deck card; an empty deck sets Z_DRY (the
    game ends once the action resolves) and returns -1."""
    if Z[Z_DECK] == 0:
        if Z[Z_DRY] == 0 and on:
            ev(tr, Z, E_DRY, p, 0, 0, 0, 0, 0)
        Z[Z_DRY] = 1
        return -1
    Z[Z_DECK] -= 1
    k = pile[0, Z[Z_DECK]]
    S[p, C_H + k] += 1
    S[p, C_HN] += 1
    drawn(masks, counts, p, k)
    if on:
        ev(tr, Z, E_DEAL if why < 0 else E_DRAW, p, k, why, 0, 0, 0)
    return k


@compiled
def hand_to_discard(S, Z, p, k):
    """A card of kind k from seat p's hand to the (public) discard pile."""
    S[p, C_H + k] -= 1
    S[p, C_HN] -= 1
    Z[Z_DISC + k] += 1


@compiled
def reveal(Z, MD, slot, tr, on):
    """The magic deck's top card into revealed slot ``slot``; an empty deck
    sets Z_DRYM (the game ends once the action resolves) and leaves it empty."""
    if Z[Z_MD] == 0:
        if Z[Z_DRYM] == 0 and on:
            ev(tr, Z, E_DRY, -1, 1, 0, 0, 0, 0)
        Z[Z_DRYM] = 1
        Z[Z_REV + slot] = -1
        return
    Z[Z_MD] -= 1
    c = MD[Z[Z_MD]]
    Z[Z_REV + slot] = c
    Z[Z_MREV] |= np.int64(1) << c
    if on:
        ev(tr, Z, E_REVEAL, -1, c, slot, 0, 0, 0)


@compiled
def placeable(S, p, ban):
    """How many cards of seat p's hand it may place (not a forbidden kind)."""
    n = 0
    for k in range(12):
        if ban[k] != BAN_FORBID:
            n += S[p, C_H + k]
    return n


jit.kernel_cache_end()
