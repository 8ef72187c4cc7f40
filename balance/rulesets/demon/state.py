"""Demon Faction's state for the game engine (``core.engine``): the
``State`` and ``Ctx`` NamedTuples (their classes in ``layout``), built in
Python, and the njit functions over them that do not play: ``copy``,
``reseed``, ``redeal_hidden`` and ``info_key``. It imports nothing of the
rules (only ``layout``, ``rules`` and the bit helpers ``state_bits``).

- ``State``: ``S`` int64[2, NS] per seat (HP, the zones as 54-bit masks,
  rows, face cards, the big joker's row, K points, the seat record),
  ``Z`` int64[NZ] the globals and the phase machine (``layout.Z_*``),
  ``pile`` int64[3, 54] (rows 0 and 1 the seats' decks, top = last; row 2
  the batch's unshuffled deck), ``st`` uint64[1] the game's stream (the
  shuffles and every policy draw), ``rows``/``sc`` the pending pick's rows
  as ``step.advance`` listed them for the seat's policy (``Z_LISTED``; a
  cache: ``copy`` does not carry it over).
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the rule (and search) ints
  ``ip``, the policy floats ``pp`` (float64[2, K], ``SPEC.kernel_arrays``:
  row p is seat p's, read for every choice made on seat p's behalf), the
  ban codes, the search parameters
  ``sp`` (``core.engine.search_vector``) and the policies' scratch: the
  choice rows ``rows``/``sc`` (the effect choices inside ``apply``), the
  ``script`` (empty in a batch; ``scenario.Table`` writes its own), ``tmp``.

Every game step takes them (``step_board``'s docstring: the arguments).
"""
import numpy as np
from balance.core.compiled import compiled

from ...core import engine, jit
from ...core.kernel import copy_head  # before kernel_cache_begin
from ...core.rng import mix_into, shuffle
from .layout import (C_DECKM, C_DECKN, C_HAND, NO, NS, NZ, Z_LISTED, Z_NC, Z_ON, Z_SERR,
                     Z_SPOS, Z_TR, Ctx, State)
from .rules import N_RULE_INTS, PIDX
from .state_bits import bit, ctz, popc


def new_state(P: int = 2) -> State:
    return State(np.zeros((2, NS), np.int64), np.zeros(NZ, np.int64),
                 np.zeros((3, 54), np.int64), np.zeros(1, np.uint64),
                 np.zeros((NO, 6), np.int64), np.zeros(NO, np.float64))


def context(P, pol, ip, pp, ban, script_rows: int = 1) -> Ctx:
    """One thread's context for a batch (its scratch arrays are its own; a
    script of ``script_rows`` rows, empty: the scenarios write theirs).
    ``pp``: the float policy parameters, one row per seat
    (``SPEC.kernel_arrays``)."""
    slot = {n: N_RULE_INTS + i for n, i in PIDX.items()}
    pp = np.ascontiguousarray(pp, np.float64)
    if pp.ndim != 2 or pp.shape[0] != 2:
        raise ValueError(f"demon: pp must be float64[2, K] (one row per seat, "
                         f"SPEC.kernel_arrays), not shape {pp.shape}")
    return Ctx(np.ascontiguousarray(np.asarray(pol)[:2], np.int64), np.int64(2),
               np.ascontiguousarray(ip, np.int64), pp,
               np.ascontiguousarray(ban, np.int64),
               engine.search_vector(lambda n, d: ip[slot[n]] if n in slot else d),
               np.zeros((NO, 6), np.int64), np.zeros(NO, np.float64),
               np.zeros((script_rows, 6), np.int64), np.zeros(64, np.int64))


jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b`` (the decks up to their counts, the unshuffled
    deck up to its size: the check-mode invariants read it; not the listed
    rows, which ``b`` then lists again when asked)."""
    for q in range(2):
        copy_head(a.S[q], b.S[q], NS)
        copy_head(a.pile[q], b.pile[q], a.S[q, C_DECKN])
    copy_head(a.pile[2], b.pile[2], a.Z[Z_NC])
    copy_head(a.Z, b.Z, NZ)
    b.Z[Z_LISTED] = 0
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """A new stream for the game (its only one: the policies draw from it
    too), from ``x`` (a rollout's)."""
    s.st[0] = x


@compiled
def redeal_hidden(s, c, p, rng):
    """Everything seat p cannot see dealt again from ``rng``: the
    opponent's hand and deck from the cards they hold together (the hand
    keeps its size, the deck its count), and p's own deck order (p knows
    its deck's cards, not their order). Built from the masks in card order,
    so the result depends only on what p sees and on ``rng``. Everything
    else is public under the contract (board, face cards, slots,
    graveyards, HP, hand and deck sizes, K points)."""
    S, pile, tmp = s.S, s.pile, c.tmp
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
    shuffle(rng, tmp, n)
    hand = np.int64(0)
    for i in range(nh):
        hand |= bit(tmp[i])
    deck = np.int64(0)
    for i in range(nd):
        pile[q, i] = tmp[nh + i]
        deck |= bit(tmp[nh + i])
    S[q, C_HAND] = hand
    S[q, C_DECKM] = deck
    m = S[p, C_DECKM]
    n = 0
    while m != 0:
        low = m & -m
        m ^= low
        tmp[n] = ctz(low)
        n += 1
    shuffle(rng, tmp, n)
    for i in range(n):
        pile[p, i] = tmp[i]


@compiled
def info_key(s, c, p):
    """A hash of what seat p can see: the globals (the board's extra slots,
    this turn's flags, the counters, the phase machine; not the trace's),
    its own columns, the opponent's columns but its hand and deck (their
    sizes instead). No deck order: p knows its deck's cards, not their
    order. Not ``Z_LISTED`` (a cache's state)."""
    S, Z = s.S, s.Z
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j != Z_TR and j != Z_ON and j != Z_SERR and j != Z_SPOS and j != Z_LISTED:
            h = mix_into(h, Z[j])
    for q in range(2):
        for j in range(NS):
            if q == p or (j != C_HAND and j != C_DECKM):
                h = mix_into(h, S[q, j])
        if q != p:
            h = mix_into(h, popc(S[q, C_HAND]))
    return h


jit.kernel_cache_end()
