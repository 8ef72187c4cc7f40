"""Issue 34's follow-ups on runs: whole results, folder locks, limits,
interruptions and the lines a run says."""
import dataclasses

from balance.core import spec as S


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
    from balance.core import runner as R
    GiB, MiB = 2**30, 2**20
    (tmp_path / "meminfo").write_text(f"MemTotal: {64 * GiB // 1024} kB\n"
                                      f"MemAvailable: {32 * GiB // 1024} kB\n")
    v2 = [tmp_path / f"v2.{n}" for n in ("max", "current", "stat")]
    v1 = [tmp_path / f"v1.{n}" for n in ("limit", "usage", "stat")]
    files = ((*v2, "inactive_file"), (*v1, "total_inactive_file"))
    meminfo = str(tmp_path / "meminfo")
    assert R.available_memory(meminfo, files) == 32 * GiB          # no cgroup files
    v1[0].write_text(f"{2 * GiB}\n")
    v1[1].write_text(f"{512 * MiB}\n")
    v1[2].write_text(f"cache 1\ntotal_inactive_file {256 * MiB}\n")
    assert R.available_memory(meminfo, files) == 2 * GiB - 256 * MiB      # v1
    v2[0].write_text(f"{GiB}\n")
    v2[1].write_text(f"{256 * MiB}\n")
    v2[2].write_text(f"anon 5\ninactive_file {128 * MiB}\n")
    assert R.available_memory(meminfo, files) == GiB - 128 * MiB         # v2 first
    v2[0].write_text("max\n")                                  # no v2 limit: v1's
    assert R.available_memory(meminfo, files) == 2 * GiB - 256 * MiB
    v1[0].write_text(f"{128 * GiB}\n")                         # above MemAvailable
    assert R.available_memory(meminfo, files) == 32 * GiB
    # a run whose tables fit in MemAvailable but not in the cgroup is refused
    v1[0].write_text(f"{GiB}\n")
    monkeypatch.setattr(R, "CGROUP_FILES", files)
    s = R.setup("talisman", seed=1, players=2)
    n = 2 * GiB // R.table_bytes(s, 1)
    none = ((tmp_path / "none", tmp_path / "none", tmp_path / "none", "x"),)
    assert R.table_bytes(s, n) < R.available_memory(cgroup=none)     # this machine's
    with pytest.raises(balance.BalanceError, match=r"GiB are available"):
        R.check_memory(s, n)
