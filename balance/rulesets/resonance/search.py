"""Magic Resonance kernel, part 4: the search policy (determinized flat Monte
Carlo, ``core.search``), entirely in the compiled kernel.

Searched decisions: the placement (every distinct placeable rune kind),
the start (not starting, or starting on each revealed card) and the join
(declining or joining). The peek, the discards, the magic-card and dissolve
uses are counter's (a search seat is counter everywhere else).

For each candidate the seat samples ``determinizations`` of what it cannot
see (``determinize``: the other hands, the rune deck's order, the field
runes it has not seen, the magic deck's order), consistent with what it
knows (its hand, the known field runes, every count, the public discard
pile, who peeked which rune), applies the candidate and plays
``search_rollouts`` rollouts to the end from each with the rollout policy
at every seat. Every candidate is played on the same determinizations and
the same rollout streams (common random numbers: the candidates differ
only by their own effect). A rollout counts 1 for a win of the seat, 1/k
for a win shared by k seats, 0 otherwise (a game capped by max_turns has
no winner: 0, as the rules score it; rollouts share the real game's turn
count and cap). The best mean wins, ties uniform.

Randomness: one substream per (seed, game, seat, decision), ``substream``,
derived with ``core.rng.game_state`` from the game's base state; the real
game's streams (the deal's and every seat's) are never read nor advanced.
Rollouts play on scratch arrays (``SearchWork``) with tracing off, so the
real game's records, masks, counts and trace are never written.
"""
import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import BAN_FORBID, ev  # before kernel_cache_begin
from ...core.rng import below, game_state, mix64, next_u64, shuffle
from .base import (card_ev, chance, check_end, finish, next_in, NC_MAX, P_MAXT, placeable,
                   SEAT_MIX, view, winners, broken_invariants)
from .layout import (C_H, C_HN, C_IN, C_JOINED, DISSOLVE, E_JOIN, E_NOSTART, END_CAP, F_KIND,
                     F_KNOW, M_BASE, M_OVER, N_MAGIC, NK, NS, NZ, POL_COUNTER,
                     POL_RANDOM, POL_SEARCH_FAST, Z_DEC, Z_DECK, Z_FN, Z_MD, Z_NEXT, Z_REV,
                     Z_TURN)
from .policy import choose_place, place_terms, place_value, wants_join, wants_start
from .rules import N_RULE_INTS, PIDX
from .turn import after_resonance, res_close, res_open, run_turns, turn_head, turn_place, \
    turn_resonance

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# the search's int parameters, in the int vector after the rule ints (``__init__.kernel_args``)
P_TOPK = N_RULE_INTS + PIDX["search_top_k"]
P_DET = N_RULE_INTS + PIDX["search_determinizations"]
P_ROLL = N_RULE_INTS + PIDX["search_rollouts"]
P_RPOL = N_RULE_INTS + PIDX["search_rollout_policy"]
# core.search.LEVELS as integer constants, by policy id - POL_SEARCH_FAST
LEVEL_NUM = np.array([1, 1, 4], np.int64)
LEVEL_DEN = np.array([4, 1, 1], np.int64)
SEARCH_MIX = np.uint64(0x8CB92BA72F3D8DD7)
D_PLACE, D_START, D_JOIN = 0, 1, 2      # searched decision types
NCAND = 16


def search_work(P):
    """The search's scratch arrays for P seats (one per thread, with
    ``kernel.work``): [0] a determinization, [1] a rollout's state; the
    rollouts' seat streams, view, policies, masks, counts and trace; the
    candidates, their sums and scores; the substream."""
    return (np.zeros((2, P, NS), np.int64), np.zeros((2, 3, NC_MAX), np.int64),
            np.zeros((2, 2, NC_MAX), np.int64), np.zeros((2, NZ), np.int64),
            np.zeros((2, N_MAGIC), np.int64), np.zeros(P, np.uint64), np.zeros(48, np.float64),
            np.zeros(P, np.int64), np.zeros((P, 2, 1), np.uint64), np.zeros((2, NK), np.int64),
            np.zeros((1, 8), np.int64), np.zeros(NC_MAX + NK, np.int64),
            np.zeros(NCAND, np.int64),
            np.zeros(NCAND, np.float64), np.zeros(NCAND, np.float64), np.zeros(1, np.uint64))


@njit(cache=True, _nrt=False)
def substream(base, p, key):
    """The search's stream state for seat p's decision ``key`` (turn x 4 +
    decision type) in the game whose base state is ``base``
    (``game_state(seed, game)``)."""
    return game_state(mix64(base ^ (np.uint64(p + 1) * SEARCH_MIX)), key)


@njit(cache=True, _nrt=False)
def copy_state(S, F, pile, Z, MD, S2, F2, pile2, Z2, MD2):
    """The game state into the scratch arrays (the live parts only)."""
    for q in range(S.shape[0]):
        for c in range(S.shape[1]):
            S2[q, c] = S[q, c]
    for i in range(Z[Z_FN]):
        for r in range(3):
            F2[r, i] = F[r, i]
    for i in range(Z[Z_DECK]):
        pile2[0, i] = pile[0, i]
    for i in range(Z.shape[0]):
        Z2[i] = Z[i]
    for i in range(Z[Z_MD]):
        MD2[i] = MD[i]


@njit(cache=True, _nrt=False)
def determinize(p, ban, S, F, pile, Z, MD, sub, pool):
    """Deal anew, in place, everything seat p cannot see, from its
    substream: the cards of the rune deck, the other hands and the field
    runes p does not know are pooled (as counts per kind: their multiset is
    what p can work out from the deck's composition, its hand, the known
    runes and the discard pile; no position is carried over), shuffled, and
    dealt: a field slot gets a rune that could have been placed (not a
    dissolve card, not a forbidden kind), the deck its size, each other
    seat its hand size. The magic deck (its composition is public: the
    cards never revealed) is sorted, then shuffled."""
    P = S.shape[0]
    bit = np.int64(1) << p
    c0 = NC_MAX                         # pool[NC_MAX + k]: the pool's count of kind k
    for k in range(NK):
        pool[c0 + k] = 0
    for i in range(Z[Z_DECK]):
        pool[c0 + pile[0, i]] += 1
    for q in range(P):
        if q != p:
            for k in range(NK):
                pool[c0 + k] += S[q, C_H + k]
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and (F[F_KNOW, i] & bit) == 0:
            pool[c0 + F[F_KIND, i]] += 1
    n = 0
    for k in range(NK):
        for _ in range(pool[c0 + k]):
            pool[n] = k
            n += 1
    shuffle(sub, pool, n)
    m = n
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and (F[F_KNOW, i] & bit) == 0:
            t = m - 1
            while t >= 0 and (pool[t] == DISSOLVE or ban[pool[t]] == BAN_FORBID):
                t -= 1
            if t < 0:
                continue                # no rune left (an arranged position): keep it
            F[F_KIND, i] = pool[t]
            pool[t] = pool[m - 1]
            m -= 1
    shuffle(sub, pool, m)
    j = 0
    for i in range(Z[Z_DECK]):
        pile[0, i] = pool[j]
        j += 1
    for q in range(P):
        if q == p:
            continue
        for k in range(NK):
            S[q, C_H + k] = 0
        for _ in range(S[q, C_HN]):
            S[q, C_H + pool[j]] += 1
            j += 1
    n = Z[Z_MD]
    for i in range(1, n):               # insertion sort: no order carried over
        c = MD[i]
        t = i - 1
        while t >= 0 and MD[t] > c:
            MD[t + 1] = MD[t]
            t -= 1
        MD[t + 1] = c
    shuffle(sub, MD, n)


@njit(cache=True, _nrt=False)
def candidates(kind, p, S, F, Z, M, ip, pp, ban, ST, W, card, cand, score, sub):
    """The candidate actions of decision ``kind`` in cand[:n]; returns n.
    Place: each placeable rune kind; start: -1 (no) and each revealed slot;
    join: 0 (no), 1 (yes). With search_top_k > 0 and more candidates, the
    top_k best by counter's score (placement value, card_ev as initiator or
    as participant, 0 for not starting or declining), ties uniform."""
    n = 0
    if kind == D_PLACE:
        for k in range(12):
            if S[p, C_H + k] > 0 and ban[k] != BAN_FORBID:
                cand[n] = k
                n += 1
    elif kind == D_START:
        cand[0] = -1
        n = 1
        for j in range(2):
            if Z[Z_REV + j] >= 0:
                cand[n] = j
                n += 1
    else:
        cand[0] = 0
        cand[1] = 1
        n = 2
    topk = ip[P_TOPK]
    if topk <= 0 or n <= topk:
        return n
    if kind == D_PLACE:
        c, gvn, gvo, fl = place_terms(S, F, Z, M, ST, p, W, ip, pp)
        for i in range(n):
            e, _ = place_value(W, M, c, cand[i], gvn, gvo, fl)
            score[i] = e
    else:
        view(S, F, Z, p, W)
        for i in range(n):
            a = cand[i]
            if (kind == D_START and a < 0) or (kind == D_JOIN and a == 0):
                score[i] = 0.0
                continue
            cc = Z[Z_REV + a] if kind == D_START else card
            ps = chance(W, M, cc, np.int64(M_BASE))
            po = chance(W, M, cc, np.int64(M_OVER))
            score[i] = card_ev(M, cc, ps, po, kind == D_START, ip, pp)
    for t in range(topk):               # selection: the best of cand[t:n] to slot t
        best = t
        ties = 1
        for i in range(t + 1, n):
            if score[i] > score[best]:
                best = i
                ties = 1
            elif score[i] == score[best]:
                ties += 1
                if below(sub, ties) == 0:
                    best = i
        a = cand[t]
        cand[t] = cand[best]
        cand[best] = a
        s = score[t]
        score[t] = score[best]
        score[best] = s
    return topk


@njit(cache=True, _nrt=False)
def rollout(kind, a, p, init, card, part, nj, rpol, S, F, pile, Z, MD, M, ST, W, ip, pp, ban,
            masks, counts, tr):
    """Apply candidate ``a`` of decision ``kind`` by seat p in the scratch
    state, finish the current turn and play to the end with ``rpol`` at
    every seat. Join: ``init`` started the resonance on ``card``, ``part``
    and ``nj`` are the joins so far. Returns p's result (1 win, 1/k a win
    shared by k, 0 otherwise)."""
    P = S.shape[0]
    rp = rpol[0]
    on = False
    cur = p
    if kind == D_PLACE:
        e = turn_place(rp, S, F, pile, Z, M, ST, p, a, W, ip, pp, masks, counts, tr, on)
        if e == -1:
            j = wants_start(rp, S, F, Z, M, ST, p, W, ip, pp)
            e = turn_resonance(rpol, S, F, pile, Z, MD, M, ST, p, j, W, ip, pp, masks, counts,
                               tr, on)
    elif kind == D_START:
        e = turn_resonance(rpol, S, F, pile, Z, MD, M, ST, p, a, W, ip, pp, masks, counts,
                           tr, on)
    else:
        cur = init
        if a == 1:
            part |= np.int64(1) << p
            nj += 1
            S[p, C_JOINED] += 1
        q = p
        while True:                     # the seats after p, up to the initiator
            q = q + 1 if q + 1 < P else 0
            if q == init:
                break
            if S[q, C_IN] == 0:
                continue
            if wants_join(rp, S, F, Z, M, ST, q, W, card, ip, pp):
                part |= np.int64(1) << q
                nj += 1
                S[q, C_JOINED] += 1
        out = res_close(rpol, S, F, pile, Z, MD, M, ST, init, card, part, nj, ip, masks, counts,
                        tr, on)
        e = after_resonance(S, Z, ip, init, out, tr, on)
    if e < 0:
        nxt = Z[Z_NEXT]
        cur = nxt if nxt >= 0 else next_in(S, cur, P)
        e, _, _ = run_turns(rpol, S, F, pile, Z, MD, M, ST, W, ip, pp, ban, masks, counts, tr,
                            on, False, cur, Z[Z_TURN])
    mask = winners(S, P, e)
    if (mask >> p) & 1 == 0:
        return 0.0
    k = 0
    for q in range(P):
        k += (mask >> q) & 1
    return 1.0 / k


@njit(cache=True, _nrt=False)
def search_decide(kind, pol, p, S, F, pile, Z, MD, M, ip, pp, ban, init, card, part, nj, s0,
                  XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs, pool, cand, tot, score, sub):
    """Seat p's action at decision ``kind`` (its search level ``pol``) from
    substream state ``s0``: every candidate is played on the same
    determinizations and rollout streams; the best mean result, ties
    uniform. Reads the real state, writes only the scratch arrays."""
    P = S.shape[0]
    sub[0] = s0
    for q in range(P):
        XST[q] = mix64(s0 ^ (np.uint64(q + 1) * SEAT_MIX))
    n = candidates(kind, p, S, F, Z, M, ip, pp, ban, XST, XW, card, cand, score, sub)
    if n == 1:
        return cand[0]
    lv = pol - POL_SEARCH_FAST
    nd = max(np.int64(1), ip[P_DET] * LEVEL_NUM[lv] // LEVEL_DEN[lv])
    nr = max(np.int64(1), ip[P_ROLL])
    rp = POL_COUNTER if ip[P_RPOL] == 0 else POL_RANDOM
    for q in range(P):
        rpol[q] = rp
    for i in range(n):
        tot[i] = 0.0
    for d in range(nd):
        copy_state(S, F, pile, Z, MD, XS[0], XF[0], XP[0], XZ[0], XMD[0])
        determinize(p, ban, XS[0], XF[0], XP[0], XZ[0], XMD[0], sub, pool)
        for r in range(nr):
            rs = next_u64(sub)
            for i in range(n):
                copy_state(XS[0], XF[0], XP[0], XZ[0], XMD[0], XS[1], XF[1], XP[1], XZ[1],
                           XMD[1])
                for q in range(P):
                    XST[q] = mix64(rs ^ (np.uint64(q + 1) * SEAT_MIX))
                tot[i] += rollout(kind, cand[i], p, init, card, part, nj, rpol, XS[1], XF[1],
                                  XP[1], XZ[1], XMD[1], M, XST, XW, ip, pp, ban, mk, ck, trs)
    best = 0
    ties = 1
    for i in range(1, n):
        if tot[i] > tot[best]:
            best = i
            ties = 1
        elif tot[i] == tot[best]:
            ties += 1
            if below(sub, ties) == 0:
                best = i
    return cand[best]


def decide(kind, s0, p, pol, S, F, pile, Z, MD, M, ip, pp, ban, init=-1, card=-1, part=0,
           nj=0):
    """One search decision from a given state (tests): seat p at level
    ``pol`` (a policy id), decision ``kind`` (D_PLACE, D_START, D_JOIN; a
    join: ``init`` started on ``card``, ``part`` / ``nj`` the joins so far)
    from substream state ``s0``. The state arrays are only read."""
    return int(search_decide(np.int64(kind), np.int64(pol), np.int64(p), S, F, pile, Z, MD, M,
                             ip, pp, ban, np.int64(init), np.int64(card), np.int64(part),
                             np.int64(nj), np.uint64(s0), *search_work(S.shape[0])))


@njit(cache=True, _nrt=False)
def turn_s(pol, S, F, pile, Z, MD, M, ST, p, W, ip, pp, ban, masks, counts, tr, on, base,
           XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs, pool, cand, tot, score, sub):
    """``turn.turn`` with the search levels' placement, start and joins
    searched (``search_decide``); every other choice is the policies'."""
    mine = pol[p]
    e = turn_head(mine, S, F, pile, Z, M, ST, p, W, ip, pp, ban, masks, counts, tr, on)
    if e >= 0:
        return e
    key = Z[Z_TURN] * 4
    if mine >= POL_SEARCH_FAST and placeable(S, p, ban) > 0:
        k = search_decide(np.int64(D_PLACE), mine, p, S, F, pile, Z, MD, M, ip, pp, ban, p,
                          np.int64(-1), np.int64(0), np.int64(0),
                          substream(base, p, key + D_PLACE), XS, XF, XP, XZ, XMD, XST, XW, rpol,
                          mk, ck, trs, pool, cand, tot, score, sub)
    else:
        k = choose_place(mine, S, F, Z, M, ST, p, W, ip, pp, ban)
    e = turn_place(mine, S, F, pile, Z, M, ST, p, k, W, ip, pp, masks, counts, tr, on)
    if e != -1:
        return e if e >= 0 else np.int64(-1)
    if mine >= POL_SEARCH_FAST:
        Z[Z_DEC] += 1
        j = search_decide(np.int64(D_START), mine, p, S, F, pile, Z, MD, M, ip, pp, ban, p,
                          np.int64(-1), np.int64(0), np.int64(0),
                          substream(base, p, key + D_START), XS, XF, XP, XZ, XMD, XST, XW, rpol,
                          mk, ck, trs, pool, cand, tot, score, sub)
    else:
        j = wants_start(mine, S, F, Z, M, ST, p, W, ip, pp)
    if j < 0:
        if on:
            ev(tr, Z, E_NOSTART, p, 0, 0, 0, 0, 0)
        return np.int64(-1)
    # the resonance (turn.resonate) with the search levels' joins searched
    P = S.shape[0]
    card = res_open(S, Z, p, j, tr, on)
    part = np.int64(1) << p
    nj = 0
    q = p
    for _ in range(P - 1):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 0:
            continue
        if pol[q] >= POL_SEARCH_FAST:
            Z[Z_DEC] += 1
            yes = search_decide(np.int64(D_JOIN), pol[q], q, S, F, pile, Z, MD, M, ip, pp, ban,
                                p, card, part, np.int64(nj),
                                substream(base, q, key + D_JOIN), XS, XF, XP, XZ, XMD, XST, XW,
                                rpol, mk, ck, trs, pool, cand, tot, score, sub) == 1
        else:
            yes = wants_join(pol[q], S, F, Z, M, ST, q, W, card, ip, pp)
        if yes:
            part |= np.int64(1) << q
            nj += 1
            S[q, C_JOINED] += 1
        if on:
            ev(tr, Z, E_JOIN, q, 1 if yes else 0, card, 0, 0, 0)
    out = res_close(pol, S, F, pile, Z, MD, M, ST, p, card, part, nj, ip, masks, counts, tr, on)
    return after_resonance(S, Z, ip, p, out, tr, on)


@njit(cache=True, _nrt=False)
def play_from_s(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban, masks, counts, tr, on,
                check, cur, turns, grow, srow, base, XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck,
                trs, pool, cand, tot, score, sub):
    """``turn.play_from`` for a table with search seats (``turn_s``)."""
    P = S.shape[0]
    maxt = ip[P_MAXT]
    errors = 0
    end = check_end(S, Z, ip, P, tr, on)      # a deal that emptied the deck
    if end < 0:
        end = END_CAP
        while turns < maxt:
            turns += 1
            Z[Z_TURN] = turns
            e = turn_s(pol, S, F, pile, Z, MD, M, ST, cur, W, ip, pp, ban, masks, counts, tr, on,
                       base, XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs, pool, cand, tot,
                       score, sub)
            if check:
                errors += broken_invariants(S, F, Z, MD, ip, P)
            if e >= 0:
                end = e
                break
            nxt = Z[Z_NEXT]
            cur = nxt if nxt >= 0 else next_in(S, cur, P)
    finish(S, Z, M, tr, on, P, end, turns, grow, srow)
    return errors


jit.kernel_cache_end()
