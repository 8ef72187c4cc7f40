"""Talisman Poker kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the contract's entries.

Modules, each importing only those above it:

- ``base``: parameter slots and record columns by name, the explicit
  signatures, the combo tables and tallies (``combo_sizes``,
  ``summarize``), the zones (draw, hand, discard, damage, turn order, ties);
- ``policy``: random, greedy and patient (the special table, the option
  list, scores, placement, the discard);
- ``play``: one game's rules (the deck, dealing, casting, firing a combo,
  ``end_turn``, eliminations, invariants, ``finish``);
- ``state``: the engine's ``State``/``Ctx``, ``copy``, ``redeal_hidden``,
  ``info_key``;
- ``step``: the phase machine (``deal``, ``options``, ``heuristic``,
  ``apply``, ...);
- ``kernel`` (this module): ``run_batch``, ``trace_one``, a decision on its
  own (``position``, ``decide``: tests, bench) and ``KERNELS``.

The game loop and the search policies (flat Monte Carlo, the oracle,
ISMCTS) are the engine's (``core.engine.loop``, ``core.engine.search``).
Random numbers come in a fixed order from the game's own stream (see
``core/rng.py``); ``reference.py`` replays the same order in plain Python.
"""
import numpy as np

from ...core import engine
from .base import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset


def _scratch(c, P, masks, counts):
    return E.scratch(c, lambda: new_state(P), masks, counts)


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    P = int(P)
    c = context(P, pol, ip, pp, ban)
    E.play_blocks(b0, b1, seed, start, n_games, c, check, games, seats, masks, counts, errors,
                  new_state(P), np.zeros((1, 8), np.int64), _scratch(c, P, masks, counts))


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    P = int(P)
    c = context(P, pol, ip, pp, ban)
    return E.trace_game(seed, game, c, new_state(P), games, seats, masks, counts, tr,
                        _scratch(c, P, masks, counts))


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": E.play_blocks, "replay": E.trace_game, "search": E.choose}
