"""``balance sensitivity RULESET``: which parameters move the balance."""
from __future__ import annotations

import click

from .common import WHOLE, pass_run, run_options
from .workflow import command_out, precision_options, rate_option, say_written

DEFAULT_GAMES = 50_000     # workflow.sensitivity.DEFAULT_GAMES (not imported: start-up time)


@click.command("sensitivity")
@click.argument("ruleset")
@click.option("--params", "names", default=None, metavar="A,B,C|GROUP",
              help="Parameters to analyse, or a group the ruleset declares (elite: v1, v2, "
                   "v3, general).", show_default="every rule parameter with sweep values")
@click.option("--values", "values", multiple=True, metavar="KEY=v1,v2,...",
              help="Play these values of KEY instead of its declared sweep values "
                   "(repeatable).")
@rate_option
@run_options
@precision_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write sensitivity.md, sensitivity.csv, sensitivity_ranking.csv, "
                   "sensitivity_tornado.png, sensitivity.json; finished pieces are kept in "
                   "DIR/.points so a re-run resumes.", show_default="out/RULESET/sensitivity")
@pass_run
def command(ruleset, run, names, values, rate, precision, max_games, out):
    """Play every parameter's sweep values against the default on the same seeds.

    Ranks the parameters by their largest paired effect on a role (or seat)
    with 95% intervals, Holm-adjusted across all parameters; names those
    with no measurable effect; says where a curve saturates or is
    non-monotone; draws a tornado chart. --games is per value (default
    50,000); the games are played in pieces reduced to sums as they finish
    (as --summary-only), on a Dask cluster with --cluster/--scheduler.
    """
    from ..workflow.sensitivity import parse_values, sensitivity
    out = command_out(out, ruleset, "sensitivity")
    res = sensitivity(ruleset, names, values=parse_values(values), rate=rate,
                      precision=precision, max_games=max_games, out=out, **run)
    click.echo("\n".join(res.lines()))
    click.echo(res.cost_line())
    say_written(res.files, out)


for _p in command.params:                 # --games is per value here, with its own default
    if _p.name == "games":
        _p.default = DEFAULT_GAMES
        _p.help = "Games per value (and for the default), on the same seeds."
