"""The first-compile notice (core.jit): told from numba's cache index."""
import importlib.util
import io
import sys

import numba
import pytest

from balance.core import jit, registry

SRC = '''
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x
'''


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_on_disk_follows_numba_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "jitmod.py"
    path.write_text(SRC)
    first = load(path, "jitmod_a")
    assert jit.on_disk(first.twice) is False
    assert jit.needs_compile(first.twice)
    assert first.twice(21) == 42              # compiled now, and saved to the cache
    assert not jit.needs_compile(first.twice)
    again = load(path, "jitmod_b")            # a new process would see this dispatcher
    assert not again.twice.overloads
    assert jit.on_disk(again.twice) is True
    assert not jit.needs_compile(again.twice)
    path.write_text(SRC.replace("2 * x", "3 * x"))   # changed source: the cache is stale
    changed = load(path, "jitmod_c")
    assert jit.on_disk(changed.twice) is False


def test_on_disk_unknown_is_not_a_compile():
    assert jit.on_disk(object()) is None
    assert not jit.needs_compile(type("D", (), {"overloads": {}})())


@pytest.mark.parametrize("name", registry.names())
def test_notice_once_per_kernel(name, monkeypatch):
    spec = registry.get(name)
    assert set(spec.kernels()) == {"run", "replay", "search"}
    monkeypatch.setattr(jit, "_told", set())
    monkeypatch.setattr(jit, "needs_compile", lambda d: True)
    out = io.StringIO()
    assert jit.notice(spec, "run", out)
    assert not jit.notice(spec, "run", out)   # once per process
    assert jit.notice(spec, "replay", out)
    text = out.getvalue()
    assert text.count(f"compiling the {name} kernel") == 2
    assert spec.compile_time in text
    assert jit.notice(spec, "search", out)    # the search's own entry, compiled on demand
    assert f"compiling the {name} search policies" in out.getvalue()
    monkeypatch.setattr(jit, "needs_compile", lambda d: False)
    monkeypatch.setattr(jit, "_told", set())
    assert not jit.notice(spec, "run", out)
    assert not jit.notice(spec, "nothing", out)


@pytest.mark.parametrize("name", ["talisman", "elite"])
def test_kernels_cached_by_ruleset_fingerprint(name):
    """numba caches a kernel under a folder named by the fingerprint of all
    of its ruleset's files, so a change of rules.py alone (parameter slots
    frozen into the kernel) never loads a stale kernel; numba's own setting
    is restored after the kernel module."""
    import importlib
    K = importlib.import_module(registry.get(name).kernel)     # the module of run_batch
    folder = jit.cache_dir(f"balance.rulesets.{name}")
    assert folder.name == f"balance-{name}-{registry.fingerprint(name)}"
    if name == "elite":       # one engine variant per version group, each in its subfolder
        for version, sub in ((1, "v12"), (2, "v12"), (3, "v3")):
            step = K.engine(version, "step").apply
            assert step._cache._cache_path.startswith(str(folder / sub))
            blocks = K.engine(version).E.play_blocks
            assert blocks._cache._cache_path.startswith(str(folder / f"engine_{sub}"))
        assert K.engine(1) is K.engine(2) and K.engine(1) is not K.engine(3)
    else:                     # a ruleset on the game engine: the engine's subfolder
        assert K.E.play_blocks._cache._cache_path.startswith(str(folder / "engine"))
    assert numba.config.CACHE_DIR != str(folder)


def test_a_table_with_a_searching_seat_tells_of_the_search_compile(monkeypatch, capsys):
    # told once, before the first piece, only where a seat searches
    from balance.core.play import play_range
    from balance.core.setup import setup
    monkeypatch.setattr(jit, "_told", set())
    monkeypatch.setattr(jit, "needs_compile", lambda d: True)
    play_range(setup("talisman", seed=1, players=2, policies=["greedy"]), 0, 5, progress=False)
    assert "search policies" not in capsys.readouterr().err
    play_range(setup("talisman", seed=1, players=2, policies=["search_fast", "greedy"],
                     params={"search_determinizations": 1}), 0, 5, progress=False)
    assert capsys.readouterr().err.count("compiling the talisman search policies") == 1
