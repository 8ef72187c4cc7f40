"""Magic School kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the names the scenario tests and the
contract use.

Modules, each importing only those above it, each compiled module into
the ruleset's cache folder:

- ``state_slots``: the parameter slots, the record columns and the game
  statistics' slots, by name (plain constants);
- ``cards``: the card tables (value, suit, value bit by card id) and the
  per-card functions;
- ``state_zones``: the seat streams, the books' masks, the piles' totals
  and the zones (deck, discard pile, hands);
- ``policies_values``: what a seat believes and values, the tie-break,
  the scenario script's queue;
- ``policies_spells``: the spell list, the option codes, the informed and
  scripted spells, informed's prior for a spell;
- ``policies``: the other choices (a joker's pile, the cloak, the
  invisible, the fate card peeked, votes), ``heuristic`` and ``prior``;
- ``step_moves``: the rules' moves (the deal, a spell's effect, the score
  area, the meeting's opening and result, the discard);
- ``step_records``: the trace's state rows, the invariants, the records;
- ``state``: the engine's ``State``/``Ctx``, ``copy``, ``reseed``,
  ``redeal_hidden``, ``info_key``;
- ``step``: the phase machine (``deal``, ``options``, ``apply``, ...);
- ``kernel`` (this module): ``run_batch``, ``trace_one`` and ``KERNELS``.

The game loop and the search policies (flat Monte Carlo, ISMCTS) are the
engine's (``core.engine.loop``, ``core.engine.search``).

Random numbers. The game's own stream ``st`` (``core.rng.game_state(seed,
game)``) deals, picks the first sage, reshuffles, and picks the card a peek
at a hand or a steal finds. Every policy choice (random choices and
heuristic tie-breaks) comes from the choosing seat's own stream ``pst[p]``,
seeded by (seed, game, seat) (``core.rng.seat_streams``): a seat's stream
advances only when it decides, so two deals that agree on everything a
seat sees give it the same choices (tests/test_school_invariants.py proves
it).

Hidden information. The informed policy reads only: its hand and fate
cards, face-up book cards, hidden book cards it peeked (``KN``), fate
cards it peeked (``KF``), the score area, hand sizes, the round, the
sage, the invisible seat and the cloak.
"""

from ...core import engine
from .layout import NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .policies import choose_house, choose_invisible  # noqa: F401  (scenario, tests)
from .policies_spells import spell_list  # noqa: F401  (scenario, tests)
from .state import Ctx, State, base_policies, context, new_state  # noqa: F401
from .state_slots import NG  # noqa: F401  (record widths: the ruleset contract)
from .state_zones import draw_card, draw_to_hand, update_up  # noqa: F401  (scenario, tests)
from .step import play_stages  # noqa: F401  (scenario.Table)
from .step_moves import discard_down, init_game  # noqa: F401  (scenario.Table)
from .step_records import broken_invariants, records, show_state  # noqa: F401  (scenario, tests)

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
