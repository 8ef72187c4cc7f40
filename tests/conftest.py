import matplotlib

matplotlib.use("Agg")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _store_every_chunk(monkeypatch):
    """Tests of resuming, refusing and sizing stored chunks need every chunk
    stored at once; a run stores them only after 5 s by default
    (``play.checkpoint_seconds``; tests/test_integrity.py tests the default)."""
    monkeypatch.setenv("BALANCE_CHECKPOINT_SECONDS", "0")


@pytest.fixture(autouse=True)
def _no_skill_section(monkeypatch):
    """A report re-checks its findings under search play for up to 10
    minutes by default; the suite's reports skip that section unless a test
    asks for it (``--skill-seconds``/``--skill-policy``; tests/test_skill.py)."""
    monkeypatch.setenv("BALANCE_SKILL_SECONDS", "0")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Group the tests for pytest-xdist (``-n 2 --dist loadgroup``, the
    README's command): every test of one ruleset runs in one worker, so each
    kernel is compiled once per suite (a cold compile is most of a clean
    run: elite's kernels and search alone take about 15 minutes), and the
    workers compile different rulesets at the same time. A test's ruleset is
    a parameter naming one (the contract tests, ``[elite]``) or its file's
    name (``test_elite_rules.py``, ``test_search_demon.py``); any other test
    is grouped by its file (its module-scoped fixtures, such as a Dask
    cluster, are then built once). Without xdist the marks do nothing."""
    import re

    from balance.core import registry
    names = set(registry.names())
    for item in items:
        group = None
        params = getattr(getattr(item, "callspec", None), "params", {})
        for v in params.values():
            if isinstance(v, str) and v in names:
                group = v
                break
        if group is None:
            m = re.match(r"test_(?:search_)?([a-z]+)", item.path.stem)
            group = m.group(1) if m and m.group(1) in names else item.path.stem
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="module")
def coin_registered():
    """The throwaway coin-flip ruleset (``tests/coinflip``) registered as
    ``coin`` for a module's tests (``pytestmark = usefixtures(...)``)."""
    import sys
    from pathlib import Path

    from balance.core import registry
    here = str(Path(__file__).parent)
    sys.path.insert(0, here)
    try:
        with registry.registered("coin", "coinflip"):
            yield
    finally:
        sys.path.remove(here)

