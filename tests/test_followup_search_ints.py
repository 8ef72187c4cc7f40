"""Issue 34 item 3: school's and resonance's search counts are int
parameters (integer bounds and sweeps), passed to the kernel as ints after
the rule ints, as demon does (``kernel_args``): before, they were declared
as floats because the default kernel arrays drop int policy parameters."""
import re

import numpy as np
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.core import registry
from balance.core.errors import BalanceError

COUNTS = ("search_top_k", "search_determinizations", "search_rollouts", "search_rollout_policy")


@pytest.mark.parametrize("name", ["school", "resonance"])
def test_params_lists_the_search_counts_as_ints_with_integer_bounds(name):
    r = CliRunner().invoke(cli, ["params", name])
    assert r.exit_code == 0, r.output
    for key in COUNTS:
        line = next(x for x in r.output.splitlines() if x.startswith(key + " "))
        m = re.match(rf"{key}\s+(\w+)\s+default (\S+)\s+bounds \[(\S+), (\S+)\]\s+sweep (.*)$",
                     line)
        assert m, line
        kind, default, lo, hi, sweep = m.groups()
        assert kind == "int", line
        for v in (default, lo, hi, *sweep.split(", ")):
            assert re.fullmatch(r"\d+", v), (key, v)


@pytest.mark.parametrize("name", ["school", "resonance"])
def test_the_search_counts_reach_the_kernel_as_ints_after_the_rule_ints(name):
    import importlib
    spec = registry.get(name)
    rules = importlib.import_module(f"balance.rulesets.{name}.rules")
    given = {"search_top_k": 3, "search_determinizations": 7, "search_rollouts": 5,
             "search_rollout_policy": 1}
    values = spec.space.resolve(given)
    ip, pp = spec.kernel_arrays(values, np.zeros(spec.n_kinds(values), np.int64))[:2]
    assert ip.dtype == np.int64 and pp.dtype == np.float64
    for key, v in given.items():
        assert isinstance(values[key], int)
        assert ip[rules.N_RULE_INTS + rules.PIDX[key]] == v
    # the float policy vector holds the float policy parameters only, one row a seat
    floats = [i.name for i in spec.space.infos.values()
              if i.group == "policy" and i.kind is float]
    assert pp.shape == (spec.players[1], len(floats)) and not set(COUNTS) & set(floats)


@pytest.mark.parametrize("name", ["school", "resonance"])
def test_a_fractional_count_is_refused(name):
    with pytest.raises(BalanceError, match="search_top_k.*int in"):
        registry.get(name).space.resolve({"search_top_k": "2.5"})
