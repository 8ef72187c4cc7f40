"""Talisman Poker kernel: the search policies (README, "Policies": search)."""
import numpy as np
from numba import njit

from ...core import jit
from ...core.rng import game_state, mix64, shuffle
from .layout import (A_CAST, A_COMBO, A_PASS, C_ALIVE, C_HN, C_HP, C_SKIPS, NC_MAX, NS, NZ,
                     POL_GREEDY, POL_RANDOM, W_ACTS, W_CAND, W_CNT, W_POOL, W_RPOL, W_SIZES,
                     W_STATS, W_WINS, Z_DECK, Z_DISC, Z_TURN)
from .base import (P_MAXT, R_CAP, R_DET, R_ROLL, R_RPOL, R_TOPK, SM, combo_sizes_apart, empty_hand,
                   next_alive, to_hand)
from .policy import (action_parts, combo_amount, combo_value, list_actions, placement_score,
                     special_value)
from .play import begin_turn, eliminate, end_turn, turn

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- search (README, "Policies": search) ----------------------------------
# Determinized flat Monte Carlo. A searching seat evaluates each candidate
# action by playing the game out from samples of what it cannot see, on
# copies of the state in its thread's search workspace (``search_work``),
# with the plain policies' own ``turn``; the real game's stream, records,
# masks, counts and trace are never touched.
SEARCH_SALT = np.uint64(0x5EA2C4D1E7A9B3F1)   # the search's streams, apart from the game's
LEVEL_FAST, LEVEL_SEARCH, LEVEL_STRONG, LEVEL_ORACLE = range(4)   # policy id - POL_SEARCH_FAST


@njit(cache=True, _nrt=False)
def play_turns(st, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, pol, sizes, acts, spbest,
               P, V, NB, cur, alive, stop):
    """Play on from seat ``cur``'s turn (turn Z[Z_TURN] + 1), as
    ``play_game``'s loop does but untraced and unchecked, with the plain
    policies ``pol`` (random, greedy or patient), until turn ``stop`` has
    been played or at most one seat is left. Returns (the seat whose turn
    comes next, the seats left, the turns played that were not skipped)."""
    played = 0
    t = Z[Z_TURN]
    while t < stop and alive > 1:
        t += 1
        Z[Z_TURN] = t
        if S[cur, C_SKIPS] > 0:             # wind
            S[cur, C_SKIPS] -= 1
        else:
            turn(st, S, hand, pile, Z, masks, counts, tr, False, False, ip, pp, ban, pol, sizes,
                 acts, spbest, P, V, NB, cur)
            played += 1
            alive -= eliminate(S, hand, pile, Z, tr, False, P, V)
        if alive > 1:
            cur = next_alive(S, cur, P)
    return cur, alive, played


@njit(cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_key(seed, game, p, t):
    """The root of seat p's search streams at turn t of game ``game`` of
    run ``seed``: a function of (seed, game, seat, turn) alone. The search
    never draws from the game's own stream, so the real game's draws do not
    depend on how much was searched, nor on anything hidden."""
    return game_state(mix64(game_state(seed, game) ^ SEARCH_SALT), p * 4294967296 + t)


@njit(cache=True, _nrt=False)
def copy_state(S, hand, pile, Z, S2, hand2, pile2, Z2, P):
    """A game's state into another workspace (the cards in use only)."""
    for q in range(P):
        for j in range(NS):
            S2[q, j] = S[q, j]
        for j in range(S[q, C_HN]):
            hand2[q, j] = hand[q, j]
    for j in range(Z[Z_DECK]):
        pile2[0, j] = pile[0, j]
    for j in range(Z[Z_DISC]):
        pile2[1, j] = pile[1, j]
    for j in range(NZ):
        Z2[j] = Z[j]


@njit(cache=True, _nrt=False)
def determinize(sst, S, hand, pile, Z, P, p, NK, pool, cnt):
    """Sample again what seat p cannot see: the cards of the opponents'
    hands and of the deck are pooled in card-id order (so their real
    places are never read), shuffled from the search stream ``sst`` and
    dealt back, each hand keeping its size and the deck its size. p's hand,
    every array, the discard pile (face up), HP, guards and skips stay."""
    for c in range(NK):
        cnt[c] = 0
    for q in range(P):
        if q != p:
            for j in range(S[q, C_HN]):
                cnt[hand[q, j]] += 1
    for j in range(Z[Z_DECK]):
        cnt[pile[0, j]] += 1
    n = 0
    for c in range(NK):
        for _ in range(cnt[c]):
            pool[n] = c
            n += 1
    shuffle(sst, pool, n)
    k = 0
    for q in range(P):
        if q != p:
            m = S[q, C_HN]
            empty_hand(S, q)
            for _ in range(m):
                to_hand(S, hand, q, pool[k])
                k += 1
    for j in range(Z[Z_DECK]):
        pile[0, j] = pool[k]
        k += 1


@njit(cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def greedy_score(S, hand, p, P, V, a, sizes, ip, pp):
    """greedy's immediate score of p's action ``a`` (``sizes``: p's combo
    sizes and array summary, ``combo_sizes``), in greedy's order of
    preference: a combo of value > 0, then a special of value > 0, then a
    placement, then the rest; within each, greedy's value (combo value,
    special value, placement score), then the target of lower HP."""
    kind, arg, t = action_parts(a)
    if kind == A_COMBO:
        v = combo_value(S, p, P, arg, combo_amount(arg, sizes[arg], ip), t if t >= 0 else p,
                        ip, pp)
        tier = 3.0 if v > 0.0 else 0.0
    elif kind == A_CAST:
        v = special_value(arg, ip, pp)
        tier = 2.0 if v > 0.0 else 0.0
    else:
        v = float(placement_score(S, p, hand[p, arg], V, sizes, ip))
        tier = 1.0
    sc = tier * 1e12 + v * 1e3
    if t >= 0:
        sc -= S[t, C_HP]
    return sc


@njit(cache=True, _nrt=False)
def best_first(S, hand, p, P, V, cand, na, sizes, ip, pp, score):
    """Order the candidates cand[:na] by greedy's immediate score
    (``greedy_score``), best first; equal scores keep their order."""
    combo_sizes_apart(S, p, sizes)
    for i in range(na):
        score[i] = greedy_score(S, hand, p, P, V, cand[i], sizes, ip, pp)
    for i in range(1, na):              # stable insertion sort
        a = cand[i]
        x = score[i]
        j = i - 1
        while j >= 0 and score[j] < x:
            cand[j + 1] = cand[j]
            score[j + 1] = score[j]
            j -= 1
        cand[j + 1] = a
        score[j + 1] = x


@njit(cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def rollout(rst, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, rpol, sizes, acts, spbest,
            P, V, NB, p, a, stop):
    """In a copied state: seat p plays action ``a``, then every seat plays
    ``rpol`` until one seat (or none) is left or turn ``stop`` is played.
    Returns 2 x the turns played after p's + 1 when p alone is left."""
    kind, arg, tgt = action_parts(a)
    if kind == A_COMBO:
        combo_sizes_apart(S, p, sizes)
    end_turn(rst, S, hand, pile, Z, masks, counts, tr, False, False, ip, P, V, sizes, p, kind, arg,
             tgt)
    alive = 0
    for q in range(P):
        alive += S[q, C_ALIVE]
    alive -= eliminate(S, hand, pile, Z, tr, False, P, V)
    played = 0
    if alive > 1:
        _, alive, played = play_turns(rst, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, rpol,
                                      sizes, acts, spbest, P, V, NB, next_alive(S, p, P), alive,
                                      stop)
    return 2 * played + np.int64(alive == 1 and S[p, C_ALIVE] == 1)


@njit(cache=True, _nrt=False)
def choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, NB, p, level,
                  SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    """The search policies' choice for seat p (README, "Policies"); reads
    the real state, changes nothing in it. ``level``: LEVEL_FAST,
    LEVEL_SEARCH, LEVEL_STRONG (determinizations /4, x1, x4) or
    LEVEL_ORACLE (x1, the real hidden cards instead of samples).

    Candidates: the distinct legal actions (``list_actions``), in an order
    shuffled from the search stream (every tie below goes to the earlier
    one: a uniform tie-break), kept to the ``search_top_k`` of best greedy
    score. Each determinization d (the same ones for every candidate) and
    each rollout r give a rollout stream seeded by (d, r) alone, so the
    candidates are compared on common random numbers. The candidate with
    the most rollout wins is chosen."""
    cand = IW[W_CAND:W_CAND + 64]
    na = list_actions(S, hand, p, P, NB, cand, ban)
    if na == 0:
        return A_PASS, 0, -1
    if na == 1:
        return action_parts(cand[0])
    sst = UW[0:1]
    rst = UW[1:2]
    sub = search_key(seed, game, p, Z[Z_TURN])
    sst[0] = sub ^ SEARCH_SALT
    shuffle(sst, cand, na)
    sizes = IW[W_SIZES:W_SIZES + SM + 16]
    k = ip[R_TOPK]
    if k > 0 and na > k:
        best_first(S, hand, p, P, V, cand, na, sizes, ip, pp, FW)
        na = k
    D = ip[R_DET]
    if level == LEVEL_FAST:
        D = max(1, D // 4)
    elif level == LEVEL_STRONG:
        D *= 4
    R = ip[R_ROLL]
    stop = min(ip[P_MAXT], Z[Z_TURN] + ip[R_CAP])
    wins = IW[W_WINS:W_WINS + 64]
    rpol = IW[W_RPOL:W_RPOL + P]
    acts = IW[W_ACTS:W_ACTS + 64]
    pool = IW[W_POOL:W_POOL + NC_MAX]
    cnt = IW[W_CNT:W_CNT + 72]
    for q in range(P):
        rpol[q] = POL_RANDOM if ip[R_RPOL] == 1 else POL_GREEDY
    for c in range(na):
        wins[c] = 0
    played = 0
    for d in range(D):
        copy_state(S, hand, pile, Z, SW[0], HW[0], PW[0], ZW[0], P)
        if level != LEVEL_ORACLE:
            determinize(sst, SW[0], HW[0], PW[0], ZW[0], P, p, NB + 5, pool, cnt)
        for c in range(na):
            for r in range(R):
                rst[0] = game_state(sub, d * R + r)
                copy_state(SW[0], HW[0], PW[0], ZW[0], SW[1], HW[1], PW[1], ZW[1], P)
                res = rollout(rst, SW[1], HW[1], PW[1], ZW[1], MW, CW, TW, ip, pp, ban, rpol,
                              sizes, acts, spbest, P, V, NB, p, cand[c], stop)
                wins[c] += res & 1
                played += res >> 1
    best = 0
    for c in range(1, na):
        if wins[c] > wins[best]:
            best = c
    IW[W_STATS] += 1
    IW[W_STATS + 1] += D * R * na
    IW[W_STATS + 2] += played
    IW[W_STATS + 3] += na
    return action_parts(cand[best])


@njit(cache=True, _nrt=False)
def search_turn(seed, game, st, S, hand, pile, Z, masks, counts, tr, on, check, ip, pp, ban,
                sizes, acts, spbest, P, V, NB, p, level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    """A searching seat's turn when not skipped: draw and discard down to
    the hand limit as greedy does, choose by search, resolve. Returns the
    number of broken invariants found (check mode)."""
    begin_turn(st, S, hand, pile, Z, masks, counts, tr, on, ip, pp, POL_GREEDY, sizes, acts, NB,
               V, p)
    kind, arg, tgt = choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, NB, p,
                                   level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW)
    if kind == A_COMBO:
        combo_sizes_apart(S, p, sizes)      # the real array's sizes, for fire
    return end_turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, P, V, sizes, p, kind,
                    arg, tgt)



jit.kernel_cache_end()
