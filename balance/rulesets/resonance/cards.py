"""The magic-card table: data a designer may replace (``--cards FILE``).

A table is a CSV file, or a TOML file with one ``[[card]]`` table per card,
with the columns of ``magic_cards.csv`` (the default, the contract's
reconstruction): ``id, name, pts, base_r, base_g, base_b, over_r, over_g,
over_b, normal, overdraft, use``. ``normal`` and ``overdraft`` are
``EFFECT n`` with EFFECT one of GAIN, LOSE, DRAW, DISCARD, HIT; ``use`` is
``PEEK n``, ``DISSOLVE n`` or ``DRAW n``. Every problem is one
``BalanceError`` line naming the row, the column and what is allowed.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

from ...core.errors import BalanceError
from ...core.spec import DataTable
from .layout import (EFFECTS, M_BASE, M_NEFF, M_OEFF, M_OVER, M_PTS, M_UEFF, N_MAGIC, NM,
                     USES)

DEFAULT = Path(__file__).with_name("magic_cards.csv")
COLUMNS = ("id", "name", "pts", "base_r", "base_g", "base_b", "over_r", "over_g", "over_b",
           "normal", "overdraft", "use")
RECONSTRUCTION = ("the default magic-card table is a reconstruction (the seed prints no "
                  "cards): its statistics measure that table, not the published game")


def _rows(path: Path) -> pd.DataFrame:
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            import tomllib
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            cards = data.get("card")
            if not isinstance(cards, list):
                raise BalanceError(f"{path}: a TOML card table needs [[card]] tables "
                                   f"(one per magic card)")
            return pd.DataFrame(cards)
        return pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except BalanceError:
        raise
    except Exception as e:     # unreadable file: one line
        raise BalanceError(f"{path}: cannot read the magic-card table: "
                           f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def _int(where, value, lo=0) -> int:
    s = str(value).strip()
    if not (s.lstrip("+-").isdigit() and s.isascii()):
        raise BalanceError(f"{where}: {value!r} is not a whole number (allowed: a whole "
                           f"number >= {lo})")
    v = int(s)
    if v < lo:
        raise BalanceError(f"{where}: {v} is below {lo} (allowed: a whole number >= {lo})")
    return v


def _effect(where, value, names) -> tuple[int, int]:
    parts = str(value).split()
    if len(parts) != 2 or parts[0].upper() not in names:
        raise BalanceError(f"{where}: {value!r} is not an effect (allowed: "
                           f"{', '.join(n + ' n' for n in names)})")
    return names.index(parts[0].upper()), _int(where, parts[1], 0)


def parse(df: pd.DataFrame, source: str) -> np.ndarray:
    """int64[N_MAGIC, NM] from the table's rows, or one BalanceError line."""
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        has = ", ".join(str(c) for c in df.columns) or "none"
        raise BalanceError(f"{source}: missing column(s) {', '.join(missing)}; the file has "
                           f"column(s) {has}")
    if len(df) != N_MAGIC:
        raise BalanceError(f"{source}: {len(df)} magic cards, the game has {N_MAGIC} "
                           f"(one row per card)")
    M = np.zeros((N_MAGIC, NM), np.int64)
    ids = []
    for i, row in enumerate(df.to_dict("records")):
        at = f"{source}: row {i + 1} (id {row['id']})"
        ids.append(_int(f"{at}, column id", row["id"], 1))
        M[i, M_PTS] = _int(f"{at}, column pts", row["pts"], 0)
        for c, col in enumerate("rgb"):
            M[i, M_BASE + c] = _int(f"{at}, column base_{col}", row[f"base_{col}"], 0)
            M[i, M_OVER + c] = _int(f"{at}, column over_{col}", row[f"over_{col}"], 0)
            if M[i, M_OVER + c] < M[i, M_BASE + c]:
                raise BalanceError(f"{at}, column over_{col}: overdraft requirement "
                                   f"{M[i, M_OVER + c]} is below the base requirement "
                                   f"{M[i, M_BASE + c]} (allowed: >= base_{col})")
        M[i, M_NEFF:M_NEFF + 2] = _effect(f"{at}, column normal", row["normal"], EFFECTS)
        M[i, M_OEFF:M_OEFF + 2] = _effect(f"{at}, column overdraft", row["overdraft"], EFFECTS)
        M[i, M_UEFF:M_UEFF + 2] = _effect(f"{at}, column use", row["use"], USES)
    if sorted(ids) != list(range(1, N_MAGIC + 1)):
        raise BalanceError(f"{source}: column id must number the cards 1..{N_MAGIC} once each "
                           f"(got {sorted(ids)})")
    order = np.argsort(ids)
    return np.ascontiguousarray(M[order])


def load_cards(path=None) -> DataTable:
    """The magic-card table at ``path`` (CSV or TOML), else the default."""
    p = Path(path) if path is not None else DEFAULT
    if not p.is_file():
        raise BalanceError(f"{p}: no such magic-card table")
    df = _rows(p)
    M = parse(df, str(p) if path is not None else p.name)
    df = df.assign(id=df["id"].astype(str).str.strip().astype(int)).sort_values("id")
    return DataTable(arrays=(M,), source=str(path) if path is not None else "default",
                     digest=hashlib.sha256(p.read_bytes()).hexdigest(),
                     rows=df.reset_index(drop=True)[list(COLUMNS)])


def names(table: DataTable) -> list[str]:
    return [str(n) for n in table.rows["name"]]
