"""Demon Faction kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the names the scenario tests and the
contract use.

One game's state (``state.State``):
- ``S`` int64[2, NS]: per seat, HP, the zones as 54-bit masks of card ids
  (each seat has its own deck, so a card id names one card), row powers,
  face cards, the big joker's row, K regeneration points, and the seat's
  record (columns ``C_*`` and ``ST`` in ``layout``);
- ``pile`` int64[3, 54]: rows 0 and 1 the decks of seats 0 and 1 (top =
  last), row 2 the unshuffled deck (per batch);
- ``Z`` int64[NZ]: the game's globals (extra-zone slots, this turn's
  placement flags, counters, the turn and the trace length) and the phase
  machine (``Z_CUR``, ``Z_PHASE``, ``Z_END``, ``Z_WIN``).

Modules, each importing only those above it: ``layout`` and ``rules``
(plain constants), ``state_bits`` (bit helpers) and ``state`` (the state,
``copy``, ``redeal_hidden``, ``info_key``), ``step_board`` (parameter
slots, tables, board helpers, HP, cards leaving the field), ``policies``
(how each policy chooses, greedy's values), ``step_fight`` (the attack),
``step_turn`` (placement, a turn's parts, deal, invariants, records),
``step`` (the engine's step interface), ``step_scenario`` (whole phases,
turns and games for the scenario tests: ``entry``) and this module
(``run_batch``, ``trace_one``, ``KERNELS``). The game loop and the search
policies (flat Monte Carlo, ISMCTS) are the engine's (``core.engine.loop``,
``core.engine.search``). Random numbers come in a fixed order from the
game's own stream (``core/rng.py``).
"""

from ...core import engine
from .layout import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state
from .step_scenario import (M_ALIST, M_APICK, M_ATTACK, M_BEGIN,  # noqa: F401
                            M_CHECK, M_DEAL, M_FILL, M_LIST, M_PICK, M_PLACE, M_PLAY,
                            M_TARGETS, M_TURN, entry)

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

# demon's state is sized by its two sides, whatever the number of seats
run_batch, trace_one, KERNELS = engine.entries(E, context, lambda P: new_state(2))
