"""Talisman Poker kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the contract's entries.

Modules, each importing only those above it:

- ``layout``, ``rules``: slots, codes, card ids and the parameters (plain
  Python); ``cards``: the card-id lookup tables (``ELEM``, ``VAL0``,
  ``RUN``, ``TOP``);
- ``state_slots``: parameter slots and record columns by name, the numba
  types of the explicit signatures;
- ``state_zones``: the zones (draw, reshuffle, hand, discard pile, array)
  and the turn order;
- ``step_combos``: the combos an array offers, their sizes and amounts, the
  array's summary;
- ``policies``: random, greedy and patient (ties, the special table, the
  option list, scores, placement, the discard);
- ``step_play``: the rule parts that change the game (the deck and the
  deal, damage, casting, firing a combo, ``end_turn``, eliminations,
  invariants, ``records``);
- ``state``: the engine's ``State``/``Ctx``, ``copy``, ``redeal_hidden``,
  ``info_key``;
- ``step``: the phase machine (``deal``, ``options``, ``heuristic``,
  ``apply``, ...), bound to the engine;
- ``kernel`` (this module): ``run_batch``, ``trace_one`` and ``KERNELS``;
- ``scenario``: one game arranged and played from Python (rule tests);
- ``reference``: the plain-Python implementation the checks compare with
  (imports ``layout`` and ``rules`` only).

The game loop and the search policies (flat Monte Carlo, the oracle,
ISMCTS) are the engine's (``core.engine.loop``, ``core.engine.search``).
Random numbers come in a fixed order from the game's own stream (see
``core/rng.py``); ``reference.py`` replays the same order in plain Python.
"""

from ...core import engine
from .state_slots import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
