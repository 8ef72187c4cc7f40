"""Magic School kernel: njit functions over small int64 arrays.

One game's state (allocated once per thread by ``work``):
- ``S``     int64[P, NS]: per-seat statistics (the seat record's columns,
  in order) and working slots (hand size);
- ``hand``  int64[P, HCAP]: card ids, in the order they entered the hand;
- ``fate``  int64[P, FCAP]: the fate cards;
- ``B``     int64[2, 2, BCAP]: B[book, 0, j] the card in place j, B[book, 1, j]
  1 when face up (book 0 white, 1 black);
- ``pile``  int64[4, PCAP]: the score area, one pile per house;
- ``cards`` int64[3, NCMAX]: row 0 the deck (top = last), row 1 the
  discard pile, row 2 the unshuffled deck (per batch);
- ``KN``    int64[P, KNW]: KN[p, c] = 1 when seat p has seen card c in a
  hidden book place (hidden cards never move); KN[p, KN_MASK + b] the
  value mask (``vbit``) of the hidden cards of book b it has seen;
  KN[p, KN_FATE] the value mask of its own fate cards;
- ``KF``    int64[P, P, FCAP]: KF[p, q, i] = 1 when p has seen q's i-th fate card;
- ``Z``     int64[NZ]: game globals (``layout.Z_*``).

Random numbers. The game's own stream ``st`` (``core.rng.game_state(seed,
game)``) deals, picks the first sage, reshuffles, and picks the card a peek
at a hand or a steal finds. Every policy choice (random choices and
heuristic tie-breaks) comes from the choosing seat's own stream ``pst[p]``,
seeded by (seed, game, seat) (``seat_stream``): a seat's stream advances
only when it decides, so two deals that agree on everything a seat sees
give it the same choices (tests/test_school_invariants.py proves it).

Hidden information. The informed policy reads only: its hand and fate
cards, face-up book cards, hidden book cards it peeked (``KN``), fate
cards it peeked (``KF``), the score area, hand sizes, the round, the
sage, the invisible seat and the cloak.
"""
import numpy as np
from numba import njit
from numba import types as nt

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from ...core.records import BLOCK
from ...core.rng import GAMMA, below, game_state, mix64, shuffle
from .layout import (BCAP, C_HN, D_CLOAK, D_DISCARD, D_JOKER, D_NAME, D_SPELL, D_TIE, D_VOTE,
                     E_BOOKS, E_BOOKSET, E_CLOAK, E_DEAL, E_DELETE, E_DISCARD, E_DRAW, E_END,
                     E_FATE, E_FATEREVEAL, E_FIRST, E_HOUSE, E_INVISIBLE, E_MEET, E_OPTION,
                     E_PILE, E_PILES, E_RESHUFFLE, E_ROUND, E_SCORE, E_SPELL, E_STOPPED, E_SWAP,
                     E_TIE, E_TOBOOK, E_TURN, E_VOTE, EF_DRAW, EF_PEEK_BOOK, EF_PEEK_DECK,
                     EF_PEEK_FATE, EF_PEEK_HAND, EF_STEAL, EF_STOP, EF_SWAP, END_NOBODY, END_WON,
                     FCAP, GAME_COLUMNS, HCAP, KN_FATE, KN_MASK, KNW, MAG, MUGGLE, NCMAX, NK, NS,
                     NSEAT, NZ, PCAP, POL_INFORMED, POL_RANDOM, POL_SCRIPT, PRIEST, SEAT_COLUMNS,
                     WIZ, Z_BN,
                     Z_CLOAK, Z_DEC, Z_DECK, Z_DISC, Z_ERR, Z_FIRST, Z_GSTAT, Z_INV, Z_NC,
                     Z_CLOAK6, Z_PN, Z_PT, Z_ROUND, Z_SAGE, Z_SCR, Z_TR, Z_TURN, Z_UP, ZG_NAMES)
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

I64 = nt.int64
A1, A2, A3 = nt.int64[::1], nt.int64[:, ::1], nt.int64[:, :, ::1]


# --- small helpers --------------------------------------------------------
@njit(cache=True, _nrt=False)
def seat_stream(seed, game, p):
    """Seed of seat p's policy stream in game ``game`` of ``seed``."""
    return mix64(game_state(seed, game) ^ (np.uint64(p + 1) * np.uint64(0xD1B54A32D192ED03)))


_S32 = np.uint64(32)


@njit(cache=True, _nrt=False)
def pbelow(pst, p, n):
    """Uniform integer in [0, n) from seat p's policy stream (``core.rng.below``
    on pst[p])."""
    s = pst[p] + GAMMA
    pst[p] = s
    r = mix64(s) >> _S32
    return np.int64((r * np.uint64(n)) >> _S32)


@njit(cache=True, _nrt=False)
def val(c):
    return CVAL[c]


@njit(cache=True, _nrt=False)
def is_joker(c):
    return CSUIT[c] == 4


@njit(cache=True, _nrt=False)
def house_of_card(c, ip):
    """The pile a (non-joker) card enters by its suit."""
    return ip[P_HOS + CSUIT[c]]


@njit(cache=True, _nrt=False)
def vbit(c):
    """Bit of card c's value (jokers match nothing: 0)."""
    return CBIT[c]


@njit(cache=True, _nrt=False)
def next_seat(p, P):
    q = p + 1
    return 0 if q == P else q


@njit(cache=True, _nrt=False)
def update_up(B, Z, b):
    m = 0
    for j in range(Z[Z_BN + b]):
        if B[b, 1, j] == 1:
            m |= vbit(B[b, 0, j])
    Z[Z_UP + b] = m


@njit(cache=True, _nrt=False)
def book_all_values(B, Z, b):
    """Bitmask of the values of every card of book b (hidden included)."""
    m = 0
    for j in range(Z[Z_BN + b]):
        m |= vbit(B[b, 0, j])
    return m


@njit(cache=True, _nrt=False)
def pile_total(pile, Z, h):
    t = 0
    for j in range(Z[Z_PN + h]):
        t += val(pile[h, j])
    return t


@njit(cache=True, _nrt=False)
def totals(pile, Z, T):
    for h in range(4):
        T[h] = pile_total(pile, Z, h)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def fate_house(KN, p, wm, bm):
    """Seat p's house if the books' values were wm (white) and bm (black):
    a fate card is white when its value bit is in wm (KN[p, KN_FATE] holds
    the bits of its fate cards; a joker's is 0)."""
    m = KN[p, KN_FATE]
    return HOUSE_WB[np.int64((m & wm) != 0) + 2 * np.int64((m & bm) != 0)]


# --- zones ---------------------------------------------------------------
@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def to_discard(cards, Z, c):
    cards[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1


@njit(cache=True, _nrt=False)
def to_hand(S, hand, p, c, masks, counts):
    hand[p, S[p, C_HN]] = c
    S[p, C_HN] += 1
    k = KIND[c]
    setbit(masks, p, 0, k)
    counts[0, k] += 1


@njit(cache=True, _nrt=False)
def take(S, hand, p, i):
    """Remove and return hand[p, i], keeping the order of the others."""
    c = hand[p, i]
    n = S[p, C_HN]
    for j in range(i, n - 1):
        hand[p, j] = hand[p, j + 1]
    S[p, C_HN] = n - 1
    return c


@njit(cache=True, _nrt=False)
def hand_index(S, hand, p, c):
    for i in range(S[p, C_HN]):
        if hand[p, i] == c:
            return i
    return -1


@njit(cache=True, _nrt=False)
def draw_to_hand(st, S, hand, cards, Z, p, masks, counts, tr, on):
    c = draw_card(st, cards, Z, tr, on)
    if c >= 0:
        to_hand(S, hand, p, c, masks, counts)
        if on:
            ev(tr, Z, E_DRAW, p, c, 0, 0, 0, 0)
    return c


# --- policies: the script queue (scenario tests) --------------------------------
@njit(cache=True, _nrt=False)
def script_next(script, Z, p, dtype):
    """The next script row if it is for seat p and decision ``dtype`` (it is
    consumed), else -1 (the scripted seat then decides at random)."""
    k = Z[Z_SCR]
    if k < script.shape[0] and script[k, 0] == p and script[k, 1] == dtype:
        Z[Z_SCR] = k + 1
        return k
    return -1


@njit(cache=True, _nrt=False)
def believed_masks(Z, KN, p, out):
    """out[0], out[1]: the values seat p knows in the white / black book
    (face-up cards and the hidden ones it peeked)."""
    out[0] = Z[Z_UP] | KN[p, KN_MASK]
    out[1] = Z[Z_UP + 1] | KN[p, KN_MASK + 1]


@njit(cache=True, _nrt=False)
def my_house(Z, KN, p, buf):
    believed_masks(Z, KN, p, buf)
    return fate_house(KN, p, buf[0], buf[1])


@njit(cache=True, _nrt=False)
def known_house(Z, KN, KF, fate, p, q, F, buf):
    """The house seat p believes q is in from q's fate cards it has seen
    (-1 when it has seen none)."""
    believed_masks(Z, KN, p, buf)
    w = 0
    b = 0
    n = 0
    for i in range(F):
        if KF[p, q, i] == 1:
            n += 1
            m = vbit(fate[q, i])
            w |= np.int64((m & buf[0]) != 0)
            b |= np.int64((m & buf[1]) != 0)
    if n == 0:
        return -1
    return HOUSE_WB[w + 2 * b]


@njit(cache=True, _nrt=False)
def keep_value(c, pp):
    return pp[Q_JOKER] if is_joker(c) else float(val(c))


@njit(cache=True, _nrt=False)
def argmax_tie(scores, n, pst, p):
    """Index of the highest of scores[:n]; ties uniform from seat p's stream."""
    best = scores[0]
    first = 0
    k = 1
    for i in range(1, n):
        x = scores[i]
        if x > best:
            best = x
            first = i
            k = 1
        elif x == best:
            k += 1
    if k == 1:
        return first
    r = pbelow(pst, p, k)
    for i in range(n):
        if scores[i] == best:
            if r == 0:
                return i
            r -= 1
    return 0


@njit(cache=True, _nrt=False)
def choose_house(pol, p, Z, KN, pst, script, dtype, buf):
    """A house for a joker (sage) or the cloak (invisible)."""
    if pol == POL_INFORMED:
        return my_house(Z, KN, p, buf)
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, dtype)
        if k >= 0:
            return script[k, 2]
    return pbelow(pst, p, 4)


@njit(cache=True, _nrt=False, inline="always")
def choose_invisible(pol, p, P, S, Z, KN, KF, fate, F, pst, script, fs, buf):
    if pol == POL_INFORMED:
        hm = my_house(Z, KN, p, buf)
        n = 0
        for q in range(P):
            if q != p:
                sc = float(S[q, C_HN])
                if known_house(Z, KN, KF, fate, p, q, F, buf) == hm:
                    sc -= 1000.0
                fs[n] = sc
                n += 1
        i = argmax_tie(fs, n, pst, p)
        return i if i < p else i + 1
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, np.int64(D_NAME))
        if k >= 0:
            return script[k, 2]
    i = pbelow(pst, p, P - 1)
    return i if i < p else i + 1


# --- spells: the legal list ---------------------------------------------
@njit(cache=True, _nrt=False)
def spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, pick, out):
    """The contract's list of distinct spells seat p can cast now, one entry
    per (hand card used, effect, target), in a fixed order. pick < 0: return
    the number of entries; else write entry ``pick`` to out[0:4] (effect,
    hand index, a, b) and return it. The stop entry is not listed."""
    n = 0
    inv = Z[Z_INV]
    cloak = Z[Z_CLOAK]
    hn = S[p, C_HN]
    for i in range(hn):
        c = hand[p, i]
        k = KIND[c]
        if k >= 52 or ban[k] == BAN_FORBID:
            continue
        m = np.int64(1) << KVAL[k]
        if Z[Z_UP] & m:
            for b in range(2):
                for j in range(Z[Z_BN + b]):
                    if B[b, 1, j] == 0:
                        if n == pick:
                            out[0] = EF_PEEK_BOOK
                            out[1] = i
                            out[2] = b
                            out[3] = j
                            return n
                        n += 1
            for q in range(P):
                if q != p and q != inv:
                    if n == pick:
                        out[0] = EF_PEEK_FATE
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0:
                    if n == pick:
                        out[0] = EF_PEEK_HAND
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            if Z[Z_DECK] > 0:
                if n == pick:
                    out[0] = EF_PEEK_DECK
                    out[1] = i
                    out[2] = -1
                    out[3] = -1
                    return n
                n += 1
        if Z[Z_UP + 1] & m:
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0:
                    if n == pick:
                        out[0] = EF_STEAL
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            if n == pick:
                out[0] = EF_DRAW
                out[1] = i
                out[2] = -1
                out[3] = -1
                return n
            n += 1
            for g in range(hn):
                if g == i:
                    continue
                cg = hand[p, g]
                jg = is_joker(cg)
                hg = -1 if jg else house_of_card(cg, ip)
                for h in range(4):
                    if h == cloak:
                        continue
                    if jg or hg == h:
                        cnt = Z[Z_PN + h]
                        if pick >= n and pick < n + cnt:
                            out[0] = EF_SWAP
                            out[1] = i
                            out[2] = g
                            out[3] = h * PCAP + (pick - n)
                            return pick
                        n += cnt
                    else:
                        for j in range(Z[Z_PN + h]):
                            if is_joker(pile[h, j]):
                                if n == pick:
                                    out[0] = EF_SWAP
                                    out[1] = i
                                    out[2] = g
                                    out[3] = h * PCAP + j
                                    return n
                                n += 1
    return n


@njit(cache=True, _nrt=False)
def cheapest(p, S, hand, Z, color, avoid, pp, ban, pst, fs, ix):
    """Hand index of the lowest keep-value card casting ``color`` (0 white,
    1 black), not index ``avoid``; ties uniform; -1 when none."""
    n = 0
    for i in range(S[p, C_HN]):
        c = hand[p, i]
        k = KIND[c]
        if i == avoid or k >= 52 or ban[k] == BAN_FORBID:
            continue
        if Z[Z_UP + color] & (np.int64(1) << KVAL[k]):
            fs[n] = -keep_value(c, pp)
            ix[n] = i
            n += 1
    if n == 0:
        return -1
    return ix[argmax_tie(fs, n, pst, p)]


@njit(cache=True, _nrt=False, inline="always")
def informed_spell(p, P, S, hand, fate, B, Z, pile, KN, KF, ip, pp, ban, F, pst, out, fs, ix, buf):
    """The informed policy's next spell (out[0:4]); out[0] = EF_STOP to stop.
    Order: peek an unknown hidden spell; the best swap (margin gain >=
    swap_min_gain); steal from a non-ally holding >= steal_min_hand cards;
    peek an unknown fate card; draw while holding <= draw_max_hand cards."""
    out[0] = EF_STOP
    inv = Z[Z_INV]
    hn = S[p, C_HN]
    wi = cheapest(p, S, hand, Z, np.int64(0), np.int64(-1), pp, ban, pst, fs, ix)
    # 1. an unknown hidden spell
    if wi >= 0:
        n = 0
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                    ix[n] = b * BCAP + j
                    fs[n] = 0.0
                    n += 1
        if n > 0:
            t = ix[argmax_tie(fs, n, pst, p)]
            out[0] = EF_PEEK_BOOK
            out[1] = wi
            out[2] = t // BCAP
            out[3] = t % BCAP
            return
    bi = cheapest(p, S, hand, Z, np.int64(1), np.int64(-1), pp, ban, pst, fs, ix)
    hm = my_house(Z, KN, p, buf)
    if bi >= 0:
        # 2. the best swap
        cloak = Z[Z_CLOAK]
        T0 = Z[Z_PT]
        T1 = Z[Z_PT + 1]
        T2 = Z[Z_PT + 2]
        T3 = Z[Z_PT + 3]
        base = margin(T0, T1, T2, T3, hm)
        n = 0
        for g in range(hn):
            cg = hand[p, g]
            jg = is_joker(cg)
            hg = -1 if jg else house_of_card(cg, ip)
            vg = val(cg)
            for h in range(4):
                if h == cloak:
                    continue
                for j in range(Z[Z_PN + h]):
                    cj = pile[h, j]
                    if not (jg or hg == h or is_joker(cj)):
                        continue
                    d = vg - val(cj)
                    gain = margin(T0 + d * (h == 0), T1 + d * (h == 1), T2 + d * (h == 2),
                                  T3 + d * (h == 3), hm) - base
                    if gain >= pp[Q_SWAP] and n < fs.shape[0]:
                        fs[n] = float(gain)
                        ix[n] = (g * 4 + h) * PCAP + j
                        n += 1
        while n > 0:
            k = argmax_tie(fs, n, pst, p)
            t = ix[k]
            g = t // (4 * PCAP)
            caster = cheapest(p, S, hand, Z, np.int64(1), g, pp, ban, pst, fs[n:], ix[n:])
            if caster >= 0:
                out[0] = EF_SWAP
                out[1] = caster
                out[2] = g
                out[3] = t % (4 * PCAP)
                return
            fs[k] = -1e300         # this giver is the only black card: next best
            top = -1e300
            for x in range(n):
                if fs[x] > top:
                    top = fs[x]
            if top < pp[Q_SWAP]:
                break
        # 3. steal from a non-ally with a full hand
        n = 0
        for q in range(P):
            if q != p and q != inv and S[q, C_HN] > 0 and S[q, C_HN] >= pp[Q_STEAL]:
                if known_house(Z, KN, KF, fate, p, q, F, buf) != hm:
                    fs[n] = float(S[q, C_HN])
                    ix[n] = q
                    n += 1
        if n > 0:
            out[0] = EF_STEAL
            out[1] = bi
            out[2] = ix[argmax_tie(fs, n, pst, p)]
            out[3] = -1
            return
    # 4. an unknown fate card
    if wi >= 0 and pp[Q_FATES] > 0:
        n = 0
        for q in range(P):
            if q != p and q != inv:
                u = 0
                for i in range(F):
                    u += 1 - KF[p, q, i]
                if u > 0:
                    fs[n] = float(u)
                    ix[n] = q
                    n += 1
        if n > 0:
            q = ix[argmax_tie(fs, n, pst, p)]
            n = 0
            for i in range(F):
                if KF[p, q, i] == 0:
                    fs[n] = 0.0
                    ix[n] = i
                    n += 1
            out[0] = EF_PEEK_FATE
            out[1] = wi
            out[2] = q
            out[3] = ix[argmax_tie(fs, n, pst, p)]
            return
    # 5. draw
    if bi >= 0 and hn <= pp[Q_DRAW]:
        out[0] = EF_DRAW
        out[1] = bi
        out[2] = -1
        out[3] = -1


@njit(cache=True, _nrt=False)
def script_spell(p, P, S, hand, B, Z, pile, ip, ban, F, script, out):
    """A scripted spell (scenario tests): the row's (effect, card cast, a, b)
    must be a listed entry (a swap's a = the given card's id); returns 0, or
    1 when no script row applies, 2 when the row is illegal (stops)."""
    k = script_next(script, Z, p, np.int64(D_SPELL))
    if k < 0:
        return 1
    eff = script[k, 2]
    out[0] = EF_STOP
    if eff == EF_STOP:
        return 0
    n = spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, np.int64(-1), out)
    for e in range(n):
        spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, e, out)
        if out[0] != eff or hand[p, out[1]] != script[k, 3]:
            continue
        if eff == EF_SWAP:
            if hand[p, out[2]] == script[k, 4] and out[3] == script[k, 5]:
                return 0
        elif eff == EF_PEEK_FATE:
            if out[2] == script[k, 4]:
                out[3] = script[k, 5]
                return 0
        elif out[2] == script[k, 4] and (eff != EF_PEEK_BOOK or out[3] == script[k, 5]):
            return 0
    out[0] = EF_STOP
    return 2


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
@njit(cache=True, _nrt=False)
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
def vote_scores(p, kind, opts, n, B, Z, KN, ip, fs, buf):
    """The informed voter's score of each option: the margin of the house it
    would then be in over the best other house, with the cards that reach
    the score area added (cloaked pile: discarded; a joker adds 0)."""
    book = kind & 1
    believed_masks(Z, KN, p, buf)
    T0 = Z[Z_PT]
    T1 = Z[Z_PT + 1]
    T2 = Z[Z_PT + 2]
    T3 = Z[Z_PT + 3]
    cloak = Z[Z_CLOAK]
    for o in range(n):
        wm = buf[0]
        bm = buf[1]
        t0, t1, t2, t3 = T0, T1, T2, T3
        if kind < 2:            # opts[o] enters the book, the others the score area
            if book == 0:
                wm |= vbit(opts[o])
            else:
                bm |= vbit(opts[o])
            for x in range(n):
                if x != o and not is_joker(opts[x]):
                    h = house_of_card(opts[x], ip)
                    if h != cloak:
                        v = val(opts[x])
                        t0 += v * (h == 0)
                        t1 += v * (h == 1)
                        t2 += v * (h == 2)
                        t3 += v * (h == 3)
        else:                   # opts[o] (a book place) leaves the book for the score area
            m = 0
            for j in range(Z[Z_BN + book]):
                if j != opts[o]:
                    cj = B[book, 0, j]
                    if B[book, 1, j] == 1 or KN[p, cj] == 1:
                        m |= vbit(cj)
            if book == 0:
                wm = m
            else:
                bm = m
            c = B[book, 0, opts[o]]
            if not is_joker(c):
                h = house_of_card(c, ip)
                if h != cloak:
                    v = val(c)
                    t0 += v * (h == 0)
                    t1 += v * (h == 1)
                    t2 += v * (h == 2)
                    t3 += v * (h == 3)
        fs[o] = float(margin(t0, t1, t2, t3, fate_house(KN, p, wm, bm)))


@njit(cache=True, _nrt=False)
def choose_vote(pol, p, kind, opts, n, tied, B, Z, KN, ip, pst, script, dtype,
                fs, buf):
    """Seat p's vote among options opts[:n] where tied[o] == 1."""
    if pol == POL_INFORMED:
        vote_scores(p, kind, opts, n, B, Z, KN, ip, fs, buf)
        for o in range(n):
            if tied[o] == 0:
                fs[o] = -1e300
        return argmax_tie(fs, n, pst, p)
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, dtype)
        if k >= 0:
            return script[k, 2]
    m = 0
    for o in range(n):
        m += tied[o]
    r = pbelow(pst, p, m)
    for o in range(n):
        if tied[o] == 1:
            if r == 0:
                return o
            r -= 1
    return 0


@njit(cache=True, _nrt=False, inline="always")
def meeting(st, r, sage, P, pol, S, hand, fate, B, Z, pile, cards, KN, ip, F, pst, script,
            masks, counts, tr, on, opts, tally, tied, votes, fs, buf):
    """The sage's meeting: rounds 1 and 3 add a white spell, 2 and 4 a black
    one (2 cards turned, a vote, the other to the score area); rounds 5 and
    6 delete a face-up white / black spell (the deleted card to the score
    area). One sealed vote per non-invisible seat; ties: the sage decides."""
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
    if n == 0:
        return
    win = 0
    if n > 1:
        for o in range(n):
            tally[o] = 0
            tied[o] = 1
        q = next_seat(sage, P)
        for _ in range(P):
            if q != Z[Z_INV]:
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
        for o in range(n):
            tied[o] = np.int64(tally[o] == best)
            k += tied[o]
            if tied[o] == 1:
                win = o
        if k > 1:
            win = choose_vote(pol[sage], sage, kind, opts, n, tied, B, Z, KN,
                              ip, pst, script, np.int64(D_TIE), fs, buf)
            S[sage, S_DEC] += 1
            Z[Z_DEC] += 1
            if on:
                ev(tr, Z, E_TIE, sage, win, 0, 0, 0, 0)
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


@njit(cache=True, _nrt=False, inline="always")
def turn(st, p, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst, script,
         masks, counts, tr, on, out, fs, ix, buf):
    """Seat p casts spells until it stops (or reaches max_casts)."""
    if on:
        ev(tr, Z, E_TURN, p, S[p, C_HN], 0, 0, 0, 0)
    for _ in range(ip[P_MAXC]):
        # a castable card always gives an entry (a black one: draw; a white
        # one: a fate peek, since at least one other seat is targetable)
        up = Z[Z_UP] | Z[Z_UP + 1]
        any_cast = False
        for i in range(S[p, C_HN]):
            k = KIND[hand[p, i]]
            if k < 52 and (up >> KVAL[k]) & 1 and ban[k] != BAN_FORBID:
                any_cast = True
                break
        if not any_cast:
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
    if on:
        ev(tr, Z, E_STOPPED, p, S[p, C_HN], 0, 0, 0, 0)


# --- setup, a round, the end ----------------------------------------------------
@njit(cache=True, _nrt=False)
def fill_deck(ip, ban, P, cards, Z):
    """The unshuffled deck in cards[2, :n], n in Z[Z_NC] (once per batch)."""
    d = ip[P_DECKS]
    if d == 0:
        d = 1 if P <= 5 else 2
    n = 0
    for c in range(NK * d):
        if ban[KIND[c]] != BAN_REMOVE:
            cards[2, n] = c
            n += 1
    Z[Z_NC] = n


@njit(cache=True, _nrt=False)
def init_game(seed, game, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst, script,
              masks, counts, tr, on, buf):
    """Reset, shuffle, deal (each seat in turn: hand cards, then fate cards),
    set the books (white: face up, then hidden; black likewise), pick the
    first sage, who turns the setup score cards."""
    nc = Z[Z_NC]
    for i in range(Z.shape[0]):
        if i != Z_NC:
            Z[i] = 0
    st[0] = game_state(seed, game)
    for p in range(P):
        pst[p] = seat_stream(seed, game, p)
        for j in range(S.shape[1]):
            S[p, j] = 0
        for c in range(KNW):
            KN[p, c] = 0
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
            c = draw_card(st, cards, Z, tr, on)
            if c >= 0:
                to_hand(S, hand, p, c, masks, counts)
                if on:
                    ev(tr, Z, E_DEAL, p, c, 0, 0, 0, 0)
        for i in range(F):
            c = draw_card(st, cards, Z, tr, on)
            fate[p, i] = c
            if c >= 0:
                KF[p, p, i] = 1
                KN[p, KN_FATE] |= vbit(c)
                setbit(masks, p, 0, KIND[c])
                counts[0, KIND[c]] += 1
                S[p, S_FVALS] |= np.int64(1) << KVAL[KIND[c]]
                if on:
                    ev(tr, Z, E_FATE, p, c, 0, 0, 0, 0)
    for b in range(2):
        for x in range(1 + ip[P_HIDDEN]):
            c = draw_card(st, cards, Z, tr, on)
            if c < 0:
                break
            j = Z[Z_BN + b]
            B[b, 0, j] = c
            B[b, 1, j] = np.int64(x == 0)
            Z[Z_BN + b] = j + 1
            if on:
                ev(tr, Z, E_BOOKSET, -1, b, c, np.int64(x == 0), 0, 0)
        update_up(B, Z, b)
    sage = below(st, P)
    Z[Z_FIRST] = sage
    Z[Z_SAGE] = sage
    S[sage, S_FIRST] = 1
    if on:
        ev(tr, Z, E_FIRST, sage, 0, 0, 0, 0, 0)
    for _ in range(ip[P_SETUP]):
        c = draw_card(st, cards, Z, tr, on)
        if c < 0:
            break
        to_score(c, sage, pol, S, Z, pile, cards, KN, ip, pst, script, tr, on, buf)


@njit(cache=True, _nrt=False)
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
    ev(tr, Z, E_PILES, -1, pile_total(pile, Z, 0), pile_total(pile, Z, 1),
       pile_total(pile, Z, 2), pile_total(pile, Z, 3), Z[Z_CLOAK])


@njit(cache=True, _nrt=False)
def play_round(st, r, P, pol, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF, pst,
               script, masks, counts, tr, on, check, out, opts, tally, tied, votes, fs, ix, buf):
    """Round r (1..6): the sage names the invisible, who cloaks a house;
    every other seat draws; turns from the sage's left, the sage last (its
    meeting after its spells); hands down to the limit."""
    F = ip[P_FATE]
    Z[Z_ROUND] = r
    sage = Z[Z_SAGE]
    S[sage, S_SAGE] += 1
    if on:
        ev(tr, Z, E_ROUND, sage, r, 0, 0, 0, 0)
    inv = choose_invisible(pol[sage], sage, P, S, Z, KN, KF, fate, F, pst, script, fs, buf)
    S[sage, S_DEC] += 1
    Z[Z_DEC] += 1
    Z[Z_INV] = inv
    S[inv, S_INVR] += 1
    if on:
        ev(tr, Z, E_INVISIBLE, sage, inv, 0, 0, 0, 0)
    cl = choose_house(pol[inv], inv, Z, KN, pst, script, np.int64(D_CLOAK), buf)
    S[inv, S_DEC] += 1
    Z[Z_DEC] += 1
    Z[Z_CLOAK] = cl
    if on:
        ev(tr, Z, E_CLOAK, inv, cl, 0, 0, 0, 0)
    # the cloaked pile, to check that it does not change this round
    cl_n = Z[Z_PN + cl]
    cl_sum = 0
    for j in range(cl_n):
        cl_sum += pile[cl, j] * (j + 1)
    q = next_seat(sage, P)
    for _ in range(P):
        if q != inv:
            for _ in range(ip[P_RDRAW]):
                draw_to_hand(st, S, hand, cards, Z, q, masks, counts, tr, on)
        q = next_seat(q, P)
    q = next_seat(sage, P)
    for _ in range(P):
        if q != inv:
            Z[Z_TURN] += 1
            turn(st, q, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst,
                 script, masks, counts, tr, on, out, fs, ix, buf)
            if q == sage:
                meeting(st, r, sage, P, pol, S, hand, fate, B, Z, pile, cards, KN, ip, F, pst,
                        script, masks, counts, tr, on, opts, tally, tied, votes, fs, buf)
            discard_down(q, pol[q], S, hand, cards, Z, ip, pp, pst, script, tr, on, fs, ix)
            if check and S[q, C_HN] > ip[P_LIMIT]:
                Z[Z_ERR] += 1
        q = next_seat(q, P)
    if check:
        s = 0
        for j in range(Z[Z_PN + cl]):
            s += pile[cl, j] * (j + 1)
        if Z[Z_PN + cl] != cl_n or s != cl_sum:
            Z[Z_ERR] += 1
        Z[Z_ERR] += broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, ix, r)
    if on:
        show_state(B, Z, pile, tr, buf)
    if r == 6:
        S[inv, S_INV6] = 1
        Z[Z_CLOAK6] = cl
    Z[Z_SAGE] = inv          # the invisible is next round's sage
    Z[Z_CLOAK] = -1


@njit(cache=True, _nrt=False)
def broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, seen, r):
    """Check mode: every card of the deck is in exactly one zone; each
    book's face-up value mask matches its cards; each pile's running total
    (Z_PT) matches its cards; after round r <= 4 a book holds at most 1 +
    hidden + its adds."""
    errors = 0
    for c in range(NCMAX):
        seen[c] = 0
    total = 0
    for i in range(Z[Z_DECK]):
        seen[cards[0, i]] += 1
    for i in range(Z[Z_DISC]):
        seen[cards[1, i]] += 1
    total += Z[Z_DECK] + Z[Z_DISC]
    for p in range(P):
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


@njit(cache=True, _nrt=False)
def finish(P, ip, S, fate, B, Z, pile, grow, srow, tr, on, T, members):
    """After round 6: the highest pile(s) win; houses from the fate cards
    and the final books (face up and hidden); members of a winning house win
    and score its total // members."""
    F = ip[P_FATE]
    wm = book_all_values(B, Z, 0)
    bm = book_all_values(B, Z, 1)
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


def work(P):
    """One thread's workspace (allocated in Python: the kernels allocate
    nothing per game)."""
    return (np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
            np.full((P, FCAP), -1, np.int64), np.zeros((2, 2, BCAP), np.int64),
            np.zeros(NZ, np.int64), np.zeros((4, PCAP), np.int64),
            np.zeros((3, NCMAX), np.int64), np.zeros((P, KNW), np.int64),
            np.zeros((P, P, FCAP), np.int64), np.zeros(1, np.uint64), np.zeros(P, np.uint64),
            np.zeros((0, 6), np.int64),
            np.zeros(4, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64),
            np.zeros(16, np.int64), np.zeros(P, np.int64), np.zeros(4096, np.float64),
            np.zeros(4096, np.int64), np.zeros(4, np.int64))


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, np.zeros((1, 8), np.int64), *work(int(P)))


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, tr, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst, script,
                out, opts, tally, tied, votes, fs, ix, buf):
    fill_deck(ip, ban, P, cards, Z)
    F = ip[P_FATE]
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            # one game (the same steps as _trace_one; not a function of its own:
            # each njit level compiles its whole call tree once more)
            init_game(seed, start + g, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st,
                      pst, script, masks[g], counts[b], tr, False, buf)
            if check:
                Z[Z_ERR] += broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, ix,
                                              np.int64(0))
            for r in range(1, 7):
                play_round(st, r, P, pol, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF,
                           pst, script, masks[g], counts[b], tr, False, check, out, opts, tally,
                           tied, votes, fs, ix, buf)
            finish(P, ip, S, fate, B, Z, pile, games[g], seats[g], tr, False, opts, tally)
            if check:
                if Z[Z_ROUND] != 6 or Z[Z_TURN] != 6 * (P - 1):
                    Z[Z_ERR] += 1
                for p in range(P):
                    if S[p, S_WON] == 1 and ((games[g, G_WMASK] >> S[p, S_ROLE]) & 1) == 0:
                        Z[Z_ERR] += 1
            errors[g] = Z[Z_ERR]


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    return _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr,
                      *work(int(P)))


@njit(cache=True, _nrt=False)
def _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr, S, hand, fate,
               B, Z, pile, cards, KN, KF, st, pst, script, out, opts, tally, tied, votes, fs, ix,
               buf):
    fill_deck(ip, ban, P, cards, Z)
    init_game(seed, game, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst, script,
              masks[0], counts[0], tr, True, buf)
    for r in range(1, 7):
        play_round(st, r, P, pol, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF, pst,
                   script, masks[0], counts[0], tr, True, False, out, opts, tally, tied, votes,
                   fs, ix, buf)
    finish(P, ip, S, fate, B, Z, pile, games[0], seats[0], tr, True, opts, tally)
    return Z[Z_TR]


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one}

jit.kernel_cache_end()
