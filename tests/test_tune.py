"""balance tune (balance/workflow/tune.py) on the throwaway coin flip
(tests/coinflip): seat 0 moves first, and ``bias`` moves its coin's heads
probability to (50 + bias)%, so the setting where both seats win half the
games is known exactly (test_sensitivity's model: bias -4.65, between the
whole numbers -5 and -4); a few seconds in all."""
import pytest
from click.testing import CliRunner

# the exact model of the coin's seat bias (the coin is registered: pytestmark)
from test_sensitivity import fair_bias, seat0_wins

from balance.cli import cli
from balance.workflow.sweep import sweep
from balance.workflow.tune import tune

pytestmark = pytest.mark.usefixtures("coin_registered")     # tests/conftest.py

GAMES = 20_000


def test_tune_recovers_the_fair_bias_within_its_interval(tmp_path):
    """tune finds a whole-number bias either side of the exact crossing
    (-4.65), and its answer's 95% interval, played on a fresh seed, holds the
    exact distance of that bias from the fair share; re-checked under the
    bold policy it is marked as the steady lineup's only; a re-run of the
    same tune reuses every stored trial and plays no game."""
    kw = dict(games=GAMES, seed=3, policies=["steady"], objective="seats-fair", trials=20,
              trial_games=GAMES, min_games=GAMES // 9, tolerance=2.0, out=tmp_path / "t",
              recheck_policy="bold", recheck_games=GAMES, progress=False)
    res = tune("coin", ["bias=-20..20"], **kw)
    bias = res.best[0]["params"]["bias"]
    assert bias in (-5, -4) and -5 < fair_bias() < -4, res.lines()
    ans = res.verify[res.verify["setting"] != "defaults"].iloc[0]
    exact = abs(seat0_wins(bias) - 0.5)
    assert ans["objective_low"] <= exact <= ans["objective_high"]
    assert ans["low 0"] <= seat0_wins(bias) <= ans["high 0"]
    dflt = res.verify[res.verify["setting"] == "defaults"].iloc[0]
    assert dflt["objective_low"] <= seat0_wins(0) - 0.5 <= dflt["objective_high"]
    assert "tolerance 2 points: met" in "\n".join(res.lines())
    # bold flips twice a turn, so the bias that evens steady play does not even
    # bold play: the re-check marks the answer as the tuned lineup's only
    rc = res.recheck[res.recheck["setting"] != "defaults"].iloc[0]
    assert rc["verdict"].startswith("only holds for the tuned lineup (steady)"), res.recheck_lines()
    assert (res.trials["state"] == "pruned").any()          # successive halving stopped some
    assert res.played > 0
    for name in ("tune.md", "tune.csv", "tune_answer.csv", "tune_recheck.csv",
                 "tune_history.png", "tune_bias.png"):
        assert (tmp_path / "t" / name).exists()
    md = (tmp_path / "t" / "tune.md").read_text()
    assert "balance tune coin --vary bias=-20..20 --objective seats-fair" in md
    assert len(res.trials) == 20

    again = tune("coin", ["bias=-20..20"], **kw)
    assert again.played == 0
    assert again.reused == len(again.trials)
    assert again.trials.equals(res.trials)
    assert again.best == res.best


def test_tune_agrees_with_sweep_target(tmp_path):
    """The same question two ways, on the same seed and games: where is seat
    0's rate on the fair share? sweep --target seat0=fair brackets the
    crossing between whole numbers, and tune's answer is one of them."""
    sw = sweep("coin", {"bias": [-20, -10, 0, 10]}, games=GAMES, seed=3,
               policies=["steady"], target="seat0=fair", progress=False)
    c = sw.crossings.iloc[0]
    assert c["bracketed"] and c["ci_low"] <= fair_bias() <= c["ci_high"]
    res = tune("coin", ["bias=-20..10"], games=GAMES, seed=3, policies=["steady"],
               objective="seat:0=fair", trials=20, progress=False)
    assert res.best[0]["params"]["bias"] in (int(c["below"]), int(c["above"]))


def test_pareto_front_of_two_objectives(tmp_path):
    """Two objectives: a Pareto front printed and plotted, its points played
    again at --games."""
    res = tune("coin", {"bias": (-20, 20), "target": (1, 6)}, games=2_000, seed=1,
               policies=["steady"], objective=["seats-fair", "length=12"], trials=8,
               out=tmp_path / "p", progress=False)
    assert res.trials["pareto"].any()
    assert (tmp_path / "p" / "tune_pareto.png").exists()
    assert "Pareto front" in "\n".join(res.lines())
    assert len(res.verify) >= 2


def test_function_objective_from_python():
    """From Python: any function of a trial's table (here seat 0's rate
    against 40%)."""
    def seat0_at_40(t):
        return abs(float(t.loc[(t["group"] == "seat") & (t["key"] == "0"), "win_rate"].iloc[0])
                   - 0.40)
    res = tune("coin", ["bias=-20..0"], games=4_000, policies=["steady"],
               objective=seat0_at_40, trials=10, progress=False)
    assert -14 <= res.best[0]["params"]["bias"] <= -8       # exact: 40% at bias -10.9
    assert "seat0_at_40" in "\n".join(res.lines())


@pytest.mark.parametrize("args, text", [
    (["--vary", "bogus"], "unknown parameter 'bogus'"),
    (["--vary", "bias=-50..0"], "--vary bias=-50..0: parameter 'bias': -50 is out of bounds"),
    (["--vary", "bias=5..1"], "LO must be below HI"),
    (["--vary", "bias=1-5"], "expected NAME=LO..HI"),
    (["--vary", "bias", "--objective", "role:glutton=fair"], "coin has no roles"),
    (["--vary", "bias", "--objective", "roles-fair"], "coin has no roles"),
    (["--vary", "bias", "--objective", "seat:7=fair"], "seats are 0..1"),
    (["--vary", "bias", "--objective", "fairest"], "expected roles-fair"),
    (["--vary", "bias", "--recheck-policy", "genius"], "unknown policy 'genius'"),
])
def test_bad_input_is_one_line_exit_2(tmp_path, args, text):
    r = CliRunner().invoke(cli, ["tune", "coin", "--games", "100", "--out",
                                 str(tmp_path / "e"), *args])
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.strip().splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    assert text in lines[0], r.output


def test_objective_naming_no_role_of_a_ruleset_with_roles(tmp_path):
    """elite has roles (its characters): a name that is none of them is one
    line naming them (checked before any game: nothing compiles)."""
    r = CliRunner().invoke(cli, ["tune", "elite", "--players", "4", "--vary",
                                 "kingkong_multiplier", "--objective", "role:wizard=fair",
                                 "--out", str(tmp_path / "e")])
    assert r.exit_code == 2, r.output
    assert "no role 'wizard' in elite (roles: " in r.output and "glutton" in r.output


def test_summary_only_gives_the_same_trials(tmp_path):
    """--summary-only plays each rung in pieces reduced to sums (as a sweep
    does): the same trials, values and answer."""
    kw = dict(games=4_000, seed=2, policies=["steady"], trials=6, progress=False)
    a = tune("coin", ["bias=-20..20"], **kw)
    b = tune("coin", ["bias=-20..20"], summary_only=True, **kw)
    assert a.trials.equals(b.trials) and a.verify.equals(b.verify)


def test_axes_integer_and_log_where_declared():
    """Whole numbers stay whole; a parameter whose declared sweep values span
    two decades is searched on a log axis (log of value + 1 where the range
    asked starts at 0); NAME alone is the declared sweep range."""
    from balance.core import registry
    from balance.workflow.tune import resolve_axes
    kk, gi, rf, dv = resolve_axes(registry.get("elite"), [
        "kingkong_multiplier", "glutton_ignore", "reflect_multiplier=0..10000",
        "kingkong_divisor=1..8"])
    assert (kk.kind, kk.low, kk.high, kk.scale) == (int, 1, 100, "log")
    assert (gi.low, gi.high, gi.scale) == (0, 50, "linear")      # sweep 5..50: one decade
    assert (rf.low, rf.high, rf.scale) == (0, 10_000, "log1p")
    assert (dv.low, dv.high, dv.scale) == (1, 8, "linear")
    (bias,) = resolve_axes(registry.get("coin"), ["bias"])
    assert (bias.low, bias.high, bias.scale) == (-10, 20, "linear")
