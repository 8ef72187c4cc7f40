"""Statistical behaviour of the designer workflow on talisman (known effects)."""
import numpy as np
import pandas as pd
import pytest

import balance
from balance.core import stats
from balance.workflow import adaptive
from balance.core.store import PointStore

MIXED = ["greedy", "random"]


@pytest.fixture(scope="module")
def hp_sweep():
    # greedy vs random, 2 players: more HP gives the better policy more turns
    # to convert its edge, so greedy's win rate rises with hp (random's falls)
    return balance.sweep("talisman", {"hp": [5, 10, 20, 40]}, games=20_000, seed=11,
                         players=2, policies=MIXED, target="random=0.05", progress=False,
                         refine=False)


def test_sweep_is_monotone_within_intervals(hp_sweep):
    t = hp_sweep.table
    g = t[(t["group"] == "policy") & (t["key"] == "greedy")].sort_values("hp")
    rate, lo, hi = (g[c].to_numpy() for c in ("win_rate", "ci_low", "ci_high"))
    assert (np.diff(rate) > 0).all()
    assert (lo[1:] > hi[:-1]).all()                  # each step up is beyond the intervals
    assert (g["n_games"] == 20_000).all()
    # lengths grow with hp too
    assert (np.diff(g["turns_mean"].to_numpy()) > 0).all()


def test_target_brackets_the_crossing(hp_sweep):
    c = hp_sweep.crossings.iloc[0]
    assert c["bracketed"] and c["parameter"] == "hp"
    t = hp_sweep.table
    r = t[(t["group"] == "policy") & (t["key"] == "random")].set_index("hp")["win_rate"]
    assert r[10] > 0.05 > r[20]
    assert 10 < c["estimate"] < 20
    assert 10 <= c["ci_low"] <= c["estimate"] <= c["ci_high"] <= 20
    assert "interpolation" in c["method"]


def test_target_outside_range_is_not_bracketed():
    r = balance.sweep("talisman", {"hp": [10, 20]}, games=2000, seed=1, policies=MIXED,
                      target="random=0.5", progress=False)
    c = r.crossings.iloc[0]
    assert not c["bracketed"] and np.isnan(c["estimate"])
    assert any("does not bracket" in ln for ln in r.lines())


def test_crossing_of_a_known_line_and_log_axis():
    x = np.array([1.0, 10.0, 100.0, 1000.0, 10000.0])
    y = np.log10(x) / 4                               # 0 ... 1, linear in log10(x)
    c = stats.crossing(x, y, y - 0.05, y + 0.05, 0.5, scale="log")
    assert c["bracketed"] and c["estimate"] == pytest.approx(100.0)
    assert c["ci_low"] == pytest.approx(10 ** 1.8, rel=1e-2)
    assert c["ci_high"] == pytest.approx(10 ** 2.2, rel=1e-2)
    from balance.core.plots import axis_scale
    assert axis_scale(x) == "log" and axis_scale([0, 1, 10, 1000]) == "symlog"
    assert axis_scale([10, 15, 20, 40]) == "linear"


def test_paired_interval_is_narrower_than_unpaired():
    r = balance.compare("talisman", {"hp": 20}, {"hp": 22}, games=20_000, seed=5,
                        policies=MIXED, progress=False)
    rates = r.rates
    assert (rates["width_ratio"] < 1).all()
    assert ((rates["paired_high"] - rates["paired_low"])
            < (rates["unpaired_high"] - rates["unpaired_low"])).all()
    g = rates.set_index(["group", "key"]).loc[("policy", "greedy")]
    assert g["paired_low"] > 0                         # more HP helps greedy, detectably
    turns = r.length.set_index("metric").loc["turns_mean"]
    assert turns["paired_high"] - turns["paired_low"] < turns["unpaired_high"] - turns["unpaired_low"]
    assert r.narrowing["percent_narrower"] > 10


def test_paired_ratio_diff_is_mean_of_paired_differences():
    rng = np.random.default_rng(0)
    a = rng.random(5000) < 0.4
    b = a ^ (rng.random(5000) < 0.1)
    d, lo, hi, se = stats.paired_ratio_diff(b, np.ones(5000), a, np.ones(5000))
    diff = b.astype(float) - a
    assert d == pytest.approx(diff.mean())
    assert se == pytest.approx(diff.std(ddof=1) / np.sqrt(5000))
    assert hi - d == pytest.approx(stats.Z95 * se)


def test_moment_matrix_intervals_match_the_per_game_formulas():
    # the paired intervals come from the moment matrix (gram), which pieces
    # of games add up exactly: they must equal the per-game delta-method and
    # Welch formulas, and the gram of two halves must add to the whole's
    rng = np.random.default_rng(1)
    n = 4000
    na, nb = rng.integers(0, 3, n), rng.integers(0, 3, n)
    wa, wb = rng.binomial(na, 0.4), rng.binomial(nb, 0.5)
    d, lo, hi, se = stats.paired_ratio_diff(wa, na, wb, nb)
    ra, rb = wa.sum() / na.sum(), wb.sum() / nb.sum()
    z = (wa - ra * na) / na.mean() - (wb - rb * nb) / nb.mean()
    assert d == pytest.approx(ra - rb, rel=1e-12)
    assert se == pytest.approx(z.std(ddof=1) / np.sqrt(n), rel=1e-9)
    r, _, _, se1 = stats.ratio_mean(wa, na)
    z1 = (wa - ra * na) / na.mean()
    assert r == pytest.approx(ra) and se1 == pytest.approx(z1.std(ddof=1) / np.sqrt(n), rel=1e-9)
    t1, t2 = rng.integers(5, 60, n), rng.integers(5, 60, n)
    _, _, _, sp = stats.mean_diff_ci(t1, t2, paired=True)
    _, _, _, su = stats.mean_diff_ci(t1, t2, paired=False)
    assert sp == pytest.approx((t1 - t2).std(ddof=1) / np.sqrt(n), rel=1e-9)
    assert su == pytest.approx(np.sqrt(t1.var(ddof=1) / n + t2.var(ddof=1) / n), rel=1e-9)
    whole = stats.gram(wa, na, wb, nb)
    halves = stats.gram(wa[:1234], na[:1234], wb[:1234], nb[:1234]) \
        + stats.gram(wa[1234:], na[1234:], wb[1234:], nb[1234:])
    assert whole.dtype == np.int64 and (whole == halves).all()
    assert stats.paired_ratio_diff_g(halves) == (d, lo, hi, se)


def test_forbidding_a_card_the_policy_never_plays_changes_nothing():
    # greedy never casts gamble: its policy value value_gamble = 0
    kw = dict(games=5000, seed=3, players=3, policies=["greedy"])
    base = balance.simulate("talisman", progress=False, **kw)
    ban = balance.simulate("talisman", ban={"gamble": "forbid"}, progress=False, **kw)
    pd.testing.assert_frame_equal(base.games, ban.games)
    seats = [c for c in base.seats.columns]
    pd.testing.assert_frame_equal(base.seats[seats], ban.seats[seats])
    r = balance.cards("talisman", kinds=["gamble", "thunder"], mode="forbid",
                      progress=False, **kw)
    t = r.table.set_index("kind")
    assert t.at["gamble", "change"] == 0 and t.at["gamble", "change_low"] == 0
    assert t.at["gamble", "change_high"] == 0 and not t.at["gamble", "significant"]
    assert t.at["thunder", "change"] != 0


def test_adaptive_run_stops_with_the_promised_precision():
    eps = 0.004
    r, info = balance.run_precise("talisman", eps, games=5000, seed=2, policies=MIXED,
                                  progress=False)
    assert info["reached"] and info["widest"] < eps
    assert adaptive.result_width(r) < eps and len(r.games) == info["games"]
    for t in (r.by_seat(), r.by_policy()):
        assert ((t["ci_high"] - t["win_rate"]) < eps).all()
        assert ((t["win_rate"] - t["ci_low"]) < eps).all()
    # it does not overshoot wildly: the 1/sqrt(n) prediction lands near the need
    assert info["games"] < 4 * 5000 * (0.01 / eps) ** 2
    # and the pieces are exactly one run of the same seed
    whole = balance.simulate("talisman", games=info["games"], seed=2, policies=MIXED,
                             progress=False)
    pd.testing.assert_frame_equal(r.games, whole.games)
    r2, info2 = balance.run_precise("talisman", 0.0005, max_games=8000, games=5000,
                                    seed=2, policies=MIXED, progress=False)
    assert not info2["reached"] and info2["games"] == 8000


def test_store_never_reuses_a_point_for_another_configuration(tmp_path):
    st = PointStore(tmp_path)
    a = {"ruleset": "talisman", "seed": 1, "params": {"hp": 20}}
    b = {"ruleset": "talisman", "seed": 1, "params": {"hp": 21}}
    st.save(a, {"x": np.arange(3)})
    assert st.load(a)["x"].tolist() == [0, 1, 2]
    assert st.load(b) is None
    st.path(a).rename(st.path(b))                    # a file under the wrong name
    assert st.load(b) is None
    calls = []
    got = st.fetch(b, lambda: calls.append(1) or {"x": np.arange(5)})
    assert calls == [1] and got["x"].size == 5 and st.load(b)["x"].size == 5
