"""Magic School kernel, part 1: parameter slots, record columns, card
tables, small helpers and the zones (deck, discard pile, hands). The game
state these functions read is described in ``kernel``."""
import numpy as np
from balance.core.compiled import compiled, internal

from ...core import jit
from ...core.kernel import ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from ...core.rng import game_state, mix64, shuffle
from .layout import (C_HN, E_DRAW, E_RESHUFFLE, GAME_COLUMNS, KN_FATE, MAG, MUGGLE, NCMAX, NK,
                     PRIEST, SEAT_COLUMNS, WIZ, ZG_NAMES, Z_BN, Z_DECK, Z_DISC, Z_GSTAT, Z_PN,
                     Z_UP)
from .rules import IDX, PIDX

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# --- parameter slots -----------------------------------------------------
P_DECKS = IDX["n_decks"]
P_START = IDX["start_hand"]
P_FATE = IDX["fate_cards"]
P_LIMIT = IDX["hand_limit"]
P_SETUP = IDX["setup_score"]
P_HIDDEN = IDX["hidden_per_book"]
P_RDRAW = IDX["round_draw"]
P_SDRAW = IDX["steal_draw"]
P_MEET = IDX["meeting_cards"]
P_MAXC = IDX["max_casts"]
P_HOS = IDX["house_of_spade"]          # four consecutive slots
Q_SWAP = PIDX["swap_min_gain"]
Q_STEAL = PIDX["steal_min_hand"]
Q_DRAW = PIDX["draw_max_hand"]
Q_FATES = PIDX["peek_fates"]
Q_JOKER = PIDX["joker_keep"]
assert [IDX[f"house_of_{s}"] for s in ("spade", "heart", "diamond", "club")] == list(range(P_HOS, P_HOS + 4))

# --- record columns, by name (layout) -----------------------------------------
GI = index(GAME_COLUMNS)
NG = len(GAME_COLUMNS)
G_WINNER = GI["winner"]
G_TURNS = GI["turns"]
G_ROUNDS = GI["rounds"]
G_END = GI["end_reason"]
G_FIRST = GI["first_seat"]
G_DEC = GI["decisions"]
G_WMASK = GI["win_houses"]
G_NWIN = GI["n_winners"]
G_TOP = GI["top_total"]
G_TOTAL = GI["total_wizard"]           # four consecutive columns (house order)
G_MEMBERS = GI["members_wizard"]
G_PVALS = GI["pile_values_wizard"]
G_WVALS = GI["white_values"]
G_BVALS = GI["black_values"]
G_STAT = GI["casts_white"]             # ZG_NAMES, consecutive
G_INV6 = GI["invisible6"]
G_CLOAK6 = GI["cloak6"]
assert [GI[n] for n in ZG_NAMES] == list(range(G_STAT, G_STAT + len(ZG_NAMES)))
for _i, _n in enumerate(("total", "members", "pile_values")):
    assert [GI[f"{_n}_{h}"] for h in ("wizard", "priest", "magister", "muggle")] == \
        list(range(GI[f"{_n}_wizard"], GI[f"{_n}_wizard"] + 4))
SI = index(SEAT_COLUMNS)
S_ROLE = SI["role"]
S_WON = SI["won"]
S_SCORE = SI["score"]
S_FW = SI["fate_white"]
S_FB = SI["fate_black"]
S_FVALS = SI["fate_values"]
S_FIRST = SI["first_sage"]
S_SAGE = SI["sage_rounds"]
S_INVR = SI["invisible_rounds"]
S_INV6 = SI["invisible6"]
S_CW = SI["casts_white"]
S_CB = SI["casts_black"]
S_PEEK = SI["peeks_hidden"]            # four consecutive: hidden, fate, hand, deck
S_STEAL = SI["steals"]
S_DRAWS = SI["draws"]
S_SWAPS = SI["swaps"]
S_GAIN = SI["swap_gain"]
S_VOTES = SI["votes_carried"]
S_DEC = SI["decisions"]
assert [SI[n] for n in ("peeks_hidden", "peeks_fate", "peeks_hand", "peeks_deck")] == \
    list(range(S_PEEK, S_PEEK + 4))
ZG_CW, ZG_CB, ZG_PEEK, ZG_STEAL, ZG_DRAW, ZG_SWAP, ZG_CLOAKED, ZG_RESH = (
    Z_GSTAT + 0, Z_GSTAT + 1, Z_GSTAT + 2, Z_GSTAT + 6, Z_GSTAT + 7, Z_GSTAT + 8, Z_GSTAT + 9,
    Z_GSTAT + 10)

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


# --- small helpers --------------------------------------------------------
@internal
def seat_stream(seed, game, p):
    """Seed of seat p's policy stream in game ``game`` of ``seed``."""
    return mix64(game_state(seed, game) ^ (np.uint64(p + 1) * np.uint64(0xD1B54A32D192ED03)))


_S32 = np.uint64(32)




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
def next_seat(p, P):
    q = p + 1
    return 0 if q == P else q


@compiled
def update_up(B, Z, b):
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
    t = 0
    for j in range(Z[Z_PN + h]):
        t += val(pile[h, j])
    return t




@internal
def margin(T0, T1, T2, T3, hm):
    """Total of house hm minus the best other house's."""
    t = T0 if hm == 0 else (T1 if hm == 1 else (T2 if hm == 2 else T3))
    best = -(1 << 40)
    if hm != 0 and T0 > best:
        best = T0
    if hm != 1 and T1 > best:
        best = T1
    if hm != 2 and T2 > best:
        best = T2
    if hm != 3 and T3 > best:
        best = T3
    return t - best


@internal
def fate_house(KN, p, wm, bm):
    """Seat p's house if the books' values were wm (white) and bm (black):
    a fate card is white when its value bit is in wm (KN[p, KN_FATE] holds
    the bits of its fate cards; a joker's is 0)."""
    m = KN[p, KN_FATE]
    return HOUSE_WB[np.int64((m & wm) != 0) + 2 * np.int64((m & bm) != 0)]


# --- zones ---------------------------------------------------------------
@compiled
def draw_card(st, cards, Z, tr, on):
    """The top card of the deck (reshuffling the discard pile into it when
    it is empty), or -1 when both are empty."""
    if Z[Z_DECK] == 0:
        n = Z[Z_DISC]
        if n == 0:
            return -1
        for i in range(n):
            cards[0, i] = cards[1, i]
        Z[Z_DECK] = n
        Z[Z_DISC] = 0
        shuffle(st, cards[0], n)
        Z[ZG_RESH] += 1
        if on:
            ev(tr, Z, E_RESHUFFLE, -1, n, 0, 0, 0, 0)
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
    setbit(masks, p, 0, k)
    counts[0, k] += 1


@internal
def take(S, hand, p, i):
    """Remove and return hand[p, i], keeping the order of the others."""
    c = hand[p, i]
    n = S[p, C_HN]
    for j in range(i, n - 1):
        hand[p, j] = hand[p, j + 1]
    S[p, C_HN] = n - 1
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
