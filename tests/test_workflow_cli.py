"""Designer workflow commands (sweep, compare, cards, matchups, report, run
--precision): success and error paths through click's CliRunner."""
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from balance.cli import cli


@pytest.fixture
def runner():
    return CliRunner()


def run(runner, *args):
    return runner.invoke(cli, [str(a) for a in args])


def error_line(r):
    assert r.exit_code == 2, r.output
    lines = [ln for ln in r.output.strip().splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    return lines[0]


def test_sweep_writes_table_plot_and_resumes(runner, tmp_path):
    out = tmp_path / "sw"
    args = ["sweep", "talisman", "--vary", "hp=10,20", "--vary", "thunder_damage",
            "--games", 600, "--seed", 2, "--policy", "greedy", "--policy", "random",
            "--target", "greedy=0.9", "--out", out]
    r = run(runner, *args)
    assert r.exit_code == 0, r.output
    assert "paired" in r.output and "win rate by policy" in r.output and "target" in r.output
    t = pd.read_csv(out / "sweep.csv")
    n_td = 6                                    # declared candidates of thunder_damage
    assert t["point"].nunique() == 2 * n_td
    assert {"hp", "thunder_damage", "group", "key", "win_rate", "ci_low", "ci_high",
            "turns_mean", "turns_median", "draw_rate", "capped_rate"} <= set(t)
    assert set(t["group"]) == {"seat", "policy"}
    assert (out / "sweep_hp.png").exists() and (out / "sweep_thunder_damage.png").exists()
    assert (out / "crossings.csv").exists()
    stored = sorted(p.name for p in (out / ".points").glob("*.npz"))
    assert len(stored) == 2 * n_td
    r2 = run(runner, *args)                      # resumes: same table from stored points
    assert r2.exit_code == 0
    pd.testing.assert_frame_equal(t, pd.read_csv(out / "sweep.csv"))
    # a different seed never reuses those points
    r3 = run(runner, *[a if a != 2 else 3 for a in args])
    assert r3.exit_code == 0
    assert len(list((out / ".points").glob("*.npz"))) == 4 * n_td


def test_sweep_precision(runner, tmp_path):
    r = run(runner, "sweep", "talisman", "--vary", "hp=10,20", "--games", 500,
            "--policy", "greedy", "--policy", "random", "--precision", 0.02,
            "--out", tmp_path / "p")
    assert r.exit_code == 0, r.output
    assert "precision +/-0.02" in r.output and "2 of 2 points reached it" in r.output
    t = pd.read_csv(tmp_path / "p" / "sweep.csv")
    assert ((t["ci_high"] - t["win_rate"]).max() < 0.02) and ((t["win_rate"] - t["ci_low"]).max() < 0.02)


@pytest.mark.parametrize("args, text", [
    (["--vary", "hpp=1,2"], "unknown parameter 'hpp'"),
    (["--vary", "hp="], "empty value list"),
    (["--vary", "hp=ten,20"], "parameter 'hp'"),
    (["--vary", "hp=0,20"], "out of bounds"),
    (["--vary", "hp=10,20", "--target", "wizard=0.5"], "not a role, policy or seat"),
    (["--vary", "hp=10,20", "--target", "greedy=1.5"], "between 0 and 1"),
    (["--vary", "hp=10,20", "--target", "greedy"], "NAME=RATE"),
    (["--vary", "hp=10,20", "--precision", "0"], "must be positive"),
    (["--vary", "hp=10,20", "--precision", "-0.1"], "must be positive"),
    (["--vary", "hp=10,20", "--policy", "genius"], "unknown policy"),
])
def test_sweep_errors(runner, tmp_path, args, text):
    r = run(runner, "sweep", "talisman", "--games", 100, "--out", tmp_path / "e", *args)
    assert text in error_line(r)


def test_sweep_needs_vary(runner):
    r = run(runner, "sweep", "talisman")
    assert r.exit_code == 2 and "--vary" in r.output


def test_compare_reports_paired_and_unpaired(runner, tmp_path):
    out = tmp_path / "cmp"
    r = run(runner, "compare", "talisman", "--a", "hp=20", "--b", "hp=24", "--games", 3000,
            "--policy", "greedy", "--policy", "random", "--out", out)
    assert r.exit_code == 0, r.output
    assert "paired" in r.output and "unpaired" in r.output and "narrower" in r.output
    assert "turns_mean" in r.output and "card kinds" in r.output
    rates = pd.read_csv(out / "compare_rates.csv")
    assert {"group", "key", "diff", "paired_low", "paired_high", "unpaired_low",
            "unpaired_high", "width_ratio"} <= set(rates)
    assert len(pd.read_csv(out / "compare_cards.csv")) == 45
    meta = json.loads((out / "compare.json").read_text())
    assert "paired" in meta["paired_method"]
    assert (out / "compare.png").exists()


def test_compare_precision(runner, tmp_path):
    r = run(runner, "compare", "talisman", "--a", "hp=20", "--b", "hp=24", "--games", 1000,
            "--policy", "greedy", "--policy", "random", "--precision", 0.01,
            "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert "precision +/-0.01 reached" in r.output


@pytest.mark.parametrize("args, text", [
    ([], "at least one --a or --b"),
    (["--a", "hp=20", "--b", "hp=20"], "same parameters"),
    (["--a", "hq=20"], "unknown parameter 'hq'"),
    (["--a", "hp"], "expected KEY=VALUE"),
    (["--b", "hp=5000"], "out of bounds"),
    (["--b", "hp=25", "--precision", "0"], "must be positive"),
])
def test_compare_errors(runner, tmp_path, args, text):
    r = run(runner, "compare", "talisman", "--games", 100, "--out", tmp_path / "e", *args)
    assert text in error_line(r)


def test_cards_command(runner, tmp_path):
    out = tmp_path / "cards"
    r = run(runner, "cards", "talisman", "--games", 1000, "--policy", "greedy",
            "--correction", "bh", "--out", out)
    assert r.exit_code == 0, r.output
    assert "Benjamini-Hochberg" in r.output and "holders" in r.output
    t = pd.read_csv(out / "cards_interventional.csv")
    assert len(t) == 45 and t["rank"].tolist() == list(range(1, 46))
    assert {"change", "change_low", "change_high", "p_adjusted", "significant",
            "wr_drawn", "improvement_drawn", "improvement_played"} <= set(t)
    assert (out / "cards.png").exists()


@pytest.mark.parametrize("args, text", [
    (["--kind", "joker"], "unknown card kind 'joker'"),
    (["--mode", "burn"], "Invalid value"),
    (["--players", "9"], "players"),
])
def test_cards_errors(runner, tmp_path, args, text):
    r = run(runner, "cards", "talisman", "--games", 100, "--out", tmp_path / "e", *args)
    assert r.exit_code == 2 and text in r.output, r.output


def test_matchups_command(runner, tmp_path):
    out = tmp_path / "mu"
    r = run(runner, "matchups", "talisman", "--policies", "greedy,random", "--games", 2000,
            "--out", out)
    assert r.exit_code == 0, r.output
    assert "dominant: greedy" in r.output
    m = pd.read_csv(out / "matchups_matrix.csv", index_col=0)
    assert m.loc["greedy", "random"] > 0.9 and m.loc["random", "greedy"] < 0.1
    assert (out / "matchups.png").exists()


@pytest.mark.parametrize("args, text", [
    (["--policies", "greedy"], "at least two different policies"),
    (["--policies", "greedy,wizard"], "unknown policy 'wizard'"),
])
def test_matchups_errors(runner, tmp_path, args, text):
    r = run(runner, "matchups", "talisman", "--games", 100, "--out", tmp_path / "e", *args)
    assert text in error_line(r)


def test_run_precision(runner, tmp_path):
    r = run(runner, "run", "talisman", "--games", 1000, "--policy", "greedy", "--policy",
            "random", "--precision", 0.01, "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    assert "precision +/-0.01 reached after" in r.output
    r = run(runner, "run", "talisman", "--precision", "-1", "--out", tmp_path / "r")
    assert "must be positive" in error_line(r)
    r = run(runner, "run", "talisman", "--max-games", "100", "--out", tmp_path / "r")
    assert "needs --precision" in error_line(r)


def test_report_command(runner, tmp_path):
    out = tmp_path / "rep"
    r = run(runner, "report", "talisman", "--games", 400, "--policy", "greedy", "--out", out)
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    for text in ("Headline findings", "Win rates", "Game length", "Per-card power",
                 "Interventional", "Observational", "Matchups", "Headline parameter sweeps",
                 "Provenance", "balance report talisman --games 400"):
        assert text in md, text
    html = (out / "report.html").read_text()
    assert "data:image/png;base64" in html
    for f in ("length.png", "cards.png", "matchups.png", "sweeps/hp/sweep_hp.png"):
        assert (out / f).exists(), f
    assert (out / ".points" / ".gitignore").read_text().strip() == "*"


def test_report_errors(runner, tmp_path):
    r = run(runner, "report", "nosuchgame", "--out", tmp_path / "x")
    assert "unknown ruleset" in error_line(r)
    r = run(runner, "report", "talisman", "--games", 0, "--out", tmp_path / "x")
    assert error_line(r)
