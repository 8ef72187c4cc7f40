import shutil

import click

from ..core.play import simulate
from .common import WHOLE, out_dir, pass_run, run_options
from .show import print_summary


@click.command("run")
@click.argument("ruleset")
@run_options
@click.option("--out", "-o", default=None, type=click.Path(file_okay=False),
              help="Write games.parquet, seats.parquet, cards.csv, summary.json here.",
              show_default="out/RULESET")
@click.option("--precision", default=None, type=float, metavar="EPS",
              help="Play batches until every win-rate interval is narrower than +/-EPS "
                   "(--games is the first batch).")
@click.option("--max-games", default=None, type=WHOLE,
              help="Upper bound on games with --precision.", show_default="2,000,000")
@click.option("--summary-only", is_flag=True, default=False,
              help="Keep no per-game table: write summary.json and cards.csv from per-piece "
                   "sums (memory does not grow with --games).")
@pass_run
def command(ruleset, run, out, precision, max_games, summary_only):
    """Play games of RULESET and print win rates, lengths and end reasons."""
    out = out_dir(out, f"out/{ruleset}")
    sink = "sums" if summary_only else "tables"         # the run's one choice of sink
    partial = out / ".partial"        # finished chunks survive an interruption
    if precision is None and max_games is None:
        result = simulate(ruleset, checkpoint=partial, sink=sink, **run)
        print_summary(result)
    else:
        from ..workflow.adaptive import describe, run_precise
        from ..core.errors import BalanceError
        if precision is None:
            raise BalanceError("--max-games needs --precision EPS")
        result, info = run_precise(ruleset, precision, max_games, sink=sink, **run)
        print_summary(result)
        click.echo(describe(info))
    path = result.save(out)
    shutil.rmtree(partial, ignore_errors=True)
    click.echo(f"tables written to {path}/")
