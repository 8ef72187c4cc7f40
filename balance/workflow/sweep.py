"""Parameter sweeps: the grid of values, played on the same seeds.

Every point of the grid plays games [0, n) of the same seed, so game i
starts from the same deal at every point where the decks agree and the
points are paired comparisons. The tidy table has one row per point and per
seat, policy and role (column ``group``/``key``) with the win rate, its 95%
Wilson interval and the game length statistics of the point. With a target
(``role=0.5``, ``policy=0.5`` or ``seat0=0.5``) the value of each varied
parameter at which that win rate crosses the target is estimated by
:func:`balance.core.stats.crossing` (method named in the table). A target of
``fair`` (``glutton=fair``) aims at the fair share as it moves: the crossing
of the rate with the mean of the rates of its group at each point
(:func:`balance.core.stats.share_fair_of`), which a parameter that raises
every rate at once (shared wins) moves with it.

Win rate or sole-win rate (``rate="win"`` or ``"sole"``, ``--rate``): where
one game can have several winners (teams, zombies that win with their
master, houses, ties), a win rate counts a shared win fully and answers "how
often is this seat on a winning side"; the sole-win rate counts only games
the seat won alone and answers "how often does this seat win the game".
A designer balancing who wins reads sole wins; one balancing who ends on a
winning side (a team game, a co-operative end) reads win rates. The two can
rank seats in opposite orders (school's houses), so every crossing names
the rate it used. With one winner a game the two are the same.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats, summary
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.params import coerce, unknown_key_error
from ..core.setup import check_count, setup
from ..core.stats import points as pp
from . import adaptive
from .outcome import (Pieces, main_group, open_store, say,
                      text_table)
from .sums import Sink, mover_sums, point_table, widest


def parse_vary(text: str) -> tuple[str, list[str] | None]:
    """``KEY=v1,v2,...`` -> (key, [values]); ``KEY`` alone -> (key, None)."""
    text = text.strip()
    if "=" not in text:
        if not text:
            raise BalanceError("--vary needs KEY=v1,v2,... or KEY")
        return text, None
    key, vals = text.split("=", 1)
    key = key.strip()
    items = [v.strip() for v in vals.split(",")]
    if not key:
        raise BalanceError(f"--vary {text!r}: missing parameter name")
    if all(v == "" for v in items):
        raise BalanceError(f"--vary {text!r}: empty value list (give KEY=v1,v2,... or KEY alone "
                           f"for its declared sweep candidates)")
    if "" in items:
        raise BalanceError(f"--vary {text!r}: an empty value between commas; give values "
                           f"separated by single commas, e.g. {key}=10,20")
    return key, items


def _listed(values):
    """A --vary's values as a sorted list of their texts (None: the declared
    candidates), so that 10,20 and 20,10 are the same values."""
    if values is None:
        return None
    if isinstance(values, (str, int, float)):
        values = [values]
    return sorted(dict.fromkeys(str(v) for v in values))


def _vary_dict(items) -> dict:
    """[``KEY=...``, ...] or (key, values) pairs -> {key: values}; a key given
    twice with other values is an error naming both (the last would win)."""
    out = {}
    for item in items:
        key, values = parse_vary(item) if isinstance(item, str) else item
        if key in out and _listed(out[key]) != _listed(values):
            def show(v):
                return (f"{key}=" + ",".join(map(str, _listed(v))) if v is not None
                        else f"{key} (its declared sweep candidates)")
            raise BalanceError(f"--vary {key} is given twice, {show(out[key])} and "
                               f"{show(values)}; give all its values in one --vary "
                               f"{key}=v1,v2,...")
        out[key] = values
    return out


def resolve_vary(spec, vary) -> dict[str, list]:
    """Validate the varied parameters and their values (coerced, sorted, unique)."""
    if not vary:
        raise BalanceError("sweep needs at least one --vary KEY=v1,v2,...")
    if isinstance(vary, (list, tuple)):
        vary = _vary_dict(vary)
    out = {}
    for key, values in vary.items():
        if key not in spec.space.infos:
            raise unknown_key_error(key, spec.space.infos)
        info = spec.space.infos[key]
        if values is None:
            values = list(info.sweep)
            if not values:
                raise BalanceError(f"parameter {key!r} declares no sweep candidates; "
                                   f"give values: --vary {key}=v1,v2,...")
        if isinstance(values, (str, int, float)):
            values = [values]
        values = list(values)
        if not values:
            raise BalanceError(f"--vary {key}: empty value list")
        coerced = [coerce(info, v) for v in values]
        twice = [v for v in dict.fromkeys(coerced) if coerced.count(v) > 1]
        if twice:
            say(f"warning: --vary {key} lists {', '.join(map(str, twice))} more than once; "
                f"each value is one point, played once")
        out[key] = sorted(set(coerced))
    return out


FAIR = "fair"           # a target rate that follows the fair share


def resolve_target(s, target) -> tuple[str, str, float | str] | None:
    """``NAME=RATE`` (or a (name, rate) pair) -> (group, key, rate); NAME is a
    role (its slug, ``glutton``, or its label, ``7 glutton``), a policy name or
    a seat (``seat0`` or ``0``); RATE a number in (0, 1) or ``fair`` (the
    fair share at each point: returned as :data:`FAIR`)."""
    if target is None:
        return None
    if isinstance(target, str):
        if "=" not in target:
            raise BalanceError(f"--target {target!r}: expected NAME=RATE, e.g. greedy=0.5")
        name, rate = target.split("=", 1)
    else:
        name, rate = target
    name = str(name).strip()
    if isinstance(rate, str) and rate.strip().lower() == FAIR:
        rate = FAIR
    else:
        try:
            rate = float(rate)
        except (TypeError, ValueError):
            raise BalanceError(f"--target {name}={rate!r}: the rate is neither a number nor "
                               f"'fair' (the fair share at each point)") from None
    if rate != FAIR and not 0 < rate < 1:
        raise BalanceError(f"--target {name}={rate}: the rate must be between 0 and 1")
    roles = []
    if s.spec.roles is not None and "role" in s.spec.seat_columns:
        slugs = s.spec.role_names(s.values)
        roles = list(slugs.values())
        by_label = {str(lab): slugs[k] for k, lab in s.spec.roles(s.values).items()}
        if name in by_label or name in roles:
            return "role", by_label.get(name, name), rate
    if name in s.policies:
        return "policy", name, rate
    seat = name[4:].strip() if name.lower().startswith("seat") else name
    if seat.isdigit() and int(seat) < s.n_players:
        return "seat", str(int(seat)), rate
    choices = ([f"roles {', '.join(roles)}"] if roles else []) + \
        [f"policies {', '.join(dict.fromkeys(s.policies))}",
         f"seats seat0..seat{s.n_players - 1}"]
    raise BalanceError(f"--target {name!r} is not a role, policy or seat of this run "
                       f"(known: {'; '.join(choices)})")


@dataclass
class SweepResult(Published):
    ruleset: str
    vary: dict                    # key -> values
    base: dict                    # setup description of the base configuration
    table: pd.DataFrame           # one row per point x (group, key)
    crossings: pd.DataFrame | None
    target: tuple | None
    games: int
    precision: dict | None = None
    files: list = field(default_factory=list)
    main_group: str = "seat"
    refine: bool = True            # a target's crossing refined near the bracket
    rate: str = "win"              # the rate a target balances: win or sole (RATES)

    @property
    def rate_label(self) -> str:
        return rate_name(self.rate, self.shared)

    def _target_line(self):
        """The fixed target rate drawn on the figure (none for ``fair``:
        the fair-share line is the target then)."""
        if not self.target or self.target[2] == FAIR:
            return None
        return self.target[2]

    def figure(self, key: str, group: str | None = None):
        """Figure of win rate against ``key`` (one panel per combination of
        the other varied values, panels sharing one y-axis, one line per
        seat/policy/role), with the fair share at each point (the mean of
        the rates shown there), the target and the crossing."""
        group = group or (self.target[0] if self.target else self.main_group)
        others = [k for k in self.vary if k != key]
        df = self.table[self.table["group"] == group]
        col, lo, hi = rate_columns(df, self.rate)
        fair_col = "sole_fair_share" if col == "sole_win_rate" else "fair_share"
        if col != "win_rate":           # draw the sole-win rate in the rate's place
            df = df.drop(columns=["win_rate", "ci_low", "ci_high", "fair_share"]).rename(
                columns={col: "win_rate", lo: "ci_low", hi: "ci_high", fair_col: "fair_share"})
        combos = list(itertools.product(*[self.vary[k] for k in others]))[:12]
        ncols = min(3, len(combos))
        nrows = (len(combos) + ncols - 1) // ncols
        fig, axes = plots.figure(max(6.4, 5.0 * ncols) + plots.LEGEND_WIDTH * ncols,
                                 3.6 * nrows + 0.4, nrows, ncols, sharey=True)
        for i, combo in enumerate(combos):
            ax = axes[i // ncols][i % ncols]
            sub = df
            for k, v in zip(others, combo):
                sub = sub[sub[k] == v]
            title = ", ".join(f"{k}={v}" for k, v in zip(others, combo)) or None
            fair = sub.groupby(key)["fair_share"].first() if "fair_share" in sub else None
            plots.sweep_axes(ax, sub, key, target=self._target_line(),
                             title=title, prefix="seat " if group == "seat" else "",
                             crossing=self._crossing_at(key, title), fair=fair)
        for j in range(len(combos), nrows * ncols):
            axes[j // ncols][j % ncols].axis("off")
        plots.suptitle(fig, plots.describe(self.ruleset, self.base, self.games)
                       + f" per point\n{self.rate_label} by {group} vs {key}"
                       + (" (wins can be shared: rates add to more than 100%)"
                          if self.shared else ""))
        return fig

    @property
    def shared(self) -> bool:
        """Can wins be shared in this ruleset (the table has sole-win rates)?"""
        return "sole_win_rate" in self.table

    def _crossing_at(self, key, context):
        """(estimate, low, high) of the bracketed crossing drawn on a panel."""
        if self.crossings is None:
            return None
        c = self.crossings[(self.crossings["parameter"] == key)
                           & (self.crossings["context"] == (context or ""))
                           & self.crossings["bracketed"]]
        return None if c.empty else tuple(c.iloc[0][["estimate", "ci_low", "ci_high"]])

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "sweep.csv"]
        self.table.to_csv(files[0], index=False)
        if self.crossings is not None:
            files.append(out / "crossings.csv")
            self.crossings.to_csv(files[-1], index=False)
        for key in self.vary:
            files.append(plots.save(self.figure(key), out / f"sweep_{key}.png"))
        meta = {"base": self.base, "vary": self.vary, "games_per_point": self.games,
                "target": self.target, "rate": self.rate_label, "precision": self.precision,
                "interval": "95% Wilson score interval (statsmodels)",
                "crossing_method": "; ".join(self.methods())
                + ("; refined by bisection near the crossing on the same seed"
                   if self.refine else "; grid only (not refined)")}
        files.append(out / "sweep.json")
        files[-1].write_text(json.dumps(meta, indent=2, default=str))
        self.files = files
        return files

    def lines(self) -> list[str]:
        b = self.base
        n_points = len(self.table["point"].unique())
        out = [f"sweep {self.ruleset}: {n_points} points x "
               + (f"{self.games:,} games" if not self.precision else "adaptive games")
               + f", seed {b['seed']}, {b['players']} players, policies {', '.join(b['policies'])}"
               + " (same seeds at every point: paired)"]
        g = self.target[0] if self.target else self.main_group
        df = self.table[self.table["group"] == g]
        keys = list(self.vary)
        if self.shared:
            out.append("wins can be shared in this ruleset (several seats win one game): a win "
                       "rate counts a shared win fully, so the rates add to more than 100%; "
                       "'sole' is the rate of winning alone, and 'shared' the share of games "
                       "with several winners")
        first = "first_mover_rate" in df
        order = registry.get(self.ruleset).turn_order
        out.append(f"win rate by {g} (95% Wilson); fair = the mean of the rates shown at that "
                   f"point, the baseline a {g} of average strength reaches"
                   + ("; sole fair = the mean of the sole-win rates" if self.shared else "")
                   + (f"; first = the first mover's win rate ({order}), draws = the share of "
                      f"games no seat won, each with its 95% Wilson interval" if first else "")
                   + ":")
        names = list(dict.fromkeys(df["key"]))
        per = 3 if self.shared else 2            # columns per name: rate, interval(, sole)
        header = [" ".join(keys)]
        for name in names:
            header += [name, "95%"] + (["sole"] if self.shared else [])
        nf = 2 if self.shared else 1             # fair share columns: win(, sole)
        header += ["fair"] + (["sole fair"] if self.shared else []) \
            + (["first", "95%", "draws", "95%"] if first else []) \
            + (["shared"] if self.shared else []) + ["games", "mean turns"]
        rows = []
        for _, pt in sorted(df.groupby("point", sort=True),
                            key=lambda kv: tuple(kv[1][k].iloc[0] for k in keys)):
            head = " ".join(f"{k}={pt[k].iloc[0]}" for k in keys)
            if pt["refined"].iloc[0]:
                head += " *"
            by = pt.set_index("key")
            cells = [head]
            for name in names:
                if name not in by.index:
                    cells += ["-"] * per
                    continue
                r = by.loc[name]
                cells += [f"{r.win_rate:.2%}", f"[{r.ci_low:.2%}, {r.ci_high:.2%}]"]
                if self.shared:
                    cells.append(f"{r.sole_win_rate:.2%}")
            cells += [f"{pt['fair_share'].iloc[0]:.2%}"]
            if self.shared:
                cells.append(f"{pt['sole_fair_share'].iloc[0]:.2%}")
            if first:
                p0 = pt.iloc[0]
                cells += [f"{p0.first_mover_rate:.2%}",
                          f"[{p0.first_mover_low:.2%}, {p0.first_mover_high:.2%}]",
                          f"{p0.draw_rate:.2%}", f"[{p0.draw_low:.2%}, {p0.draw_high:.2%}]"]
            cells += [f"{pt['shared_win_rate'].iloc[0]:.2%}"] if self.shared else []
            cells += [f"{int(pt['n_games'].iloc[0]):,}", f"{pt['turns_mean'].iloc[0]:.1f}"]
            rows.append(cells)
        interval_cols = {1 + per * i + 1 for i in range(len(names))}
        if first:
            f0 = 1 + per * len(names) + nf                     # the first-mover column
            interval_cols |= {f0 + 1, f0 + 3}
        out += text_table(header, rows, right=set(range(1, len(header))) - interval_cols)
        if self.crossings is not None:
            for r in self.crossings.itertuples():
                ctx = f" at {r.context}" if r.context else ""
                name = f"{r.group} {r.target_key} {self.rate_label}"
                fair = getattr(r, "target_kind", "rate") == FAIR
                if r.bracketed:
                    lo = ("<=" if r.open_low else "") + f"{r.ci_low:.4g}"
                    hi = f"{r.ci_high:.4g}" + (" (open)" if r.open_high else "")
                    aim = (f"the fair share ({r.target:.2%} there)" if fair
                           else f"{r.target:.2%}")
                    out.append(f"target: {name} = {aim} when {r.parameter} = "
                               f"{r.estimate:.4g}, 95% interval [{lo}, {hi}]{ctx}")

                    def side(v, rt, fr):
                        return f"{int(v)} gives {rt:.2%}" + (f" (fair {fr:.2%})" if fair else "")
                    if np.isfinite(getattr(r, "below", np.nan)) and r.below == r.above:
                        out.append(f"  {r.parameter} is a whole number: "
                                   f"{side(r.below, r.below_rate, r.below_fair)}, on the target")
                    elif np.isfinite(getattr(r, "below", np.nan)):
                        out.append(f"  {r.parameter} is a whole number: "
                                   f"{side(r.below, r.below_rate, r.below_fair)}, "
                                   f"{side(r.above, r.above_rate, r.above_fair)}")
                elif fair:
                    out.append(f"target: the swept range of {r.parameter} does not bring {name} "
                               f"to the fair share (it runs from {pp(r.gap_min)} to "
                               f"{pp(r.gap_max)} points from it){ctx}")
                else:
                    out.append(f"target: the swept range of {r.parameter} does not bracket "
                               f"{name} = {r.target:.2%} (it runs from "
                               f"{r.rate_min:.2%} to {r.rate_max:.2%}){ctx}")
            if self.table["refined"].any():
                out.append("* = played near the crossing to refine it (bisection, same seed)")
            elif not self.refine and self.crossings["bracketed"].any():
                out.append("grid only (--no-refine): interpolating between coarse points is "
                           "biased where the curve bends, and this interval leaves that bias "
                           "out; without --no-refine, points are played near the crossing")
            out += [f"crossing method: {m}" for m in self.methods()]
        return out

    def methods(self) -> list[str]:
        """The crossings' methods in words, one per axis kind they used."""
        if self.crossings is None or "method" not in self.crossings:
            return [stats.crossing_method("linear")]
        return list(dict.fromkeys(self.crossings["method"]))


RATES = ("win", "sole")


def check_rate(rate: str) -> str:
    """``win`` or ``sole`` (``--rate``), else one line."""
    if rate not in RATES:
        raise BalanceError(f"--rate {rate!r}: 'win' (a shared win counts) or 'sole' (won alone)")
    return rate


def rate_columns(table: pd.DataFrame, rate: str) -> tuple[str, str, str]:
    """The (rate, low, high) columns of ``rate`` in a sweep table; with one
    winner a game there are no sole-win columns, and the win rate is it."""
    if rate == "sole" and "sole_win_rate" in table:
        return "sole_win_rate", "sole_ci_low", "sole_ci_high"
    return "win_rate", "ci_low", "ci_high"


def rate_name(rate: str, shared: bool) -> str:
    """How an answer names the rate it balanced."""
    if rate == "sole":
        return "sole-win rate" if shared else "sole-win rate (= win rate: one winner a game)"
    return "win rate (a shared win counts)" if shared else "win rate"


def _fair(table: pd.DataFrame, group: str, col: str) -> pd.Series:
    """The fair share of ``group`` at each point (index: point), by
    :func:`stats.share_fair_of` over the rates of that point."""
    df = table[table["group"] == group]
    return df.groupby("point")[col].agg(lambda v: stats.share_fair_of(v.to_frame(), col))


def _gap(table, tgt, rate, ctx: dict, p: str):
    """(x, y, low, high, fair, target) of the target's series along ``p`` at
    the other parameters' values ``ctx``, sorted by ``p``: with a fixed rate
    the rate and its band, with ``fair`` the distance from the fair share at
    each point (target 0)."""
    group, key, target = tgt
    col, lo, hi = rate_columns(table, rate)
    sub = _series(table, group, key, ctx).sort_values(p)
    x = sub[p].astype(float).to_numpy()
    y, ylo, yhi = (sub[c].to_numpy(float) for c in (col, lo, hi))
    if target != FAIR:
        return x, y, ylo, yhi, None, float(target)
    f = _fair(table, group, col).loc[sub["point"]].to_numpy(float)
    return x, y - f, ylo - f, yhi - f, f, 0.0


def _crossings(table, vary, tgt, rate: str = "win") -> pd.DataFrame:
    group, key, target = tgt
    col = rate_columns(table, rate)[0]
    rows = []
    for p in vary:
        others = [k for k in vary if k != p]
        for combo in itertools.product(*[vary[k] for k in others]):
            ctx = dict(zip(others, combo))
            x, y, lo, hi, fair, t = _gap(table, tgt, rate, ctx, p)
            scale = plots.axis_scale(x)
            c = stats.crossing(x, y, lo, hi, t, scale=scale)
            if fair is not None:        # the distance from the fair share crossed 0
                c["gap_min"], c["gap_max"] = c["rate_min"], c["rate_max"]
                c["rate_min"], c["rate_max"] = (float(np.nanmin(y + fair)),
                                                float(np.nanmax(y + fair)))
                c["target"] = (_interp(x, fair, c["estimate"], scale) if c["bracketed"]
                               else np.nan)
                c["method"] += ("; target: the fair share at each point (the mean of the "
                                "rates of its group there), taken as known")
            rows.append({"parameter": p, "context": ", ".join(f"{k}={v}" for k, v in ctx.items()),
                         "group": group, "target_key": key,
                         "target_kind": "fair" if target == FAIR else "rate", "rate": col, **c})
    return pd.DataFrame(rows)


def _interp(x, y, at: float, scale: str) -> float:
    """``y`` at ``at`` along the curve, interpolated as the crossing is (in
    log10 of x on a logarithmic axis)."""
    if scale == "log":
        return float(np.interp(np.log10(at), np.log10(x), y))
    return float(np.interp(at, x, y))


def sweep(ruleset: str, vary, games: int = 10_000, seed: int = 0, players=None, policies=None,
          params: dict | None = None, *, target=None, precision: float | None = None,
          max_games: int | None = None, out=None, progress: bool | None = None,
          store: str | None = None, refine: bool = True, target_precision: float | None = None,
          max_refine: int = 8, summary_only: bool = False, rate: str = "win",
          sink: Sink | None = None) -> SweepResult:
    """Play the grid of ``vary`` (``{key: [values]}``, or ``{key: None}`` for
    the declared sweep candidates) on the same seeds at every point.

    >>> r = sweep("talisman", {"hp": [10, 20, 40]}, games=20_000, seed=1,
    ...           policies=["greedy", "random"], target="greedy=0.9")
    >>> r.table, r.crossings

    With a target, the crossing is refined (``refine``): new points are
    played by bisection inside the bracket until its interval is narrower
    than ``target_precision`` (parameter units), the parameter's resolution
    is reached (integers: the two either side, with their win rates), or
    ``max_refine`` rounds were played; refined points are in the table
    (``refined``) and on the plot.

    ``out`` writes sweep.csv, crossings.csv, sweep_<key>.png and keeps
    finished points under ``out/.points`` (or ``store``) so that an
    interrupted sweep resumes where it stopped.

    ``rate`` (``win`` or ``sole``) is the rate a target balances and the
    figure draws (the module's docstring says when each is the right one);
    a target ``NAME=fair`` aims at the fair share as it moves.

    ``summary_only`` plays every point in pieces reduced to their sums as
    they finish (``sums``): memory does not grow with ``games``, and the
    table is the same.
    """
    spec = registry.get(ruleset)
    params = dict(params or {})
    rate = check_rate(rate)
    vary = resolve_vary(spec, vary)
    games = check_count("games", games)
    eps, mg = adaptive.check_precision(precision, max_games)
    keys = list(vary)
    grid = list(itertools.product(*[vary[k] for k in keys]))
    base = setup(ruleset, seed=seed, players=players, policies=policies, params=params)
    setups = [setup(ruleset, seed=seed, players=players, policies=policies,
                    params={**params, **dict(zip(keys, pt))}) for pt in grid]   # validate all first
    tgt = resolve_target(base, target)
    st, own = open_store(store, out)
    rows, prec = [], []
    sink = sink or Sink.of(summary_only)
    pieces = Pieces(st, sink.total(len(grid), games), sink.unit("point"), f"sweep {ruleset}",
                    progress, say_resumed=own)

    def sums_of(s, a, b, label):
        """The sums of games [a, b) of one point."""
        return sink.sums(st, "sweep-sums", [s], a, b, lambda view: mover_sums(view(0)), pieces,
                         label, progress=progress)

    def point(s, label):
        with sink.step(pieces, label):
            return sums_of(s, 0, games, label)
    try:
        for i, (pt, s) in enumerate(zip(grid, setups)):
            label = " ".join(f"{k}={v}" for k, v in zip(keys, pt))
            if eps is None:
                agg = point(s, label)
            else:
                with sink.step(pieces, label):
                    agg, info = adaptive.until_precise(
                        lambda a, b, s=s, label=label: sums_of(s, a, b, label), summary.merge,
                        lambda agg, s=s: widest(point_table(s, agg)), eps, games, mg)
                prec.append({**dict(zip(keys, pt)), **info})
            r = point_summary(s, agg)
            for k, v in zip(keys, pt):
                r.insert(0, k, v)
            r.insert(0, "point", i)
            rows.append(r)
        table = pd.concat(rows, ignore_index=True)
        table["key"] = table["key"].astype(str)
        table["refined"] = False
        cross = None
        if tgt:
            cross = _crossings(table, vary, tgt, rate)
            if refine:
                def play(extra, label):
                    pieces.add(sink.total(1, games))
                    s = setup(ruleset, seed=seed, players=players, policies=policies,
                              params={**params, **extra})
                    return point_summary(s, point(s, label))
                table, cross = _refine(spec, table, cross, vary, tgt, target_precision,
                                       max_refine, play, rate)
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    table = _with_fair(table)
    res = SweepResult(ruleset, vary, base.describe(), table, cross, tgt, games,
                      {"precision": eps, "points": prec} if eps else None,
                      main_group=main_group(base), refine=refine, rate=rate)
    if out is not None:
        res.save(out)
    return res


def point_summary(s, agg: dict) -> pd.DataFrame:
    """``sums.point_table`` with the point's first-mover win rate and draw
    share, each with its 95% Wilson interval (as ``run`` prints them)."""
    t = point_table(s, agg).drop(columns="draw_rate")     # put back beside its interval
    n = int(agg["n"])
    for name, k in (("first_mover", int(agg["first_wins"])), ("draw", int(agg["draws"]))):
        lo, hi = stats.wilson(k, n)
        t[f"{name}_rate"] = k / n if n else np.nan
        t[f"{name}_low"], t[f"{name}_high"] = float(lo), float(hi)
    return t


def _with_fair(table: pd.DataFrame) -> pd.DataFrame:
    """``fair_share`` on every row: the mean of the win rates of its group
    at its point (with one winner a game, (1 - draws) / seats for seats; more
    where wins are shared), the baseline against which a rate is strong or
    weak. A parameter that raises every rate at once raises it too."""
    t = table.copy()
    g = t.groupby(["point", "group"])
    for col, name in (("win_rate", "fair_share"), ("sole_win_rate", "sole_fair_share")):
        if col in t:
            t[name] = g[col].transform(lambda v: stats.share_fair_of(v.to_frame(), v.name))
    return t


def _resolution(info) -> float:
    """The smallest step of a parameter: 1 for an integer, else 0."""
    return 1.0 if info.kind is int else 0.0


def _refine(spec, table, cross, vary, tgt, eps, max_new, play, rate="win"):
    """Play new points inside each bracketed crossing (bisection on the same
    seed) until the crossing's interval is narrower than ``eps`` (parameter
    units), the bracket is one step of the parameter's resolution wide (an
    integer parameter: two neighbouring integers), or ``max_new`` points were
    added. Coarse grids bias linear interpolation; points near the crossing
    remove that bias and narrow the interval."""
    next_point = int(table["point"].max()) + 1
    for _ in range(max_new):
        todo = []
        for r in cross.itertuples():
            if not r.bracketed:
                continue
            info = spec.space.infos[r.parameter]
            ctx = _context(r.context, vary, r.parameter)
            x, y, _, _, _, target = _gap(table, tgt, rate, ctx, r.parameter)
            i = _bracket(x, y, target)
            if i is None:
                continue
            a, b = x[i], x[i + 1]
            if b - a <= max(_resolution(info), 1e-12 * max(abs(b), 1.0)):
                continue                                  # neighbouring values: done
            if eps is not None and r.ci_high - r.ci_low < eps:
                continue
            log = plots.axis_scale(x) == "log"
            m = float(np.sqrt(a * b)) if log and a > 0 else (a + b) / 2
            if info.kind is int:
                m = int(round(m))
                if m <= a or m >= b:
                    m = int(a) + 1 if int(a) + 1 < b else None
            if m is None:
                continue
            todo.append((r.parameter, tuple(ctx.items()), info.kind(m)))
        if not todo:
            break
        for p, ctx, m in dict.fromkeys(todo):
            extra = {**dict(ctx), p: m}
            label = " ".join(f"{k}={v}" for k, v in extra.items()) + " (refining)"
            r = play(extra, label)
            for k in vary:
                r.insert(0, k, extra[k])
            r.insert(0, "point", next_point)
            r["key"] = r["key"].astype(str)
            r["refined"] = True
            next_point += 1
            table = pd.concat([table, r[table.columns]], ignore_index=True)
        cross = _crossings(table, vary, tgt, rate)
    return table, _integer_sides(spec, table, cross, vary, tgt, rate)


def _context(text: str, vary, p) -> dict:
    """'a=1, b=2' back to {a: 1, b: 2} with the swept values' types."""
    out = {}
    for k in vary:
        if k == p:
            continue
        for item in text.split(", "):
            name, _, v = item.partition("=")
            if name == k:
                out[k] = next(x for x in vary[k] if str(x) == v)
    return out


def _series(table, group, key, ctx):
    sub = table[(table["group"] == group) & (table["key"] == key)]
    for k, v in ctx.items():
        sub = sub[sub[k] == v]
    return sub


def _bracket(x, y, target):
    """Index i of the first pair of neighbouring points whose rates straddle
    (or touch) the target, else None."""
    for i in range(len(x) - 1):
        if (y[i] - target) * (y[i + 1] - target) <= 0:
            return i
    return None


def _integer_sides(spec, table, cross, vary, tgt, rate="win"):
    """For an integer parameter, the integers either side of the crossing
    with their rates (and, for a ``fair`` target, the fair share at each):
    a designer sets hp = 15, not 14.83."""
    rows = []
    for r in cross.to_dict("records"):
        info = spec.space.infos[r["parameter"]]
        r.update({"below": np.nan, "below_rate": np.nan, "above": np.nan, "above_rate": np.nan,
                  "below_fair": np.nan, "above_fair": np.nan})
        if r["bracketed"] and info.kind is int:
            x, y, _, _, fair, _ = _gap(table, tgt, rate, _context(r["context"], vary,
                                                              r["parameter"]), r["parameter"])
            if fair is not None:
                y = y + fair
            lo_side, hi_side = x[x <= r["estimate"]], x[x >= r["estimate"]]
            if lo_side.size and hi_side.size:
                a, b = lo_side.max(), hi_side.min()
                r.update({"below": int(a), "below_rate": float(y[x == a][0]),
                          "above": int(b), "above_rate": float(y[x == b][0])})
                if fair is not None:
                    r.update({"below_fair": float(fair[x == a][0]),
                              "above_fair": float(fair[x == b][0])})
        rows.append(r)
    return pd.DataFrame(rows)
