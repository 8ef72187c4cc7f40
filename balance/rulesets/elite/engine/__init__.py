"""Magic Elite's kernel: njit functions over small int64 arrays (layouts in
``..layout``). Nothing is imported here: ``SPEC.kernel`` names
``engine.game``, imported (compiled or loaded from numba's cache) on first
use.

Modules, each importing only those above it (numba compiles and links by
function, not by file, so the split changes no compiled code):

- ``cards``: saturating arithmetic, draw/play/discard, the option buffer,
  sides, forbidden cards and the ban fallback;
- ``v12``: characters entering play, the v1/v2 multipliers and skills;
- ``v3``: v3's shields, multipliers, passives, lives, frost, bloodthirst,
  mines, shop, the start of a turn (where the dragon's and birds' rounds end);
- ``policy``: option enumeration, greedy's scores, the decisions;
- ``duel``: v3's duel and duel queue;
- ``exchange``: the OD chains (v1/v2 ``exchange``, v3 ``exchange3``),
  with v1/v2's damage, deaths and Judgment;
- ``turn``: a turn, split into its start, decision and play (so that the
  search plays a chosen candidate with the same code), the turn order,
  the sides left and the winner;
- ``search``: the search policy (README "Search"): determinizations,
  rollouts, ``search_turn``;
- ``game``: dealing, the game loop, records, ``play_blocks``/``run_batch``,
  ``entry``/``trace_one``, ``KERNELS``.

The exchange is written so later versions can hook into it: per-step
defender options (v3's dedicated shields are response options), the damage
multiplier as a saturating product (v3: the dragon, rampage and King Kong
factors), and every damage instance goes through a hit then a death
function (v3: ``hit3``/``die3``, with lives, the storm god and duels).

Random numbers come from the game's own stream (``core/rng.py``), in a fixed
order that tracing does not change.

Variants. The engine is compiled per variant, never imported as this
package: ``elite.kernel.engine(version)`` imports it again as
``engine_v12`` (versions 1 and 2) or ``engine_v3``
(``core.jit.variant_package``), whose package module carries ``VARIANT``
(12 or 3). Every branch between versions 1-2 and 3 tests ``VARIANT``, a
global numba freezes, so the branch not taken is removed before typing and
a variant compiles only its own versions' code; the differences between
versions 1 and 2 stay run-time tests of ``Z[Z_V]``. Importing a module of
this package itself fails (no ``VARIANT``). Every module caches into its
variant's subfolder of the ruleset's cache folder
(``jit.kernel_cache_begin(RULESET, f"v{VARIANT}")`` first,
``jit.kernel_cache_end()`` last).

What is compiled where (docs/performance.md gives the rules and the
measured figures):

- The search compiles apart. Its scratch ``W`` (``search.search_work``)
  is passed from ``play_blocks`` to ``run_game``; in a batch without a
  search seat it is None and numba removes the search branch, so such a
  batch compiles no search code. The search's own functions are inlined
  into ``search_turn`` (``inline="always"``, one call site each).
- ``play_blocks`` (``balance run``) plays ``play_game`` itself, and
  ``game.play_game`` and ``game.run_game`` (small bodies over a large
  closure) are inlined into it by numba, so fewer functions compiled on
  their own re-optimise the game. ``entry``, whose modes reach every part
  of the engine (v1/v2's exchange and option lists in a v3 kernel too),
  is compiled only for the tests and scenarios; a scenario's search
  choice calls ``search.search_turn`` from Python, and playing on to the
  end is ``run_from``, compiled on first use. A replay (``trace_one``) is
  one block of one game through ``play_blocks`` with its trace flag on,
  so it compiles nothing the run did not.
- Reference counting is off (``_nrt=False``) in every function,
  ``game.play_blocks`` included: none may allocate or return an array
  (views like ``pile[0]`` are fine).
- Functions that only compiled code calls carry
  ``no_cpython_wrapper=True, no_cfunc_wrapper=True``. Python must not call
  them (the process crashes): ``entry``, ``play_blocks``,
  ``cards.add_card`` and ``cards.draws_after_play``, which Python and the
  tests call, keep their wrappers.
- Greedy's option scoring (``policy``: ``emit``, ``gscore``,
  ``hit_value``, ...) and the larger hot functions with one call site
  (the option enumerators, ``exchange.hit``, v3's turn callees
  ``decide3``, ``act3``, ``turn_start3``, ``draw_n3``, ``resolve_duels``)
  carry LLVM's ``alwaysinline`` (``forceinline=True``): numba's own
  inlining would type every copy again at each call site, and a call
  passes every array as a 7-11 word struct. ``play_turn`` (two call sites,
  inlined callees) is not ``forceinline``: that compile explodes.
- v1/v2's ``emit`` and ``gscore`` have one signature (``policy._sigs``),
  as do v3's ``keep3`` and ``push3``: numba otherwise compiles one
  version per combination of literal arguments.
- v1/v2's ``play_turn`` and ``act12`` and v3's ``play_turn3`` are inlined
  by numba (small bodies over calls), so no function compiled on its own
  sits between ``play_blocks`` and ``exchange``. numba compiles a callee
  with its caller's flags where its own do not set them, so
  ``play_turn3``'s callees state their ``forceinline`` themselves.
- Trace events are only built under ``if Z[Z_ON]``.
"""
RULESET = __package__.rsplit(".", 1)[0]     # cache folder of the ruleset, not of engine/


def __getattr__(name):
    if name == "VARIANT":
        raise ImportError("the elite engine is compiled per version: import it through "
                          "balance.rulesets.elite.kernel.engine(version)")
    raise AttributeError(name)
