"""Policy matchups with seats rotated.

For each pair of policies (a, b) the lineups are the seat patterns
a,b,a,b,... and b,a,b,a,... each rotated through every seat (duplicates
dropped: 2 players give [a, b] and [b, a]; 3 players give the six lineups
with two of one and one of the other), so both policies hold every seat
equally often. Every lineup plays games [0, n) of the same seed, so each
deal is played once per lineup.

Matrix entry M[a][b] is the share of games won by a seat of policy a across
those lineups; M[a][b] + M[b][a] + draws = 1 + shared wins (a game both sides won, as a
zombie on its master's side in elite v3). Its interval treats deals as
the independent unit (the lineups of one deal share their cards): the mean
over deals of a's share of the deal's games, with a normal interval. Policy
a *dominates* when, against every other policy, a's share minus the
opponent's share has a 95% interval above 0.

Without a list, the policies are the ruleset's but its search levels
(``default_policies``), which take part when named.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats, variants
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.summary import shares_wins
from ..core.setup import check_count, check_players, setup
from .outcome import Pieces, open_store, text_table
from .sums import Sink
from ..core.stats import points as pp

METHOD = ("share of games won over all seat rotations; 95% normal interval on per-deal "
          "means (deals independent, rotations of a deal paired)")


def lineups(a: str, b: str, n: int) -> list[tuple[str, ...]]:
    pats = []
    for first, second in ((a, b), (b, a)):
        base = [first if i % 2 == 0 else second for i in range(n)]
        for r in range(n):
            lu = tuple(base[r:] + base[:r])
            if lu not in pats:
                pats.append(lu)
    return pats


def default_policies(spec) -> list[str]:
    """The default matchup matrix: the ruleset's policies but its search
    levels (``core.search.LEVELS``: a search seat plays hundreds of games in
    its head per move), which take part when named (``balance ladder``
    names them all but a cheating yardstick, ``core.search.YARDSTICKS``)."""
    from ..core.search import is_search
    cheap = [p for p in spec.policies if not is_search(p)]
    return cheap if len(cheap) >= 2 else list(spec.policies)


def parse_policies(spec, policies) -> list[str]:
    if policies is None or len(policies) == 0:
        pols = default_policies(spec)
    else:
        pols = variants.labels(spec, policies)
    if len(pols) < 2:
        raise BalanceError(f"matchups need at least two different policies, got {pols}")
    return pols


@dataclass
class MatchupResult(Published):
    ruleset: str
    policies: list
    setup: dict
    games: int
    table: pd.DataFrame            # long: a, b, win_rate (a's share), ci, b share, draws, adv
    files: list = field(default_factory=list)
    shares_wins: bool = False      # can several seats win one game in this ruleset?

    def matrix(self, col: str = "win_rate") -> pd.DataFrame:
        m = self.table.pivot(index="policy", columns="opponent", values=col)
        return m.reindex(index=self.policies, columns=self.policies)

    @property
    def dominant(self) -> list[str]:
        out = []
        for p in self.policies:
            sub = self.table[self.table["policy"] == p]
            if len(sub) == len(self.policies) - 1 and (sub["advantage_low"] > 0).all():
                out.append(p)
        return out

    def beaten_by_random(self) -> list[str]:
        """Policies that `random` beats head to head (advantage interval
        above 0): a finding about those heuristics."""
        if "random" not in self.policies:
            return []
        t = self.table[(self.table["policy"] == "random") & (self.table["advantage_low"] > 0)]
        return list(t["opponent"])

    def figure(self):
        n = len(self.policies)
        fig, axes = plots.figure(1.6 * n + 3.0, 1.3 * n + 2.2)
        plots.heatmap(axes[0][0], self.matrix().to_numpy(), self.policies,
                      self.matrix("ci_low").to_numpy(), self.matrix("ci_high").to_numpy(),
                      title=plots.describe(self.ruleset, self.setup, self.games)
                      + " per lineup\nmatchups, seats rotated: row's share of games won")
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "matchups.csv", out / "matchups_matrix.csv"]
        self.table.to_csv(files[0], index=False)
        self.matrix().to_csv(files[1])
        files.append(plots.save(self.figure(), out / "matchups.png"))
        files.append(out / "matchups.json")
        files[-1].write_text(json.dumps({"setup": self.setup, "games_per_lineup": self.games,
                                         "policies": self.policies, "dominant": self.dominant,
                                         "method": METHOD}, indent=2, default=str))
        self.files = files
        return files

    def lines(self) -> list[str]:
        s = self.setup
        out = [f"matchups {self.ruleset}: {len(self.policies)} policies, {s['players']} players, "
               f"seats rotated, {self.games:,} games per lineup on seed {s['seed']}",
               "share of games won by the row policy against the column policy (95% interval):"]
        m, lo, hi = self.matrix(), self.matrix("ci_low"), self.matrix("ci_high")
        rows = []
        for p in self.policies:
            rows.append([p] + ["-" if np.isnan(m.at[p, q]) else
                               f"{m.at[p, q]:.1%} [{lo.at[p, q]:.1%}, {hi.at[p, q]:.1%}]"
                               for q in self.policies])
        out += text_table([""] + list(self.policies), rows, right=set(range(1, len(rows) + 1)))
        shared = bool((self.table["shared_win_rate"] > 0).any()) or self.shares_wins
        out.append("advantage of the first policy over the second, head to head: its share "
                   "of games won minus the opponent's, in points (95% interval; 0 = even)"
                   + ("; wins can be shared in this ruleset, so the shares add to more than "
                      "100% and 0, not 50%, is the even mark" if shared else "") + ":")
        rows = []
        for r in self.table.itertuples():
            if self.policies.index(r.policy) > self.policies.index(r.opponent):
                continue
            rows.append([f"{r.policy} vs {r.opponent}", f"{r.win_rate:.1%} vs "
                         f"{r.opponent_win_rate:.1%}",
                         f"{pp(r.advantage)} [{pp(r.advantage_low)}, {pp(r.advantage_high)}] points"]
                        + ([f"{r.sole_win_rate:.1%} vs {r.opponent_sole_win_rate:.1%}",
                            f"{r.shared_win_rate:.1%}"] if shared else [])
                        + [f"{r.draw_rate:.1%}"])
        out += text_table(["pair", "shares won", "advantage"]
                          + (["won alone", "both won"] if shared else []) + ["draws"], rows)
        dom = self.dominant
        out.append(("dominant: " + ", ".join(dom) + " beats every other policy "
                    "(advantage interval above 0 against each)") if dom else
                   "no policy dominates all others")
        out.append(f"method: {METHOD}")
        return out


def matchups(ruleset: str, policies=None, games: int = 10_000, seed: int = 0, players=None,
             params: dict | None = None, *, out=None, progress: bool | None = None,
             store=None, summary_only: bool = False, sink: Sink | None = None
             ) -> MatchupResult:
    """Win-rate matrix of every pair of ``policies`` (default: all of the
    ruleset's), seats rotated; see the module doc for the method."""
    spec = registry.get(ruleset)
    pols = parse_policies(spec, policies)
    n = check_players(spec, players if players is not None else spec.players[0])
    games = check_count("games", games)
    pairs = list(itertools.combinations(pols, 2))
    plan = [(a, b, lu) for a, b in pairs for lu in lineups(a, b, n)]
    setups = [setup(ruleset, seed=seed, players=n, policies=list(lu), params=params)
              for _, _, lu in plan]
    st, own = open_store(store, out)
    sink = sink or Sink.of(summary_only)
    pieces = Pieces(st, sink.total(len(plan), games), sink.unit("lineup"),
                    f"matchups {ruleset}", progress, say_resumed=own)
    try:
        agg = sink.sums(st, "matchup-sums", setups, 0, games,
                        lambda view: matchup_sums(plan, (view(i) for i in range(len(setups)))),
                        pieces, labels=[",".join(lu) for _, _, lu in plan], progress=progress,
                        amount=1)
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    rows = []
    for a, b in pairs:
        G, (draws, both) = agg[f"pair|{a}|{b}"], agg[f"ends|{a}|{b}"]
        L = sum(1 for x, y, _ in plan if (x, y) == (a, b))

        N = games * L
        for p, q, i in ((a, b, 0), (b, a, 1)):
            r = int(G[0, 1 + i]) / N
            se = stats.lin_se(G, np.eye(2)[i] / L)
            d, dlo, dhi, _ = stats.mean_diff_g(G if i == 0 else G[[0, 2, 1]][:, [0, 2, 1]],
                                               paired=True, scale=L)
            y = int(G[0, 2 - i]) / N
            rows.append({"policy": p, "opponent": q, "lineups": L, "games": N,
                         "win_rate": r, "ci_low": max(r - stats.Z95 * se, 0.0),
                         "ci_high": min(r + stats.Z95 * se, 1.0),
                         "opponent_win_rate": y,
                         "draw_rate": int(draws) / N, "shared_win_rate": int(both) / N,
                         "sole_win_rate": r - int(both) / N,
                         "opponent_sole_win_rate": y - int(both) / N,
                         "advantage": d, "advantage_low": dlo, "advantage_high": dhi})
    base = setup(ruleset, seed=seed, players=n, policies=pols[0], params=params).describe()
    base["policies"] = pols
    res = MatchupResult(ruleset, pols, base, games, pd.DataFrame(rows),
                        shares_wins=shares_wins(spec))
    if out is not None:
        res.save(out)
    return res


def matchup_sums(plan, outcomes) -> dict:
    """The sums of one piece of games over every lineup of ``plan`` (one
    Outcome per lineup, same games): per pair of policies the moment matrix
    of [a's wins, b's wins] per game, each summed over the pair's lineups
    (a side wins a game when one of its seats does), and the games where
    neither side won and where both did."""
    acc = {}
    for (a, b, lu), o in zip(plan, outcomes):
        pol = np.array(lu)
        wa = o.won[:, np.flatnonzero(pol == a)].any(axis=1)
        wb = o.won[:, np.flatnonzero(pol == b)].any(axis=1)
        x = acc.setdefault((a, b), [np.zeros(o.n, np.int64), np.zeros(o.n, np.int64), 0, 0])
        x[0] += wa
        x[1] += wb
        x[2] += int((~wa & ~wb).sum())          # draws: counted, never 1 - a - b
        x[3] += int((wa & wb).sum())            # both sides won (shared wins)
    d = {}
    for (a, b), (xa, xb, draws, both) in acc.items():
        d[f"pair|{a}|{b}"] = stats.gram(xa, xb)
        d[f"ends|{a}|{b}"] = np.array([draws, both], np.int64)
    return d
