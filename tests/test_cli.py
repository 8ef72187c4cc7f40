"""The `balance` command line: success and error paths."""
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from balance.cli import cli


@pytest.fixture
def runner():
    return CliRunner()


def test_rulesets_and_params(runner):
    r = runner.invoke(cli, ["rulesets"])
    assert r.exit_code == 0 and "talisman" in r.output and "2-4" in r.output
    r = runner.invoke(cli, ["params", "talisman"])
    assert r.exit_code == 0
    for name in ("hp", "hp_cap", "thunder_damage", "chaos_factor", "copies_gamble",
                 "max_turns", "min_combo_value", "patient"):
        assert name in r.output


def test_run_writes_tables_and_summary(runner, tmp_path):
    out = tmp_path / "run"
    r = runner.invoke(cli, ["run", "talisman", "--games", "2000", "--seed", "3",
                            "--players", "3", "--policy", "greedy", "--policy", "random",
                            "--policy", "patient", "--set", "hp=25", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "win rate by seat" in r.output and "win rate by policy" in r.output
    assert "game length" in r.output and "end reasons" in r.output and "draws" in r.output
    games = pd.read_parquet(out / "games.parquet")
    seats = pd.read_parquet(out / "seats.parquet")
    cards = pd.read_csv(out / "cards.csv")
    summary = json.loads((out / "summary.json").read_text())
    assert len(games) == 2000 and {"game", "winner", "turns", "end_reason"} <= set(games)
    assert len(seats) == 6000 and {"game", "seat", "policy", "won"} <= set(seats)
    assert {"kind", "drawn", "played", "wr_drawn", "improvement_drawn",
            "improvement_played_low"} <= set(cards)
    assert len(cards) == 45
    assert summary["ruleset"] == "talisman" and summary["seed"] == 3
    assert summary["params"]["hp"] == 25 and summary["games"] == 2000
    assert summary["policies"] == ["greedy", "random", "patient"]
    # one winner per decided game
    decided = games[games.winner >= 0]
    assert seats.groupby("game").won.sum().loc[decided.game].eq(1).all()


def test_config_file_and_override(runner, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('games = 500\nseed = 9\npolicy = "patient"\n[params]\nhp = 12\n')
    r = runner.invoke(cli, ["run", "talisman", "--config", str(cfg), "--set", "hp=14",
                            "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    s = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert s["games"] == 500 and s["seed"] == 9 and s["params"]["hp"] == 14
    assert s["policies"] == ["patient", "patient"]


def test_replay_prints_the_game(runner):
    r = runner.invoke(cli, ["replay", "talisman", "--seed", "4", "--game", "7",
                            "--policy", "greedy"])
    assert r.exit_code == 0, r.output
    assert "turn 1" in r.output and "draws" in r.output and "wins" in r.output


@pytest.mark.parametrize("args,fragment", [
    (["run", "talism"], "did you mean 'talisman'"),
    (["run", "talisman", "--policy", "greedyy"], "did you mean 'greedy'"),
    (["run", "talisman", "--set", "hpp=3"], "did you mean 'hp'"),
    (["run", "talisman", "--set", "hp=abc"], "int in [1, 1000]"),
    (["run", "talisman", "--set", "hp=-4"], "out of bounds"),
    (["run", "talisman", "--players", "5"], "outside 2-4"),
    (["run", "talisman", "--players", "1"], "outside 2-4"),
    (["run", "talisman", "--games", "0"], "at least 1"),
    (["run", "talisman", "--games", "-3"], "at least 1"),
    (["run", "talisman", "--games", "many"], "not a whole number"),
    (["run", "talisman", "--config", "/does/not/exist.toml"], "does not exist"),
    (["run", "talisman", "--policy", "greedy", "--policy", "random", "--policy", "random"],
     "one per seat"),
    (["run", "talisman", "--seed", "-1"], "seed"),
    (["replay", "talisman", "--game", "-1"], "at least 0"),
    (["params", "nope"], "unknown ruleset"),
    (["run"], "Missing argument"),
])
def test_bad_input_is_one_line_and_exit_2(runner, args, fragment, tmp_path):
    r = runner.invoke(cli, args + ["--out", str(tmp_path / "x")] if args[0] == "run" and
                      len(args) > 1 else args)
    assert r.exit_code == 2, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1, err
    assert err.startswith("Error:") and fragment in err, err
    assert "Traceback" not in r.output


@pytest.mark.parametrize("content,fragment", [
    ("games = [\n", "not valid TOML"),
    ("bogus = 1\n", "unknown key"),
    ("[params]\nhpp = 3\n", "did you mean 'hp'"),
    ("games = 0\n", "at least 1"),
    ("policy = 3\n", "policy must be"),
])
def test_bad_config_files(runner, tmp_path, content, fragment):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(content)
    r = runner.invoke(cli, ["run", "talisman", "--config", str(cfg), "--out",
                            str(tmp_path / "x")])
    assert r.exit_code == 2 and fragment in r.stderr, r.stderr


def test_the_console_command_ends_with_every_line_written_and_its_exit_code(tmp_path):
    """``balance`` (the console script, ``cli.main``) ends the process without
    the interpreter's teardown (``cli._exit``): what it printed is all there,
    the tables are whole, and the exit code is the command's."""
    import subprocess
    import sys
    code = "from balance.cli import main; main()"
    out = tmp_path / "o"
    p = subprocess.run([sys.executable, "-c", code, "run", "talisman", "--games", "300",
                        "--out", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1] == f"tables written to {out}/"
    assert "end reasons:" in p.stdout
    from balance import load
    assert len(load(out)["games"]) == 300
    p = subprocess.run([sys.executable, "-c", code, "run", "talisman", "--set", "hp=-1"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.startswith("Error: parameter 'hp'")
