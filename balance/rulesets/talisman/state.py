"""Talisman Poker's state for the game engine (``core.engine``): the
``State`` and ``Ctx`` NamedTuples, built in Python, and the njit
functions over them that do not play: ``copy``, ``reseed``,
``redeal_hidden`` and ``info_key``.

- ``State``: ``S`` int64[P, NS] per-seat scalars, ``hand`` int64[P, HCAP]
  card ids in the order they entered the hand, ``pile`` int64[3, NC_MAX]
  (row 0 the deck, top = last; row 1 the discard pile; row 2 the batch's
  unshuffled deck), ``Z`` int64[NZ] the globals and the phase machine
  (``layout.Z_*``), ``st`` uint64[1] the game's stream.
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the int rule and policy
  vector ``ip``, the float policy parameters ``pp`` float64[seats, K] (row
  p: seat p's, ``RulesetSpec.kernel_arrays``), the ban codes, the special
  tables ``spbest`` int64[seats, 32] (row p: from ``pp[p]``), the
  search parameters ``sp`` (``core.engine.search_vector``), the policies'
  scratch (``sizes``, ``acts``, ``pool``, ``cnt``) and ``V``/``NB``.
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled

from ...core import engine, jit
from ...core.kernel import copy_head, copy_piles  # before kernel_cache_begin
from ...core.rng import mix_into, shuffle
from .layout import C_HN, C_JUNK, C_SPEC, HCAP, NC_MAX, NS, NZ, Z_DECK, Z_DISC, Z_TR
from .rules import QIDX
from .state_slots import P_V, SM
from .state_zones import empty_hand, to_hand

State = namedtuple("State", "S hand pile Z st")
Ctx = namedtuple("Ctx", "pol P ip pp ban spbest sp sizes acts pool cnt V NB")


def new_state(P: int) -> State:
    return State(np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
                 np.zeros((3, NC_MAX), np.int64), np.zeros(NZ, np.int64), np.zeros(1, np.uint64))


def context(P, pol, ip, pp, ban) -> Ctx:
    """One thread's context for a batch (its scratch arrays are its own);
    ``pp`` holds one row of float policy parameters per seat."""
    P = int(P)
    if np.ndim(pp) != 2 or pp.shape[0] < P:
        raise ValueError("talisman context: pp must be float64[seats >= P, K] "
                         "(RulesetSpec.kernel_arrays), got shape %s" % (np.shape(pp),))
    V = int(ip[P_V])
    return Ctx(np.ascontiguousarray(pol[:P], np.int64), np.int64(P), ip, pp, ban,
               np.zeros((pp.shape[0], 32), np.int64),
               engine.search_vector(lambda n, d: ip[QIDX[n]] if n in QIDX else d),
               np.zeros(SM + 16, np.int64), np.zeros(NC_MAX, np.int64),
               np.zeros(NC_MAX, np.int64), np.zeros(NC_MAX, np.int64),
               np.int64(V), np.int64(5 * V))


jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b`` (the cards in use only; not the unshuffled deck)."""
    for q in range(a.S.shape[0]):
        copy_head(a.S[q], b.S[q], NS)
        copy_head(a.hand[q], b.hand[q], a.S[q, C_HN])
    copy_piles(a.pile, b.pile, a.Z, Z_DECK, Z_DISC)
    copy_head(a.Z, b.Z, NZ)
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """A new game stream from ``x`` (a rollout's)."""
    s.st[0] = x


@compiled
def redeal_hidden(s, c, p, rng):
    """Deal again, from ``rng``, what seat p cannot see: the opponents'
    hands and the deck are pooled in card-id order (their real places are
    never read), shuffled and dealt back, each hand keeping its size and
    the deck its size. p's hand, every array, the discard pile (face up),
    HP, guards and skips stay."""
    S, hand, pile, Z = s.S, s.hand, s.pile, s.Z
    P = S.shape[0]
    cnt, pool = c.cnt, c.pool
    NK = c.NB + 5
    for k in range(NK):
        cnt[k] = 0
    for q in range(P):
        if q != p:
            for j in range(S[q, C_HN]):
                cnt[hand[q, j]] += 1
    for j in range(Z[Z_DECK]):
        cnt[pile[0, j]] += 1
    n = 0
    for k in range(NK):
        for _ in range(cnt[k]):
            pool[n] = k
            n += 1
    shuffle(rng, pool, n)
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


@compiled
def info_key(s, c, p):
    """A hash of what seat p can see: the phase machine, its own hand (in
    order), every seat's public columns (HP, guards, skips, hand size,
    array, ...), the deck's size and the discard pile."""
    S, hand, pile, Z = s.S, s.hand, s.pile, s.Z
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j != Z_TR:
            h = mix_into(h, Z[j])
    for j in range(S[p, C_HN]):
        h = mix_into(h, hand[p, j])
    for q in range(S.shape[0]):
        for j in range(C_JUNK):             # the others' specials in hand are hidden
            if q == p or j < C_SPEC or j >= C_SPEC + 5:
                h = mix_into(h, S[q, j])
    for j in range(Z[Z_DISC]):
        h = mix_into(h, pile[1, j])
    return h


jit.kernel_cache_end()
