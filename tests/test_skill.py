"""The report's section that re-checks the findings under skilled play."""
import pandas as pd
from click.testing import CliRunner

from balance.cli import cli
from balance.workflow.skill import verdict


def test_verdicts():
    assert verdict("up", "up", 0.01, 0.05, 0.0, 0.2) == "holds"
    assert verdict("up", "down", 0.01, 0.05, -0.09, -0.06) == "changes"
    assert verdict("up", "flat", 0.01, 0.05, -0.01, 0.03) == "unclear"


def test_report_rechecks_its_findings_under_another_policy(tmp_path):
    out = tmp_path / "r"
    r = CliRunner().invoke(cli, ["report", "talisman", "--games", "300", "--players", "2",
                                 "--policy", "greedy", "--policy", "random",
                                 "--policies", "greedy,random", "--skill-policy", "patient",
                                 "--skill-games", "200", "--out", str(out)])
    assert r.exit_code == 0, r.output
    t = pd.read_csv(out / "skill_recheck.csv")
    assert len(t) == 1 + 3 + 5           # seat effect, 3 headline sweeps, top 5 cards
    assert set(t["verdict"]) <= {"holds", "changes", "unclear"}
    md = (out / "report.md").read_text()
    assert "## Findings under skilled play" in md and "`patient` at every seat" in md
    assert "--skill-policy patient" in md        # in the regenerating command
    assert "seats play different policies (greedy, random)" in md   # greedy vs random seats
    assert "Under skilled play (`patient` at every seat, 200 games a run)" in r.output


def test_without_a_budget_the_section_says_it_was_not_measured(tmp_path):
    out = tmp_path / "r"
    r = CliRunner().invoke(cli, ["report", "talisman", "--games", "100", "--policy", "greedy",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    assert "Findings under skilled play" in md and "Not measured" in md
    assert not (out / "skill_recheck.csv").exists()


def test_an_unknown_skill_policy_is_one_line(tmp_path):
    r = CliRunner().invoke(cli, ["report", "talisman", "--games", "100", "--skill-policy",
                                 "genius", "--out", str(tmp_path / "r")])
    assert r.exit_code == 2 and "genius" in r.output and "Traceback" not in r.output


def test_the_strongest_level_that_fits_the_budget_is_chosen(monkeypatch):
    # stand-ins for search levels (the choice only times games): patient is
    # "stronger" here and greedy "weaker"; a budget of 0.5 s fits 1 run of
    # 50 games of either, a budget of 1e-9 s fits none
    from balance.workflow import skill
    monkeypatch.setattr(skill, "LEVELS", {"greedy": (1, 1), "patient": (4, 1)})
    p, n, why = skill.choose("talisman", 1, 2, {}, 1, 50, 0.5, 1)
    assert (p, n) == ("patient", 50) and "strongest level" in why
    p, n, why = skill.choose("talisman", 1, 2, {}, 3, 100_000, 1e-9, 1)
    assert p == "greedy" and n == skill.MIN_GAMES and "no level fits" in why
    p, n, why = skill.choose("talisman", 1, 2, {}, 3, 100, 0, 1)
    assert p is None and "--skill-seconds 0" in why


def test_a_level_chosen_by_the_time_budget_is_named_in_the_recorded_command(tmp_path,
                                                                            monkeypatch):
    # the choice depends on the machine's speed, so the regenerating command
    # must name the level and its games; stand-in levels as above, and a
    # budget that fits the "stronger" one
    from balance.workflow import skill
    monkeypatch.setattr(skill, "LEVELS", {"greedy": (1, 1), "patient": (4, 1)})
    out = tmp_path / "r"
    r = CliRunner().invoke(cli, ["report", "talisman", "--games", "200", "--players", "2",
                                 "--policy", "greedy", "--policies", "greedy,random",
                                 "--skill-seconds", "1000", "--skill-games", "200",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    assert "--skill-games 200 --skill-policy patient --out" in md
    assert "--skill-seconds" not in md
