"""Every command on a Dask cluster: identical tables, pieces in the same
store, a killed worker or a killed command loses nothing, one line for a bad
address or a missing extra (``balance.core.cluster``)."""
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

import balance  # noqa: E402
from balance.cli import cli  # noqa: E402
from balance.core import cluster, machine, play, setup  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    """One LocalCluster of 2 worker processes for the tests of this file."""
    eng = cluster.DaskEngine(local=2)
    yield eng
    eng.close()


@pytest.fixture
def on_cluster(engine, monkeypatch):
    monkeypatch.setattr(cluster, "_engine", engine)
    return engine


def same(a, b):
    assert a.start == b.start
    for name in ("games", "seats", "masks", "counts"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("ruleset,players,policies,params", [
    ("talisman", 3, ["greedy", "random", "patient"], {}),
    ("elite", 4, ["greedy", "random"] * 2, {"version": 3}),
    ("elite", 4, ["greedy"], {"version": 2, "teams": True}),
])
def test_cluster_tables_equal_embedded_on_any_thread_count(ruleset, players, policies, params,
                                                           engine, monkeypatch, tmp_path):
    s = setup.setup(ruleset, seed=11, players=players, policies=policies, params=params)
    local = play.play_range(s, 0, 3000, chunk=700, progress=False)   # compiles here first
    machine.set_threads(1)
    one = play.play_range(s, 0, 3000, chunk=3000, progress=False)
    machine.set_threads(2)
    monkeypatch.setattr(cluster, "_engine", engine)
    far = play.play_range(s, 0, 3000, chunk=700, progress=False, checkpoint=tmp_path)
    same(local, one)
    same(local, far)
    assert len(list(tmp_path.rglob("*.npz"))) == 5          # every piece landed in the store


def test_a_killed_worker_loses_nothing(on_cluster):
    s = setup.setup("talisman", seed=5, players=2)
    want = play.play_range(s, 0, 8000, chunk=500, progress=False)
    real = on_cluster.play

    def play_and_kill(args, ranges):
        it = real(args, ranges)
        yield next(it)
        victim = sorted(on_cluster.client.scheduler_info()["workers"])[0]
        pid = on_cluster.client.run(os.getpid, workers=[victim])[victim]
        os.kill(pid, signal.SIGKILL)                 # the worker process, as a crash would
        yield from it
    on_cluster.play = play_and_kill
    try:
        got = play.play_range(s, 0, 8000, chunk=500, progress=False)
    finally:
        del on_cluster.play
    same(want, got)
    deadline = time.time() + 60                     # the nanny brings the worker back
    while on_cluster.workers() < 2 and time.time() < deadline:
        time.sleep(0.5)


def test_a_torn_or_foreign_piece_is_played_again_on_the_cluster(on_cluster, tmp_path, capsys):
    s = setup.setup("talisman", seed=6, players=2)
    whole = play.play_range(s, 0, 3000, chunk=1000, progress=False, checkpoint=tmp_path)
    files = sorted(tmp_path.rglob("*.npz"))
    files[0].write_bytes(files[0].read_bytes()[:64])                   # torn
    other = setup.setup("talisman", seed=7, players=2)
    play.play_range(other, 0, 3000, chunk=1000, progress=False, checkpoint=tmp_path / "o")
    foreign = sorted((tmp_path / "o").rglob("*.npz"))[1]
    os.replace(foreign, files[1])                                      # another seed's piece
    capsys.readouterr()
    again = play.play_range(s, 0, 3000, chunk=1000, progress=False, checkpoint=tmp_path)
    err = capsys.readouterr().err
    assert "cannot be read" in err and "another configuration (differs in " in err
    assert "seed" in err.split("another configuration")[1].split(")")[0]
    assert "resumed: 1,000 of 3,000" in err and "2 stored chunk(s) refused" in err
    same(whole, again)


def test_a_workflow_command_runs_on_the_cluster(on_cluster, tmp_path):
    a = balance.sweep("talisman", {"hp": [10, 20]}, games=600, seed=2, progress=False)
    cluster._engine = None
    b = balance.sweep("talisman", {"hp": [10, 20]}, games=600, seed=2, progress=False)
    assert a.table.equals(b.table)


def test_a_killed_command_resumes_with_identical_tables(tmp_path):
    out = tmp_path / "o"
    cmd = [shutil.which("balance"), "run", "talisman", "--games", "400000",
           "--seed", "9", "--cluster", "local:2", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    deadline = time.time() + 240
    while time.time() < deadline and not list((out / ".partial").rglob("*.npz")):
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGKILL)                  # the command and its workers
    p.wait()
    assert list((out / ".partial").rglob("*.npz")), "no piece was finished before the kill"
    r = CliRunner().invoke(cli, ["run", "talisman", "--games", "400000", "--seed", "9",
                                 "--cluster", "local:2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "resumed:" in r.output
    got = balance.load(out)
    want = balance.simulate("talisman", games=400000, seed=9)
    assert got["games"].drop(columns="end_reason").equals(
        want.games.drop(columns="end_reason"))
    assert (got["seats"]["won"].to_numpy() == want.seats["won"].to_numpy()).all()


@pytest.mark.parametrize("args,fragment", [
    (["--scheduler", "nonsense"], "not a scheduler address"),
    (["--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler answered"),
    (["--cluster", "remote"], "allowed is local or local:N"),
    (["--scheduler", "tcp://127.0.0.1:1", "--cluster", "local"], "not both"),
])
def test_bad_cluster_options_are_one_line(args, fragment, tmp_path, monkeypatch):
    monkeypatch.setattr(cluster.DaskEngine.__init__, "__defaults__", (None, None, 1.0))
    r = CliRunner().invoke(cli, ["run", "talisman", "--games", "10", *args,
                                 "--out", str(tmp_path / "x")])
    assert r.exit_code == 2, r.output
    err = [ln for ln in r.output.splitlines() if ln.startswith("Error:")]
    assert len(err) == 1 and fragment in err[0] and "Traceback" not in r.output, r.output


def test_without_the_extra_a_cluster_option_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)        # import fails
    r = CliRunner().invoke(cli, ["run", "talisman", "--games", "10", "--cluster", "local:2",
                                 "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "pip install" in r.output and "Traceback" not in r.output


def test_summary_only_on_the_cluster_equals_embedded(on_cluster, tmp_path):
    s = setup.setup("talisman", seed=8, players=3, policies=["greedy", "random", "patient"])
    cluster._engine = None
    here = play.play_range(s, 0, 3000, chunk=700, progress=False, sink="sums")
    cluster._engine = on_cluster
    far = play.play_range(s, 0, 3000, chunk=700, progress=False, sink="sums",
                            checkpoint=tmp_path)
    assert here.keys() == far.keys()
    for k in here:
        assert np.array_equal(here[k], far[k]), k


def test_workflow_summary_only_on_the_cluster_equals_embedded(on_cluster, monkeypatch):
    from balance.workflow import sums
    monkeypatch.setattr(sums, "PIECE_BYTES", 300 << 10)    # several pieces
    monkeypatch.setattr(sums, "MIN_PIECE", 1)
    kw = dict(games=1500, seed=3, players=3, policies=["greedy", "random", "patient"],
              progress=False)
    far = balance.compare("talisman", {"hp": 18}, {"hp": 22}, summary_only=True, **kw)
    cluster._engine = None
    here = balance.compare("talisman", {"hp": 18}, {"hp": 22}, **kw)
    for x, y in ((here.rates, far.rates), (here.length, far.length), (here.cards, far.cards)):
        assert x.equals(y)
