"""--summary-only: per-piece integer sums give the very figures of the full
tables, keep no per-game table, resume, and run on a cluster."""
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import balance
from balance.cli import cli
from balance.core import batch, play, results, stats, summary


def frames_equal(a: pd.DataFrame, b: pd.DataFrame):
    """One model (``summary.Sums``) gives both: the very same table."""
    pd.testing.assert_frame_equal(a, b, check_exact=True)


@pytest.mark.parametrize("ruleset,players,policies,params", [
    ("talisman", 3, ["greedy", "random", "greedy"], {"max_turns": 60}),   # capped games too
    ("elite", 4, ["greedy"], {"version": 3}),                     # roles, shared wins
    ("school", 5, ["informed", "random"] * 2 + ["informed"], {}),  # houses, no winner
])
def test_summary_only_equals_the_full_tables(ruleset, players, policies, params, monkeypatch):
    monkeypatch.setitem(play.play_range.__kwdefaults__, "chunk", 700)  # several pieces
    kw = dict(games=2500, seed=4, players=players, policies=policies, params=params)
    full = balance.simulate(ruleset, **kw)
    part = balance.simulate(ruleset, sink="sums", **kw)
    assert isinstance(part, summary.Summary)
    frames_equal(full.by_seat(), part.by_seat())
    frames_equal(full.by_policy(), part.by_policy())
    if full.by_role() is not None:
        frames_equal(full.by_role(), part.by_role())
    a, b = full.summary, part.summary
    for k in ("games", "draws", "length_turns", "end_reasons", "first_mover", "shared_wins"):
        assert json.dumps(a.get(k), sort_keys=True) == json.dumps(b.get(k), sort_keys=True), k
    pd.testing.assert_frame_equal(full.cards, part.cards, check_exact=True)
    pd.testing.assert_series_equal(full.end_reasons(), part.end_reasons(), check_exact=True)


def test_simulate_takes_a_sink_by_name_and_refuses_another_naming_both():
    """``simulate(sink=...)``: a name of ``core.sinks`` chooses what the run
    returns; any other is one BalanceError, before any game, that names the
    value given and the sinks there are."""
    got = {k: type(balance.simulate("talisman", games=50, sink=k, progress=False))
           for k in ("tables", "sums")}
    assert got == {"tables": results.Result, "sums": summary.Summary}
    with pytest.raises(balance.BalanceError) as e:
        balance.simulate("talisman", games=50, sink="table")
    assert "'table'" in str(e.value) and all(f"'{k}'" in str(e.value) for k in ("tables", "sums"))


def test_length_stats_from_the_histogram_match_numpy():
    rng = np.random.default_rng(3)
    for n in (1, 2, 7, 1000):
        t = rng.integers(1, 60, n)
        t[: max(1, n // 50)] = rng.integers(summary.MAX_BIN, 3 * summary.MAX_BIN, max(1, n // 50))
        hist = np.bincount(np.minimum(t, summary.MAX_BIN), minlength=summary.MAX_BIN + 1)
        got = summary.length_stats(hist, np.sort(t[t > summary.MAX_BIN]))
        want = stats.length_stats(t)
        assert got == want, (n, got, want)           # numpy's interpolation, to the bit


def test_the_command_writes_the_summary_and_resumes(tmp_path, monkeypatch):
    out = tmp_path / "o"
    r = CliRunner().invoke(cli, ["run", "talisman", "--games", "3000", "--summary-only",
                                 "--out", str(out)])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in out.iterdir())
    assert "games.parquet" not in names and "summary.json" in names and "cards.csv" in names
    s = json.loads((out / "summary.json").read_text())
    assert s["summary_only"] is True and s["games"] == 3000
    full = balance.simulate("talisman", games=3000)
    assert s["by_seat"] == json.loads(json.dumps(full.summary["by_seat"]))
    # a stored summary piece is reused
    monkeypatch.setitem(play.play_range.__kwdefaults__, "chunk", 1000)
    ck = tmp_path / "ck"
    one = balance.simulate("talisman", games=3000, sink="sums", checkpoint=ck)
    calls = []
    orig = batch.play
    monkeypatch.setattr(batch, "play", lambda *a, **k: calls.append(1) or orig(*a, **k))
    two = balance.simulate("talisman", games=3000, sink="sums", checkpoint=ck)
    assert calls == [] and one.summary == two.summary


def test_a_shared_tie_is_not_a_draw():
    r = balance.simulate("resonance", games=3000, seed=1, players=4,
                         policies=["counter", "saboteur", "random", "counter"])
    won = results.won_matrix(r.spec, r.batch)
    shared = int((won.sum(axis=1) > 1).sum())
    assert shared > 0                                  # ties whose win is shared happen
    assert r.summary["draws"]["count"] == int((~won.any(axis=1)).sum())
    assert r.summary["shared_wins"]["games_with_shared_win"] == shared
    s = balance.simulate("resonance", games=3000, seed=1, players=4,
                         policies=["counter", "saboteur", "random", "counter"], sink="sums")
    assert s.summary["draws"] == r.summary["draws"]


@pytest.mark.parametrize("ruleset,players,policies", [
    ("talisman", 3, ["greedy", "random", "greedy"]),
    ("elite", 4, ["greedy", "random"] * 2),
    ("school", 5, ["informed", "random"] * 2 + ["informed"]),
])
def test_seat_and_policy_tables_from_counts_equal_the_grouped_frame(ruleset, players, policies):
    r = balance.simulate(ruleset, games=2000, seed=3, players=players, policies=policies)
    for by, got in (("seat", r.by_seat()), ("policy", r.by_policy())):
        pd.testing.assert_frame_equal(got, stats.rate_table(r.seats, by))
