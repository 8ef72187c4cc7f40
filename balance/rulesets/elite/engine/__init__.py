"""Magic Elite's compiled engine: njit functions over small int64 arrays
(layouts in ``..layout``). Nothing is imported here: ``SPEC.kernel``
dispatches to ``kernel`` of the version's variant, imported (compiled or
loaded from numba's cache) on first use.

Every file is named by its role (``core.package``); a role too long for
one file continues in ``<role>_<part>`` modules. Each module imports only
those above it (numba compiles and links by function, not by file, so the
split changes no compiled code):

- ``cards``: saturating arithmetic, draw/play/discard, the option buffer,
  sides, forbidden cards and the ban fallback;
- ``step_v12``: characters entering play, the v1/v2 multipliers and skills;
- ``step_v3``: v3's shields, multipliers, passives, lives, frost,
  bloodthirst, mines, shop, the start of a turn (where the dragon's and
  birds' rounds end);
- ``policies``: option enumeration, greedy's scores, the decisions, and the
  option lists with greedy's scores the search reads (``options12``,
  ``options3``);
- ``step_duel``: v3's duel and duel queue;
- ``step_exchange``: the OD chain as steps (``xopen``, ``xnext``,
  ``xresp12``, ``xresp3``: each response is a decision of its own) and,
  over them, the chain played whole (``exchange``), with v1/v2's damage,
  deaths and Judgment;
- ``step_turn``: a turn played whole (``turn``: the start
  ``pre12``/``pre3``, the decision, the play ``play12``/``play3`` and its
  exchange), the turn order (``next_turn``, ``advance``), the sides left
  and the winner;
- ``step_game``: dealing (``init_game``), the invariant checks, the
  records (``finish``), ``entry`` (the scenarios' and tests' modes);
- ``state``: the game engine's ``State``/``Ctx``, ``copy``,
  ``redeal_hidden``, ``info_key``;
- ``step``: the step interface (``core.engine``): the game as a phase
  machine that stops at every turn play and every response;
- ``kernel``: the game engine bound to ``step`` (``core.engine.bind``),
  ``run_batch``, ``trace_one``, ``KERNELS``.

The rule parts are ``step_*`` modules below ``step`` because the phase
machine plays them; ``policies`` sits among them, above the rule parts it
reads (``step_v12``, ``step_v3``) and below those that decide
(``step_exchange``, ``step_turn``).

The game loop and the search policies (flat Monte Carlo levels, ISMCTS)
are the engine's (``core.engine.loop``, ``core.engine.search``), written
once for every ruleset; the whole-turn code (``step_turn.turn``,
``step_exchange.exchange``) serves the scenarios' ``entry`` and plays the
same step functions.

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
``jit.kernel_cache_end()`` last); the bound game engine into
``engine_v12``/``engine_v3``.

What is compiled where (docs/performance.md gives the rules):

- Reference counting is off (``_nrt=False``) in every function: none may
  allocate or return an array (views like ``pile[0]`` are fine).
- Functions that only compiled code calls carry
  ``no_cpython_wrapper=True, no_cfunc_wrapper=True``. Python must not call
  them (the process crashes); the step interface, ``entry``,
  ``cards.add_card`` and ``cards.draws_after_play``, which Python and the
  tests call, keep their wrappers.
- Greedy's option scoring (``policies``: ``emit``, ``greedy_score``,
  ``hit_value``, ...) and the larger hot functions with one call site
  (the option enumerators, ``step_exchange.hit``, v3's turn callees
  ``decide3``, ``turn_start3``, ``draw_n3``, ``resolve_duels``) carry
  LLVM's ``alwaysinline`` (``forceinline=True``): numba's own inlining
  would type every copy again at each call site, and a call passes every
  array as a 7-11 word struct; so do the turn plays and exchange steps
  ``step.apply`` runs (``step_turn.play3``/``play12``,
  ``step_exchange.xnext``, ``xresp3``/``xresp12``), and ``step.settle`` (one call site, in
  ``apply``) and ``step.begin`` (in ``settle`` and ``deal``), which end a
  turn and start the next. ``step.apply`` itself is inlined by numba into
  the engine's batch loop only (``core.engine.inlining.in_batch_loop``):
  inlined into every search call site, a compile grows many times over.
- v1/v2's ``emit`` and ``greedy_score`` have one signature
  (``policies._sigs``), as do v3's ``keep_best3`` and ``push3``: numba
  otherwise compiles one version per combination of literal arguments.
- Trace events are only built under ``if Z[Z_ON]``.
"""
RULESET = __package__.rsplit(".", 1)[0]     # cache folder of the ruleset, not of engine/


def __getattr__(name):
    if name == "VARIANT":
        raise ImportError("the elite engine is compiled per version: import it through "
                          "balance.rulesets.elite.kernel.engine(version)")
    raise AttributeError(name)
