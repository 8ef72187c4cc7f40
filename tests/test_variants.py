"""Policy variants (balance/core/variants.py): a policy with its own float
parameters at one seat, and tuning them (balance/workflow/policy_tune.py).

On the throwaway coin flip (tests/coinflip) a seat's ``luck`` moves its own
coin exactly as the rule parameter ``bias`` moves seat 0's, so a variant at
seat 0 must play the very games of that bias: the per-seat rows reach the
kernel at the right seat, or the tables differ."""
import pytest
from click.testing import CliRunner

from test_sensitivity import seat0_wins

from balance.cli import cli
from balance.core import registry, variants
from balance.core.errors import BalanceError
from balance.core.play import simulate
from balance.workflow.tune import tune

pytestmark = pytest.mark.usefixtures("coin_registered")     # tests/conftest.py


def test_labels_are_canonical_and_checked():
    spec = registry.get("elite")
    assert variants.canonical(spec, " greedy[hand_damage_value=16, five_value=-5] ") == \
        "greedy[five_value=-5,hand_damage_value=16]"
    assert variants.canonical(spec, "greedy[card_value=0.3]") == "greedy[card_value=0.3]"
    assert variants.canonical(spec, "greedy") == "greedy"
    assert variants.base("greedy[five_value=-5]") == "greedy"
    assert variants.split("random, greedy[a=1,b=2],search") == \
        ["random", "greedy[a=1,b=2]", "search"]
    for bad, says in [("greedy[version=2]", "version is a rule parameter"),
                      ("greedy[search_iterations=3]", "integer policy parameter"),
                      ("greedy[hand_damag=3]", "did you mean 'hand_damage_value'"),
                      ("grdy[five_value=1]", "unknown policy 'grdy'"),
                      ("greedy[five_value]", "is not NAME=VALUE"),
                      ("greedy[five_value=1000]", "five_value"),
                      ("greedy[five_value=1,five_value=2]", "given twice"),
                      ("greedy@/no/such.toml", "no profile file")]:
        with pytest.raises(BalanceError, match=says.replace("[", r"\[")):
            variants.canonical(spec, bad)


def test_a_profile_file_is_the_bracket_label(tmp_path):
    spec = registry.get("elite")
    f = tmp_path / "tuned.toml"
    f.write_text('policy = "greedy"\n\n[params]\nfive_value = -5.0\nhand_damage_value = 16\n')
    assert variants.canonical(spec, f"greedy@{f}") == "greedy[five_value=-5,hand_damage_value=16]"
    with pytest.raises(BalanceError, match="is for 'greedy', not 'random'"):
        variants.canonical(spec, f"random@{f}")
    f.write_text("not = [toml")
    with pytest.raises(BalanceError, match="is not a TOML profile"):
        variants.canonical(spec, f"greedy@{f}")


def _tables(r):
    return r.games.reset_index(drop=True), r.seats.drop(columns="policy").reset_index(drop=True)


def test_a_variant_plays_at_its_seat_only():
    """steady[luck=10] at seat 0 plays exactly the games of bias=10 (seat
    0's coin, the same draws); at every seat, exactly --set luck=10; at seat
    1 only, other games; and every output records the label."""
    kw = dict(games=3000, seed=5, players=2, progress=False)
    plain = simulate("coin", policies=["steady"], **kw)
    at0 = simulate("coin", policies=["steady[luck=10]", "steady"], **kw)
    biased = simulate("coin", policies=["steady"], params={"bias": 10}, **kw)
    for a, b in zip(_tables(at0), _tables(biased)):
        pd_equal(a, b)
    every = simulate("coin", policies=["steady[luck=10.0]"], **kw)
    lucky = simulate("coin", policies=["steady"], params={"luck": 10}, **kw)
    for a, b in zip(_tables(every), _tables(lucky)):
        pd_equal(a, b)
    at1 = simulate("coin", policies=["steady", "steady[luck=10]"], **kw)
    assert not at1.games.equals(at0.games) and not at1.games.equals(plain.games)
    assert at0.setup.describe()["policies"] == ["steady[luck=10]", "steady"]
    assert set(at0.by_policy().index) == {"steady[luck=10]", "steady"}
    assert list(at0.seats["policy"][:2]) == ["steady[luck=10]", "steady"]
    # the variant's seat wins what the exact model of a 60% coin says
    won = float((at0.games["winner"] == 0).mean())
    lo, hi = won - 0.03, won + 0.03
    assert lo <= seat0_wins(10) <= hi


def pd_equal(a, b):
    import pandas.testing as pdt
    pdt.assert_frame_equal(a, b, check_dtype=False, check_categorical=False)


def test_policy_tune_finds_the_luckiest_variant_and_resumes(tmp_path):
    """--objective policy:steady=max over luck=0..20 against its own
    defaults: the answer sits near the top of the box and beats the
    defaults head to head at 95% (a seat with luck L wins more, exactly);
    the profile it writes plays the same variant; a re-run plays no game."""
    kw = dict(games=6000, seed=2, players=2, objective="policy:steady=max", field="steady",
              trials=12, trial_games=6000, min_games=2000, out=tmp_path / "t", progress=False)
    res = tune("coin", ["luck=0..20"], **kw)
    assert res.best["luck"] >= 12, res.lines()
    assert res.beats_defaults, res.lines()
    h = res.head_to_head()
    assert h["advantage_low"] > 0 and h["games"] == 2 * 6000
    text = "\n".join(res.lines())
    assert "beats steady's defaults head to head with 95% confidence" in text
    prof = tmp_path / "t" / "tuned.toml"
    assert prof.exists() and (tmp_path / "t" / "tune.md").exists()
    assert variants.canonical(registry.get("coin"), f"steady@{prof}") == res.label
    assert "--objective policy:steady=max" in (tmp_path / "t" / "tune.md").read_text()
    assert res.played > 0
    again = tune("coin", ["luck=0..20"], **kw)
    assert again.played == 0 and again.best == res.best


@pytest.mark.parametrize("args, says", [
    (["--vary", "luck"], "a policy parameter; tune varies rule parameters"),
    (["--vary", "bias", "--objective", "policy:steady=max"], "a rule parameter"),
    (["--vary", "luck", "--objective", "policy:stedy=max"], "unknown policy 'stedy'"),
    (["--vary", "luck", "--objective", "policy:steady=max", "--policy", "bold"],
     "--policy does not apply"),
    (["--vary", "bias", "--field", "bold"], "--field applies to --objective policy:NAME=max"),
])
def test_policy_tune_bad_input_is_one_line(args, says):
    r = CliRunner().invoke(cli, ["tune", "coin", *args, "--games", "100"])
    assert r.exit_code == 2, r.output
    assert says in r.output and "Traceback" not in r.output
