"""A version group's kernel (``elite.kernel.engine(version)``): the game
engine (``core.engine``) bound to this variant's step module (``step``),
cached in the ruleset's folder under ``engine_v12`` or ``engine_v3``;
``run_batch``, ``trace_one`` and ``KERNELS`` (what ``SPEC.kernel``
dispatches to), ``context`` and ``new_state`` (the step contract's
``core.engine.contract.Table``)."""
import numpy as np

from ....core import engine
from ..layout import NG, NSEAT  # noqa: F401  (record widths: the ruleset contract)
from .state import context, new_state
from . import RULESET, VARIANT

E = engine.bind(RULESET, __package__, f"v{VARIANT}")


def _scratch(c, P, masks, counts):
    return E.scratch(c, lambda: new_state(P), masks, counts)


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, PT, PID, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch on one thread (``core.parallel.run_blocks``
    spreads the blocks over threads); counts[b] holds block b's card counts."""
    c = context(P, pol, ip, pp, PT, PID)
    E.play_blocks(b0, b1, seed, start, n_games, c, check, games, seats, masks, counts, errors,
                  new_state(P), np.zeros((1, 8), np.int64), _scratch(c, P, masks, counts))


def trace_one(seed, game, P, pol, ip, pp, PT, PID, games, seats, masks, counts, tr):
    """Game ``game`` of ``seed`` traced into ``tr``; returns the trace length."""
    c = context(P, pol, ip, pp, PT, PID)
    return E.trace_game(seed, game, c, new_state(P), games, seats, masks, counts, tr,
                        _scratch(c, P, masks, counts))


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": E.play_blocks, "replay": E.trace_game, "search": E.choose}
