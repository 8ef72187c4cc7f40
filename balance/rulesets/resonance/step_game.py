"""Magic Resonance's game frame, around the turns: the batch's unshuffled
rune deck, the deal, the invariants check mode verifies after every turn,
the winners, and the game's records (the final scores, the game and seat
columns of ``layout``, by name).

These run once a game (or once a batch), so they sit apart from the
turn's parts (``step_actions``, ``step_turn``); ``step`` and the scenario
game loop (``step_turn.play_from``) call them.
"""
import numpy as np
from balance.core.compiled import compiled

from ...core import jit
from ...core.kernel import BAN_REMOVE, ev  # before kernel_cache_begin
from ...core.layout import index
from ...core.rng import game_state, seat_streams, shuffle
from .layout import (C_DISS, C_H, C_HN, C_IN, C_JOINED, C_JOINOK, C_MARK, C_MN, C_MPTS,
                     C_OUT, C_OVER, C_OWN, C_PEEKS, C_PLACED, C_STARTED, C_SUCC, C_USES,
                     DISSOLVE, E_END, E_SCORE, END_CAP, F_KIND, GAME_COLUMNS, N_MAGIC, NK, NZ,
                     SEAT_COLUMNS, Z_ACQ, Z_DEC, Z_DECK, Z_DISC, Z_FN, Z_JOINS, Z_MCHO, Z_MD,
                     Z_MDISC, Z_MJOIN, Z_MOVR, Z_MREV, Z_MSUC, Z_NC, Z_NTOT, Z_OVERS, Z_RES,
                     Z_REV, Z_ROUND, Z_SUCC, Z_SUPPLY, Z_TOT)
from .state import P_COPY, P_HAND, P_MARKERS
from .state_zones import draw1, reveal

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

NG = len(GAME_COLUMNS)
NSEAT = len(SEAT_COLUMNS)

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
    seat_streams(ST, st[0])
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
