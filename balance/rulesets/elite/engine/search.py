"""The search policy (``search_fast``, ``search``, ``search_strong``;
``core.search``): determinized flat Monte Carlo over a seat's turn play,
entirely in the kernel.

At the turn play of a seat playing a search level (``search_turn``, which
the game loop calls instead of ``turn.turn``; every other decision of the
seat is greedy's), ``search_choice`` copies the decision point, lists the
candidates (the distinct options random chooses among, with greedy's score
of each: ``policy.turn_options12``/``turn_options3``; the
``search_top_k`` best by that score when there are more), and for each of
the level's determinizations (``determinize``: the cards the seat cannot
see, other hands and the deck, re-dealt among themselves; hidden v2
generals re-drawn; the position of a mine it did not bury re-drawn) plays
``search_rollouts`` rollouts of each candidate (``act12``/``act3`` on a
copy, then ``playout``: every seat plays the rollout policy, greedy or
random, through the ordinary ``turn.turn``). Every candidate of one
determinization and rollout number starts from the same rollout stream
(common random numbers). The candidate with the most wins is played; ties
by greedy's score, then at random.

Randomness: a decision's own stream is ``game_state(key, turn x 8 +
seat)``, with the game's search key ``Z_SKEY`` (``game.init_game``: from
the game's seed, a counter-based function of (run seed, game)); the
determinizations and tie-breaks draw from it in a fixed order, and rollout
r of determinization d uses ``game_state(that stream's start, d x R + r)``.
The game's own stream is never drawn from, so results depend on neither
the thread count nor the chunking, and a decision depends only on what
the seat sees (the pool of hidden cards is rebuilt in card-kind order
before it is shuffled: tests/test_search_elite.py changes every hidden
card and checks the decision).

Rollouts run on the scratch arrays of ``search_work`` (allocated once per
thread), with tracing off, their own card masks and counts: they write
nothing of the real game.
"""
import numpy as np
from numba import njit

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ....core.rng import below, game_state, shuffle
from ..layout import (C_ALIVE, C_DQ, C_G, C_GEN, C_H, C_HN, C_HP, C_KEY, C_M, C_MAXHP, C_POL,
                      C_RANK, C_RM, C_SRCH, C_TEAM, END_ALLOUT, END_CAP, END_LAST, E_TURN, MAXA,
                      NCAP, NS, NZ, POL_GREEDY, POL_RANDOM, P_DECKS, P_GENS, P_MAXT, P_SDET,
                      P_SROLL, P_SRPOL, P_SRTURNS, P_STOPK, Z_DECK, Z_DISC, Z_MOWN, Z_MPOS, Z_ON,
                      Z_P, Z_RESP, Z_ROUNDS, Z_SKEY, Z_TURN, Z_V)
from .duel import resolve_duels
from .policy import turn_options3, turn_options12
from .turn import act3, act12, advance, pre3, pre12, sides_left, turn, winner_of
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)

# core.search.LEVELS as integers: level l = C_SRCH (1 search_fast, 2 search, 3 search_strong)
# multiplies the determinizations by LEVEL_NUM[l] / LEVEL_DEN[l], at least 1
LEVEL_NUM = (0, 1, 1, 4)
LEVEL_DEN = (1, 4, 1, 1)
PK = NCAP                 # pool[PK + kind]: hidden cards per kind; pool[PI + ident]: v2 generals
PI = NCAP + 36
PC = NCAP + 52            # pool[PC], [PC + 1], [PC + 2]: rollouts, their turns and responses (counted
                          # for scripts/bench-style figures; nothing reads them)


def search_work(P, words):
    """One thread's scratch for the search (allocated in Python, once per
    batch: no kernel allocates): the rollout and decision streams, the
    decision point (S0, pile0, Z0), a determinization (S1, ...), a rollout
    (S2, ...), the candidates, greedy's scores and the wins, the kept
    candidates, card masks and counts for rollouts, the pool of hidden cards."""
    P = int(P)
    return (np.zeros(1, np.uint64), np.zeros(1, np.uint64),
            np.zeros((P, NS), np.int64), np.zeros((2, NCAP), np.int64), np.zeros(NZ, np.int64),
            np.zeros((P, NS), np.int64), np.zeros((2, NCAP), np.int64), np.zeros(NZ, np.int64),
            np.zeros((P, NS), np.int64), np.zeros((2, NCAP), np.int64), np.zeros(NZ, np.int64),
            np.zeros((MAXA, 4), np.int64), np.zeros((MAXA, 4), np.int64),
            np.zeros(MAXA, np.float64), np.zeros(MAXA, np.float64), np.zeros(MAXA, np.int64),
            np.zeros((P, 2, int(words)), np.uint64), np.zeros((2, 36), np.int64),
            np.zeros(NCAP + 64, np.int64))


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def copy_state(S, pile, Z, S2, pile2, Z2):
    """S, pile, Z -> S2, pile2, Z2 (the seat slots before the duel pile, which
    a duel writes before it reads; the deck and discard piles as far as they
    hold cards)."""
    for q in range(Z[Z_P]):
        for j in range(C_DQ):
            S2[q, j] = S[q, j]
    for i in range(Z[Z_DECK]):
        pile2[0, i] = pile[0, i]
    for i in range(Z[Z_DISC]):
        pile2[1, i] = pile[1, i]
    for j in range(NZ):
        Z2[j] = Z[j]


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(S, pile, Z, ip, p, stD, pool):
    """Re-deal what seat p cannot see, consistently with what it sees: the
    other seats' hands (their counts kept; rampage-marked cards stay with
    their holder, see the README) and the deck (its size kept) are dealt
    again from the pool of those cards, shuffled with p's stream ``stD``; the
    mine's position is drawn again unless p buried it (then its card stays
    where it is); v2: the generals the others have not played yet are drawn
    again from the identity cards p has not seen. The pool is built in
    card-kind order, so the deal depends only on what p sees."""
    P = Z[Z_P]
    nd = Z[Z_DECK]
    own = Z[Z_MPOS] > 0 and Z[Z_MOWN] == p
    mpos = Z[Z_MPOS] - 1
    mcard = pile[0, mpos] if own else -1
    for kind in range(36):
        pool[PK + kind] = 0
    for i in range(nd):
        if not (own and i == mpos):
            pool[PK + pile[0, i]] += 1
    for q in range(P):
        if q != p:
            for kind in range(36):
                pool[PK + kind] += S[q, C_H + kind] - S[q, C_RM + kind]
    m = 0
    for kind in range(36):
        for _ in range(pool[PK + kind]):
            pool[m] = kind
            m += 1
    shuffle(stD, pool, m)
    j = 0
    for q in range(P):
        if q == p:
            continue
        kept = 0
        for kind in range(36):
            c = S[q, C_RM + kind]
            S[q, C_H + kind] = c
            kept += c
        for _ in range(S[q, C_HN] - kept):
            S[q, C_H + pool[j]] += 1
            j += 1
        for s in range(4):
            S[q, C_M + s] = 0
        for kind in range(36):
            if S[q, C_H + kind] > 0:
                S[q, C_M + kind // 9] |= np.int64(1) << (kind % 9)
    for i in range(nd):
        if own and i == mpos:
            pile[0, i] = mcard
        else:
            pile[0, i] = pool[j]
            j += 1
    if Z[Z_MPOS] > 0 and not own and nd > 0:
        Z[Z_MPOS] = below(stD, nd) + 1
    if Z[Z_V] == 2:
        ng = ip[P_GENS]
        for i in range(16):
            pool[PI + i] = ip[P_DECKS]
        for q in range(P):
            for g in range(ng):
                if q == p or g <= S[q, C_GEN]:
                    pool[PI + S[q, C_G + g]] -= 1
        m = 0
        for i in range(16):
            for _ in range(pool[PI + i]):
                pool[m] = i
                m += 1
        shuffle(stD, pool, m)
        j = 0
        for q in range(P):
            if q != p:
                for g in range(S[q, C_GEN] + 1, ng):
                    S[q, C_G + g] = pool[j]
                    j += 1


@njit(cache=True, inline="always")
def playout(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, cur, key0, p):
    """Play on after the turn of ``cur`` (begun at turn-order key ``key0``)
    to the end, or to ``search_rollout_turns`` more turns (and never past
    ``max_turns``): 1 if p's side wins (``turn.winner_of``; a capped rollout
    is scored as a capped game, v1/v3 a draw, v2 by score), else 0."""
    turns = Z[Z_TURN]
    cap = min(ip[P_MAXT], turns + ip[P_SRTURNS])
    end = END_CAP
    while True:
        n = sides_left(S, Z)
        if n <= 1:
            end = END_LAST if n == 1 else END_ALLOUT
            break
        cur = advance(S, Z, key0)
        if turns >= cap:
            break
        turns += 1
        Z[Z_TURN] = turns
        key0 = S[cur, C_KEY]
        turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, cur)
    w, _ = winner_of(S, Z, end)
    return 1 if w >= 0 and S[p, C_TEAM] == w else 0


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def best_tied(v, u, idx, a, b, stD):
    """Position in [a, b) of the largest v[idx[i]]; among equal v, of the
    largest u[idx[i]]; then uniformly at random (one draw from ``stD`` per
    tie met). ``best_tied(v, v, ...)`` is the largest v, ties at random."""
    best = a
    ties = 1
    for i in range(a + 1, b):
        x = v[idx[i]]
        y = v[idx[best]]
        if x == y:
            x = u[idx[i]]
            y = u[idx[best]]
        if x > y:
            best = i
            ties = 1
        elif x == y:
            ties += 1
            if below(stD, ties) == 0:
                best = i
    return best


@njit(cache=True, inline="always")
def search_choice(S, pile, Z, tr, script, ip, pp, PT, PID, p, key0, W):
    """The search's turn play for seat p at this decision point (read only):
    (number of options, index of the chosen one in the candidate buffer
    ``W[11]``)."""
    stR, stD, S0, pile0, Z0, S1, pile1, Z1, S2, pile2, Z2 = W[:11]
    cand, acts2, gsc, wins, keep, masks2, counts2, pool = W[11:]
    copy_state(S, pile, Z, S0, pile0, Z0)
    Z0[Z_ON] = 0
    if VARIANT == 3:
        n = turn_options3(S0, Z0, ip, pp, PT, PID, cand, p, gsc)
    else:
        n = turn_options12(S0, Z0, ip, pp, PT, PID, cand, p, gsc)
    if n <= 1:
        return n, 0
    stD[0] = game_state(np.uint64(Z[Z_SKEY]), Z[Z_TURN] * 8 + p)
    dkey = stD[0]
    for c in range(n):
        keep[c] = c
    m = n
    K = ip[P_STOPK]
    if K > 0 and n > K:
        # the K best by greedy's score, in that order; ties at random
        for r in range(K):
            b = best_tied(gsc, gsc, keep, r, n, stD)
            t = keep[r]
            keep[r] = keep[b]
            keep[b] = t
        m = K
    lvl = S[p, C_SRCH]
    D = max(1, ip[P_SDET] * LEVEL_NUM[lvl] // LEVEL_DEN[lvl])
    R = ip[P_SROLL]
    rp = POL_GREEDY if ip[P_SRPOL] == 0 else POL_RANDOM
    P = Z[Z_P]
    for c in range(m):
        wins[keep[c]] = 0.0
    for d in range(D):
        copy_state(S0, pile0, Z0, S1, pile1, Z1)
        determinize(S1, pile1, Z1, ip, p, stD, pool)
        for q in range(P):
            S1[q, C_POL] = rp
            S1[q, C_SRCH] = 0
        for r in range(R):
            rs = game_state(dkey, d * R + r)
            for c in range(m):
                i = keep[c]
                copy_state(S1, pile1, Z1, S2, pile2, Z2)
                stR[0] = rs
                for j in range(4):
                    acts2[0, j] = cand[i, j]
                if VARIANT == 3:
                    act3(stR, S2, pile2, Z2, tr, masks2, counts2, acts2, script, ip, pp, PT, PID,
                         p, np.int64(1), np.int64(0))
                    resolve_duels(stR, S2, pile2, Z2, tr, masks2, counts2, ip, pp, PT, PID)
                else:
                    act12(stR, S2, pile2, Z2, tr, masks2, counts2, acts2, script, ip, pp, PT,
                          PID, p, np.int64(1), np.int64(0))
                wins[i] += playout(stR, S2, pile2, Z2, tr, masks2, counts2, acts2, script, ip,
                                   pp, PT, PID, p, key0, p)
                pool[PC] += 1
                pool[PC + 1] += Z2[Z_TURN] - Z1[Z_TURN]
                pool[PC + 2] += Z2[Z_RESP] - Z1[Z_RESP]
    # the most wins; with few rollouts equal wins are common: then greedy's best score
    return n, keep[best_tied(wins, gsc, keep, 0, m, stD)]


@njit(cache=True, _nrt=False)
def search_turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p, key0, W,
                play):
    """``turn.turn`` of a seat playing a search level (``play``): the start
    of the turn (``pre12``/``pre3``) and the play (``act12``/``act3``) as for
    any seat, with the search's choice (``search_choice``) as the play.
    Without ``play`` (tests: ``scenario.Table.search_play`` calls it from
    Python, so it keeps its Python wrapper): only the choice, from this
    state as the decision point, in acts[0]. Returns the number of
    options. The one call site of ``search_choice`` and ``playout`` (inlined
    by numba: each function compiled on its own re-optimises every function
    it calls, the whole game, ``engine``)."""
    if play:
        if Z[Z_ON]:
            ev(tr, Z, E_TURN, p, Z[Z_ROUNDS], S[p, C_HP], S[p, C_HN], S[p, C_MAXHP], S[p, C_RANK])
        if VARIANT == 3:
            pre3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
        else:
            pre12(st, S, pile, Z, tr, masks, counts, ip, p)
    n = 0
    if S[p, C_ALIVE] == 1:           # (v3: the start of a turn may put p out of play)
        n, i = search_choice(S, pile, Z, tr, script, ip, pp, PT, PID, p, key0, W)
        cand = W[11]
        for j in range(4):
            acts[0, j] = cand[i, j]
    if play:
        if VARIANT == 3:
            if S[p, C_ALIVE] == 1:
                act3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p, n,
                     np.int64(0))
            resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID)
        else:
            act12(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p, n,
                  np.int64(0))
    return n


jit.kernel_cache_end()
