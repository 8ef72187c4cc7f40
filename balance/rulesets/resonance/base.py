"""Magic Resonance kernel, part 1: the state and the rules' mechanics.

The per-seat random streams, the zones (draw, discard, reveal), a seat's
view and the probabilities the heuristics read from it, the single
actions (place, peek, dissolve), the end checks, the invariants of check
mode, the deal and the final scores. ``kernel``'s docstring describes the
state arrays; the policies are in ``policy``, the turn in ``turn``, the
search policy in ``search``.
"""
import math

import numpy as np
from balance.core.compiled import compiled, ir_inlined

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from ...core.rng import GAMMA, game_state, mix64, shuffle
from .layout import (C_DISS, C_H, C_HN, C_IN, C_JOINED, C_JOINOK, C_MARK, C_MN, C_MPTS,
                     C_OUT, C_OVER, C_OWN, C_PEEKS, C_PLACED, C_STARTED, C_SUCC, C_USED,
                     C_USES, DISSOLVE, E_DEAL, E_DISSOLVE, E_DRAW, E_DRY,
                     E_END, E_HAND, E_OUT, E_PEEK, E_PLACE, E_REDRAW, E_REVEAL, E_SCORE,
                     E_STATE, EF_DISCARD, EF_DRAW, EF_GAIN, EF_LOSE, END_CAP,
                     END_MAGIC, END_PLAYER, END_PLAYERS, END_RUNES, END_TOTAL, F_KIND, F_KNOW,
                     F_OWNER, GAME_COLUMNS, M_BASE, M_NEFF, M_OEFF, M_OVER, M_PTS, M_UEFF,
                     N_MAGIC, NK, NZ, SEAT_COLUMNS, Z_ACQ, Z_DEC, Z_DECK,
                     Z_DISC, Z_DRY, Z_DRYM, Z_FN, Z_JOINS, Z_MCHO, Z_MD, Z_MDISC, Z_MJOIN,
                     Z_MOVR, Z_MREV, Z_MSUC, Z_NC, Z_NTOT, Z_OVERS, Z_RES, Z_REV,
                     Z_ROUND, Z_SUCC, Z_SUPPLY, Z_TOT, Z_TURN)
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


@compiled
def ru(ST, p):
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
    setbit(masks, p, 0, k)
    counts[0, k] += 1
    if on:
        ev(tr, Z, E_DEAL if why < 0 else E_DRAW, p, k, why, 0, 0, 0)
    return k


@compiled
def hand_to_discard(S, Z, p, k):
    S[p, C_H + k] -= 1
    S[p, C_HN] -= 1
    Z[Z_DISC + k] += 1


@compiled
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


@compiled
def next_in(S, p, P):
    q = p
    for _ in range(P):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 1:
            return q
    return p


@compiled
def placeable(S, p, ban):
    n = 0
    for k in range(12):
        if ban[k] != BAN_FORBID:
            n += S[p, C_H + k]
    return n


# --- a seat's view --------------------------------------------------------------
@compiled
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


@compiled
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


@ir_inlined
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


@compiled
def chance(W, M, card, col):
    """P(every colour >= the requirement in columns col..col+2 of the card)
    (``col`` = M_BASE: success, M_OVER: overdraft); stops at the first 0."""
    pr = 1.0
    for c in range(3):
        pr *= term(W[c] + W[3 + c], W[6 + c], M[card, col + c])
        if pr == 0.0:
            break
    return pr


@ir_inlined
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


@compiled
def effect_value(e, n, pp):
    if e == EF_GAIN or e == EF_DRAW:
        return 1.0 * n
    if e == EF_LOSE or e == EF_DISCARD:
        return -1.0 * n
    return n * pp[Q_HIT]


@compiled
def card_ev(M, card, ps, po, initiator, ip, pp):
    """Expected points of taking part (the initiator also takes the card)."""
    gain = M[card, M_PTS] * 1.0 if initiator else 0.0
    vn = effect_value(M[card, M_NEFF], M[card, M_NEFF + 1], pp)
    vo = effect_value(M[card, M_OEFF], M[card, M_OEFF + 1], pp)
    return (ps - po) * (gain + vn) + po * (gain + vo) - (1.0 - ps) * ip[P_FAIL]


# --- actions --------------------------------------------------------------------
@compiled
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


@compiled
def peek(S, F, Z, p, i, by_magic, tr, on):
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


@compiled
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


@compiled
def start(s, c, seed, game, masks, counts, tr, on):
    """Deal game ``game`` of ``seed`` into ``s`` (a ``state.State``; the
    batch's unshuffled deck already in ``pile[1]``) by the rules in ``c.ip``
    (``c`` a ``state.Ctx``): shuffle both decks (game stream), seed the
    seats' streams, deal hand_size cards to each seat in seat order, reveal
    2 magic cards."""
    st, ST, S, pile, Z, MD, ip = s.st, s.ST, s.S, s.pile, s.Z, s.MD, c.ip
    P = S.shape[0]
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


@compiled
def winners(S, P, end):
    """Bitmask of the winners: highest score (markers + magic points + cards
    in hand), ties to magic points, then shared; none in a capped game."""
    best = -1
    bm = -1
    for q in range(P):
        sc = S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN]
        if sc > best or (sc == best and S[q, C_MPTS] > bm):
            best = sc
            bm = S[q, C_MPTS]
    mask = np.int64(0)
    if end != END_CAP:
        for q in range(P):
            if S[q, C_MARK] + S[q, C_MPTS] + S[q, C_HN] == best and S[q, C_MPTS] == bm:
                mask |= np.int64(1) << q
    return mask


@compiled
def finish(S, Z, M, tr, on, P, end, turns, grow, srow):
    """Scores, the winners (``winners``), the records."""
    mask = winners(S, P, end)
    nw = 0
    for q in range(P):
        nw += (mask >> q) & 1
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


jit.kernel_cache_end()
