"""Issue 34's follow-ups on runs: whole results, folder locks, limits,
interruptions and the lines a run says."""
import dataclasses

from balance.core import batch, spec as S
from test_integrity import interrupt_at


def test_every_spec_gets_its_own_dict_defaults():
    fields = {f.name: f for f in dataclasses.fields(S.RulesetSpec)}
    for name in ("data_files", "headline_roles"):
        make = fields[name].default_factory
        a, b = make(), make()
        assert a == {} and a is not b, name


def test_a_game_range_past_int64_is_refused():
    import pytest

    import balance
    with pytest.raises(balance.BalanceError, match=r"games: 100 games from start "
                       r"9,223,372,036,854,775,798 .* at most 9 games") as e:
        balance.simulate("talisman", start=2**63 - 10, games=100)
    assert "\n" not in str(e.value)
    r = balance.simulate("talisman", start=2**63 - 10, games=9, progress=False)
    assert r.games["game"].iloc[-1] == 2**63 - 2 and (r.games["game"] > 0).all()


def test_the_memory_check_takes_the_cgroup_limit_when_it_is_smaller(tmp_path, monkeypatch):
    import pytest

    import balance
    from balance.core import machine as M, setup as S
    GiB, MiB = 2**30, 2**20
    (tmp_path / "meminfo").write_text(f"MemTotal: {64 * GiB // 1024} kB\n"
                                      f"MemAvailable: {32 * GiB // 1024} kB\n")
    v2 = [tmp_path / f"v2.{n}" for n in ("max", "current", "stat")]
    v1 = [tmp_path / f"v1.{n}" for n in ("limit", "usage", "stat")]
    files = ((*v2, "inactive_file"), (*v1, "total_inactive_file"))
    meminfo = str(tmp_path / "meminfo")
    assert M.available_memory(meminfo, files) == 32 * GiB          # no cgroup files
    v1[0].write_text(f"{2 * GiB}\n")
    v1[1].write_text(f"{512 * MiB}\n")
    v1[2].write_text(f"cache 1\ntotal_inactive_file {256 * MiB}\n")
    assert M.available_memory(meminfo, files) == 2 * GiB - 256 * MiB      # v1
    v2[0].write_text(f"{GiB}\n")
    v2[1].write_text(f"{256 * MiB}\n")
    v2[2].write_text(f"anon 5\ninactive_file {128 * MiB}\n")
    assert M.available_memory(meminfo, files) == GiB - 128 * MiB         # v2 first
    v2[0].write_text("max\n")                                  # no v2 limit: v1's
    assert M.available_memory(meminfo, files) == 2 * GiB - 256 * MiB
    v1[0].write_text(f"{128 * GiB}\n")                         # above MemAvailable
    assert M.available_memory(meminfo, files) == 32 * GiB
    # a run whose tables fit in MemAvailable but not in the cgroup is refused
    v1[0].write_text(f"{GiB}\n")
    monkeypatch.setattr(M, "CGROUP_FILES", files)
    s = S.setup("talisman", seed=1, players=2)
    n = 2 * GiB // M.table_bytes(s, 1)
    none = ((tmp_path / "none", tmp_path / "none", tmp_path / "none", "x"),)
    assert M.table_bytes(s, n) < M.available_memory(cgroup=none)     # this machine's
    with pytest.raises(balance.BalanceError, match=r"GiB are available"):
        M.check_memory(s, n)


PUBLISH = r"""
import os, shutil, sys
from pathlib import Path
from balance.core import outdir
base, root = Path(sys.argv[1]), Path(sys.argv[2])
real = {n: getattr(os, n) for n in ("replace", "rename", "link", "unlink", "rmdir", "mkdir")}

def write(d):
    for f in ("games.txt", "seats.txt", "only-new.txt"):
        (d / f).write_text("new")
    (d / "figures").mkdir()
    (d / "figures" / "a.txt").write_text("new")

def publish(out, kill_at):
    # in a child process, killed (as SIGKILL: no finally, no cleanup) at the
    # kill_at-th file-system call; returns the number of calls publish made
    pid = os.fork()
    if pid == 0:
        calls = [0]
        def killing(f):
            def g(*a, **k):
                calls[0] += 1
                if calls[0] == kill_at:
                    os._exit(9)
                return f(*a, **k)
            return g
        for n, f in real.items():
            setattr(os, n, killing(f))
        outdir.publish(out, write, keep=(".points",))
        (out.parent / f"{out.name}.calls").write_text(str(calls[0]))
        os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])

shutil.copytree(base, root / "probe")
assert publish(root / "probe", 0) == 0
steps = int((root / "probe.calls").read_text())
for k in range(1, steps + 1):
    shutil.copytree(base, root / f"k{k}")
    assert publish(root / f"k{k}", k) == 9
print(steps)
"""


def _readable(out):
    """The generation of the one complete result readable in ``out``,
    checked whole: every file its marker lists holds that generation."""
    import json
    from pathlib import Path

    from balance.core import outdir
    where = outdir.require_complete(out)
    names = json.loads((Path(where) / outdir.MARKER).read_text())["files"]
    gens = set()
    for n in names:
        p = Path(where) / n
        files = sorted(p.rglob("*")) if p.is_dir() else [p]
        gens |= {f.read_text() for f in files if f.is_file()}
    assert len(gens) == 1 and sorted(names) == sorted(
        ["games.txt", "seats.txt", f"only-{next(iter(gens))}.txt", "figures"]), (names, gens)
    return next(iter(gens))


def test_a_kill_at_any_step_of_publish_leaves_one_whole_result(tmp_path):
    """Killed at each file-system call of ``publish`` in turn, the folder
    still reads as the old or the new result whole, and the next command
    into it finishes or drops the new one (item 1)."""
    import shutil
    import subprocess
    import sys

    from balance.core import outdir
    base = tmp_path / "base"

    def old(d):
        for f in ("games.txt", "seats.txt", "only-old.txt"):
            (d / f).write_text("old")
        (d / "figures").mkdir()
        (d / "figures" / "a.txt").write_text("old")
    outdir.publish(base, old)
    (base / ".points").mkdir()
    (base / ".points" / "p.npz").write_text("kept")
    root = tmp_path / "kills"
    root.mkdir()
    r = subprocess.run([sys.executable, "-c", PUBLISH, str(base), str(root)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    steps = int(r.stdout)
    assert steps > 10
    seen = set()
    for k in range(1, steps + 1):
        out = root / f"k{k}"
        gen = _readable(out)
        seen.add(gen)
        with outdir.lock(out):            # the next command: finishes the move or drops it
            pass
        after = _readable(out)
        assert outdir.require_complete(out) == out and after in (gen, "new")
        left = [p.name for p in out.iterdir() if p.name.startswith(".writing")
                or ".tmp" in p.name]
        assert left == [], (k, left)
        assert (out / ".points" / "p.npz").read_text() == "kept"
        assert not (out / "only-old.txt").exists() if after == "new" else True
    assert seen == {"old", "new"}


class _Bar:
    """A stand-in for tqdm that records what ``play_range`` asks of its bar."""
    made = []

    def __init__(self, total=None, initial=0, **kw):
        self.total, self.n, self.closed = total, initial, False
        self.first = (total, initial)
        _Bar.made.append(self)

    def update(self, n=1):
        self.n += n

    def refresh(self):
        pass

    def set_postfix_str(self, *a, **k):
        pass

    def close(self):
        self.closed = True
        _EVENTS.append("bar closed")


_EVENTS = []




def test_a_resumed_run_says_so_first_and_its_bar_counts_games_played_now(
        tmp_path, monkeypatch, capsys):
    import pytest
    import tqdm

    from balance.core import play as P, setup as S
    monkeypatch.setattr(tqdm, "tqdm", _Bar)
    s = S.setup("talisman", seed=5, players=2)
    ck = tmp_path / "ck"
    orig = batch.play
    interrupt_at(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        P.play_range(s, 0, 5000, checkpoint=ck, chunk=1000)
    capsys.readouterr()
    said_before_play = []

    def playing(*a, **k):
        said_before_play.append(capsys.readouterr().err)
        return orig(*a, **k)
    monkeypatch.setattr(batch, "play", playing)
    _Bar.made.clear()
    again = P.play_range(s, 0, 5000, checkpoint=ck, chunk=1000)
    assert len(said_before_play) == 3
    assert "resumed: 2,000 of 5,000 games reused" in said_before_play[0]
    bar, = _Bar.made
    assert bar.first == (3000, 1000) and bar.n == 3000 and bar.total == 3000
    whole = P.play_range(s, 0, 5000, progress=False)
    assert (again.games == whole.games).all() and (again.seats == whole.seats).all()


def test_the_interrupt_line_comes_after_the_bar_is_closed(tmp_path, monkeypatch):
    import sys

    import pytest
    import tqdm

    from balance.core import play as P, setup as S
    monkeypatch.setattr(tqdm, "tqdm", _Bar)
    _EVENTS.clear()

    class Err:
        def write(self, text):
            if "interrupted:" in text:
                _EVENTS.append("line")
            return len(text)

        def flush(self):
            pass
    monkeypatch.setattr(sys, "stderr", Err())
    s = S.setup("talisman", seed=5, players=2)
    interrupt_at(monkeypatch, 4)
    with pytest.raises(KeyboardInterrupt):
        P.play_range(s, 0, 5000, checkpoint=tmp_path / "ck", chunk=1000)
    assert _EVENTS == ["bar closed", "line"]


def test_a_resumed_workflow_says_so_as_it_starts_playing(tmp_path, monkeypatch, capsys):
    """``Pieces``: the resume line comes before the first piece played, and
    the bar counts the pieces played now."""
    import numpy as np
    import pytest
    import tqdm

    from balance.core.store import PointStore
    from balance.workflow.outcome import Pieces
    monkeypatch.setattr(tqdm, "tqdm", _Bar)
    said_at_play = []

    def workflow(n_played_before_interrupt=None):
        st = PointStore(tmp_path / ".points")
        pieces = Pieces(st, 5, "piece", "sweep x", progress=True)
        played = 0
        try:
            for i in range(5):
                pieces.start(f"p{i}")

                def compute(i=i):
                    nonlocal played
                    said_at_play.append(capsys.readouterr().err)
                    if played == n_played_before_interrupt:
                        raise KeyboardInterrupt
                    played += 1
                    return {"x": np.array(i)}
                st.fetch({"what": "p", "i": i}, compute)
                pieces.update()
        except KeyboardInterrupt:
            pieces.interrupted()
            raise
        pieces.done()
    with pytest.raises(KeyboardInterrupt):
        workflow(2)
    assert "interrupted: 2 of 5 pieces finished" in capsys.readouterr().err
    said_at_play.clear()
    _Bar.made.clear()
    workflow()
    assert len(said_at_play) == 3 and "resumed: 2 of 5 pieces reused" in said_at_play[0]
    assert "resumed" not in capsys.readouterr().err             # said once
    bar, = _Bar.made
    assert bar.first == (3, 1) and bar.n == 3 and bar.total == 3


def test_a_terminated_run_says_what_is_saved_and_a_rerun_resumes(tmp_path):
    """SIGTERM mid-run is handled as Ctrl-C: the finished chunks are saved,
    one line says so, and the same command resumes from them (item 5)."""
    import os
    import re
    import shutil
    import signal
    import subprocess
    import time

    import balance
    out = tmp_path / "o"
    cmd = [shutil.which("balance"), "run", "talisman", "--games", "300000", "--seed", "3",
           "--out", str(out)]
    env = {**os.environ, "BALANCE_CHECKPOINT_SECONDS": "0"}
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env)
    deadline = time.time() + 240
    while time.time() < deadline and p.poll() is None and \
            not list((out / ".partial").rglob("*.npz")):
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=120)[1]
    assert p.returncode != 0, err
    m = re.search(r"^interrupted: ([\d,]+) games are saved in .*run the same command again "
                  r"to resume$", err, re.M)
    assert m and "Traceback" not in err, err
    saved = m.group(1)
    assert int(saved.replace(",", "")) >= 65536
    again = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"resumed: {saved} of 300,000 games reused" in again.stderr
    assert len(balance.load(out)["games"]) == 300_000


def test_a_run_whose_tables_pass_1_gb_says_so_before_the_first_game(monkeypatch, capsys):
    from balance.core import machine as M, play as P, setup as S
    s = S.setup("talisman", seed=1, players=2)
    # 20,000,000 games peaked at 5.18 GB (issue 34): the estimate is that size
    assert 5.0e9 < M.record_bytes(s, 20_000_000) < 5.6e9
    assert M.record_bytes(s, 3_000_000) < M.BIG_TABLES < M.record_bytes(s, 4_000_000)
    monkeypatch.setattr(M, "BIG_TABLES", M.record_bytes(s, 2999))
    monkeypatch.setattr(M, "_said_big", set())
    orig, said = batch.play, []
    monkeypatch.setattr(batch, "play",
                        lambda *a, **k: said.append(capsys.readouterr().err) or orig(*a, **k))
    P.play_range(s, 0, 3000, progress=False)
    line = f"note: 3,000 games keep about {M.record_bytes(s, 3000) / 1e9:.1f} GB"
    assert said[0].count("\n") == 1 and said[0].startswith(line) and "--summary-only" in said[0]
    P.play_range(s, 0, 2999, progress=False)
    P.play_range(s, 0, 3000, progress=False, sink="sums")
    assert "note:" not in "".join(said[1:]) + capsys.readouterr().err


def test_a_piece_stored_by_the_previous_encoding_is_still_reused(tmp_path):
    """Pieces are written zstd-compressed (``store._write``, 6x cheaper than
    deflate); the deflated .npz files of earlier runs are still read."""
    import json
    import zipfile

    import numpy as np

    from balance.core import store as ST
    st = ST.PointStore(tmp_path)
    desc = {"what": "x", "seed": 2}
    arrays = {"games": np.arange(-5, 295, dtype=np.int64).reshape(-1, 3),
              "masks": np.array([[2**64 - 1, 3]], np.uint64), "start": np.array(7)}
    with zipfile.ZipFile(st.path(desc), "w", compression=zipfile.ZIP_DEFLATED) as z:
        for k, v in {"__desc__": np.array(ST._canon(desc)),
                     "__dtypes__": np.array(json.dumps({k: v.dtype.str
                                                        for k, v in arrays.items()})),
                     **{k: ST.narrow(v) for k, v in arrays.items()}}.items():
            with z.open(f"{k}.npy", "w") as o:
                np.lib.format.write_array(o, v, allow_pickle=False)
    for _ in range(2):                       # the old file, then the new one
        got = st.load(desc)
        assert got is not None and st.refused == 0
        for k, v in arrays.items():
            assert got[k].dtype == v.dtype and got[k].shape == v.shape and (got[k] == v).all()
        st.save(desc, arrays)
    assert "__arrays__.json" in zipfile.ZipFile(st.path(desc)).namelist()


def test_a_terminated_workflow_says_what_is_saved_and_a_rerun_resumes(tmp_path):
    """SIGTERM to a workflow command between or inside its pieces (here
    summary-only pieces, played without chunk checkpoints) is Ctrl-C too."""
    import os
    import re
    import shutil
    import signal
    import subprocess
    import time
    out = tmp_path / "s"
    cmd = [shutil.which("balance"), "sweep", "talisman", "--vary", "hp=10,20", "--games",
           "600000", "--summary-only", "--out", str(out)]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 240
    while time.time() < deadline and p.poll() is None and \
            not list((out / ".points").glob("*.npz")):
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    err = p.communicate(timeout=120)[1]
    assert p.returncode == 130, err
    m = re.search(r"^interrupted: (\d+) of 1200000 games finished and saved", err, re.M)
    assert m and int(m.group(1)) > 0 and "Traceback" not in err, err
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    assert f"resumed: {m.group(1)} of 1200000 games reused" in again.stderr


def test_publish_replaces_a_file_by_a_folder_and_back(tmp_path):
    from balance.core import outdir
    out = tmp_path / "o"

    def as_file(d):
        (d / "figures").write_text("file")

    def as_folder(d):
        (d / "figures").mkdir()
        (d / "figures" / "a.txt").write_text("folder")
    for write, check in ((as_file, "file"), (as_folder, "folder"), (as_file, "file")):
        outdir.publish(out, write)
        p = out / "figures"
        assert (p.read_text() if p.is_file() else (p / "a.txt").read_text()) == check
    assert sorted(x.name for x in out.iterdir()) == [outdir.MARKER, "figures"]


def test_a_limit_on_the_process_cgroup_or_one_above_it_applies(tmp_path):
    from balance.core import machine as M
    GiB = 2**30
    proc = tmp_path / "cgroup"
    proc.write_text("4:memory:/jobs/run7\n1:cpu:/jobs/run7\n0::/user.slice/job.scope\n")
    root = tmp_path / "fs"
    v1 = root / "memory" / "jobs" / "run7"
    v2 = root / "user.slice" / "job.scope"
    v1.mkdir(parents=True)
    v2.mkdir(parents=True)
    files = M.cgroup_files(str(proc), str(root))
    assert files[-2:] == list(M.CGROUP_FILES)                  # the system's root last
    files = files[:-2]
    assert files[0][0] == str(v1 / "memory.limit_in_bytes")
    assert str(root / "user.slice" / "memory.max") in [f[0] for f in files]
    assert M.cgroup_available(files) is None                   # no limit anywhere
    (v1 / "memory.limit_in_bytes").write_text(f"{8 * GiB}\n")
    (v1 / "memory.usage_in_bytes").write_text(f"{GiB}\n")
    assert M.cgroup_available(files) == 7 * GiB
    (root / "user.slice" / "memory.max").write_text(f"{3 * GiB}\n")     # the parent's
    (v2 / "memory.max").write_text("max\n")
    assert M.cgroup_available(files) == 3 * GiB
