import click

from ..core import registry


@click.command("rulesets")
def command():
    """List the registered rulesets: version, players and policies."""
    for name in registry.names():
        spec = registry.get(name)
        values = spec.space.defaults()
        lo, hi = spec.players
        click.echo(f"{name:<10} {spec.title}")
        click.echo(f"{'':<10} version {spec.version(values)} (default), players {lo}-{hi}, "
                   f"policies: {', '.join(spec.policies)}")
