"""Input a new user tripped on (issue 34, follow-ups): each is refused in one
line with exit code 2, or said in one warning line, never played silently."""
import pytest
from click.testing import CliRunner

from balance.cli import cli


@pytest.fixture
def runner():
    return CliRunner()


def invoke(runner, *args):
    return runner.invoke(cli, [str(a) for a in args])


def error_line(r) -> str:
    """The one ``Error:`` line of a refused command (exit code 2, no traceback)."""
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error:"), err
    return err


# --- 1. an integer parameter refuses a float spelling ------------------------

@pytest.mark.parametrize("value", ["30.0", "30.", "2.5e1", "1e-1"])
def test_set_refuses_a_float_spelling_of_an_integer(runner, tmp_path, value):
    r = invoke(runner, "run", "talisman", "--games", 10, "--set", f"hp={value}",
               "--out", tmp_path / "o")
    err = error_line(r)
    assert f"'hp': '{value}'" in err and "int in [1, 1000]" in err
    assert "decimal point" in err


def test_config_refuses_a_float_for_an_integer(runner, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[params]\nhp = 30.0\n")
    r = invoke(runner, "run", "talisman", "--games", 10, "--config", cfg, "--out", tmp_path / "o")
    err = error_line(r)
    assert "'hp': 30.0" in err and "int in [1, 1000]" in err


def test_whole_numbers_still_pass():
    from balance.core import registry
    space = registry.get("talisman").space
    v = space.resolve({"hp": "30", "max_turns": "1e3", "min_combo_value": "7.0"})
    assert v["hp"] == 30 and v["max_turns"] == 1000 and v["min_combo_value"] == 7.0


# --- 2. input that was dropped silently ---------------------------------------

def test_set_twice_with_two_values_is_an_error_naming_both(runner, tmp_path):
    r = invoke(runner, "run", "talisman", "--games", 10, "--set", "hp=30", "--set", "hp=40",
               "--out", tmp_path / "o")
    err = error_line(r)
    assert "--set hp" in err and "hp=30" in err and "hp=40" in err


def test_set_twice_with_one_value_is_accepted(runner, tmp_path):
    import json
    r = invoke(runner, "run", "talisman", "--games", 10, "--set", "hp=30", "--set", "hp=30",
               "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "o" / "summary.json").read_text())["params"]["hp"] == 30


def test_compare_variant_key_twice_is_an_error(runner, tmp_path):
    r = invoke(runner, "compare", "talisman", "--games", 10, "--a", "hp=20", "--b", "hp=24",
               "--b", "hp=28", "--out", tmp_path / "c")
    err = error_line(r)
    assert "--b hp" in err and "hp=24" in err and "hp=28" in err


@pytest.mark.parametrize("args, fragments", [
    (["--vary", "hp=10,20", "--vary", "hp=30"], ["--vary hp", "hp=10,20", "hp=30"]),
    (["--vary", "hp=10,20", "--vary", "hp"], ["--vary hp", "hp=10,20", "declared"]),
    (["--vary", "hp=10,,20"], ["'hp=10,,20'", "empty value"]),
    (["--vary", "hp=10,20,"], ["'hp=10,20,'", "empty value"]),
])
def test_sweep_vary_that_would_drop_values_is_an_error(runner, tmp_path, args, fragments):
    r = invoke(runner, "sweep", "talisman", "--games", 10, "--out", tmp_path / "s", *args)
    err = error_line(r)
    for f in fragments:
        assert f in err, err


def test_vary_twice_with_the_same_values_is_one_vary():
    from balance.workflow.sweep import _vary_dict
    assert _vary_dict(["hp=10,20", "hp=20,10"]) == {"hp": ["20", "10"]}
    assert _vary_dict(["hp", " hp"]) == {"hp": None}


def test_sweep_says_what_a_repeated_value_or_a_replaced_set_does(runner, tmp_path):
    r = invoke(runner, "sweep", "talisman", "--games", 20, "--vary", "hp=10,10,20",
               "--set", "hp=30", "--policy", "greedy", "--out", tmp_path / "s")
    assert r.exit_code == 0, r.output
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]
    assert any("--vary hp replaces hp=30" in w for w in warnings), r.stderr
    assert any("--vary hp lists 10 more than once" in w and "played once" in w
               for w in warnings), r.stderr
    import pandas as pd
    assert sorted(pd.read_csv(tmp_path / "s" / "sweep.csv")["hp"].unique()) == [10, 20]


# --- 6. replay plays one game: no options of many games ---------------------------

def test_replay_help_lists_no_options_of_many_games(runner):
    r = invoke(runner, "replay", "--help")
    assert r.exit_code == 0
    for opt in ("--games", "--threads", "--scheduler", "--cluster"):
        assert opt not in r.output, opt
    for opt in ("--game", "--seed", "--players", "--policy", "--set", "--config"):
        assert opt in r.output, opt


def test_replay_refuses_games(runner):
    err = error_line(invoke(runner, "replay", "talisman", "--game", 500, "--games", 100))
    assert "--games" in err


def test_replay_takes_a_config_of_a_run(runner, tmp_path):
    """A run's config names its games; replay plays one game of that run."""
    cfg = tmp_path / "c.toml"
    cfg.write_text('games = 100\nseed = 4\npolicy = "greedy"\n[params]\nhp = 12\n')
    r = invoke(runner, "replay", "talisman", "--config", cfg, "--game", 7)
    assert r.exit_code == 0, r.output
    direct = invoke(runner, "replay", "talisman", "--seed", 4, "--policy", "greedy",
                    "--set", "hp=12", "--game", 7)
    assert r.stdout == direct.stdout and "turn 1" in r.stdout


# --- 5. a sweep's crossing wording and legend --------------------------------------

def test_crossing_wording_matches_a_linear_axis_with_zero(runner, tmp_path):
    """thunder_damage 0..6 holds 0 and spans under two decades: a linear axis."""
    from balance.core.plots import axis_scale
    assert axis_scale([0, 1, 2, 4, 6]) == "linear"
    r = invoke(runner, "sweep", "talisman", "--vary", "thunder_damage=0,1,2,4,6", "--games", 100,
               "--policy", "greedy", "--policy", "random", "--target", "greedy=0.9",
               "--no-refine", "--out", tmp_path / "s")
    assert r.exit_code == 0, r.output
    method = [ln for ln in r.stdout.splitlines() if ln.startswith("crossing method:")]
    assert len(method) == 1 and "linear axis" in method[0], method
    assert "log" not in method[0], method
    import pandas as pd
    assert "log" not in pd.read_csv(tmp_path / "s" / "crossings.csv")["method"].iloc[0]


def test_crossing_wording_on_a_log_axis_says_log10():
    from balance.core.stats import crossing_method
    assert "log10" in crossing_method("log") and "symmetric-log" in crossing_method("symlog")


def test_sweep_legend_keeps_the_targets_precision_and_leaves_the_curves_free():
    from balance.workflow.sweep import sweep
    res = sweep("talisman", {"hp": [10, 20]}, games=100, policies=["greedy", "random"],
                target="greedy=0.375", refine=False, progress=False)
    fig = res.figure("hp")
    fig.tight_layout()                                   # as plots.save lays it out
    fig.canvas.draw()
    ax = fig.axes[0]
    leg = ax.get_legend()
    labels = [t.get_text() for t in leg.get_texts()]
    assert "target 37.5%" in labels, labels
    box, frame = leg.get_window_extent(), ax.get_window_extent()
    assert box.x0 >= frame.x1 - 1, (box, frame)          # beside the panel, not over it
    assert box.x1 <= fig.bbox.x1 + 1, (box, fig.bbox)    # and inside the figure
    import matplotlib.pyplot as plt
    plt.close(fig)


# --- 4. a sweep shows the first mover's win rate and the draws, as run does -------

@pytest.mark.parametrize("ruleset, vary, args", [
    ("school", "start_hand=3,5", []),                   # first mover random (first_seat), draws
    ("talisman", "hp=10,20", ["--policy", "greedy", "--policy", "random"]),   # seat 0 first
])
def test_sweep_has_the_first_mover_and_draws_of_run(runner, tmp_path, ruleset, vary, args):
    import json

    import pandas as pd
    key, values = vary.split("=")
    first = values.split(",")[0]
    r = invoke(runner, "sweep", ruleset, "--vary", vary, "--games", 300, *args,
               "--out", tmp_path / "s")
    assert r.exit_code == 0, r.output
    t = pd.read_csv(tmp_path / "s" / "sweep.csv")
    row = t[t[key] == int(first)].iloc[0]
    ran = invoke(runner, "run", ruleset, "--games", 300, "--set", f"{key}={first}", *args,
                 "--out", tmp_path / "r")
    assert ran.exit_code == 0, ran.output
    s = json.loads((tmp_path / "r" / "summary.json").read_text())
    fm, d = s["first_mover"], s["draws"]
    assert row["first_mover_rate"] == pytest.approx(fm["win_rate"], abs=1e-12)
    assert (row["first_mover_low"], row["first_mover_high"]) == pytest.approx(
        (fm["ci_low"], fm["ci_high"]), abs=1e-12)
    assert (row["draw_rate"], row["draw_low"], row["draw_high"]) == pytest.approx(
        (d["share"], d["ci_low"], d["ci_high"]), abs=1e-12)
    header = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith(key))
    assert "first" in header and "draws" in header
    line = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith(f"{key}={first}"))
    assert f"{fm['win_rate']:.2%}  [{fm['ci_low']:.2%}, {fm['ci_high']:.2%}]" in line
    assert f"{d['share']:.2%}  [{d['ci_low']:.2%}, {d['ci_high']:.2%}]" in line


# --- 3. a report says what it will play before it starts ---------------------------

def test_report_says_its_plan_first_and_what_it_resumes(runner, tmp_path):
    out = tmp_path / "rep"
    args = ["report", "talisman", "--games", 200, "--policy", "greedy", "--out", out]
    r = invoke(runner, *args)
    assert r.exit_code == 0, r.output
    err = r.stderr.splitlines()
    assert err[0].startswith("report talisman plan: main run 200 games; cards 45 kinds x "
                             "200 games; matchups "), err[0]
    assert "sweeps hp 6 points" in err[0]
    assert err[1] == "no skilled-play section: its time budget (--skill-seconds) is 0 s"
    assert err[2].startswith("to shorten it:") and "--skill-seconds" in err[2]
    assert not any(ln.startswith("resuming:") for ln in err)
    again = invoke(runner, *args, "--force")
    assert again.exit_code == 0, again.output
    err = again.stderr.splitlines()
    assert err[0].startswith("report talisman plan:")
    assert err[3].startswith("resuming: ") and str(out / ".points") in err[3], err[3]


def test_report_plan_names_the_skill_budget():
    from pathlib import Path

    from balance.core import registry
    from balance.core.setup import setup
    from balance.workflow.report import plan_lines
    spec = registry.get("talisman")
    base = setup("talisman", policies=["greedy"])
    kw = dict(games=5000, cards_games=5000, sweep_games=5000, matchup_policies=None,
              skill_games=None, skill_policy=None)
    lines = plan_lines(spec, base, Path("/nonexistent"), skill_seconds=600, **kw)
    assert "up to about 600 s" in lines[1] and "2,000 games" in lines[1], lines
    lines = plan_lines(spec, base, Path("/nonexistent"), skill_seconds=None,
                       **{**kw, "skill_policy": "greedy"})
    assert "`greedy` at every seat" in lines[1], lines
