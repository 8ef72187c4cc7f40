"""Play batches until every reported interval is narrow enough.

``until_precise`` is the loop shared by ``run``, ``sweep`` and ``compare``
with ``--precision EPS``: play a first batch, measure the widest reported
95% interval (its larger half-width), and if it is not below EPS predict the
games still needed from the 1/sqrt(n) law (plus 10%), play them as the next
batch (game indices continue, so batches join into one run of the same
seed), and stop when the widest half-width is below EPS or ``max_games``
games have been played.
"""
from __future__ import annotations

import math
import sys
import time
from typing import Callable

import numpy as np

from ..core import stats
from ..core.errors import BalanceError
from ..core.play import play_range
from ..core.results import Result
from ..core.setup import check_count, setup
from ..core.sinks import sink_class

DEFAULT_MAX_GAMES = 2_000_000


def check_precision(precision, max_games):
    if precision is None:
        return None, None
    try:
        eps = float(precision)
    except (TypeError, ValueError):
        raise BalanceError(f"precision: {precision!r} is not a number") from None
    if not (eps > 0) or not math.isfinite(eps):
        raise BalanceError(f"precision: {precision} must be positive (a half-width such as 0.01)")
    if eps >= 0.5:
        raise BalanceError(f"precision: {eps} must be below 0.5 (a half-width of a win rate)")
    mg = check_count("max-games", DEFAULT_MAX_GAMES if max_games is None else max_games)
    return eps, mg


def until_precise(play: Callable[[int, int], object], merge: Callable[[list], object],
                  width: Callable[[object], float], eps: float, first: int, max_games: int,
                  progress: bool | None = None) -> tuple[object, dict]:
    """Run ``play(start, stop)`` batches until ``width(merged) < eps``.

    Returns the merged object and a dict with games played, batches, the
    widest half-width reached and whether the precision was reached."""
    parts, n, batches = [], 0, 0
    size = max(1, min(first, max_games))
    w = float("inf")
    merged = None
    while True:
        parts.append(play(n, n + size))
        n += size
        batches += 1
        merged = merge(parts) if len(parts) > 1 else parts[0]
        w = float(width(merged))
        reached = w < eps
        if progress:
            print(f"  {n:,} games: widest interval +/-{w:.4f} (target +/-{eps})", file=sys.stderr, flush=True)
        if reached or n >= max_games:
            break
        need = n * (w / eps) ** 2 * 1.1 if np.isfinite(w) else 2 * n
        size = int(min(max_games - n, max(need - n, n * 0.25, 1)))
        size = int(math.ceil(size / 512) * 512) if size >= 512 else size
        size = max(1, min(size, max_games - n))
    return merged, {"games": n, "batches": batches, "widest": w, "precision": eps,
                    "reached": w < eps, "max_games": max_games}


def result_width(r: Result) -> float:
    """Widest half-width of the win-rate intervals ``run`` reports."""
    tabs = [r.by_seat(), r.by_policy()]
    role = r.by_role()
    if role is not None:
        tabs.append(role)
    return max(float(np.nanmax(stats.half_width(t["win_rate"], t["ci_low"], t["ci_high"])))
               for t in tabs)


def run_precise(ruleset: str, precision: float, max_games: int | None = None,
                games: int = 10_000, seed: int = 0, players=None, policies=None,
                params=None, *, ban=None, progress: bool | None = None,
                sink: str = "tables") -> tuple[Result, dict]:
    """``simulate`` until every win-rate interval (by seat, policy, role) is
    narrower than +/-``precision``, or ``max_games`` games were played.
    ``games`` is the size of the first batch. The ``sink`` of the games
    (``core.sinks``): ``"sums"`` keeps only the batches' sums and returns a
    ``summary.Summary``."""
    eps, mg = check_precision(precision, max_games)
    s = setup(ruleset, seed=seed, players=players, policies=policies, params=params, ban=ban)
    first = check_count("games", games)
    t0 = time.perf_counter()
    kind = sink_class(sink)
    kind.check(s, mg)                   # tables may grow to max_games: refuse first
    result, info = until_precise(
        lambda a, b: kind.view(s, play_range(s, a, b, progress=progress, sink=sink), a),
        lambda parts: type(parts[0]).merge(parts), result_width, eps, first, mg)
    result.elapsed = time.perf_counter() - t0
    return result, info


def describe(info: dict) -> str:
    if info["reached"]:
        return (f"precision +/-{info['precision']} reached after {info['games']:,} games "
                f"({info['batches']} batches; widest interval +/-{info['widest']:.4f})")
    return (f"precision +/-{info['precision']} NOT reached: stopped at --max-games "
            f"{info['max_games']:,} games (widest interval +/-{info['widest']:.4f})")
