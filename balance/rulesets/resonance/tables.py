"""Resonance's own tables, from the records (no compiled code): per magic
card, per policy score breakdown and resonance figures."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import stats
from .layout import N_MAGIC
from .cards import RECONSTRUCTION, load_cards


def _bits(col: np.ndarray, i: int) -> np.ndarray:
    return ((col.astype(np.int64) >> i) & 1).astype(bool)


def magic_cards(result) -> pd.DataFrame:
    """Per magic card: revealed, chosen when revealed, success and overdraft
    rate when chosen, seats that joined, the acquirer's win rate."""
    g = result.games
    s = result.seats
    data = result.setup.data.get("cards") or load_cards()
    names = [str(n) for n in data.rows["name"]]
    n = len(g)
    won = s["won"].to_numpy().astype(bool)
    owned = s["magic_owned"].to_numpy()
    rows = []
    for i in range(N_MAGIC):
        rev = _bits(g["magic_revealed"].to_numpy(), i)
        cho = _bits(g["magic_chosen"].to_numpy(), i)
        suc = _bits(g["magic_success"].to_numpy(), i)
        ovr = _bits(g["magic_overdraft"].to_numpy(), i)
        joiners = (g["magic_joiners"].to_numpy().astype(np.int64) >> (3 * i)) & 7
        acq = _bits(owned, i)
        k_acq = int((acq & won).sum())
        lo, hi = stats.wilson(k_acq, int(acq.sum()))
        nc = int(cho.sum())
        rows.append({"card": i + 1, "name": names[i],
                     "revealed_rate": rev.sum() / n if n else np.nan,
                     "chosen_when_revealed": nc / rev.sum() if rev.sum() else np.nan,
                     "chosen": nc,
                     "success_rate": suc.sum() / nc if nc else np.nan,
                     "overdraft_rate": ovr.sum() / nc if nc else np.nan,
                     "mean_joiners": joiners[cho].mean() if nc else np.nan,
                     "acquired": int(acq.sum()),
                     "acquirer_win_rate": k_acq / acq.sum() if acq.sum() else np.nan,
                     "acquirer_ci_low": float(lo), "acquirer_ci_high": float(hi)})
    return pd.DataFrame(rows)


def by_policy(result) -> pd.DataFrame:
    """Per policy: score breakdown and resonance figures (means per seat)."""
    s = result.seats
    out = s.groupby("policy", observed=True).agg(
        seats=("seat", "size"), score=("score", "mean"), markers=("markers", "mean"),
        magic_points=("magic_points", "mean"), cards_left=("cards_left", "mean"),
        started=("started", "sum"), succeeded=("succeeded", "sum"),
        overdrafted=("overdrafted", "sum"), joined=("joined", "sum"),
        joined_ok=("joined_ok", "sum"))
    out["start_success_rate"] = out["succeeded"] / out["started"].where(out["started"] > 0)
    out["start_overdraft_rate"] = out["overdrafted"] / out["started"].where(out["started"] > 0)
    out["join_success_rate"] = out["joined_ok"] / out["joined"].where(out["joined"] > 0)
    return out


def summary(result) -> dict:
    g = result.games
    res = int(g["resonances"].sum())
    suc = int(g["successes"].sum())
    ovr = int(g["overdrafts"].sum())
    data = result.setup.data.get("cards")
    mc = magic_cards(result)
    chosen = mc.dropna(subset=["chosen_when_revealed"]).sort_values("chosen_when_revealed")
    bp = by_policy(result)
    return {
        "magic_table": RECONSTRUCTION if data is None or data.source == "default"
        else f"designer's table {data.source}",
        "resonances_per_game": float(g["resonances"].mean()),
        "resonance_success_rate": suc / res if res else float("nan"),
        "resonance_overdraft_rate": ovr / res if res else float("nan"),
        "joiners_per_resonance": float(g["joins"].sum() / res) if res else float("nan"),
        "decisions_per_game": float(g["decisions"].mean()),
        "most_chosen_magic_card": str(chosen.iloc[-1]["name"]) if len(chosen) else "",
        "least_chosen_magic_card": str(chosen.iloc[0]["name"]) if len(chosen) else "",
        "magic_cards": mc.to_dict("records"),
        "score_by_policy": bp.reset_index().to_dict("records"),
    }
