"""Designer workflow commands: sweep, compare, cards, matchups, report.

Each takes the options of ``run`` (``--games --seed --players --policy --set
--config --threads``) and ``--out DIR``, prints its key figures with their
intervals and the method, and writes CSV tables and PNG figures to DIR.
"""
from __future__ import annotations

import click

from ..core.errors import BalanceError

from .common import WHOLE, out_dir, pass_run, run_options


def command_out(out, ruleset, name):
    """The folder a command writes to: ``--out``, else ``out/RULESET/NAME``."""
    return out_dir(out, f"out/{ruleset}/{name}")


def say_written(files, out):
    """The command's last line: where its tables and figures are."""
    click.echo(f"tables and figures written to {out}/ ({len(files)} files)")


# the old private names, still read by cli/sensitivity.py and cli/tune.py
_out, _written = command_out, say_written


def summary_option(f):
    return click.option("--summary-only", is_flag=True, default=False,
                        help="Play in pieces reduced to their sums as they finish: memory does "
                             "not grow with --games, the tables are the same.")(f)


def rate_option(f):
    return click.option(
        "--rate", type=click.Choice(["win", "sole"]), default="win",
        help="The rate to balance where wins can be shared (teams, zombies, houses, ties): "
             "'win' counts a shared win (who ends on a winning side), 'sole' only games won "
             "alone (who wins the game; a designer balancing who wins reads this one). With "
             "one winner a game they are the same.")(f)


def precision_options(f):
    f = click.option("--max-games", default=None, type=WHOLE,
                     help="Upper bound on games per configuration with --precision.",
                     show_default="2,000,000")(f)
    f = click.option("--precision", default=None, type=float, metavar="EPS",
                     help="Play batches until every reported win-rate interval is narrower "
                          "than +/-EPS (--games is the first batch).")(f)
    return f


@click.command("sweep")
@click.argument("ruleset")
@click.option("--vary", "vary", multiple=True, required=True, metavar="KEY[=v1,v2,...]",
              help="Parameter to sweep and its values (repeatable: the grid of all "
                   "combinations); KEY alone uses its declared sweep candidates.")
@click.option("--target", default=None, metavar="NAME=RATE|fair",
              help="Estimate where the win rate of a role, policy or seat (seat0) crosses "
                   "RATE, or with NAME=fair the fair share as it moves (the mean of the "
                   "rates of its group at each point); new points are played near the "
                   "crossing until it is precise.")
@click.option("--target-precision", default=None, type=float, metavar="WIDTH",
              help="Refine the crossing until its 95% interval is narrower than WIDTH "
                   "(parameter units).", show_default="the parameter's resolution")
@click.option("--no-refine", is_flag=True, default=False,
              help="Estimate the crossing from the grid alone.")
@rate_option
@run_options
@precision_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write sweep.csv, crossings.csv, sweep_KEY.png; finished points are kept "
                   "in DIR/.points so a re-run resumes.", show_default="out/RULESET/sweep")
@summary_option
@pass_run
def sweep_cmd(ruleset, run, vary, target, target_precision, no_refine, rate, precision,
              max_games, out, summary_only):
    """Play a grid of parameter values on the same seeds (paired) and plot win rates."""
    from ..workflow.sweep import parse_vary, sweep
    out = command_out(out, ruleset, "sweep")
    if target_precision is not None and not target_precision > 0:
        raise BalanceError(f"--target-precision {target_precision}: must be positive")
    varied = [parse_vary(v) for v in vary]
    for key in dict.fromkeys(k for k, _ in varied):
        if key in run["params"]:
            click.echo(f"warning: --vary {key} replaces {key}={run['params'][key]} (from --set "
                       f"or --config) at every point", err=True)
    res = sweep(ruleset, varied, target=target, precision=precision,
                max_games=max_games, out=out, refine=not no_refine,
                target_precision=target_precision, summary_only=summary_only, rate=rate,
                **run)
    click.echo("\n".join(res.lines()))
    if res.precision:
        pts = res.precision["points"]
        click.echo(f"precision +/-{precision}: {sum(p['games'] for p in pts):,} games in total, "
                   f"{min(p['games'] for p in pts):,}-{max(p['games'] for p in pts):,} per point; "
                   f"{sum(p['reached'] for p in pts)} of {len(pts)} points reached it")
    say_written(res.files, out)


@click.command("compare")
@click.argument("ruleset")
@click.option("--a", "a", multiple=True, metavar="KEY=VALUE",
              help="Parameter of variant A (repeatable); on top of --set.")
@click.option("--b", "b", multiple=True, metavar="KEY=VALUE",
              help="Parameter of variant B (repeatable); on top of --set.")
@run_options
@precision_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write compare_*.csv and compare.png here.", show_default="out/RULESET/compare")
@summary_option
@pass_run
def compare_cmd(ruleset, run, a, b, precision, max_games, out, summary_only):
    """Play variants A and B on the same seeds; paired differences B - A with intervals."""
    from ..workflow import adaptive
    from ..workflow.compare import compare
    out = command_out(out, ruleset, "compare")
    res = compare(ruleset, list(a), list(b), precision=precision, max_games=max_games,
                  out=out, summary_only=summary_only, **run)
    click.echo("\n".join(res.lines()))
    if res.precision:
        click.echo(adaptive.describe(res.precision))
    say_written(res.files, out)


@click.command("cards")
@click.argument("ruleset")
@click.option("--mode", type=click.Choice(["remove", "forbid"]), default=None,
              help="Remove each kind from the deck, or forbid playing it.",
              show_default="remove where supported, else forbid")
@click.option("--correction", type=click.Choice(["holm", "bh"]), default="holm",
              help="Multiple-comparison correction: Holm or Benjamini-Hochberg.")
@click.option("--kind", "kinds", multiple=True, help="Only these card kinds (repeatable).",
              show_default="every kind")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write cards_interventional.csv, cards_groups.csv, cards.png here; finished "
                   "kinds are kept in DIR/.points.", show_default="out/RULESET/cards")
@summary_option
@pass_run
def cards_cmd(ruleset, run, mode, correction, kinds, out, summary_only):
    """Interventional per-card power: the same seeds without each card kind."""
    from ..workflow.cards import cards
    out = command_out(out, ruleset, "cards")
    res = cards(ruleset, mode=mode, correction=correction, kinds=list(kinds) or None,
                out=out, summary_only=summary_only, **run)
    click.echo("\n".join(res.lines()))
    say_written(res.files, out)


@click.command("matchups")
@click.argument("ruleset")
@click.option("--policies", "policy_list", default=None, metavar="A,B,C",
              help="Policies to pit against each other.",
              show_default="the ruleset's, but its search levels")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write matchups.csv, matchups_matrix.csv, matchups.png here.",
              show_default="out/RULESET/matchups")
@summary_option
@pass_run
def matchups_cmd(ruleset, run, policy_list, out, summary_only):
    """Win-rate matrix of every pair of policies, seats rotated, with a heatmap."""
    from ..workflow.matchups import matchups
    out = command_out(out, ruleset, "matchups")
    pols = policy_list if policy_list is not None else (run.pop("policies", None) or None)
    run.pop("policies", None)
    res = matchups(ruleset, pols, out=out, summary_only=summary_only, **run)
    click.echo("\n".join(res.lines()))
    say_written(res.files, out)


@click.command("report")
@click.argument("ruleset")
@run_options
@click.option("--policies", "policy_list", default=None, metavar="A,B,C",
              help="Policies of the matchup matrix.",
              show_default="the ruleset's, but its search levels")
@click.option("--sweep-games", default=None, type=WHOLE,
              help="Games per point of the headline sweeps.", show_default="--games")
@click.option("--cards-games", default=None, type=WHOLE,
              help="Games per card kind of the interventional card table.",
              show_default="--games")
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Report folder (report.md, report.html, PNGs, CSVs); finished pieces "
                   "are kept in DIR/.points so a re-run resumes.",
              show_default="out/RULESET/report")
@click.option("--force", is_flag=True, default=False,
              help="Replace a finished report already in --out (a committed report is "
                   "regenerated with the command recorded in it, which has --force).")
@click.option("--skill-games", default=None, type=WHOLE,
              help="Games a run of the section that re-checks the findings under search "
                   "play.", show_default="min(--games, 2000)")
@click.option("--skill-seconds", default=None, type=click.FloatRange(min=0),
              help="Time budget of that section: the strongest search level that fits it "
                   "is played.", show_default="600")
@click.option("--skill-policy", default=None,
              help="Play this policy in that section instead of choosing a search level.")
@summary_option
@pass_run
def report_cmd(ruleset, run, policy_list, sweep_games, cards_games, out, force, skill_games,
               skill_seconds, skill_policy, summary_only):
    """Write a self-contained balance report (Markdown + HTML + PNG) for RULESET."""
    from ..workflow.report import default_out, report
    res = report(ruleset, out=out_dir(out, default_out(ruleset)), matchup_policies=policy_list,
                 sweep_games=sweep_games, cards_games=cards_games, force=force,
                 summary_only=summary_only, skill_games=skill_games,
                 skill_seconds=skill_seconds, skill_policy=skill_policy, **run)
    click.echo("\n".join(res["findings"]))
    click.echo(f"report written to {res['markdown']} and {res['html']}")


@click.command("ladder")
@click.argument("ruleset")
@click.option("--policies", "policy_list", default=None, metavar="A,B,C",
              help="Policies of the ladder.", show_default="all of the ruleset's, search included")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write ladder.csv, ladder_pairs.csv, ladder.png, ladder.json here; finished "
                   "lineups are kept in DIR/.points.", show_default="out/RULESET/ladder")
@summary_option
@pass_run
def ladder_cmd(ruleset, run, policy_list, out, summary_only):
    """Skill ladder: round robin of the policies, Bradley-Terry ratings, skill depth."""
    from ..workflow.ladder import ladder
    out = command_out(out, ruleset, "ladder")
    pols = policy_list if policy_list is not None else (run.pop("policies", None) or None)
    run.pop("policies", None)
    res = ladder(ruleset, pols, out=out, summary_only=summary_only, **run)
    click.echo("\n".join(res.lines()))
    say_written(res.files, out)


def commands():
    """The commands of this module (``cli.Group`` adds those of their own
    modules: tune, sensitivity)."""
    return [sweep_cmd, compare_cmd, cards_cmd, matchups_cmd, report_cmd, ladder_cmd]
