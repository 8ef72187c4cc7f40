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

from ...core import engine
from .base import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
