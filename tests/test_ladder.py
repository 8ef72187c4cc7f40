"""The skill ladder: Bradley-Terry ratings, the skill depth, and the command."""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.core import search
from balance.workflow.ladder import ELO, bradley_terry


def test_bradley_terry_recovers_known_ratings():
    true = {"random": 0.0, "a": 0.7, "b": 1.5, "c": -0.4}
    names = list(true)
    sig = lambda d: 1 / (1 + math.exp(-d))  # noqa: E731
    pairs = [(x, y, sig(true[x] - true[y]), 100_000) for i, x in enumerate(names)
             for y in names[i + 1:]]
    bt = bradley_terry(names, pairs, "random").set_index("policy")
    for k, v in true.items():
        assert bt.at[k, "rating"] == pytest.approx(v, abs=1e-6)
    assert bt.at["random", "se"] == 0 and (bt.drop("random")["se"] > 0).all()
    # fewer games: wider intervals, the same estimates
    few = bradley_terry(names, [(x, y, s, 1000) for x, y, s, _ in pairs], "random")
    assert (few.set_index("policy").drop("random")["se"]
            > bt.drop("random")["se"] * 5).all()


def test_a_policy_that_never_loses_keeps_a_finite_rating():
    bt = bradley_terry(["random", "god"], [("random", "god", 0.0, 500)], "random")
    assert np.isfinite(bt["rating"]).all() and bt.set_index("policy").at["god", "rating"] > 5


def test_search_budgets():
    v = {"search_determinizations": 8, "search_rollouts": 2}
    assert [search.budget(v, p) for p in ("greedy", "search_fast", "search", "search_strong")] \
        == [0, 4, 16, 64]
    assert search.budget({"search_determinizations": 2, "search_rollouts": 1}, "search_fast") == 1
    assert search.budget({}, "search") == 0


def test_ladder_command_writes_its_files(tmp_path):
    out = tmp_path / "l"
    # a tiny search budget (the ladder's code paths, not the levels' strength)
    tiny = ["--set", "search_determinizations=1", "--set", "search_rollout_turns=20"]
    r = CliRunner().invoke(cli, ["ladder", "talisman", "--games", "300", "--seed", "2", *tiny,
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "skill depth" in r.output
    assert {p.name for p in out.iterdir()} >= {"ladder.csv", "ladder_pairs.csv", "ladder.png",
                                                "ladder.json", "ladder.md"}
    d = json.loads((out / "ladder.json").read_text())
    assert d["command"] == (f"balance ladder talisman --games 300 --seed 2 --players 2 --set "
                            f"search_determinizations=1 --set search_rollout_turns=20 --out {out}")
    assert d["command"] in (out / "ladder.md").read_text()
    ratings = {x["policy"]: x for x in d["ratings"]}
    assert ratings["random"]["elo"] == 0
    assert ratings["greedy"]["elo_low"] > 0          # greedy is far above random in talisman
    assert d["depth"] == sum(x["beats"] for x in d["chain"]) >= 1
    assert ratings["greedy"]["elo"] == pytest.approx(ratings["greedy"]["rating"] * ELO)
