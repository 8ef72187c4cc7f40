"""Magic Resonance kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the names the scenario tests and the
contract use.

One game's state is ``state.State`` (its docstring describes the arrays).

Random numbers: the deal and the magic deck come from the game's stream
(``core.rng.game_state(seed, game)``); each seat's policy draws its
randomness (random choices and heuristic tie-breaks) from its own stream
``ST[p]`` (``core.rng.seat_streams`` from the game stream's first state), so a seat's
choices depend only on what it sees, never on how many numbers another
seat consumed (the hidden-information test relies on it).

Policies read a seat's *view* only (``policies_view.view``): its hand, the
field runes it knows (its own, its peeks), how many runes each column
holds, the public discard pile, the revealed magic cards and the deck's
composition.

Modules, each importing only those before it: ``state`` (the state, the
context and its parameter slots), ``state_zones`` (seat streams, draws,
reveals, discards), ``policies_view`` (a seat's view, its chances and
values), ``policies`` (the heuristics' choices), ``step_actions`` (single
actions, the end check), ``step_game`` (deal, invariants, winners,
records), ``step_turn`` (magic uses, the resonance, a turn's parts;
``turn``/``play_from`` play whole turns for the scenario tests), ``step``
(the engine's interface), and this module (``run_batch``, ``trace_one``).
The game loop and the search policies are the engine's.
"""

from ...core import engine
from .layout import NC_MAX  # noqa: F401
from .policies import (choose_peek, choose_place, discard_n, dissolve_target,  # noqa: F401
                       wants_join, wants_start)
from .state import context, new_state
from .step_actions import check_end, dissolve_redraw, dissolve_remove, next_in  # noqa: F401
from .step_game import (broken_invariants, fill_deck, finish, NG, NSEAT, start,  # noqa: F401
                        winners)
from .step_turn import play_from, resonate, turn, use_magic  # noqa: F401

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
