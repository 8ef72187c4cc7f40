"""The step level of the ruleset contract (``core.engine.contract``), over
every ruleset on the engine, and the engine's search written once."""
from __future__ import annotations

import importlib.util

import numba
import numpy as np
import pytest

from balance.core.engine import contract
from balance.core.runner import play_range, setup
from balance.core import registry
from lazy import lazy

# rulesets that can be on the engine: (name, players, the heuristics to walk
# with); one is tested once it has its step module (``<ruleset>/step.py``)
CANDIDATES = [("talisman", 3, ["greedy", "random", "patient"]),
              ("resonance", 4, ["counter", "random", "saboteur", "counter"]),
              ("demon", 2, ["greedy", "random"]),
              ("school", 4, ["informed", "random", "informed", "random"])]
ON_ENGINE = [c for c in CANDIDATES
             if importlib.util.find_spec(f"balance.rulesets.{c[0]}.step") is not None]
KERNELS = {name: lazy(f"balance.rulesets.{name}.kernel") for name, *_ in ON_ENGINE}



@pytest.mark.parametrize("name, P, policies", ON_ENGINE)
def test_every_state_offers_options_and_every_option_keeps_the_invariants(name, P, policies):
    assert contract.check_steps(registry.get(name), KERNELS[name], P, policies) > 50


@pytest.mark.parametrize("name, P, policies", ON_ENGINE)
def test_redeal_hidden_changes_nothing_the_seat_sees(name, P, policies):
    assert contract.check_redeal(registry.get(name), KERNELS[name], P, policies) > 10


@pytest.mark.parametrize("name, P, policies", ON_ENGINE)
@pytest.mark.parametrize("policy", ["search", "ismcts"])
def test_search_choices_are_blind_to_what_the_seat_cannot_see(name, P, policies, policy):
    assert contract.check_search_blind(registry.get(name), KERNELS[name], P, policy) >= 8


@pytest.mark.parametrize("name, P, policies", ON_ENGINE)
def test_a_game_played_step_by_step_is_the_batch_loops_game(name, P, policies):
    """deal, then the heuristics' choices applied one step at a time from
    Python, then finish: the same records as the compiled batch loop."""
    spec = registry.get(name)
    K = KERNELS[name]
    b = play_range(setup(name, seed=3, players=P, policies=policies), 0, 6, progress=False)
    t = contract.Table(spec, K, P, policies)
    R = t.R
    for g in range(6):
        t.deal(3, g)
        while not R.done(t.s, t.c):
            t.apply(R.heuristic(t.s, t.c, t.pol[R.seat(t.s, t.c)]))
        grow = np.zeros_like(b.games[g])
        srow = np.zeros_like(b.seats[g])
        R.finish(t.s, t.c, t.tr, False, grow, srow)
        np.testing.assert_array_equal(grow, b.games[g])
        np.testing.assert_array_equal(srow, b.seats[g])


@pytest.mark.parametrize("name, P, policies", ON_ENGINE)
def test_search_tables_do_not_depend_on_threads_or_chunks(name, P, policies, monkeypatch):
    pols = ["search_fast", "ismcts"] + policies[:P - 2]
    s = setup(name, seed=77, players=P, policies=pols,
              params={"search_determinizations": 2, "search_iterations": 16})
    n = 90
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    one = play_range(s, 0, n, progress=False)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    two = play_range(s, 0, n, progress=False)
    for other in (two, play_range(s, 0, n, progress=False, chunk=n // 3 + 7)):
        for f in ("games", "seats", "masks", "counts"):
            np.testing.assert_array_equal(getattr(one, f), getattr(other, f), err_msg=f)
