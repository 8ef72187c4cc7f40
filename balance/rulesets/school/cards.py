"""Magic School's cards: the tables by card id and by kind (value, suit, the
value's bit in a book's mask), the house a (white, black) pair of fate
colours gives, and the small per-card functions the rules and the policies
read them through.

Card ids 0..53 (0..107 with two decks), kind = id % 54 (``KIND``): suits
♠ ♥ ♦ ♣ in that order (``layout.NK`` kinds), A..K, then the small and the
big joker. The tables by physical card id (``CVAL``, ``CSUIT``, ``CBIT``)
save the hot loops a second load.
"""
import numpy as np
from balance.core.compiled import internal

from ...core import jit
from .layout import KN_FATE, MAG, MUGGLE, NCMAX, NK, PRIEST, WIZ
from .state_slots import P_HOS

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# kind -> value (joker 0), suit (joker 4)
KVAL = np.array([k % 13 + 1 if k < 52 else 0 for k in range(NK)], np.int64)
KSUIT = np.array([k // 13 if k < 52 else 4 for k in range(NK)], np.int64)
KIND = np.array([c % NK for c in range(NCMAX)], np.int64)
# the same by physical card id (one load instead of two in the hot loops)
CVAL = KVAL[KIND].copy()
CSUIT = KSUIT[KIND].copy()
CBIT = np.array([0 if k >= 52 else 1 << int(KVAL[k]) for k in KIND], np.int64)
# house from (white, black): neither -> muggle, white only -> priest, black only -> wizard, both -> magister
HOUSE_WB = np.array([MUGGLE, PRIEST, WIZ, MAG], np.int64)         # index white + 2 * black


@internal
def val(c):
    return CVAL[c]


@internal
def is_joker(c):
    return CSUIT[c] == 4


@internal
def house_of_card(c, ip):
    """The pile a (non-joker) card enters by its suit."""
    return ip[P_HOS + CSUIT[c]]


@internal
def vbit(c):
    """Bit of card c's value (jokers match nothing: 0)."""
    return CBIT[c]


@internal
def fate_house(KN, p, wm, bm):
    """Seat p's house if the books' values were wm (white) and bm (black):
    a fate card is white when its value bit is in wm (KN[p, KN_FATE] holds
    the bits of its fate cards; a joker's is 0)."""
    m = KN[p, KN_FATE]
    return HOUSE_WB[np.int64((m & wm) != 0) + 2 * np.int64((m & bm) != 0)]


jit.kernel_cache_end()
