import click

from ..core.play import replay_text
from .common import WHOLE, game_options, pass_run


@click.command("replay")
@click.argument("ruleset")
@click.option("--game", "-g", default=0, show_default=True, type=WHOLE,
              help="Index of the game within the run (0-based).")
@game_options
@pass_run
def command(ruleset, run, game):
    """Print game GAME of seed SEED turn by turn: exactly the game `run` played."""
    click.echo(replay_text(ruleset, game=game, seed=run["seed"], players=run["players"],
                           policies=run["policies"], params=run["params"]))
