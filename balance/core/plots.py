"""Plot helpers: each takes data and a matplotlib Axes and draws on it.

The Agg backend is selected on import so that figures render headless (in
tests, CI and reports), except inside a notebook whose inline backend is
already active. Every helper that draws a rate also draws its
interval.
"""
from __future__ import annotations

import matplotlib

if "inline" not in matplotlib.get_backend():
    matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def axis_scale(values) -> str:
    """'log' when positive values span two decades or more, 'symlog' when
    they also include 0, else 'linear'."""
    v = np.asarray([float(x) for x in values], dtype=float)
    pos = v[v > 0]
    if pos.size >= 2 and pos.max() / pos.min() >= 100 and (v >= 0).all():
        return "log" if pos.size == v.size else "symlog"
    return "linear"


def percent_text(rate: float) -> str:
    """A rate as percent with the precision it was given: 0.375 -> '37.5%',
    0.5 -> '50%' (``:.0%`` would round 37.5% to 38%)."""
    return f"{round(float(rate) * 100, 10):g}%"


def set_scale(ax, values) -> str:
    scale = axis_scale(values)
    if scale == "log":
        ax.set_xscale("log")
    elif scale == "symlog":
        pos = [float(x) for x in values if float(x) > 0]
        ax.set_xscale("symlog", linthresh=min(pos))
    return scale


def rate_band(ax, x, rate, low, high, label=None, color=None, marker="o"):
    """A win-rate curve with its interval as a shaded band."""
    x = np.asarray(x, dtype=float)
    line, = ax.plot(x, rate, marker=marker, label=label, color=color, lw=1.5, ms=4)
    ax.fill_between(x, low, high, color=line.get_color(), alpha=0.2, lw=0)
    return line


def sweep_axes(ax, df, x: str, series: str = "key", target: float | None = None,
               title: str | None = None, interval_name: str = "95% Wilson", prefix: str = "",
               crossing=None, fair=None):
    """Win rate (percent) against ``x`` for each value of ``series`` in a
    tidy table with columns win_rate, ci_low, ci_high, the legend beside the
    panel (``LEGEND_WIDTH`` inches on its right); the target line, the
    crossing (estimate and its interval) and the fair share when given:
    ``fair`` a number (one line) or a Series indexed by ``x`` (the fair share
    at each point: the mean of the rates shown there, which moves when a
    parameter raises every rate at once, as shared wins do)."""
    for name, sub in df.groupby(series, sort=True, observed=True):
        sub = sub.sort_values(x)
        rate_band(ax, sub[x], sub["win_rate"], sub["ci_low"], sub["ci_high"], label=f"{prefix}{name}")
    set_scale(ax, df[x].unique())
    if target is not None:
        ax.axhline(target, color="k", ls=":", lw=1,
                   label=f"target {percent_text(target)}")
    if fair is not None and np.ndim(fair) == 0:
        ax.axhline(fair, color="grey", ls="--", lw=0.8, label=f"fair share {fair:.1%}")
    elif fair is not None and len(fair):
        f = fair.sort_index()
        ax.plot(np.asarray(f.index, dtype=float), f.to_numpy(float), color="grey", ls="--",
                lw=0.9, label="fair share (mean of the rates shown)")
    if crossing is not None:
        est, lo, hi = crossing
        ax.axvspan(lo, hi, color="orange", alpha=0.2, lw=0)
        ax.axvline(est, color="orange", lw=1.2, label=f"crossing {est:.4g} [{lo:.4g}, {hi:.4g}]")
    ax.yaxis.set_major_formatter(percent_formatter())
    ax.set_xlabel(x)
    ax.set_ylabel(f"win rate ({interval_name} band)")
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    # beside the panel, never over a curve (the caller leaves room: LEGEND_WIDTH)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    return ax


LEGEND_WIDTH = 2.4     # inches a sweep panel's legend takes beside it


def ranked_bars(ax, labels, value, low, high, significant=None, xlabel="change in win rate"):
    """Horizontal bars ranked as given (first on top) with interval whiskers;
    significant bars are drawn dark."""
    n = len(labels)
    y = np.arange(n)[::-1]
    value, low, high = (np.asarray(v, dtype=float) for v in (value, low, high))
    sig = np.zeros(n, bool) if significant is None else np.asarray(significant, bool)
    colors = np.where(sig, "#1f4e79", "#9dc3e6")
    ax.barh(y, value, color=colors,
            xerr=[np.nan_to_num(value - low), np.nan_to_num(high - value)],
            error_kw={"lw": 0.8, "capsize": 1.5})
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=6 if n > 30 else 8)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    return ax


def percent_formatter():
    """Axis labels of rates as percent (0.25 -> 25%)."""
    from matplotlib.ticker import PercentFormatter
    return PercentFormatter(1.0, decimals=0)


def points_formatter():
    """Axis labels of rate differences as signed points (0.02 -> +2), with
    as many decimals as the tick step needs (half-point ticks read -0.5,
    +0.5, not -0 and +0)."""
    from matplotlib.ticker import Formatter

    class Points(Formatter):
        ticks = ()

        def set_locs(self, locs):
            self.ticks = tuple(locs)

        def __call__(self, v, pos=None):
            locs = np.asarray(self.ticks, dtype=float) * 100
            step = np.min(np.diff(np.sort(locs))) if locs.size > 1 else 1.0
            digits = 0 if step <= 0 else int(min(3, max(0, np.ceil(-np.log10(step) - 1e-9))))
            if abs(v * 100) < 0.5 * 10 ** -digits:
                return "0"
            return f"{v * 100:+.{digits}f}"
    return Points()


def fit_text(text: str, width_in: float, fontsize: float = 9) -> str:
    """``text`` with each line wrapped to fit ``width_in`` inches at
    ``fontsize`` (about 0.55 em a character), so a title is never clipped."""
    import textwrap
    n = max(20, int(width_in * 72 / (0.55 * fontsize)))
    return "\n".join(textwrap.fill(line, n, break_on_hyphens=False) or line
                     for line in text.split("\n"))


def suptitle(fig, text: str, fontsize: float = 9):
    """A figure title wrapped to the figure's width (see :func:`fit_text`)."""
    return fig.suptitle(fit_text(text, fig.get_figwidth() * 0.95, fontsize), fontsize=fontsize)


def axes_title(ax, text: str, fontsize: float = 8):
    """An axes title wrapped to the figure's width."""
    return ax.set_title(fit_text(text, ax.figure.get_figwidth() * 0.95, fontsize),
                        fontsize=fontsize)


def describe(ruleset: str, setup: dict, games: int) -> str:
    """A figure title's first line: ruleset, version, players, policies, games."""
    pols = ", ".join(dict.fromkeys(setup.get("policies", [])))
    return (f"{ruleset} v{setup.get('version', '?')}, {setup.get('players', '?')} players, "
            f"{pols}, {games:,} games")


def heatmap(ax, matrix, labels, low=None, high=None, title=None):
    """Matchup matrix: each cell shows the row policy's share of games won
    against the column policy, with its interval; the colour is the row's
    advantage (its share minus the column's, in points), centred at 0, so
    that shared wins (both sides won: zombies, teams) do not tint a cell."""
    m = np.asarray(matrix, dtype=float)
    adv = (m - m.T) * 100
    lim = max(float(np.nanmax(np.abs(adv))) if np.isfinite(adv).any() else 0.0, 5.0)
    im = ax.imshow(adv, vmin=-lim, vmax=lim, cmap="RdBu_r")
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if np.isnan(m[i, j]):
                continue
            txt = f"{m[i, j]:.1%}"
            if low is not None and high is not None:
                txt += f"\n[{low[i][j]:.1%}, {high[i][j]:.1%}]"
            ax.text(j, i, txt, ha="center", va="center", fontsize=7,
                    color="white" if abs(adv[i, j]) > 0.6 * lim else "black")
    ax.set_xlabel("opponent policy")
    ax.set_ylabel("policy (row's share of games won)")
    if title:
        axes_title(ax, title, fontsize=9)
    plt.colorbar(im, ax=ax, fraction=0.046, label="row advantage (points)")
    return ax


def rate_bars(ax, df, title=None, fair=None):
    """Win rates of a rate table (index = key) with Wilson whiskers."""
    keys = [str(k) for k in df.index]
    x = np.arange(len(keys))
    r = df["win_rate"].to_numpy(float)
    ax.bar(x, r, color="#4a7ebb",
           yerr=[r - df["ci_low"].to_numpy(float), df["ci_high"].to_numpy(float) - r],
           capsize=3)
    ax.set_xticks(x)
    ax.set_xticklabels(keys)
    ax.yaxis.set_major_formatter(percent_formatter())
    if fair is not None:
        ax.axhline(fair, color="grey", ls="--", lw=0.8, label=f"fair share {fair:.1%}")
        ax.legend(fontsize=7)
    ax.set_ylabel("win rate (95% Wilson)")
    if title:
        ax.set_title(title, fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    return ax


def length_hist(ax, turns, capped=None, title=None, weights=None):
    """Histogram of game lengths in turns (``weights``: how many games had
    each of the lengths ``turns``, as a ``--summary-only`` run counts them)."""
    t = np.asarray(turns)
    bins = min(80, max(10, int(t.max() - t.min() + 1))) if t.size else 10
    ax.hist(t, bins=bins, color="#4a7ebb", weights=weights)
    ax.set_xlabel("game length (turns)")
    ax.set_ylabel("games")
    if title:
        ax.set_title(title, fontsize=9)
    return ax


def save(fig, path, dpi: int = 110):
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


def figure(w=6.4, h=4.0, nrows=1, ncols=1, sharey=False):
    """A figure and its 2-D array of axes; ``sharey`` gives panels one y-axis,
    so that a grid of panels compares at a glance."""
    return plt.subplots(nrows, ncols, figsize=(w, h), squeeze=False, sharey=sharey)
