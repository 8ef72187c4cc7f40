"""Talisman Poker kernel: njit functions over small int64 arrays.

Modules, each importing only those above it (numba compiles and links by
function, not by file, so the split changes no compiled code):

- ``base``: parameter slots and record columns by name, the explicit
  signatures, the combo tables and tallies (``combo_sizes``,
  ``summarize``), the zones (draw, hand, discard, damage, turn order, ties);
- ``policy``: random, greedy and patient (the special table, the option
  list, scores, placement, the discard);
- ``play``: one game's rules (the deck, dealing, casting, firing a combo,
  ``begin_turn``/``turn``/``end_turn``, eliminations, invariants,
  ``finish``);
- ``search``: the search policies (README, "Policies": search);
- ``kernel`` (this module): the game loop (``play_game``), the workspaces,
  the batch and trace entries, one search decision on its own (tests,
  bench) and ``KERNELS``.

One game's state (slots and sizes in ``layout.py``):
- ``S`` int64[P, NS]: per-seat scalars (HP, alive, guards, skips, hand size,
  array bitmasks per element, special counts, statistics), columns ``C_*``;
- ``hand`` int64[P, HCAP]: card ids, in the order they entered the hand;
- ``pile`` int64[3, NC_MAX]: row 0 the deck (top = last), row 1 the discard
  pile, row 2 the batch's unshuffled deck (``fill_deck``);
- ``Z`` int64[NZ]: deck size, discard size, turn, trace length, unshuffled
  deck size (``Z_*``).

A player's array (符阵区) holds distinct basic cards, so it is kept as one
bitmask of values per element: bit v-1 of ``S[p, C_BITS + e]``.

Random numbers come in a fixed order from the game's own stream (see
``core/rng.py``); ``reference.py`` replays the same order in plain Python.
The search policies (README, "search") draw only from streams of their own,
keyed by (seed, game, seat, turn), and play their rollouts with ``turn`` on
copies of the state in a per-thread search workspace (``search_work``).

Speed: every function a game runs is compiled without reference counting
(``_nrt=False``: none creates an array; views taken inside cost nothing),
``play_blocks`` included. numba compiles every other njit function on its
own (once per argument types it meets, unless it has a signature), and
the helpers, the policies and the per-turn functions carry LLVM's
``alwaysinline`` (``forceinline=True``), so LLVM inlines them into their
callers once they are linked; only ``play_game`` (a loop over small
calls) is inlined by numba itself (``inline="always"``) into
``play_blocks`` and ``_trace_one``, so that no function compiled on its own
sits between them and ``turn``: every function numba compiles on its own
re-optimises everything it calls once linked (numba's final module pass).
numba's own inlining elsewhere (it typed the policies and helpers again at
each call site: ``turn`` took 14 s of a 34 s cold compile) cost twice the
compile for no speed: cold compile 33.8 -> 17.0 s, greedy 125-137 ->
121-128 ns per decision, results identical (issue 19's note). Helpers
that only compiled code calls are compiled without numba's CPython and
C wrappers (``no_cpython_wrapper=True, no_cfunc_wrapper=True``): each
wrapper boxes and unboxes a dozen arrays, and LLVM optimised and emitted
it for nothing (cold compile CPU time 19.0/15.5/17.6 -> 16.7/14.0/14.2 s,
interleaved). Such a function cannot be called from Python (the process
crashes): the helpers the tests call (``draw``, ``damage``,
``next_alive``, ``combo_sizes``, ``array_to_discard``, ``combo_amount``,
``heal_room``, ``choose_greedy``) keep their wrappers. The search's
functions compile only when a table has a searching seat (the batch
entries get ``ws=None`` otherwise, ``search_scratch``). Workspaces are
allocated in Python (``work``); the batch entry ``run_batch`` plays blocks
of games on one thread and ``core.parallel.run_blocks`` runs it on several.
"""
import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import ev  # before kernel_cache_begin
from ...core.records import BLOCK, mask_words
from ...core.rng import game_state
from .layout import (C_GUARDS, C_HN, C_HP, C_SKIPS, E_SKIP, E_TURN, END_CAP, END_LAST, HCAP,
                     NC_MAX, NIW, NS, NZ, POL_GREEDY, POL_SEARCH_FAST, W_STATS, Z_TR, Z_TURN)
from .base import P_MAXT, P_V, SM, next_alive
from .base import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .policy import fill_special_table
from .play import begin_turn, broken_invariants, eliminate, fill_deck, finish, start, turn
from .search import choose_search, play_turns, search_turn

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

@njit(cache=True, _nrt=False, inline="always")
def play_game(seed, game, P, pol, ip, pp, ban, st, S, hand, pile, Z, sizes, acts, spbest,
              games, seats, gmasks, g, bcounts, b, tr, on, check, ws):
    """Play one game; fill its game row ``games[g]``, seat rows ``seats[g]``
    and ``gmasks[g]``; add card counts to ``bcounts[b]``. (Whole arrays and
    indices rather than row views: a view per game costs reference counting,
    and this function is compiled without it, ``_nrt=False``, so the views
    taken here cost nothing.) Returns the number of broken invariants found
    (always 0 unless ``check``). ``ws``: the search workspace
    (``search_work``) when a seat plays a search policy, else None: numba
    then compiles a version without the search and its arguments (with
    them, greedy games were 6-7 % slower)."""
    masks = gmasks[g]
    counts = bcounts[b]
    st[0] = game_state(seed, game)
    start(st, S, hand, pile, Z, masks, counts, tr, on, ip, P)
    V = ip[P_V]
    NB = 5 * V
    maxt = ip[P_MAXT]
    cur = 0
    turns = 0
    rounds = 1
    alive = P
    end = END_CAP
    errors = 0
    while turns < maxt:
        turns += 1
        Z[Z_TURN] = turns
        if on:
            ev(tr, Z, E_TURN, cur, rounds, S[cur, C_HP], S[cur, C_HN], S[cur, C_GUARDS], 0)
        if S[cur, C_SKIPS] > 0:             # wind
            S[cur, C_SKIPS] -= 1
            if on:
                ev(tr, Z, E_SKIP, cur, S[cur, C_SKIPS], 0, 0, 0, 0)
        elif ws is not None and pol[cur] >= POL_SEARCH_FAST:
            SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW = ws
            # run-time flags and seat: one search_turn for the batch and the replay
            # (with literals numba compiled it once per combination: 4 in a clean suite)
            errors += search_turn(seed, game, st, S, hand, pile, Z, masks, counts, tr,
                                  np.bool_(on), np.bool_(check), ip, pp, ban, sizes, acts,
                                  spbest, P, V, NB, np.int64(cur),
                                  pol[cur] - POL_SEARCH_FAST, SW, HW, PW, ZW, IW, FW, UW, MW, CW,
                                  TW)
            alive -= eliminate(S, hand, pile, Z, tr, on, P, V)
        else:
            errors += turn(st, S, hand, pile, Z, masks, counts, tr, on, check, ip, pp, ban, pol,
                           sizes, acts, spbest, P, V, NB, cur)
            alive -= eliminate(S, hand, pile, Z, tr, on, P, V)
        if check:
            errors += broken_invariants(S, hand, Z, P)
        if alive <= 1:
            end = END_LAST
            break
        nxt = next_alive(S, cur, P)
        if nxt <= cur:
            rounds += 1
        cur = nxt
    finish(S, Z, tr, on, P, end, turns, rounds, games[g], seats[g])
    return errors


def work(P):
    """One thread's workspace (allocated in Python: the kernels then allocate
    nothing, which keeps them simple to compile)."""
    return (np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
            np.zeros((3, NC_MAX), np.int64), np.zeros(NZ, np.int64),
            np.zeros(SM + 16, np.int64), np.zeros(64, np.int64), np.zeros(1, np.uint64),
            np.zeros((1, 8), np.int64), np.zeros(32, np.int64))


def search_work(P, W, NK):
    """One thread's search workspace, for ``W`` mask words and ``NK`` card
    kinds: the determinized state and the rollout's copy of it (S, hand,
    pile, Z, two of each), the int buffer (``layout.W_*``), the candidates'
    scores, the two search streams, and the masks, counts and trace rows
    the rollouts write into instead of the game's."""
    return (np.zeros((2, P, NS), np.int64), np.zeros((2, P, HCAP), np.int64),
            np.zeros((2, 2, NC_MAX), np.int64), np.zeros((2, NZ), np.int64),
            np.zeros(NIW, np.int64), np.zeros(64, np.float64), np.zeros(2, np.uint64),
            np.zeros((P, 2, W), np.uint64), np.zeros((2, NK), np.int64),
            np.zeros((1, 8), np.int64))


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, *work(int(P)), search_scratch(P, pol, masks, counts))


def search_scratch(P, pol, masks, counts):
    """The search workspace when a seat plays a search policy, else None:
    the kernels are then compiled without the search (a batch of greedy or
    random seats compiles and loads only that; the search's specialisation
    is compiled on the first batch that has a search seat)."""
    if not (np.asarray(pol)[:int(P)] >= POL_SEARCH_FAST).any():
        return None
    return search_work(int(P), masks.shape[-1], counts.shape[-1])


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, S, hand, pile, Z, sizes, acts, st, tr, spbest, ws):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = play_game(seed, start + g, P, pol, ip, pp, ban, st, S, hand, pile, Z,
                                  sizes, acts, spbest, games, seats, masks, g, counts, b, tr,
                                  False, check, ws)


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    S, hand, pile, Z, sizes, acts, st, _, spbest = work(int(P))
    return _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr,
                      S, hand, pile, Z, sizes, acts, st, spbest,
                      search_scratch(P, pol, masks, counts))


@njit(cache=True)
def _trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr,
               S, hand, pile, Z, sizes, acts, st, spbest, ws):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    play_game(seed, game, P, pol, ip, pp, ban, st, S, hand, pile, Z, sizes, acts, spbest,
              games, seats, masks, 0, counts, 0, tr, True, False, ws)
    return Z[Z_TR]


# --- one search decision on its own (tests, bench) ---------------------------
def position(seed, game, P, pol, ip, pp, ban, stop):
    """Game ``game`` of ``seed`` played with the plain policies ``pol``
    (a search seat plays greedy here) up to turn ``stop``, stopped after
    that turn's draw and discards (as greedy, a searching seat's rule):
    (the seat to decide, or -1 when the game ended before or the turn is
    skipped, S, hand, pile, Z)."""
    S, hand, pile, Z, sizes, acts, st, tr, spbest = work(int(P))
    nk = len(ban)
    masks = np.zeros((int(P), 2, mask_words(nk)), np.uint64)
    counts = np.zeros((2, nk), np.int64)
    cur = _position(np.uint64(seed), np.int64(game), np.int64(P), pol, ip, pp, ban,
                    np.int64(stop), S, hand, pile, Z, sizes, acts, st, tr, spbest, masks, counts)
    return int(cur), S, hand, pile, Z


@njit(cache=True)
def _position(seed, game, P, pol, ip, pp, ban, stop, S, hand, pile, Z, sizes, acts, st, tr,
              spbest, masks, counts):
    fill_special_table(ip, pp, spbest)
    fill_deck(ip, ban, pile, Z)
    st[0] = game_state(seed, game)
    start(st, S, hand, pile, Z, masks, counts, tr, False, ip, P)
    V = ip[P_V]
    cur, alive, _ = play_turns(st, S, hand, pile, Z, masks, counts, tr, ip, pp, ban, pol, sizes,
                               acts, spbest, P, V, 5 * V, 0, P, stop - 1)
    if alive <= 1 or Z[Z_TURN] != stop - 1 or S[cur, C_SKIPS] > 0:
        return -1
    Z[Z_TURN] = stop
    begin_turn(st, S, hand, pile, Z, masks, counts, tr, False, ip, pp, POL_GREEDY, sizes, acts,
               5 * V, V, cur)
    return cur


def search_decision(seed, game, P, ip, pp, ban, level, S, hand, pile, Z, p, ws=None):
    """The action (kind, arg, target) search at ``level`` (LEVEL_*) chooses
    for seat p in the given state (after its draw and discards, at turn
    Z[Z_TURN] of game ``game`` of ``seed``: the search streams' key), and
    the search counters (``layout.W_STATS``: decisions searched, rollouts,
    rollout turns played, candidates; they add up over the calls given the
    same workspace ``ws``, ``search_work``). The state is not changed."""
    nk = len(ban)
    if ws is None:
        ws = search_work(int(P), mask_words(nk), nk)
    spbest = np.zeros(32, np.int64)
    kind, arg, tgt = _search_decision(np.uint64(seed), np.int64(game), S, hand, pile, Z, ip, pp,
                                      ban, spbest, np.int64(P), np.int64(p), np.int64(level), *ws)
    return (int(kind), int(arg), int(tgt)), ws[4][W_STATS:W_STATS + 4].copy()


@njit(cache=True)
def _search_decision(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, p, level,
                     SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW):
    fill_special_table(ip, pp, spbest)
    V = ip[P_V]
    return choose_search(seed, game, S, hand, pile, Z, ip, pp, ban, spbest, P, V, 5 * V, p,
                         level, SW, HW, PW, ZW, IW, FW, UW, MW, CW, TW)


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one, "search": search_turn}
jit.kernel_cache_end()
