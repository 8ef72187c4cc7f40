"""Magic Elite's state for the game engine (``core.engine``): the ``State``
and ``Ctx`` NamedTuples, built in Python, and the njit functions over them
that do not play: ``copy``, ``reseed``, ``redeal_hidden``, ``info_key``.

- ``State``: ``S`` int64[P, NS] per-seat scalars and hands (``layout``),
  ``pile`` int64[2, NCAP] (row 0 the play deck, top = last; row 1 the
  discard pile), ``Z`` int64[NZ] the globals, the exchange and the step
  machine (``layout.Z_*``), ``st`` uint64[1] the game's stream.
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the rule vector ``ip``,
  the float policy parameters ``pp`` float64[4, K] (row p: seat p's,
  ``spec.kernel_arrays``; the policies read the deciding seat's row, the
  rules code ``pp[q, ...]`` for a choice seat q makes), the play table
  ``PT``/``PID``, the search parameters ``sp`` (``core.engine.search_vector``),
  and the policies' scratch: the option buffer ``acts``, the script rows
  ``script`` (tests), greedy's scores ``sink``, the re-deal's pool ``pool``,
  and the deciding seat's row of ``pp`` (``prow``, ``pseat``, ``pvar``: see
  :func:`context`).
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled

from ....core import engine, jit
from ....core.kernel import copy_head, copy_piles  # before kernel_cache_begin: cached with core
from ....core.rng import below, mix_into, shuffle
from ..layout import (C_DQ, C_G, C_GEN, C_H, C_HN, C_M, C_POL, C_RM, MAXA, NCAP, NS,
                      NZ, P_DECKS, P_GENS, P_POL, Z_DECK, Z_DISC, Z_MOWN, Z_MPOS, Z_ON, Z_OPTS,
                      Z_P, Z_SERR, Z_SP, Z_TIES, Z_TR, Z_V)
from ..rules import PIDX
from . import RULESET, VARIANT

State = namedtuple("State", "S pile Z st")
Ctx = namedtuple("Ctx", "pol P ip pp PT PID sp acts script sink pool prow pseat pvar")

PK = NCAP                 # pool[PK + kind]: hidden cards per kind; pool[PI + ident]: v2 generals
PI = NCAP + 36


def new_state(P: int) -> State:
    P = int(P)
    return State(np.zeros((P, NS), np.int64), np.zeros((2, NCAP), np.int64),
                 np.zeros(NZ, np.int64), np.zeros(1, np.uint64))


def context(P, pol, ip, pp, PT, PID, script=None) -> Ctx:
    """One thread's context for a batch (its scratch arrays are its own).
    ``prow`` holds one seat's row of ``pp`` (seat ``pseat[0]``), the 1-D
    vector greedy reads (``policies.seat_row``); ``pvar``: the rows differ (a
    policy variant plays), so the row is copied when the deciding seat
    changes; else ``prow`` is every seat's and never copied (reading a row
    view of the 2-D ``pp`` in the greedy path cost elite v3 greedy about
    1.3x, A/B in docs/performance.md)."""
    P = int(P)
    pp = np.ascontiguousarray(pp, np.float64)
    return Ctx(np.ascontiguousarray(np.asarray(pol)[:P], np.int64), np.int64(P), ip, pp, PT, PID,
               engine.search_vector(lambda n, d: ip[P_POL + PIDX[n]] if n in PIDX else d),
               np.zeros((MAXA, 4), np.int64),
               np.full((1, 4), -1, np.int64) if script is None else script,
               np.zeros(MAXA, np.float64), np.zeros(NCAP + 64, np.int64),
               pp[0].copy(), np.zeros(1, np.int64), np.bool_((pp[:P] != pp[0]).any()))


jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b``: the seat slots before the duel pile (which a
    duel writes before it reads), the piles as far as they hold cards, Z,
    the stream."""
    for q in range(a.Z[Z_P]):
        copy_head(a.S[q], b.S[q], C_DQ)
    copy_piles(a.pile, b.pile, a.Z, Z_DECK, Z_DISC)
    copy_head(a.Z, b.Z, NZ)
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """A new game stream from ``x`` (a rollout's)."""
    s.st[0] = x


@compiled
def redeal_hidden(s, c, p, rng):
    """Deal again, from ``rng``, what seat p cannot see, consistently with
    what it sees: the other seats' hands (their counts kept; cards a
    rampage shield marked stay with their holder, since marks are public)
    and the deck (its size kept) are dealt again from the pool of those
    cards, built in card-kind order (so the deal depends only on what p
    sees); the mine's position is drawn again unless p buried it (then its
    card stays where it is); v2: the generals the others have not played
    yet are drawn again from the identity cards p has not seen."""
    S, pile, Z = s.S, s.pile, s.Z
    pool = c.pool
    ip = c.ip
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
    shuffle(rng, pool, m)
    j = 0
    for q in range(P):
        if q == p:
            continue
        kept = 0
        for kind in range(36):
            x = S[q, C_RM + kind]
            S[q, C_H + kind] = x
            kept += x
        for _ in range(S[q, C_HN] - kept):
            S[q, C_H + pool[j]] += 1
            j += 1
        for u in range(4):
            S[q, C_M + u] = 0
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
        Z[Z_MPOS] = below(rng, nd) + 1
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
        shuffle(rng, pool, m)
        j = 0
        for q in range(P):
            if q != p:
                for g in range(S[q, C_GEN] + 1, ng):
                    S[q, C_G + g] = pool[j]
                    j += 1


@compiled
def info_key(s, c, p):
    """A hash of what seat p can see: the globals and the step machine
    (not the trace, the mine's position unless p buried it, nor the
    counters the heuristics' hidden choices move), every seat's public
    columns, p's own hand and generals, the others' generals in play, the
    discard pile in order."""
    S, pile, Z = s.S, s.pile, s.Z
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j == Z_TR or j == Z_ON or j == Z_OPTS or j == Z_TIES or j == Z_SP or j == Z_SERR:
            continue
        if j == Z_MPOS and Z[Z_MOWN] != p:
            h = mix_into(h, 1 if Z[j] > 0 else 0)
            continue
        h = mix_into(h, Z[j])
    for q in range(Z[Z_P]):
        for j in range(C_DQ):
            if j == C_POL:
                continue
            if q != p:
                if C_M <= j < C_H + 36:                 # the others' hands
                    continue
                if C_G <= j < C_G + 8 and j - C_G > S[q, C_GEN]:
                    continue                            # their generals to come
            h = mix_into(h, S[q, j])
    for i in range(Z[Z_DISC]):
        h = mix_into(h, pile[1, i])
    return h


jit.kernel_cache_end()
