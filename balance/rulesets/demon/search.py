"""Demon Faction kernel, part 4: the search policies (``core.search``).

Determinized flat Monte Carlo, entirely in compiled code. At each
placement pick and each attack choice with two or more alternatives (the
``decisions`` of the game record), a seat playing ``search_fast``,
``search`` or ``search_strong``:

1. takes the candidates: every distinct legal action (the rows ``random``
   chooses among: ``list_place`` / ``list_attack``), or, when
   ``search_top_k`` > 0 and there are more, the ``search_top_k`` of highest
   greedy score (ties at random);
2. samples D determinizations (``search_determinizations`` x the level's
   factor, at least 1): the opponent's hand and deck are dealt again from
   the cards it holds there together (the hand keeps its size, the deck its
   count), and the seat's own deck is shuffled (it knows its deck's cards,
   not their order); everything else is public under the contract (board,
   face cards, slots, graveyards, HP, hand and deck sizes, K points);
3. from each determinization plays ``search_rollouts`` rollouts per
   candidate: the candidate applied to a copy, then the rest of the turn and
   the game with ``search_rollout_policy`` (greedy or random) at both seats,
   with the same rollout random stream for every candidate (common random
   numbers);
4. picks the candidate with the highest mean result for itself, a win 1, a
   game without a winner (draw, stalemate, turn cap) 1/2, a loss 0; ties at
   random.

Rollouts are not capped beyond the rules: they end as games end, at the
latest at ``max_turns`` (a draw, as the rules score a capped game).
Effect options (K, Q, clash, reply, equal-card ties) and preparation
discards are greedy's.

The rollouts reuse the game's own functions (``placement``, ``attack_phase``,
``play_on``); the real turn of a search seat is ``kernel.turn`` with the
placement and attack choices made by ``decide``. Rollouts run on scratch
copies (``search_work``, per batch call): they never touch the real game's
state, records, masks, counts, trace or random stream. All the search's
randomness comes from its own counter-based stream, seeded by (run seed,
game, seat, decision index): results do not depend on threads or chunks,
and the choice depends only on what the seat may see (tests/test_search_demon.py).

A batch with a search seat runs ``search_blocks`` (``kernel.run_batch``
picks it), so the heuristics' kernel does not compile any of this. Compile
time: numba re-optimizes a compiled function together with every compiled
function it calls, so each level of calls above ``play_on`` and
``placement`` costs seconds; the search is therefore four compiled levels
deep (``search_blocks``, ``play_search_on``, ``decide``, the game's steps),
with ``play_search_game``, ``search_place``, ``search_attack`` and
``rollout`` inlined.
"""
import numpy as np
from numba import njit

from ...core import jit
from ...core.records import BLOCK
from ...core.rng import below, game_state, mix64, next_u64, shuffle
from .board import (G_WINNER, I64, P_MAXT, P_STALE, S_DET, S_RPOL, S_ROLL, S_TOPK, bit, ctz,
                    popc, sig)
from .fight import attack_choice, attack_phase, list_attack, no_first_attack
from .kernel import (apply_place, board_events, broken_invariants, fill_deck, finish, front,
                     list_place, outcome, placement, play_on, start, turn_head, turn_tail)
from .layout import (A_END, C_DECKM, C_DECKN, C_HAND, D_ATTACK, D_PLACE, END_CAP, LEVEL_DEN,
                     LEVEL_NUM, NG, NO, NS, NSEAT, NZ, POL_GREEDY, POL_RANDOM, POL_SEARCH_FAST,
                     POL_SEARCH_STRONG, Z_DEC, Z_DONE, Z_FIRST, Z_ON, Z_STALE, Z_TR, Z_TURN)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

SALT = np.uint64(0x5EA2C4D3E7017A11)   # the search streams' own seed offset
LV_NUM = np.array(LEVEL_NUM, np.int64)
LV_DEN = np.array(LEVEL_DEN, np.int64)


# --- the game's steps, compiled once for the search (the game inlines them) ----------------
@njit(sig(I64, ret=I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def list_place_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    return list_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)


@njit(sig(I64, I64, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply_place_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, t,
                  k, a, b):
    apply_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, t, k,
                a, b)


@njit(sig(I64, ret=I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def list_attack_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    return list_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)


@njit(sig(I64, I64, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def attack_choice_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r,
                    t, mode, n):
    attack_choice(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r, t,
                  mode, n)


@njit(sig(I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def front_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    front(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)


@njit(sig(I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def attack_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    attack_phase(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)


# --- workspace ----------------------------------------------------------------------------
def search_work(words: int, kinds: int):
    """The search's scratch arrays (one set per batch call, reused by every
    decision): the determinized state, the rollout's state with its own
    records, choice list and stream, the candidates and their results."""
    return (np.zeros((2, NS), np.int64), np.zeros(NZ, np.int64), np.zeros((3, 54), np.int64),
            np.zeros((2, NS), np.int64), np.zeros(NZ, np.int64), np.zeros((3, 54), np.int64),
            np.zeros((2, 2, words), np.uint64), np.zeros((2, kinds), np.int64),
            np.zeros((1, 8), np.int64), np.zeros((NO, 6), np.int64), np.zeros(NO, np.float64),
            np.zeros(64, np.int64), np.zeros(1, np.uint64), np.zeros(1, np.uint64),
            np.zeros(NG, np.int64), np.zeros((2, NSEAT), np.int64), np.zeros(NO, np.int64),
            np.zeros(NO, np.uint64), np.zeros(NO, np.int64), np.zeros(2, np.int64))


@njit(cache=True, inline="always")
def search_key(seed, game):
    """The search streams' key of game ``game`` of run seed ``seed`` (apart
    from the game's own stream, ``game_state(seed, game)``)."""
    return mix64(game_state(seed, game) ^ SALT)


@njit(cache=True, inline="always")
def decision_state(skey, p, dec):
    """The stream of seat p's search at the game's decision number ``dec``."""
    return game_state(skey + np.uint64(p + 1), dec)


# --- one decision ---------------------------------------------------------------------------
@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(S, Z, pile, bS, bZ, bpile, p, sst, tmp, cheat):
    """bS, bZ, bpile = the real state with what seat p cannot see dealt
    again from p's point of view: the opponent's hand and deck from the
    cards they hold together (sizes kept), p's own deck order. Built from
    masks in card order, so the result depends only on what p sees and on
    sst. ``cheat`` (tests only) keeps the real cards."""
    bS[:, :] = S
    bZ[:] = Z
    bpile[:, :] = pile
    if cheat:
        return
    q = 1 - p
    nh = popc(S[q, C_HAND])
    nd = S[q, C_DECKN]
    m = S[q, C_HAND] | S[q, C_DECKM]
    n = 0
    while m != 0:
        low = m & -m
        m ^= low
        tmp[n] = ctz(low)
        n += 1
    shuffle(sst, tmp, n)
    hand = np.int64(0)
    for i in range(nh):
        hand |= bit(tmp[i])
    deck = np.int64(0)
    for i in range(nd):
        bpile[q, i] = tmp[nh + i]
        deck |= bit(tmp[nh + i])
    bS[q, C_HAND] = hand
    bS[q, C_DECKM] = deck
    m = S[p, C_DECKM]
    n = 0
    while m != 0:
        low = m & -m
        m ^= low
        tmp[n] = ctz(low)
        n += 1
    shuffle(sst, tmp, n)
    for i in range(n):
        bpile[p, i] = tmp[i]


@njit(cache=True, inline="always")
def rollout(bS, bZ, bpile, w, ip, pp, script, rseed, p, dtype, a1, a2, a3, a4, n):
    """Winner (-1: none) of one rollout: from a copy of the determinized
    state, the candidate (a1..a4: the row's columns 1-4) applied, the rest of
    the turn and the game with the rollout policy at both seats."""
    S, Z, pile, masks, counts, tr, rows, sc, tmp, rst, grow, srow, rpol = \
        w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], w[13], w[14], w[15], w[19]
    S[:, :] = bS
    Z[:] = bZ
    pile[:, :] = bpile
    Z[Z_ON] = 0
    rst[0] = rseed
    if dtype == D_PLACE:
        if a1 != A_END:
            apply_place_c(rst, S, Z, pile, masks, counts, tr, ip, pp, rpol, rows, sc, script, tmp,
                          p, a1, a2, a3, a4)
            if not Z[Z_DONE]:
                placement(rst, S, Z, pile, masks, counts, tr, ip, pp, rpol, rows, sc, script,
                          tmp, p)
        if not Z[Z_DONE]:
            attack_c(rst, S, Z, pile, masks, counts, tr, ip, pp, rpol, rows, sc, script, tmp, p)
    else:
        attack_choice_c(rst, S, Z, pile, masks, counts, tr, ip, pp, rpol, rows, sc, script, tmp,
                        p, a1, a2, a3, n)
    e = turn_tail(Z, 2 * ip[P_STALE])
    if e >= 0:
        return outcome(S, e)[0]
    play_on(rst, S, Z, pile, masks, counts, tr, ip, pp, rpol, rows, sc, script, tmp, 1 - p,
            Z[Z_TURN], False, grow, srow)         # at the turn cap already: a draw
    return grow[G_WINNER]


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def decide(S, Z, pile, ip, pp, pol, rows, sc, script, p, n, dtype, skey, w, cheat):
    """Index of the row of rows[:n] (n >= 2, sc: greedy's scores) that seat
    p's search level picks; counts the decision (``Z_DEC``), as ``choose_i``
    does. The real state is only read. Callers pass ``p``, ``dtype`` and
    ``cheat`` as run-time int64/bool: with literals (a seat 0, D_PLACE,
    False) numba would compile it once per combination, as large as it is
    (its rollouts inlined)."""
    bS, bZ, bpile, tmp, sst, cand, key, pts, rpol = \
        w[0], w[1], w[2], w[11], w[12], w[16], w[17], w[18], w[19]
    lv = pol[p] - POL_SEARCH_FAST
    D = max(1, ip[S_DET] * LV_NUM[lv] // LV_DEN[lv])
    R = ip[S_ROLL]
    rpol[0] = POL_GREEDY if ip[S_RPOL] == 0 else POL_RANDOM
    rpol[1] = rpol[0]
    sst[0] = decision_state(skey, p, Z[Z_DEC])
    Z[Z_DEC] += 1
    # candidates: every row, or the top_k by greedy's score (ties at random)
    for i in range(n):
        cand[i] = i
        key[i] = next_u64(sst)
    m = n
    k = ip[S_TOPK]
    if k > 0 and n > k:
        for j in range(k):
            b = j
            for i in range(j + 1, n):
                ci = cand[i]
                cb = cand[b]
                if sc[ci] > sc[cb] + 1e-9 or (sc[ci] >= sc[cb] - 1e-9 and key[ci] > key[cb]):
                    b = i
            t = cand[j]
            cand[j] = cand[b]
            cand[b] = t
        m = k
    for c in range(m):
        pts[c] = 0
    for d in range(D):
        determinize(S, Z, pile, bS, bZ, bpile, p, sst, tmp, cheat)
        base = next_u64(sst)
        for r in range(R):
            rseed = game_state(base, r)
            for c in range(m):
                i = cand[c]
                win = rollout(bS, bZ, bpile, w, ip, pp, script, rseed, p, dtype, rows[i, 1],
                              rows[i, 2], rows[i, 3], rows[i, 4], n)
                pts[c] += 2 if win == p else (1 if win < 0 else 0)
    best = 0
    ties = 1
    for c in range(1, m):
        if pts[c] > pts[best]:
            best = c
            ties = 1
        elif pts[c] == pts[best]:
            ties += 1
            if below(sst, ties) == 0:
                best = c
    return cand[best]


# --- the search seat's turn and the game ------------------------------------------------------
@njit(cache=True, inline="always")
def search_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, skey,
                 w):
    """``kernel.placement`` with each pick made by ``decide``."""
    while True:
        n = list_place_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
        i = 0
        if n > 1:
            i = decide(S, Z, pile, ip, pp, pol, rows, sc, script, np.int64(p), n,
                       np.int64(D_PLACE), skey, w, np.bool_(False))
        t = rows[i, 1]
        if t == A_END:
            return
        apply_place_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, t,
                      rows[i, 2], rows[i, 3], rows[i, 4])
        if Z[Z_DONE]:
            return


@njit(cache=True, inline="always")
def search_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p,
                  skey, w):
    """``fight.attack_phase`` with the choice made by ``decide``."""
    if no_first_attack(Z, tr, p):
        return
    n = list_attack_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
    i = 0
    if n > 1:
        i = decide(S, Z, pile, ip, pp, pol, rows, sc, script, np.int64(p), n,
                   np.int64(D_ATTACK), skey, w, np.bool_(False))
    attack_choice_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p,
                    rows[i, 1], rows[i, 2], rows[i, 3], n)


@njit(cache=True, inline="always")
def is_search(pl):
    return pl >= POL_SEARCH_FAST and pl <= POL_SEARCH_STRONG


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def play_search_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, cur,
                   turns, check, grow, srow, skey, w):
    """``kernel.play_on`` for a game with a search seat: the same loop and
    turn (``kernel.turn``: front, placement, attack, the board in the
    trace), the search seat's placement and attack choices by ``decide``."""
    maxt = ip[P_MAXT]
    stale = 2 * ip[P_STALE]
    errors = 0
    end = END_CAP
    while turns < maxt:
        turns += 1
        turn_head(S, Z, tr, cur, turns)
        srch = is_search(pol[cur])
        front_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, cur)
        if not Z[Z_DONE]:
            if srch:
                search_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script,
                             tmp, cur, skey, w)
            else:
                placement(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                          cur)
            if not Z[Z_DONE]:
                if srch:
                    search_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc,
                                  script, tmp, cur, skey, w)
                else:
                    attack_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script,
                             tmp, cur)
        if Z[Z_ON]:
            board_events(S, Z, tr)
        if check:
            errors += broken_invariants(S, Z, pile, ip)
        e = turn_tail(Z, stale)
        if e >= 0:
            end = e
            break
        cur = 1 - cur
    winner, end = outcome(S, end)
    finish(S, Z, tr, winner, end, turns, (turns + 1) // 2, grow, srow)
    return errors


@njit(cache=True, inline="always")
def play_search_game(seed, game, pol, ip, pp, st, S, Z, pile, rows, sc, script, tmp, games, seats,
                     gmasks, g, bcounts, b, tr, on, check, w):
    st[0] = game_state(seed, game)
    masks = gmasks[g]
    counts = bcounts[b]
    start(st, S, Z, pile, masks, counts, tr, ip, on)
    # a run-time check flag: one play_search_on for the batch and the replay
    return play_search_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                          0, 0, np.bool_(check), games[g], seats[g], search_key(seed, game), w)


@njit(cache=True, nogil=True)
def search_blocks(b0, b1, seed, start_, n_games, pol, ip, pp, ban, check, games, seats, masks,
                  counts, errors, st, S, Z, pile, rows, sc, script, tmp, tr, w):
    """``kernel.play_blocks`` for a batch with a search seat."""
    fill_deck(ban, pile, Z)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = play_search_game(seed, start_ + g, pol, ip, pp, st, S, Z, pile, rows, sc,
                                         script, tmp, games, seats, masks, g, counts, b, tr,
                                         False, check, w)


@njit(cache=True)
def trace_search(seed, game, pol, ip, pp, ban, games, seats, masks, counts, tr, st, S, Z, pile,
                 rows, sc, script, tmp, w):
    """``kernel._trace_one`` for a game with a search seat."""
    fill_deck(ban, pile, Z)
    play_search_game(seed, game, pol, ip, pp, st, S, Z, pile, rows, sc, script, tmp, games, seats,
                     masks, 0, counts, 0, tr, True, False, w)
    return Z[Z_TR]


# --- tests: one search decision from a given state ------------------------------------------
X_PLACE, X_ATTACK, X_DECIDE_PLACE, X_DECIDE_ATTACK = range(4)


@njit(cache=True)
def decision_entry(mode, turns, cheat, seed, game, st, S, Z, pile, masks, counts, tr, ip, pp,
                   pol, rows, sc, script, tmp, ban, grow, srow, w):
    """X_PLACE: deal game ``game`` of ``seed``, play ``turns`` turns with
    ``pol`` (no search seat; ``ip`` with max_turns = turns), then the next
    turn up to its placement; X_ATTACK: up to its attack (placement by
    ``pol``). Returns the seat to move, -1 if the game ended. X_DECIDE_PLACE
    / X_DECIDE_ATTACK: the placement / attack decision of that seat
    (``pol[p]`` a search level) from the given state, with the search
    stream of (seed, game, p, Z_DEC): the index of the chosen row of ``rows``
    (listed first), -1 if there was no choice."""
    if mode == X_PLACE or mode == X_ATTACK:
        p = turns % 2
        fill_deck(ban, pile, Z)
        st[0] = game_state(seed, game)
        start(st, S, Z, pile, masks, counts, tr, ip, False)
        play_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, 0, 0,
                False, grow, srow)
        if Z[Z_DONE] or Z[Z_TURN] < turns or Z[Z_STALE] >= 2 * ip[P_STALE]:
            return -1
        turn_head(S, Z, tr, p, turns + 1)
        front_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
        if Z[Z_DONE]:
            return -1
        if mode == X_ATTACK:
            placement(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
            if Z[Z_DONE]:
                return -1
        return p
    p = (Z[Z_TURN] - 1) % 2
    if mode == X_DECIDE_PLACE:
        n = list_place_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
        dtype = D_PLACE
    else:
        if Z[Z_FIRST]:
            return -1
        n = list_attack_c(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
        dtype = D_ATTACK
    if n < 2:
        return -1
    return decide(S, Z, pile, ip, pp, pol, rows, sc, script, p, n, dtype, search_key(seed, game),
                  w, cheat)


jit.kernel_cache_end()
