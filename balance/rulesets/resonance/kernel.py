"""Magic Resonance kernel: njit functions over small int64 arrays.

One game's state:
- ``S``  int64[P, NS]: per-seat scalars and hand counts per card kind
  (hands are multisets: the order of cards in a hand never matters);
- ``F``  int64[3, FCAP]: the field in placement order (kind, column, which
  seats know it), cleared after each resonance;
- ``pile`` int64[2, NC]: row 0 the rune deck (top = last), row 1 the
  unshuffled deck (per batch); the discard pile is public, so it is kept
  as counts per kind in ``Z``;
- ``MD`` int64[18]: the magic deck (top = last); ``Z`` the game globals.

Random numbers: the deal and the magic deck come from the game's stream
(``core.rng.game_state(seed, game)``); each seat's policy draws its
randomness (random choices and heuristic tie-breaks) from its own stream
``ST[p] = mix64(game_state(seed, game) ^ (p + 1) * SEAT_MIX)``, so a seat's
choices depend only on what it sees, never on how many numbers another
seat consumed (the hidden-information test relies on it).

Policies read a seat's *view* only (``view``): its hand, the field runes
it knows (its own, its peeks), how many runes each column holds, the
public discard pile, the revealed magic cards and the deck's composition.
"""
import math

import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from ...core.records import BLOCK
from ...core.rng import GAMMA, game_state, mix64, shuffle
from .layout import (C_DISS, C_H, C_HN, C_IN, C_JOINED, C_JOINOK, C_MARK, C_MN, C_MPTS,
                     C_OUT, C_OVER, C_OWN, C_PEEKS, C_PLACED, C_STARTED, C_SUCC, C_USED,
                     C_USES, DISSOLVE, E_AWARD, E_DEAL, E_DISCARD, E_DISSOLVE, E_DRAW, E_DRY,
                     E_EFFECT, E_END, E_HAND, E_JOIN, E_NOPLACE, E_NOSTART, E_OUT, E_OUTCOME,
                     E_PEEK, E_PLACE, E_REDRAW, E_REVEAL, E_SCORE, E_START, E_STATE, E_TOTALS,
                     E_TURN, E_USE, EF_DISCARD, EF_DRAW, EF_GAIN, EF_HIT, EF_LOSE, END_CAP,
                     END_MAGIC, END_PLAYER, END_PLAYERS, END_RUNES, END_TOTAL, F_KIND, F_KNOW,
                     F_OWNER, GAME_COLUMNS, M_BASE, M_NEFF, M_OEFF, M_OVER, M_PTS, M_UEFF,
                     N_MAGIC, NK, NS, NZ, POL_RANDOM, POL_SABOTEUR, SEAT_COLUMNS, U_DISSOLVE,
                     U_DRAW, U_PEEK, WHY_DISCARD, WHY_FAIL, WHY_HIT, Z_ACQ, Z_DEC, Z_DECK,
                     Z_DISC, Z_DRY, Z_DRYM, Z_FN, Z_JOINS, Z_MCHO, Z_MD, Z_MDISC, Z_MJOIN,
                     Z_MOVR, Z_MREV, Z_MSUC, Z_NC, Z_NEXT, Z_NTOT, Z_OVERS, Z_RES, Z_REV,
                     Z_ROUND, Z_SUCC, Z_SUPPLY, Z_TOT, Z_TR, Z_TURN)
from .rules import IDX, KIND_COLOUR, KIND_VALUE, PIDX

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

NG = len(GAME_COLUMNS)
NSEAT = len(SEAT_COLUMNS)

# --- parameter slots -----------------------------------------------------
P_HAND = IDX["hand_size"]
P_MARKERS = IDX["markers"]
P_ENDTOT = IDX["end_total_magic"]
P_ENDPL = IDX["end_player_magic"]
P_LEFT = IDX["end_players_left"]
P_FAIL = IDX["fail_discard"]
P_COPY = IDX["copies_1"]          # copies_1, copies_2, copies_minus1, copies_minus2, copies_dissolve
P_MAXT = IDX["max_turns"]
assert [IDX[k] - P_COPY for k in ("copies_2", "copies_minus1", "copies_minus2",
                                  "copies_dissolve")] == [1, 2, 3, 4]
Q_PSTART = PIDX["p_start"]
Q_PJOIN = PIDX["p_join"]
Q_START = PIDX["start_threshold"]
Q_JOIN = PIDX["join_threshold"]
Q_RISK = PIDX["overdraft_risk"]
Q_DISSV = PIDX["dissolve_value"]
Q_HIT = PIDX["hit_value"]

# --- record columns, by name (layout) -----------------------------------------
GI = index(GAME_COLUMNS)
SI = index(SEAT_COLUMNS)
G_WINNER, G_TURNS, G_ROUNDS, G_END = GI["winner"], GI["turns"], GI["rounds"], GI["end_reason"]
G_DEC, G_RES, G_SUCC, G_OVER = GI["decisions"], GI["resonances"], GI["successes"], GI["overdrafts"]
G_JOINS, G_DISS, G_USES = GI["joins"], GI["dissolves"], GI["magic_used"]
G_MREV, G_MCHO, G_MSUC = GI["magic_revealed"], GI["magic_chosen"], GI["magic_success"]
G_MOVR, G_MJOIN = GI["magic_overdraft"], GI["magic_joiners"]
S_SCORE = SI["score"]
S_MARKERS = SI["markers"]
S_MAGIC_POINTS = SI["magic_points"]
S_CARDS_LEFT = SI["cards_left"]
S_MAGIC_CARDS = SI["magic_cards"]
S_MAGIC_OWNED = SI["magic_owned"]
S_WON = SI["won"]
S_OUT_TURN = SI["out_turn"]
S_STARTED = SI["started"]
S_SUCCEEDED = SI["succeeded"]
S_OVERDRAFTED = SI["overdrafted"]
S_JOINED = SI["joined"]
S_JOINED_OK = SI["joined_ok"]
S_PLACED = SI["placed"]
S_PEEKS = SI["peeks"]
S_DISSOLVES = SI["dissolves"]
S_MAGIC_USED = SI["magic_used"]

NC_MAX = 3 * 4 * 40 + 40        # deck capacity: copies bounded by 40 per kind
SEAT_MIX = np.uint64(0xD1B54A32D192ED03)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
INV53 = 1.0 / 9007199254740992.0
# keep score of each kind when a counter/saboteur must discard (lowest goes first)
KEEP = np.array([[3.0, 4.0, 1.0, 0.0] * 3 + [2.0],          # counter
                 [3.0, 4.0, 2.5, 2.6] * 3 + [2.0]])         # saboteur keeps negatives


# --- per-seat random streams ------------------------------------------------
@njit(cache=True, _nrt=False)
def rb(ST, p, n):
    """Uniform integer in [0, n) from seat p's stream."""
    s = ST[p] + GAMMA
    ST[p] = s
    return np.int64(((mix64(s) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, _nrt=False)
def ru(ST, p):
    """Uniform float in [0, 1) from seat p's stream."""
    s = ST[p] + GAMMA
    ST[p] = s
    return np.float64(mix64(s) >> _S11) * INV53


# --- zones ---------------------------------------------------------------
@njit(cache=True, _nrt=False)
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
    setbit(masks, p, 0, k)
    counts[0, k] += 1
    if on:
        ev(tr, Z, E_DEAL if why < 0 else E_DRAW, p, k, why, 0, 0, 0)
    return k


@njit(cache=True, _nrt=False)
def hand_to_discard(S, Z, p, k):
    S[p, C_H + k] -= 1
    S[p, C_HN] -= 1
    Z[Z_DISC + k] += 1


@njit(cache=True, _nrt=False)
def reveal(Z, MD, slot, tr, on):
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


@njit(cache=True, _nrt=False)
def next_in(S, p, P):
    q = p
    for _ in range(P):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 1:
            return q
    return p


@njit(cache=True, _nrt=False)
def placeable(S, p, ban):
    n = 0
    for k in range(12):
        if ban[k] != BAN_FORBID:
            n += S[p, C_H + k]
    return n


# --- a seat's view --------------------------------------------------------------
@njit(cache=True, _nrt=False)
def view(S, F, Z, p, W):
    """What seat p may know, summarized per colour in W: W[c] the sum of the
    field runes it knows, W[3 + c] the expected sum of the runes it does not
    know, W[6 + c] its standard deviation, W[9] how many it does not know.
    Unknown runes are drawn from the runes p has not seen (deck composition
    minus its hand, the public discard pile and the field runes it knows),
    independently (a normal approximation of their sum). Counts and sums
    are whole numbers, so they are kept as integers (the same values as
    float sums); the known field runes per kind are packed 8 bits per
    value in one integer per colour (at most 40 copies of a kind)."""
    bit = np.int64(1) << p
    k0 = 0
    k1 = 0
    k2 = 0
    n0 = np.int64(0)
    n1 = np.int64(0)
    n2 = np.int64(0)
    u = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0:
            continue
        if F[F_KNOW, i] & bit:
            v = KIND_VALUE[k]
            c = KIND_COLOUR[k]
            one = np.int64(1) << (8 * (k - 4 * c))
            if c == 0:
                k0 += v
                n0 += one
            elif c == 1:
                k1 += v
                n1 += one
            else:
                k2 += v
                n2 += one
        else:
            u += 1
    W[0] = k0
    W[1] = k1
    W[2] = k2
    W[9] = u
    tot = 0
    a0 = 0
    a1 = 0
    a2 = 0
    b0 = 0
    b1 = 0
    b2 = 0
    for c in range(3):
        kn = n0 if c == 0 else (n1 if c == 1 else n2)
        m1 = 0
        m2 = 0
        for j in range(4):
            k = 4 * c + j
            n = max(Z[Z_TOT + k] - S[p, C_H + k] - Z[Z_DISC + k] - ((kn >> (8 * j)) & 255), 0)
            v = KIND_VALUE[k]
            tot += n
            m1 += n * v
            m2 += n * v * v
        if c == 0:
            a0 = m1
            b0 = m2
        elif c == 1:
            a1 = m1
            b1 = m2
        else:
            a2 = m1
            b2 = m2
    for c in range(3):
        m1 = a0 if c == 0 else (a1 if c == 1 else a2)
        m2 = b0 if c == 0 else (b1 if c == 1 else b2)
        if tot > 0 and u > 0:
            mu = m1 / tot
            var = m2 / tot - mu * mu
            W[3 + c] = u * mu
            W[6 + c] = math.sqrt(max(u * var, 0.0))
        else:
            W[3 + c] = 0.0
            W[6 + c] = 0.0


@njit(cache=True, _nrt=False)
def term(m, sd, need):
    """P(colour total >= need): exact when nothing is unknown, else the
    normal tail with a continuity correction (logistic approximation of the
    normal CDF, error < 0.01)."""
    if sd <= 1e-9:
        return 1.0 if m >= need - 1e-9 else 0.0
    x = 1.702 * (m - need + 0.5) / sd
    if x > 30.0:
        return 1.0
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@njit(cache=True, _nrt=False, inline="always")
def card_terms(W, M, card):
    """Per-colour success and overdraft chances of ``card`` in W[10..15];
    returns (P(success), P(overdraft))."""
    ps = 1.0
    po = 1.0
    for c in range(3):
        m = W[c] + W[3 + c]
        tb = term(m, W[6 + c], M[card, M_BASE + c])
        to = term(m, W[6 + c], M[card, M_OVER + c])
        W[10 + c] = tb
        W[13 + c] = to
        ps *= tb
        po *= to
    return ps, po


@njit(cache=True, _nrt=False)
def chance(W, M, card, col):
    """P(every colour >= the requirement in columns col..col+2 of the card)
    (``col`` = M_BASE: success, M_OVER: overdraft); stops at the first 0."""
    pr = 1.0
    for c in range(3):
        pr *= term(W[c] + W[3 + c], W[6 + c], M[card, col + c])
        if pr == 0.0:
            break
    return pr


@njit(cache=True, _nrt=False, inline="always")
def shifted(W, M, card, sc, sv):
    """(P(success), P(overdraft)) once a rune of value sv is added to colour
    sc (after ``card_terms`` for this card)."""
    ps = 1.0
    po = 1.0
    for c in range(3):
        if c == sc:
            m = W[c] + W[3 + c] + sv
            ps *= term(m, W[6 + c], M[card, M_BASE + c])
            po *= term(m, W[6 + c], M[card, M_OVER + c])
        else:
            ps *= W[10 + c]
            po *= W[13 + c]
    return ps, po


@njit(cache=True, _nrt=False)
def effect_value(e, n, pp):
    if e == EF_GAIN or e == EF_DRAW:
        return 1.0 * n
    if e == EF_LOSE or e == EF_DISCARD:
        return -1.0 * n
    return n * pp[Q_HIT]


@njit(cache=True, _nrt=False)
def card_ev(M, card, ps, po, initiator, ip, pp):
    """Expected points of taking part (the initiator also takes the card)."""
    gain = M[card, M_PTS] * 1.0 if initiator else 0.0
    vn = effect_value(M[card, M_NEFF], M[card, M_NEFF + 1], pp)
    vo = effect_value(M[card, M_OEFF], M[card, M_OEFF + 1], pp)
    return (ps - po) * (gain + vn) + po * (gain + vo) - (1.0 - ps) * ip[P_FAIL]


@njit(cache=True, _nrt=False)
def target_card(S, Z, M, ST, p, W, ip, pp):
    """The revealed slot with the best expected points as initiator (ties
    uniform); W must hold p's view."""
    best = -1
    bv = -1e300
    ties = 0
    for j in range(2):
        card = Z[Z_REV + j]
        if card < 0:
            continue
        ps, po = card_terms(W, M, card)
        for i in range(6):
            W[32 + 6 * j + i] = W[10 + i]
        e = card_ev(M, card, ps, po, True, ip, pp)
        if e > bv:
            bv = e
            best = j
            ties = 1
        elif e == bv:
            ties += 1
            if rb(ST, p, ties) == 0:
                best = j
    for i in range(6):                  # the target's per-colour terms in W[10..15]
        W[10 + i] = W[32 + 6 * best + i]
    return best


# --- choices --------------------------------------------------------------
@njit(cache=True, _nrt=False, inline="always")
def choose_place(pol, S, F, Z, M, ST, p, W, ip, pp, ban):
    """The rune kind seat p places, or -1 (nothing placeable)."""
    n = placeable(S, p, ban)
    if n == 0:
        return -1
    if pol == POL_RANDOM:
        r = rb(ST, p, n)
        for k in range(12):
            if ban[k] != BAN_FORBID:
                r -= S[p, C_H + k]
                if r < 0:
                    return k
        return -1
    view(S, F, Z, p, W)
    j = target_card(S, Z, M, ST, p, W, ip, pp)
    card = Z[Z_REV + j]
    # card_ev's terms that do not depend on the rune (the same expression)
    gain = M[card, M_PTS] * 1.0
    gvn = gain + effect_value(M[card, M_NEFF], M[card, M_NEFF + 1], pp)
    gvo = gain + effect_value(M[card, M_OEFF], M[card, M_OEFF + 1], pp)
    fl = ip[P_FAIL]
    best = -1
    bv = -1e300
    bps = 0.0
    ties = 0
    for k in range(12):
        if S[p, C_H + k] == 0 or ban[k] == BAN_FORBID:
            continue
        ps, po = shifted(W, M, card, KIND_COLOUR[k], KIND_VALUE[k])
        e = (ps - po) * gvn + po * gvo - (1.0 - ps) * fl
        if e > bv:
            bv = e
            best = k
            bps = ps
            ties = 1
        elif e == bv:
            ties += 1
            if rb(ST, p, ties) == 0:
                best = k
                bps = ps
    if pol == POL_SABOTEUR and bps < pp[Q_JOIN]:
        # no hope for itself: negative runes where the revealed cards need most
        best = -1
        bv = -1e300
        ties = 0
        for k in range(12):
            if S[p, C_H + k] == 0 or ban[k] == BAN_FORBID:
                continue
            c = KIND_COLOUR[k]
            need = 1
            for jj in range(2):
                if Z[Z_REV + jj] >= 0:
                    need += M[Z[Z_REV + jj], M_BASE + c]
            e = -1.0 * KIND_VALUE[k] * need
            if e > bv:
                bv = e
                best = k
                ties = 1
            elif e == bv:
                ties += 1
                if rb(ST, p, ties) == 0:
                    best = k
    return best


@njit(cache=True, _nrt=False)
def choose_peek(pol, S, F, Z, ST, p, P):
    """A field slot of another seat's face-down rune, or -1."""
    bit = np.int64(1) << p
    if pol == POL_RANDOM:
        n = 0
        for i in range(Z[Z_FN]):
            if F[F_KIND, i] >= 0 and F[F_OWNER, i] != p:
                n += 1
        if n == 0:
            return -1
        r = rb(ST, p, n)
        for i in range(Z[Z_FN]):
            if F[F_KIND, i] >= 0 and F[F_OWNER, i] != p:
                if r == 0:
                    return i
                r -= 1
        return -1
    # the column it knows least: most runes unknown to p (ties uniform);
    # the unknown runes per column counted in one pass, 10 bits per seat
    per = np.int64(0)
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and (F[F_KNOW, i] & bit) == 0:
            per += np.int64(1) << (10 * F[F_OWNER, i])
    bq = -1
    bn = 0
    ties = 0
    for q in range(P):
        if q == p:
            continue
        n = (per >> (10 * q)) & 1023
        if n > bn:
            bn = n
            bq = q
            ties = 1
        elif n == bn and n > 0:
            ties += 1
            if rb(ST, p, ties) == 0:
                bq = q
    if bq < 0:
        return -1
    r = rb(ST, p, bn)
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and F[F_OWNER, i] == bq and (F[F_KNOW, i] & bit) == 0:
            if r == 0:
                return i
            r -= 1
    return -1


@njit(cache=True, _nrt=False)
def dissolve_target(pol, S, F, Z, M, ST, p, W, ip, pp, minv):
    """A known field rune worth removing for p, of absolute value >= minv,
    or -1. Counter (and a saboteur that hopes): the most negative rune in a
    colour its target card needs; saboteur without hope: the largest
    positive rune where the revealed cards need most."""
    bit = np.int64(1) << p
    seen = False                        # any known rune that could qualify?
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k >= 0 and (F[F_KNOW, i] & bit) != 0 and abs(KIND_VALUE[k]) >= minv and (
                KIND_VALUE[k] < 0 or pol == POL_SABOTEUR):
            seen = True
            break
    if not seen:
        return -1
    view(S, F, Z, p, W)
    j = target_card(S, Z, M, ST, p, W, ip, pp)
    card = Z[Z_REV + j]
    ps = W[10] * W[11] * W[12]
    sab = pol == POL_SABOTEUR and ps < pp[Q_JOIN]
    best = -1
    bv = 0.0
    ties = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0 or (F[F_KNOW, i] & bit) == 0:
            continue
        v = KIND_VALUE[k]
        c = KIND_COLOUR[k]
        if abs(v) < minv:
            continue
        if sab:
            need = 0
            for jj in range(2):
                if Z[Z_REV + jj] >= 0:
                    need += M[Z[Z_REV + jj], M_BASE + c]
            e = 1.0 * v * need if v > 0 else 0.0
        else:
            e = -1.0 * v if (v < 0 and M[card, M_BASE + c] > 0) else 0.0
        if e <= 0.0:
            continue
        if e > bv:
            bv = e
            best = i
            ties = 1
        elif e == bv:
            ties += 1
            if rb(ST, p, ties) == 0:
                best = i
    return best


@njit(cache=True, _nrt=False)
def discard_n(pol, S, Z, ST, p, n, why, tr, on):
    """Seat p discards n cards of its choice (all it has when fewer):
    random: a uniform subset; counter/saboteur: lowest keep score first,
    ties uniform over the tied cards."""
    n = min(n, S[p, C_HN])
    if n <= 0:
        return
    for _ in range(n):
        k = -1
        if pol == POL_RANDOM:
            r = rb(ST, p, S[p, C_HN])
            for kk in range(NK):
                r -= S[p, C_H + kk]
                if r < 0:
                    k = kk
                    break
        else:
            row = 0 if pol != POL_SABOTEUR else 1
            lo = 1e300
            tot = 0
            for kk in range(NK):
                if S[p, C_H + kk] > 0:
                    s = KEEP[row, kk]
                    if s < lo:
                        lo = s
                        tot = S[p, C_H + kk]
                    elif s == lo:
                        tot += S[p, C_H + kk]
            r = rb(ST, p, tot)
            for kk in range(NK):
                if S[p, C_H + kk] > 0 and KEEP[row, kk] == lo:
                    r -= S[p, C_H + kk]
                    if r < 0:
                        k = kk
                        break
        hand_to_discard(S, Z, p, k)
        if on:
            ev(tr, Z, E_DISCARD, p, k, why, 0, 0, 0)


@njit(cache=True, _nrt=False, inline="always")
def wants_start(pol, S, F, Z, M, ST, p, W, ip, pp):
    """The revealed slot seat p starts a resonance on, or -1."""
    Z[Z_DEC] += 1
    if pol == POL_RANDOM:
        if ru(ST, p) < pp[Q_PSTART]:
            j = rb(ST, p, np.int64(2))
            if Z[Z_REV + j] < 0:
                j = 1 - j
            return j
        return -1
    view(S, F, Z, p, W)
    best = -1
    bv = -1e300
    ties = 0
    for j in range(2):
        card = Z[Z_REV + j]
        if card < 0:
            continue
        ps = chance(W, M, card, np.int64(M_BASE))
        if ps < pp[Q_START]:
            continue
        po = chance(W, M, card, np.int64(M_OVER))
        if po > pp[Q_RISK]:
            continue
        e = card_ev(M, card, ps, po, True, ip, pp)
        if e > bv:
            bv = e
            best = j
            ties = 1
        elif e == bv:
            ties += 1
            if rb(ST, p, ties) == 0:
                best = j
    return best


@njit(cache=True, _nrt=False)
def wants_join(pol, S, F, Z, M, ST, q, W, card, ip, pp):
    Z[Z_DEC] += 1
    if pol == POL_RANDOM:
        return ru(ST, q) < pp[Q_PJOIN]
    view(S, F, Z, q, W)
    if chance(W, M, card, np.int64(M_BASE)) < pp[Q_JOIN]:
        return False
    return chance(W, M, card, np.int64(M_OVER)) <= pp[Q_RISK]


# --- actions --------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def place(S, F, Z, p, k, masks, counts, tr, on):
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


@njit(cache=True, _nrt=False)
def peek(S, F, Z, p, i, by_magic, tr, on):
    F[F_KNOW, i] |= np.int64(1) << p
    S[p, C_PEEKS] += 1
    if on:
        ev(tr, Z, E_PEEK, p, i, F[F_KIND, i], F[F_OWNER, i], by_magic, 0)


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def dissolve_redraw(S, pile, Z, p, masks, counts, tr, on):
    """A dissolve card is discarded to draw 1 card."""
    hand_to_discard(S, Z, p, np.int64(DISSOLVE))
    S[p, C_DISS] += 1
    setbit(masks, p, 1, DISSOLVE)
    counts[1, DISSOLVE] += 1
    if on:
        ev(tr, Z, E_REDRAW, p, 0, 0, 0, 0, 0)
    draw1(S, pile, Z, p, masks, counts, tr, on, np.int64(1))


@njit(cache=True, _nrt=False)
def use_magic(pol, S, F, pile, Z, M, ST, p, card, W, ip, pp, masks, counts, tr, on):
    """Seat p spends magic card ``card``'s use effect (once): DRAW n cards;
    PEEK n runes (its peek choice, fewer when none is left to see);
    DISSOLVE n known runes (its dissolve choice, random: uniform among all
    face-down runes)."""
    S[p, C_USED] |= np.int64(1) << card
    S[p, C_USES] += 1
    u = M[card, M_UEFF]
    n = M[card, M_UEFF + 1]
    if on:
        ev(tr, Z, E_USE, p, card, u, n, 0, 0)
    for _ in range(n):
        if u == U_DRAW:
            draw1(S, pile, Z, p, masks, counts, tr, on, np.int64(3))
        elif u == U_PEEK:
            i = choose_peek(pol, S, F, Z, ST, p, S.shape[0])
            if i >= 0:
                Z[Z_DEC] += 1           # a peek (the use itself is not counted)
                peek(S, F, Z, p, i, np.int64(1), tr, on)
        else:
            if pol == POL_RANDOM:
                m = 0
                for j in range(Z[Z_FN]):
                    if F[F_KIND, j] >= 0:
                        m += 1
                i = -1
                if m > 0:
                    r = rb(ST, p, m)
                    for j in range(Z[Z_FN]):
                        if F[F_KIND, j] >= 0:
                            if r == 0:
                                i = j
                                break
                            r -= 1
            else:
                i = dissolve_target(pol, S, F, Z, M, ST, p, W, ip, pp, 1.0)
            if i >= 0:
                dissolve_remove(S, F, Z, p, i, np.int64(1), masks, counts, tr, on)


@njit(cache=True, _nrt=False)
def usable(S, M, p, u):
    """The lowest magic card of p with use effect u not yet spent, or -1."""
    free = S[p, C_OWN] & ~S[p, C_USED]
    if free == 0:
        return -1
    for c in range(N_MAGIC):
        if (free >> c) & 1 and M[c, M_UEFF] == u:
            return c
    return -1


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def resonate(pol, S, F, pile, Z, MD, M, ST, p, j, force, W, ip, pp, masks, counts, tr, on):
    """Seat p starts a resonance on revealed slot j. The others still in,
    in turn order, join or not (``force`` >= 0: a mask of joining seats,
    for scenarios); the field is revealed and summed by colour; the outcome
    applies; the field is cleared and 2 magic cards are revealed. Returns
    the outcome: 0 fail, 1 normal, 2 overdraft."""
    P = S.shape[0]
    card = Z[Z_REV + j]
    other = Z[Z_REV + 1 - j]
    Z[Z_REV] = -1
    Z[Z_REV + 1] = -1
    if other >= 0:
        Z[Z_MDISC] += 1
    Z[Z_RES] += 1
    Z[Z_ROUND] += 1
    Z[Z_MCHO] |= np.int64(1) << card
    S[p, C_STARTED] += 1
    if on:
        ev(tr, Z, E_START, p, card, other, 0, 0, 0)
    part = np.int64(1) << p
    nj = 0
    q = p
    for _ in range(P - 1):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 0:
            continue
        if force >= 0:
            yes = ((force >> q) & 1) == 1
        else:
            yes = wants_join(pol[q], S, F, Z, M, ST, q, W, card, ip, pp)
        if yes:
            part |= np.int64(1) << q
            nj += 1
            S[q, C_JOINED] += 1
        if on:
            ev(tr, Z, E_JOIN, q, 1 if yes else 0, card, 0, 0, 0)
    Z[Z_JOINS] += nj
    Z[Z_MJOIN] |= np.int64(min(nj, 7)) << (3 * card)
    t0 = 0
    t1 = 0
    t2 = 0
    nr = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0:
            continue
        nr += 1
        c = KIND_COLOUR[k]
        if c == 0:
            t0 += KIND_VALUE[k]
        elif c == 1:
            t1 += KIND_VALUE[k]
        else:
            t2 += KIND_VALUE[k]
    if on:
        ev(tr, Z, E_TOTALS, p, t0, t1, t2, nr, 0)
    if t0 < M[card, M_BASE] or t1 < M[card, M_BASE + 1] or t2 < M[card, M_BASE + 2]:
        out = 0
    elif (t0 >= M[card, M_OVER] and t1 >= M[card, M_OVER + 1]
          and t2 >= M[card, M_OVER + 2]):
        out = 2
    else:
        out = 1
    if on:
        ev(tr, Z, E_OUTCOME, p, card, out, part, 0, 0)
    if out == 0:
        Z[Z_MDISC] += 1
        q = p
        for _ in range(P):
            if (part >> q) & 1:
                discard_n(pol[q], S, Z, ST, q, ip[P_FAIL], np.int64(WHY_FAIL), tr, on)
            q = q + 1 if q + 1 < P else 0
    else:
        Z[Z_SUCC] += 1
        Z[Z_MSUC] |= np.int64(1) << card
        S[p, C_SUCC] += 1
        if out == 2:
            Z[Z_OVERS] += 1
            Z[Z_MOVR] |= np.int64(1) << card
            S[p, C_OVER] += 1
        e = M[card, M_NEFF] if out == 1 else M[card, M_OEFF]
        n = M[card, M_NEFF + 1] if out == 1 else M[card, M_OEFF + 1]
        q = p
        for _ in range(P):
            if (part >> q) & 1:
                if q != p:
                    S[q, C_JOINOK] += 1
                if e == EF_GAIN:
                    g = min(n, Z[Z_SUPPLY])
                    S[q, C_MARK] += g
                    Z[Z_SUPPLY] -= g
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, g, 0, 0)
                elif e == EF_LOSE:
                    g = min(n, S[q, C_MARK])
                    S[q, C_MARK] -= g
                    Z[Z_SUPPLY] += g
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, g, 0, 0)
                elif e == EF_DRAW:
                    h0 = S[q, C_HN]
                    for _ in range(n):
                        draw1(S, pile, Z, q, masks, counts, tr, on, np.int64(2))
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, S[q, C_HN] - h0, 0, 0)
                elif e == EF_DISCARD:
                    h0 = S[q, C_HN]
                    discard_n(pol[q], S, Z, ST, q, n, np.int64(WHY_DISCARD), tr, on)
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, h0 - S[q, C_HN], 0, 0)
            elif e == EF_HIT and S[q, C_IN] == 1:
                h0 = S[q, C_HN]
                discard_n(pol[q], S, Z, ST, q, n, np.int64(WHY_HIT), tr, on)
                if on:
                    ev(tr, Z, E_EFFECT, q, e, n, h0 - S[q, C_HN], 0, 0)
            q = q + 1 if q + 1 < P else 0
        S[p, C_OWN] |= np.int64(1) << card
        S[p, C_MN] += 1
        S[p, C_MPTS] += M[card, M_PTS]
        Z[Z_ACQ] += 1
        if on:
            ev(tr, Z, E_AWARD, p, card, 0, 0, 0, 0)
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k >= 0:
            Z[Z_DISC + k] += 1
    Z[Z_FN] = 0
    reveal(Z, MD, np.int64(0), tr, on)
    reveal(Z, MD, np.int64(1), tr, on)
    if on:
        hand_state(S, Z, P, tr)
    return out


@njit(cache=True, _nrt=False)
def heuristic_uses(pol, S, F, pile, Z, M, ST, p, W, ip, pp, ban, masks, counts, tr, on):
    """Counter/saboteur, before placing: spend DRAW magic cards, a DISSOLVE
    magic card when a known rune is worth removing, and one dissolve card
    from hand on a known rune of absolute value >= dissolve_value (keeping
    at least one card). Returns an end reason or -1."""
    P = S.shape[0]
    while True:
        c = usable(S, M, p, np.int64(U_DRAW))
        if c < 0:
            break
        use_magic(pol, S, F, pile, Z, M, ST, p, c, W, ip, pp, masks, counts, tr, on)
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    c = usable(S, M, p, np.int64(U_DISSOLVE))
    if c >= 0 and dissolve_target(pol, S, F, Z, M, ST, p, W, ip, pp, 1.0) >= 0:
        use_magic(pol, S, F, pile, Z, M, ST, p, c, W, ip, pp, masks, counts, tr, on)
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    if S[p, C_H + DISSOLVE] > 0 and S[p, C_HN] >= 2 and ban[DISSOLVE] != BAN_FORBID:
        i = dissolve_target(pol, S, F, Z, M, ST, p, W, ip, pp, pp[Q_DISSV])
        if i >= 0:
            dissolve_remove(S, F, Z, p, i, np.int64(0), masks, counts, tr, on)
            e = check_end(S, Z, ip, P, tr, on)
            if e >= 0:
                return e
    return -1


@njit(cache=True, _nrt=False, inline="always")
def turn(pol, S, F, pile, Z, MD, M, ST, p, W, ip, pp, ban, masks, counts, tr, on):
    """Seat p's personal phase (draw, magic and dissolve uses, place, peek)
    then its resonance phase. The end is checked after every action.
    Returns an end reason or -1; Z[Z_NEXT] = the seat to play next."""
    P = S.shape[0]
    mine = pol[p]
    Z[Z_NEXT] = -1
    if on:
        ev(tr, Z, E_TURN, p, Z[Z_ROUND], S[p, C_HN], S[p, C_MARK], S[p, C_MPTS], 0)
    draw1(S, pile, Z, p, masks, counts, tr, on, np.int64(0))
    e = check_end(S, Z, ip, P, tr, on)
    if e >= 0:
        return e
    if mine != POL_RANDOM and ((S[p, C_OWN] & ~S[p, C_USED]) != 0 or (
            S[p, C_H + DISSOLVE] > 0 and S[p, C_HN] >= 2 and ban[DISSOLVE] != BAN_FORBID)):
        # (heuristic_uses does nothing, and draws no number, otherwise)
        e = heuristic_uses(mine, S, F, pile, Z, M, ST, p, W, ip, pp, ban, masks, counts, tr, on)
        if e >= 0:
            return e
    if placeable(S, p, ban) == 0 and S[p, C_H + DISSOLVE] > 0 and ban[DISSOLVE] != BAN_FORBID:
        dissolve_redraw(S, pile, Z, p, masks, counts, tr, on)      # forced
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    k = choose_place(mine, S, F, Z, M, ST, p, W, ip, pp, ban)
    if k >= 0:
        Z[Z_DEC] += 1
        place(S, F, Z, p, k, masks, counts, tr, on)
    elif on:
        ev(tr, Z, E_NOPLACE, p, 0, 0, 0, 0, 0)
    e = check_end(S, Z, ip, P, tr, on)
    if e >= 0 or S[p, C_IN] == 0:
        return e
    i = choose_peek(mine, S, F, Z, ST, p, P)
    if i >= 0:
        Z[Z_DEC] += 1
        peek(S, F, Z, p, i, np.int64(0), tr, on)
    if mine != POL_RANDOM and (S[p, C_OWN] & ~S[p, C_USED]) != 0:
        while True:
            c = usable(S, M, p, np.int64(U_PEEK))
            if c < 0 or choose_peek(mine, S, F, Z, ST, p, P) < 0:
                break
            use_magic(mine, S, F, pile, Z, M, ST, p, c, W, ip, pp, masks, counts, tr, on)
    j = wants_start(mine, S, F, Z, M, ST, p, W, ip, pp)
    if j < 0:
        if on:
            ev(tr, Z, E_NOSTART, p, 0, 0, 0, 0, 0)
        return -1
    out = resonate(pol, S, F, pile, Z, MD, M, ST, p, j, np.int64(-1), W, ip, pp, masks, counts, tr, on)
    e = check_end(S, Z, ip, P, tr, on)
    if out > 0 and S[p, C_IN] == 1:
        Z[Z_NEXT] = p           # a success: the initiator starts the next round
    return e


@njit(cache=True, _nrt=False)
def broken_invariants(S, F, Z, MD, ip, P):
    """Check mode: rune cards conserved across deck, discard pile, hands and
    field; markers supply + held = markers; magic cards conserved; hands
    consistent; out seats hold nothing."""
    bad = 0
    n = Z[Z_DECK]
    for k in range(NK):
        n += Z[Z_DISC + k]
        if Z[Z_DISC + k] < 0:
            bad += 1
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0:
            n += 1
    mk = Z[Z_SUPPLY]
    acq = 0
    for q in range(P):
        h = 0
        for k in range(NK):
            h += S[q, C_H + k]
            if S[q, C_H + k] < 0:
                bad += 1
        if h != S[q, C_HN]:
            bad += 1
        if S[q, C_IN] == 0 and h != 0:
            bad += 1
        n += h
        mk += S[q, C_MARK]
        if S[q, C_MARK] < 0:
            bad += 1
        acq += S[q, C_MN]
    if n != Z[Z_NTOT]:
        bad += 1
    if mk != ip[P_MARKERS] or Z[Z_SUPPLY] < 0:
        bad += 1
    rev = 0
    for j in range(2):
        if Z[Z_REV + j] >= 0:
            rev += 1
    if Z[Z_MD] + rev + Z[Z_MDISC] + acq != N_MAGIC or acq != Z[Z_ACQ]:
        bad += 1
    return bad


@njit(cache=True, _nrt=False)
def fill_deck(ip, ban, pile, Z):
    """The unshuffled rune deck (per batch): removed kinds left out."""
    n = 0
    for k in range(NK):
        c = ip[P_COPY + (4 if k == DISSOLVE else k % 4)]
        if ban[k] == BAN_REMOVE:
            c = 0
        Z[Z_TOT + k] = c
        for _ in range(c):
            pile[1, n] = k
            n += 1
    Z[Z_NC] = n


@njit(cache=True, _nrt=False)
def start(seed, game, st, ST, S, F, pile, Z, MD, masks, counts, tr, on, ip, P):
    """Deal: shuffle both decks (game stream), seed the seats' streams, deal
    hand_size cards to each seat in seat order, reveal 2 magic cards."""
    st[0] = game_state(seed, game)
    for p in range(P):
        ST[p] = mix64(st[0] ^ (np.uint64(p + 1) * SEAT_MIX))
    for i in range(NZ):
        if i != Z_NC and not (Z_TOT <= i < Z_TOT + NK):
            Z[i] = 0
    n = Z[Z_NC]
    for i in range(n):
        pile[0, i] = pile[1, i]
    Z[Z_DECK] = n
    Z[Z_NTOT] = n
    shuffle(st, pile[0], n)
    for i in range(N_MAGIC):
        MD[i] = i
    shuffle(st, MD, np.int64(N_MAGIC))
    Z[Z_MD] = N_MAGIC
    Z[Z_SUPPLY] = ip[P_MARKERS]
    Z[Z_ROUND] = 1
    Z[Z_REV] = -1
    Z[Z_REV + 1] = -1
    for p in range(P):
        for j in range(S.shape[1]):
            S[p, j] = 0
        S[p, C_IN] = 1
        S[p, C_OUT] = -1
    for p in range(P):
        for _ in range(ip[P_HAND]):
            draw1(S, pile, Z, p, masks, counts, tr, on, np.int64(-1))
    reveal(Z, MD, np.int64(0), tr, on)
    reveal(Z, MD, np.int64(1), tr, on)


@njit(cache=True, _nrt=False)
def finish(S, Z, M, tr, on, P, end, turns, grow, srow):
    """Scores (markers + magic points + cards in hand), the winners
    (highest score, ties to magic points, then shared), the records."""
    best = -1
    bm = -1
    for q in range(P):
        sc = S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN]
        if sc > best or (sc == best and S[q, C_MPTS] > bm):
            best = sc
            bm = S[q, C_MPTS]
    mask = np.int64(0)
    nw = 0
    if end != END_CAP:
        for q in range(P):
            if S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN] == best and S[q, C_MPTS] == bm:
                mask |= np.int64(1) << q
                nw += 1
    winner = -1
    if nw == 1:
        for q in range(P):
            if (mask >> q) & 1:
                winner = q
    if on:
        for q in range(P):
            ev(tr, Z, E_SCORE, q, S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN], S[q, C_MARK],
               S[q, C_MPTS], S[q, C_HN], 0)
        ev(tr, Z, E_END, winner, end, turns, Z[Z_ROUND], mask, 0)
    grow[G_WINNER] = winner
    grow[G_TURNS] = turns
    grow[G_ROUNDS] = Z[Z_ROUND]
    grow[G_END] = end
    grow[G_DEC] = Z[Z_DEC]
    grow[G_RES] = Z[Z_RES]
    grow[G_SUCC] = Z[Z_SUCC]
    grow[G_OVER] = Z[Z_OVERS]
    grow[G_JOINS] = Z[Z_JOINS]
    dis = 0
    uses = 0
    for q in range(P):
        dis += S[q, C_DISS]
        uses += S[q, C_USES]
    grow[G_DISS] = dis
    grow[G_USES] = uses
    grow[G_MREV] = Z[Z_MREV]
    grow[G_MCHO] = Z[Z_MCHO]
    grow[G_MSUC] = Z[Z_MSUC]
    grow[G_MOVR] = Z[Z_MOVR]
    grow[G_MJOIN] = Z[Z_MJOIN]
    for q in range(P):
        srow[q, S_SCORE] = S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN]
        srow[q, S_MARKERS] = S[q, C_MARK]
        srow[q, S_MAGIC_POINTS] = S[q, C_MPTS]
        srow[q, S_CARDS_LEFT] = S[q, C_HN]
        srow[q, S_MAGIC_CARDS] = S[q, C_MN]
        srow[q, S_MAGIC_OWNED] = S[q, C_OWN]
        srow[q, S_WON] = (mask >> q) & 1
        srow[q, S_OUT_TURN] = S[q, C_OUT]
        srow[q, S_STARTED] = S[q, C_STARTED]
        srow[q, S_SUCCEEDED] = S[q, C_SUCC]
        srow[q, S_OVERDRAFTED] = S[q, C_OVER]
        srow[q, S_JOINED] = S[q, C_JOINED]
        srow[q, S_JOINED_OK] = S[q, C_JOINOK]
        srow[q, S_PLACED] = S[q, C_PLACED]
        srow[q, S_PEEKS] = S[q, C_PEEKS]
        srow[q, S_DISSOLVES] = S[q, C_DISS]
        srow[q, S_MAGIC_USED] = S[q, C_USES]


@njit(cache=True, _nrt=False)
def play_from(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban, masks, counts, tr, on,
              check, cur, turns, grow, srow):
    """Play from seat ``cur``'s turn (``turns`` already played) to the end;
    fill the records. Returns the broken invariants found (check mode)."""
    P = S.shape[0]
    maxt = ip[P_MAXT]
    errors = 0
    end = check_end(S, Z, ip, P, tr, on)      # a deal that emptied the deck
    if end < 0:
        end = END_CAP
        while turns < maxt:
            turns += 1
            Z[Z_TURN] = turns
            e = turn(pol, S, F, pile, Z, MD, M, ST, cur, W, ip, pp, ban, masks, counts, tr, on)
            if check:
                errors += broken_invariants(S, F, Z, MD, ip, P)
            if e >= 0:
                end = e
                break
            nxt = Z[Z_NEXT]
            cur = nxt if nxt >= 0 else next_in(S, cur, P)
    finish(S, Z, M, tr, on, P, end, turns, grow, srow)
    return errors


def work(P):
    """One thread's workspace (allocated in Python: the kernels allocate nothing)."""
    return (np.zeros(1, np.uint64), np.zeros(P, np.uint64), np.zeros((P, NS), np.int64),
            np.zeros((3, NC_MAX), np.int64), np.zeros((2, NC_MAX), np.int64),
            np.zeros(NZ, np.int64), np.zeros(N_MAGIC, np.int64), np.zeros(48, np.float64),
            np.zeros((1, 8), np.int64))


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, M, check, games, seats,
              masks, counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, pol, ip, pp, ban, M, check, games, seats, masks,
                counts, errors, *work(int(P)))


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, g0, n_games, pol, ip, pp, ban, M, check, games, seats, masks,
                counts, errors, st, ST, S, F, pile, Z, MD, W, tr):
    """One game: the deal, then ``play_from`` seat 0 (no play_game level:
    each njit level optimizes its whole call tree once more)."""
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            start(seed, g0 + g, st, ST, S, F, pile, Z, MD, masks[g], counts[b], tr, False, ip, P)
            e = 0
            if check:
                e += broken_invariants(S, F, Z, MD, ip, P)
            errors[g] = e + play_from(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban,
                                      masks[g], counts[b], tr, False, check, np.int64(0), np.int64(0), games[g],
                                      seats[g])


def trace_one(seed, game, P, pol, ip, pp, ban, M, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    st, ST, S, F, pile, Z, MD, W, _ = work(int(P))
    return _trace_one(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
                      st, ST, S, F, pile, Z, MD, W)


@njit(cache=True, _nrt=False)
def _trace_one(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
               st, ST, S, F, pile, Z, MD, W):
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    start(seed, game, st, ST, S, F, pile, Z, MD, masks[0], counts[0], tr, True, ip, P)
    play_from(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban, masks[0], counts[0], tr, True,
              False, np.int64(0), np.int64(0), games[0], seats[0])
    return Z[Z_TR]


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one}

jit.kernel_cache_end()
