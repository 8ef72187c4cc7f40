"""Talisman's search policies (issue 20; README "Policies": search).

Determinized flat Monte Carlo inside the kernel: these tests check that a
searching seat keeps results reproducible (threads, chunks), never reads
what its seat cannot see, leaves the real game's records alone, and is
stronger than greedy. Speed is in ``scripts/bench.py``, never here.
"""
from __future__ import annotations

import numpy as np

from balance.core import batch
from balance.core.play import play_range
from balance.core.setup import setup
from balance.rulesets.talisman import SPEC
from balance.rulesets.talisman import layout as L
from lazy import lazy
from test_talisman_rules import replay_trace

K = lazy("balance.rulesets.talisman.kernel")     # compiled on first use, not at collection

VALUES = SPEC.space.resolve({})
NK = SPEC.n_kinds(VALUES)
NB = 5 * VALUES["values_per_element"]


def arrays(values=VALUES):
    return SPEC.kernel_arrays(values, np.zeros(SPEC.n_kinds(values), np.int64))


def ids(policies) -> np.ndarray:
    return np.array([SPEC.policies[p] for p in policies], np.int64)


# --- 2. no cheating: the engine's contract (tests/test_engine.py) ---------------------


# --- the real game's records ----------------------------------------------------
def test_rollouts_leave_the_games_records_alone():
    """A traced game with searching seats follows the rules event by event
    (``replay_trace``), and its card counts and masks are exactly the draws
    and plays of its own trace: nothing a rollout did reached them."""
    pols = ["search", "random", "search_fast"]
    for game in range(8):
        one, tr = batch.trace(SPEC, VALUES, 3, game, 3, ids(pols))
        replay_trace(tr, VALUES, pols)
        drawn = np.zeros((3, NK), np.int64)
        played = np.zeros((3, NK), np.int64)
        for t, _, p, a, b, *_ in tr:
            if t in (L.E_DEAL, L.E_DRAW):
                drawn[p, a] += 1
            elif t == L.E_STEAL and b >= 0:
                drawn[p, b] += 1
            elif t == L.E_PLACE:
                played[p, a] += 1
            elif t == L.E_CAST:
                played[p, NB + a] += 1
        np.testing.assert_array_equal(one.counts, [drawn.sum(0), played.sum(0)])
        for which, m in ((0, drawn), (1, played)):
            bits = [[bool((one.masks[0, p, which, k // 64] >> np.uint64(k % 64)) & np.uint64(1))
                     for k in range(NK)] for p in range(3)]
            np.testing.assert_array_equal(bits, m > 0)


def test_a_batch_without_a_search_seat_runs_the_kernel_without_the_search():
    # the search scratch is None there, so numba compiles (and a greedy run
    # loads from its cache) a specialisation without the search's code
    play_range(setup("talisman", seed=1, players=2, policies=["greedy", "random"]), 0, 10,
               progress=False)
    assert any(str(sig[-1]) == "none" for sig in K.E.play_blocks.signatures)
    greedy = K.context(2, ids(["greedy", "random"]), *arrays())
    assert K.E.scratch(greedy, lambda: K.new_state(2), np.zeros((1, 2, 2, 1)),
                       np.zeros((1, 2, NK))) is None
    searching = K.context(2, ids(["greedy", "search"]), *arrays())
    assert K.E.scratch(searching, lambda: K.new_state(2), np.zeros((1, 2, 2, 1)),
                       np.zeros((1, 2, NK))) is not None
