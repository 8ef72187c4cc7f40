"""The committed result baseline (tests/golden/result_hashes.json, written by
``python scripts/result_hashes.py --write``): every configuration
``scripts/result_hashes.py`` derives from a ruleset's spec plays the very
tables it played when the baseline was recorded. A change of results is
planned: the commit that makes it re-writes the baseline and says why, with
the figure that shows it; any other change fails here."""
import importlib.util
import json
from pathlib import Path

import pytest

from balance.core import registry

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("result_hashes", ROOT / "scripts" / "result_hashes.py")
RH = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RH)


@pytest.mark.parametrize("name", registry.names())
def test_every_configuration_plays_its_committed_tables(name):
    want = json.loads(RH.GOLDEN.read_text())
    got = RH.hashes([name])
    mine = {k: v for k, v in want.items() if k.split(" ", 1)[0] == name}
    assert set(got) == set(mine), ("configurations added or gone: re-write the baseline",
                                   sorted(set(got) ^ set(mine)))
    changed = {k: (mine[k], got[k]) for k in got if got[k] != mine[k]}
    assert not changed, f"results changed (baseline -> now): {changed}"
