"""Findings re-checked under skilled play (the report's skill section).

Every headline finding of a report comes from the configured heuristics.
This module plays the same seed again with every seat on the strongest
search level that fits a time budget and marks each finding "holds" or
"changes":

- the largest seat effect, and every role's effect (rulesets with roles):
  is the win rate above, below or within its interval of the fair share?
- each headline sweep's end points: the change of one group's win rate
  from the lowest to the highest swept value (the role the ruleset names in
  ``spec.headline_roles``, else the role whose rate moved most under the
  heuristics, or seat 0, the first seat, in rulesets without roles), with
  Newcombe's interval: up, down or flat? The row also gives that group's
  rates at both ends under the skilled policy.
- the five card kinds with the largest interventional power: does the
  kind help its holders, hurt them, or neither (interval across 0)?

A finding **holds** when both readings fall in the same class; it
**changes** when the classes differ and the two intervals do not overlap;
otherwise it is **unclear** (the classes differ but the intervals overlap:
more games would tell). The policy is
chosen by timing a few games of each search level, strongest first: the
first whose whole section is estimated to fit ``seconds`` is played; if
none fits, the weakest level is played with fewer games (at least
``MIN_GAMES``), and the section says so.
"""
from __future__ import annotations

import time

import pandas as pd

from ..core import registry, stats
from ..core.play import play_range
from ..core.setup import setup
from ..core.search import LEVELS
from ..core.stats import points as pp
from .cards import cards as cards_fn
from .outcome import play_result
from .sweep import sweep as sweep_fn

MIN_GAMES = 200
PROBE_GAMES = 8


def levels(spec) -> list[str]:
    """The ruleset's search levels, strongest first."""
    return [p for p in reversed(list(LEVELS)) if p in spec.policies]


def _class_rate(lo, hi, fair) -> str:
    return "above" if lo > fair else "below" if hi < fair else "even"


def _class_diff(lo, hi) -> str:
    return "up" if lo > 0 else "down" if hi < 0 else "flat"


def verdict(c0: str, c1: str, lo0, hi0, lo1, hi1) -> str:
    """holds (same class), changes (other class, disjoint intervals) or unclear."""
    if c0 == c1:
        return "holds"
    return "changes" if lo1 > hi0 or hi1 < lo0 else "unclear"


def choose(ruleset, seed, players, params, configs: int, games: int, seconds: float,
           threads: int) -> tuple[str | None, int, str]:
    """(policy, games, why): the strongest level whose ``configs`` runs of
    ``games`` games are estimated to take at most ``seconds``."""
    lv = levels(registry.get(ruleset))
    if not lv:
        return None, 0, "this ruleset has no search policy"
    if seconds <= 0:
        return None, 0, "the report was made with --skill-seconds 0"
    est = {}
    for p in lv:
        s = setup(ruleset, seed=seed, players=players, policies=[p], params=params)
        play_range(s, 10**9, 10**9 + 1, progress=False)          # compiled and warm
        t0 = time.perf_counter()
        play_range(s, 10**9, 10**9 + PROBE_GAMES, progress=False)
        est[p] = (time.perf_counter() - t0) / PROBE_GAMES
        need = est[p] * games * configs / max(1, threads)
        if need <= seconds:
            return p, games, (f"`{p}` is the strongest level whose {configs} runs of {games:,} "
                              f"games fit the budget of {seconds:.0f} s (estimated "
                              f"{need:.0f} s from {PROBE_GAMES} timed games)")
    p = lv[-1]
    n = max(MIN_GAMES, int(seconds * max(1, threads) / (est[p] * configs)))
    return p, min(n, games), (f"no level fits {configs} runs of {games:,} games in "
                              f"{seconds:.0f} s; the weakest, `{p}`, is played with "
                              f"{min(n, games):,} games a run")


def recheck(ruleset: str, base, by_seat: pd.DataFrame, by_role, sweeps: dict, cres, *,
            games: int, seconds: float, store, progress=None, threads: int = 2,
            policy: str | None = None) -> dict:
    """The skill section's table (one row per finding) and how its policy
    was chosen; see the module doc."""
    P, seed, params = base.n_players, base.seed, dict(base.values)
    top = [] if cres is None else list(
        cres.table.reindex(cres.table["power"].abs().sort_values(ascending=False).index)
        ["kind"].head(5))
    configs = 1 + 2 * len(sweeps) + (len(top) + 1 if top else 0)
    if policy is None:
        policy, games, why = choose(ruleset, seed, P, params, configs, games, seconds, threads)
    else:
        why = f"`{policy}` as asked"
    if policy is None:
        return {"policy": None, "why": why, "rows": pd.DataFrame()}
    pols = [policy] * P
    rows = []
    sk = setup(ruleset, seed=seed, players=P, policies=pols, params=params)
    main = play_result(sk, 0, games, store, progress=progress, label=f"{policy} main run")

    def fair(t):
        return float(t["win_rate"].mean())
    k_seat = (by_seat["win_rate"] - fair(by_seat)).abs().idxmax()
    skill_seat = main.by_seat()
    for name, t0, t1, keys in [("seat", by_seat, skill_seat, [k_seat])] + (
            [("role", by_role, main.by_role(), list(by_role.index))]
            if by_role is not None and main.by_role() is not None else []):
        for k in keys:
            if k not in t1.index:
                continue
            a, b = t0.loc[k], t1.loc[k]
            ca = _class_rate(a.ci_low, a.ci_high, fair(t0))
            cb = _class_rate(b.ci_low, b.ci_high, fair(t1))
            rows.append({"finding": f"{name} {k} against the fair share",
                         "heuristics": f"{a.win_rate:.1%} [{a.ci_low:.1%}, {a.ci_high:.1%}] "
                                       f"vs {fair(t0):.1%}: {ca}",
                         "skilled": f"{b.win_rate:.1%} [{b.ci_low:.1%}, {b.ci_high:.1%}] "
                                    f"vs {fair(t1):.1%}: {cb}",
                         "verdict": verdict(ca, cb, a.ci_low, a.ci_high, b.ci_low, b.ci_high)})
    for key, sres in sweeps.items():
        t = sres.table
        lo_v, hi_v = t[key].min(), t[key].max()
        grp = "role" if by_role is not None else "seat"
        g = t[t["group"] == grp]
        named = registry.get(ruleset).headline_roles.get(key)
        if grp == "role" and named is not None and named in set(g["key"]):
            gk = named
        elif grp == "role":
            ch = (g[g[key] == hi_v].set_index("key")["win_rate"]
                  - g[g[key] == lo_v].set_index("key")["win_rate"]).abs()
            gk = str(ch.idxmax())
        else:
            gk = "0"
        sw = sweep_fn(ruleset, {key: [lo_v, hi_v]}, games, seed, P, pols, params, store=store,
                      progress=progress)
        out = []
        for tab in (t, sw.table):
            x = tab[(tab["group"] == grp) & (tab["key"] == gk)].set_index(key)
            d, dlo, dhi = stats.newcombe_diff(x.at[hi_v, "wins"], x.at[hi_v, "games"],
                                              x.at[lo_v, "wins"], x.at[lo_v, "games"])
            ends = (f"{x.at[lo_v, 'win_rate']:.1%} [{x.at[lo_v, 'ci_low']:.1%}, "
                    f"{x.at[lo_v, 'ci_high']:.1%}] -> {x.at[hi_v, 'win_rate']:.1%} "
                    f"[{x.at[hi_v, 'ci_low']:.1%}, {x.at[hi_v, 'ci_high']:.1%}]")
            out.append((float(d), float(dlo), float(dhi), ends))
        (d0, l0, h0, e0), (d1, l1, h1, e1) = out
        c0, c1 = _class_diff(l0, h0), _class_diff(l1, h1)
        rows.append({"finding": f"{key} {lo_v} -> {hi_v}: {grp} {gk}'s win rate",
                     "heuristics": f"{e0}, {pp(d0, 1)} [{pp(l0, 1)}, {pp(h0, 1)}] points: {c0}",
                     "skilled": f"{e1}, {pp(d1, 1)} [{pp(l1, 1)}, {pp(h1, 1)}] points: {c1}",
                     "verdict": verdict(c0, c1, l0, h0, l1, h1)})
    if top:
        cr = cards_fn(ruleset, games, seed, P, pols, params, kinds=top, store=store,
                      progress=progress, mode=next(iter(cres.mode.values())))
        t0 = cres.table.set_index("kind")
        t1 = cr.table.set_index("kind")
        for k in top:
            a, b = t0.loc[k], t1.loc[k]
            ca = _class_diff(a.power_low, a.power_high)
            cb = _class_diff(b.power_low, b.power_high)
            word = {"up": "helps its holders", "down": "hurts its holders", "flat": "no effect"}
            rows.append({"finding": f"card {k}'s power",
                         "heuristics": f"{a.power:+.1f} [{a.power_low:+.1f}, "
                                       f"{a.power_high:+.1f}] points: {word[ca]}",
                         "skilled": f"{b.power:+.1f} [{b.power_low:+.1f}, "
                                    f"{b.power_high:+.1f}] points: {word[cb]}",
                         "verdict": verdict(ca, cb, a.power_low, a.power_high, b.power_low,
                                            b.power_high)})
    return {"policy": policy, "games": games, "why": why, "rows": pd.DataFrame(rows),
            "configs": configs,
            "counts": {v: int(sum(r["verdict"] == v for r in rows))
                       for v in ("holds", "changes", "unclear")}}
