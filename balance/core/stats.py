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


def rate_table(df: pd.DataFrame, by: str, won: str = "won", sole: str = "sole_win") -> pd.DataFrame:
    """Win rate per value of ``by`` with 95% Wilson intervals. Where the
    table has a ``sole`` column (rulesets whose wins can be shared: teams,
    zombies, houses), the sole-win rate (the seat's side was the only
    only winning seat) follows with its own interval."""
    g = df.groupby(by, sort=True)[won].agg(["sum", "count"])
    lo, hi = wilson(g["sum"], g["count"])
    out = pd.DataFrame({"games": g["count"].astype(int), "wins": g["sum"].astype(int),
                        "win_rate": g["sum"] / g["count"], "ci_low": lo, "ci_high": hi},
                       index=g.index)
    if sole in df:
        k = df.groupby(by, sort=True)[sole].sum().astype(int)
        slo, shi = wilson(k, g["count"])
        out["sole_wins"] = k
        out["sole_win_rate"] = k / g["count"]
        out["sole_ci_low"], out["sole_ci_high"] = slo, shi
    return out


def share_fair_of(rates: pd.DataFrame, column: str = "win_rate") -> float:
    """The fair share: the mean of the seats' win rates ((1 - draws) /
    players when one seat wins a game; more where wins are shared), the
    baseline a seat, role or policy of average strength reaches. ``column``:
    another rate to average (``sole_win_rate``: the fair share of winning
    alone)."""
    return float(rates[column].mean())


def points(diff, digits: int = 2) -> str:
    """A difference of two rates in percentage points: 0.0123 -> '+1.23'."""
    return "n/a" if diff is None or not np.isfinite(diff) else f"{diff * 100:+.{digits}f}"


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


# --- designer workflow: paired differences, crossings, multiple testing -----

PAIRED_METHOD = ("paired per-game differences (same seed, same game index), "
                 "normal interval with delta-method variance of the ratio estimator")
UNPAIRED_METHOD = "Newcombe hybrid score interval (independent samples)"


def half_width(p, lo, hi):
    """Largest distance from the estimate to either end of its interval."""
    p, lo, hi = (np.asarray(x, dtype=float) for x in (p, lo, hi))
    return np.maximum(hi - p, p - lo)


def gram(*cols) -> np.ndarray:
    """The moment matrix X^T X of the columns X = [1, cols...] over games:
    ``G[0, 0]`` the number of games, ``G[0, 1:]`` the column sums, ``G[1:, 1:]``
    the sums of products. Integer columns give an exact int64 matrix, so the
    matrices of pieces of games add up to that of all of them in any order
    (``--summary-only`` and cluster pieces); every paired interval below is a
    function of it alone, so a run reduced piece by piece gives the same
    figures as one that kept every game."""
    X = np.column_stack([np.ones(len(np.asarray(cols[0])), np.int64)]
                        + [np.asarray(c) for c in cols])
    if X.dtype.kind == "b":
        X = X.astype(np.int64)
    if X.dtype.kind in "iub":
        X = X.astype(np.int64)
        return X.T @ X
    X = X.astype(float)
    return X.T @ X


def lin_se(G, alpha) -> float:
    """Standard error of the mean of the per-game linear combination
    z_i = alpha . x_i, from the moment matrix ``G`` of the x columns
    (sample variance with ddof=1)."""
    G = np.asarray(G)
    m = int(G[0, 0])
    if m < 2:
        return np.nan
    a = np.asarray(alpha, dtype=float)
    s = float(a @ G[0, 1:].astype(float))
    ss = float(a @ G[1:, 1:].astype(float) @ a)
    var = max(ss - s * s / m, 0.0) / (m - 1)
    return float(np.sqrt(var / m))


def ratio_mean_g(G):
    """``ratio_mean`` from the moment matrix of the columns [w, n]."""
    G = np.asarray(G)
    m, W, N = int(G[0, 0]), float(G[0, 1]), float(G[0, 2])
    if m == 0 or N == 0:
        return np.nan, np.nan, np.nan, np.nan
    r = W / N
    se = lin_se(G, np.array([1.0, -r]) / (N / m))
    return r, r - Z95 * se, r + Z95 * se, se


def paired_ratio_diff_g(G):
    """``paired_ratio_diff`` from the moment matrix of [wa, na, wb, nb]."""
    G = np.asarray(G)
    m = int(G[0, 0])
    Wa, Na, Wb, Nb = (float(x) for x in G[0, 1:5])
    if m < 2 or Na == 0 or Nb == 0:
        return np.nan, np.nan, np.nan, np.nan
    ra, rb = Wa / Na, Wb / Nb
    se = lin_se(G, np.array([1.0, -ra, 0.0, 0.0]) / (Na / m)
                - np.array([0.0, 0.0, 1.0, -rb]) / (Nb / m))
    d = ra - rb
    return d, d - Z95 * se, d + Z95 * se, se


def mean_diff_g(G, paired: bool, scale: float = 1.0):
    """``mean_diff_ci`` of columns a - b from their moment matrix [a, b];
    ``scale`` divides both columns (a share of seats: counts / players)."""
    G = np.asarray(G)
    m = int(G[0, 0])
    if m == 0:
        return np.nan, np.nan, np.nan, np.nan
    mean = (float(G[0, 1]) - float(G[0, 2])) / m / scale
    if paired:
        se = lin_se(G, np.array([1.0, -1.0]) / scale)
    else:
        se = float(np.sqrt(lin_se(G, np.array([1.0, 0.0]) / scale) ** 2
                           + lin_se(G, np.array([0.0, 1.0]) / scale) ** 2)) if m > 1 else np.nan
    return mean, mean - Z95 * se, mean + Z95 * se, se


def ratio_mean(w, n):
    """Ratio estimator sum(w)/sum(n) over games with a delta-method normal
    95% interval; ``w``/``n`` are per-game numerators/denominators (e.g. wins
    and seat count of one policy in each game). Returns (estimate, low, high,
    standard error)."""
    if np.asarray(w).size == 0:
        return np.nan, np.nan, np.nan, np.nan
    return ratio_mean_g(gram(w, n))


def paired_ratio_diff(wa, na, wb, nb):
    """Paired difference of two ratio estimators over the same games.

    Per game i, ``wa[i]/na[i]`` (variant A) and ``wb[i]/nb[i]`` (variant B)
    are the wins and seat-games of one group (seat, role, policy, ...). The
    difference R_A - R_B of the pooled ratios gets the variance of the per-game
    linearised differences z_i = (wa_i - R_A na_i)/mean(na) - (wb_i - R_B nb_i)/mean(nb)
    (delta method), so the pairing of game i with game i is used. When every
    game counts the same seats (a seat, a policy) this is exactly the mean of
    the per-game paired differences of the win indicators with its normal
    interval. Computed from the moment matrix (``gram``), as a run reduced
    piece by piece computes it. Returns (difference, low, high, standard error)."""
    if np.asarray(wa).size == 0:
        return np.nan, np.nan, np.nan, np.nan
    return paired_ratio_diff_g(gram(wa, na, wb, nb))


def mean_diff_ci(a, b, paired: bool):
    """Difference of means a - b (e.g. game lengths) with a normal 95%
    interval: paired (per-game differences) or unpaired (Welch; both samples
    the same games here). Returns (difference, low, high, standard error)."""
    if np.asarray(a).size == 0:
        return np.nan, np.nan, np.nan, np.nan
    return mean_diff_g(gram(a, b), paired)


def z_pvalue(estimate, se):
    """Two-sided normal p-value of estimate / se; se == 0 gives p = 1 when the
    estimate is 0 (no change at all) and 0 otherwise."""
    from scipy.stats import norm
    est = np.asarray(estimate, dtype=float)
    se = np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, est / np.where(se > 0, se, 1.0),
                     np.where(est == 0, 0.0, np.inf))
    p = 2 * norm.sf(np.abs(z))
    return np.where(np.isnan(est), np.nan, p)


CORRECTIONS = {"holm": ("holm", "Holm step-down (family-wise error rate 5%)"),
               "bh": ("fdr_bh", "Benjamini-Hochberg (false discovery rate 5%)")}


def adjust_pvalues(p, method: str = "holm", alpha: float = 0.05):
    """(reject, adjusted p) after a multiple-comparison correction with
    statsmodels.stats.multitest.multipletests; NaN p-values are left out."""
    from statsmodels.stats.multitest import multipletests
    p = np.asarray(p, dtype=float)
    reject = np.zeros(p.shape, bool)
    adj = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        r, a, _, _ = multipletests(p[ok], alpha=alpha, method=CORRECTIONS[method][0])
        reject[ok], adj[ok] = r, a
    return reject, adj


def crossing_method(scale: str) -> str:
    """How :func:`crossing` estimates, in the words of the axis the figure
    uses (``plots.axis_scale``): interpolation in log10 of the value only on
    a logarithmic axis."""
    how = {"log": "in log10 of the value, as on the figure's logarithmic axis",
           "symlog": "in the value itself: the grid holds 0, so the figure's axis is "
                     "symmetric-log, linear near 0",
           "linear": "in the value, as on the figure's linear axis"}[scale]
    return (f"linear interpolation of the win-rate curve between swept points ({how}); "
            f"interval from where the pointwise 95% interval band crosses the target")


def _first_crossing(x, y, target):
    """x where the piecewise-linear curve (x, y) first reaches ``target``, or
    None when it does not."""
    for i in range(len(x) - 1):
        y0, y1 = y[i] - target, y[i + 1] - target
        if np.isnan(y0) or np.isnan(y1):
            continue
        if y0 == 0:
            return x[i]
        if y0 * y1 < 0 or y1 == 0:
            return x[i] + (x[i + 1] - x[i]) * (-y0) / (y1 - y0)
    return None


def crossing(values, rate, low, high, target: float, scale: str = "linear") -> dict:
    """Parameter value at which a win rate crosses ``target``.

    ``values`` sorted ascending with the win rate and its interval at each.
    The estimate interpolates the curve; the interval is the range of values
    where the interval band contains the target, i.e. where the upper and the
    lower band curves cross it (an end left open is reported as the end of
    the swept range with ``open_low``/``open_high`` set). When the curve does
    not reach the target, ``bracketed`` is False and nothing is estimated.
    ``scale`` is the figure's axis (``plots.axis_scale``): on "log" the curve
    is interpolated in log10 of the values.
    """
    log = scale == "log"
    x = np.asarray(values, dtype=float)
    y, lo, hi = (np.asarray(v, dtype=float) for v in (rate, low, high))
    order = np.argsort(x)
    x, y, lo, hi = x[order], y[order], lo[order], hi[order]
    tx = np.log10(x) if log else x
    back = (lambda t: float(10 ** t)) if log else float
    out = {"target": target, "bracketed": False, "estimate": np.nan, "ci_low": np.nan,
           "ci_high": np.nan, "open_low": False, "open_high": False,
           "rate_min": float(np.nanmin(y)) if y.size else np.nan,
           "rate_max": float(np.nanmax(y)) if y.size else np.nan,
           "method": crossing_method(scale)}
    if x.size < 2:
        return out
    est = _first_crossing(tx, y, target)
    if est is None:
        return out
    out["bracketed"] = True
    out["estimate"] = back(est)
    # values where the band contains the target, on a fine grid of the curve
    grid = np.linspace(tx[0], tx[-1], 2001)
    glo, ghi = np.interp(grid, tx, lo), np.interp(grid, tx, hi)
    inside = (glo <= target) & (ghi >= target)
    # the connected run of `inside` around the estimate
    j = int(np.clip(np.searchsorted(grid, est), 0, grid.size - 1))
    if not inside[j]:
        inside[j] = True
    a = j
    while a > 0 and inside[a - 1]:
        a -= 1
    b = j
    while b < grid.size - 1 and inside[b + 1]:
        b += 1
    out["ci_low"], out["ci_high"] = back(grid[a]), back(grid[b])
    out["open_low"], out["open_high"] = a == 0 and inside[0], b == grid.size - 1 and inside[-1]
    return out


def log_axis(values) -> bool:
    """True when positive values span at least two decades (e.g. 1 ... 10,000)."""
    v = np.asarray([float(x) for x in values], dtype=float)
    v = v[np.isfinite(v)]
    if v.size < 2 or (v <= 0).any():
        return False
    return v.max() / v.min() >= 100
