"""A version group's kernel (``elite.kernel.engine(version)``): the game
engine (``core.engine``) bound to this variant's step module (``step``),
cached in the ruleset's folder under ``engine_v12`` or ``engine_v3``;
``run_batch``, ``trace_one`` and ``KERNELS`` (what ``SPEC.kernel``
dispatches to), ``context`` and ``new_state`` (the step contract's
``core.engine.contract.Table``)."""
from ....core import engine
from ..layout import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state
from . import RULESET, VARIANT

E = engine.bind(RULESET, __package__, f"v{VARIANT}")

run_batch, trace_one, KERNELS = engine.entries(E, context, new_state)
