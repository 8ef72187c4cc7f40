"""The coin-flip kernel (tests only): the game engine (``core.engine``)
bound to the step module (``step``), and the contract's entries
``run_batch``, ``trace_one``, ``KERNELS``: the smallest ruleset on the
engine (``state``: the State and Ctx; ``step``: the phase machine).

Cached like a real ruleset's, so the unmocked first-compile notice test
(tests/test_outputs_designer.py) can run on it in seconds."""
from balance.core import engine
from .state import context, new_state

NG, NSEAT = 4, 1                        # record widths (the ruleset contract)

E = engine.bind(__package__)            # the engine's loop, compiled for this ruleset

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
