import click

from ..core.runner import simulate
from .common import pass_run, run_options
from .show import print_summary


@click.command("run")
@click.argument("ruleset")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write games.parquet, seats.parquet, cards.csv, summary.json here.",
              show_default="out/RULESET")
@pass_run
def command(ruleset, run, out):
    """Play games of RULESET and print win rates, lengths and end reasons."""
    result = simulate(ruleset, **run)
    print_summary(result)
    path = result.save(out or f"out/{ruleset}")
    click.echo(f"tables written to {path}/")
