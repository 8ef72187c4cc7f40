"""Interventional per-card power: play the same seeds without each card kind.

For every card kind the same games [0, n) of the same seed are played with
that kind removed from the deck (``remove``), or kept in the deck but never
played (``forbid``) where the ruleset does not support removal.

Whose win rate. The figure reported for a kind is the **holders' win-rate
change**: take every seat that drew the kind in the baseline game i (the
kind's holders), and compare that seat's result in baseline game i with the
same seat's result in game i of the variant without the kind (same seed,
same game index). It reads as "players who would have drawn this card win
X points more (or less) when it is gone": a positive change means the card
was hurting its holders, a negative one that it was helping them. This works
the same with one policy for all seats (where the overall win rate of a
policy cannot move) and with mixed policies. With mixed policies the table
also has, per policy, the holders of that policy and the policy's overall
win rate (all its seats, whoever drew the card).

Intervals are paired (``stats.paired_ratio_diff``), p-values two-sided
normal, and the flag ``significant`` holds after a multiple-comparison
correction across all card kinds (Holm by default, or Benjamini-Hochberg;
statsmodels.stats.multitest.multipletests). The observational columns of
``run`` (win rate when drawn or played vs not) sit beside them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats, summary
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.paired import part, sum_key
from ..core.records import mask_bit
from ..core.summary import shares_wins, sole_wins, won_matrix
from ..core.setup import check_count, setup
from ..core.stats import points as pp
from .outcome import Pieces, open_store, text_table
from .sums import Sink

OBS_COLS = ("wr_drawn", "improvement_drawn", "improvement_drawn_low", "improvement_drawn_high",
            "wr_played", "improvement_played", "improvement_played_low",
            "improvement_played_high", "drawn", "played")

WHOSE = ("holders' win-rate change: seats that drew the kind in baseline game i, their result "
         "in game i with the kind removed/forbidden minus their baseline result (same seed)")


@dataclass
class CardsResult(Published):
    ruleset: str
    setup: dict
    games: int
    mode: dict                     # kind -> mode used
    correction: str
    table: pd.DataFrame            # one row per kind (holders), ranked
    groups: pd.DataFrame           # long: kind x group/key
    baseline: object = None        # the baseline's summary.Summary (its observational cards)
    group_names: tuple = ("family", "value")
    files: list = field(default_factory=list)

    @property
    def by_group(self) -> pd.DataFrame:
        return group_power(self.table, self.group_names)

    @property
    def method(self) -> str:
        return (f"{WHOSE}; interval: {stats.PAIRED_METHOD}; significance after "
                f"{stats.CORRECTIONS[self.correction][1]} across {len(self.table)} card kinds "
                f"(statsmodels multipletests)")

    def figure(self):
        t = self.table
        fig, axes = plots.figure(7.0, 0.18 * len(t) + 1.6)
        ax = axes[0][0]
        labels = [f"{k} ({f})" if f else k for k, f in zip(t["kind"], t["play_flag"])]
        plots.ranked_bars(ax, labels, t["power"] / 100, t["power_low"] / 100,
                          t["power_high"] / 100, t["significant"],
                          xlabel="card power, points: how much the card helps whoever holds it "
                          "(95% paired interval)")
        ax.xaxis.set_major_formatter(plots.points_formatter())
        plots.axes_title(ax, plots.describe(self.ruleset, self.setup, self.games) + "\n"
                         f"interventional card power "
                         f"({', '.join(sorted(set(self.mode.values())))}); "
                         f"dark = significant ({self.correction})", fontsize=8)
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "cards_interventional.csv", out / "cards_groups.csv",
                 out / "cards_by_group.csv"]
        self.table.to_csv(files[0], index=False)
        self.groups.to_csv(files[1], index=False)
        self.by_group.to_csv(files[2], index=False)
        files.append(plots.save(self.figure(), out / "cards.png"))
        files.append(out / "cards.json")
        files[-1].write_text(json.dumps({"setup": self.setup, "games": self.games,
                                         "mode": self.mode, "method": self.method},
                                        indent=2, default=str))
        self.files = files
        return files

    def lines(self, top: int = 10) -> list[str]:
        s = self.setup
        t = self.table
        out = [f"cards {self.ruleset}: {len(t)} card kinds x {self.games:,} games on seed "
               f"{s['seed']} ({', '.join(sorted(set(self.mode.values())))}), {s['players']} players, "
               f"policies {', '.join(s['policies'])}",
               f"card power in points (+ helps whoever holds it: minus the holders' win-rate "
               f"change without the kind), strongest first, top {min(top, len(t))}; "
               f"* = significant after {self.correction}:"]
        shared = "sole_base" in t
        if shared:
            out.insert(1, "wins can be shared in this ruleset (several seats win one game): a "
                          "holder's win counts a shared win fully; 'sole' is the holders' rate "
                          "of winning alone, with the kind and without it")
        rows = []
        for r in t.head(top).itertuples():
            rows.append([f"{r.rank}.", r.kind, f"{r.power:+.2f}",
                         f"[{r.power_low:+.2f}, {r.power_high:+.2f}] points"
                         + (" *" if r.significant else ""),
                         f"holders {r.wr_base:.2%} -> {r.wr_ban:.2%} without it"
                         + (f" (sole {r.sole_base:.2%} -> {r.sole_ban:.2%})" if shared else ""),
                         f"n={int(r.holders):,}",
                         f"observational when drawn {pp(r.improvement_drawn)} points",
                         f"[{r.play_flag}]" if r.play_flag else ""])
        out += text_table(["rank", "kind", "power", "95% paired", "holders' win rate", "holders",
                           "", ""], rows, right={0, 2, 5})
        flagged = t[t["play_flag"] != ""]
        if len(flagged):
            out.append(f"never or rarely played by these policies (no effect is not weakness): "
                       f"{', '.join(flagged['kind'])}")
        g = self.by_group
        for name in dict.fromkeys(g["grouping"]):
            sub = g[g["grouping"] == name]
            out.append(f"power by {name} (sum of its kinds, points): " + ", ".join(
                f"{r.group} {r.power_sum:+.1f}" for r in sub.itertuples()))
        n_sig = int(t["significant"].sum())
        out.append(f"{n_sig} of {len(t)} kinds change their holders' win rate significantly")
        out.append(f"method: {self.method}")
        return out


RARE = 0.05       # played in fewer than this share of the draws: flagged "rarely played"


def add_power(t: pd.DataFrame) -> pd.DataFrame:
    """Card power as designers read it: ``power`` in points, positive when
    the card helps whoever holds it (minus the holders' change without it),
    with its interval; the table sorted from strongest to weakest and
    ranked; ``play_flag`` marks kinds the policies never or rarely play
    (plays per draw below RARE), whose "no effect" is not "weak"."""
    t = t.copy()
    t["power"] = -t["change"] * 100
    t["power_low"] = -t["change_high"] * 100
    t["power_high"] = -t["change_low"] * 100
    with np.errstate(invalid="ignore", divide="ignore"):
        t["plays_per_draw"] = np.where(t["drawn"] > 0, t["played"] / np.maximum(t["drawn"], 1),
                                       np.nan)
    t["play_flag"] = np.where(t["played"] == 0, "never played",
                              np.where(t["plays_per_draw"] < RARE, "rarely played", ""))
    t = t.sort_values("power", ascending=False, na_position="last", kind="stable")
    t = t.drop(columns=[c for c in ("rank",) if c in t])
    t.insert(0, "rank", np.arange(1, len(t) + 1))
    return t.reset_index(drop=True)


def kind_groups(kinds, names=("family", "value")) -> dict:
    """{(group name, group): [kinds]}: kinds named FAMILY-VALUE (``spade-A``,
    ``water-5``) fall in their family and their value; any other kind
    (``thunder``, ``big-joker``) is in the group "special"."""
    out = {}
    for k in kinds:
        if "-" in k and not k.endswith("joker"):
            fam, val = k.split("-", 1)
            out.setdefault((names[0], fam), []).append(k)
            out.setdefault((names[1], val), []).append(k)
        else:
            out.setdefault((names[0], "special"), []).append(k)
    return out


def group_power(t: pd.DataFrame, names=("family", "value")) -> pd.DataFrame:
    """Power totals per natural group of kinds (see :func:`kind_groups`):
    the sum and mean of the kinds' power, how many kinds, how many are
    significant and how many are never or rarely played."""
    rows = []
    by = t.set_index("kind")
    for (g, key), ks in kind_groups(list(t["kind"]), names).items():
        sub = by.loc[ks]
        rows.append({"grouping": g, "group": key, "kinds": len(ks),
                     "power_sum": float(sub["power"].sum()),
                     "power_mean": float(sub["power"].mean()),
                     "significant": int(sub["significant"].sum()),
                     "never_or_rarely_played": int((sub["play_flag"] != "").sum())})
    out = pd.DataFrame(rows)
    return out.sort_values(["grouping", "power_sum"], ascending=[True, False]).reset_index(drop=True)


def cards(ruleset: str, games: int = 10_000, seed: int = 0, players=None, policies=None,
          params: dict | None = None, *, mode: str | None = None, correction: str = "holm",
          kinds=None, out=None, progress: bool | None = None, store=None,
          summary_only: bool = False, sink: Sink | None = None) -> CardsResult:
    """Interventional per-card power of every card kind (see module doc).

    >>> r = cards("talisman", games=20_000, seed=1, policies=["greedy"])
    >>> r.table.head()      # ranked by |change|, with observational columns

    Every figure is a function of sums over games (``cards_sums``);
    ``summary_only`` plays the baseline and the bans in pieces of bounded
    memory, reduced as they finish, with the same tables.
    """
    spec = registry.get(ruleset)
    if not spec.ban_modes:
        raise BalanceError(f"{ruleset} supports no card bans: interventional card power "
                           f"is not available")
    if mode is not None and mode not in spec.ban_modes:
        raise BalanceError(f"--mode {mode!r} is not supported by {ruleset} "
                           f"(supported: {', '.join(spec.ban_modes)})")
    if correction not in stats.CORRECTIONS:
        raise BalanceError(f"--correction {correction!r}: choose one of "
                           f"{', '.join(stats.CORRECTIONS)}")
    use = mode or ("remove" if "remove" in spec.ban_modes else spec.ban_modes[0])
    games = check_count("games", games)
    base = setup(ruleset, seed=seed, players=players, policies=policies, params=params)
    all_kinds = spec.card_kinds(base.values)
    if kinds is None:
        kinds = all_kinds
    else:
        kinds = list(kinds)
        for k in kinds:
            if k not in all_kinds:
                setup(ruleset, seed=seed, players=players, policies=policies, params=params,
                      ban={k: use})     # raises the one-line unknown-kind error
    setups = {k: setup(ruleset, seed=seed, players=players, policies=policies, params=params,
                       ban={k: use}) for k in kinds}
    st, own = open_store(store, out)
    sink = sink or Sink.of(summary_only)
    order = [base] + [setups[k] for k in kinds]
    pieces = Pieces(st, sink.total(len(order), games), sink.unit("piece"), f"cards {ruleset}",
                    progress, say_resumed=own)
    try:
        agg = sink.sums(st, "cards-sums", order, 0, games,
                        lambda view: cards_sums(base, setups, kinds, view(0),
                                                lambda k: view(1 + kinds.index(k))),
                        pieces, labels=["baseline"] + list(kinds),
                        views=["batch"] + ["outcome"] * len(kinds), progress=progress, amount=1)
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    rows = _rows(base, kinds, use, agg)
    long = pd.DataFrame(rows)
    long["p_adjusted"] = np.nan
    long["significant"] = False
    for _, idx in long.groupby(["group", "key"]).groups.items():
        rej, adj = stats.adjust_pvalues(long.loc[idx, "p_value"], correction)
        long.loc[idx, "p_adjusted"] = adj
        long.loc[idx, "significant"] = rej
    main = long[(long["group"] == "holders") & (long["key"] == "all")].drop(columns=["group", "key"])
    base_sums = summary.Summary(base, part(agg, "base"), 0)
    obs = base_sums.cards.set_index("kind")[list(OBS_COLS)]
    main = main.join(obs, on="kind")
    main = add_power(main)
    res = CardsResult(ruleset, base.describe(), games, {k: use for k in kinds}, correction,
                      main, long.reset_index(drop=True), base_sums, spec.card_groups)
    if out is not None:
        res.save(out)
    return res


def _groups(base, held):
    """(group, key, seat mask bool[n, P]) of the seats each ban's change is
    measured over: the holders, and with mixed policies the holders of each
    policy and each policy's seats."""
    pol = np.array(base.policies)
    groups = [("holders", "all", held)]
    if len(set(base.policies)) > 1:
        for p in dict.fromkeys(base.policies):
            groups.append(("holders", p, held & (pol == p)[None, :]))
        for p in dict.fromkeys(base.policies):
            groups.append(("policy", p, np.broadcast_to((pol == p)[None, :], held.shape)))
    return groups


def cards_sums(base, setups: dict, kinds, batch0, outcome) -> dict:
    """The sums of one piece of games: the baseline's ``summary.reduce``
    (its observational card columns) and, per banned kind and group, the
    moment matrix of [ban wins, seats, baseline wins, seats] over the
    group's seats of each game, with the sole wins of both. ``outcome(k)``
    gives the Outcome of the ban of kind ``k`` on the baseline's games."""
    all_kinds = base.spec.card_kinds(base.values)
    won0 = won_matrix(base.spec, batch0)
    sole0 = sole_wins(won0)
    d = {sum_key("base", k): v for k, v in summary.reduce(base.spec, base.values, batch0).items()}
    d["n"] = np.array(batch0.n, np.int64)
    shared = shares_wins(base.spec)
    for k in kinds:
        won = outcome(k).won
        sole = sole_wins(won) if shared else None
        held = mask_bit(batch0.masks, 0, all_kinds.index(k))
        for g, key, m in _groups(base, held):
            c = m.sum(axis=1)
            d[sum_key("ban", k, g, key)] = stats.gram((won & m).sum(1), c, (won0 & m).sum(1), c)
            if shared:
                d[sum_key("sole", k, g, key)] = np.array([(sole0 & m).sum(), (sole & m).sum()],
                                                      np.int64)
    return d


def _rows(base, kinds, use, agg) -> list[dict]:
    shared = shares_wins(base.spec)
    rows = []
    for k in kinds:
        for name, G in agg.items():
            if not name.startswith(sum_key("ban", k, "")):
                continue
            g, key = name[len(sum_key("ban", k, "")):].split("|", 1)
            d, lo, hi, se = stats.paired_ratio_diff_g(G)
            n = int(G[0, 2])
            rows.append({"kind": k, "mode": use, "group": g, "key": key, "holders": n,
                         "wr_base": int(G[0, 3]) / n if n else np.nan,
                         "wr_ban": int(G[0, 1]) / n if n else np.nan,
                         "change": d, "change_low": lo, "change_high": hi,
                         "p_value": float(stats.z_pvalue(d, se))})
            if shared:
                so = agg[sum_key("sole", k, g, key)]
                rows[-1]["sole_base"] = int(so[0]) / n if n else np.nan
                rows[-1]["sole_ban"] = int(so[1]) / n if n else np.nan
    return rows
