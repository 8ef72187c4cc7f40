"""A self-contained balance report: Markdown and HTML with PNG figures.

``report`` plays, for one configuration (ruleset, parameters, players,
policies, seed): the main run, the interventional card table, the matchup
matrix of the policies and a sweep of each headline parameter
(``spec.headline``), then writes ``report.md``, ``report.html``
(figures embedded, so the file stands alone), the PNG figures and CSV
tables into one folder. Finished pieces are kept in ``OUT/.points`` (ignored
by git), so an interrupted report resumes. The report ends with the exact
command that regenerates it.
"""
from __future__ import annotations

import base64
import html
import json
import os
import shlex
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ..core import plots, registry, stats
from ..core import summary as summaries
from ..core.errors import BalanceError
from ..core.stats import share_fair_of
from ..core.outdir import publish
from ..core.summary import shares_wins
from ..core.setup import check_count, seconds_from_env, setup
from .cards import cards as cards_fn
from .matchups import matchups as matchups_fn
from .sums import Sink
from ..core.store import PointStore
from .sweep import sweep as sweep_fn


def pct(x, digits=1):
    return "n/a" if x is None or (isinstance(x, float) and np.isnan(x)) else f"{x:.{digits}%}"


def ci(lo, hi, digits=1, sign=False):
    f = (lambda v: f"{v:+.{digits}%}") if sign else (lambda v: f"{v:.{digits}%}")
    return f"[{f(lo)}, {f(hi)}]"


def pts(x, lo, hi, digits=2):
    """A difference of rates in percentage points with its interval."""
    if x is None or np.isnan(x):
        return "n/a"
    return f"{x * 100:+.{digits}f} [{lo * 100:+.{digits}f}, {hi * 100:+.{digits}f}]"


def md_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines)


class Doc:
    """Blocks rendered both as Markdown and as HTML."""

    def __init__(self, out: Path):
        self.out = out
        self.blocks = []

    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def bullets(self, items):
        self.blocks.append(("ul", list(items)))

    def table(self, df):
        self.blocks.append(("table", df))

    def img(self, path, alt):
        self.blocks.append(("img", Path(path).name if Path(path).parent == self.out
                            else str(Path(path).relative_to(self.out)), alt))

    def code(self, text):
        self.blocks.append(("code", text))

    def markdown(self) -> str:
        parts = []
        for b in self.blocks:
            if b[0] == "h":
                parts.append("#" * b[1] + " " + b[2])
            elif b[0] == "p":
                parts.append(b[1])
            elif b[0] == "ul":
                parts.append("\n".join(f"- {x}" for x in b[1]))
            elif b[0] == "table":
                parts.append(md_table(b[1]))
            elif b[0] == "img":
                parts.append(f"![{b[2]}]({b[1]})")
            elif b[0] == "code":
                parts.append("```\n" + b[1] + "\n```")
        return "\n\n".join(parts) + "\n"

    def html(self, title: str) -> str:
        e = html.escape
        parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(title)}</title>"
                 "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
                 "table{border-collapse:collapse;font-size:0.85em}td,th{border:1px solid #ccc;"
                 "padding:2px 6px;text-align:right}img{max-width:100%}"
                 "pre{background:#f4f4f4;padding:0.5em;overflow-x:auto}</style></head><body>"]
        for b in self.blocks:
            if b[0] == "h":
                parts.append(f"<h{b[1]}>{e(b[2])}</h{b[1]}>")
            elif b[0] == "p":
                parts.append(f"<p>{_inline(b[1])}</p>")
            elif b[0] == "ul":
                parts.append("<ul>" + "".join(f"<li>{_inline(x)}</li>" for x in b[1]) + "</ul>")
            elif b[0] == "table":
                parts.append(b[1].to_html(index=False, escape=True, border=0))
            elif b[0] == "img":
                data = base64.b64encode((self.out / b[1]).read_bytes()).decode()
                parts.append(f"<p><img alt='{e(b[2])}' src='data:image/png;base64,{data}'></p>")
            elif b[0] == "code":
                parts.append(f"<pre>{e(b[1])}</pre>")
        parts.append("</body></html>")
        return "\n".join(parts)


def _inline(text: str) -> str:
    """Escape and turn `code` and **bold** into HTML."""
    import re
    t = html.escape(text)
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", t)


def _rates_md(df: pd.DataFrame, name: str) -> pd.DataFrame:
    t = pd.DataFrame({name: [str(k) for k in df.index], "games": df["games"].map("{:,}".format),
                      "win rate": df["win_rate"].map(pct),
                      "95% Wilson": [ci(a, b) for a, b in zip(df["ci_low"], df["ci_high"])]})
    if "sole_win_rate" in df:
        t["sole-win rate"] = df["sole_win_rate"].map(pct).to_numpy()
        t["95% Wilson (sole)"] = [ci(a, b) for a, b in zip(df["sole_ci_low"], df["sole_ci_high"])]
    return t


# the folder of the section "What moves the balance" (the headline parameters'
# sensitivity); `balance sensitivity ... --out <report>/sensitivity` keeps its own
SENS_DIR = "headline_sensitivity"
SKILL_GAMES = 2_000        # games a run of the skill section, at most --games
SKILL_SECONDS = 600.0      # its time budget, which picks the search level


def skill_budget() -> float:
    """The skill section's default time budget: ``BALANCE_SKILL_SECONDS`` or
    :data:`SKILL_SECONDS` (the test suite sets 0: no section unless a test
    asks for one)."""
    return seconds_from_env("BALANCE_SKILL_SECONDS", SKILL_SECONDS)


def command_line(ruleset, out, games, seed, players, policies, params, matchup_policies,
                 sweep_games, cards_games, sink, skill_games=None,
                 skill_seconds=None, skill_policy=None) -> str:
    parts = ["balance", "report", ruleset, "--games", str(games), "--seed", str(seed)]
    if players is not None:
        parts += ["--players", str(players)]
    for p in policies or ():
        parts += ["--policy", p]
    for k, v in (params or {}).items():
        parts += ["--set", f"{k}={v}"]
    if matchup_policies:
        parts += ["--policies", ",".join(matchup_policies) if not isinstance(matchup_policies, str)
                  else matchup_policies]
    if sweep_games is not None:
        parts += ["--sweep-games", str(sweep_games)]
    if cards_games is not None:
        parts += ["--cards-games", str(cards_games)]
    if not sink.tables:
        parts += ["--summary-only"]
    for opt, v in (("--skill-games", skill_games), ("--skill-seconds", skill_seconds),
                   ("--skill-policy", skill_policy)):
        if v is not None:
            parts += [opt, str(v)]
    parts += ["--out", str(out), "--force"]
    return " ".join(shlex.quote(p) for p in parts)


def plan_lines(spec, base, out: Path, *, games: int, cards_games: int, sweep_games: int,
               matchup_policies, skill_games, skill_seconds, skill_policy) -> list[str]:
    """What a report will play, said before it starts: each part's games,
    the skilled-play section's time budget, the options that shorten it and
    the finished pieces an earlier run left in ``out/.points`` (reused)."""
    from .matchups import lineups, parse_policies
    from .skill import levels
    P = base.n_players
    parts, total = [f"main run {games:,} games"], games
    runs = 1                                           # the skill section's runs, as recheck counts
    if spec.ban_modes:
        k = len(spec.card_kinds(base.values))
        parts.append(f"cards {k} kinds x {cards_games:,} games")
        total += k * cards_games
        runs += min(5, k) + 1
    if len(spec.policies) >= 2:
        pols = parse_policies(spec, matchup_policies)
        n = sum(len(lineups(a, b, P)) for i, a in enumerate(pols) for b in pols[i + 1:])
        parts.append(f"matchups {n} lineups x {games:,} games")
        total += n * games
    swept = [(key, len(spec.space.infos[key].sweep)) for key in spec.headline
             if key in spec.space.infos and spec.space.infos[key].sweep]
    if swept:
        parts.append("sweeps " + ", ".join(f"{key} {n} points" for key, n in swept)
                     + f" x {sweep_games:,} games")
        total += sum(n for _, n in swept) * sweep_games
        runs += 2 * len(swept)
        # "What moves the balance": each swept value but the default, and the default
        n_sens = sum(sum(v != base.values[key] for v in spec.space.infos[key].sweep)
                     for key, _ in swept)
        if n_sens:
            parts.append(f"sensitivity {n_sens} values and the default x {sweep_games:,} games")
            total += (n_sens + 1) * sweep_games
    lines = [f"report {spec.name} plan: " + "; ".join(parts)
             + f" ({total:,} games in all)"]
    per_run = skill_games if skill_games is not None else min(games, SKILL_GAMES)
    seconds = skill_budget() if skill_seconds is None else float(skill_seconds)
    if skill_policy is not None:
        lines.append(f"then the skilled-play section: `{skill_policy}` at every seat, {runs} runs "
                     f"of {per_run:,} games (no time budget: --skill-policy)")
    elif not levels(spec):
        lines.append("no skilled-play section: this ruleset has no search policy")
    elif seconds <= 0:
        lines.append("no skilled-play section: its time budget (--skill-seconds) is 0 s")
    else:
        lines.append(f"then the skilled-play section: up to about {seconds:.0f} s (its time "
                     f"budget, --skill-seconds), the strongest search level that fits {runs} "
                     f"runs of {per_run:,} games")
    lines.append("to shorten it: fewer --games, --cards-games, --sweep-games or --skill-games; "
                 "a smaller --skill-seconds (0 leaves the skilled-play section out)")
    before = len(list((out / ".points").glob("*.npz")))
    if before:
        lines.append(f"resuming: {before} finished pieces of an earlier run in {out / '.points'} "
                     f"are reused, not played again")
    return lines


def default_out(ruleset: str) -> str:
    return f"out/{ruleset}/report"


def cap_finding(ruleset, spec, values: dict, summary: dict, spans: dict) -> str:
    """The finding about capped games: how many games reached the turn cap
    (``max_turns``), or, for a ruleset without one, that no game can be
    capped and how long games last by the rules (``spans``: the shortest
    and longest game in ``turns`` and in ``rounds``)."""
    capped = summary["end_reasons"].get("turn_cap", 0)
    n = summary["games"]
    if "max_turns" not in values and "turn_cap" not in spec.end_reasons:
        def span(col, unit):
            lo, hi = spans[col]
            return f"{lo} {unit}" if lo == hi else f"{lo} to {hi} {unit}"
        every = "every game lasts" if spans["rounds"][0] == spans["rounds"][1] \
            else "games last"
        return (f"No turn cap: {ruleset} has no `max_turns` parameter and no capped end, so "
                f"no game is a draw by the cap; {every} {span('rounds', 'rounds')} "
                f"({span('turns', 'turns')}) in this run.")
    clo, chi = stats.wilson(capped, n)
    cap = values.get("max_turns")
    what = f"turn cap {cap} reached" if cap is not None else "turn cap reached"
    return (f"Capped games ({what}, a draw): {capped:,} of {n:,} = "
            f"{pct(capped / n, 2)} {ci(float(clo), float(chi), 2)}.")


def _figure(v) -> str:
    """One value of a ruleset figure as text (floats to 4 significant
    digits, short lists in brackets, anything else as it prints)."""
    if isinstance(v, (float, np.floating)) and not isinstance(v, bool):
        return f"{float(v):.4g}"
    if isinstance(v, (list, tuple)) and all(not isinstance(x, (list, tuple, dict)) for x in v):
        return "[" + ", ".join(_figure(x) for x in v) + "]"
    return str(v)


def _flat(d: dict, prefix: str = "") -> dict:
    """A nested dict as one level, keys joined by a space."""
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, key + " "))
        else:
            out[key] = v
    return out


def _label(k) -> str:
    return str(k).replace("_", " ")


def ruleset_figures(doc: Doc, extra: dict) -> None:
    """The ruleset's own figures (``spec.summary``): numbers and sentences
    as a list; a list of rows (dicts) as a table; a dict of dicts as a table
    with one row per key (nested keys joined); any other dict as a table of
    figure and value."""
    doc.bullets([f"{_label(k)}: {_figure(v)}" for k, v in extra.items()
                 if not isinstance(v, (list, dict))
                 or (isinstance(v, list) and not (v and isinstance(v[0], dict)))])
    for k, v in extra.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            doc.p(f"{_label(k).capitalize()}:")
            doc.table(pd.DataFrame(v).round(3))
        elif isinstance(v, dict) and v:
            doc.p(f"{_label(k).capitalize()}:")
            if all(isinstance(x, dict) for x in v.values()):
                rows = [{"": str(r), **{c: _figure(x) for c, x in _flat(x).items()}}
                        for r, x in v.items()]
                doc.table(pd.DataFrame(rows).fillna(""))
            else:
                f = _flat(v)
                doc.table(pd.DataFrame({"figure": [_label(x) for x in f],
                                        "value": [_figure(x) for x in f.values()]}))


def report(ruleset: str, out=None, games: int = 100_000, seed: int = 0, players=None,
           policies=None, params: dict | None = None, *, matchup_policies=None,
           sweep_games: int | None = None, cards_games: int | None = None,
           command: str | None = None, progress: bool | None = None,
           force: bool = False, summary_only: bool = False, skill_games: int | None = None,
           skill_seconds: float | None = None, skill_policy: str | None = None) -> dict:
    """Write the balance report of one configuration to ``out`` (default
    ``out/RULESET/report``); returns the paths and the headline findings.
    A folder that already holds a finished report (``report.md``) is
    overwritten only with ``force``.
    ``command`` overrides the regenerating command printed in the report
    (by default the canonical ``balance report ...`` line of these arguments).
    ``summary_only`` plays every part in pieces reduced to their sums as
    they finish (memory does not grow with the games); the report is the
    same except the ruleset's own figures, which read the per-game tables
    and are left out (the report says so)."""
    t0 = time.perf_counter()
    spec = registry.get(ruleset)
    sink = Sink.of(summary_only)
    out = Path(out or default_out(ruleset))
    if (out / "report.md").exists() and not force:
        raise BalanceError(f"{out} already holds a finished report; pass --force to replace it "
                           f"(or give another --out)")
    games = check_count("games", games)
    sweep_games = check_count("sweep-games", sweep_games if sweep_games is not None else games)
    cards_games = check_count("cards-games", cards_games if cards_games is not None else games)
    params = dict(params or {})
    base = setup(ruleset, seed=seed, players=players, policies=policies, params=params)
    if skill_policy is not None:
        registry.policy_id(spec, skill_policy)       # an unknown name: the one-line error
    # the plan, before any game: a report can take minutes (also checks --policies)
    from .outcome import say
    for line in plan_lines(spec, base, out, games=games, cards_games=cards_games,
                           sweep_games=sweep_games, matchup_policies=matchup_policies,
                           skill_games=skill_games, skill_seconds=skill_seconds,
                           skill_policy=skill_policy):
        say(line)
    out.mkdir(parents=True, exist_ok=True)
    points = out / ".points"
    w = out / f".building-{os.getpid()}"     # moved into place whole at the end
    shutil.rmtree(w, ignore_errors=True)
    w.mkdir()
    st = PointStore(points)
    # pieces an earlier (interrupted) report left: the one resume line counts these,
    # not the points the sweeps share within this run
    before = {p.name for p in points.glob("*.npz")}
    P = base.n_players

    # --- main run -----------------------------------------------------------
    main = sink.run(st, base, games, progress, "main run")
    hist = summaries.length_counts(main.sums.agg)
    spans = {"turns": summaries.span(main.sums.agg),
             "rounds": summaries.span(main.sums.agg, "rounds_")}
    summary = main.summary
    by_seat, by_policy, by_role = main.by_seat(), main.by_policy(), main.by_role()
    by_seat.to_csv(w / "by_seat.csv")
    by_policy.to_csv(w / "by_policy.csv")
    if by_role is not None:
        by_role.to_csv(w / "by_role.csv")
    main.cards.to_csv(w / "cards_observational.csv", index=False)
    (w / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    fig, ax = plots.figure(6.0, 3.4)
    plots.rate_bars(ax[0][0], by_seat, fair=share_fair_of(by_seat),
                    title=plots.describe(ruleset, base.describe(), games) + "\nwin rate by seat")
    plots.save(fig, w / "win_by_seat.png")
    fig, ax = plots.figure(6.0, 3.4)
    plots.length_hist(ax[0][0], hist[0], weights=hist[1],
                      title=plots.describe(ruleset, base.describe(), games) + "\ngame length")
    plots.save(fig, w / "length.png")

    # --- interventional cards, matchups, sweeps ------------------------------
    cres = None
    if spec.ban_modes:
        cres = cards_fn(ruleset, cards_games, seed, P, policies, params, store=st,
                        progress=progress, sink=sink)
        cres.write(w)
    mres = matchups_fn(ruleset, matchup_policies, games, seed, P, params, store=st,
                       progress=progress, sink=sink) \
        if len(spec.policies) >= 2 else None
    if mres is not None:
        mres.write(w)
    sweeps = {}
    for key in spec.headline:
        if key not in spec.space.infos or not spec.space.infos[key].sweep:
            continue
        sres = sweep_fn(ruleset, {key: None}, sweep_games, seed, P, policies, params,
                        store=st, progress=progress, sink=sink)
        sres.write(w / "sweeps" / key)
        sweeps[key] = sres
    # what moves the balance: the headline parameters' values against the default
    sens = None
    if sweeps:
        from .sensitivity import sensitivity as sensitivity_fn
        try:
            sens = sensitivity_fn(ruleset, list(sweeps), sweep_games, seed, P, policies, params,
                                  store=st, progress=progress)
        except BalanceError:            # no headline value differs from the default
            sens = None
        if sens is not None:            # not sensitivity/: `balance sensitivity --out` owns that
            sens.write(w / SENS_DIR)

    # --- findings --------------------------------------------------------------
    findings = []
    d = summary["draws"]
    shared = summary.get("shared_wins")
    # the fair share is the mean of the rates shown: (1 - draws) / players when
    # one seat wins a game, more where wins are shared (teams, zombies)
    share_fair = share_fair_of(by_seat)
    fair_text = (f"the mean seat win rate of {pct(share_fair)} (wins are shared: seat win "
                 f"rates add to {pct(shared['seat_win_rates_sum'])})" if shared is not None
                 else f"an even share of {pct(share_fair)}")
    adv = (by_seat["win_rate"] - share_fair)
    s_top = adv.abs().idxmax()
    r = by_seat.loc[s_top]
    findings.append(f"Seat {s_top} has the largest seat effect: it wins {pct(r.win_rate)} "
                    f"{ci(r.ci_low, r.ci_high)} of games against {fair_text} "
                    f"({adv[s_top] * 100:+.1f} points), with "
                    f"{', '.join(dict.fromkeys(base.policies))} at every seat as configured.")
    fm = summary["first_mover"]
    findings.append(f"The first mover ({spec.turn_order}) wins {pct(fm['win_rate'])} "
                    f"{ci(fm['ci_low'], fm['ci_high'])} of games against {fair_text} "
                    f"({(fm['win_rate'] - share_fair) * 100:+.1f} points).")
    if shared is not None:
        findings.append(f"Wins can be shared in this ruleset: {pct(shared['share'], 2)} of games "
                        f"had several winning seats. Win rates count a shared win fully; the "
                        f"sole-win rate (the seat was the only winner) is shown beside each.")
    if by_role is not None and len(by_role) > 1:
        ro = by_role["win_rate"] - share_fair
        k = ro.abs().idxmax()
        rr = by_role.loc[k]
        findings.append(f"Role {k} has the largest role effect: win rate {pct(rr.win_rate)} "
                        f"{ci(rr.ci_low, rr.ci_high)} vs {fair_text} "
                        f"({ro[k] * 100:+.1f} points).")
    if len(set(base.policies)) > 1:
        k = by_policy["win_rate"].idxmax()
        rp = by_policy.loc[k]
        findings.append(f"Policy {k} wins most in this lineup: {pct(rp.win_rate)} "
                        f"{ci(rp.ci_low, rp.ci_high)} per seat.")
    if mres is not None:
        for q in mres.beaten_by_random():
            findings.append(f"A finding about the heuristics, not the game: `random` beats "
                            f"`{q}` head to head (matchup matrix below), so `{q}` plays this "
                            f"ruleset worse than chance and figures measured under it describe "
                            f"that heuristic's play.")
        dom = mres.dominant
        if dom:
            findings.append(f"Policy {', '.join(dom)} dominates: it beats every other policy "
                            f"head to head with seats rotated (matchup matrix below).")
        else:
            findings.append("No policy dominates all others head to head (matchup matrix below).")
    if cres is not None:
        sig = cres.table[cres.table["significant"]]
        if len(sig):
            def item(t):
                return f"{t.kind} ({t.power:+.1f} points [{t.power_low:+.1f}, {t.power_high:+.1f}])"
            strong = [item(t) for t in sig[sig["power"] > 0].head(3).itertuples()]
            weak = [item(t) for t in sig[sig["power"] < 0].tail(3).iloc[::-1].itertuples()]
            findings.append(
                "Card power (points a card adds to whoever holds it, from playing the same "
                "seeds without it): " + ("strongest " + "; ".join(strong) if strong else
                                         "no card helps its holders significantly")
                + (". Hurting their holders: " + "; ".join(weak) if weak else "")
                + f" ({len(sig)} of {len(cres.table)} kinds significant after "
                f"{cres.correction}).")
        else:
            findings.append("No card kind's removal changes its holders' win rate significantly.")
        flagged = cres.table[cres.table["play_flag"] != ""]
        if len(flagged):
            findings.append(f"Never or rarely played by these policies, so their power is "
                            f"not measured by this play: {', '.join(flagged['kind'])}.")
    findings.append(cap_finding(ruleset, spec, base.values, summary, spans))
    if sens is not None and len(sens.ranking):
        top = sens.ranking.iloc[0]
        inert = list(sens.inert()["parameter"])
        findings.append(
            f"Of the headline parameters, {top.parameter} moves the balance most: at "
            f"{top.value} (default {top.default}) {sens.main} {top.key}'s {sens.rate_label} "
            f"changes by {top['diff'] * 100:+.1f} points [{top.low * 100:+.1f}, "
            f"{top.high * 100:+.1f}] on the same seeds"
            + (f"; no measurable effect on any {sens.main}: {', '.join(inert)}" if inert else "")
            + " (section What moves the balance).")
    for key, sres in sweeps.items():
        grp = sres.main_group
        t = sres.table[sres.table["group"] == grp]
        lo_v, hi_v = t[key].min(), t[key].max()
        a = t[t[key] == lo_v]
        b = t[t[key] == hi_v]
        moves = ", ".join(f"{grp} {k} {pct(x)} -> {pct(y)}" for k, x, y in
                          zip(a["key"], a["win_rate"], b["win_rate"]))
        fair = ""
        if "fair_share" in t and shares_wins(spec):
            # with shared wins every rate can rise at once: the fair share moves too
            fair = (f"; the fair share (the mean of these rates, wins being shared) moves "
                    f"{pct(a['fair_share'].iloc[0])} -> {pct(b['fair_share'].iloc[0])}")
        findings.append(f"Sweeping {key} from {lo_v} to {hi_v}: {moves}{fair} "
                        f"(mean length {a['turns_mean'].iloc[0]:.1f} -> "
                        f"{b['turns_mean'].iloc[0]:.1f} turns).")

    # --- the findings again, under skilled play --------------------------------------
    from .skill import recheck
    sk = recheck(ruleset, base, by_seat, by_role, sweeps, cres,
                 games=check_count("skill-games", skill_games if skill_games is not None
                                   else min(games, SKILL_GAMES)),
                 seconds=skill_budget() if skill_seconds is None else float(skill_seconds),
                 store=st, progress=progress, policy=skill_policy)
    # the level a time budget picked depends on the machine: the recorded
    # command names it (and its games), so that it regenerates the same section
    auto = sk["policy"] is not None and skill_policy is None
    command = command or command_line(ruleset, out, games, seed, players, policies, params,
                                      matchup_policies, sweep_games, cards_games, sink,
                                      sk["games"] if auto else skill_games,
                                      None if auto else skill_seconds,
                                      sk["policy"] if auto else skill_policy)
    if sk["policy"] is not None:
        t = sk["rows"]
        t.to_csv(w / "skill_recheck.csv", index=False)
        findings.append(f"Under skilled play (`{sk['policy']}` at every seat, {sk['games']:,} "
                        f"games a run) {sk['counts']['holds']} of {len(t)} findings hold, "
                        f"{sk['counts']['changes']} change and {sk['counts']['unclear']} are "
                        f"unclear (section below).")

    # --- the document ------------------------------------------------------------
    doc = Doc(w)
    version = spec.version(base.values)
    doc.h(1, f"Balance report: {spec.title} ({ruleset}, version {version})")
    widest = max(float(np.nanmax(stats.half_width(t["win_rate"], t["ci_low"], t["ci_high"])))
                 for t in [by_seat, by_policy] + ([by_role] if by_role is not None else []))
    pols = ", ".join(f"`{p}`" for p in dict.fromkeys(base.policies))
    doc.p(f"**Heuristics.** Every figure below comes from games played by {pols} "
          f"(matchups: {', '.join(f'`{p}`' for p in (mres.policies if mres else []))}); the "
          f"findings hold for play of that kind, not necessarily for skilled play.")
    doc.p(f"{P} players, policies {', '.join(base.policies)}; turn order: {spec.turn_order}; "
          f"seed {seed}. "
          f"Main run: {games:,} games (widest win-rate interval +/-{widest * 100:.2f} points); "
          f"interventional cards: {cards_games:,} games per card kind; matchups: {games:,} games "
          f"per seat lineup; headline sweeps: {sweep_games:,} games per point. Every game "
          f"count uses the same seed, so all comparisons are paired game by game. All "
          f"intervals are 95%.")
    doc.h(2, "Headline findings")
    doc.bullets(findings)
    doc.h(2, "Win rates")
    doc.p("Win rate of each seat, policy and role with 95% Wilson score intervals; draws "
          f"separately: {pct(d['share'], 2)} {ci(d['ci_low'], d['ci_high'], 2)} of games. "
          f"First mover: {pct(fm['win_rate'])} {ci(fm['ci_low'], fm['ci_high'])}."
          + (f" Shared wins count fully in the win rate, so rates add to "
             f"{pct(shared['seat_win_rates_sum'])} over the seats; the sole-win rate is the "
             f"share of games the seat won alone." if shared is not None else ""))
    doc.table(_rates_md(by_seat, "seat"))
    doc.img(w / "win_by_seat.png", "win rate by seat")
    doc.table(_rates_md(by_policy, "policy"))
    if by_role is not None:
        doc.table(_rates_md(by_role, "role"))
    doc.h(2, "Game length and end reasons")
    L = summary["length_turns"]
    doc.p(f"Turns per game: mean {L['mean']:.1f}, median {L['median']:.0f}, 90th percentile "
          f"{L['p90']:.0f}, max {L['max']}.")
    doc.img(w / "length.png", "game length histogram")
    er = summary["end_reasons"]
    doc.table(pd.DataFrame({"end reason": list(er), "games": [f"{v:,}" for v in er.values()],
                            "share": [pct(v / summary["games"], 2) for v in er.values()]}))
    extra = main.ruleset_figures
    if extra:
        doc.h(2, "Ruleset figures")
        ruleset_figures(doc, extra)
    elif extra is None and spec.summary is not None:
        doc.h(2, "Ruleset figures")
        doc.p("Not computed: this report was made with `--summary-only`, which keeps no "
              "per-game table, and the ruleset's own figures are read from those tables.")
    doc.h(2, "Per-card power")
    if cres is not None:
        doc.p("**Interventional** (causal): for each card kind the same seeds are played with "
              f"the kind {'removed from the deck' if 'remove' in cres.mode.values() else 'never played'}. "
              f"Figure: {cres.method}.")
        doc.img(w / "cards.png", "interventional card power")
    else:
        doc.p(f"**Interventional** per-card power is not available: {ruleset} supports no card "
              f"bans yet (`spec.ban_modes` is empty), so only the observational table follows.")
    doc.p("**Observational** (correlation, like draft analytics' GIH WR and IWD): the win rate "
          "of seats that drew or played a kind vs those that did not, from the main run; a "
          "card drawn more in long games or played by players already ahead shows power it "
          "may not cause. Both kinds side by side, strongest first (in win-rate points, with "
          "95% intervals; power > 0 = the card helps whoever holds it; `*` = significant):")
    c = cres.table if cres is not None else main.cards.assign(
        power=np.nan, power_low=np.nan, power_high=np.nan, significant=False, play_flag="")
    rows = pd.DataFrame({
        "kind": [f"{k} ({f})" if f else k for k, f in zip(c["kind"], c["play_flag"])],
        "power": [f"{pts(x / 100, a / 100, b / 100)}{' *' if s else ''}"
                  for x, a, b, s in zip(c["power"], c["power_low"], c["power_high"],
                                        c["significant"])],
        "win rate when drawn": c["wr_drawn"].map(pct),
        "improvement when drawn": [pts(x, a, b) for x, a, b in
                                   zip(c["improvement_drawn"], c["improvement_drawn_low"],
                                       c["improvement_drawn_high"])],
        "improvement when played": [("n/a (never played)" if np.isnan(x) else
                                     pts(x, a, b)) for x, a, b in
                                    zip(c["improvement_played"], c["improvement_played_low"],
                                        c["improvement_played_high"])]})
    if cres is None:
        rows = rows.drop(columns=["power"])
    doc.table(rows)
    if cres is not None:
        g = cres.by_group
        doc.p("Power by natural group of kinds (sum and mean of its kinds' power, points):")
        doc.table(pd.DataFrame({"grouping": g["grouping"], "group": g["group"],
                                "kinds": g["kinds"], "power (sum)": g["power_sum"].map("{:+.1f}".format),
                                "power (mean)": g["power_mean"].map("{:+.2f}".format),
                                "significant": g["significant"],
                                "never/rarely played": g["never_or_rarely_played"]}))
    if mres is not None:
        doc.h(2, "Matchups")
        doc.p(f"Share of games won by the row policy against the column policy, "
              f"{P} players, seats rotated ({mres.games:,} games per lineup). Method: "
              f"{mres.lines()[-1][len('method: '):]}.")
        doc.img(w / "matchups.png", "matchup matrix")
        m, lo, hi = mres.matrix(), mres.matrix("ci_low"), mres.matrix("ci_high")
        doc.table(pd.DataFrame({"policy": m.index, **{
            q: ["-" if np.isnan(m.at[p, q]) else f"{pct(m.at[p, q])} {ci(lo.at[p, q], hi.at[p, q])}"
                for p in m.index] for q in m.columns}}))
        t = mres.table
        pairs = t[[mres.policies.index(a) < mres.policies.index(b)
                   for a, b in zip(t["policy"], t["opponent"])]]
        shared = mres.shares_wins or bool((t["shared_win_rate"] > 0).any())
        doc.p("Advantage of the first policy over the second head to head: its share of games "
              "won minus the opponent's, in points (95% interval); 0 is even"
              + (", not 50%: wins can be shared here, so the two shares add to more than 100%"
                 if shared else "") + ".")
        doc.table(pd.DataFrame({
            "pair": [f"{a} vs {b}" for a, b in zip(pairs["policy"], pairs["opponent"])],
            "shares won": [f"{pct(x)} vs {pct(y)}" for x, y in
                           zip(pairs["win_rate"], pairs["opponent_win_rate"])],
            "advantage (points)": [f"{d * 100:+.1f} [{lo_ * 100:+.1f}, {hi_ * 100:+.1f}]"
                                   for d, lo_, hi_ in zip(pairs["advantage"],
                                                          pairs["advantage_low"],
                                                          pairs["advantage_high"])],
            **({"both won": [pct(x) for x in pairs["shared_win_rate"]]} if shared else {}),
            "draws": [pct(x) for x in pairs["draw_rate"]]}))
    if sweeps:
        doc.h(2, "Headline parameter sweeps")
        doc.p(f"Each headline parameter over its declared sweep candidates, every point on the "
              f"same seed ({sweep_games:,} games per point); bands are 95% Wilson intervals.")
        for key, sres in sweeps.items():
            info = spec.space.infos[key]
            doc.h(3, key)
            doc.p(f"{info.doc} (default {info.default}).")
            doc.img(w / "sweeps" / key / f"sweep_{key}.png", f"sweep of {key}")
            t = sres.table[sres.table["group"] == sres.main_group]
            doc.table(pd.DataFrame({key: t[key], sres.main_group: t["key"],
                                    "win rate": t["win_rate"].map(pct),
                                    "95% Wilson": [ci(a, b) for a, b in zip(t["ci_low"], t["ci_high"])],
                                    "mean turns": t["turns_mean"].map("{:.1f}".format),
                                    "capped": t["capped_rate"].map(lambda v: pct(v, 2))}))
    if sens is not None:
        doc.h(2, "What moves the balance")
        doc.p(f"Each headline parameter's sweep values played against the default on the "
              f"same seeds ({sweep_games:,} games a value): its largest paired effect on a "
              f"{sens.main}, with 95% intervals Holm-adjusted over every effect of every "
              f"parameter, largest first; `{SENS_DIR}/sensitivity.csv` holds every effect "
              f"(seats, roles, first mover, length, capped share). The same analysis over any "
              f"parameters: `balance sensitivity {ruleset} --params A,B,C`.")
        doc.img(w / SENS_DIR / "sensitivity_tornado.png", "tornado chart")
        doc.code("\n".join(sens.lines()))
    doc.h(2, "Findings under skilled play")
    if sk["policy"] is None:
        doc.p(f"Not measured: {sk['why']}, so every figure above holds for the heuristics "
              f"only.")
    else:
        doc.p(f"Each finding re-measured with `{sk['policy']}` at every seat on the same seed, "
              f"{sk['games']:,} games a run ({sk['why']}). A finding holds when both readings "
              f"fall in the same class: a win rate above, below or within its interval of the "
              f"fair share; a change up, down or flat; a card that helps, hurts or has no "
              f"effect (95% intervals). It changes when the classes differ and the two "
              f"intervals do not overlap; it is unclear when they differ but overlap.")
        if len(set(base.policies)) > 1:
            doc.p(f"The heuristics' seats play different policies ({', '.join(base.policies)}), "
                  f"so there a seat's win rate is also its policy's; under `{sk['policy']}` "
                  f"every seat plays alike. A seat finding (and a sweep's, which follows one "
                  f"seat) that changes may only say that the seats' policies differed.")
        doc.table(sk["rows"])
    doc.h(2, "Provenance")
    defaults = spec.space.defaults()
    doc.p(f"Ruleset `{ruleset}` ({spec.title}), version {version}; balance "
          f"{summary['balance_version']}; seed {seed}; {P} players; policies "
          f"{', '.join(base.policies)}. Parameters (changed from the default marked *):")
    doc.table(pd.DataFrame({"parameter": list(base.values),
                            "value": [f"{v}{' *' if v != defaults[k] else ''}"
                                      for k, v in base.values.items()],
                            "group": [spec.space.infos[k].group for k in base.values]}))
    for k, d in base.describe().get("data", {}).items():
        doc.p(f"Data file `{k}`: {d['source']} (sha256 {d['sha256'][:16]}...).")
    elapsed = time.perf_counter() - t0
    doc.p("Pieces already on disk in `.points/` are reused. Regenerate with:")
    doc.code(command)
    (w / "report.md").write_text(doc.markdown())
    (w / "report.html").write_text(doc.html(f"Balance report: {ruleset}"))

    def move(tmp):
        for p in w.iterdir():
            os.replace(p, tmp / p.name)
    try:
        publish(out, move, keep=(".points",))
    finally:
        shutil.rmtree(w, ignore_errors=True)
    reused = len(st.loaded & before)
    if reused:
        import sys
        print(f"resumed: {reused} finished pieces of an earlier run reused from {points}",
              file=sys.stderr, flush=True)
    md, ht = out / "report.md", out / "report.html"
    return {"markdown": md, "html": ht, "findings": findings, "command": command,
            "elapsed_seconds": elapsed, "main": main, "cards": cres, "matchups": mres,
            "sweeps": sweeps}
