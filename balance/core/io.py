"""What every written result shares, and the writing and reading of its
files: the version of balance it carries, its JSON (numpy numbers, rate
tables as rows), the Parquet tables (:func:`write_parquet`, a row group at a
time, with per-column encodings) and :func:`load` of a saved run.

``results.Result``, ``summary.Summary`` and the workflows write their
``summary.json`` through these, so the JSON is the same whichever wrote it;
this module is below all of them and imports neither them nor the package
top (``balance/__init__.py`` takes its ``__version__`` from here).
"""
from __future__ import annotations

import json
import os

import numpy as np
import pandas as pd

from .outdir import require_complete

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


ROW_GROUP = 1 << 18      # rows per Parquet row group (save)


def arrow_table(cols: dict, meta: str):
    """A pyarrow Table of the columns ``cols`` ({name: 1-D array or
    pd.Categorical}; categoricals become dictionary columns, which pandas
    reads back as categoricals), with the run description ``meta`` (JSON)
    under the schema metadata key ``balance``. Each column is one contiguous
    copy of its array (a strided view of the record block is gathered)."""
    import pyarrow as pa
    arrays = {}
    for name, v in cols.items():
        if isinstance(v, pd.Categorical):
            arrays[name] = pa.DictionaryArray.from_arrays(
                pa.array(np.asarray(v.codes)), pa.array(list(map(str, v.categories))))
        else:
            arrays[name] = pa.array(np.ascontiguousarray(v))
    table = pa.table(arrays)
    return table.replace_schema_metadata({b"balance": meta.encode()})


def write_parquet(path, cols: dict, meta: str, rows: int = ROW_GROUP) -> None:
    """Write the table of columns ``cols`` (as :func:`arrow_table`) to the
    Parquet file ``path``, one row group of ``rows`` rows at a time: the
    columns are gathered and encoded a row group at a time, into buffers
    that each next group reuses, instead of one copy of the whole table.
    On a machine whose fresh memory is slow to touch (this project's: about
    3 ms per MiB of pages the process has not touched before), the copy of
    a 1,000,000-game talisman seats table cost more than its encoding."""
    import pyarrow.parquet as pq
    n = len(next(iter(cols.values())))
    writer = None
    try:
        for a in range(0, max(n, 1), rows):
            t = arrow_table({k: v[a:a + rows] for k, v in cols.items()}, meta)
            if writer is None:
                writer = pq.ParquetWriter(path, t.schema, **encodings(cols))
            writer.write_table(t, row_group_size=rows)
    finally:
        if writer is not None:
            writer.close()


DICT_SAMPLE, DICT_MAX = 1 << 14, 1 << 10    # a dictionary column: at most 1,024 distinct
                                            # values in a file's first 16,384 rows (encodings)


def encodings(cols: dict) -> dict:
    """The Parquet writer's per-column encodings for the table of columns
    ``cols`` (as :func:`arrow_table` takes): the ``game`` column
    (consecutive game numbers) delta-encoded; a dictionary for a
    categorical and for a column with at most :data:`DICT_MAX` distinct
    values in its first :data:`DICT_SAMPLE` rows; plain (snappy) for the
    rest, such as the kind bitmasks.
    pyarrow's default tries a dictionary for every column and drops it for
    a column once the dictionary passes 1 MB, after the hashing is spent:
    a 1,000,000-game talisman seats file took 0.45 s to write, 0.27 s with
    these (36 MB against 49 MB). The values read back are the same."""
    dictionary = [k for k, v in cols.items()
                  if k != "game" and (isinstance(v, pd.Categorical)
                                      or len(np.unique(v[:DICT_SAMPLE])) <= DICT_MAX)]
    out = {"use_dictionary": dictionary}
    if "game" in cols:
        out["column_encoding"] = {"game": "DELTA_BINARY_PACKED"}
    return out



def load(out: str | os.PathLike) -> dict:
    """The tables a run saved into ``out``: {"games", "seats", "cards"
    (DataFrames), "summary" (dict)}. A folder without its COMPLETE marker (an
    interrupted save, or not a run's folder) is refused."""
    out = require_complete(out)
    return {"games": pd.read_parquet(out / "games.parquet"),
            "seats": pd.read_parquet(out / "seats.parquet"),
            "cards": pd.read_csv(out / "cards.csv"),
            "summary": json.loads((out / "summary.json").read_text())}
