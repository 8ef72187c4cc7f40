"""Magic School's helpers on the state's arrays: each seat's policy stream
and the seat order; the books' face-up value masks and all their values;
a pile's total; and the zones cards move between (the deck, reshuffled
from the discard pile when a draw finds it empty, the discard pile, the
hands). The rules (``step_moves``, ``step_records``, ``step``), the
policies and the scenario tests share them; the arrays are described in
``state``.
"""
from balance.core.compiled import compiled, internal

from ...core import jit
from ...core.kernel import drawn, ev, refill_deck, remove_at  # before kernel_cache_begin
from .cards import KIND, val, vbit
from .layout import C_HN, E_DRAW, E_RESHUFFLE, Z_BN, Z_DECK, Z_DISC, Z_PN, Z_UP
from .state_slots import ZG_RESH

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- streams, seats, books and piles ---------------------------------------------
@internal
def next_seat(p, P):
    """The seat on p's left (the next in seat order)."""
    q = p + 1
    return 0 if q == P else q


@compiled
def update_up(B, Z, b):
    """Book b's face-up value mask into Z[Z_UP + b] (the values it casts)."""
    m = 0
    for j in range(Z[Z_BN + b]):
        if B[b, 1, j] == 1:
            m |= vbit(B[b, 0, j])
    Z[Z_UP + b] = m


@internal
def book_all_values(B, Z, b):
    """Bitmask of the values of every card of book b (hidden included)."""
    m = 0
    for j in range(Z[Z_BN + b]):
        m |= vbit(B[b, 0, j])
    return m


@internal
def pile_total(pile, Z, h):
    """The total of house h's score pile, from its cards."""
    t = 0
    for j in range(Z[Z_PN + h]):
        t += val(pile[h, j])
    return t


# --- zones ---------------------------------------------------------------
@compiled
def draw_card(st, cards, Z, tr, on):
    """The top card of the deck (reshuffling the discard pile into it when
    it is empty), or -1 when both are empty."""
    if Z[Z_DECK] == 0:
        if refill_deck(st, cards, Z, Z_DECK, Z_DISC, tr, on, E_RESHUFFLE) == 0:
            return -1
        Z[ZG_RESH] += 1
    Z[Z_DECK] -= 1
    return cards[0, Z[Z_DECK]]


@internal
def to_discard(cards, Z, c):
    cards[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1


@internal
def to_hand(S, hand, p, c, masks, counts):
    hand[p, S[p, C_HN]] = c
    S[p, C_HN] += 1
    k = KIND[c]
    drawn(masks, counts, p, k)


@internal
def take(S, hand, p, i):
    """Remove and return hand[p, i], keeping the order of the others."""
    c = remove_at(hand[p], i, S[p, C_HN])
    S[p, C_HN] -= 1
    return c


@internal
def hand_index(S, hand, p, c):
    for i in range(S[p, C_HN]):
        if hand[p, i] == c:
            return i
    return -1


@compiled
def draw_to_hand(st, S, hand, cards, Z, p, masks, counts, tr, on):
    c = draw_card(st, cards, Z, tr, on)
    if c >= 0:
        to_hand(S, hand, p, c, masks, counts)
        if on:
            ev(tr, Z, E_DRAW, p, c, 0, 0, 0, 0)
    return c


jit.kernel_cache_end()
