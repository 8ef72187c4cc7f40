"""``balance sensitivity`` and ``sweep --target NAME=fair`` / ``--rate`` on a
synthetic ruleset whose answers are known: the coin flip (``tests/coinflip``),
where ``bias`` gives seat 0's coin (50 + bias)% heads and ``inert`` is read by
no rule. Seat 0's win probability is computed exactly below (first to
``target`` heads, seats alternating), so the effect of a bias and the bias
that makes seat 0 fair are known numbers the tools must find."""
from functools import lru_cache

import numpy as np
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.core.errors import BalanceError
from balance.workflow.sensitivity import curve_shape, sensitivity
from balance.workflow.sweep import sweep



pytestmark = pytest.mark.usefixtures("coin_registered")     # tests/conftest.py


def seat0_wins(bias: float, target: int = 3) -> float:
    """Exact probability that seat 0 wins 2-player steady play: it flips
    heads with (50 + bias)%, seat 1 with 50%, seat 0 first, the first to
    ``target`` heads wins (the 1,000-turn cap is never reached in practice)."""
    q = (50 + bias) / 100

    @lru_cache(None)
    def f(h0, h1):                      # (seat 0 to move, seat 1 to move)
        a = 1.0 if h0 + 1 >= target else f(h0 + 1, h1)[1]
        b = 0.0 if h1 + 1 >= target else f(h0, h1 + 1)[0]
        f0 = (q * a + 0.5 * (1 - q) * b) / (1 - 0.5 * (1 - q))
        return f0, 0.5 * b + 0.5 * f0
    return f(0, 0)[0]


def fair_bias() -> float:
    """The bias at which seat 0 wins half its games (bisection)."""
    lo, hi = -40.0, 0.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if seat0_wins(mid) < 0.5 else (lo, mid)
    return (lo + hi) / 2


def test_exact_model_matches_the_kernel_at_no_bias():
    r = sweep("coin", {"bias": [0, 10]}, games=20_000, seed=3, players=2, progress=False)
    t = r.table[(r.table["group"] == "seat") & (r.table["key"] == "0")].set_index("bias")
    for b in (0, 10):
        assert t.at[b, "ci_low"] <= seat0_wins(b) <= t.at[b, "ci_high"]


def test_sensitivity_ranks_the_bias_first_and_flags_the_inert_parameter(tmp_path):
    res = sensitivity("coin", "bias,inert,target", games=20_000, seed=1, players=2,
                      out=tmp_path, progress=False)
    rk = res.ranking
    assert list(rk["parameter"]) == ["bias", "target", "inert"]
    assert rk.set_index("parameter").loc[["bias", "target"], "significant"].all()
    assert list(res.inert()["parameter"]) == ["inert"]
    # the known effect: bias=10 moves seat 0 by the exact model's difference
    e = res.effects
    b10 = e[(e["parameter"] == "bias") & (e["value"] == 10) & (e["group"] == "seat")
            & (e["key"] == "0")].iloc[0]
    assert b10["low"] <= seat0_wins(10) - seat0_wins(0) <= b10["high"]
    # the inert one plays the very same games: every effect exactly 0
    assert (e[e["parameter"] == "inert"]["diff"] == 0).all()
    text = "\n".join(res.lines())
    assert "inert: no effect on any seat" in text
    assert "rate: win rate" in text
    for f in ("sensitivity.md", "sensitivity.csv", "sensitivity_ranking.csv",
              "sensitivity_tornado.png", "sensitivity.json"):
        assert (tmp_path / f).exists(), f
    md = (tmp_path / "sensitivity.md").read_text()
    assert "seed 1" in md and "balance sensitivity coin --games 20000 --seed 1" in md
    csv = (tmp_path / "sensitivity.csv").read_text().splitlines()
    assert {"ruleset", "version", "seed", "base_params"} <= set(csv[0].split(","))


def test_sensitivity_resumes_from_its_stored_pieces(tmp_path, capsys):
    a = sensitivity("coin", "bias", games=3_000, seed=2, players=2, out=tmp_path)
    capsys.readouterr()
    b = sensitivity("coin", "bias", games=3_000, seed=2, players=2, out=tmp_path)
    err = capsys.readouterr().err.replace(",", "")
    assert "resumed: 9000 of 9000 games reused" in err, err
    assert a.effects["diff"].tolist() == b.effects["diff"].tolist()


def test_sweep_target_fair_finds_the_known_bias():
    r = sweep("coin", {"bias": [-20, -10, 0, 10]}, games=20_000, seed=1, players=2,
              target="seat0=fair", progress=False)
    c = r.crossings.iloc[0]
    assert c["bracketed"] and c["target_kind"] == "fair"
    assert c["ci_low"] <= fair_bias() <= c["ci_high"], (fair_bias(), c["ci_low"], c["ci_high"])
    text = "\n".join(r.lines())
    assert "seat 0 win rate = the fair share (50.00% there) when bias =" in text
    r2 = sweep("coin", {"bias": [-20, 0]}, games=2_000, seed=1, players=2,
               target="seat0=fair", rate="sole", refine=False, progress=False)
    assert "sole-win rate (= win rate: one winner a game)" in "\n".join(r2.lines())


def test_curve_shapes():
    # saturation: the effect stops changing from 10 on (default 10,000)
    s = curve_shape([1, 10, 100, 1000], 10_000, [-0.05, 0.0, 0.001, 0.0],
                    [-0.06, -0.005, -0.004, -0.005], [-0.04, 0.005, 0.006, 0.005])
    assert s.startswith("saturates from 10:"), s
    # a peak inside the range
    s = curve_shape([1, 2, 4], 3, [0.0, 0.05, 0.0], [-0.01, 0.04, -0.01], [0.01, 0.06, 0.01])
    assert s.startswith("non-monotone: peaks at 2"), s
    # a threshold: nothing moves until past 10
    s = curve_shape([1, 2, 100], 10, [0.0, 0.0, 0.05], [-0.01, -0.01, 0.04], [0.01, 0.01, 0.06])
    assert s.startswith("no change from 1 to 10"), s
    assert curve_shape([True], False, [0.1], [0.05], [0.15]) is None


@pytest.mark.parametrize("args, says", [
    (["--params", "bais"], "unknown parameter or group 'bais'"),
    (["--params", "bias", "--values", "bias=99"], "out of bounds"),
    (["--params", "bias", "--values", "inert=1"], "not among the parameters analysed"),
    (["--params", "max_turns"], "no parameter has a value"),
    (["--rate", "alone"], "--rate"),
])
def test_sensitivity_bad_input_is_one_line_and_exit_2(args, says, tmp_path):
    r = CliRunner().invoke(cli, ["sensitivity", "coin", "--games", "100", *args,
                                 "--out", str(tmp_path)])
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and says in lines[0], r.output


def test_sweep_bad_fair_target_is_one_line(tmp_path):
    r = CliRunner().invoke(cli, ["sweep", "coin", "--vary", "bias=0,10", "--games", "100",
                                 "--target", "seat0=fairly", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "neither a number nor 'fair'" in r.output, r.output
    with pytest.raises(BalanceError):
        sweep("coin", {"bias": [0, 10]}, games=100, rate="alone")


def test_sensitivity_command_prints_its_games_and_names_its_rate(tmp_path):
    r = CliRunner().invoke(cli, ["sensitivity", "coin", "--players", "2", "--params", "bias",
                                 "--games", "2000", "--rate", "sole", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "4 configurations x 2,000 games = 8,000 games to play" in r.output
    assert "rate: sole-win rate (= win rate: one winner a game)" in r.output
    assert np.isfinite(float((tmp_path / "sensitivity_ranking.csv").read_text()
                             .splitlines()[1].split(",")[5]))


def test_sensitivity_with_precision_plays_until_each_value_is_precise():
    res = sensitivity("coin", "bias", games=1_000, seed=4, players=2, precision=0.02,
                      progress=False)
    e = res.effects[res.effects["group"] == "seat"]
    assert (stats_half(e) < 0.02).all()
    assert all(p["reached"] for p in res.precision["values"])
    assert "1 parameter, 3 values" in res.lines()[0]


def stats_half(e):
    return np.maximum(e["high"] - e["diff"], e["diff"] - e["low"])


def test_the_report_says_what_moves_the_balance(tmp_path):
    from balance.workflow.report import report
    res = report("coin", out=tmp_path / "r", games=2_000, seed=1, players=2, progress=False,
                 skill_seconds=0)
    md = res["markdown"].read_text()
    assert "## What moves the balance" in md
    # its own folder: a `balance sensitivity --out <report>/sensitivity` run is never replaced
    assert (tmp_path / "r" / "headline_sensitivity" / "sensitivity_tornado.png").exists()
    assert not (tmp_path / "r" / "sensitivity").exists()
    assert any(f.startswith("Of the headline parameters, target moves the balance most")
               for f in res["findings"]), res["findings"]


def test_of_group_falls_back_to_the_seats_where_the_ranked_group_has_no_effect():
    from balance.workflow.sensitivity import of_group
    role = {"group": "role", "key": "king"}
    seat = {"group": "seat", "key": "0"}
    game = {"group": "game", "key": "turns_mean"}
    assert of_group([role, seat, game], "role") == [role]
    assert of_group([seat, game], "role") == [seat]
    assert of_group([game], "role") == []


def test_sensitivity_of_a_value_that_changes_the_roles_ranks_by_seat():
    """Elite's versions 1 and 2 hold none of version 3's roles, so no role
    effect pairs: the precision is measured, and the parameter ranked, on
    the seats (this raised 'max() arg is an empty sequence' before)."""
    res = sensitivity("elite", "version", games=300, seed=1, players=4, precision=0.2,
                      max_games=600, progress=False)
    assert res.main == "role"
    assert list(res.ranking["group"]) == ["seat"]
    assert res.ranking["key"].iloc[0] in {"0", "1", "2", "3"}
    text = "\n".join(res.lines())
    assert f"seat {res.ranking['key'].iloc[0]}" in text
    assert len(res.precision["values"]) == 2
