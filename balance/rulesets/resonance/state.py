"""Magic Resonance's state for the game engine (``core.engine``): the
``State`` and ``Ctx`` NamedTuples, built in Python, the slots of the
context's rule and policy vectors, and the njit functions over a state
that do not play: ``copy``, ``reseed``, ``redeal_hidden`` (with
``determinize``) and ``info_key``. The helpers the rules play on the
state's arrays (the seats' streams, draws, reveals, discards) are in
``state_zones``; every other module of the kernel imports from here.

- ``State``: ``S`` int64[P, NS] per-seat scalars and hand counts (hands
  are multisets: the order of cards in a hand never matters), ``F``
  int64[3, NC_MAX] the field in placement order (kind, column, which
  seats know it; cleared after each resonance), ``pile`` int64[2, NC_MAX]
  (row 0 the rune deck, top = last; row 1 the batch's unshuffled deck; the
  discard pile is public, so it is kept as counts per kind in ``Z``),
  ``Z`` int64[NZ] the globals and the phase machine (``layout.Z_*``),
  ``MD`` int64[18] the magic deck (top = last), ``st`` uint64[1] the
  game's stream (the deal), ``ST`` uint64[P] each seat's own stream (its
  policy's draws: ``core.rng.seat_streams``).
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the rule and policy vectors
  ``ip`` (int64[K]: the rule ints at ``P_*``, then the policy ints) and
  ``pp`` (float64[players_max, K]: row p is seat p's float policy
  parameters, at ``Q_*``; ``RulesetSpec.kernel_arrays``), the ban codes,
  the magic-card table ``M``, the search parameters ``sp``
  (``core.engine.search_vector``) and the policies' scratch (``W`` the
  view, ``pool``).
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled

from ...core import engine, jit
from ...core.kernel import BAN_FORBID, copy_head  # before kernel_cache_begin
from ...core.rng import mix_into, seat_streams, shuffle
from .layout import (C_H, C_HN, DISSOLVE, F_KIND, F_KNOW, N_MAGIC, NC_MAX, NK, NS, NZ, Z_DECK,
                     Z_FN, Z_MD, Z_TR)
from .rules import IDX, N_RULE_INTS, PIDX

# --- the rule slots of Ctx.ip ---------------------------------------------------
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
# --- the float policy slots of a seat's row of Ctx.pp --------------------------
Q_PSTART = PIDX["p_start"]
Q_PJOIN = PIDX["p_join"]
Q_START = PIDX["start_threshold"]
Q_JOIN = PIDX["join_threshold"]
Q_RISK = PIDX["overdraft_risk"]
Q_DISSV = PIDX["dissolve_value"]
Q_HIT = PIDX["hit_value"]


State = namedtuple("State", "S F pile Z MD st ST")
Ctx = namedtuple("Ctx", "pol P ip pp ban M sp W pool")


def new_state(P: int) -> State:
    return State(np.zeros((P, NS), np.int64), np.zeros((3, NC_MAX), np.int64),
                 np.zeros((2, NC_MAX), np.int64), np.zeros(NZ, np.int64),
                 np.zeros(N_MAGIC, np.int64), np.zeros(1, np.uint64), np.zeros(P, np.uint64))


def context(P, pol, ip, pp, ban, M) -> Ctx:
    """One thread's context for a batch (its scratch arrays are its own);
    ``pp`` is 2-D, one row per seat."""
    P = int(P)
    slot = {n: N_RULE_INTS + i for n, i in PIDX.items()}
    return Ctx(np.ascontiguousarray(pol[:P], np.int64), np.int64(P), ip, pp, ban, M,
               engine.search_vector(lambda n, d: ip[slot[n]] if n in slot else d),
               np.zeros(48, np.float64), np.zeros(NC_MAX + NK, np.int64))


jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b`` (the live parts; not the unshuffled deck)."""
    for q in range(a.S.shape[0]):
        copy_head(a.S[q], b.S[q], NS)
        b.ST[q] = a.ST[q]
    for r in range(3):
        copy_head(a.F[r], b.F[r], a.Z[Z_FN])
    copy_head(a.pile[0], b.pile[0], a.Z[Z_DECK])
    copy_head(a.Z, b.Z, NZ)
    copy_head(a.MD, b.MD, a.Z[Z_MD])
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """New streams for the game and every seat, from ``x`` (a rollout's)."""
    s.st[0] = x
    seat_streams(s.ST, x)


@compiled
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


@compiled
def redeal_hidden(s, c, p, rng):
    """Everything seat p cannot see dealt again from ``rng`` (``determinize``)."""
    determinize(p, c.ban, s.S, s.F, s.pile, s.Z, s.MD, rng, c.pool)


@compiled
def info_key(s, c, p):
    """A hash of what seat p can see: the globals (public counts, revealed
    cards, the discard pile, the phase machine), its own hand, every seat's
    public columns, the field runes it knows (the others as unknown) with
    their columns and who knows them."""
    S, F, Z = s.S, s.F, s.Z
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j != Z_TR:
            h = mix_into(h, Z[j])
    for q in range(S.shape[0]):
        for j in range(NS):
            if q == p or j < C_H or j >= C_H + NK:
                h = mix_into(h, S[q, j])
    bit = np.int64(1) << p
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        h = mix_into(h, k if k < 0 or (F[F_KNOW, i] & bit) != 0 else -2)    # -1: dissolved
        h = mix_into(h, F[1, i])
        h = mix_into(h, F[F_KNOW, i])
    return h


jit.kernel_cache_end()
