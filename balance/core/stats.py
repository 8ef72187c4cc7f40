"""Win rates with intervals, game lengths, per-card power.

Intervals are Wilson score intervals; the interval of a difference of two
independent proportions is Newcombe's hybrid score interval (method 10 of
Newcombe 1998), built from the two Wilson intervals.

The Wilson formula is written out here rather than imported from
statsmodels: importing statsmodels costs about a second and a half, which
would double the start-up time of every `balance run`. The test suite checks
this implementation against ``statsmodels.stats.proportion.proportion_confint``.
statsmodels is still used (imported lazily) for multiple-comparison
corrections.
"""
from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def wilson(k, n, alpha: float = 0.05):
    """(low, high) Wilson score intervals, vectorised; n = 0 gives (nan, nan)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    z = Z95 if alpha == 0.05 else NormalDist().inv_cdf(1 - alpha / 2)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    z2 = z * z
    denom = 1.0 + z2 / safe
    centre = (p + z2 / (2 * safe)) / denom
    half = z * np.sqrt(np.maximum(p * (1 - p) / safe + z2 / (4 * safe * safe), 0.0)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), np.nan)
    hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), np.nan)
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


def card_power(kinds: list[str], seats: dict, n_all: int, w_all: int,
               counts: np.ndarray) -> pd.DataFrame:
    """Observational per-card power.

    ``seats[name]`` for name in ("drawn", "played") is a pair of int arrays
    (n1, k1) over card kinds: how many seat-games drew (played) each kind and
    how many of those won; ``n_all``/``w_all`` are all seat-games and their
    wins. For each kind: the win rate of seats that drew it vs seats that
    never saw it, and their difference ("improvement when drawn"), likewise
    for played vs not played; with 95% intervals. These are correlations,
    not effects: a card that is drawn more in long games, or played by
    players who are already ahead, shows power it may not cause.
    """
    out = {"kind": kinds, "drawn": counts[0], "played": counts[1]}
    for name in ("drawn", "played"):
        n1, k1 = (np.asarray(x, dtype=np.int64) for x in seats[name])
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
