"""Magic Resonance kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the names the scenario tests and the
contract use.

One game's state (``state.State``):
- ``S``  int64[P, NS]: per-seat scalars and hand counts per card kind
  (hands are multisets: the order of cards in a hand never matters);
- ``F``  int64[3, FCAP]: the field in placement order (kind, column, which
  seats know it), cleared after each resonance;
- ``pile`` int64[2, NC]: row 0 the rune deck (top = last), row 1 the
  unshuffled deck (per batch); the discard pile is public, so it is kept
  as counts per kind in ``Z``;
- ``MD`` int64[18]: the magic deck (top = last); ``Z`` the game globals and
  the phase machine.

Random numbers: the deal and the magic deck come from the game's stream
(``core.rng.game_state(seed, game)``); each seat's policy draws its
randomness (random choices and heuristic tie-breaks) from its own stream
``ST[p] = mix64(game_state(seed, game) ^ (p + 1) * SEAT_MIX)``, so a seat's
choices depend only on what it sees, never on how many numbers another
seat consumed (the hidden-information test relies on it).

Policies read a seat's *view* only (``view``): its hand, the field runes
it knows (its own, its peeks), how many runes each column holds, the
public discard pile, the revealed magic cards and the deck's composition.

Modules: ``base`` (streams, zones, the view and its probabilities, single
actions, end checks, deal, scores), ``policy`` (the heuristics' choices),
``turn`` (magic uses, the resonance, a turn's parts; ``turn``/``play_from``
play whole turns for the scenario tests), ``state`` and ``step`` (the
engine's interface), and this module (``run_batch``, ``trace_one``).
The game loop and the search policies are the engine's.
"""

from ...core import engine
from .base import (broken_invariants, check_end, dissolve_redraw, dissolve_remove,  # noqa: F401
                   fill_deck, finish, NC_MAX, next_in, NG, NSEAT, start, winners)
from .policy import (choose_peek, choose_place, discard_n, dissolve_target,  # noqa: F401
                     wants_join, wants_start)
from .state import context, new_state
from .turn import play_from, resonate, turn, use_magic  # noqa: F401

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
