"""The notebooks in notebooks/ run top to bottom (small game count).

Each notebook reads BALANCE_NB_GAMES; here it is set small so that the whole
notebook runs in seconds. Executed with nbclient (installed with the test
extras: ``pip install -e .[test]``)."""
from pathlib import Path

import pytest

from balance.core import registry

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def notebooks():
    return sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.stem in registry.names())


def test_every_ruleset_has_a_notebook():
    assert {p.stem for p in notebooks()} == set(registry.names())


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("BALANCE_NB_GAMES", "2000")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert any(o.get("output_type") == "display_data" and "image/png" in o.get("data", {})
               for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
