"""--summary-only on the workflow commands: the games are played in pieces
reduced to integer sums as they finish, and every table equals (exactly)
the one computed from the stored per-game outcomes."""
import pandas as pd
import pytest
from click.testing import CliRunner

import balance
from balance.cli import cli
from balance.core import summary
from balance.core.store import PointStore
from balance.workflow import sums

MIXED = ["greedy", "random", "greedy"]


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few hundred games, so that every run below merges several."""
    monkeypatch.setattr(sums, "PIECE_BYTES", 300 << 10)
    monkeypatch.setattr(sums, "MIN_PIECE", 1)


def pieces_of(s, games):
    return len(sums.piece_ranges([s], 0, games))


def test_pieces_are_several_and_bounded(small_pieces):
    from balance.core.machine import table_bytes
    from balance.core.setup import setup
    s = setup("talisman", players=3, policies=MIXED)
    r = sums.piece_ranges([s], 0, 3001)
    assert len(r) > 3 and r[0][0] == 0 and r[-1][1] == 3001
    assert all(b0 == a1 for (_, b0), (a1, _) in zip(r, r[1:]))
    assert max(b - a for a, b in r) * table_bytes(s, 1) <= sums.PIECE_BYTES


def test_sweep_summary_only_equals_full(small_pieces, tmp_path):
    kw = dict(games=3000, seed=2, players=3, policies=MIXED, progress=False)
    full = balance.sweep("talisman", {"hp": [10, 20]}, **kw)
    part = balance.sweep("talisman", {"hp": [10, 20]}, summary_only=True,
                         out=tmp_path / "s", **kw)
    pd.testing.assert_frame_equal(full.table, part.table, check_exact=True)
    # the pieces' sums are stored: a second run reuses them all and agrees
    st = PointStore(tmp_path / "s" / ".points")
    again = balance.sweep("talisman", {"hp": [10, 20]}, summary_only=True, store=st, **kw)
    assert st.misses == 0 and st.hits >= 4
    pd.testing.assert_frame_equal(full.table, again.table, check_exact=True)


def test_sweep_precision_summary_only_equals_full(small_pieces):
    kw = dict(games=1000, seed=3, players=2, policies=["greedy", "random"], precision=0.015,
              max_games=6000, progress=False)
    full = balance.sweep("talisman", {"hp": [15]}, **kw)
    part = balance.sweep("talisman", {"hp": [15]}, summary_only=True, **kw)
    pd.testing.assert_frame_equal(full.table, part.table, check_exact=True)
    assert full.precision["points"] == part.precision["points"]
    assert full.precision["points"][0]["games"] > 1000


@pytest.mark.parametrize("ruleset,players,policies,a,b", [
    ("talisman", 3, MIXED, {"hp": 20}, {"hp": 24}),
    ("elite", 4, ["greedy", "random"] * 2, {"version": 3},
     {"version": 3, "reflect_multiplier": 1}),                 # roles, shared wins
])
def test_compare_summary_only_equals_full(small_pieces, ruleset, players, policies, a, b):
    kw = dict(games=2000, seed=5, players=players, policies=policies, progress=False)
    full = balance.compare(ruleset, a, b, **kw)
    part = balance.compare(ruleset, a, b, summary_only=True, **kw)
    assert full.games == part.games == 2000
    for x, y in ((full.rates, part.rates), (full.length, part.length),
                 (full.cards, part.cards)):
        pd.testing.assert_frame_equal(x, y, check_exact=True)
    assert "sole_diff" in full.rates or ruleset == "talisman"
    assert "role" in set(full.rates["group"]) or ruleset == "talisman"


@pytest.mark.parametrize("ruleset,players,policies,params", [
    ("talisman", 3, MIXED, {}),
    ("elite", 4, ["greedy"], {"version": 3}),
])
def test_cards_summary_only_equals_full(small_pieces, ruleset, players, policies, params):
    from balance.core.registry import get
    kinds = get(ruleset).card_kinds(get(ruleset).space.resolve(params))[:3]
    kw = dict(games=1500, seed=6, players=players, policies=policies, params=params,
              kinds=kinds, progress=False)
    full = balance.cards(ruleset, **kw)
    part = balance.cards(ruleset, summary_only=True, **kw)
    pd.testing.assert_frame_equal(full.table, part.table, check_exact=True)
    pd.testing.assert_frame_equal(full.groups, part.groups, check_exact=True)
    assert isinstance(part.baseline, summary.Summary) and part.baseline.n == 1500


def test_matchups_summary_only_equals_full(small_pieces):
    kw = dict(games=1200, seed=7, players=3, progress=False)
    full = balance.matchups("talisman", ["greedy", "random", "patient"], **kw)
    part = balance.matchups("talisman", ["greedy", "random", "patient"], summary_only=True, **kw)
    pd.testing.assert_frame_equal(full.table, part.table, check_exact=True)


def test_report_summary_only(small_pieces, tmp_path):
    from balance.workflow.report import report
    kw = dict(games=1500, players=2, policies=["greedy", "random"],
              matchup_policies="greedy,random", progress=False)
    part = report("talisman", out=tmp_path / "rep", summary_only=True, **kw)
    full = report("talisman", out=tmp_path / "full", **kw)
    assert part["findings"] == full["findings"]
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "--summary-only" in md                      # the regenerating command has it
    for f in ("by_seat.csv", "cards_observational.csv", "matchups.csv",
              "cards_interventional.csv", "sweeps/hp/sweep.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "rep" / f),
                                      pd.read_csv(tmp_path / "full" / f), check_exact=True)


@pytest.mark.parametrize("cmd", [["sweep", "talisman", "--vary", "hp=10,20"],
                                 ["compare", "talisman", "--b", "hp=25"],
                                 ["cards", "talisman", "--kind", "steal"],
                                 ["matchups", "talisman", "--policies", "greedy,random"]])
def test_workflow_commands_take_summary_only(cmd, tmp_path):
    r = CliRunner().invoke(cli, cmd + ["--games", "600", "--summary-only",
                                       "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    assert any(tmp_path.joinpath("o").iterdir())


def test_run_precision_summary_only_equals_full():
    from balance.workflow.adaptive import run_precise
    kw = dict(games=800, seed=9, players=2, policies=["greedy", "random"])
    full, a = run_precise("talisman", 0.012, 20_000, **kw)
    part, b = run_precise("talisman", 0.012, 20_000, sink="sums", **kw)
    assert isinstance(part, summary.Summary)
    assert a == b and a["games"] > 800
    pd.testing.assert_frame_equal(full.by_seat(), part.by_seat(), check_exact=True)
    pd.testing.assert_frame_equal(full.cards, part.cards, check_exact=True)
