"""The rule parts around the game: one game's dealing (``init_game``),
first seat, invariant checks (``check_state``) and records (``finish``),
which the step machine (``step``) calls, and ``entry``, the scenarios'
and tests' entry point (its modes are ``layout.M_*``: a turn or an
exchange played whole, a Judgment, a hit, a duel, ...). The game loop is
the engine's (``core.engine.loop``, bound in ``kernel``).

Dealing is a rule step (the step interface's ``deal``), not part of the
state: it draws from the game's stream and puts characters into play
(``step_v12.init_general``).
"""
import numpy as np
from balance.core.compiled import compiled, internal

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ....core.rng import below, game_state, shuffle
from ..layout import (CA_EXCH, C_ALIVE, C_BUYS, C_DEALT, C_DEATHS, C_DIAM, C_DQ, C_DUELL, C_DUELW,
                      C_FB, C_FRAMES, C_FT, C_G, C_GEN, C_H, C_HEALED, C_HN, C_HP, C_JUDGS, C_KEY,
                      C_KILLS, C_LOST, C_M, C_MAXHP, C_NBLOOD, C_NDEV, C_NEXT, C_NFRZ, C_NIGN,
                      C_NMINE, C_NRAMP, C_NREF, C_NSTEAL, C_OUT, C_PEND, C_POL, C_POUCHU, C_RANK,
                      C_REVUSED, C_RM, C_ROLE, C_ROLESUIT, C_SCORE, C_SKILLS, C_STORMU,
                      C_SUIT, C_TAKEN, C_TB, C_TEAM, C_ZMB, E_END,
                      E_IDENT, G_BBIRD, G_BDRG, G_BKIT, G_BLEO, G_CAPS, G_CONTROLS, G_DCAPS,
                      G_DECOYHITS, G_DODGE, G_DUELS, G_D_EXCH, G_END, G_EXCH, G_FRAMES,
                      G_GIFTS, G_JKILL, G_JSELF, G_JUDG, G_KILLS, G_KITSAVE, G_KPTS, G_LAST,
                      G_MAXCH, G_MHIT, G_OPTS, G_POUCHES, G_RBLOCK, G_REFL, G_RESP, G_REVIVES,
                      G_ROUNDS, G_SHIELDS, G_STORMS, G_TEAMWIN, G_TURNS, G_WINNER, G_ZOMB,
                      M_CHECK, M_DRAW, M_DUEL, M_EXCHANGE, M_GENERAL, M_HIT, M_INIT, M_JUDGMENT,
                      M_NEXT, M_SAT, M_START, M_TURN, NZ, POL_GREEDY, POL_SEARCH0, P_BAN,
                      P_DECKS, P_DIAM0, P_GENS, P_START, P_TEAMS, P_VERSION, S_BLOOD,
                      S_BUYS, S_DEALT, S_DEATHS, S_DEV, S_DIAM, S_DUELL, S_DUELW, S_EXT, S_FRAMES,
                      S_FRZ, S_HAND, S_HEALED, S_HP, S_IGN, S_JUDGS, S_KILLS, S_LOST, S_MAXHP,
                      S_MINE, S_OUT, S_POUCHU, S_RAMP, S_REFL, S_REVIVES, S_ROLE, S_SCORE,
                      S_SKILLS, S_STEAL, S_STORMU, S_SUIT, S_TAKEN, S_TEAM, S_TEAMWON, S_ZOMBIE,
                      Z_BBIRD, Z_BDRG, Z_BKIT, Z_BLEO, Z_CAPS, Z_CONTROLS, Z_D0, Z_DCAPS,
                      Z_DECK, Z_DECOYHITS, Z_DISC, Z_DODGE, Z_DUELS, Z_EXCH, Z_FM, Z_FORB,
                      Z_FRAMES, Z_GIFTS, Z_IDC, Z_JKILL, Z_JSELF, Z_JUDG, Z_KILLS, Z_KITSAVE,
                      Z_KPTS, Z_MAXCH, Z_MHIT, Z_NC, Z_ON, Z_OPTS, Z_P, Z_PA, Z_POUCHES, Z_RBLOCK,
                      Z_REFL, Z_RESP, Z_REVIVES, Z_ROUNDS, Z_SHIELDS, Z_STORMS, Z_TEAMS,
                      Z_V, Z_ZOMB)
from .cards import SAT, draw, sat_add, sat_mul
from .step_duel import duel, resolve_duels
from .step_exchange import exchange, judgment, resolve_pending
from .step_turn import next_turn, turn, winner_of
from .step_v12 import init_general
from .step_v3 import draw_n3, hit3, turn_start3
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)

@internal
def check_state(S, Z):
    """Broken invariants now: cards conserved, hand counts and masks
    consistent, HP in (0, max HP] for characters in play."""
    err = 0
    tot = Z[Z_DECK] + Z[Z_DISC]
    for q in range(Z[Z_P]):
        hn = 0
        for s in range(4):
            m = 0
            for r in range(9):
                c = S[q, C_H + s * 9 + r]
                if c < 0:
                    err += 1
                hn += c
                if c > 0:
                    m |= 1 << r
            if m != S[q, C_M + s]:
                err += 1
        if hn != S[q, C_HN]:
            err += 1
        for kind in range(36):
            if S[q, C_RM + kind] > S[q, C_H + kind] or S[q, C_RM + kind] < 0:
                err += 1
        if S[q, C_PEND] == 1:
            err += 1             # the duel queue is empty between turns
        tot += S[q, C_HN]
        if S[q, C_ALIVE] == 1:
            if S[q, C_HP] > S[q, C_MAXHP] or S[q, C_HP] <= 0 or S[q, C_MAXHP] <= 0:
                err += 1
    if tot != Z[Z_NC]:
        err += 1
    return err


@internal
def init_game(s, c, seed, game, masks, counts, tr, on):
    """Deal game ``game`` of ``seed`` into ``s`` (``state.State``) for
    ``c``'s seats, policies and rules (``state.Ctx``: ``P``, ``pol``,
    ``ip``): shuffle the play deck, break exact identity ties, deal
    identities (v1: one each; v2: generals_per_player each, round-robin) and
    hands."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pol, P = c.ip, c.pol, c.P
    st[0] = game_state(seed, game)
    for j in range(NZ):
        Z[j] = 0
    Z[Z_ON] = 1 if on else 0
    Z[Z_P] = P
    Z[Z_V] = ip[P_VERSION]
    Z[Z_PA] = -1
    Z[Z_ROUNDS] = 1
    nd = ip[P_DECKS]
    n = 0
    for kind in range(36):
        b = ip[P_BAN + kind]
        if b == 2:
            Z[Z_FORB] = 1
            Z[Z_FM + kind // 9] |= np.int64(1) << (kind % 9)
        if b == 1:
            continue             # ban code 1: removed from the play deck
        for _ in range(nd):
            pile[0, n] = kind
            n += 1
    NC = n
    Z[Z_NC] = NC
    shuffle(st, pile[0], NC)
    Z[Z_DECK] = NC
    teams = ip[P_TEAMS] == 1 and P == 4 and Z[Z_V] == 2
    Z[Z_TEAMS] = 1 if teams else 0
    for p in range(P):
        for j in range(C_DQ):    # the duel pile after C_DQ is written before it is read
            S[p, j] = 0
        S[p, C_TB] = p
        S[p, C_POL] = pol[p]
        if pol[p] >= POL_SEARCH0:
            # a search policy (the engine's): the choices inside a step are greedy's
            S[p, C_POL] = POL_GREEDY
        S[p, C_TEAM] = p % 2 if teams else p
        S[p, C_ALIVE] = 1
        S[p, C_OUT] = -1
        S[p, C_FT] = -1
        S[p, C_FB] = -1
        for w in range(masks.shape[2]):
            masks[p, 0, w] = 0
            masks[p, 1, w] = 0
    # a random seat order breaks exact identity ties (same rank and suit)
    for i in range(P - 1, 0, -1):
        j = below(st, i + 1)
        t = S[i, C_TB]
        S[i, C_TB] = S[j, C_TB]
        S[j, C_TB] = t
    # identity cards: shuffled in the (still empty) discard row
    NI = 16 * nd
    n = 0
    for ident in range(16):
        for _ in range(nd):
            pile[1, n] = ident
            n += 1
    shuffle(st, pile[1], NI)
    ng = ip[P_GENS] if Z[Z_V] == 2 else 1
    top = NI - 1
    for j in range(ng):
        for p in range(P):
            S[p, C_G + j] = pile[1, top]
            top -= 1
    Z[Z_DISC] = 0
    if VARIANT == 3:
        for i in range(16):
            Z[Z_IDC + i] = nd
        for p in range(P):
            Z[Z_IDC + S[p, C_G]] -= 1
            S[p, C_DIAM] = ip[P_DIAM0]
    for p in range(P):
        S[p, C_GEN] = 0
        init_general(S, Z, ip, p)
        S[p, C_ROLE] = S[p, C_RANK]
        S[p, C_ROLESUIT] = S[p, C_SUIT]
        if Z[Z_ON]:
            ev(tr, Z, E_IDENT, p, S[p, C_G], S[p, C_HP], S[p, C_KEY], 0, 0)
    for p in range(P):
        for _ in range(ip[P_START]):
            draw(st, S, pile, Z, tr, masks, counts, p, np.int64(1))


@internal
def first_seat(S, Z):
    top = 0
    for q in range(1, Z[Z_P]):
        if S[q, C_KEY] > S[top, C_KEY]:
            top = q
    return top


@internal
def finish(S, Z, tr, end, turns, grow, srow):
    P = Z[Z_P]
    teams = Z[Z_TEAMS] == 1
    winner, last = winner_of(S, Z, end)
    # winner seat: the winning side's lowest seat (team id = lowest seat)
    grow[G_WINNER] = winner
    grow[G_TURNS] = turns
    grow[G_ROUNDS] = Z[Z_ROUNDS]
    grow[G_END] = end
    grow[G_LAST] = last
    grow[G_TEAMWIN] = winner if teams else -1
    grow[G_EXCH] = Z[Z_EXCH]
    grow[G_MAXCH] = Z[Z_MAXCH]
    grow[G_CAPS] = Z[Z_CAPS]
    grow[G_JUDG] = Z[Z_JUDG]
    grow[G_JKILL] = Z[Z_JKILL]
    grow[G_JSELF] = Z[Z_JSELF]
    grow[G_REVIVES] = Z[Z_REVIVES]
    grow[G_FRAMES] = Z[Z_FRAMES]
    grow[G_DECOYHITS] = Z[Z_DECOYHITS]
    grow[G_SHIELDS] = Z[Z_SHIELDS]
    grow[G_CONTROLS] = Z[Z_CONTROLS]
    grow[G_KPTS] = Z[Z_KPTS]
    grow[G_KILLS] = Z[Z_KILLS]
    for j in range(5):
        grow[G_D_EXCH + j] = Z[Z_D0 + j]
    grow[G_STORMS] = Z[Z_STORMS]
    grow[G_POUCHES] = Z[Z_POUCHES]
    grow[G_DUELS] = Z[Z_DUELS]
    grow[G_DCAPS] = Z[Z_DCAPS]
    grow[G_GIFTS] = Z[Z_GIFTS]
    grow[G_BLEO] = Z[Z_BLEO]
    grow[G_BDRG] = Z[Z_BDRG]
    grow[G_BBIRD] = Z[Z_BBIRD]
    grow[G_BKIT] = Z[Z_BKIT]
    grow[G_ZOMB] = Z[Z_ZOMB]
    grow[G_REFL] = Z[Z_REFL]
    grow[G_RBLOCK] = Z[Z_RBLOCK]
    grow[G_MHIT] = Z[Z_MHIT]
    grow[G_DODGE] = Z[Z_DODGE]
    grow[G_KITSAVE] = Z[Z_KITSAVE]
    grow[G_RESP] = Z[Z_RESP]
    grow[G_OPTS] = Z[Z_OPTS]
    for q in range(P):
        srow[q, S_ROLE] = S[q, C_ROLE]
        srow[q, S_SUIT] = S[q, C_ROLESUIT]
        srow[q, S_TEAM] = S[q, C_TEAM]
        srow[q, S_TEAMWON] = 1 if winner >= 0 and S[q, C_TEAM] == winner else 0
        srow[q, S_HP] = S[q, C_HP] if S[q, C_ALIVE] == 1 else 0
        srow[q, S_MAXHP] = max(S[q, C_MAXHP], 0)
        srow[q, S_SCORE] = S[q, C_SCORE]
        srow[q, S_KILLS] = S[q, C_KILLS]
        srow[q, S_LOST] = S[q, C_LOST]
        srow[q, S_OUT] = S[q, C_OUT]
        srow[q, S_REVIVES] = S[q, C_REVUSED]
        srow[q, S_FRAMES] = S[q, C_FRAMES]
        srow[q, S_SKILLS] = S[q, C_SKILLS]
        srow[q, S_JUDGS] = S[q, C_JUDGS]
        srow[q, S_DEALT] = S[q, C_DEALT]
        srow[q, S_TAKEN] = S[q, C_TAKEN]
        srow[q, S_HEALED] = S[q, C_HEALED]
        srow[q, S_HAND] = S[q, C_HN]
        srow[q, S_REFL] = S[q, C_NREF]
        srow[q, S_RAMP] = S[q, C_NRAMP]
        srow[q, S_DEV] = S[q, C_NDEV]
        srow[q, S_FRZ] = S[q, C_NFRZ]
        srow[q, S_BLOOD] = S[q, C_NBLOOD]
        srow[q, S_IGN] = S[q, C_NIGN]
        srow[q, S_EXT] = S[q, C_NEXT]
        srow[q, S_MINE] = S[q, C_NMINE]
        srow[q, S_STEAL] = S[q, C_NSTEAL]
        srow[q, S_STORMU] = S[q, C_STORMU]
        srow[q, S_POUCHU] = S[q, C_POUCHU]
        srow[q, S_DUELW] = S[q, C_DUELW]
        srow[q, S_DUELL] = S[q, C_DUELL]
        srow[q, S_DIAM] = S[q, C_DIAM]
        srow[q, S_BUYS] = S[q, C_BUYS]
        srow[q, S_ZOMBIE] = 1 if S[q, C_ZMB] > 0 else 0
        srow[q, S_DEATHS] = S[q, C_DEATHS]
    if Z[Z_ON]:
        ev(tr, Z, E_END, winner, end, turns, Z[Z_ROUNDS], last, 0)


@compiled
def entry(mode, s, c, seed, game, masks, counts, tr, grow, a, b, dmg):
    """The tests' and scenarios' steps on game ``s`` (``state.State``) with
    ``c``'s seats, rules, policies and script rows (``state.Ctx``), by
    ``mode`` (a whole game, traced or not, is ``play_blocks``'s:
    ``trace_one``): M_TURN: one turn of seat a; M_EXCHANGE: a sends dmg
    damage at b; M_JUDGMENT: seat a calls Judgment; M_NEXT: next seat after
    key a; M_GENERAL: make seat a's identity card b its character; M_CHECK:
    broken invariants now; M_SAT: saturating a x b (in grow[0]) and a + b
    (in grow[1]); M_INIT: deal game ``game`` of ``seed`` (trace when ``a``)
    without playing it; v3: M_HIT: dmg damage from b hits a, then the duel
    queue; M_DUEL: a duels b; M_DRAW: seat a draws b cards; M_START: the
    start of seat a's turn.
    Playing on to the end is ``run_from``'s, not a mode: the game loop is a
    second copy of the whole turn, which entry would otherwise compile for
    every scenario test (none plays on). A search level's choice is
    ``search.search_turn``'s, called from Python
    (``scenario.Table.search_play``): the entry has one specialisation, and
    a test suite compiles the engine once for it, not again with the search
    linked in."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    if mode == M_TURN:
        turn(s, c, masks, counts, tr, a)
        return 0
    if mode == M_EXCHANGE:
        n = exchange(s, c, masks, counts, tr, a, b, dmg)
        resolve_pending(s, c, masks, counts, tr)
        return n
    if mode == M_JUDGMENT:
        return judgment(s, c, masks, counts, tr, a)
    if mode == M_NEXT:
        q, w = next_turn(S, Z, a)
        return q * 2 + (1 if w else 0)
    if mode == M_GENERAL:
        S[a, C_GEN] = b
        init_general(S, Z, ip, a)
        return 0
    if mode == M_CHECK:
        return check_state(S, Z)
    if mode == M_INIT:
        init_game(s, c, seed, game, masks, counts, tr, a == 1)
        return 0
    if VARIANT == 3 and mode == M_HIT:
        # v3: dmg damage from b hits a (passives apply), then the duel queue
        hit3(st, S, pile, Z, tr, ip, pp, a, b, dmg, CA_EXCH, True)
        resolve_duels(s, c, masks, counts, tr)
        return 0
    if VARIANT == 3 and mode == M_DUEL:
        return duel(s, c, masks, counts, tr, a, b)
    if VARIANT == 3 and mode == M_DRAW:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, a, b)
        resolve_duels(s, c, masks, counts, tr)
        return 0
    if VARIANT == 3 and mode == M_START:
        turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, a)
        return 0
    if mode == M_SAT:
        grow[0] = sat_mul(a, b)
        grow[1] = sat_add(min(a, SAT), min(b, SAT))
        return 0
    return -1


jit.kernel_cache_end()
