"""Tuning rule parameters towards a balance objective.

``tune`` searches a box of rule parameters (``--vary NAME=LO..HI``, or
``NAME`` alone: its declared sweep range) for the setting that minimises an
objective measured on simulated games:

- ``roles-fair`` (the default where the ruleset has roles) and
  ``seats-fair``: the largest distance of any role's (seat's) win rate from
  the fair share (``stats.share_fair_of``: the mean of the seats' rates);
- ``first-mover=RATE``, ``seat:N=RATE``, ``role:NAME=RATE``,
  ``policy:NAME=RATE`` (RATE a number or ``fair``): the distance of that
  rate from RATE;
- ``length=TURNS``: the distance of the mean game length from TURNS;
- from Python, any function of a trial's summary table (the table of one
  sweep point, with ``fair_share``), returning a number or (value, low,
  high).

Several objectives give a Pareto front (optuna's multi-objective TPE).

The optimiser is optuna's TPE sampler (seeded, so a tune is reproducible)
with its successive-halving pruner (ASHA): every trial first plays
``min_games`` games, and only the best third of the trials at a rung go on
to three times as many, up to ``trial_games``. Every trial plays games
[0, n) of the same seed, so candidates compare on the same deals (paired),
and the pruner compares rungs of equal size. Each rung's games are a piece
of the workflow's store (``out/.points``), described and keyed exactly as a
sweep point's (``sweep`` stores the same pieces), so a resumed or repeated
tune reuses them: the sampler is seeded and sees the same values, so it
proposes the same trials again, and those play no game.

The best setting found is then played again at the full ``games`` on a
fresh seed (``seed + 1``: the search chose it on the first seed's deals, so
its figures there are biased towards it), beside the defaults on the same
fresh seed, and the answer is given with 95% intervals: per key the Wilson
interval of its rate, the distance's bound the farthest end of it (the fair
share, itself an average over all seats, is taken as known).
"""
from __future__ import annotations

import json
import shlex
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, summary
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.setup import check_count, MAX_SEED, setup
from ..core.stats import share_fair_of
from .outcome import Pieces, main_group, open_store, say, text_table
from .sweep import point_summary
from .trials import ETA, Axis, Player, budget, drive, plain, resolve_axes, rungs_of
from .sums import Sink

FRONT_MAX = 5           # Pareto points played again at the full --games
SAMPLER = ("optuna TPE sampler (multivariate, seeded); single objective: successive-halving "
           f"pruner (ASHA, reduction factor {ETA}) on rungs of games; several objectives: "
           "no pruning (optuna prunes single-objective studies only)")


# --- objectives -----------------------------------------------------------------

@dataclass
class Objective:
    """A distance to minimise, from a trial's table: ``fn(table) -> (value,
    low, high)``, ``unit`` 'points' (rates), 'turns' or '' (a Python
    function's own unit), and the words of the answer."""
    label: str
    fn: Callable
    unit: str = "points"
    what: str = ""             # "every role within {v} of the fair share"

    def __call__(self, table) -> tuple[float, float, float]:
        got = self.fn(table)
        if np.ndim(got) == 0:
            v = float(got)
            return v, v, v
        v, lo, hi = (float(x) for x in got)
        return v, lo, hi

    def scale(self) -> float:
        return 100.0 if self.unit == "points" else 1.0

    @property
    def title(self) -> str:
        """The label with its unit, for a column or an axis."""
        return f"{self.label} ({self.unit})" if self.unit else self.label

    def show(self, v) -> str:
        return f"{v * self.scale():.1f}" if np.isfinite(v) else "-"


def _distance(rate, low, high, goal) -> tuple[float, float, float]:
    """|rate - goal| and its 95% interval from the rate's interval (goal known)."""
    d = abs(rate - goal)
    far = max(abs(low - goal), abs(high - goal))
    near = 0.0 if low <= goal <= high else min(abs(low - goal), abs(high - goal))
    return d, near, far


def _max_distance(rows: pd.DataFrame, goal) -> tuple[float, float, float]:
    """The largest distance of any row's rate from ``goal``: the largest
    estimate, and the largest ends of the intervals."""
    ds = [_distance(r.win_rate, r.ci_low, r.ci_high, goal) for r in rows.itertuples()]
    if not ds:
        return (np.nan,) * 3
    return tuple(max(d[i] for d in ds) for i in range(3))


def fair_share(table: pd.DataFrame) -> float:
    return share_fair_of(table[table["group"] == "seat"])


def _goal(rate, table):
    return fair_share(table) if rate == "fair" else rate


def parse_objective(base, text) -> Objective:
    """An objective from its text (see the module doc), checked against the
    run (``base``: its Setup): a role, policy or seat it names must exist."""
    if isinstance(text, Objective):
        return text
    if callable(text):
        return Objective(getattr(text, "__name__", "objective"), text, unit="",
                         what=f"{getattr(text, '__name__', 'objective')} =")
    t = str(text).strip()
    spec = base.spec
    has_roles = main_group(base) == "role"
    if t == "roles-fair":
        if not has_roles:
            raise BalanceError(f"--objective roles-fair: {spec.name} has no roles; use "
                               f"seats-fair, first-mover=RATE or length=TURNS")
        return Objective(t, lambda tb: _max_distance(tb[tb["group"] == "role"], fair_share(tb)),
                         what="every role within {v} points of the fair share")
    if t == "seats-fair":
        return Objective(t, lambda tb: _max_distance(tb[tb["group"] == "seat"], fair_share(tb)),
                         what="every seat within {v} points of the fair share")
    head, sep, value = t.partition("=")
    head, value = head.strip(), value.strip()
    if not sep or not value:
        raise BalanceError(f"--objective {t!r}: expected roles-fair, seats-fair, "
                           f"first-mover=RATE, length=TURNS, role:NAME=RATE, seat:N=RATE or "
                           f"policy:NAME=RATE")
    if head == "length":
        try:
            turns = float(value)
        except ValueError:
            raise BalanceError(f"--objective {t}: TURNS is not a number") from None
        if not turns > 0:
            raise BalanceError(f"--objective {t}: TURNS must be positive")
        return Objective(t, lambda tb: _distance(tb["turns_mean"].iloc[0],
                                                 tb["turns_mean_low"].iloc[0],
                                                 tb["turns_mean_high"].iloc[0], turns),
                         unit="turns", what=f"mean length within {{v}} turns of {turns:g}")
    rate = _rate(t, value)
    goal_text = "the fair share" if rate == "fair" else plots.percent_text(rate)
    if head == "first-mover":
        def first(tb):
            r = tb.iloc[0]
            return _distance(r.first_mover_rate, r.first_mover_low, r.first_mover_high,
                             _goal(rate, tb))
        return Objective(t, first, what=f"the first mover within {{v}} points of {goal_text}")
    kind, _, name = head.partition(":")
    kind, name = kind.strip(), name.strip()
    if kind not in ("role", "seat", "policy") or not name:
        raise BalanceError(f"--objective {t!r}: expected role:NAME=RATE, seat:N=RATE, "
                           f"policy:NAME=RATE, first-mover=RATE or length=TURNS")
    key = _key(base, kind, name, t)

    def one(tb):
        rows = tb[(tb["group"] == kind) & (tb["key"] == key)]
        return _max_distance(rows, _goal(rate, tb))
    noun = {"role": f"{key}", "seat": f"seat {key}", "policy": f"{key}"}[kind]
    return Objective(t, one, what=f"{noun} within {{v}} points of {goal_text}")


def _rate(t: str, value: str):
    if value == "fair":
        return "fair"
    try:
        r = float(value)
    except ValueError:
        raise BalanceError(f"--objective {t}: RATE is a number between 0 and 1 or 'fair'") \
            from None
    if not 0 <= r <= 1:
        raise BalanceError(f"--objective {t}: RATE must be between 0 and 1 (or 'fair')")
    return r


def _key(base, kind: str, name: str, t: str) -> str:
    """The table key an objective names: a role slug (or label), a seat or a policy."""
    spec = base.spec
    if kind == "role":
        if main_group(base) != "role":
            raise BalanceError(f"--objective {t}: {spec.name} has no roles")
        slugs = spec.role_names(base.values)
        by_label = {str(lab): slugs[k] for k, lab in spec.roles(base.values).items()}
        if name in by_label:
            return by_label[name]
        if name in slugs.values():
            return name
        raise BalanceError(f"--objective {t}: no role {name!r} in {spec.name} (roles: "
                           f"{', '.join(slugs.values())})")
    if kind == "policy":
        if name not in base.policies:
            raise BalanceError(f"--objective {t}: no policy {name!r} in this lineup "
                               f"({', '.join(dict.fromkeys(base.policies))})")
        return name
    seat = name[4:] if name.lower().startswith("seat") else name
    if not (seat.isdigit() and int(seat) < base.n_players):
        raise BalanceError(f"--objective {t}: seats are 0..{base.n_players - 1}")
    return str(int(seat))


def default_objective(base) -> str:
    return "roles-fair" if main_group(base) == "role" else "seats-fair"


def with_rate(table: pd.DataFrame, rate: str) -> pd.DataFrame:
    """A point table whose ``win_rate`` (and interval) is the rate balanced:
    the win rate, or the sole-win rate (``rate='sole'``) where wins are
    shared; ``fair_share`` added (``stats.share_fair_of``)."""
    t = table.copy()
    if rate == "sole" and "sole_win_rate" in t:
        t["win_rate"], t["ci_low"], t["ci_high"] = (t["sole_win_rate"], t["sole_ci_low"],
                                                    t["sole_ci_high"])
    t["fair_share"] = fair_share(t)
    return t


# --- the result -------------------------------------------------------------------

@dataclass
class TuneResult(Published):
    ruleset: str
    base: dict                     # setup description of the base configuration
    axes: list
    objectives: list               # Objective
    trials: pd.DataFrame           # one row per trial (its last rung)
    best: list                     # [{params, trial}] the answer(s)
    verify: pd.DataFrame           # the answer(s) and the defaults at --games, fresh seed
    games: int
    trial_games: int
    min_games: int
    verify_seed: int
    rate: str = "win"
    tolerance: float | None = None
    recheck: pd.DataFrame | None = None
    recheck_policy: str | None = None
    recheck_games: int = 0
    recheck_why: str = ""          # how 'strongest' chose its level and games
    command: str = ""
    reused: int = 0                # trials that played no game here (the store or a twin)
    played: int = 0                # games played by this call
    repeats: int = 0               # settings the sampler proposed again (no game, not a trial)
    group: str = "seat"            # the rates shown: role, policy or seat (outcome.main_group)
    files: list = field(default_factory=list)

    @property
    def pareto(self) -> bool:
        return len(self.objectives) > 1

    def _names(self):
        return [f"objective_{i}" if self.pareto else "objective"
                for i in range(len(self.objectives))]

    def answer_lines(self) -> list[str]:
        """The answer in words: each best setting with its intervals beside
        the defaults, and the re-check under another lineup."""
        out = []
        v = self.verify
        dflt = v[v["setting"] == "defaults"].iloc[0]
        for _, r in v[v["setting"] != "defaults"].iterrows():
            setting = ", ".join(f"{a.name}={r[a.name]}" for a in self.axes)
            parts = []
            for i, (o, col) in enumerate(zip(self.objectives, self._names())):
                parts.append(self._phrase(o, r[col], r[col + "_high"], dflt[col],
                                          dflt[col + "_high"]))
            out.append(f"{setting}: " + "; ".join(parts))
            if self.tolerance is not None and not self.pareto:
                c = self.klass(r["objective_low"], r["objective_high"])
                out.append(f"  tolerance {self.tolerance:g} {self.objectives[0].unit or ''}: "
                           f"{c}".rstrip())
        near = self.near()
        if near is not None and len(near) > 1:
            out.append(f"  as good within noise ({len(near)} trials at {self.trial_games:,} games "
                       f"whose 95% interval overlaps the best's): "
                       + ", ".join(f"{a.name} {near[a.name].min()}..{near[a.name].max()}"
                                   for a in self.axes))
        return out

    def near(self) -> pd.DataFrame | None:
        """The trials played in full whose objective's 95% interval overlaps
        the best trial's: settings the trials cannot tell from the answer
        (a flat objective gives a wide range, and the answer is one of many)."""
        if self.pareto:
            return None
        t = self.trials[self.trials["games"] == self.trial_games]
        b = t[t["trial"] == self.best[0]["trial"]]
        if b.empty:
            return None
        lo, hi = float(b["objective_low"].iloc[0]), float(b["objective_high"].iloc[0])
        return t[(t["objective_low"] <= hi) & (t["objective_high"] >= lo)]

    def _phrase(self, o: Objective, val, high, dval, dhigh) -> str:
        u = f" {o.unit}" if o.unit else ""
        if "{v}" in o.what:
            head = o.what.replace("{v}", o.show(val))
        else:
            head = f"{o.what} {o.show(val)}"
        return (f"{head} [max {o.show(high)} at 95%] (defaults: {o.show(dval)}{u}, "
                f"max {o.show(dhigh)} at 95%)")

    def klass(self, low, high) -> str:
        """met (the 95% bound within the tolerance), missed (even the near end
        beyond it) or unclear."""
        tol = self.tolerance / self.objectives[0].scale()
        return "met" if high <= tol else "missed" if low > tol else "unclear"

    def lines(self) -> list[str]:
        b = self.base
        n = len(self.trials)
        pruned = int((self.trials["state"] == "pruned").sum())
        out = [f"tune {self.ruleset}: {n} trials on seed {b['seed']} (paired), "
               + (f"{self.trial_games:,}" if self.min_games == self.trial_games else
                  f"{self.min_games:,}-{self.trial_games:,}")
               + f" games a trial, {b['players']} players, "
               f"policies {', '.join(b['policies'])}"
               + (f"; {pruned} stopped early by the pruner" if pruned else "")
               + (f"; {self.reused} played no new game (stored, or proposed before)"
                  if self.reused else "")
               + (f"; the sampler proposed {self.repeats} settings again (played once)"
                  if self.repeats else ""),
               "box: " + "; ".join(a.text() for a in self.axes),
               "objective" + ("s (Pareto front)" if self.pareto else "") + ": "
               + ", ".join(o.label for o in self.objectives)
               + f" on the {'sole-win' if self.rate == 'sole' else 'win'} rate"]
        out += self.trial_lines()
        out.append(f"answer, played again at {self.games:,} games on a fresh seed "
                   f"({self.verify_seed}) beside the defaults (95% intervals):")
        out += ["  " + x for x in self.answer_lines()]
        out += self.rate_lines()
        if self.recheck is not None:
            out += self.recheck_lines()
        out.append(f"method: {SAMPLER}; the distance's interval from each rate's 95% Wilson "
                   f"interval, the fair share taken as known")
        return out

    def trial_lines(self, top: int = 8) -> list[str]:
        """The best trials (single objective) or the Pareto front."""
        t = self.trials
        cols = [a.name for a in self.axes]
        objs = self._names()
        if self.pareto:
            sub = t[t["pareto"]]
            title = f"Pareto front ({len(sub)} of {len(t)} trials, at {self.trial_games:,} games):"
        else:
            sub = t.sort_values(["games", "objective"], ascending=[False, True]).head(top)
            title = f"best trials (of {len(t)}; the most games first, then the objective):"
        rows = []
        for _, r in sub.iterrows():
            cells = [str(int(r["trial"]))] + [str(r[c]) for c in cols]
            for o, c in zip(self.objectives, objs):
                cells.append(f"{o.show(r[c])} [{o.show(r[c + '_low'])}, {o.show(r[c + '_high'])}]")
            cells += [f"{int(r['games']):,}", r["state"]]
            rows.append(cells)
        header = ["trial"] + cols + [o.title for o in self.objectives] + ["games", "state"]
        return [title] + text_table(header, rows, right=set(range(len(header) - 1)))

    def rate_lines(self) -> list[str]:
        """The main group's rates at the answer(s) and at the defaults."""
        v = self.verify
        keys = [c[5:] for c in v.columns if c.startswith("rate ")]
        if not keys:
            return []
        header = ["setting"] + keys + ["fair"]
        rows = []
        for _, r in v.iterrows():
            name = "defaults" if r["setting"] == "defaults" else \
                ", ".join(f"{a.name}={r[a.name]}" for a in self.axes)
            rows.append([name] + [f"{r['rate ' + k]:.2%} [{r['low ' + k]:.2%}, "
                                  f"{r['high ' + k]:.2%}]" for k in keys]
                        + [f"{r['fair_share']:.2%}"])
        return [f"{self.group} rates at {self.games:,} games, seed {self.verify_seed}:"] + \
            text_table(header, rows)

    def recheck_lines(self) -> list[str]:
        r = self.recheck
        out = [f"re-checked under {self.recheck_policy} at every seat, {self.recheck_games:,} "
               f"games on seed {self.verify_seed}"
               + (f" ({self.recheck_why})" if self.recheck_why else "") + ":"]
        dflt = r[r["setting"] == "defaults"].iloc[0]
        for _, x in r[r["setting"] != "defaults"].iterrows():
            setting = ", ".join(f"{a.name}={x[a.name]}" for a in self.axes)
            parts = [self._phrase(o, x[c], x[c + "_high"], dflt[c], dflt[c + "_high"])
                     for o, c in zip(self.objectives, self._names())]
            out.append(f"  {setting}: " + "; ".join(parts) + f": {x['verdict']}")
        return out

    # --- files ---------------------------------------------------------------
    def history_figure(self):
        fig, axes = plots.figure(7.2, 3.6 * len(self.objectives), len(self.objectives), 1)
        t = self.trials
        for ax, o, c in zip(axes[:, 0], self.objectives, self._names()):
            y = t[c] * o.scale()
            full = t["games"] == self.trial_games
            sc = ax.scatter(t["trial"], y, c=np.log(t["games"]), cmap="viridis", s=18,
                            label="trial (colour: games played)")
            if not self.pareto:
                best = (t[c].where(full)).cummin() * o.scale()
                ax.step(t["trial"], best, where="post", color="C3",
                        label=f"best at {self.trial_games:,} games so far")
            ax.set_xlabel("trial")
            ax.set_ylabel(o.title)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
            del sc
        plots.suptitle(fig, plots.describe(self.ruleset, self.base, self.trial_games)
                       + f" per trial at most\ntune history: {len(t)} trials")
        return fig

    def param_figure(self, axis: Axis):
        o, c = self.objectives[0], self._names()[0]
        fig, axes = plots.figure(6.4, 3.8)
        ax = axes[0][0]
        t = self.trials
        x = t[axis.name].astype(float)
        ax.scatter(x, t[c] * o.scale(), c=np.log(t["games"]), cmap="viridis", s=18)
        full = t[t["games"] == self.trial_games]
        if len(full):
            ax.errorbar(full[axis.name].astype(float), full[c] * o.scale(),
                        yerr=[(full[c] - full[c + "_low"]) * o.scale(),
                              (full[c + "_high"] - full[c]) * o.scale()],
                        fmt="none", ecolor="grey", alpha=0.5, capsize=2,
                        label=f"95% interval at {self.trial_games:,} games")
        for b in self.best:
            ax.axvline(float(b["params"][axis.name]), color="C3", ls="--", lw=1,
                       label="answer" if b is self.best[0] else None)
        if axis.log and (x > 0).all():
            ax.set_xscale("log")
        elif axis.log:
            ax.set_xscale("symlog", linthresh=1)
        ax.set_xlabel(axis.name)
        ax.set_ylabel(o.title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        plots.axes_title(ax, plots.describe(self.ruleset, self.base, self.trial_games)
                         + f" per trial at most\n{o.label} against {axis.name} "
                           "(colour: games played)")
        return fig

    def pareto_figure(self):
        k = len(self.objectives)
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
        fig, axes = plots.figure(5.4 * len(pairs), 4.2, 1, len(pairs))
        t = self.trials
        names = self._names()
        for ax, (i, j) in zip(axes[0], pairs):
            oi, oj = self.objectives[i], self.objectives[j]
            ax.scatter(t[names[i]] * oi.scale(), t[names[j]] * oj.scale(), s=14, color="grey",
                       alpha=0.6, label="trials")
            f = t[t["pareto"]].sort_values(names[i])
            ax.plot(f[names[i]] * oi.scale(), f[names[j]] * oj.scale(), "o-", color="C3",
                    label="Pareto front")
            ax.set_xlabel(oi.title)
            ax.set_ylabel(oj.title)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        plots.suptitle(fig, plots.describe(self.ruleset, self.base, self.trial_games)
                       + " per trial\nPareto front of the objectives (lower is better)")
        return fig

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "tune.csv", out / "tune_answer.csv"]
        self.trials.to_csv(files[0], index=False)
        self.verify.to_csv(files[1], index=False)
        if self.recheck is not None:
            files.append(out / "tune_recheck.csv")
            self.recheck.to_csv(files[-1], index=False)
        files.append(plots.save(self.history_figure(), out / "tune_history.png"))
        for a in self.axes:
            files.append(plots.save(self.param_figure(a), out / f"tune_{a.name}.png"))
        if self.pareto:
            files.append(plots.save(self.pareto_figure(), out / "tune_pareto.png"))
        files.append(out / "tune.json")
        files[-1].write_text(json.dumps({
            "base": self.base, "axes": [a.text() for a in self.axes],
            "objectives": [o.label for o in self.objectives], "rate": self.rate,
            "games": self.games, "trial_games": self.trial_games, "min_games": self.min_games,
            "verify_seed": self.verify_seed, "best": self.best, "tolerance": self.tolerance,
            "recheck_policy": self.recheck_policy, "recheck_games": self.recheck_games,
            "method": SAMPLER, "command": self.command}, indent=2, default=str))
        files.append(out / "tune.md")
        files[-1].write_text(self.markdown(files))
        self.files = files
        return files

    def markdown(self, files) -> str:
        from ..core.io import version
        b = self.base
        changed = {k: v for k, v in b["params"].items()
                   if registry.get(self.ruleset).space.infos[k].default != v}
        head = [f"# Tune: {self.ruleset}", "",
                f"- ruleset `{self.ruleset}` version {b['version']}, balance {version()}",
                f"- {b['players']} players, policies {', '.join(b['policies'])}, seed "
                f"{b['seed']} (trials), {self.verify_seed} (the answer, fresh)",
                "- parameters changed from the defaults (besides the box): "
                + (", ".join(f"{k}={v}" for k, v in changed.items()
                             if k not in {a.name for a in self.axes}) or "none"),
                "", "## Answer", ""] + [f"- {x.strip()}" for x in self.answer_lines()]
        if self.recheck is not None:
            rc = self.recheck_lines()
            head += ["", rc[0]] + [f"- {x.strip()}" for x in rc[1:]]
        body = ["", "```", *self.lines(), "```", ""]
        figs = [f"![{p.stem}]({p.name})" for p in files if str(p).endswith(".png")]
        return "\n".join(head + body + figs + ["", "Regenerate with:", "", "```",
                                               self.command, "```", ""])


# --- the workflow ---------------------------------------------------------------------

def command_line(ruleset, vary, objectives, games, seed, players, policies, params, *, rate,
                 trials, trial_games, min_games, tolerance, recheck_policy, recheck_games,
                 sink, out) -> str:
    """The ``balance tune`` line of these arguments."""
    parts = ["balance", "tune", ruleset]
    for a in vary:
        parts += ["--vary", a.text().split(" (")[0] if a.kind is not bool else a.name]
    for o in objectives:
        parts += ["--objective", o.label]
    parts += ["--games", str(games), "--seed", str(seed), "--players", str(players)]
    for p in policies[:1] if len(set(policies)) == 1 else policies:    # one for every seat
        parts += ["--policy", p]
    for k, v in (params or {}).items():
        parts += ["--set", f"{k}={v}"]
    parts += ["--trials", str(trials), "--trial-games", str(trial_games), "--min-games",
              str(min_games)]
    if rate != "win":
        parts += ["--rate", rate]
    if tolerance is not None:
        parts += ["--tolerance", f"{tolerance:g}"]
    if recheck_policy is not None:
        parts += ["--recheck-policy", recheck_policy, "--recheck-games", str(recheck_games)]
    if not sink.tables:
        parts.append("--summary-only")
    if out is not None:
        parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def plan(trials: int, rungs: list[int], games: int, n_front: int, recheck_games: int,
         pareto: bool) -> tuple[int, str]:
    """(at most this many games, the plan in words), said before the first game."""
    per = rungs[-1]
    most = trials * per + (n_front + 1) * (games + recheck_games)
    if pareto:
        how = f"{trials} trials x {per:,} games (no pruning with several objectives)"
    elif len(rungs) == 1:
        how = (f"{trials} trials x {per:,} games (one rung: --trial-games is under 3 x "
               f"--min-games, so no trial is stopped early)")
    else:
        how = (f"{trials} trials, each {rungs[0]:,} games first and "
               + ", ".join(f"{g:,}" for g in rungs[1:]) + " games for the best third at each "
               "rung (successive halving)")
    text = (f"{how}; then the answer{'s (up to ' + str(n_front) + ')' if pareto else ''} and the "
            f"defaults at {games:,} games on a fresh seed"
            + (f", and re-checked at {recheck_games:,} games" if recheck_games else "")
            + f": at most {most:,} games")
    return most, text


def tune(ruleset: str, vary, games: int = 10_000, seed: int = 0, players=None, policies=None,
         params: dict | None = None, *, objective=None, rate: str = "win", trials: int = 30,
         trial_games: int | None = None, min_games: int | None = None,
         tolerance: float | None = None, recheck_policy: str | None = None,
         recheck_games: int | None = None, out=None, progress: bool | None = None,
         store=None, summary_only: bool = False, field=None):
    """Search the box ``vary`` for the rule parameters that minimise
    ``objective`` (see the module doc).

    >>> r = tune("talisman", ["hp=10..40"], games=100_000, policies=["greedy"],
    ...          objective="seats-fair")
    >>> r.best, r.verify

    ``objective``: one objective (text or a function of a trial's table) or
    a list of them (a Pareto front); default ``roles-fair`` where the
    ruleset has roles, else ``seats-fair``. ``rate``: balance the ``win``
    or the ``sole``-win rate. ``trials`` trials of at most ``trial_games``
    games (default ``games``), judged first at ``min_games`` (default
    trial_games / 27, at least 1,000); ``tolerance`` (points, or turns for a
    length) marks the answer met, missed or unclear. ``recheck_policy`` (a
    policy, or ``strongest``: the ruleset's strongest search level whose
    runs fit the report's skill budget, ``skill.choose``) plays the answer
    and the defaults again with that policy at every seat
    (``recheck_games``, default min(games, 2000), fewer where the budget
    asks).

    ``objective='policy:NAME=max'`` tunes the policy's own float parameters
    instead (``policy_tune.tune_policy``: the variant with the largest
    advantage over ``field``), and returns its ``PolicyTuneResult``.
    """
    try:
        import optuna
    except ImportError:
        raise BalanceError("tune needs optuna: python3 -m pip install 'optuna>=3'") from None
    spec = registry.get(ruleset)
    from .policy_tune import objective_policy, tune_policy
    name = objective_policy(spec, objective)
    if name is not None:
        for flag, given in (("--policy", policies), ("--rate sole", rate != "win"),
                            ("--tolerance", tolerance is not None),
                            ("--recheck-policy", recheck_policy is not None)):
            if given:
                raise BalanceError(f"{flag} does not apply to --objective policy:{name}=max "
                                   f"(the lineups are the candidate against --field)")
        return tune_policy(ruleset, vary, games, seed, players, params, policy=name,
                           field=field, trials=trials, trial_games=trial_games,
                           min_games=min_games, out=out, progress=progress, store=store)
    if field is not None:
        raise BalanceError("--field applies to --objective policy:NAME=max only")
    params = dict(params or {})
    games, trials, trial_games, min_games = budget(games, trials, trial_games, min_games)
    if rate not in ("win", "sole"):
        raise BalanceError(f"--rate {rate!r}: win or sole")
    if tolerance is not None and not tolerance > 0:
        raise BalanceError(f"--tolerance {tolerance}: must be positive")
    axes = resolve_axes(spec, vary)
    for a in axes:
        if a.name in params:
            say(f"warning: --vary {a.name} replaces {a.name}={params[a.name]} (from --set or "
                f"--config) in every trial; the 'defaults' the answer is compared with keep it")
    base = setup(ruleset, seed=seed, players=players, policies=policies, params=params)
    P = base.n_players
    for a in axes:                           # both ends of the box are valid settings
        for v in (a.low, a.high):
            setup(ruleset, seed=seed, players=P, policies=base.policies,
                  params={**params, a.name: v})
    objs = objective if isinstance(objective, (list, tuple)) else \
        [objective if objective is not None else default_objective(base)]
    objs = [parse_objective(base, o) for o in objs] or [parse_objective(base, default_objective(base))]
    if len(objs) > 1 and tolerance is not None:
        raise BalanceError("--tolerance applies to one objective; with several, read the front")
    pareto = len(objs) > 1
    verify_seed = seed + 1 if seed < MAX_SEED else seed - 1
    if recheck_policy is not None:
        recheck_policy = _recheck_policy(spec, recheck_policy)
        recheck_games = check_count("--recheck-games", recheck_games if recheck_games is not None
                                    else min(games, 2000))
    else:
        recheck_games = 0
    rungs = [trial_games] if pareto else rungs_of(trial_games, min_games)
    n_front = FRONT_MAX if pareto else 1
    most, words = plan(trials, rungs, games, n_front, recheck_games, pareto)
    sink = Sink.of(summary_only)
    st, own = open_store(store, out)
    say(f"tune {ruleset} plan: {words}")
    pieces = Pieces(st, most, "game", f"tune {ruleset}", progress, say_resumed=own)
    player = Player(st, pieces, sink)

    def table_of(s, agg):
        return with_rate(point_summary(s, agg), rate)

    rows = []
    reused = 0
    group = main_group(base)

    def run_trial(trial) -> tuple[list, bool, bool]:
        """(objective values, pruned, repeat): a repeat proposes a setting
        already played this far in this call, and plays nothing."""
        nonlocal reused
        values = {a.name: a.suggest(trial) for a in axes}
        s = setup(ruleset, seed=seed, players=P, policies=base.policies,
                  params={**params, **values})
        label = " ".join(f"{k}={v}" for k, v in values.items())
        played, fresh, agg, a, res = player.played, player.fresh, None, 0, None
        for k, b in enumerate(rungs):
            part = player.sums(s, a, b, f"trial {trial.number}: {label}")
            agg = part if agg is None else summary.merge([agg, part])
            a = b
            t = table_of(s, agg)
            res = [o(t) for o in objs]
            if not pareto:
                trial.report(res[0][0], step=b)
                if k < len(rungs) - 1 and trial.should_prune():
                    break
        pruned = a < rungs[-1]
        repeat = player.fresh == fresh
        if not repeat:
            if pruned:
                pieces.add(-(rungs[-1] - a))
            rows.append(_row(trial.number, values, a, res, t, group,
                             "pruned" if pruned else "complete", pareto))
            reused += player.played == played and st.root is not None
        return [r[0] for r in res], pruned, repeat

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", category=optuna.exceptions.ExperimentalWarning)
            sampler = optuna.samplers.TPESampler(
                seed=seed % 2**32, multivariate=True,
                n_startup_trials=max(2, min(10, trials // 3)))
            pruner = optuna.pruners.SuccessiveHalvingPruner(
                min_resource=rungs[0], reduction_factor=ETA) if not pareto else None
            study = optuna.create_study(directions=["minimize"] * len(objs), sampler=sampler,
                                        pruner=pruner)
            # --trials counts distinct settings (trials.drive)
            def one(trial):
                vals, pruned, repeat = run_trial(trial)
                return (vals if pareto else vals[0]), pruned, repeat
            repeats = drive(study, trials, one)
        table = pd.DataFrame(rows)
        if pareto:
            front = {t.number for t in study.best_trials}
            table["pareto"] = table["trial"].isin(front)
            fr = table[table["pareto"]].sort_values("objective_0")
            idx = np.unique(np.linspace(0, len(fr) - 1, min(FRONT_MAX, len(fr))).round()
                            .astype(int))
            chosen = fr.iloc[idx]
        else:
            done = table[table["state"] == "complete"]
            chosen = done.nsmallest(1, "objective") if len(done) else table.nsmallest(1, "objective")
        best = [{"trial": int(r["trial"]), "params": {a.name: plain(r[a.name]) for a in axes}}
                for _, r in chosen.iterrows()]
        say(f"tune {ruleset}: best trial{'s' if len(best) > 1 else ''} "
            + "; ".join(", ".join(f"{k}={v}" for k, v in b["params"].items()) for b in best)
            + f"; playing {'them' if len(best) > 1 else 'it'} and the defaults at {games:,} "
              f"games on seed {verify_seed}")
        settings = [("defaults", {})] + [(f"trial {b['trial']}", b["params"]) for b in best]
        verify = _evaluate(ruleset, settings, axes, objs, params, P, base.policies, verify_seed,
                           games, player, table_of, group)
        recheck, why = None, ""
        if recheck_policy == "strongest":
            recheck_policy, recheck_games, why = _strongest(
                ruleset, verify_seed, P, {**params, **best[0]["params"]}, len(settings),
                recheck_games)
            say(f"tune {ruleset}: re-check: {why}")
        if recheck_policy is not None:
            recheck = _evaluate(ruleset, settings, axes, objs, params, P, [recheck_policy] * P,
                                verify_seed, recheck_games, player, table_of, group)
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    res = TuneResult(ruleset, base.describe(), axes, objs, table, best, verify, games,
                     trial_games, rungs[0], verify_seed, rate=rate, tolerance=tolerance,
                     recheck_policy=recheck_policy, recheck_games=recheck_games, reused=reused,
                     played=player.played, repeats=repeats, group=group, recheck_why=why)
    if recheck is not None:
        recheck["verdict"] = _verdicts(res, verify, recheck)
        res.recheck = recheck
    res.command = command_line(ruleset, axes, objs, games, seed, P, base.policies, params,
                               rate=rate, trials=trials, trial_games=trial_games,
                               min_games=rungs[0], tolerance=tolerance,
                               recheck_policy=recheck_policy, recheck_games=recheck_games,
                               sink=sink, out=out)
    if out is not None:
        res.save(out)
    return res


def _row(n, values, games, res, t, group, state, pareto) -> dict:
    r = {"trial": n, "state": state, "games": games, **values}
    for i, (v, lo, hi) in enumerate(res):
        name = f"objective_{i}" if pareto else "objective"
        r[name], r[name + "_low"], r[name + "_high"] = v, lo, hi
    r.update(_rates(t, group))
    return r


def _rates(t: pd.DataFrame, group: str) -> dict:
    g = t[t["group"] == group]
    r = {}
    for x in g.itertuples():
        r[f"rate {x.key}"], r[f"low {x.key}"], r[f"high {x.key}"] = x.win_rate, x.ci_low, x.ci_high
    r["fair_share"] = float(t["fair_share"].iloc[0])
    r["turns_mean"] = float(t["turns_mean"].iloc[0])
    return r


def _evaluate(ruleset, settings, axes, objs, params, P, policies, seed, games, player,
              table_of, group) -> pd.DataFrame:
    """Each setting (name, values) played at ``games`` games of ``seed``."""
    rows = []
    pareto = len(objs) > 1
    for name, values in settings:
        s = setup(ruleset, seed=seed, players=P, policies=policies, params={**params, **values})
        agg = player.sums(s, 0, games, f"{name} ({', '.join(dict.fromkeys(policies))})",
                          bar=True)
        t = table_of(s, agg)
        r = _row(0, {a.name: s.values[a.name] for a in axes}, games, [o(t) for o in objs], t,
                 group, "", pareto)
        r.pop("trial"), r.pop("state")
        rows.append({"setting": name, **r})
    return pd.DataFrame(rows)


def _recheck_policy(spec, name: str) -> str:
    """The re-check's policy, checked: a policy of the ruleset, or
    ``strongest`` (chosen once the answer is known: :func:`_strongest`)."""
    if name == "strongest":
        from .skill import levels
        if not levels(spec):
            raise BalanceError(f"--recheck-policy strongest: {spec.name} has no search policy; "
                               f"name a policy ({', '.join(spec.policies)})")
        return name
    registry.policy_id(spec, name)
    return name


def _strongest(ruleset, seed, players, params, runs: int, games: int) -> tuple[str, int, str]:
    """(policy, games, why): the strongest search level whose ``runs`` runs
    of ``games`` games fit the report's skill budget (``skill.choose``, timed
    at the answer's setting: ``BALANCE_SKILL_SECONDS``, default 600 s)."""
    import numba

    from .report import skill_budget
    from .skill import choose
    seconds = skill_budget() or 600.0
    return choose(ruleset, seed, players, params, runs, games, seconds,
                  numba.get_num_threads())


def _against(x, d, col) -> str:
    """better, worse or even: a setting's distance against the defaults',
    by their 95% intervals (disjoint or not)."""
    return ("better" if x[col + "_high"] < d[col + "_low"] else
            "worse" if x[col + "_low"] > d[col + "_high"] else "even")


def _verdicts(res: TuneResult, verify: pd.DataFrame, recheck: pd.DataFrame) -> list[str]:
    """Per row of the re-check: does the answer hold under the re-check's
    policy? Read as the report's skill section reads its findings (same
    class: holds; the claim turned round, disjoint intervals: it does not;
    else unclear). With a tolerance the class is met, missed or unclear;
    without one it is better, worse or even against the defaults (each
    objective's 95% intervals), in the tuned lineup and in the re-check's.
    An answer met (better) for the tuned lineup and missed (worse) here
    'only holds for the tuned lineup'."""
    lineup = ", ".join(dict.fromkeys(res.base["policies"]))
    only = f"only holds for the tuned lineup ({lineup})"
    out = []
    names = res._names()
    d0 = verify[verify["setting"] == "defaults"].iloc[0]
    d1 = recheck[recheck["setting"] == "defaults"].iloc[0]
    for _, x in recheck.iterrows():
        if x["setting"] == "defaults":
            out.append("")
            continue
        v = verify[verify["setting"] == x["setting"]].iloc[0]
        a0 = [_against(v, d0, c) for c in names]
        a1 = [_against(x, d1, c) for c in names]
        against = f"against the defaults: {', '.join(a0)} there, {', '.join(a1)} here"
        if res.tolerance is not None:
            c0 = [res.klass(v["objective_low"], v["objective_high"])]
            c1 = [res.klass(x["objective_low"], x["objective_high"])]
            good, bad = "met", "missed"
            what = f"tolerance {res.tolerance:g}: {c0[0]} there, {c1[0]} here; {against}"
        else:
            c0, c1, good, bad, what = a0, a1, "better", "worse", against
        if c0 == c1:
            out.append(f"holds ({what})")
        elif any(a == good and b == bad for a, b in zip(c0, c1)):
            out.append(f"{only} ({what})")
        else:
            out.append(f"unclear ({what})")
    return out


__all__ = ["tune", "TuneResult", "Objective", "parse_objective", "resolve_axes"]
