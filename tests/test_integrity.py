"""Nothing lost, nothing mixed: verified pieces, atomic tables, one writer
per folder, limits checked before the work, one line instead of a traceback."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import balance
from balance.cli import cli
from balance.core import batch, outdir


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def interrupt_at(monkeypatch, n: int) -> list:
    """Ctrl-C as the ``n``-th chunk starts (``batch.play``, which
    ``core.play`` calls through its module, raises KeyboardInterrupt);
    returns the list that counts the calls."""
    calls, orig = [], batch.play

    def flaky(*a, **k):
        calls.append(1)
        if len(calls) == n:
            raise KeyboardInterrupt
        return orig(*a, **k)
    monkeypatch.setattr(batch, "play", flaky)
    return calls


def one_line(r, fragment):
    assert r.exit_code == 2, r.output
    err = [ln[ln.index("Error:"):] for ln in r.output.splitlines() if "Error:" in ln]
    assert len(err) == 1 and fragment in err[0] and "Traceback" not in r.output, r.output


def test_a_failure_while_saving_leaves_the_previous_result_whole(tmp_path, monkeypatch):
    out = tmp_path / "o"
    balance.simulate("talisman", games=300, seed=1).save(out)
    assert outdir.is_complete(out)
    b = balance.simulate("talisman", games=300, seed=2)
    from balance.core import io, results
    real, calls = io.write_parquet, []

    def fail_second(*a, **k):          # the disk fills while the second file is written
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*a, **k)
    monkeypatch.setattr(results, "write_parquet", fail_second)
    with pytest.raises(balance.BalanceError, match="No space left"):
        b.save(out)
    monkeypatch.undo()
    t = balance.load(out)                         # the old result, whole and consistent
    assert t["summary"]["seed"] == 1 and len(t["games"]) == 300
    assert not [p for p in out.iterdir() if p.name.startswith(".writing")]
    b.save(out)
    assert balance.load(out)["summary"]["seed"] == 2


def test_saved_tables_read_back_as_the_result_with_an_encoding_per_column(tmp_path):
    """Tables written a row group at a time, with the game column delta-
    encoded, a dictionary only for a column of few values and plain kind
    bitmasks (``io.encodings``), read back equal to the result's own."""
    import pandas as pd
    import pyarrow.parquet as pq

    from balance.core import io
    r = balance.simulate("talisman", games=6000, seed=4, players=3)
    meta = json.dumps(r.setup.describe(), default=str)
    for name, cols, frame in (("seats", r._seat_cols(), r.seats), ("games", r._game_cols(),
                                                                   r.games)):
        path = tmp_path / f"{name}.parquet"
        io.write_parquet(path, cols, meta, rows=1000)
        back = pd.read_parquet(path)
        pd.testing.assert_frame_equal(back, frame.reset_index(drop=True))
        f = pq.ParquetFile(path)
        assert f.metadata.num_row_groups == len(frame) // 1000
        used = {f.schema_arrow.names[j]: set(f.metadata.row_group(0).column(j).encodings)
                for j in range(f.metadata.num_columns)}
        assert "DELTA_BINARY_PACKED" in used["game"]
        assert "RLE_DICTIONARY" in used["policy" if name == "seats" else "end_reason"]
        assert "RLE_DICTIONARY" in used["turns" if name == "games" else "hp"]
        if name == "seats":
            assert "RLE_DICTIONARY" not in used["drawn_mask0"]


def test_a_folder_without_its_marker_is_refused(tmp_path):
    out = tmp_path / "o"
    balance.simulate("talisman", games=100, seed=1).save(out)
    (out / outdir.MARKER).unlink()
    with pytest.raises(balance.BalanceError, match="no finished result"):
        balance.load(out)


def test_a_new_result_replaces_the_old_files_of_another_kind(tmp_path):
    out = tmp_path / "o"
    r = run("sweep", "talisman", "--vary", "hp=10,20", "--games", 100, "--out", out)
    assert r.exit_code == 0 and (out / "sweep_hp.png").exists()
    r = run("sweep", "talisman", "--vary", "thunder_damage=1,3", "--games", 100, "--out", out)
    assert r.exit_code == 0, r.output
    assert (out / "sweep_thunder_damage.png").exists() and not (out / "sweep_hp.png").exists()


def test_two_writers_into_one_folder(tmp_path):
    """The folder's lock is an OS lock: refused while another process holds
    it, free the moment that process is killed, and a ``.lock`` file naming a
    live process that holds no lock (a reused pid) is taken over."""
    out = tmp_path / "o"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\n"
                               "from balance.core import outdir\n"
                               "with outdir.lock(sys.argv[1]):\n"
                               "    print('held', flush=True); time.sleep(60)", str(out)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        r = run("run", "talisman", "--games", 10, "--out", out)
        one_line(r, f"process {holder.pid}")
    finally:
        holder.kill()
        holder.wait()
    assert (out / outdir.LOCK).exists()          # a killed holder leaves its file...
    r = run("run", "talisman", "--games", 10, "--out", out)    # ...and no lock
    assert r.exit_code == 0, r.output
    assert not (out / outdir.LOCK).exists()
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (out / outdir.LOCK).write_text(f"{other.pid}\n")      # alive, holds nothing
        r = run("run", "talisman", "--games", 10, "--out", out)
        assert r.exit_code == 0, r.output
    finally:
        other.kill()
        other.wait()


@pytest.mark.parametrize("args,fragment", [
    (["--games", "99999999999999999999999"], "beyond 2**63-1"),
    (["--games", "1000000000000"], "GiB"),
    (["--seed", "99999999999999999999999"], "outside"),
])
def test_limits_are_checked_before_any_game(tmp_path, args, fragment):
    r = run("run", "talisman", *args, "--out", tmp_path / "x")
    one_line(r, fragment)
    assert not (tmp_path / "x" / ".partial").exists()


@pytest.mark.parametrize("content,fragment", [
    (bytes(range(256)) * 4, "UTF-8"),
    ('games = 100\n'.encode("utf-16"), "UTF-8"),
    (b"seed = 1.5\n", "seed = 1.5 must be a whole number"),
    (b"seed = true\n", "seed = True must be a whole number"),
    (b"players = 2.5\n", "players = 2.5 must be a whole number"),
    (b"games = true\n", "games = True must be a whole number"),
    (b"policy = []\n", "non-empty"),
])
def test_bad_configs_are_one_line(tmp_path, content, fragment):
    cfg = tmp_path / "c.toml"
    cfg.write_bytes(content)
    one_line(run("run", "talisman", "--config", cfg, "--out", tmp_path / "x"), fragment)


def test_non_ascii_digits_are_refused():
    from balance.core.setup import check_count
    with pytest.raises(balance.BalanceError):
        check_count("games", "١٢٣")
    assert check_count("games", "123") == 123


def test_a_full_disk_is_one_line_and_leaves_no_torn_piece(tmp_path, monkeypatch):
    from balance.core import store
    real = store._write

    def full(f, *a, **k):
        f.write(b"partial")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(store, "_write", full)
    r = run("sweep", "talisman", "--vary", "hp=10,20", "--games", 100, "--out", tmp_path / "s")
    one_line(r, "No space left on device")
    monkeypatch.setattr(store, "_write", real)
    torn = [p for p in (tmp_path / "s").rglob("*") if ".tmp" in p.name]
    assert not torn, torn


def test_a_regenerated_report_is_byte_identical(tmp_path):
    out = tmp_path / "rep"
    args = ["report", "talisman", "--games", 80, "--policy", "greedy", "--out", out]
    assert run(*args).exit_code == 0
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
             if p.is_file() and ".points" not in p.parts}
    r = run(*args, "--force")
    assert r.exit_code == 0, r.output
    again = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
             if p.is_file() and ".points" not in p.parts}
    assert first.keys() == again.keys()
    assert [k for k in first if first[k] != again[k]] == []


def test_checkpoints_are_smaller_than_the_finished_tables(tmp_path):
    from balance.core.play import play_range
    from balance.core.results import Result
    from balance.core.setup import setup
    # the command line's default (2 players, random): its tables are the
    # smallest per game, and at 200,000 games their fixed overhead is small
    s = setup("talisman", seed=1, players=2, policies="random")
    b = play_range(s, 0, 200_000, checkpoint=tmp_path / "ck", progress=False)
    Result(s, b).save(tmp_path / "out")
    ck = sum(p.stat().st_size for p in (tmp_path / "ck").rglob("*.npz"))
    tables = sum(p.stat().st_size for p in (tmp_path / "out").iterdir() if p.is_file())
    assert ck <= tables, (ck, tables)


def test_an_interrupted_sweep_point_resumes_from_its_own_chunks(tmp_path, monkeypatch):
    from balance.workflow import outcome
    from balance.core.play import play_range
    from balance.core.setup import setup, setup_key
    monkeypatch.setitem(play_range.__kwdefaults__, "chunk", 1000)
    s = setup("talisman", seed=4, players=2)
    orig = batch.play
    from balance.core.store import PointStore
    st = PointStore(tmp_path / ".points")
    interrupt_at(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        outcome.play_outcome(s, 0, 3000, st, progress=False)
    monkeypatch.setattr(batch, "play", orig)
    counted = []
    monkeypatch.setattr(batch, "play", lambda *a, **k: counted.append(1) or orig(*a, **k))
    o = outcome.play_outcome(s, 0, 3000, st, progress=False)
    assert len(counted) == 1                      # two of three chunks were reused
    assert o.n == 3000 and not (tmp_path / ".points" / "chunks" / setup_key(s)).exists()


def test_cards_file_for_a_ruleset_without_one_is_one_line(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("id\n1\n")
    one_line(run("run", "talisman", "--cards", f, "--games", 10, "--out", tmp_path / "x"),
             "has no data file 'cards'")
    one_line(run("run", "talisman", "--cards", tmp_path / "nope.csv", "--games", 10,
                 "--out", tmp_path / "x"), "no such file")


def test_a_stored_piece_round_trips_and_a_foreign_or_stale_one_is_refused(tmp_path, capsys):
    from balance.core.store import PointStore
    st = PointStore(tmp_path)
    desc = {"what": "x", "seed": 1, "code": "abc"}
    arrays = {"start": np.array(7), "games": np.arange(-3, 300, dtype=np.int64).reshape(-1, 3),
              "masks": np.array([2**63 + 5], np.uint64)}
    st.save(desc, arrays)
    got = st.load(desc)
    assert got is not None and st.refused == 0
    for k, v in arrays.items():               # 0-d arrays and dtypes come back as written
        assert got[k].shape == v.shape and got[k].dtype == v.dtype and (got[k] == v).all()
    # the same file name, another code fingerprint (a stale piece): refused, said
    os.replace(st.path(desc), st.path({**desc, "code": "new"}))
    assert st.load({**desc, "code": "new"}) is None and st.refused == 1
    assert "code fingerprint" in capsys.readouterr().err
    st.path(desc).write_bytes(b"torn")
    assert st.load(desc) is None and st.refused == 2
    assert "cannot be read" in capsys.readouterr().err


def test_a_resumed_run_says_how_many_chunks_it_refused(tmp_path, capsys):
    from balance.core.play import play_range
    from balance.core.setup import setup
    s = setup("talisman", seed=3, players=2)
    ck = tmp_path / "ck"
    whole = play_range(s, 0, 3000, checkpoint=ck, chunk=1000, progress=False)
    files = sorted(ck.rglob("*.npz"))
    assert len(files) == 3
    files[1].write_bytes(files[1].read_bytes()[:100])          # torn
    capsys.readouterr()
    again = play_range(s, 0, 3000, checkpoint=ck, chunk=1000, progress=False)
    err = capsys.readouterr().err
    assert "resumed: 2,000 of 3,000 games reused" in err and "1 stored chunk(s) refused" in err
    assert (again.games == whole.games).all() and (again.seats == whole.seats).all()


@pytest.mark.parametrize("args", [
    ["sweep", "talisman", "--vary", "hp=10,20", "--games", "1000000000000"],
    ["cards", "talisman", "--games", "1000000000000"],
    ["run", "talisman", "--precision", "0.00001", "--max-games", "1000000000000"],
])
def test_every_command_checks_memory_before_any_game(tmp_path, args):
    one_line(run(*args, "--out", tmp_path / "x"), "GiB")


def test_leftovers_of_a_killed_command_are_removed(tmp_path):
    out = tmp_path / "o"
    balance.simulate("talisman", games=50, seed=1).save(out)
    dead = 2**22 + 12345                  # above the kernel's pid range: never running
    (out / f".writing-{dead}").mkdir()
    (out / f".building-{dead}").mkdir()
    (out / ".partial" / "k").mkdir(parents=True)
    (out / ".partial" / "k" / f"games-0-10.npz.tmp{dead}").write_bytes(b"half")
    mine = out / f".writing-{os.getpid()}"
    mine.mkdir()
    with outdir.lock(out):
        pass
    left = sorted(p.name for p in out.rglob("*") if str(dead) in p.name)
    assert left == [] and mine.exists()


@pytest.mark.parametrize("args", [
    ["--games", "١٠٠"], ["--seed", "٣"], ["--players", "٢"], ["--threads", "١"],
    ["--set", "hp=٣٠"],
])
def test_non_ascii_digits_on_the_command_line_are_refused(tmp_path, args):
    r = run("run", "talisman", *args, "--games", 10, "--out", tmp_path / "x") \
        if args[0] != "--games" else run("run", "talisman", *args, "--out", tmp_path / "x")
    one_line(r, "ASCII")
    assert not (tmp_path / "x").exists()


def test_a_read_only_out_is_one_line(tmp_path, monkeypatch):
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if "ro" in str(p)
                        else real(p, mode, **k))
    (tmp_path / "ro").mkdir()
    one_line(run("run", "talisman", "--games", 10, "--out", tmp_path / "ro" / "x"),
             "not writable")


def test_precision_outputs_are_byte_identical(tmp_path):
    for d in ("a", "b"):
        r = run("sweep", "talisman", "--vary", "hp=10,20", "--games", 200, "--precision", "0.2",
                "--max-games", 400, "--out", tmp_path / d)
        assert r.exit_code == 0, r.output
    a, b = (json.loads((tmp_path / d / "sweep.json").read_text()) for d in ("a", "b"))
    assert "elapsed_seconds" not in json.dumps(a)
    assert (tmp_path / "a" / "sweep.json").read_bytes() == (tmp_path / "b" / "sweep.json").read_bytes()


def test_a_short_run_stores_no_chunk_and_an_interrupted_one_stores_what_it_played(
        tmp_path, monkeypatch, capsys):
    from balance.core.play import checkpoint_seconds, play_range
    from balance.core.setup import setup
    monkeypatch.delenv("BALANCE_CHECKPOINT_SECONDS")          # the default: after 5 s
    assert checkpoint_seconds() == 5.0
    s = setup("talisman", seed=2, players=2)
    whole = play_range(s, 0, 3000, checkpoint=tmp_path / "a", chunk=1000, progress=False)
    assert not list((tmp_path / "a").rglob("*.npz"))          # nothing written, nothing lost
    orig = batch.play
    interrupt_at(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt):
        play_range(s, 0, 3000, checkpoint=tmp_path / "b", chunk=1000, progress=False)
    assert "interrupted: 2,000 games are saved" in capsys.readouterr().err
    monkeypatch.setattr(batch, "play", orig)
    again = play_range(s, 0, 3000, checkpoint=tmp_path / "b", chunk=1000, progress=False)
    assert "resumed: 2,000 of 3,000 games reused" in capsys.readouterr().err
    assert (again.games == whole.games).all() and (again.masks == whole.masks).all()
    monkeypatch.setenv("BALANCE_CHECKPOINT_SECONDS", "soon")
    with pytest.raises(balance.BalanceError, match="BALANCE_CHECKPOINT_SECONDS"):
        checkpoint_seconds()
