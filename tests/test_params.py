"""Parameter declaration, validation and overrides (core/params.py)."""
import pytest

from balance.core import registry
from balance.core.errors import BalanceError
from balance.core.params import parse_assignment, to_kernel


@pytest.fixture
def space():
    return registry.get("talisman").space


def test_every_param_is_declared_with_doc_bounds_and_sweep(space):
    for info in space.infos.values():
        assert info.doc, info.name
        if info.kind is not bool:
            lo, hi = info.bounds
            assert lo <= info.default <= hi, info.name
            assert all(lo <= v <= hi for v in info.sweep), info.name
            assert info.sweep, info.name


def test_resolve_coerces_strings(space):
    v = space.resolve({"hp": "30", "min_combo_value": "7.5", "max_turns": "1e3"})
    assert v["hp"] == 30 and isinstance(v["hp"], int)
    assert v["min_combo_value"] == 7.5
    assert v["max_turns"] == 1000


@pytest.mark.parametrize("key,value,fragment", [
    ("hpp", "3", "did you mean 'hp'"),
    ("hp", "abc", "int in [1, 1000]"),
    ("hp", "0", "out of bounds"),
    ("hp", "2.5", "not a valid value"),
    ("min_combo_value", "nan", "not a valid value"),
    ("min_combo_value", "-1", "out of bounds"),
])
def test_resolve_errors_name_the_key_and_range(space, key, value, fragment):
    with pytest.raises(BalanceError) as e:
        space.resolve({key: value})
    assert key in str(e.value) and fragment in str(e.value)


def test_kernel_vectors_follow_declaration_order(space):
    values = space.resolve({"hp": 33, "heal_value": 2.5})
    ip, fp = to_kernel(space.rules(values))
    assert ip[0] == 33 and fp.size == 0
    _, pp = to_kernel(space.policy(values))
    from balance.rulesets.talisman.rules import PIDX
    assert pp[PIDX["heal_value"]] == 2.5


def test_parse_assignment():
    assert parse_assignment("hp=3") == ("hp", "3")
    for bad in ("hp", "=3", "hp="):
        with pytest.raises(BalanceError):
            parse_assignment(bad)


def test_wilson_matches_statsmodels():
    import numpy as np
    from statsmodels.stats.proportion import proportion_confint

    from balance.core.stats import wilson
    k = np.array([0, 1, 5, 50, 99, 100, 3])
    n = np.array([10, 10, 10, 100, 100, 100, 1000])
    lo, hi = wilson(k, n)
    slo, shi = proportion_confint(k, n, alpha=0.05, method="wilson")
    np.testing.assert_allclose(lo, slo, atol=1e-12)
    np.testing.assert_allclose(hi, shi, atol=1e-12)
    lo, hi = wilson([3], [0])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
