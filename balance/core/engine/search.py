"""The search policies, written once against the step interface (see the
package's docstring): determinized flat Monte Carlo (``core.search.LEVELS``
and the cheating ``oracle``) and information-set MCTS (``ismcts``).

Randomness: one scheme. A search of seat p at the game's decision number
``nd`` draws from ``key = search_key(seed, game, p, nd)`` only (``sst``
for its shuffles and re-deals, ``game_state(key, i)`` for the stream of
rollout i); the game's own stream is never read nor advanced, so the real
game does not depend on how much was searched, nor on anything hidden.

Scoring (every rollout): the game hands out one point, split equally among
its winners, or among all seats when nobody wins (a draw, the turn cap).
A rollout stopped ``search_rollout_turns`` turns after the decision splits
it among the seats ``R.standing`` names (the seats still in the game, or
whom the rules would score ahead; a ruleset without it: every seat).

Flat Monte Carlo: the options (``R.options``), in an order shuffled from the
search stream, then sorted by ``R.prior`` (stable: equal priors keep the
shuffled order) and kept to the ``search_top_k`` best (0: every option);
each determinization (the same for every option) and rollout get a stream
of their own, so the options compare on common random numbers; the best
mean share is played, equal shares going to the option the prior ranks
first (the default heuristic's preference; among equal priors, at random).
The options are ranked by the prior whatever ``search_top_k`` is: with few
rollouts most options tie (every rollout lost, or every one won), and a tie
broken at random plays at random where the heuristic knows better (Magic
Resonance's ``search_fast``, 8 determinizations of every option, won 48.8%
of its games against counter's 52.0% while its ties fell at random, and
71.7% against 29.5% once they went to counter's preference: 4 players,
1,000 deals a lineup, seats rotated, seed 3).

ISMCTS (single-observer, Cowling, Powley and Whitehouse 2012; OpenSpiel's
``ismcts.py`` keys its nodes the same way): one tree over the searching
seat's information sets, each keyed by ``R.info_key``, re-determinized
every iteration (``R.redeal_hidden``); the edges (information set,
option) hold visits, reward sums and availability counts; selection by UCB
over the options legal in this determinization (unvisited ones first,
uniformly), one new edge per iteration, then the rollout policy to the
end. The other seats play the rollout policy inside the tree too: their
information sets differ in every determinization (they hold the re-dealt
cards), so nodes of theirs would each be visited once, and an unvisited
node's uniform choice would make them play at random.
The root's most visited option is played. The tree lives in a hash table
of ``TABLE`` edges cleared by a generation stamp.
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled, ir_inlined

from .. import jit
from ..layout import Z_TURN
from ..rng import below, game_state, mix64, shuffle
from . import CACHE, DEN, KIND, NUM, R, RULESET, K_ORACLE, K_ISMCTS, SP_CAP, SP_DET, SP_ITER, \
    SP_ROLL, SP_RPOL, SP_TOPK

jit.kernel_cache_begin(RULESET, CACHE)

SALT = np.uint64(0x5EA2C4D1E7A9B3F1)
EXPLORE = 0.7           # UCB's exploration constant (shares lie in [0, 1])
TABLE = 1 << 15         # ISMCTS edges per decision (a power of 2)
DEPTH = 256             # ISMCTS tree depth kept per iteration
NCAND = 1024            # options per decision (a ruleset lists at most this many)


# one class for every scratch: numba types a NamedTuple by its class, so a
# class made per call would compile the search (and the batch loop) again for
# every batch, and never load it from numba's cache
SearchWork = namedtuple("SearchWork", "s1 s2 cand rows wins score sst masks counts tr "
                                      "hkey stamp gen n w avail path stats")


def search_work(new_state, masks_shape, counts_shape):
    """One thread's search scratch: two states (``new_state()``), the
    options and their scores, the stream, the rollouts' record sinks, the
    ISMCTS table and the counters ``stats`` (decisions searched, rollouts,
    decisions played in rollouts and in the tree, options searched)."""
    return SearchWork(new_state(), new_state(), np.zeros(NCAND, np.int64), np.zeros(NCAND, np.int64),
             np.zeros(NCAND, np.float64),
             np.zeros(NCAND, np.float64), np.zeros(1, np.uint64),
             np.zeros(masks_shape, np.uint64), np.zeros(counts_shape, np.int64),
             np.zeros((1, 8), np.int64), np.zeros(TABLE, np.uint64), np.zeros(TABLE, np.int64),
             np.zeros(1, np.int64), np.zeros(TABLE, np.float64), np.zeros(TABLE, np.float64),
             np.zeros(TABLE, np.float64), np.zeros(DEPTH, np.int64),
             np.zeros(4, np.int64))


@compiled
def search_key(seed, game, p, nd):
    """The root of seat p's search streams at the game's decision ``nd``."""
    return game_state(mix64(game_state(seed, game) ^ SALT), p * 4294967296 + nd)


if hasattr(R, "standing"):
    standing = R.standing
else:
    @ir_inlined
    def standing(s, c):
        """A ruleset without ``standing``: every seat (a stopped rollout is a draw)."""
        return np.int64(0)


@ir_inlined
def share(s, c, p):
    """p's share of the game's point (see the module docstring)."""
    w = R.winners(s, c) if R.done(s, c) else standing(s, c)
    if w == 0:
        return 1.0 / c.P
    k = 0
    x = w
    while x != 0:
        x &= x - 1
        k += 1
    return (1.0 / k) if (w >> p) & 1 else 0.0


@compiled
def rollout(s, c, rpol, stop, sw):
    """Play on with heuristic ``rpol`` at every seat, untraced and
    unchecked, until the end or turn ``stop``."""
    k = 0
    while not R.done(s, c) and s.Z[Z_TURN] < stop:
        code = R.heuristic(s, c, rpol)
        R.apply(s, c, code, sw.masks, sw.counts, sw.tr, False, False)
        k += 1
    sw.stats[2] += k


@compiled
def flat(s, c, p, kind, num, den, key, sw):
    """Determinized flat Monte Carlo's option for seat p."""
    cand = sw.cand
    n = R.options(s, c, cand)
    if n <= 1:
        return cand[0]
    sst = sw.sst
    sst[0] = key
    shuffle(sst, cand, n)
    score = sw.score
    R.copy(s, sw.s1)                        # scored on a copy whose streams are the search's
    R.reseed(sw.s1, key)
    for i in range(n):
        score[i] = R.prior(sw.s1, c, cand[i])
    for i in range(1, n):                   # stable insertion sort, best first
        a = cand[i]
        x = score[i]
        j = i - 1
        while j >= 0 and score[j] < x:
            cand[j + 1] = cand[j]
            score[j + 1] = score[j]
            j -= 1
        cand[j + 1] = a
        score[j + 1] = x
    k = c.sp[SP_TOPK]
    if k > 0:
        n = min(n, k)
    D = max(1, c.sp[SP_DET] * num // den)
    RR = c.sp[SP_ROLL]
    rpol = R.ROLLOUT[c.sp[SP_RPOL]]
    stop = s.Z[Z_TURN] + c.sp[SP_CAP]
    wins = sw.wins
    for i in range(n):
        wins[i] = 0.0
    for d in range(D):
        R.copy(s, sw.s1)
        if kind != K_ORACLE:
            R.redeal_hidden(sw.s1, c, p, sst)
        for i in range(n):
            for r in range(RR):
                R.copy(sw.s1, sw.s2)
                R.reseed(sw.s2, game_state(key, d * RR + r))
                R.apply(sw.s2, c, cand[i], sw.masks, sw.counts, sw.tr, False, False)
                rollout(sw.s2, c, rpol, stop, sw)
                wins[i] += share(sw.s2, c, p)
    best = 0
    for i in range(1, n):
        if wins[i] > wins[best]:
            best = i
    sw.stats[0] += 1
    sw.stats[1] += D * RR * n
    sw.stats[2] += D * RR * n           # each option's own move
    sw.stats[3] += n
    return cand[best]


@ir_inlined
def edge(sw, gen, h):
    """The table slot of edge key ``h`` (inserted when new; -1: full)."""
    m = TABLE - 1
    i = np.int64(h & np.uint64(m))
    for _ in range(64):
        if sw.stamp[i] != gen:
            sw.stamp[i] = gen
            sw.hkey[i] = h
            sw.n[i] = 0.0
            sw.w[i] = 0.0
            sw.avail[i] = 0.0
            return i
        if sw.hkey[i] == h:
            return i
        i = (i + 1) & m
    return np.int64(-1)


@ir_inlined
def edge_key(ik, code):
    return mix64(ik ^ (np.uint64(code + 1) * np.uint64(0x9E3779B97F4A7C15)))


@compiled
def ismcts(s, c, p, key, sw):
    """Information-set MCTS's option for seat p."""
    cand = sw.cand
    n = R.options(s, c, cand)
    if n <= 1:
        return cand[0]
    sst = sw.sst
    sst[0] = key
    sw.gen[0] += 1
    gen = sw.gen[0]
    rpol = R.ROLLOUT[c.sp[SP_RPOL]]
    stop = s.Z[Z_TURN] + c.sp[SP_CAP]
    rows = sw.rows                          # the options of in-tree decisions
    s1 = sw.s1
    for it in range(c.sp[SP_ITER]):
        R.copy(s, s1)
        R.redeal_hidden(s1, c, p, sst)
        R.reseed(s1, game_state(key, it))
        depth = 0
        tree = True
        while not R.done(s1, c) and s1.Z[Z_TURN] < stop:
            if not tree or depth == DEPTH:
                rollout(s1, c, rpol, stop, sw)
                break
            q = R.seat(s1, c)
            if q != p:                      # the others play the rollout policy
                R.apply(s1, c, R.heuristic(s1, c, rpol), sw.masks, sw.counts, sw.tr, False,
                        False)
                sw.stats[2] += 1
                continue
            m = R.options(s1, c, rows)
            ik = R.info_key(s1, c, q)
            best = -1
            bestv = -1.0
            nun = 0
            for i in range(m):
                e = edge(sw, gen, edge_key(ik, rows[i]))
                if e < 0:
                    continue
                sw.avail[e] += 1.0
                if sw.n[e] == 0.0:
                    nun += 1
                    if below(sst, nun) == 0:        # uniform among the unvisited
                        best = i
                        bestv = 1e300
                elif bestv < 1e300:
                    v = sw.w[e] / sw.n[e] + EXPLORE * np.sqrt(np.log(sw.avail[e]) / sw.n[e])
                    if v > bestv:
                        bestv = v
                        best = i
            if best < 0:                    # the table is full: play on by rollout
                tree = False
                continue
            code = rows[best]
            sw.path[depth] = edge(sw, gen, edge_key(ik, code))
            depth += 1
            if nun > 0:
                tree = False                # a new edge: the rest is the rollout
            R.apply(s1, c, code, sw.masks, sw.counts, sw.tr, False, False)
            sw.stats[2] += 1
        v = share(s1, c, p)                 # the tree holds p's decisions only
        for d in range(depth):
            e = sw.path[d]
            sw.n[e] += 1.0
            sw.w[e] += v
    sw.stats[0] += 1
    sw.stats[1] += c.sp[SP_ITER]
    sw.stats[3] += n
    ik = R.info_key(s, c, p)
    best = 0
    bn = -1.0
    for i in range(n):
        e = edge(sw, gen, edge_key(ik, cand[i]))
        if e >= 0 and sw.n[e] > bn:
            bn = sw.n[e]
            best = i
    return cand[best]


@compiled
def choose(s, c, p, pol, key, sw):
    """Search policy ``pol``'s option for seat p (``key``: ``search_key``)."""
    if KIND[pol] == K_ISMCTS:
        return ismcts(s, c, p, key, sw)
    return flat(s, c, p, KIND[pol], NUM[pol], DEN[pol], key, sw)


jit.kernel_cache_end()
