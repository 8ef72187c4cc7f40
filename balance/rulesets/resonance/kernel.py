"""Magic Resonance kernel: njit functions over small int64 arrays.

One game's state:
- ``S``  int64[P, NS]: per-seat scalars and hand counts per card kind
  (hands are multisets: the order of cards in a hand never matters);
- ``F``  int64[3, FCAP]: the field in placement order (kind, column, which
  seats know it), cleared after each resonance;
- ``pile`` int64[2, NC]: row 0 the rune deck (top = last), row 1 the
  unshuffled deck (per batch); the discard pile is public, so it is kept
  as counts per kind in ``Z``;
- ``MD`` int64[18]: the magic deck (top = last); ``Z`` the game globals.

Random numbers: the deal and the magic deck come from the game's stream
(``core.rng.game_state(seed, game)``); each seat's policy draws its
randomness (random choices and heuristic tie-breaks) from its own stream
``ST[p] = mix64(game_state(seed, game) ^ (p + 1) * SEAT_MIX)``, so a seat's
choices depend only on what it sees, never on how many numbers another
seat consumed (the hidden-information test relies on it).

Policies read a seat's *view* only (``view``): its hand, the field runes
it knows (its own, its peeks), how many runes each column holds, the
public discard pile, the revealed magic cards and the deck's composition.

The kernel is split by concern: ``base`` (streams, zones, the view and its
probabilities, single actions, end checks, deal, scores), ``policy`` (the
heuristics' choices), ``turn`` (magic uses, the resonance, the turn and
the game loop) and this module (batches and traced games). The names the
scenario tests and the contract use (``K.turn``, ``K.resonate``, ...) are
re-exported here.
"""

import numpy as np
from numba import njit

from ...core import jit
from ...core.records import BLOCK
from ...core.rng import game_state
from .base import (broken_invariants, check_end, dissolve_redraw, dissolve_remove,  # noqa: F401
                   fill_deck, finish, NC_MAX, next_in, NG, NSEAT, start, winners)
from .layout import N_MAGIC, NS, NZ, POL_SEARCH_FAST, Z_TR
from .policy import (choose_peek, choose_place, discard_n, dissolve_target,  # noqa: F401
                     wants_join, wants_start)
from .search import play_from_s, search_work
from .turn import play_from, resonate, turn, use_magic  # noqa: F401

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

def work(P):
    """One thread's workspace (allocated in Python: the kernels allocate nothing)."""
    return (np.zeros(1, np.uint64), np.zeros(P, np.uint64), np.zeros((P, NS), np.int64),
            np.zeros((3, NC_MAX), np.int64), np.zeros((2, NC_MAX), np.int64),
            np.zeros(NZ, np.int64), np.zeros(N_MAGIC, np.int64), np.zeros(48, np.float64),
            np.zeros((1, 8), np.int64))


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, M, check, games, seats,
              masks, counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts. A table
    with a search seat plays ``play_blocks_s`` (compiled on its first use):
    the heuristics' kernel stays as small, and as fast, as without search."""
    if (np.asarray(pol) >= POL_SEARCH_FAST).any():
        play_blocks_s(b0, b1, seed, start, n_games, pol, ip, pp, ban, M, check, games, seats,
                      masks, counts, errors, *work(int(P)), *search_work(int(P)))
    else:
        play_blocks(b0, b1, seed, start, n_games, pol, ip, pp, ban, M, check, games, seats,
                    masks, counts, errors, *work(int(P)))


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, g0, n_games, pol, ip, pp, ban, M, check, games, seats, masks,
                counts, errors, st, ST, S, F, pile, Z, MD, W, tr):
    """One game: the deal, then ``play_from`` seat 0 (no play_game level:
    each njit level optimizes its whole call tree once more)."""
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            start(seed, g0 + g, st, ST, S, F, pile, Z, MD, masks[g], counts[b], tr, False, ip, P)
            e = 0
            if check:
                e += broken_invariants(S, F, Z, MD, ip, P)
            errors[g] = e + play_from(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban,
                                      masks[g], counts[b], tr, False, check, np.int64(0),
                                      np.int64(0), games[g], seats[g])


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks_s(b0, b1, seed, g0, n_games, pol, ip, pp, ban, M, check, games, seats, masks,
                  counts, errors, st, ST, S, F, pile, Z, MD, W, tr, XS, XF, XP, XZ, XMD, XST, XW,
                  rpol, mk, ck, trs, pool, cand, tot, score, sub):
    """``play_blocks`` for a table with search seats (``search.play_from_s``)."""
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            start(seed, g0 + g, st, ST, S, F, pile, Z, MD, masks[g], counts[b], tr, False, ip, P)
            e = 0
            if check:
                e += broken_invariants(S, F, Z, MD, ip, P)
            errors[g] = e + play_from_s(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban,
                                        masks[g], counts[b], tr, False, check, np.int64(0),
                                        np.int64(0), games[g], seats[g], game_state(seed, g0 + g),
                                        XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs, pool,
                                        cand, tot, score, sub)


def trace_one(seed, game, P, pol, ip, pp, ban, M, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    st, ST, S, F, pile, Z, MD, W, _ = work(int(P))
    if (np.asarray(pol) >= POL_SEARCH_FAST).any():
        return _trace_one_s(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
                            st, ST, S, F, pile, Z, MD, W, *search_work(int(P)))
    return _trace_one(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
                      st, ST, S, F, pile, Z, MD, W)


@njit(cache=True, _nrt=False)
def _trace_one(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
               st, ST, S, F, pile, Z, MD, W):
    # the trace and check flags as run-time bools, not literals: the
    # specialisation of play_from that the scenario (``scenario.Table.play``)
    # calls from Python, so a replay and a scenario compile it once between
    # them; the batch keeps its literal False (with a run-time flag too, the
    # random policy's batch was 17 % slower)
    on, check = np.bool_(True), np.bool_(False)
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    start(seed, game, st, ST, S, F, pile, Z, MD, masks[0], counts[0], tr, on, ip, P)
    play_from(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban, masks[0], counts[0], tr, on,
              check, np.int64(0), np.int64(0), games[0], seats[0])
    return Z[Z_TR]


@njit(cache=True, _nrt=False)
def _trace_one_s(seed, game, pol, ip, pp, ban, M, games, seats, masks, counts, tr,
                 st, ST, S, F, pile, Z, MD, W, XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs,
                 pool, cand, tot, score, sub):
    on, check = np.bool_(True), np.bool_(False)
    fill_deck(ip, ban, pile, Z)
    P = S.shape[0]
    start(seed, game, st, ST, S, F, pile, Z, MD, masks[0], counts[0], tr, on, ip, P)
    play_from_s(pol, S, F, pile, Z, MD, M, st, ST, W, ip, pp, ban, masks[0], counts[0], tr, on,
                check, np.int64(0), np.int64(0), games[0], seats[0], game_state(seed, game),
                XS, XF, XP, XZ, XMD, XST, XW, rpol, mk, ck, trs, pool, cand, tot, score, sub)
    return Z[Z_TR]


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one, "search": play_from_s}

jit.kernel_cache_end()
