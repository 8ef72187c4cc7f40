"""What every written result shares: the version of balance it carries and
its JSON (numpy numbers, rate tables as rows).

``runner.Result``, ``summary.Summary`` and the workflows write their
``summary.json`` through these, so the JSON is the same whichever wrote it;
this module is below all of them and imports neither them nor the package
top (``balance/__init__.py`` takes its ``__version__`` from here).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

VERSION = "0.1.0"       # balance's version, also pyproject.toml's


def version() -> str:
    """The version of balance every result records (``balance_version``)."""
    return VERSION


def json_default(o):
    """``json.dumps``'s ``default``: numpy integers and floats as numbers,
    anything else as its text."""
    if isinstance(o, (np.integer,)):
        return int(o)
    if isinstance(o, (np.floating,)):
        return float(o)
    return str(o)


def json_rows(df: pd.DataFrame) -> list[dict]:
    """A rate table as summary.json rows: {"key": ..., column: number}."""
    return [{"key": (k.item() if hasattr(k, "item") else k), **{
        c: (float(v) if isinstance(v, (float, np.floating)) else int(v))
        for c, v in row.items()}} for k, row in df.iterrows()]
