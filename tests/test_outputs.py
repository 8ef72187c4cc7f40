"""Outputs a designer reads without being misled (issue: shared wins,
first mover, card power, crossings, safe reports)."""
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import balance
from balance.cli import cli
from balance.core import batch


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_run_prints_the_first_mover_with_its_interval(tmp_path):
    r = run("run", "talisman", "--games", 2000, "--players", 3, "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("first mover"))
    assert "seat 0 moves first" in line and "[" in line
    fm = json.loads((tmp_path / "r" / "summary.json").read_text())["first_mover"]
    won0 = pd.read_parquet(tmp_path / "r" / "seats.parquet").query("seat == 0")["won"].mean()
    assert fm["win_rate"] == pytest.approx(won0) and fm["ci_low"] < won0 < fm["ci_high"]


def test_first_mover_follows_the_recorded_first_seat_in_elite():
    r = balance.simulate("elite", games=1500, seed=3, players=4, policies="greedy")
    first = r.games["first_seat"].to_numpy()
    assert len(set(first.tolist())) > 1                 # identity decides, not seat 0
    won = r.seats.pivot(index="game", columns="seat", values="won").to_numpy()
    want = won[np.arange(len(first)), first].mean()
    assert r.first_mover()["win_rate"] == pytest.approx(want)
    assert "identity" in r.first_mover()["turn_order"]


def test_shared_wins_are_said_and_sole_wins_shown():
    r = balance.simulate("elite", games=3000, seed=1, players=4, policies="greedy")
    sh = r.summary["shared_wins"]
    rates = r.by_seat()
    assert sh["share"] > 0                               # zombies share their master's win
    assert sh["seat_win_rates_sum"] == pytest.approx(rates["win_rate"].sum())
    assert sh["fair_share"] == pytest.approx(rates["win_rate"].mean())
    assert (rates["sole_win_rate"] <= rates["win_rate"]).all()
    assert (rates["sole_win_rate"] < rates["win_rate"]).any()
    # a ruleset where one seat wins a game shows no sole-win columns
    assert "sole_win_rate" not in balance.simulate("talisman", games=200).by_seat()


def test_matchup_draws_are_counted_never_negative(tmp_path):
    r = run("matchups", "talisman", "--policies", "greedy,random", "--games", 500,
            "--out", tmp_path / "m")
    assert r.exit_code == 0, r.output
    t = pd.read_csv(tmp_path / "m" / "matchups.csv")
    assert (t["draw_rate"] >= 0).all() and (t["shared_win_rate"] == 0).all()
    np.testing.assert_allclose(t["win_rate"] + t["opponent_win_rate"] + t["draw_rate"]
                               - t["shared_win_rate"], 1.0)


def test_report_defaults_to_out_and_never_overwrites_a_finished_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("report", "talisman", "--games", 60, "--policy", "greedy")
    assert r.exit_code == 0, r.output
    md = (tmp_path / "out" / "talisman" / "report" / "report.md").read_text()
    assert "Heuristics." in md and "First mover" in md.replace("first mover", "First mover")
    assert "--force" in md.split("Regenerate with:")[1] and "Generated in" not in md
    r = run("report", "talisman", "--games", 60, "--policy", "greedy")
    assert r.exit_code == 2 and "--force" in r.output and "Traceback" not in r.output
    r = run("report", "talisman", "--games", 60, "--policy", "greedy", "--force")
    assert r.exit_code == 0, r.output


def test_card_power_is_signed_points_strongest_first_with_groups(tmp_path):
    r = run("cards", "talisman", "--games", 800, "--policy", "greedy", "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert "points" in r.output and "power by" in r.output
    t = pd.read_csv(tmp_path / "c" / "cards_interventional.csv")
    np.testing.assert_allclose(t["power"], -t["change"] * 100)
    np.testing.assert_allclose(t["power_low"], -t["change_high"] * 100)
    p = t["power"].dropna().to_numpy()
    assert (np.diff(p) <= 0).all() and t["rank"].tolist() == list(range(1, len(t) + 1))
    g = pd.read_csv(tmp_path / "c" / "cards_by_group.csv")
    spec = balance.ruleset("talisman")
    assert set(g["grouping"]) == set(spec.card_groups)
    fam = g[g["grouping"] == spec.card_groups[0]]
    assert fam["kinds"].sum() == len(t)                  # every kind in one family group
    assert "special" in set(fam["group"])


def test_rarely_played_kinds_are_flagged():
    from balance.workflow.cards import add_power
    t = pd.DataFrame({"kind": ["a-1", "a-2", "b-1"], "change": [0.01, -0.02, 0.0],
                      "change_low": [0.0, -0.03, -0.01], "change_high": [0.02, -0.01, 0.01],
                      "drawn": [100, 100, 100], "played": [0, 3, 50]})
    out = add_power(t)
    assert list(out["kind"]) == ["a-2", "b-1", "a-1"]
    assert dict(zip(out["kind"], out["play_flag"])) == {"a-1": "never played",
                                                        "a-2": "rarely played", "b-1": ""}


def test_compare_prints_differences_in_points(tmp_path):
    r = run("compare", "talisman", "--a", "hp=20", "--b", "hp=26", "--games", 600,
            "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    seat_rows = [ln for ln in r.output.splitlines() if ln.split()[:1] == ["seat"]]
    assert len(seat_rows) == 2 and all(" points " in ln for ln in seat_rows)
    # the difference and its intervals are points, not "%"
    assert all("%" not in ln.split(" points ")[1] for ln in seat_rows)


def _fake_rates(x, p, n, rng):
    from balance.core import stats
    w = rng.binomial(n, p)
    lo, hi = stats.wilson(w, n)
    return pd.DataFrame({"group": ["policy"], "key": ["a"], "games": [n], "wins": [w],
                         "win_rate": [w / n], "ci_low": [float(lo)], "ci_high": [float(hi)],
                         "n_games": [n]})


def test_refined_crossing_covers_a_known_monotone_curve():
    """A win rate p(x) = 1 / (1 + exp((x - 23.4) / 6)) crosses 0.5 at 23.4.
    Grid 0, 10, ..., 50 (an integer parameter), then bisection near the
    crossing: the 95% interval covers 23.4 in at least 90% of 200 runs, and
    the integers either side bracket it."""
    from types import SimpleNamespace
    from balance.workflow.sweep import _crossings, _refine
    info = SimpleNamespace(kind=int)
    spec = SimpleNamespace(space=SimpleNamespace(infos={"hp": info}))
    true = 23.4
    p = lambda x: 1 / (1 + np.exp((x - true) / 6))  # noqa: E731
    rng = np.random.default_rng(5)
    covered, widths = 0, []
    for rep in range(200):
        rows = []
        for i, x in enumerate(range(0, 51, 10)):
            r = _fake_rates(x, p(x), 2000, rng)
            r.insert(0, "hp", x)
            r.insert(0, "point", i)
            rows.append(r)
        table = pd.concat(rows, ignore_index=True)
        table["refined"] = False
        tgt = ("policy", "a", 0.5)
        vary = {"hp": list(range(0, 51, 10))}
        cross = _crossings(table, vary, tgt)

        def play(extra, label):
            return _fake_rates(extra["hp"], p(extra["hp"]), 2000, rng)
        table, cross = _refine(spec, table, cross, vary, tgt, None, 8, play)
        c = cross.iloc[0]
        covered += c["ci_low"] <= true <= c["ci_high"]
        widths.append(c["ci_high"] - c["ci_low"])
        assert c["above"] - c["below"] in (0, 1) and c["below"] <= c["estimate"] <= c["above"]
        assert table["refined"].sum() >= 2
    assert covered / 200 >= 0.9, covered
    assert np.median(widths) < 5


def test_sweep_refines_an_integer_crossing_and_marks_it(tmp_path):
    r = run("sweep", "talisman", "--vary", "hp=10,40", "--policy", "greedy", "--policy",
            "random", "--target", "random=0.03", "--games", 1500, "--out", tmp_path / "s")
    assert r.exit_code == 0, r.output
    assert "is a whole number" in r.output and "refine" in r.output
    t = pd.read_csv(tmp_path / "s" / "sweep.csv")
    assert t["refined"].any() and t["hp"].nunique() > 2
    c = pd.read_csv(tmp_path / "s" / "crossings.csv").iloc[0]
    assert c["above"] - c["below"] in (0, 1) and c["below"] <= c["estimate"] <= c["above"]


def test_interrupted_run_says_what_is_saved_and_a_resume_what_it_reused(tmp_path, capsys,
                                                                         monkeypatch):
    from balance.core.play import play_range
    from balance.core.setup import setup
    s = setup("talisman", seed=3, players=2)
    real = batch.play
    calls = []

    def flaky(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(batch, "play", flaky)
    with pytest.raises(KeyboardInterrupt):
        play_range(s, 0, 3000, chunk=1000, checkpoint=tmp_path, progress=False)
    err = capsys.readouterr().err
    assert "2,000 games are saved" in err and "same command again to resume" in err
    monkeypatch.undo()
    whole = play_range(s, 0, 3000, progress=False)
    again = play_range(s, 0, 3000, chunk=1000, checkpoint=tmp_path, progress=False)
    assert "resumed: 2,000 of 3,000 games reused" in capsys.readouterr().err
    np.testing.assert_array_equal(again.games, whole.games)


def test_out_under_a_file_or_empty_is_one_line(tmp_path):
    (tmp_path / "afile").write_text("x")
    for cmd in (["run", "talisman"], ["sweep", "talisman", "--vary", "hp=10,20"],
                ["report", "talisman"]):
        r = run(*cmd, "--games", 10, "--out", tmp_path / "afile" / "sub")
        assert r.exit_code == 2 and "is a file" in r.output and "Traceback" not in r.output
        r = run(*cmd, "--games", 10, "--out", "")
        assert r.exit_code == 2 and "empty path" in r.output


def test_run_echoes_changed_parameters_and_summary_has_no_timing(tmp_path):
    r = run("run", "talisman", "--games", 300, "--set", "hp=25", "--out", tmp_path / "r")
    assert r.exit_code == 0 and "parameters changed from the defaults: hp=25" in r.output
    assert "elapsed" not in (tmp_path / "r" / "summary.json").read_text()
