"""Outputs a designer reads without being misled (issue 13), the points the
first tests left open: role slugs, aligned text, self-describing figures,
shared wins in every workflow, point-level resume and interruption, the
progress clock, the compile notice and the report's header.

Talisman (one winner a game) and school (houses share a win) keep these
fast; elite is used only where the point is elite's own.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import balance
from balance.cli import cli
from balance.core import plots


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def columns_of(line: str, char: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(char), line)]


# --- role slugs and aligned text ------------------------------------------------------------

def test_role_slugs_and_labels_are_both_accepted_as_targets():
    """`--target glutton=0.3` was refused: the role's name was "7 glutton"."""
    from balance.core.setup import setup
    from balance.workflow.sweep import resolve_target
    s = setup("elite", players=4, policies="greedy")         # no kernel needed
    slugs = s.spec.role_names(s.values)
    assert slugs and all(re.fullmatch(r"[0-9a-z_]+", v) for v in slugs.values())
    assert resolve_target(s, "glutton=0.3") == ("role", "glutton", 0.3)
    label = next(str(lab) for k, lab in s.spec.roles(s.values).items() if slugs[k] == "glutton")
    assert " " in label and resolve_target(s, f"{label}=0.3") == ("role", "glutton", 0.3)
    with pytest.raises(balance.BalanceError, match="glutton"):
        resolve_target(s, "gluton=0.3")                      # the error lists the slugs


def test_rate_tables_stay_aligned_with_long_slugs():
    from balance.cli.show import rate_lines
    df = pd.DataFrame({"win_rate": [0.5283, 0.2929, 0.05], "ci_low": [0.52, 0.28, 0.04],
                       "ci_high": [0.535, 0.30, 0.06], "games": [20000, 20000, 900],
                       "sole_win_rate": [0.45, 0.2, 0.01], "sole_ci_low": [0.44, 0.19, 0.005],
                       "sole_ci_high": [0.46, 0.21, 0.02]},
                      index=["glutton", "bloodthirsty_devil", "king_kong"])
    rows = rate_lines("win rate by role", df)[1:]
    assert len(rows) == 3
    for ch in ("[", "n="):
        assert len({tuple(columns_of(r, ch)) for r in rows}) == 1, rows
    # the rates end in one column (right-aligned)
    assert len({r.index("%") for r in rows}) == 1, rows
    # the labels stay for display, beside the slugs, in their own column
    labels = {"glutton": "7 glutton", "bloodthirsty_devil": "8 bloodthirsty devil",
              "king_kong": "10 king kong"}
    rows = rate_lines("win rate by role", df, labels)[1:]
    assert "(8 bloodthirsty devil)" in rows[1] and rows[0].startswith("  glutton ")
    for ch in ("(", "[", "n="):
        assert len({tuple(columns_of(r, ch)) for r in rows}) == 1, rows


def test_sweep_and_compare_text_columns_are_sized_to_their_content(tmp_path):
    from balance.workflow.sweep import sweep
    res = sweep("talisman", {"hp": [10, 40]}, games=200, policies=["greedy", "random"],
                progress=False)
    long = "a_policy_with_a_very_long_slug"
    res.table["key"] = res.table["key"].replace({"greedy": long})
    lines = res.lines()
    i = next(j for j, ln in enumerate(lines) if long in ln)
    rows = lines[i:i + 3]                                       # header and two points
    assert len({tuple(columns_of(r, "[")) for r in rows[1:]}) == 1, rows
    assert len({len(r) for r in rows}) == 1, rows               # last column right-aligned


# --- figures ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def grid_sweep():
    from balance.workflow.sweep import sweep
    return sweep("talisman", {"hp": [10, 40], "hand_limit": [5, 7]}, games=200, seed=2,
                 players=3, policies=["greedy", "patient", "random"], target="random=0.03",
                 refine=False, progress=False)


def _suptitle(fig):
    return fig._suptitle.get_text() if fig._suptitle is not None else ""


def test_sweep_figure_names_what_it_shows_with_one_y_axis_and_percent(grid_sweep):
    from matplotlib.ticker import PercentFormatter
    fig = grid_sweep.figure("hp")
    text = _suptitle(fig).replace("\n", " ")
    for want in ("talisman", "3 players", "greedy, patient, random", "200 games", "hp"):
        assert want in text, text
    axes = [ax for ax in fig.axes if ax.get_visible() and ax.lines]
    assert len(axes) == 2
    assert axes[0].get_shared_y_axes().joined(axes[0], axes[1])
    assert all(isinstance(ax.yaxis.get_major_formatter(), PercentFormatter) for ax in axes)


def test_sweep_fair_share_is_drawn_per_point(grid_sweep):
    """One dashed line through the fair share of each point (the mean of
    the rates shown there), not one constant line over all points."""
    t = grid_sweep.table
    want = t.groupby(["point", "group"])["win_rate"].transform("mean")
    np.testing.assert_allclose(t["fair_share"], want)
    fig = grid_sweep.figure("hp", "seat")
    ax = fig.axes[0]
    fair = [ln for ln in ax.lines if ln.get_label().startswith("fair share")]
    assert len(fair) == 1
    sub = t[(t["group"] == "seat") & (t["hand_limit"] == 5)].groupby("hp")["fair_share"].first()
    np.testing.assert_allclose(fair[0].get_xdata(), sub.index.to_numpy(float))
    np.testing.assert_allclose(fair[0].get_ydata(), sub.to_numpy())


def test_sweep_figure_marks_the_crossing():
    from balance.workflow.sweep import sweep
    res = sweep("talisman", {"hp": [10, 40]}, games=300, policies=["greedy", "random"],
                target="random=0.03", refine=False, progress=False)
    c = res.crossings.iloc[0]
    assert c["bracketed"]
    ax = res.figure("hp").axes[0]
    mark = [ln for ln in ax.lines if ln.get_label().startswith("crossing")]
    assert len(mark) == 1 and mark[0].get_xdata()[0] == pytest.approx(c["estimate"])
    assert any(ln.get_label().startswith("target") for ln in ax.lines)
    # a grid-only crossing says that its interval leaves out interpolation bias
    assert any(ln.startswith("grid only (--no-refine)") for ln in res.lines())


def test_a_one_panel_sweep_title_is_not_clipped():
    """The committed talisman sweep figure read "alisman v1, 2 players...":
    the title was wider than the figure."""
    from balance.workflow.sweep import sweep
    res = sweep("talisman", {"hp": [10, 40]}, games=100, players=3,
                policies=["greedy", "patient", "random"], progress=False)
    fig = res.figure("hp")
    fig.tight_layout()
    fig.canvas.draw()
    box = fig._suptitle.get_window_extent(fig.canvas.get_renderer())
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width, (box, fig.bbox)
    assert "talisman" in _suptitle(fig)


def test_compare_figure_names_a_and_b_and_ticks_keep_their_decimals(tmp_path):
    from balance.workflow.compare import compare
    res = compare("talisman", {"hp": 20}, {"hp": 26}, games=300, policies=["greedy", "random"],
                  progress=False)
    ax = res.figure().axes[0]
    title = ax.get_title().replace("\n", " ")
    assert "A [hp=20] vs B [hp=26]" in title and "talisman" in title and "300 games" in title
    f = plots.points_formatter()
    ticks = [-0.01, -0.005, 0.0, 0.005, 0.01]
    f.set_locs(ticks)
    labels = [f(v) for v in ticks]
    assert labels == ["-1.0", "-0.5", "0", "+0.5", "+1.0"]   # not -1 -0 0 +0 +1
    assert len(set(labels)) == len(labels)


def test_matchup_heatmap_is_the_advantage_centred_at_zero():
    """Shares 65.7% and 50.0% (both sides win shared games) are a +15.7
    point advantage, not two cells either side of a 50% centre."""
    fig, axes = plots.figure()
    ax = axes[0][0]
    plots.heatmap(ax, [[np.nan, 0.657], [0.50, np.nan]], ["greedy", "random"])
    im = ax.images[0]
    lo, hi = im.get_clim()
    assert lo == pytest.approx(-hi) and hi > 0
    a = np.ma.filled(im.get_array(), np.nan)
    assert a[0, 1] == pytest.approx(15.7) and a[1, 0] == pytest.approx(-15.7)
    assert "points" in fig.axes[-1].get_ylabel()


# --- shared wins in every workflow ---------------------------------------------------------

def test_sweep_says_wins_are_shared_and_shows_sole_rates(tmp_path):
    r = run("sweep", "school", "--vary", "fate_cards=1,3", "--games", 150,
            "--out", tmp_path / "s")
    assert r.exit_code == 0, r.output
    assert "wins can be shared" in r.output and "sole" in r.output and "shared" in r.output
    t = pd.read_csv(tmp_path / "s" / "sweep.csv")
    assert (t["sole_win_rate"] <= t["win_rate"] + 1e-12).all()
    assert (t["sole_win_rate"] < t["win_rate"]).any()
    seat = t[t["group"] == "seat"]
    fair = seat.groupby("point")["fair_share"].first()
    assert (fair > 1 / 3).all()                 # shared wins: the fair share is above 1/players
    # talisman (one winner a game) shows no sole columns and says nothing of sharing
    r = run("sweep", "talisman", "--vary", "hp=10,20", "--games", 100, "--out", tmp_path / "t")
    assert r.exit_code == 0 and "shared" not in r.output and "sole" not in r.output


def test_compare_says_wins_are_shared_with_sole_rates_and_rates_in_points(tmp_path):
    r = run("compare", "school", "--a", "fate_cards=1", "--b", "fate_cards=3", "--games", 150,
            "--out", tmp_path / "c")
    assert r.exit_code == 0, r.output
    assert "wins can be shared" in r.output
    sole = [ln for ln in r.output.splitlines() if ln.split()[:1] == ["sole"]]
    assert sole and all("points" in ln for ln in sole)
    t = pd.read_csv(tmp_path / "c" / "compare_rates.csv")
    assert {"sole_a", "sole_b", "sole_diff", "sole_low", "sole_high"} <= set(t)
    for metric in ("draw_rate", "capped_rate", "shared_win_rate"):
        ln = next(x for x in r.output.splitlines() if metric in x)
        assert "points" in ln and "%" in ln, ln


def test_cards_say_wins_are_shared_and_show_sole_rates(tmp_path):
    r = run("cards", "school", "--games", 120, "--kind", "spade-A", "--kind", "spade-5",
            "--out", tmp_path / "k")
    assert r.exit_code == 0, r.output
    assert "wins can be shared" in r.output and "(sole " in r.output
    t = pd.read_csv(tmp_path / "k" / "cards_interventional.csv")
    assert {"sole_base", "sole_ban"} <= set(t) and (t["sole_base"] <= t["wr_base"]).all()


def test_matchups_text_has_the_advantage_and_says_when_wins_are_shared(tmp_path):
    from balance.workflow.matchups import matchups
    res = matchups("school", ["informed", "random"], games=150, players=3, progress=False)
    text = "\n".join(res.lines())
    assert "wins can be shared" in text and "both won" in text and "won alone" in text
    row = res.table[(res.table["policy"] == "informed") & (res.table["opponent"] == "random")]
    adv = row["advantage"].iloc[0] * 100
    line = next(ln for ln in res.lines() if ln.strip().startswith("informed vs random"))
    assert f"{adv:+.2f}" in line and "points" in line
    t = res.table
    np.testing.assert_allclose(t["sole_win_rate"], t["win_rate"] - t["shared_win_rate"])
    res = matchups("talisman", ["greedy", "random"], games=200, progress=False)
    assert "shared" not in "\n".join(res.lines()) and "advantage" in "\n".join(res.lines())


# --- resume, interruption, progress, compile notice -----------------------------------------

def test_a_rerun_workflow_says_how_many_points_it_reused(tmp_path, capsys):
    from balance.workflow.matchups import matchups
    from balance.workflow.sweep import sweep
    sweep("talisman", {"hp": [10, 20]}, games=100, out=tmp_path / "s", progress=False)
    assert "resumed" not in capsys.readouterr().err
    sweep("talisman", {"hp": [10, 20, 30]}, games=100, out=tmp_path / "s", progress=False)
    err = capsys.readouterr().err
    assert f"resumed: 2 of 3 points reused from {tmp_path / 's' / '.points'}" in err
    assert err.count("resumed") == 1                        # once per command
    matchups("talisman", ["greedy", "random"], games=100, out=tmp_path / "m", progress=False)
    matchups("talisman", ["greedy", "random"], games=100, out=tmp_path / "m", progress=False)
    assert "resumed: 2 of 2 lineups reused" in capsys.readouterr().err
    # a caller running several workflows (the report) passes one store and
    # says once what it reused: the workflows then stay quiet
    from balance.core.store import PointStore
    st = PointStore(tmp_path / "s" / ".points")
    sweep("talisman", {"hp": [10, 20]}, games=100, store=st, progress=False)
    assert st.hits == 2 and "resumed" not in capsys.readouterr().err


def test_an_interrupted_workflow_says_what_is_saved(tmp_path, capsys, monkeypatch):
    import importlib
    sw = importlib.import_module("balance.workflow.sweep")
    sums = importlib.import_module("balance.workflow.sums")    # where the tables sink plays
    real = sums.play_outcome
    calls = []

    def flaky(*a, **k):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(sums, "play_outcome", flaky)
    with pytest.raises(KeyboardInterrupt):
        sw.sweep("talisman", {"hp": [10, 20, 30]}, games=100, out=tmp_path, progress=False)
    err = capsys.readouterr().err
    assert "interrupted: 2 of 3 points finished and saved" in err
    assert "run the same command again to resume" in err


class _FakeBar:
    made = []

    def __init__(self, *a, **k):
        self.kw = k
        self.n = k.get("initial", 0)
        self.total = k.get("total")
        _FakeBar.made.append(self)

    def update(self, n=1):
        self.n += n

    def set_postfix_str(self, *a, **k):
        pass

    def close(self):
        pass


def test_progress_clocks_start_after_the_first_piece(monkeypatch):
    """The clock of a bar started before the first chunk or point counts
    the kernel's compile (a first ETA of 05:38 for a run of seconds)."""
    import tqdm
    from balance.core.play import play_range
    from balance.core.setup import setup
    from balance.workflow.sweep import sweep
    monkeypatch.setattr(tqdm, "tqdm", _FakeBar)
    _FakeBar.made = []
    play_range(setup("talisman", seed=1), 0, 3000, chunk=1000, progress=True)
    assert [b.kw.get("initial") for b in _FakeBar.made] == [1000]
    _FakeBar.made = []
    sweep("talisman", {"hp": [10, 20, 30]}, games=100, progress=True)
    bars = [b for b in _FakeBar.made if b.kw.get("unit") == "point"]
    assert len(bars) == 1 and bars[0].kw["initial"] == 1 and bars[0].n == 3


@pytest.mark.slow
def test_the_compile_notice_prints_once_per_command(tmp_path):
    """Not mocked: a cold numba cache (its own NUMBA_CACHE_DIR), a sweep of
    three points with refinement; the notice is one line, and none once the
    kernel is cached. On the throwaway coin-flip ruleset (tests/coinflip),
    which compiles in seconds: a cold talisman compile cost this test 40-200 s."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    code = ("from balance.core import registry; registry._MODULES['coin'] = 'coinflip'; "
            "from balance.cli import cli; cli()")
    cmd = [sys.executable, "-c", code, "sweep", "coin",
           "--vary", "target=2,6", "--policy", "steady", "--policy", "bold",
           "--target", "bold=0.03", "--games", "100", "--out", str(tmp_path / "s")]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("compiling the coin kernel") == 1, first.stderr
    again = subprocess.run(cmd[:-1] + [str(tmp_path / "s2")], env=env, capture_output=True,
                           text=True)
    assert again.returncode == 0 and "compiling" not in again.stderr, again.stderr


# --- the report and elite --------------------------------------------------------------------

def test_report_header_names_turn_order_and_says_wins_are_shared(tmp_path):
    r = run("report", "school", "--games", 60, "--sweep-games", 20, "--cards-games", 20,
            "--out", tmp_path / "r")
    assert r.exit_code == 0, r.output
    md = (tmp_path / "r" / "report.md").read_text()
    head = "\n".join(md.splitlines()[:12])
    spec = balance.ruleset("school")
    assert spec.turn_order in head, head
    assert "Heuristics." in head
    assert "Wins can be shared" in md and "sole-win rate" in md


def test_elite_reports_one_first_mover_figure():
    r = balance.simulate("elite", games=200, seed=1, players=4, policies="greedy")
    assert "first_seat_win_rate" not in r.summary
    assert "win_rate" in r.summary["first_mover"]


def test_run_header_says_when_its_time_includes_the_compile(tmp_path, monkeypatch):
    from balance.core import jit
    r = run("run", "talisman", "--games", 100, "--out", tmp_path / "a")
    assert r.exit_code == 0 and "compile" not in r.output.splitlines()[0]
    real = jit.notice

    def compiling(spec, use, stream=None, values=None):             # as when the kernel is not cached
        jit.compiles += 1
        return True
    monkeypatch.setattr(jit, "notice", compiling)
    r = run("run", "talisman", "--games", 100, "--out", tmp_path / "b")
    monkeypatch.setattr(jit, "notice", real)
    again = run("run", "talisman", "--games", 100, "--out", tmp_path / "c")
    assert "compile" not in again.output.splitlines()[0]   # a later run in the same process
    assert r.exit_code == 0 and "first compile included" in r.output.splitlines()[0], r.output
