"""``balance tune``: search rule parameters for the most balanced setting."""
from __future__ import annotations

import click

from .common import WHOLE, out_dir, pass_run, run_options
from .workflow import rate_option, say_written, summary_option


@click.command("tune")
@click.argument("ruleset")
@click.option("--vary", "vary", multiple=True, required=True, metavar="NAME[=LO..HI]",
              help="Rule parameter to tune and its range (repeatable; a policy's float "
                   "parameter with --objective policy:NAME=max); NAME alone uses its "
                   "declared sweep range. Whole numbers stay whole; a parameter whose sweep "
                   "values span decades is searched on a log axis.")
@click.option("--objective", "objectives", multiple=True, metavar="OBJECTIVE",
              help="roles-fair, seats-fair, first-mover=RATE, length=TURNS, role:NAME=RATE, "
                   "seat:N=RATE or policy:NAME=RATE (RATE a number or 'fair'); repeat for a "
                   "Pareto front; policy:NAME=max tunes that policy's own parameters for "
                   "the largest advantage over --field.", show_default="roles-fair where the ruleset has roles, "
                                                 "else seats-fair")
@rate_option
@click.option("--field", default=None, metavar="A,B",
              help="With --objective policy:NAME=max: the policies the variant meets, each at "
                   "every other seat, the variant at each seat in turn (NAME itself: its "
                   "defaults, head to head).",
              show_default="the ruleset's heuristics")
@click.option("--trials", default=30, type=WHOLE, help="Trials of the optimiser.")
@click.option("--trial-games", default=None, type=WHOLE,
              help="Games a trial plays at most (the promising ones).", show_default="--games")
@click.option("--min-games", default=None, type=WHOLE,
              help="Games every trial plays first; the best third at each rung plays 3x more.",
              show_default="--trial-games / 27, at least 1,000")
@click.option("--tolerance", default=None, type=float, metavar="POINTS",
              help="Mark the answer met (its 95% bound within POINTS; turns for length), "
                   "missed or unclear.")
@click.option("--recheck-policy", default=None, metavar="POLICY|strongest",
              help="Play the answer and the defaults again with this policy at every seat "
                   "('strongest': the strongest search level whose runs fit 600 s, as the "
                   "report's skilled-play section chooses); an answer that only holds for "
                   "the tuned lineup is marked so.")
@click.option("--recheck-games", default=None, type=WHOLE,
              help="Games of each re-check run.", show_default="min(--games, 2000)")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write tune.md, tune.csv (every trial), tune_answer.csv and the history "
                   "and per-parameter plots here; trials are kept in DIR/.points so a re-run "
                   "resumes.", show_default="out/RULESET/tune")
@summary_option
@pass_run
def command(ruleset, run, vary, objectives, rate, field, trials, trial_games, min_games,
            tolerance, recheck_policy, recheck_games, out, summary_only):
    """Search rule parameters for the setting closest to an objective (optuna TPE,
    successive halving on paired seeds); the answer is played again at --games on a
    fresh seed beside the defaults."""
    from ..workflow.tune import tune
    out = out_dir(out, f"out/{ruleset}/tune")
    res = tune(ruleset, list(vary), objective=list(objectives) or None, rate=rate,
               trials=trials, trial_games=trial_games, min_games=min_games,
               tolerance=tolerance, recheck_policy=recheck_policy,
               recheck_games=recheck_games, out=out, summary_only=summary_only, field=field,
               **run)
    click.echo("\n".join(res.lines()))
    say_written(res.files, out)
