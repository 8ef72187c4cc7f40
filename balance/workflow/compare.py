"""Two variants on the same seeds: paired differences with intervals.

Variant A and variant B play games [0, n) of the same seed, so game i of A
and game i of B start from the same deal wherever their decks agree. Every
difference (B - A) is estimated from the per-game pairs
(``stats.paired_ratio_diff``: mean of the per-game paired differences, with
a delta-method normal interval when a group's seat count varies by game) and
is shown next to the interval an unpaired comparison of the same games
would give (Newcombe's hybrid score interval for win rates, Welch for
means), with the ratio of the two widths.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, stats, summary
from ..core.stats import points as pp
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.paired import fix_games, pair_sums, paired_means, paired_rates, part, sum_key
from ..core.summary import shares_wins
from ..core.setup import check_count, setup
from ..core.store import PointStore
from ..core.params import parse_assignments
from . import adaptive
from .outcome import Outcome, Pieces, text_table
from .sums import Sink


def parse_variant(items, option: str = "--a") -> dict:
    """[``KEY=VALUE``, ...] or a dict -> dict; a key given twice with two
    values is an error (``option`` names the variant in it)."""
    if items is None:
        return {}
    if isinstance(items, dict):
        return dict(items)
    if isinstance(items, str):
        items = [items]
    return parse_assignments(items, option)


@dataclass
class CompareResult(Published):
    ruleset: str
    a: dict
    b: dict
    setup_a: dict
    setup_b: dict
    games: int
    rates: pd.DataFrame
    length: pd.DataFrame
    cards: pd.DataFrame
    precision: dict | None = None
    files: list = field(default_factory=list)

    @property
    def narrowing(self) -> dict:
        """How much narrower the paired intervals are than unpaired ones."""
        r = self.rates["width_ratio"].replace([np.inf, -np.inf], np.nan).dropna()
        med = float(r.median()) if len(r) else np.nan
        return {"median_width_ratio": med,
                "percent_narrower": (1 - med) * 100 if np.isfinite(med) else np.nan,
                "equivalent_unpaired_games_factor": 1 / med ** 2 if med and np.isfinite(med) else np.nan}

    def figure(self):
        df = self.rates
        fig, axes = plots.figure(7.0, 0.35 * len(df) + 1.5)
        ax = axes[0][0]
        labels = [f"{g} {k}" for g, k in zip(df["group"], df["key"])]
        y = np.arange(len(df))[::-1]
        ax.errorbar(df["diff"], y + 0.15, xerr=[df["diff"] - df["paired_low"],
                                                 df["paired_high"] - df["diff"]],
                    fmt="o", ms=4, capsize=3, label="paired (same seeds)")
        ax.errorbar(df["diff"], y - 0.15, xerr=[df["diff"] - df["unpaired_low"],
                                                 df["unpaired_high"] - df["diff"]],
                    fmt="s", ms=3, capsize=3, color="grey", label="unpaired (Newcombe)")
        ax.set_yticks(y)
        ax.set_yticklabels(labels, fontsize=8)
        ax.axvline(0, color="k", lw=0.8)
        ax.set_xlabel("win rate B - A, points (95% interval)")
        ax.xaxis.set_major_formatter(plots.points_formatter())
        fa = ", ".join(f"{k}={v}" for k, v in self.a.items()) or "defaults"
        fb = ", ".join(f"{k}={v}" for k, v in self.b.items()) or "defaults"
        plots.axes_title(ax, plots.describe(self.ruleset, self.setup_a, self.games)
                         + f"\nA [{fa}] vs B [{fb}]", fontsize=8)
        ax.legend(fontsize=7)
        ax.grid(axis="x", alpha=0.3)
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = []
        for name, df in (("compare_rates", self.rates), ("compare_length", self.length),
                         ("compare_cards", self.cards)):
            files.append(out / f"{name}.csv")
            df.to_csv(files[-1], index=False)
        files.append(plots.save(self.figure(), out / "compare.png"))
        files.append(out / "compare.json")
        files[-1].write_text(json.dumps({
            "a": self.a, "b": self.b, "setup_a": self.setup_a, "setup_b": self.setup_b,
            "games": self.games, "precision": self.precision, "narrowing": self.narrowing,
            "paired_method": stats.PAIRED_METHOD, "unpaired_method": stats.UNPAIRED_METHOD},
            indent=2, default=str))
        self.files = files
        return files

    def lines(self) -> list[str]:
        fa = ", ".join(f"{k}={v}" for k, v in self.a.items()) or "defaults"
        fb = ", ".join(f"{k}={v}" for k, v in self.b.items()) or "defaults"
        s = self.setup_a
        out = [f"compare {self.ruleset}: A [{fa}] vs B [{fb}], {self.games:,} games each on "
               f"seed {s['seed']} (paired game by game), {s['players']} players, "
               f"policies {', '.join(s['policies'])}",
               "win rate B - A in points: paired 95% interval vs unpaired (width ratio):"]
        shared = "sole_a" in self.rates
        if shared:
            sh = self.length.set_index("metric").loc["shared_win_rate"]
            out.insert(1, f"wins can be shared in this ruleset: {sh.a:.2%} of A's games and "
                          f"{sh.b:.2%} of B's had several winners; a win rate counts a shared "
                          f"win fully, 'sole' is the rate of winning alone")
        header = ["group", "key", "A", "B", "diff", "paired 95%", "unpaired 95%", "width"]
        rows = []
        for r in self.rates.itertuples():
            rows.append([r.group, str(r.key), f"{r.rate_a:.2%}", f"{r.rate_b:.2%}",
                         f"{pp(r.diff)} points", f"[{pp(r.paired_low)}, {pp(r.paired_high)}]",
                         f"[{pp(r.unpaired_low)}, {pp(r.unpaired_high)}]", _ratio(r.width_ratio)])
            if shared:
                rows.append(["", "sole", f"{r.sole_a:.2%}", f"{r.sole_b:.2%}",
                             f"{pp(r.sole_diff)} points",
                             f"[{pp(r.sole_low)}, {pp(r.sole_high)}]", "", ""])
        for r in self.length.itertuples():
            if r.unit == "points":
                rows.append(["game", r.metric, f"{r.a:.2%}", f"{r.b:.2%}", f"{pp(r.diff)} points",
                             f"[{pp(r.paired_low)}, {pp(r.paired_high)}]",
                             f"[{pp(r.unpaired_low)}, {pp(r.unpaired_high)}]",
                             _ratio(r.width_ratio)])
            else:
                rows.append(["game", r.metric, f"{r.a:.4g}", f"{r.b:.4g}",
                             f"{r.diff:+.4g} {r.unit}", f"[{r.paired_low:+.4g}, {r.paired_high:+.4g}]",
                             f"[{r.unpaired_low:+.4g}, {r.unpaired_high:+.4g}]",
                             _ratio(r.width_ratio)])
        out += text_table(header, rows, right={2, 3, 4, 7})
        nr = self.narrowing
        out.append(f"pairing: the paired intervals are {nr['percent_narrower']:.0f}% narrower than "
                   f"unpaired ones (median width ratio {nr['median_width_ratio']:.2f}; as precise "
                   f"as {nr['equivalent_unpaired_games_factor']:.1f}x the games unpaired)")
        c = self.cards.dropna(subset=["played_diff"])
        if len(c):
            top = c.reindex(c["played_diff"].abs().sort_values(ascending=False).index).head(5)
            out.append("card kinds whose play share changed most (B - A, points of the share "
                       "of seat-games that played it): " + ", ".join(
                           f"{r.kind} {pp(r.played_diff)} [{pp(r.played_low)}, {pp(r.played_high)}]"
                           for r in top.itertuples()))
        out.append(f"method: {stats.PAIRED_METHOD}; unpaired: {stats.UNPAIRED_METHOD}")
        return out


def _ratio(x) -> str:
    return f"{x:.2f}" if np.isfinite(x) else "-"


def compare_sums(sa, sb, ba, bb) -> dict:
    """The sums of games [a, b) of both variants (Batches ``ba``, ``bb`` of
    the same games) that compare's tables need: per group the moment matrix
    of [wins B, seats B, wins A, seats A] (and of sole wins), per length
    metric that of [B, A], per card kind the paired moments of the seats
    that played it, and each variant's own ``summary.reduce`` for the
    observational card columns."""
    from ..core.tally import paired_kind_moments
    d = pair_sums(Outcome.from_batch(sa, ba), Outcome.from_batch(sb, bb))
    kinds, ia, ib = _kinds(sa, sb)
    d["cards"] = paired_kind_moments(np.ascontiguousarray(ba.masks),
                                     np.ascontiguousarray(bb.masks), 1, ia, ib)
    for tag, s, b in (("a", sa, ba), ("b", sb, bb)):
        for k, v in summary.reduce(s.spec, s.values, b).items():
            d[sum_key(tag, k)] = v
    return d


def _kinds(sa, sb):
    """The card kinds of A and B in order, and each one's index in A and in
    B (-1: not a kind of that variant)."""
    ka = sa.spec.card_kinds(sa.values)
    kb = sb.spec.card_kinds(sb.values)
    kinds = list(dict.fromkeys(ka + kb))
    ia = np.array([ka.index(k) if k in ka else -1 for k in kinds], np.int64)
    ib = np.array([kb.index(k) if k in kb else -1 for k in kinds], np.int64)
    return kinds, ia, ib


def _rates(agg: dict, shared: bool) -> pd.DataFrame:
    """Per seat, policy and role: win rates of A and B and the paired
    difference; where wins can be shared also the sole-win rates (the seat
    was the only winner) and their paired difference."""
    n = int(agg["n"])
    rows = []
    for g, k, G, (d, lo, hi, se) in paired_rates(agg):
        kb, nb, ka, na = (int(x) for x in G[0, 1:5])
        _, ulo, uhi = stats.newcombe_diff(kb, nb, ka, na)
        rows.append({"group": g, "key": k, "rate_a": ka / na, "rate_b": kb / nb,
                     "diff": d, "paired_low": lo, "paired_high": hi,
                     "unpaired_low": float(ulo), "unpaired_high": float(uhi),
                     "width_ratio": (hi - lo) / (uhi - ulo) if uhi > ulo and hi > lo else np.nan,
                     "p_value": float(stats.z_pvalue(d, se))})
        if shared:
            S = fix_games(agg[sum_key("sole", g, k)], n)
            sd, slo, shi, _ = stats.paired_ratio_diff_g(S)
            rows[-1].update({"sole_a": int(S[0, 3]) / na, "sole_b": int(S[0, 1]) / nb,
                             "sole_diff": sd, "sole_low": slo, "sole_high": shi})
    return pd.DataFrame(rows)


def _length(agg: dict) -> pd.DataFrame:
    rows = []
    units = {"turns_mean": "turns", "rounds_mean": "rounds"}
    for name, (G, a, b, (d, lo, hi, _)) in paired_means(agg).items():
        _, ulo, uhi, _ = stats.mean_diff_g(G, paired=False)
        rows.append({"metric": name, "unit": units.get(name, "points"),
                     "a": a, "b": b, "diff": d,
                     "paired_low": lo, "paired_high": hi, "unpaired_low": ulo,
                     "unpaired_high": uhi,
                     "width_ratio": (hi - lo) / (uhi - ulo) if uhi > ulo and hi > lo else np.nan})
    return pd.DataFrame(rows)


def _cards(sa, sb, agg: dict) -> pd.DataFrame:
    """Per card kind: share of seat-games that played it (paired by game),
    and the observational win rate when played, in A and in B."""
    out = []
    kinds, ia, ib = _kinds(sa, sb)
    P = sa.n_players
    n = int(agg["n"])
    M = agg["cards"]
    ca = summary.Summary(sa, part(agg, "a"), 0).cards.set_index("kind")
    cb = summary.Summary(sb, part(agg, "b"), 0).cards.set_index("kind")
    for j, kind in enumerate(kinds):
        row = {"kind": kind}
        row["played_a"] = int(M[0, j]) / n / P if ia[j] >= 0 else np.nan
        row["played_b"] = int(M[1, j]) / n / P if ib[j] >= 0 else np.nan
        if ia[j] >= 0 and ib[j] >= 0:
            G = np.array([[n, M[1, j], M[0, j]], [M[1, j], M[3, j], M[4, j]],
                          [M[0, j], M[4, j], M[2, j]]], np.int64)
            d, lo, hi, _ = stats.mean_diff_g(G, paired=True, scale=P)
        else:
            d = lo = hi = np.nan
        row.update({"played_diff": d, "played_low": lo, "played_high": hi})
        for tag, c in (("a", ca), ("b", cb)):
            for col in ("wr_played", "improvement_played", "improvement_played_low",
                        "improvement_played_high"):
                row[f"{col}_{tag}"] = c.at[kind, col] if kind in c.index else np.nan
        out.append(row)
    return pd.DataFrame(out)


def compare(ruleset: str, a, b, games: int = 10_000, seed: int = 0, players=None,
            policies=None, params: dict | None = None, *, precision: float | None = None,
            max_games: int | None = None, out=None, progress: bool | None = None,
            summary_only: bool = False, sink: Sink | None = None) -> CompareResult:
    """Play variants ``a`` and ``b`` (parameter overrides on top of
    ``params``) on the same seeds and report paired differences B - A.

    >>> r = compare("talisman", {"hp": 20}, {"hp": 25}, games=50_000, seed=1,
    ...             policies=["greedy", "random"])
    >>> r.rates, r.length, r.cards, r.narrowing

    Every figure is a function of sums over games (``compare_sums``);
    ``summary_only`` plays the games in pieces of bounded memory, reduced
    as they finish, with the same tables.
    """
    a, b = parse_variant(a, "--a"), parse_variant(b, "--b")
    if not a and not b:
        raise BalanceError("compare needs at least one --a or --b KEY=VALUE")
    params = dict(params or {})
    sa = setup(ruleset, seed=seed, players=players, policies=policies, params={**params, **a})
    sb = setup(ruleset, seed=seed, players=players, policies=policies, params={**params, **b})
    if sa.values == sb.values:
        raise BalanceError("variants A and B have the same parameters: nothing to compare")
    games = check_count("games", games)
    eps, mg = adaptive.check_precision(precision, max_games)
    shared = shares_wins(sa.spec)
    store = PointStore(None)
    sink = sink or Sink.of(summary_only)
    pieces = Pieces(store, games * 2, "game", f"compare {ruleset}", progress)   # sums' pieces

    def play(x, y):
        return sink.sums(store, "compare-sums", [sa, sb], x, y,
                         lambda view: compare_sums(sa, sb, view(0), view(1)), pieces,
                         labels=["A", "B"], views=["batch", "batch"], progress=progress)

    def width(agg):
        r = _rates(agg, shared)
        return float(np.nanmax(stats.half_width(r["diff"], r["paired_low"], r["paired_high"])))

    info = None
    try:
        if eps is None:
            agg = play(0, games)
        else:
            agg, info = adaptive.until_precise(play, summary.merge, width, eps, games, mg)
    finally:
        pieces.close()
    res = CompareResult(ruleset, a, b, sa.describe(), sb.describe(), int(agg["n"]),
                        _rates(agg, shared), _length(agg), _cards(sa, sb, agg), info)
    if out is not None:
        res.save(out)
    return res
