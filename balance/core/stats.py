"""Win rates with intervals, game lengths, per-card power.

Intervals are Wilson score intervals from statsmodels (vectorised); the
interval of a difference of two independent proportions is Newcombe's hybrid
score interval (method 10 of Newcombe 1998), built from the two Wilson
intervals.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from statsmodels.stats.proportion import proportion_confint

Z95 = 1.959963984540054


def wilson(k, n, alpha: float = 0.05):
    """(low, high) Wilson intervals, vectorised; n = 0 gives (nan, nan)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(k, safe, alpha=alpha, method="wilson")
    lo = np.where(n > 0, lo, np.nan)
    hi = np.where(n > 0, hi, np.nan)
    return lo, hi


def rate_table(df: pd.DataFrame, by: str, won: str = "won") -> pd.DataFrame:
    """Win rate per value of ``by`` with 95% Wilson intervals."""
    g = df.groupby(by, sort=True)[won].agg(["sum", "count"])
    lo, hi = wilson(g["sum"], g["count"])
    return pd.DataFrame({"games": g["count"].astype(int), "wins": g["sum"].astype(int),
                         "win_rate": g["sum"] / g["count"], "ci_low": lo, "ci_high": hi},
                        index=g.index)


def newcombe_diff(k1, n1, k2, n2):
    """Difference p1 - p2 with Newcombe's hybrid score 95% interval."""
    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (k1, n1, k2, n2))
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = np.where(n1 > 0, k1 / np.where(n1 > 0, n1, 1), np.nan)
        p2 = np.where(n2 > 0, k2 / np.where(n2 > 0, n2, 1), np.nan)
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def length_stats(turns) -> dict:
    t = np.asarray(turns)
    if t.size == 0:
        return {"mean": float("nan"), "median": float("nan"), "p90": float("nan"), "max": 0}
    return {"mean": float(t.mean()), "median": float(np.median(t)),
            "p90": float(np.percentile(t, 90)), "max": int(t.max())}


def card_power(kinds: list[str], drawn: np.ndarray, played: np.ndarray, won: np.ndarray,
               counts: np.ndarray) -> pd.DataFrame:
    """Observational per-card power.

    ``drawn``/``played``: bool[n_seat_rows, K], whether each seat-game drew /
    played each kind; ``won``: bool[n_seat_rows]. For each kind: the win rate
    of seats that drew it vs seats that never saw it, and their difference
    ("improvement when drawn"), likewise for played vs not played; with 95%
    intervals. These are correlations, not effects: a card that is drawn
    more in long games, or played by players who are already ahead, shows
    power it may not cause.
    """
    won = won.astype(np.int64)
    n_all = won.size
    w_all = int(won.sum())
    out = {"kind": kinds, "drawn": counts[0], "played": counts[1]}
    for name, m in (("drawn", drawn), ("played", played)):
        n1 = m.sum(axis=0)
        k1 = (m & won[:, None].astype(bool)).sum(axis=0)
        n2 = n_all - n1
        k2 = w_all - k1
        lo1, hi1 = wilson(k1, n1)
        d, dlo, dhi = newcombe_diff(k1, n1, k2, n2)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[f"seats_{name}"] = n1
            out[f"wr_{name}"] = np.where(n1 > 0, k1 / np.maximum(n1, 1), np.nan)
            out[f"wr_{name}_low"] = lo1
            out[f"wr_{name}_high"] = hi1
            out[f"wr_not_{name}"] = np.where(n2 > 0, k2 / np.maximum(n2, 1), np.nan)
            out[f"improvement_{name}"] = d
            out[f"improvement_{name}_low"] = dlo
            out[f"improvement_{name}_high"] = dhi
    return pd.DataFrame(out)
