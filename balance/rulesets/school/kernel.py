"""Magic School kernel: the game engine (``core.engine``) bound to this
ruleset's step module (``step``), and the names the scenario tests and the
contract use.

Modules, each importing only those above it, each compiled into the
ruleset's cache folder:

- ``base``: parameter slots, record columns, card tables, small helpers,
  the zones (deck, discard pile, hands);
- ``policy``: the random spell list, the informed policy's choices, the
  scenario script, the option codes and informed's priorities;
- ``play``: the rules' moves (the deal, a spell's effect, the score area,
  the meeting's opening and result, the discard, the checks, the records);
- ``state``: the engine's ``State``/``Ctx``, ``copy``, ``reseed``,
  ``redeal_hidden``, ``info_key``;
- ``step``: the phase machine (``deal``, ``options``, ``heuristic``,
  ``apply``, ...);
- ``kernel`` (this module): ``run_batch``, ``trace_one`` and ``KERNELS``.

The game loop and the search policies (flat Monte Carlo, ISMCTS) are the
engine's (``core.engine.loop``, ``core.engine.search``).

Random numbers. The game's own stream ``st`` (``core.rng.game_state(seed,
game)``) deals, picks the first sage, reshuffles, and picks the card a peek
at a hand or a steal finds. Every policy choice (random choices and
heuristic tie-breaks) comes from the choosing seat's own stream ``pst[p]``,
seeded by (seed, game, seat) (``base.seat_stream``): a seat's stream
advances only when it decides, so two deals that agree on everything a
seat sees give it the same choices (tests/test_school_invariants.py proves
it).

Hidden information. The informed policy reads only: its hand and fate
cards, face-up book cards, hidden book cards it peeked (``KN``), fate
cards it peeked (``KF``), the score area, hand sizes, the round, the
sage, the invisible seat and the cloak.
"""

from ...core import engine
from .base import (draw_card, draw_to_hand, NG, update_up)  # noqa: F401  (scenario, tests)
from .layout import NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .play import broken_invariants, discard_down, init_game, records, show_state  # noqa: F401
from .policy import choose_house, choose_invisible, spell_list  # noqa: F401  (scenario, tests)
from .state import Ctx, State, base_policies, context, new_state  # noqa: F401
from .step import play_stages  # noqa: F401  (scenario.Table)

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
