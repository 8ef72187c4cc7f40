"""Magic School's state for the game engine (``core.engine``): the
``State`` and ``Ctx`` NamedTuples, built in Python, and the njit functions
over them that do not play: ``copy``, ``reseed``, ``redeal_hidden`` and
``info_key``.

- ``State``: ``S`` int64[P, NS] per-seat statistics (the seat record's
  columns, in order) and working slots; ``hand`` int64[P, HCAP] card ids in
  the order they entered the hand; ``fate`` int64[P, FCAP]; ``B``
  int64[2, 2, BCAP] the books (B[book, 0, j] the card in place j,
  B[book, 1, j] 1 when face up); ``pile`` int64[4, PCAP] the score area;
  ``cards`` int64[3, NCMAX] (row 0 the deck, top = last; row 1 the discard
  pile; row 2 the batch's unshuffled deck); ``KN`` int64[P, KNW] (KN[p, c]
  = 1 when p has seen card c in a hidden book place, KN[p, KN_MASK + b]
  their value masks, KN[p, KN_FATE] its fate cards' values); ``KF``
  int64[P, P, FCAP] (KF[p, q, i] = 1 when p has seen q's i-th fate card);
  ``Z`` int64[NZ] the globals, the phase machine and the meeting
  (``layout.Z_*``); ``st`` uint64[1] the game's stream; ``pst`` uint64[P]
  each seat's own stream (its policy's draws).
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the int vector ``ip``
  (rule and int policy parameters), the float policy parameters ``pp``
  float64[players_max, K] one row per seat (seat p's choices, in play and
  in a search's rollouts, read row ``pp[p]``: ``RulesetSpec.kernel_arrays``),
  the ban codes, the search parameters ``sp``
  (``core.engine.search_vector``), ``bpol`` (the policy each seat plays
  where it does not search: informed for a search policy), the scenario
  ``script``, and the policies' scratch.

The slots of these arrays by name are in ``state_slots`` (and
``layout``), the helpers on them (the zones, the books' masks, the seat
streams) in ``state_zones``. This module imports ``policies``: a re-deal
during a sealed vote casts the other seats' votes again by their own
policies.
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled

from ...core import engine, jit
from ...core.kernel import copy_head  # before kernel_cache_begin
from ...core.rng import mix_into, next_u64, seat_streams, shuffle
from .cards import KIND, KVAL, vbit
from .layout import (BCAP, C_HN, D_VOTE, FCAP, HCAP, KNW, KN_FATE, KN_MASK, NCMAX, NS, NZ, PCAP,
                     PH_VOTE, POL_INFORMED, POL_ISMCTS, POL_SEARCH_FAST, Z_BN, Z_DECK, Z_DISC,
                     Z_NOPT, Z_PHASE, Z_PN, Z_SCR, Z_TR, Z_VOTE)
from .policies import choose_vote
from .rules import N_RULE_INTS, PIDX
from .state_slots import P_FATE, S_FVALS

State = namedtuple("State", "S hand fate B Z pile cards KN KF st pst")
Ctx = namedtuple("Ctx", "pol P ip pp ban sp bpol script out tally tied fs ix buf pool flag")


def new_state(P: int) -> State:
    return State(np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
                 np.full((P, FCAP), -1, np.int64), np.zeros((2, 2, BCAP), np.int64),
                 np.zeros(NZ, np.int64), np.zeros((4, PCAP), np.int64),
                 np.zeros((3, NCMAX), np.int64), np.zeros((P, KNW), np.int64),
                 np.zeros((P, P, FCAP), np.int64), np.zeros(1, np.uint64),
                 np.zeros(P, np.uint64))


def base_policies(pol):
    """The policy a seat plays where it does not search: informed for a
    search policy, else its own."""
    pol = np.asarray(pol, np.int64)
    return np.where((pol >= POL_SEARCH_FAST) & (pol <= POL_ISMCTS), POL_INFORMED, pol)


def context(P, pol, ip, pp, ban, script=None) -> Ctx:
    """One thread's context for a batch (its scratch arrays are its own);
    ``ip``, ``pp``, ``ban`` as ``SPEC.kernel_arrays`` gives them (``pp`` 2-D:
    one row per seat); ``script``: the scenario's script rows
    (scenario.Table), else none."""
    P = int(P)
    pol = np.ascontiguousarray(pol[:P], np.int64)
    slot = {n: N_RULE_INTS + i for n, i in PIDX.items()}
    return Ctx(pol, np.int64(P), ip, pp, ban,
               engine.search_vector(lambda n, d: ip[slot[n]] if n in slot else d),
               base_policies(pol), np.zeros((0, 6), np.int64) if script is None else script,
               np.zeros(4, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64),
               np.zeros(4096, np.float64), np.zeros(4096, np.int64), np.zeros(4, np.int64),
               np.zeros(NCMAX, np.int64), np.zeros(NCMAX, np.int64))


jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b``: the parts in use (the unshuffled deck too:
    check mode reads it)."""
    P = a.S.shape[0]
    Z = a.Z
    for q in range(P):
        copy_head(a.S[q], b.S[q], NS)
        copy_head(a.hand[q], b.hand[q], a.S[q, C_HN])
        copy_head(a.fate[q], b.fate[q], FCAP)
        copy_head(a.KN[q], b.KN[q], KNW)
        for y in range(P):
            copy_head(a.KF[q, y], b.KF[q, y], FCAP)
        b.pst[q] = a.pst[q]
    for x in range(2):
        copy_head(a.B[x, 0], b.B[x, 0], Z[Z_BN + x])
        copy_head(a.B[x, 1], b.B[x, 1], Z[Z_BN + x])
    for h in range(4):
        copy_head(a.pile[h], b.pile[h], Z[Z_PN + h])
    copy_head(a.cards[0], b.cards[0], Z[Z_DECK])
    copy_head(a.cards[1], b.cards[1], Z[Z_DISC])
    copy_head(a.cards[2], b.cards[2], NCMAX)
    copy_head(Z, b.Z, NZ)
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """New streams for the game and every seat, from ``x`` (a rollout's)."""
    s.st[0] = x
    seat_streams(s.pst, x)


@compiled
def redeal_hidden(s, c, p, rng):
    """Deal anew, in place, from ``rng``, every card seat p cannot see: the
    other seats' hands, the fate cards it has not peeked, the hidden spells
    it has not peeked and the deck. The cards are pooled in card-id order
    (so the deal depends on which cards are unseen, never on where they
    lie), shuffled and put back place by place in a fixed order. Counts,
    the discard pile, the face-up spells, the score area, the meeting's
    options and which places each seat peeked (public: the spell names
    them) stay; another seat's knowledge follows the new card in a place it
    peeked. During a sealed vote the votes the other seats already cast
    (p has not seen them) are cast again by their own policies in the new
    deal, from streams drawn from ``rng``."""
    S, hand, fate, B, Z, cards, KN, KF = s.S, s.hand, s.fate, s.B, s.Z, s.cards, s.KN, s.KF
    P = S.shape[0]
    F = c.ip[P_FATE]
    flag, pool, kq = c.flag, c.pool, c.ix
    for x in range(NCMAX):
        flag[x] = 0
    for q in range(P):
        if q != p:
            for i in range(S[q, C_HN]):
                flag[hand[q, i]] = 1
            for i in range(F):
                if KF[p, q, i] == 0 and fate[q, i] >= 0:
                    flag[fate[q, i]] = 1
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                flag[B[b, 0, j]] = 1
    for i in range(Z[Z_DECK]):
        flag[cards[0, i]] = 1
    for q in range(P):              # the hidden places each other seat knows, before they move
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                kq[(q * 2 + b) * BCAP + j] = np.int64(
                    q != p and B[b, 1, j] == 0 and KN[q, B[b, 0, j]] == 1)
    n = 0
    for x in range(NCMAX):
        if flag[x] == 1:
            pool[n] = x
            n += 1
    shuffle(rng, pool, n)
    k = 0
    for q in range(P):
        if q != p:
            for i in range(S[q, C_HN]):
                hand[q, i] = pool[k]
                k += 1
            for i in range(F):
                if KF[p, q, i] == 0 and fate[q, i] >= 0:
                    fate[q, i] = pool[k]
                    k += 1
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                B[b, 0, j] = pool[k]
                k += 1
    for i in range(Z[Z_DECK]):
        cards[0, i] = pool[k]
        k += 1
    for q in range(P):
        if q == p:
            continue
        for x in range(NCMAX):
            KN[q, x] = 0
        KN[q, KN_MASK] = 0
        KN[q, KN_MASK + 1] = 0
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                if kq[(q * 2 + b) * BCAP + j] == 1:
                    x = B[b, 0, j]
                    KN[q, x] = 1
                    KN[q, KN_MASK + b] |= vbit(x)
        m = 0
        v = 0
        for i in range(F):
            if fate[q, i] >= 0:
                m |= vbit(fate[q, i])
                v |= np.int64(1) << KVAL[KIND[fate[q, i]]]
        KN[q, KN_FATE] = m
        S[q, S_FVALS] = v
    if Z[Z_PHASE] == PH_VOTE:
        nopt = Z[Z_NOPT]
        tied = c.tied
        for o in range(nopt):
            tied[o] = 1
        for q in range(P):
            if q != p and Z[Z_VOTE + q] >= 0:
                s.pst[q] = next_u64(rng)
                Z[Z_VOTE + q] = choose_vote(s, c, c.bpol[q], q, tied, np.int64(D_VOTE))


@compiled
def info_key(s, c, p):
    """A hash of what seat p can see: the globals and the phase machine
    (not the votes the others cast in a vote still going on), every seat's
    public columns (not another's fate values), its hand in order, its fate
    cards and those it peeked, its knowledge row, which hidden places each
    other seat peeked, who peeked which fate card, the books (the hidden
    cards it has not seen as unknown), the score area and the discard
    pile."""
    S, hand, fate, B, Z, pile, cards, KN, KF = (s.S, s.hand, s.fate, s.B, s.Z, s.pile, s.cards,
                                                s.KN, s.KF)
    P = S.shape[0]
    F = c.ip[P_FATE]
    voting = Z[Z_PHASE] == PH_VOTE
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j == Z_TR or j == Z_SCR:
            continue
        if voting and j >= Z_VOTE and j < Z_VOTE + P and j != Z_VOTE + p:
            continue
        h = mix_into(h, Z[j])
    for q in range(P):
        for j in range(NS):
            if q == p or j != S_FVALS:
                h = mix_into(h, S[q, j])
        for i in range(F):
            h = mix_into(h, fate[q, i] if KF[p, q, i] == 1 else -2)
            for y in range(P):
                h = mix_into(h, KF[q, y, i])
    for i in range(S[p, C_HN]):
        h = mix_into(h, hand[p, i])
    for j in range(KNW):
        h = mix_into(h, KN[p, j])
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            x = B[b, 0, j]
            up = B[b, 1, j] == 1
            h = mix_into(h, x if up or KN[p, x] == 1 else -2)
            if not up:
                for q in range(P):
                    h = mix_into(h, KN[q, x])
    for x in range(4):
        for j in range(Z[Z_PN + x]):
            h = mix_into(h, pile[x, j])
    for i in range(Z[Z_DISC]):
        h = mix_into(h, cards[1, i])
    return h


jit.kernel_cache_end()
