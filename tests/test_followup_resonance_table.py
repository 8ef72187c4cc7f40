"""Issue 34 item 5: the magic-card table's missing-columns error names the
missing columns and the file's own columns, once each (it used to list the
expected columns a second time, which read as if they were the file's)."""
import re

import pandas as pd
import pytest

from balance.core.errors import BalanceError
from balance.rulesets.resonance.cards import COLUMNS, DEFAULT, load_cards


def test_missing_columns_error_names_the_missing_and_the_files_columns_once(tmp_path):
    df = pd.read_csv(DEFAULT, dtype=str, keep_default_na=False)
    f = tmp_path / "short.csv"
    df.drop(columns=["pts", "use"]).to_csv(f, index=False)
    with pytest.raises(BalanceError) as e:
        load_cards(f)
    msg = str(e.value)
    assert "\n" not in msg
    assert "missing column(s) pts, use" in msg
    kept = [c for c in COLUMNS if c not in ("pts", "use")]
    assert f"the file has column(s) {', '.join(kept)}" in msg
    # every column is named once: the missing ones as missing, the others as the file's
    text = msg.split(": ", 1)[1]          # without the file's path
    for c in COLUMNS:
        assert len(re.findall(rf"(?<![\w]){c}(?![\w])", text)) == 1, c


def test_a_file_with_other_columns_shows_them(tmp_path):
    f = tmp_path / "other.csv"
    f.write_text("card,cost\n1,2\n")
    with pytest.raises(BalanceError,
                       match=r"missing column\(s\) id, name, .*, use; the file has column\(s\) "
                             r"card, cost$"):
        load_cards(f)
