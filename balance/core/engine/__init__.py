"""The game engine, written once for every ruleset that provides the step
interface: the batch loop, traced games and the search policies
(determinized flat Monte Carlo and information-set MCTS).

A ruleset's ``step`` module provides njit functions over its ``State``
(a NamedTuple of arrays, with at least ``Z``, whose ``core.layout.Z_TURN``
slot holds the turn)
and its ``Ctx`` (a NamedTuple: at least ``pol``, the policy id of every
seat, ``P``, the number of seats, and ``sp``, the search parameters built
by :func:`search_vector`):

- ``prepare(s, c)``: once per batch (tables, the unshuffled deck);
- ``deal(s, c, seed, game, masks, counts, tr, on, check)``: a new game,
  played on to its first decision; returns broken invariants (check mode);
- ``done(s, c)``, ``seat(s, c)``: the game is over; the seat to decide;
- ``options(s, c, rows) -> n``: the pending decision's distinct legal
  options, written as int64 codes into ``rows``;
- ``heuristic(s, c, pol) -> code``: the choice of heuristic ``pol``
  (it lists options itself only where it needs them);
- ``prior(s, c, code) -> float``: the default heuristic's score of an
  option (the search keeps the ``search_top_k`` best);
- ``apply(s, c, code, masks, counts, tr, on, check) -> errors``: plays the
  option and goes on to the next decision or the end: the turn is a phase
  machine held in the state, so play stops and resumes at any decision;
- ``copy(src, dst)``, ``reseed(s, x)`` (new streams for the game and its
  seats from ``x``: a rollout's), ``redeal_hidden(s, c, seat, rng)`` (everything
  ``seat`` cannot see dealt again, consistently with what it knows),
  ``info_key(s, c, seat) -> uint64`` (a hash of what ``seat`` can see: its
  information set), ``winners(s, c) -> mask`` (0: nobody), ``finish(s, c,
  tr, on, grow, srow)`` (the records);
- ``POLICIES`` (name -> id), ``ROLLOUT`` (the rollout policy ids by
  ``search_rollout_policy``: 0 greedy, 1 random).

:func:`bind` imports this package again for one ruleset (as
``core.jit.variant_package`` does for Magic Elite's versions) with the
step module as the global ``R``: numba freezes it, so the engine's
functions call the ruleset's directly (no first-class function arguments,
which would disable numba's cache), and each ruleset's engine is cached in
its own fingerprinted folder (``jit.kernel_cache_begin(ruleset,
"engine")``).
"""
from __future__ import annotations

import importlib

import numpy as np

# search kinds, by policy id (KIND): not a search, flat Monte Carlo, the
# cheating yardstick, information-set MCTS
K_NONE, K_FLAT, K_ORACLE, K_ISMCTS = 0, 1, 2, 3
# the search parameter vector ``Ctx.sp``, by slot
SP_TOPK, SP_DET, SP_ROLL, SP_RPOL, SP_CAP, SP_ITER = range(6)
SP_NAMES = ("search_top_k", "search_determinizations", "search_rollouts",
            "search_rollout_policy", "search_rollout_turns", "search_iterations")
SP_DEFAULTS = (4, 8, 1, 0, 200, 64)


def search_vector(get) -> np.ndarray:
    """``Ctx.sp`` from ``get(name, default)`` over :data:`SP_NAMES`."""
    return np.array([int(get(n, d)) for n, d in zip(SP_NAMES, SP_DEFAULTS)], np.int64)


def kinds(policies: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """By policy id: the search kind and the determinization multiplier
    (numerator, denominator) of ``core.search.LEVELS``."""
    from ..search import LEVELS
    n = max(16, max(policies.values()) + 1)     # scenario-only ids stay plain heuristics
    kind = np.zeros(n, np.int64)
    num = np.ones(n, np.int64)
    den = np.ones(n, np.int64)
    for name, i in policies.items():
        if name in LEVELS:
            kind[i] = K_FLAT
            num[i], den[i] = LEVELS[name]
        elif name == "oracle":
            kind[i] = K_ORACLE
        elif name == "ismcts":
            kind[i] = K_ISMCTS
    return kind, num, den


def bind(ruleset_package: str, step_package: str | None = None, tag: str | None = None):
    """The engine's ``loop`` module compiled against the ``step`` module of
    ``step_package`` (default: the ruleset's own package), cached in the
    ruleset's cache folder under ``engine`` (``engine_<tag>`` with a
    ``tag``: Magic Elite binds one engine per version group, each to the
    step module of its own engine package)."""
    from .. import jit
    step = importlib.import_module((step_package or ruleset_package) + ".step")
    kind, num, den = kinds(step.POLICIES)
    suffix = f"_{tag}" if tag else ""
    name = jit.variant_package(__name__, ruleset_package.rsplit(".", 1)[-1] + suffix, R=step,
                               RULESET=ruleset_package, CACHE="engine" + suffix, KIND=kind,
                               NUM=num, DEN=den)
    return importlib.import_module(name + ".loop")


def entries(E, context, new_state):
    """``run_batch``, ``trace_one`` and ``KERNELS`` of a ruleset's kernel
    module over its bound engine ``E`` (:func:`bind`): the kernel arguments
    between ``pol`` and ``check`` (``trace_one``: ``games``) are the
    ruleset's own and go to ``context(P, pol, *rule)``; ``new_state(P)``
    makes a game's state."""
    def scratch(c, P, masks, counts):
        return E.scratch(c, lambda: new_state(P), masks, counts)

    def run_batch(b0, b1, seed, start, n_games, P, pol, *rest):
        """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads
        the blocks over threads); counts[b] holds block b's card counts."""
        rule, (check, games, seats, masks, counts, errors) = rest[:-6], rest[-6:]
        P = int(P)
        c = context(P, pol, *rule)
        E.play_blocks(b0, b1, seed, start, n_games, c, check, games, seats, masks, counts,
                      errors, new_state(P), np.zeros((1, 8), np.int64),
                      scratch(c, P, masks, counts))

    def trace_one(seed, game, P, pol, *rest):
        """Game ``game`` of ``seed`` traced into ``tr``; returns the trace length."""
        rule, (games, seats, masks, counts, tr) = rest[:-5], rest[-5:]
        P = int(P)
        c = context(P, pol, *rule)
        return E.trace_game(seed, game, c, new_state(P), games, seats, masks, counts, tr,
                            scratch(c, P, masks, counts))

    # what core.jit watches for the first-compile notice (spec.kernels())
    kernels = {"run": E.play_blocks, "replay": E.trace_game, "search": E.choose}
    return run_batch, trace_one, kernels


def __getattr__(name):
    if name in ("R", "RULESET", "CACHE", "KIND", "NUM", "DEN"):
        raise ImportError("the engine is compiled per ruleset: use balance.core.engine.bind(pkg)")
    raise AttributeError(name)
