"""Tuning a heuristic's own parameters: the variant of a policy that plays
best against a field (``balance tune --objective policy:NAME=max``).

A trial is a variant ``NAME[p=v,...]`` (``core.variants``) of the box's
float policy parameters. It plays every lineup of the field: for each field
policy F and each seat i, the variant at seat i and F at every other seat
(F = NAME itself is the policy with its defaults: the head-to-head). Every
lineup plays games [0, n) of the same seed, so the variant meets every
deal once from every seat and candidates compare on the same deals.

The objective, maximised, is the variant's **advantage**: its win rate over
all its seats minus the fair share (the mean win rate of all seats of those
games), in points; its 95% interval is the Wilson interval of the rate, the
fair share taken as known (as ``tune`` does). The optimiser is the same as
``tune``'s: optuna's seeded TPE sampler with successive halving on rungs of
games, pieces kept in the workflow's store so a re-run resumes.

The best variant is played again at ``games`` games a lineup on a fresh
seed, against each field policy, beside the defaults against the same
field: the answer says whether it beats its defaults head to head with 95%
confidence, and writes it as a profile (``tuned.toml``) that every command
takes as ``--policy NAME@tuned.toml``.
"""
from __future__ import annotations

import json
import shlex
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats, summary, variants
from ..core.errors import BalanceError
from ..core.outdir import Published
from ..core.setup import MAX_SEED, setup
from ..core.search import is_search
from .outcome import Pieces, open_store, say, text_table
from .trials import ETA, Player, budget, drive, plain, resolve_axes, rungs_of
from .sums import Sink

SAMPLER = ("optuna TPE sampler (multivariate, seeded), maximising the advantage; "
           f"successive-halving pruner (ASHA, reduction factor {ETA}) on rungs of games")


def objective_policy(spec, objective) -> str | None:
    """NAME of an objective ``policy:NAME=max``, checked; None for any other."""
    texts = objective if isinstance(objective, (list, tuple)) else [objective]
    found = [str(t).strip() for t in texts if isinstance(t, str)
             and str(t).strip().startswith("policy:") and str(t).strip().endswith("=max")]
    if not found:
        return None
    if len(texts) > 1:
        raise BalanceError("--objective policy:NAME=max is tuned alone (give one --objective)")
    name = found[0][len("policy:"):-len("=max")].strip()
    if name not in spec.policies:
        registry.policy_id(spec, name)              # the one-line unknown-policy error
        raise BalanceError(f"--objective {found[0]}: NAME is a policy, not a variant "
                           f"(the box gives its parameters)")
    if is_search(name):
        raise BalanceError(f"--objective {found[0]}: {name} is a search; tune a heuristic "
                           f"({', '.join(p for p in spec.policies if not is_search(p))})")
    return name


def resolve_field(spec, name: str, field_=None) -> list[str]:
    """The field's policies (labels): given, or the ruleset's heuristics
    (every policy but the searches); NAME itself always (the head-to-head
    against the defaults), first."""
    if field_ is None or len(field_) == 0:
        pols = [p for p in spec.policies if not is_search(p)]
    else:
        pols = variants.labels(spec, field_)
    return list(dict.fromkeys([name] + pols))


def lineups(P: int, candidate: str, field_: list[str]):
    """(opponent, seat, policies) of every lineup: the candidate at each seat
    in turn, the opponent at every other."""
    for f in field_:
        for i in range(P):
            pols = [f] * P
            pols[i] = candidate
            yield f, i, pols


def advantage(parts: list, P: int) -> dict:
    """The candidate's figures over lineups ``[(seat, sums)]``: its win rate,
    the fair share (the mean rate of all seats), the advantage and its
    Wilson 95% interval, in rates (x100 for points)."""
    n = sum(int(a["n"]) for _, a in parts)
    wins = sum(int(a["seat_wins"][i]) for i, a in parts)
    total = sum(int(np.sum(a["seat_wins"])) for _, a in parts)
    fair = total / (P * n) if n else np.nan
    lo, hi = stats.wilson(wins, n)
    rate = wins / n if n else np.nan
    return {"games": n, "rate": rate, "fair_share": fair, "advantage": rate - fair,
            "advantage_low": float(lo) - fair, "advantage_high": float(hi) - fair}


@dataclass
class PolicyTuneResult(Published):
    ruleset: str
    policy: str
    base: dict                     # setup description of the head-to-head at the defaults
    axes: list
    field: list
    trials: pd.DataFrame
    best: dict                     # {param: value}
    best_trial: int
    verify: pd.DataFrame           # setting x opponent at --games a lineup, fresh seed
    games: int
    trial_games: int
    min_games: int
    verify_seed: int
    command: str = ""
    played: int = 0
    files: list = field(default_factory=list)

    @property
    def label(self) -> str:
        return variants.label(self.policy, self.best)

    def head_to_head(self) -> pd.Series:
        v = self.verify
        return v[(v["setting"] == "tuned") & (v["opponent"] == self.policy)].iloc[0]

    @property
    def best_is_default(self) -> bool:
        """The answer is the policy's own defaults (the first trial)."""
        d = registry.get(self.ruleset).space.infos
        return all(float(v) == float(d[k].default) for k, v in self.best.items())

    @property
    def beats_defaults(self) -> bool:
        return bool(self.head_to_head()["advantage_low"] > 0)

    def answer_lines(self) -> list[str]:
        h = self.head_to_head()
        pts = lambda r: (f"{100 * r['advantage']:+.1f} points [{100 * r['advantage_low']:+.1f}, "
                         f"{100 * r['advantage_high']:+.1f}]")
        if self.beats_defaults:
            head = (f"{self.label} beats {self.policy}'s defaults head to head with 95% "
                    f"confidence: {pts(h)} above the fair share ({h['rate']:.1%} against "
                    f"{h['fair_share']:.1%}, {int(h['games']):,} games)")
        elif self.best_is_default:
            t = self.trials[self.trials["state"] == "complete"]
            other = t[t["trial"] != self.best_trial].nlargest(1, "advantage")
            runner = "" if other.empty else (
                f"; the best other setting at {self.trial_games:,} games a lineup: "
                f"{pts(other.iloc[0])} against the field, the defaults "
                f"{pts(t[t['trial'] == self.best_trial].iloc[0])}")
            head = (f"the defaults are the best setting found in the box: no trial beat "
                    f"{self.policy}'s defaults against the field{runner}")
        else:
            head = (f"no variant in the box is shown to beat {self.policy}'s defaults: the best "
                    f"trial, {self.label}, plays them {pts(h)} head to head "
                    f"({int(h['games']):,} games; the interval holds 0 or lies below it)")
        out = [head]
        v = self.verify
        for opp in self.field:
            if opp == self.policy:
                continue
            t = v[(v["setting"] == "tuned") & (v["opponent"] == opp)].iloc[0]
            d = v[(v["setting"] == "defaults") & (v["opponent"] == opp)].iloc[0]
            out.append(f"against {opp}: tuned {pts(t)}, defaults {pts(d)}")
        return out

    def lines(self) -> list[str]:
        n = len(self.trials)
        pruned = int((self.trials["state"] == "pruned").sum())
        P = self.base["players"]
        out = [f"tune {self.ruleset} policy {self.policy}: {n} trials on seed "
               f"{self.base['seed']} (paired), "
               + (f"{self.trial_games:,}" if self.min_games == self.trial_games else
                  f"{self.min_games:,}-{self.trial_games:,}")
               + f" games a lineup, {P} players, {len(self.field) * P} lineups a trial "
               f"(field {', '.join(self.field)}; the candidate at each seat in turn)"
               + (f"; {pruned} stopped early by the pruner" if pruned else ""),
               "box: " + "; ".join(a.text() for a in self.axes),
               "objective: the variant's advantage over the field (its win rate minus the "
               "fair share), maximised"]
        t = self.trials[self.trials["state"] == "complete"].nlargest(8, "advantage")
        rows = [[str(int(r["trial"]))] + [f"{plain(r[a.name]):.4g}" for a in self.axes]
                + [f"{100 * r['advantage']:+.1f}",
                   f"[{100 * r['advantage_low']:+.1f}, {100 * r['advantage_high']:+.1f}]"]
                for _, r in t.iterrows()]
        out.append(f"best trials at {self.trial_games:,} games a lineup:")
        out += text_table(["trial"] + [a.name for a in self.axes] + ["advantage", "95%"],
                          rows, right=set(range(1, len(self.axes) + 3)))
        out.append(f"answer, played again at {self.games:,} games a lineup on a fresh seed "
                   f"({self.verify_seed}) beside the defaults (95% intervals):")
        out += ["  " + x for x in self.answer_lines()]
        out.append(f"method: {SAMPLER}; the advantage's interval from the rate's 95% Wilson "
                   f"interval, the fair share taken as known")
        return out

    def history_figure(self):
        fig, axes = plots.figure(7.2, 3.6)
        ax = axes[0][0]
        t = self.trials
        ax.scatter(t["trial"], 100 * t["advantage"], c=np.log(t["games"]), cmap="viridis",
                   s=18, label="trial (colour: games played)")
        full = t["games"] == self.trial_games
        ax.step(t["trial"], (100 * t["advantage"].where(full)).cummax(), where="post",
                color="C3", label=f"best at {self.trial_games:,} games a lineup so far")
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xlabel("trial")
        ax.set_ylabel(f"{self.policy} variant's advantage (points)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        plots.suptitle(fig, plots.describe(self.ruleset, self.base, self.trial_games)
                       + f" a lineup at most\npolicy tune history: {len(t)} trials")
        return fig

    def profile_text(self) -> str:
        lines = [f"# {self.ruleset}: {self.label}, from", f"# {self.command}",
                 f'policy = "{self.policy}"', "", "[params]"]
        lines += [f"{k} = {float(v)!r}" for k, v in sorted(self.best.items())]
        return "\n".join(lines) + "\n"

    def write(self, out) -> list[Path]:
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "tune.csv", out / "tune_answer.csv", out / "tuned.toml"]
        self.trials.to_csv(files[0], index=False)
        self.verify.to_csv(files[1], index=False)
        files[2].write_text(self.profile_text())
        files.append(plots.save(self.history_figure(), out / "tune_history.png"))
        files.append(out / "tune.json")
        files[-1].write_text(json.dumps({
            "base": self.base, "policy": self.policy, "axes": [a.text() for a in self.axes],
            "field": self.field, "games": self.games, "trial_games": self.trial_games,
            "min_games": self.min_games, "verify_seed": self.verify_seed,
            "best": self.best, "best_trial": self.best_trial, "label": self.label,
            "beats_defaults": self.beats_defaults, "best_is_default": self.best_is_default,
            "method": SAMPLER, "command": self.command}, indent=2, default=str))
        files.append(out / "tune.md")
        b = self.base
        files[-1].write_text("\n".join(
            [f"# Tune: {self.ruleset}, policy {self.policy}", "",
             f"- ruleset `{self.ruleset}` version {b['version']}, {b['players']} players, seed "
             f"{b['seed']} (trials), {self.verify_seed} (the answer, fresh)",
             "- parameters: " + (", ".join(f"{k}={v}" for k, v in b["params"].items()
                                          if registry.get(self.ruleset).space.infos[k].default
                                          != v) or "the defaults"),
             "", "## Answer", ""] + [f"- {x}" for x in self.answer_lines()]
            + ["", f"Play it on any command with `--policy {self.policy}@tuned.toml` "
               f"(or `--policy '{self.label}'`).", "", "```", *self.lines(), "```", "",
               "![history](tune_history.png)", "", "Regenerate with:", "", "```",
               self.command, "```", ""]))
        self.files = files
        return files


def command_line(ruleset, policy, axes, field_, games, seed, players, params, *, trials,
                 trial_games, min_games, out) -> str:
    parts = ["balance", "tune", ruleset]
    for a in axes:
        parts += ["--vary", a.text().split(" (")[0]]
    parts += ["--objective", f"policy:{policy}=max", "--field", ",".join(field_)]
    parts += ["--games", str(games), "--seed", str(seed), "--players", str(players)]
    for k, v in (params or {}).items():
        parts += ["--set", f"{k}={v}"]
    parts += ["--trials", str(trials), "--trial-games", str(trial_games), "--min-games",
              str(min_games)]
    if out is not None:
        parts += ["--out", str(out)]
    return " ".join(shlex.quote(p) for p in parts)


def tune_policy(ruleset: str, vary, games: int = 10_000, seed: int = 0, players=None,
                params: dict | None = None, *, policy: str, field=None, trials: int = 30,
                trial_games: int | None = None, min_games: int | None = None, out=None,
                progress: bool | None = None, store=None) -> PolicyTuneResult:
    """The variant of ``policy`` (its float parameters in the box ``vary``)
    with the largest advantage over ``field`` (see the module doc);
    ``games`` and ``trial_games`` count games a lineup.

    >>> r = tune_policy("elite", ["hand_damage_value", "five_value"], games=20_000,
    ...                 players=4, params={"version": 3}, policy="greedy")
    >>> r.label, r.beats_defaults
    """
    try:
        import optuna
    except ImportError:
        raise BalanceError("tune needs optuna: python3 -m pip install 'optuna>=3'") from None
    spec = registry.get(ruleset)
    params = dict(params or {})
    games, trials, trial_games, min_games = budget(games, trials, trial_games, min_games)
    axes = resolve_axes(spec, vary, group="policy")
    for a in axes:
        if a.name in params:
            raise BalanceError(f"--vary {a.name} and --set {a.name}: the field plays the "
                               f"--set value and the candidate the box's; give one")
    base = setup(ruleset, seed=seed, players=players, policies=[policy], params=params)
    P = base.n_players
    field_ = resolve_field(spec, policy, field)
    n_lineups = len(field_) * P
    verify_seed = seed + 1 if seed < MAX_SEED else seed - 1
    rungs = rungs_of(trial_games, min_games)
    most = n_lineups * (trials * rungs[-1] + 2 * games)
    say(f"tune {ruleset} policy {policy} plan: {trials} trials of {n_lineups} lineups (field "
        f"{', '.join(field_)}; the candidate at each of {P} seats), each "
        + (f"{rungs[0]:,} games a lineup first and "
           + ", ".join(f"{g:,}" for g in rungs[1:]) + " for the best third at each rung"
           if len(rungs) > 1 else f"{rungs[0]:,} games a lineup")
        + f"; then the best and the defaults at {games:,} games a lineup on a fresh seed: "
          f"at most {most:,} games")
    st, own = open_store(store, out)
    pieces = Pieces(st, most, "game", f"tune {ruleset} {policy}", progress, say_resumed=own)
    player = Player(st, pieces, Sink("sums"))   # no per-game table is read

    def play(candidate, seed_, a, b, label, bar=False, only=None):
        """{opponent: [(seat, sums)]} of games [a, b) of every lineup."""
        got: dict = {}
        for opp, i, pols in lineups(P, candidate, field_):
            if only is not None and opp != only:
                continue
            s = setup(ruleset, seed=seed_, players=P, policies=pols, params=params)
            got.setdefault(opp, []).append((i, player.sums(s, a, b, label, bar=bar)))
        return got

    rows = []

    def run_trial(trial):
        # three significant digits: a label a designer can read and retype
        values = {a.name: min(max(float(f"{a.suggest(trial):.3g}"), a.low), a.high)
                  for a in axes}
        cand = variants.label(policy, values)
        fresh = player.fresh
        agg: dict = {}
        a, res = 0, None
        for k, b in enumerate(rungs):
            part = play(cand, seed, a, b, f"trial {trial.number}: {cand}")
            for opp, lst in part.items():
                old = agg.get(opp)
                agg[opp] = lst if old is None else [
                    (i, summary.merge([x, y])) for (i, x), (_, y) in zip(old, lst)]
            a = b
            res = advantage([x for lst in agg.values() for x in lst], P)
            trial.report(res["advantage"], step=b)
            if k < len(rungs) - 1 and trial.should_prune():
                break
        pruned = a < rungs[-1]
        repeat = player.fresh == fresh
        if not repeat:
            if pruned:
                pieces.add(-(rungs[-1] - a) * n_lineups)
            rows.append({"trial": trial.number, "state": "pruned" if pruned else "complete",
                         "games": a, **values, **res})
        return res["advantage"], pruned, repeat

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", category=optuna.exceptions.ExperimentalWarning)
            sampler = optuna.samplers.TPESampler(seed=seed % 2**32, multivariate=True,
                                                 n_startup_trials=max(2, min(10, trials // 3)))
            pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=rungs[0],
                                                            reduction_factor=ETA)
            study = optuna.create_study(direction="maximize", sampler=sampler, pruner=pruner)
            # the defaults are the first trial: the answer is never worse than them by design
            study.enqueue_trial({a.name if a.scale != "log1p" else a.name + "+1":
                                 spec.space.infos[a.name].default
                                 + (1 if a.scale == "log1p" else 0) for a in axes
                                 if a.low <= spec.space.infos[a.name].default <= a.high})
            drive(study, trials, run_trial)
        table = pd.DataFrame(rows)
        done = table[table["state"] == "complete"]
        chosen = (done if len(done) else table).nlargest(1, "advantage").iloc[0]
        best = {a.name: float(plain(chosen[a.name])) for a in axes}
        cand = variants.label(policy, best)
        say(f"tune {ruleset}: best trial {int(chosen['trial'])}, {cand}; playing it and the "
            f"defaults at {games:,} games a lineup on seed {verify_seed}")
        vrows = []
        for setting, c in (("tuned", cand), ("defaults", policy)):
            got = play(c, verify_seed, 0, games, f"{setting}: {c}", bar=True)
            for opp, lst in got.items():
                if setting == "defaults" and opp == policy:
                    continue            # the defaults against themselves: 0 by symmetry
                vrows.append({"setting": setting, "label": c, "opponent": opp,
                              **advantage(lst, P)})
        verify = pd.DataFrame(vrows)
    except KeyboardInterrupt:
        pieces.interrupted()
        raise
    pieces.done()
    res = PolicyTuneResult(ruleset, policy, base.describe(), axes, field_, table, best,
                           int(chosen["trial"]), verify, games, trial_games, rungs[0],
                           verify_seed, played=player.played)
    res.command = command_line(ruleset, policy, axes, field_, games, seed, P, params,
                               trials=trials, trial_games=trial_games, min_games=rungs[0],
                               out=out)
    if out is not None:
        res.save(out)
    return res


__all__ = ["tune_policy", "PolicyTuneResult", "objective_policy"]
