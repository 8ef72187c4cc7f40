import matplotlib

matplotlib.use("Agg")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _store_every_chunk(monkeypatch):
    """Tests of resuming, refusing and sizing stored chunks need every chunk
    stored at once; a run stores them only after 5 s by default
    (``runner.checkpoint_seconds``; tests/test_integrity.py tests the default)."""
    monkeypatch.setenv("BALANCE_CHECKPOINT_SECONDS", "0")


@pytest.fixture(autouse=True)
def _no_skill_section(monkeypatch):
    """A report re-checks its findings under search play for up to 10
    minutes by default; the suite's reports skip that section unless a test
    asks for it (``--skill-seconds``/``--skill-policy``; tests/test_skill.py)."""
    monkeypatch.setenv("BALANCE_SKILL_SECONDS", "0")
