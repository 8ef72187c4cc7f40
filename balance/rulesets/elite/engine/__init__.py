"""Magic Elite's kernel: njit functions over small int64 arrays (layouts in
``..layout``). Nothing is imported here: ``SPEC.kernel`` names
``engine.game``, imported (compiled or loaded from numba's cache) on first
use.

Modules, each importing only those above it:

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

The search's scratch ``W`` (``search.search_work``) is passed down from
``play_blocks`` to ``run_game`` (``entry``, the scenarios' steps, has
none: a scenario's search choice calls ``search.search_turn`` from
Python, the same specialisation ``run_game`` calls, with ``play`` a
run-time bool, so a test suite compiles the entry and the search's turn
once per variant; a scenario's playing on to the end is ``run_from``,
compiled on first use, so the entry carries no second copy of the game
loop); in a batch without a search seat
it is None and numba compiles ``run_game`` and its callers without the
search (the branch on ``W is not None`` is removed at compile time), so
those batches run and compile the kernel they had before the search. The
first batch with a search seat compiles the second specialisation. Every
function numba compiles on its own re-optimises everything it calls once
linked (numba's final module pass), so the search's own functions are
inlined into ``search_turn`` (``inline="always"``, one call site each) and
``game.play_game`` and ``game.run_game`` (small bodies over a large
closure) into ``play_blocks`` and ``entry``: fewer functions re-optimise
the game. ``play_blocks`` (``balance run``) plays ``play_game`` itself:
``entry``, whose modes reach every part of the engine (v1/v2's exchange
and option lists in a v3 kernel too), is compiled only for the tests and
scenarios (when ``play_blocks`` called ``entry``, a v3 run's cold compile
took 140 s, against 63 s without; v1 134 s against 92 s: issue 19's
closing note). A replay (``trace_one``) is one block of one game through
``play_blocks`` with its trace flag on, so it compiles nothing the run
did not.

The engine is compiled per variant, never imported as this package:
``elite.kernel.engine(version)`` imports it again as ``engine_v12``
(versions 1 and 2) or ``engine_v3`` (``core.jit.variant_package``), whose
package module carries ``VARIANT`` (12 or 3). Every branch between
versions 1-2 and 3 tests ``VARIANT``, a global numba freezes, so the
branch not taken is removed before typing and a variant compiles only its
own versions' code; the differences between versions 1 and 2 stay runtime
tests of ``Z[Z_V]`` (a few branches in shared code). Importing a module of
this package itself fails (no ``VARIANT``).

Every module is compiled into its variant's subfolder of the ruleset's
cache folder (``jit.kernel_cache_begin(RULESET, f"v{VARIANT}")`` first,
``jit.kernel_cache_end()`` last: ``core.jit.cache_dir``, named by the
fingerprint of every file of the ruleset, this folder included).

The exchange is written so later versions can hook into it: per-step
defender options (v3's dedicated shields are response options), the damage
multiplier as a saturating product (v3: the dragon, rampage and King Kong
factors), and every damage instance goes through a hit then a death
function (v3: ``hit3``/``die3``, with lives, the storm god and duels).

Random numbers come from the game's own stream (``core/rng.py``), in a fixed
order that tracing does not change.

Compile time: every function numba compiles on its own that only compiled
code calls carries ``no_cpython_wrapper=True, no_cfunc_wrapper=True``:
numba otherwise builds, optimises and emits a Python-callable wrapper
for each, boxing a dozen array arguments (cold compile CPU time, 4p
greedy: v3 62.4/62.3 -> 53.8 s, v1 47.2/47.1 -> 44.8 s). Python must not
call such a function (the process crashes): ``entry``, ``play_blocks``,
``cards.add_card`` and ``cards.draws_after_play``, which Python and the
tests call, keep their wrappers.

Speed: every function (``game.play_blocks`` too, the batch loop run on
threads by ``core.parallel.run_blocks``) is compiled with ``_nrt=False``:
numba then emits no reference counting for the ~10 array arguments of each
call (it was ~40 % of the run time). Such a function must never allocate
or return an array (views like ``pile[0]`` are fine). Small hot helpers
are inlined (``inline="always"``), but greedy's option scoring
(``policy``: ``emit``, ``gscore``, ``hit_value``, ...) carries LLVM's
``alwaysinline`` instead: ``emit`` has five call sites in each
enumerator, and numba typed every inlined copy again (v1's cold compile
92 -> 81 s, the kernel as fast), and v1/v2's ``emit`` and ``gscore`` have
one signature (``policy._sigs``; numba compiled them 9 and 7 times, once
per combination of literal arguments: v1's cold compile about 60 -> 53 s
in-process), as do v3's ``keep3`` and ``push3`` (8 times each per sink
type before); trace events are only built under ``if Z[Z_ON]``. Larger
hot functions with one call site (the option enumerators,
``exchange.hit``, v3's turn) carry LLVM's ``alwaysinline``
(``forceinline=True``): a call passes every array as a ~7-11 word struct,
~60-110 words per call, and that was a tenth of the time. numba's own
``inline="always"`` does the same at a far higher compile cost (inlining
``enum_resp_f`` that way took the cold compile from 90 to 211 s);
``forceinline`` on ``play_turn`` (two call sites, inlined callees) took it
to 290 s, so it is not used there. v1/v2's ``play_turn`` and ``act12``
are inlined by numba (small bodies over calls), so no function compiled
on its own sits between ``play_blocks`` and ``exchange``: v1's cold
compile 78 -> 59 s, as fast. v3's ``play_turn3`` is inlined by numba too,
and what it calls carries ``forceinline`` itself (``decide3``,
``act3``, ``turn_start3``, ``draw_n3``, ``resolve_duels``). numba
compiles a function for a caller with the caller's flags where its own
do not set them, so these inherited ``forceinline`` from a
``forceinline`` ``play_turn3`` before; inlining ``play_turn3`` by numba
without setting them made v3 greedy 12-35 % slower (they were then out
of line), and with them it is as fast and saves ``play_turn3``'s own
compiled copy, which numba optimised and emitted to machine code although
only its inlined copies run (a fifth of v3's LLVM time): cold v3 run, CPU
seconds, both variants at once on the two cores, twice: 59.8/64.1 ->
54.9/61.1 s. Module boundaries change none of this:
numba compiles and links by function, not by file.
"""
RULESET = __package__.rsplit(".", 1)[0]     # cache folder of the ruleset, not of engine/


def __getattr__(name):
    if name == "VARIANT":
        raise ImportError("the elite engine is compiled per version: import it through "
                          "balance.rulesets.elite.kernel.engine(version)")
    raise AttributeError(name)
