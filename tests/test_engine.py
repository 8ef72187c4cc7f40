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
# (test id, ruleset, players, heuristics, parameters)
ON_ENGINE = [pytest.param(name, name, P, pols, {}, id=name) for name, P, pols in CANDIDATES
             if importlib.util.find_spec(f"balance.rulesets.{name}.step") is not None]
# Magic Elite: one engine per version group (elite.kernel.engine(version, "run"))
ON_ENGINE += [pytest.param(f"elite-v{v}", "elite", 4, ["greedy", "random", "greedy", "random"],
                           {"version": v}, id=f"elite-v{v}") for v in (1, 2, 3)]


class _EliteRun:
    def __init__(self, version):
        self.version = version

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        from balance.rulesets.elite.kernel import engine
        return getattr(engine(self.version, "run"), attr)


KERNELS = {p.values[0]: (_EliteRun(p.values[4]["version"]) if p.values[1] == "elite"
                         else lazy(f"balance.rulesets.{p.values[1]}.kernel")) for p in ON_ENGINE}
ARGS = "label, name, P, policies, params"



@pytest.mark.parametrize(ARGS, ON_ENGINE)
def test_every_state_offers_options_and_every_option_keeps_the_invariants(label, name, P, policies,
                                                                          params):
    assert contract.check_steps(registry.get(name), KERNELS[label], P, policies,
                                params=params) > 50


@pytest.mark.parametrize(ARGS, ON_ENGINE)
def test_redeal_hidden_changes_nothing_the_seat_sees(label, name, P, policies, params):
    assert contract.check_redeal(registry.get(name), KERNELS[label], P, policies,
                                 params=params) > 10


@pytest.mark.parametrize(ARGS, ON_ENGINE)
@pytest.mark.parametrize("policy", ["search", "ismcts"])
def test_search_choices_are_blind_to_what_the_seat_cannot_see(label, name, P, policies, params,
                                                              policy):
    assert contract.check_search_blind(registry.get(name), KERNELS[label], P, policy,
                                       params=params) >= 8


@pytest.mark.parametrize(ARGS, ON_ENGINE)
def test_a_game_played_step_by_step_is_the_batch_loops_game(label, name, P, policies, params):
    """deal, then the heuristics' choices applied one step at a time from
    Python, then finish: the same records as the compiled batch loop."""
    spec = registry.get(name)
    K = KERNELS[label]
    b = play_range(setup(name, seed=3, players=P, policies=policies, params=params), 0, 6,
                   progress=False)
    t = contract.Table(spec, K, P, policies, params)
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


@pytest.mark.parametrize(ARGS, ON_ENGINE)
def test_search_tables_do_not_depend_on_threads_or_chunks(label, name, P, policies, params,
                                                          monkeypatch):
    pols = ["search_fast", "ismcts"] + policies[:P - 2]
    s = setup(name, seed=77, players=P, policies=pols,
              params={**params, "search_determinizations": 2, "search_iterations": 16})
    n = 90
    monkeypatch.setattr(numba, "get_num_threads", lambda: 1)
    one = play_range(s, 0, n, progress=False)
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)
    two = play_range(s, 0, n, progress=False)
    for other in (two, play_range(s, 0, n, progress=False, chunk=n // 3 + 7)):
        for f in ("games", "seats", "masks", "counts"):
            np.testing.assert_array_equal(getattr(one, f), getattr(other, f), err_msg=f)
