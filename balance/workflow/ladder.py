"""The skill ladder: how the balance figures depend on how well the game is
played.

A round robin of policies (random, greedy, the ruleset's other heuristics
and ``search`` at several budgets), every pair played with seats rotated on
the same deals (``matchups``), gives per pair a score: the share of games
the first policy's side won alone, plus half of the games neither or both
sides won. A Bradley-Terry model fitted to these scores (maximum
likelihood, Newton's method) rates every policy on one scale, anchored at
``random`` = 0 and printed as Elo points (400 / ln 10 per logit); the
intervals are Wald intervals from the observed information, counting every
game of a pair as one comparison. They are approximate (games of the
rotations of one deal are not independent), and the head-to-head
advantages beside them carry the paired intervals of ``matchups``.

The **skill depth** is the number of steps up the ladder, with the
policies in order of rating, where a policy beats the one below it head to
head with 95% confidence (its advantage interval is above 0): a game in
which more skill keeps winning has a deep ladder; one where luck decides
has a shallow one (after Ludii's skill trace).

A policy's budget is what ``core.search.budget`` says: the rollouts it
plays per decision (search policies), 0 for the heuristics; the figure
draws the rating against it.
"""
from __future__ import annotations

import json
import math
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from matplotlib.ticker import NullLocator
import pandas as pd

from ..core import plots, registry, stats
from ..core.outdir import Published
from ..core import search
from .matchups import matchups
from .outcome import text_table
from .sums import Sink

ELO = 400 / math.log(10)

METHOD = ("Bradley-Terry ratings fitted by maximum likelihood to each pair's score (sole wins "
          "plus half of the games neither or both sides won), seats rotated on the same deals; "
          "Wald 95% intervals from the observed information; anchored at random = 0 Elo")
DEPTH_METHOD = ("skill depth: steps up the ladder (policies in rating order) where a policy "
                "beats the one below head to head with 95% confidence")


def bradley_terry(names: list[str], pairs: list[tuple[str, str, float, int]],
                  anchor: str) -> pd.DataFrame:
    """Ratings (logits) and standard errors of ``names`` from ``pairs`` of
    (a, b, score of a against b in [0, 1], games), with ``anchor`` at 0."""
    k = len(names)
    ix = {n: i for i, n in enumerate(names)}
    free = [i for i in range(k) if names[i] != anchor]
    r = np.zeros(k)
    for _ in range(100):
        g = np.zeros(k)
        H = np.zeros((k, k))
        for a, b, s, n in pairs:
            i, j = ix[a], ix[b]
            p = 1 / (1 + math.exp(-(r[i] - r[j])))
            g[i] += n * (s - p)
            g[j] -= n * (s - p)
            w = n * p * (1 - p)
            H[i, i] += w
            H[j, j] += w
            H[i, j] -= w
            H[j, i] -= w
        Hf = H[np.ix_(free, free)]
        try:
            step = np.linalg.solve(Hf, g[free])
        except np.linalg.LinAlgError:
            break
        step = np.clip(step, -2, 2)                 # a policy that never loses: keep finite
        r[free] += step
        r = np.clip(r, -15, 15)
        if np.max(np.abs(step)) < 1e-10:
            break
    se = np.zeros(k)
    try:
        cov = np.linalg.inv(H[np.ix_(free, free)])
        se[free] = np.sqrt(np.maximum(np.diag(cov), 0))
    except np.linalg.LinAlgError:
        se[free] = np.nan
    return pd.DataFrame({"policy": names, "rating": r, "se": se})


@dataclass
class LadderResult(Published):
    ruleset: str
    setup: dict
    games: int
    ratings: pd.DataFrame          # one row per policy, best first
    pairs: pd.DataFrame            # the matchups table
    depth: int
    chain: list                    # [(lower, higher, beats)] in rating order
    files: list = field(default_factory=list)
    command: str = ""              # the balance ladder line that regenerates it

    def figure(self):
        fig, axes = plots.figure(6.4, 3.8)
        ax = axes[0][0]
        t = self.ratings
        s = t[t["budget"] > 0].sort_values("budget")
        h = t[t["budget"] == 0]
        if len(s):
            ax.errorbar(s["budget"], s["elo"], yerr=[s["elo"] - s["elo_low"],
                                                     s["elo_high"] - s["elo"]],
                        fmt="o-", capsize=3, label="search")
            for x, y, name in zip(s["budget"], s["elo"], s["policy"]):
                ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)
            ax.set_xscale("log")
            ticks = sorted(int(b) for b in s["budget"].unique())      # the budgets, plainly
            ax.set_xticks(ticks, [f"{b:,}" for b in ticks])
            ax.xaxis.set_minor_locator(NullLocator())
        for i, row in enumerate(h.itertuples()):
            ax.axhline(row.elo, color=f"C{i + 1}", lw=1, ls="--", label=row.policy)
            ax.axhspan(row.elo_low, row.elo_high, color=f"C{i + 1}", alpha=0.12)
        ax.set_xlabel("search budget (rollouts per candidate action, log scale)" if len(s)
                      else "no search policy in this ruleset")
        ax.set_ylabel("rating (Elo, random = 0), 95% interval")
        plots.axes_title(ax, plots.describe(self.ruleset, self.setup, self.games)
                         + f" per lineup\nskill ladder: depth {self.depth}", fontsize=8)
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "ladder.csv", out / "ladder_pairs.csv"]
        self.ratings.to_csv(files[0], index=False)
        self.pairs.to_csv(files[1], index=False)
        files.append(plots.save(self.figure(), out / "ladder.png"))
        files.append(out / "ladder.json")
        files[-1].write_text(json.dumps({
            "setup": self.setup, "games_per_lineup": self.games, "depth": self.depth,
            "chain": [{"lower": a, "higher": b, "beats": bool(x)} for a, b, x in self.chain],
            "ratings": self.ratings.to_dict("records"), "method": METHOD,
            "depth_method": DEPTH_METHOD, "command": self.command}, indent=2, default=str))
        files.append(out / "ladder.md")
        files[-1].write_text(f"# Skill ladder: {self.ruleset}\n\n```\n" + "\n".join(self.lines())
                             + f"\n```\n\nRegenerate with:\n\n```\n{self.command}\n```\n")
        self.files = files
        return files

    def lines(self) -> list[str]:
        s = self.setup
        out = [f"ladder {self.ruleset}: {len(self.ratings)} policies, {s['players']} players, "
               f"seats rotated, {self.games:,} games per lineup on seed {s['seed']}",
               "rating (Elo, random = 0, 95% interval), best first:"]
        rows = [[r.policy, f"{r.budget:,}" if r.budget else "-",
                 f"{r.elo:+.0f} [{r.elo_low:+.0f}, {r.elo_high:+.0f}]"]
                for r in self.ratings.itertuples()]
        out += text_table(["policy", "budget", "rating"], rows, right={1, 2})
        steps = ", ".join(f"{b} {'>' if x else '~'} {a}" for a, b, x in self.chain)
        out.append(f"skill depth {self.depth} of {len(self.chain)} steps ({steps}; "
                   f"'>' beats the one below with 95% confidence)")
        out.append(f"method: {METHOD}; {DEPTH_METHOD}")
        return out


def command_line(ruleset, policies, games, seed, players, params, out, sink) -> str:
    """The ``balance ladder`` line of these arguments."""
    parts = ["balance", "ladder", ruleset]
    if policies:
        parts += ["--policies", policies if isinstance(policies, str) else ",".join(policies)]
    parts += ["--games", str(games), "--seed", str(seed), "--players", str(players)]
    for k, v in (params or {}).items():
        parts += ["--set", f"{k}={v}"]
    if not sink.tables:
        parts.append("--summary-only")
    if out is not None:
        parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def ladder(ruleset: str, policies=None, games: int = 2_000, seed: int = 0, players=None,
           params: dict | None = None, *, out=None, progress: bool | None = None,
           store=None, summary_only: bool = False) -> LadderResult:
    """The skill ladder of ``policies`` (default: all of the ruleset's); see
    the module doc."""
    spec = registry.get(ruleset)
    sink = Sink.of(summary_only)
    asked = policies
    if policies is None or len(policies) == 0:
        from ..core.search import YARDSTICKS    # search levels included, an oracle not
        policies = [p for p in spec.policies if p not in YARDSTICKS]
    m = matchups(ruleset, policies, games, seed, players, params, progress=progress,
                 store=store if store is not None else (Path(out) / ".points" if out else None),
                 sink=sink)
    names = list(m.policies)
    t = m.table
    pairs = []
    for r in t.itertuples():
        if names.index(r.policy) < names.index(r.opponent):
            tie = 1 - r.sole_win_rate - r.opponent_sole_win_rate
            pairs.append((r.policy, r.opponent, r.sole_win_rate + tie / 2, int(r.games)))
    anchor = "random" if "random" in names else names[0]
    bt = bradley_terry(names, pairs, anchor)
    values = spec.space.resolve(dict(params or {}))
    bt["budget"] = [search.budget(values, p) for p in names]
    bt["elo"] = bt["rating"] * ELO
    bt["elo_low"] = (bt["rating"] - stats.Z95 * bt["se"]) * ELO
    bt["elo_high"] = (bt["rating"] + stats.Z95 * bt["se"]) * ELO
    bt = bt.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    order = list(bt["policy"])[::-1]                 # worst first
    adv = t.set_index(["policy", "opponent"])["advantage_low"]
    chain = [(a, b, bool(adv.loc[(b, a)] > 0)) for a, b in zip(order, order[1:])]
    res = LadderResult(ruleset, m.setup, games, bt, t, sum(x for _, _, x in chain), chain,
                       command=command_line(ruleset, asked, games, seed, m.setup["players"],
                                            params, out, sink))
    if out is not None:
        res.save(out)
    return res
