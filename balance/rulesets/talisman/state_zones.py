"""Talisman Poker's zones on the state's arrays: the deck and the
discard pile (``State.pile``), the hands (``State.hand``, with each seat's
count and special counts in ``S``), the arrays (one value mask per element
in ``S``) and the turn order over the seats still in.

These move cards and find seats; they decide nothing (the rules that do,
``step_play``, and the heuristics, ``policies``, call them). ``state``
uses them to deal hidden cards again.
"""
from balance.core.compiled import inlined, inlined_callable

from ...core import jit
from ...core.kernel import drawn, ev, refill_deck, remove_at  # before kernel_cache_begin
from .layout import (C_ALIVE, C_ARRN, C_BITS, C_HN, C_JUNK, C_NB, C_SPEC, E_DEAL, E_DRAW,
                     E_RESHUFFLE, Z_DECK, Z_DISC)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@inlined_callable
def draw(st, S, hand, pile, Z, p, masks, counts, tr, on, deal):
    """Seat p draws the deck's top card into its hand (``deal``: logged as
    the setup deal); an empty deck first takes the discard pile, shuffled
    from the game's stream. Returns the card, or -1 when both are empty."""
    if refill_deck(st, pile, Z, Z_DECK, Z_DISC, tr, on, E_RESHUFFLE) == 0:
        return -1
    Z[Z_DECK] -= 1
    c = pile[0, Z[Z_DECK]]
    to_hand(S, hand, p, c)
    drawn(masks, counts, p, c)
    if on:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, c, 0, 0, 0, 0)
    return c


@inlined
def to_discard(pile, Z, c):
    """Card c onto the discard pile."""
    pile[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1


@inlined
def to_hand(S, hand, p, c):
    """Card c at the end of p's hand (its special count kept)."""
    hand[p, S[p, C_HN]] = c
    S[p, C_HN] += 1
    k = c - S[p, C_NB]
    S[p, C_SPEC + k if k >= 0 else C_JUNK] += 1


@inlined
def empty_hand(S, p):
    """p's hand emptied (the cards themselves are the caller's)."""
    S[p, C_HN] = 0
    for k in range(5):
        S[p, C_SPEC + k] = 0


@inlined
def take_from_hand(S, hand, p, i):
    """Remove and return hand[p, i], keeping the order of the others."""
    c = remove_at(hand[p], i, S[p, C_HN])
    k = c - S[p, C_NB]
    S[p, C_SPEC + k if k >= 0 else C_JUNK] -= 1
    S[p, C_HN] -= 1
    return c


@inlined_callable
def array_to_discard(S, pile, Z, p, V):
    """p's array onto the discard pile in card-id order; returns its size."""
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


@inlined
def has_special(S, hand, p, s, NB):
    """The hand index of p's first copy of special s, or -1."""
    for i in range(S[p, C_HN]):
        if hand[p, i] == NB + s:
            return i
    return -1


@inlined_callable
def next_alive(S, p, P):
    """The next seat after p in turn order that is still in."""
    q = p + 1
    if q == P:
        q = 0
    while S[q, C_ALIVE] == 0:
        q += 1
        if q == P:
            q = 0
    return q


jit.kernel_cache_end()
