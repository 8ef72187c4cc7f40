"""Which numbers matter: every rule parameter's sweep values against the
default, on the same seeds.

For each parameter named (default: every declared rule parameter that
declares sweep values; a ruleset may declare groups, ``params="v3"``), each
of its declared sweep values other than the default is played on games
[0, n) of the same seed as the default configuration, so game i of a variant
and game i of the default start from the same deal wherever the decks agree.
Every effect is a paired difference, variant minus default, with its 95%
interval (compare's statistic: ``stats.paired_ratio_diff_g`` for rates,
``stats.mean_diff_g`` for means): on each seat, each role (where the ruleset
has roles), each policy (mixed lineups), the first mover, the draw, capped
and shared-win shares (points) and the mean game length (turns). The
p-values of every effect of every parameter form one family and are
Holm-adjusted together (statsmodels), so "no measurable effect" means no
Holm-significant change on any seat or role.

``rate`` chooses the rate balanced where wins can be shared: ``win`` (a
shared win counts) or ``sole`` (won alone); ``balance.workflow.sweep`` says
when each is the right one, and every answer names the one used.

How the games are played (the sweep's machinery, as ``--summary-only``
plays it): the games are cut in pieces of bounded memory
(``sums.piece_ranges``); for each piece the default is played once and kept
as its compact per-game outcome while each variant plays the same piece and
is reduced, paired with it, to integer sums (moment matrices,
``core.paired.pair_sums``). The sums of each (variant, piece), and the
default's outcome of each piece, are kept in the store (``out/.points``),
keyed by the full configuration and the code fingerprint, so an interrupted
run resumes and a finished one is never played twice; pieces play on a Dask
cluster when one is in use (``play.play_range``). ``precision`` plays each
variant in batches until its widest paired interval is narrower than
+/-EPS (``adaptive.until_precise``).

A ruleset package may declare, beside its ``SPEC``, ``PARAM_GROUPS`` (group
name -> parameter names) and ``PARAM_DIAGNOSTICS`` (parameter -> game
columns whose per-game mean is printed beside its effect: the mechanism,
e.g. elite's reflect deaths beside the reflect multiplier).
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats, summary
from ..core.errors import BalanceError, did_you_mean
from ..core.outdir import Published
from ..core.paired import pair_sums, paired_means, paired_rates, sum_key
from ..core.summary import first_won, shares_wins
from ..core.setup import check_count, setup
from ..core.stats import points as pp
from . import adaptive
from .outcome import Outcome, Pieces, main_group, open_store, say, text_table
from .sums import piece_ranges, play_piece, sums_desc
from .sweep import check_rate, parse_vary, rate_name, resolve_vary

DEFAULT_GAMES = 50_000

# the game-level effects, their units, and how a table names them
GAME_METRICS = {"first_mover_rate": ("points", "first mover"),
                "turns_mean": ("turns", "mean turns"),
                "capped_rate": ("points", "capped"),
                "draw_rate": ("points", "draws"),
                "shared_win_rate": ("points", "shared wins")}

METHOD = (f"paired difference from the default on the same seeds ({stats.PAIRED_METHOD}); "
          f"p-values of every effect of every parameter Holm-adjusted together "
          f"({stats.CORRECTIONS['holm'][1]})")


def declared(spec, name: str) -> dict:
    """A ruleset package's optional declaration beside its SPEC
    (``PARAM_GROUPS``, ``PARAM_DIAGNOSTICS``), checked against its columns
    and parameters; {} when it declares none."""
    import importlib
    mod = importlib.import_module(registry.package(spec.name))
    got = dict(getattr(mod, name, None) or {})
    for k, v in got.items():
        if name == "PARAM_GROUPS":
            bad = [p for p in v if p not in spec.space.infos]
        else:
            bad = ([k] if k not in spec.space.infos else []) + \
                [c for c in v if c not in spec.game_columns]
        if bad:
            raise BalanceError(f"{spec.name}: {name}[{k!r}] names what the ruleset does not "
                               f"declare: {', '.join(map(str, bad))}")
    return got


def parse_names(spec, names) -> list[str] | None:
    """``a,b,c`` (or a list) of parameters and declared groups -> parameter
    names in order, without repeats; None: every rule parameter."""
    if names is None:
        return None
    if isinstance(names, str):
        names = names.split(",")
    items = [str(n).strip() for n in names]
    if not items or any(not n for n in items):
        raise BalanceError(f"--params {','.join(items)!r}: give parameter or group names "
                           f"separated by single commas")
    groups = declared(spec, "PARAM_GROUPS")
    out = []
    for n in items:
        if n in spec.space.infos:
            out.append(n)
        elif n in groups:
            out += list(groups[n])
        else:
            known = list(spec.space.infos) + list(groups)
            raise BalanceError(f"--params: unknown parameter or group {n!r}"
                               f"{did_you_mean(n, known)}"
                               + (f" (groups: {', '.join(groups)})" if groups else "")
                               + " (see `balance params` for the list)")
    return list(dict.fromkeys(out))


@dataclass
class Plan:
    """What a sensitivity run plays: the default, and per parameter its
    values and their setups; the parameters or values left out, and why."""
    base: object                  # setup.Setup of the default
    values: dict                  # name -> [values other than the default]
    setups: dict                  # name -> [Setup per value]
    skipped: list                 # (name, why)
    games: int

    @property
    def n_variants(self) -> int:
        return sum(len(v) for v in self.values.values())

    def line(self, precision=None) -> str:
        n = self.n_variants
        total = (1 + n) * self.games
        return (f"sensitivity {self.base.spec.name}: {_n(len(self.values), 'parameter')}, "
                f"{_n(n, 'value')} "
                f"against the default = {n + 1} configurations x "
                + (f"at least {self.games:,} games (--precision: more where needed)"
                   if precision else f"{self.games:,} games = {total:,} games") + " to play")


def plan(ruleset: str, names=None, games: int = DEFAULT_GAMES, seed: int = 0, players=None,
         policies=None, params: dict | None = None, values: dict | None = None) -> Plan:
    """Validate everything before a game is played: the parameters (names
    and groups), each one's values (``values``: {name: [v, ...]} replaces
    its declared sweep values, checked against its bounds), and each
    variant's configuration."""
    spec = registry.get(ruleset)
    games = check_count("games", games)
    params = dict(params or {})
    base = setup(ruleset, seed=seed, players=players, policies=policies, params=params)
    explicit = parse_names(spec, names)
    given = resolve_vary(spec, values) if values else {}
    chosen = explicit if explicit is not None else \
        [k for k, i in spec.space.infos.items() if i.group == "rule"]
    for k in given:
        if k not in chosen:
            raise BalanceError(f"--values {k}: {k!r} is not among the parameters analysed "
                               f"(add it to --params)")
    out, setups, skipped = {}, {}, []
    version = spec.version(base.values)
    for name in chosen:
        info = spec.space.infos[name]
        default = base.values[name]
        vals = given.get(name, list(info.sweep))
        if not vals:
            skipped.append((name, "declares no sweep values (give some with --values)"))
            continue
        keep, ss = [], []
        for v in vals:
            if v == default:
                continue
            try:
                s = setup(ruleset, seed=seed, players=base.n_players, policies=base.policies,
                          params={**params, name: v})
            except BalanceError as e:
                if name in given:
                    raise
                skipped.append((name, f"{name}={v} is not allowed here ({e})"))
                continue
            if spec.version(s.values) != version and explicit is None:
                skipped.append((name, f"{name}={v} changes the rules version ({version} -> "
                                      f"{spec.version(s.values)}); name it to compare versions"))
                continue
            keep.append(v)
            ss.append(s)
        if keep:
            out[name], setups[name] = keep, ss
        elif not any(n == name for n, _ in skipped):
            skipped.append((name, "its only sweep value is the default"))
    if not out:
        raise BalanceError("sensitivity: no parameter has a value to play against the default"
                           + ("; " + "; ".join(f"{n}: {w}" for n, w in skipped) if skipped
                              else ""))
    return Plan(base, out, setups, skipped, games)


# --- one piece -----------------------------------------------------------------

def _base_arrays(s, a: int, b: int, diag: tuple) -> dict:
    """The default's games [a, b) as stored (``Outcome.arrays``: its first
    mover too where the rules decide it), with the diagnostic game columns
    ``diag`` of each game."""
    batch = play_piece(s, a, b)
    return {**Outcome.from_batch(s, batch).arrays(), **_diag(s, batch, diag)}


def _diag(s, batch, diag: tuple) -> dict:
    return {sum_key("diag", c): batch.games[:, s.spec.game_columns.index(c)] for c in diag}


def _pair(sd, base: dict, sv, a: int, b: int, diag: tuple) -> dict:
    """The paired sums of a variant's games [a, b) against the default's
    (stored by :func:`_base_arrays`): ``core.paired.pair_sums``, and the
    moment matrices of the first mover's win and of the diagnostic columns."""
    od = Outcome.from_arrays(sd, base)
    batch = play_piece(sv, a, b)
    ov = Outcome.from_batch(sv, batch)
    d = pair_sums(od, ov)
    d[sum_key("len", "first_mover_rate")] = stats.gram(first_won(ov.won, ov.first),
                                                      first_won(od.won, od.first))
    for k, x in _diag(sv, batch, diag).items():
        d[k] = stats.gram(x.astype(np.int64), base[k].astype(np.int64))
    return d


# --- the tables ----------------------------------------------------------------

def effects_of(agg: dict, rate: str, groups: set) -> list[dict]:
    """Paired effects of one variant from its sums: per rate group (seat,
    role, policy as in ``groups``) and per game metric."""
    rows = []
    tag = "sole" if rate == "sole" and any(k.startswith("sole|") for k in agg) else "rate"
    for g, k, G, (d, lo, hi, se) in paired_rates(agg, tag):
        if g not in groups:
            continue
        rows.append({"group": g, "key": k, "unit": "points", "base": int(G[0, 3]) / int(G[0, 4]),
                     "at": int(G[0, 1]) / int(G[0, 2]), "diff": d, "low": lo, "high": hi,
                     "se": se})
    lens = paired_means(agg)
    for name, (unit, _) in GAME_METRICS.items():
        if name not in lens:
            continue
        _, base, at, (d, lo, hi, se) = lens[name]
        rows.append({"group": "game", "key": name, "unit": unit, "base": base, "at": at,
                     "diff": d, "low": lo, "high": hi, "se": se})
    return rows


def diagnostics_of(agg: dict) -> list[dict]:
    return [{"column": name, "base": base, "at": at, "diff": d, "low": lo, "high": hi}
            for name, (_, base, at, (d, lo, hi, _)) in paired_means(agg, "diag").items()]


def curve_shape(values, default, diff, low, high) -> str | None:
    """What the curve of one effect against a parameter's values says beyond
    its largest point, from the 95% intervals (the default's effect is 0
    exactly): non-monotone (a peak or dip inside the range, distinguishable
    from both ends), saturating (the values from v on give one effect, the
    values before differ) or a threshold (no change up to v). None when the
    curve has fewer than three points or says neither."""
    pts = sorted(list(zip(values, diff, low, high)) + [(default, 0.0, 0.0, 0.0)],
                 key=lambda t: t[0])
    if len(pts) < 3:
        return None
    v = [p[0] for p in pts]
    d = np.array([p[1] for p in pts], float)
    lo = np.array([p[2] for p in pts], float)
    hi = np.array([p[3] for p in pts], float)

    def differ(i, j):
        return hi[i] < lo[j] or hi[j] < lo[i]

    def flat(ix):
        return all(not differ(i, j) for i in ix for j in ix if i < j)
    n = len(pts)
    out = []
    for idx, word in ((int(np.argmax(d)), "peaks"), (int(np.argmin(d)), "dips")):
        if 0 < idx < n - 1 and differ(idx, 0) and differ(idx, n - 1):
            at = (f"the default, {_fmt(v[idx])}: both ends {'lower' if word == 'peaks' else 'higher'}"
                  if v[idx] == default else
                  f"{_fmt(v[idx])} ({pp(d[idx], 1)} points), both ends differ from it")
            out.append(f"non-monotone: {word} at {at}")
    if out:
        return "; ".join(out)
    # a plateau at either end, entered by a visible step: the point next to
    # it differs from some point of it
    start = next((i for i in range(1, n - 1) if flat(range(i, n))
                  and any(differ(i - 1, k) for k in range(i, n))), None)
    stop = next((i for i in range(n - 2, 0, -1) if flat(range(0, i + 1))
                 and any(differ(i + 1, k) for k in range(i + 1))), None)
    if start is not None and stop is not None and start <= stop:     # overlapping: the longer
        if stop + 1 > n - start:
            start = None
        else:
            stop = None
    if start is not None:
        out.append(f"saturates from {_fmt(v[start])}: {_fmt(v[start])} to {_fmt(v[-1])} give "
                   f"the same effect within their 95% intervals ({pp(d[start:].min(), 1)} to "
                   f"{pp(d[start:].max(), 1)} points)")
    if stop is not None:
        out.append(f"no change from {_fmt(v[0])} to {_fmt(v[stop])} (within their 95% "
                   f"intervals): it starts to matter above {_fmt(v[stop])}")
    return "; ".join(out) or None


def _fmt(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v)).lower()
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    return f"{v:g}"


@dataclass
class SensitivityResult(Published):
    ruleset: str
    base: dict                    # setup description of the default configuration
    values: dict                  # parameter -> values played against the default
    defaults: dict                # parameter -> its value in the default configuration
    effects: pd.DataFrame         # one row per parameter x value x effect
    ranking: pd.DataFrame         # one row per parameter, largest effect first
    diagnostics: pd.DataFrame     # declared game columns per parameter x value
    games: int
    rate: str
    main: str                     # the group ranked: role, policy or seat
    shared: bool
    skipped: list
    command: str
    precision: dict | None = None
    played: int = 0               # games played by this call (the rest reused from the store)
    seconds: float = 0.0          # its wall time
    files: list = field(default_factory=list)

    @property
    def rate_label(self) -> str:
        return rate_name(self.rate, self.shared)

    def _meta(self) -> dict:
        b = self.base
        return {"ruleset": self.ruleset, "version": b["version"], "players": b["players"],
                "policies": ",".join(b["policies"]), "seed": b["seed"],
                "base_params": json.dumps(self._changed(), sort_keys=True, default=str),
                "rate": self.rate_label}

    def _changed(self) -> dict:
        """The default configuration's parameters that differ from the declared defaults."""
        spec = registry.get(self.ruleset)
        return {k: v for k, v in self.base["params"].items() if spec.space.infos[k].default != v}

    def _key(self, r) -> str:
        """A ranking row's key, its group named where it is not the ranked one."""
        return str(r.key) if r.group == self.main else f"{r.group} {r.key}"

    def inert(self) -> pd.DataFrame:
        return self.ranking[~self.ranking["significant"]]

    def figure(self):
        """The tornado chart: one row per parameter (largest effect on top), per
        key of the ranked group a bar to its largest effect over the values,
        with its 95% interval; dark where Holm-significant."""
        rk = self.ranking
        e = ranked_effects(self.effects, self.main)
        keys = list(dict.fromkeys(zip(e["group"], e["key"])))
        n, k = len(rk), max(1, len(keys))
        fig, axes = plots.figure(8.0 + plots.LEGEND_WIDTH, 0.32 * n * max(1.0, k / 2.5) + 1.8)
        ax = axes[0][0]
        h = 0.8 / k
        cmap = plots.plt.get_cmap("tab10")
        for j, (group, key) in enumerate(keys):
            ys, xs, los, his, sig = [], [], [], [], []
            for i, p in enumerate(rk["parameter"]):
                sub = e[(e["parameter"] == p) & (e["group"] == group) & (e["key"] == key)]
                if sub.empty:
                    continue
                r = sub.loc[sub["diff"].abs().idxmax()]
                ys.append(n - 1 - i + 0.4 - h * (j + 0.5))
                xs.append(r["diff"])
                los.append(r["low"])
                his.append(r["high"])
                sig.append(bool(r["significant"]))
            xs, los, his = (np.array(a, float) for a in (xs, los, his))
            color = cmap(j % 10)
            ax.barh(ys, xs, height=h * 0.9, color=[color if s else (*color[:3], 0.35)
                                                   for s in sig],
                    xerr=[np.nan_to_num(xs - los), np.nan_to_num(his - xs)],
                    error_kw={"lw": 0.7, "capsize": 1.5}, label=f"{group} {key}")
        ax.set_yticks(np.arange(n)[::-1])
        ax.set_yticklabels([f"{p} ({_fmt(v)})" for p, v in zip(rk["parameter"], rk["value"])],
                           fontsize=7 if n > 20 else 8)
        ax.set_ylim(-0.6, n - 0.4)
        ax.axvline(0, color="k", lw=0.8)
        ax.xaxis.set_major_formatter(plots.points_formatter())
        ax.set_xlabel(f"largest change in {self.rate_label} vs the default, points (95% "
                      f"paired interval; faint: not Holm-significant)")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
        plots.suptitle(fig, plots.describe(self.ruleset, self.base, self.games)
                       + f" per value, seed {self.base['seed']}, parameters: "
                       + (", ".join(f"{k}={v}" for k, v in self._changed().items())
                          or "the declared defaults")
                       + f"\nsensitivity: each parameter's "
                       f"largest effect per {self.main} (label: the value giving the largest)")
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        meta = self._meta()
        files = [out / "sensitivity.csv", out / "sensitivity_ranking.csv"]
        self.effects.assign(**meta).to_csv(files[0], index=False)
        self.ranking.assign(**meta).to_csv(files[1], index=False)
        if len(self.diagnostics):
            files.append(out / "sensitivity_diagnostics.csv")
            self.diagnostics.assign(**meta).to_csv(files[-1], index=False)
        files.append(plots.save(self.figure(), out / "sensitivity_tornado.png"))
        files.append(out / "sensitivity.json")
        files[-1].write_text(json.dumps(
            {"base": self.base, "values": self.values, "defaults": self.defaults,
             "games_per_value": self.games, "rate": self.rate_label, "ranked_group": self.main,
             "skipped": [{"parameter": n, "why": w} for n, w in self.skipped],
             "precision": self.precision, "method": METHOD, "command": self.command},
            indent=2, default=str))
        files.append(out / "sensitivity.md")
        files[-1].write_text(self.markdown())
        self.files = files
        return files

    def markdown(self) -> str:
        b = self.base
        changed = self._changed()
        lines = [f"# Sensitivity: {registry.get(self.ruleset).title} ({self.ruleset} v"
                 f"{b['version']})", "",
                 f"Ruleset `{self.ruleset}`, version {b['version']}, {b['players']} players, "
                 f"policies {', '.join(b['policies'])}, seed {b['seed']}, "
                 + (f"{self.games:,} games per value" if not self.precision else
                    "games per value chosen by --precision")
                 + ", parameters: the declared defaults"
                 + (" but " + ", ".join(f"{k}={v}" for k, v in changed.items()) if changed
                    else "") + f"; rate: {self.rate_label}.", "",
                 "![tornado](sensitivity_tornado.png)", "", "```"]
        lines += self.lines()
        lines += ["```", "", "Tables: `sensitivity.csv` (every effect of every value), "
                  "`sensitivity_ranking.csv` (one row per parameter)"
                  + (", `sensitivity_diagnostics.csv`" if len(self.diagnostics) else "")
                  + ". Regenerate with:", "", "```", self.command, "```", ""]
        return "\n".join(lines)

    def lines(self) -> list[str]:
        b = self.base
        n_vals = sum(len(v) for v in self.values.values())
        out = [f"sensitivity {self.ruleset} v{b['version']}: "
               f"{_n(len(self.values), 'parameter')}, {_n(n_vals, 'value')} against the default, "
               + (f"{self.games:,} games each" if not self.precision else "adaptive games")
               + f" on seed {b['seed']} (the same games: paired), {b['players']} players, "
               f"policies {', '.join(b['policies'])}; rate: {self.rate_label}"]
        if self.shared:
            out.append("wins can be shared in this ruleset: a win rate counts a shared win "
                       "fully; --rate sole balances the rate of winning alone")
        nfam = int(self.effects["p_holm"].notna().sum())
        out.append(f"ranking by the largest effect on a {self.main} (value - default, points, "
                   f"95% paired interval; Holm over all {nfam:,} effects); beside it, at the "
                   f"same value, the change in the first mover's rate, the mean length and the "
                   f"capped share (sensitivity.csv: every effect with its interval):")
        header = ["#", "parameter", "default", "value", self.main, "effect", "95%", "holm p",
                  "first mover", "turns", "capped", "curve"]
        rows = []
        for i, r in enumerate(self.ranking.itertuples(), 1):
            g = self._at(r.parameter, r.value)
            fm, tn, cp = g.get("first_mover_rate"), g.get("turns_mean"), g.get("capped_rate")
            rows.append([str(i), r.parameter, _fmt(self.defaults[r.parameter]), _fmt(r.value),
                         self._key(r), f"{pp(r.diff, 1)}", f"[{pp(r.low, 1)}, {pp(r.high, 1)}]",
                         _pvalue(r.p_holm) + ("" if r.significant else " ·"),
                         f"{pp(fm.diff, 1)}" if fm is not None else "-",
                         f"{tn.diff:+.1f}" if tn is not None else "-",
                         f"{pp(cp.diff, 1)}" if cp is not None else "-",
                         "see below" if isinstance(r.shape, str) and r.shape else ""])
        out += text_table(header, rows, right={0, 5, 7, 8, 9, 10})
        if not self.ranking["significant"].all():
            out.append(f"· = no Holm-significant effect on any {self.main} (at 5% family-wise)")
        shapes = self.ranking[self.ranking["shape"].fillna("") != ""]
        if len(shapes):
            out.append("curves (the ranked effect against the parameter's values, default "
                       "included):")
            out += [f"  {r.parameter} ({r.group} {r.key}): {r.shape}"
                    for r in shapes.itertuples()]
        inert = self.inert()
        if len(inert):
            out.append(f"no measurable effect (no Holm-significant change on any {self.main}):")
            for r in inert.itertuples():
                out.append("  " + self._inert_line(r))
        else:
            out.append(f"every parameter moves some {self.main} measurably")
        if len(self.diagnostics):
            out.append("mechanism (declared game columns, mean per game: at the default -> at "
                       "each value; paired intervals in sensitivity_diagnostics.csv):")
            for p, sub in self.diagnostics.groupby("parameter", sort=False):
                parts = []
                for c, cs in sub.groupby("column", sort=False):
                    base = cs["base"].iloc[0]
                    parts.append(f"{c} {base:.3g} -> " + ", ".join(
                        f"{cs_r.at:.3g} at {_fmt(cs_r.value)}" for cs_r in cs.itertuples()))
                out.append(f"  {p}: " + "; ".join(parts))
        for name, why in self.skipped:
            out.append(f"left out: {name}: {why}")
        if self.precision:
            v = self.precision["values"]
            out.append(f"precision +/-{self.precision['precision']}: "
                       f"{min(x['games'] for x in v):,}-{max(x['games'] for x in v):,} games "
                       f"per value; {sum(x['reached'] for x in v)} of {len(v)} values reached it")
        out.append(f"method: {METHOD}")
        return out

    def cost_line(self) -> str:
        """What this run played and how long it took: printed by the command,
        kept out of the written files (a regenerated report is byte-identical)."""
        took = (f"{self.seconds:.0f} s" if self.seconds < 120 else
                f"{self.seconds / 60:.1f} min")
        return (f"played {self.played:,} games in {took} (the rest, if any, reused from "
                f"the store)")

    def _at(self, parameter, value) -> dict:
        e = self.effects
        sub = e[(e["parameter"] == parameter) & (e["group"] == "game")]
        sub = sub[sub["value"].astype(str) == str(value)]
        return {r.key: r for r in sub.itertuples()}

    def _inert_line(self, r) -> str:
        e = self.effects[(self.effects["parameter"] == r.parameter)]
        mine = ranked_effects(e, self.main)
        bound = float(np.nanmax(np.abs(mine[["low", "high"]].to_numpy(float))))
        games = f"{self.games:,} games" if not self.precision else "the games played"
        if bound == 0 and (e["diff"] == 0).all():
            text = (f"{r.parameter}: no effect on any {self.main}: every game played the same "
                    f"at every value ({', '.join(_fmt(v) for v in self.values[r.parameter])}"
                    f" vs {_fmt(self.defaults[r.parameter])})")
        else:
            digits = 1 if bound >= 0.001 else 2
            text = (f"{r.parameter}: no effect on any {self.main}, |effect| < "
                    f"{bound * 100:.{digits}f} points at {games}")
        moved = e[(e["group"] == "game") & e["significant"]]
        if len(moved):                 # per metric, the value that moves it most
            moved = moved.loc[moved.groupby("key", sort=False)["diff"]
                              .apply(lambda d: d.abs().idxmax())]
            text += "; but it moves " + ", ".join(
                f"{GAME_METRICS[m.key][1]} {self._diff_text(m)} at {_fmt(m.value)}"
                for m in moved.itertuples())
        return text

    @staticmethod
    def _diff_text(m) -> str:
        if m.unit == "turns":
            return f"{m.diff:+.1f} turns [{m.low:+.1f}, {m.high:+.1f}]"
        return f"{pp(m.diff, 1)} points [{pp(m.low, 1)}, {pp(m.high, 1)}]"


def _n(k: int, word: str) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _pvalue(p) -> str:
    if not np.isfinite(p):
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def sensitivity(ruleset: str, names=None, games: int = DEFAULT_GAMES, seed: int = 0,
                players=None, policies=None, params: dict | None = None, *,
                values: dict | None = None, rate: str = "win", precision: float | None = None,
                max_games: int | None = None, out=None, progress: bool | None = None,
                store=None) -> SensitivityResult:
    """Play each parameter's sweep values against the default on the same
    seeds and rank the parameters by their largest paired effect.

    >>> r = sensitivity("talisman", ["hp", "min_combo_value"], games=20_000,
    ...                 policies=["greedy", "random"])
    >>> r.ranking, r.effects, r.inert()

    ``names``: parameters or declared groups (``"v3"``), a list or ``a,b,c``
    (default: every rule parameter with sweep values, but values that change
    the rules version); ``values``: {name: [v, ...]} instead of its declared
    sweep values; ``params``: the default configuration's overrides (``--set``).
    ``out`` writes sensitivity.md, sensitivity.csv, sensitivity_ranking.csv,
    sensitivity_tornado.png and sensitivity.json, and keeps finished pieces
    in ``out/.points`` (or ``store``) so that an interrupted run resumes.
    """
    import time
    t0 = time.perf_counter()
    rate = check_rate(rate)
    eps, mg = adaptive.check_precision(precision, max_games)
    pl = plan(ruleset, names, games, seed, players, policies, params, values)
    spec, sd = pl.base.spec, pl.base
    games = pl.games
    if progress is not False:
        say(pl.line(eps))
    diags = declared(spec, "PARAM_DIAGNOSTICS")
    shared = shares_wins(spec)
    groups = {"seat"} | ({"role"} if spec.roles is not None and "role" in spec.seat_columns
                         else set()) | ({"policy"} if len(set(sd.policies)) > 1 else set())
    st, own = open_store(store, out)
    n_var = pl.n_variants
    pieces = Pieces(st, (1 + n_var) * games, "game", f"sensitivity {ruleset}", progress,
                    say_resumed=own)
    variants = [(p, v, s) for p in pl.values for v, s in zip(pl.values[p], pl.setups[p])]
    diag_of = {p: tuple(diags.get(p, ())) for p in pl.values}
    all_diag = tuple(dict.fromkeys(c for p in pl.values for c in diag_of[p]))
    setups = [sd] + [s for _, _, s in variants]
    cache: dict = {}

    def base_desc(a, b):
        return {**sums_desc("sensitivity-base", [sd], a, b), "diag": list(all_diag)}

    def pair_desc(s, a, b, diag):
        return {**sums_desc("sensitivity-pair", [sd, s], a, b), "diag": list(diag)}

    def base(a, b):
        if (a, b) not in cache:
            if len(cache) > 8:
                cache.pop(next(iter(cache)))
            pieces.start(f"default {a:,}-{b:,}")
            cache[(a, b)] = st.fetch(base_desc(a, b),
                                     lambda: _base_arrays(sd, a, b, all_diag))
            pieces.update(b - a)
        return cache[(a, b)]

    def pair(p, v, s, a, b):
        pieces.start(f"{p}={_fmt(v)} {a:,}-{b:,}")
        got = st.fetch(pair_desc(s, a, b, diag_of[p]),
                       lambda: _pair(sd, base(a, b), s, a, b, diag_of[p]))
        pieces.update(b - a)
        return got

    def stored(s, p, a, b) -> bool:
        path = st.path(pair_desc(s, a, b, diag_of[p]))
        return path is not None and path.exists()

    aggs, prec = {}, []
    try:
        if eps is None:
            ranges = piece_ranges(setups, 0, games)
            for a, b in ranges:
                if all(stored(s, p, a, b) for p, _, s in variants) and (a, b) not in cache:
                    pieces.add(-(b - a))          # every variant of this piece is stored
                for p, v, s in variants:
                    got = pair(p, v, s, a, b)
                    aggs[(p, v)] = got if (p, v) not in aggs else summary.merge([aggs[(p, v)],
                                                                                got])
                cache.clear()
        else:
            main = "role" if "role" in groups else ("policy" if "policy" in groups else "seat")

            def width(agg):
                r = of_group(effects_of(agg, rate, groups), main)
                return max((stats.half_width(e["diff"], e["low"], e["high"]) for e in r),
                           default=float("inf"))
            for p, v, s in variants:
                def play(x, y, p=p, v=v, s=s):
                    acc = None
                    for a, b in piece_ranges(setups, x, y):
                        got = pair(p, v, s, a, b)
                        acc = got if acc is None else summary.merge([acc, got])
                    return acc
                aggs[(p, v)], info = adaptive.until_precise(play, summary.merge, width, eps,
                                                            games, mg)
                prec.append({"parameter": p, "value": v, **info})
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    played = pieces.finished - pieces.reused
    res = _result(ruleset, pl, aggs, rate, groups, shared, games,
                  {"precision": eps, "values": prec} if eps else None,
                  command_line(ruleset, names, games, seed, pl.base, params, values, rate,
                               precision, max_games, out))
    res.played, res.seconds = played, time.perf_counter() - t0
    if out is not None:
        res.save(out)
    return res


def of_group(effects: list[dict], main: str) -> list[dict]:
    """The effects a parameter is ranked by and its precision measured on:
    those of the ``main`` group, or the seats' where that group has none (a
    value that changes the roles, such as elite's ``version``, holds no role
    of the default's: nothing pairs by role, while every seat pairs)."""
    return ([e for e in effects if e["group"] == main]
            or [e for e in effects if e["group"] == "seat"])


def ranked_effects(eff: pd.DataFrame, main: str) -> pd.DataFrame:
    """Every parameter's effects on the ranked group ``main``
    (:func:`of_group`: the seats' for a parameter whose values share no key
    of that group with the default), in the order of ``eff``."""
    rows = [r for p in dict.fromkeys(eff["parameter"])
            for r in of_group(eff[eff["parameter"] == p].to_dict("records"), main)]
    return pd.DataFrame(rows, columns=eff.columns)


def _result(ruleset, pl, aggs, rate, groups, shared, games, precision, command):
    sd = pl.base
    rows, drows = [], []
    for (p, v), agg in aggs.items():
        n = int(agg["n"])
        for e in effects_of(agg, rate, groups):
            rows.append({"parameter": p, "value": v, "default": sd.values[p], "games": n, **e})
        for d in diagnostics_of(agg):
            drows.append({"parameter": p, "value": v, "default": sd.values[p], **d})
    eff = pd.DataFrame(rows)
    eff["p"] = stats.z_pvalue(eff["diff"], eff["se"])
    reject, adj = stats.adjust_pvalues(eff["p"].to_numpy(), "holm")
    eff["p_holm"], eff["significant"] = adj, reject
    eff["significant"] = eff["significant"].astype(bool)
    main = main_group(sd)
    ranked = ranked_effects(eff, main)
    ranking = []
    for p in pl.values:
        e = ranked[ranked["parameter"] == p]
        if e.empty:
            continue
        r = e.loc[e["diff"].abs().round(12).idxmax()]      # ties: the first key
        curve = e[e["key"] == r["key"]]
        shape = curve_shape(curve["value"].tolist(), sd.values[p], curve["diff"].tolist(),
                            curve["low"].tolist(), curve["high"].tolist())
        ranking.append({"parameter": p, "value": r["value"], "default": sd.values[p],
                        "group": r["group"], "key": r["key"], "diff": r["diff"], "low": r["low"],
                        "high": r["high"], "p_holm": r["p_holm"],
                        "significant": bool(e["significant"].any()),
                        "bound": float(np.nanmax(np.abs(e[["low", "high"]].to_numpy(float)))),
                        "shape": shape or ""})
    rk = pd.DataFrame(ranking)
    rk = rk.reindex(rk["diff"].abs().sort_values(ascending=False, kind="stable").index)
    rk = rk.reset_index(drop=True)
    diag = pd.DataFrame(drows, columns=["parameter", "value", "default", "column", "base", "at",
                                        "diff", "low", "high"])
    return SensitivityResult(ruleset, sd.describe(), {p: list(v) for p, v in pl.values.items()},
                             {p: sd.values[p] for p in pl.values}, eff, rk, diag, games, rate,
                             main, shared, pl.skipped, command, precision)


def command_line(ruleset, names, games, seed, base, params, values, rate, precision, max_games,
                 out) -> str:
    """The ``balance sensitivity`` command that plays this run again."""
    parts = ["balance", "sensitivity", ruleset, "--games", str(games), "--seed", str(seed),
             "--players", str(base.n_players)]
    pols = list(base.policies)
    for p in (pols[:1] if len(set(pols)) == 1 else pols):
        parts += ["--policy", p]
    for k, v in (params or {}).items():
        parts += ["--set", f"{k}={v}"]
    if names is not None:
        parts += ["--params", names if isinstance(names, str) else ",".join(names)]
    for k, vs in (values or {}).items():
        vs = [vs] if isinstance(vs, (str, int, float)) else list(vs)
        parts += ["--values", f"{k}=" + ",".join(map(str, vs))]
    if rate != "win":
        parts += ["--rate", rate]
    if precision is not None:
        parts += ["--precision", str(precision)]
        if max_games is not None:
            parts += ["--max-games", str(max_games)]
    if out is not None:
        parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def parse_values(items) -> dict:
    """[``KEY=v1,v2,...``, ...] (``--values``) -> {key: [texts]}."""
    out = {}
    for text in items or ():
        key, vals = parse_vary(text)
        if vals is None:
            raise BalanceError(f"--values {text!r}: give KEY=v1,v2,...")
        if key in out:
            raise BalanceError(f"--values {key} is given twice; give all its values in one")
        out[key] = vals
    return out
