"""The ``balance`` command line: a click group, one module per command.

Bad input never shows a traceback: every :class:`BalanceError` and every
click usage error is printed as one line ``Error: ...`` on stderr with exit
code 2.
"""
from __future__ import annotations

import sys

import click

from ..core.errors import BalanceError


class Group(click.Group):
    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            return super().main(args=args, prog_name=prog_name or "balance",
                                complete_var=complete_var, standalone_mode=False, **extra)
        except BalanceError as e:
            click.echo(f"Error: {e}", err=True)
            sys.exit(2)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except click.ClickException as e:
            msg = " ".join(e.format_message().split())
            if isinstance(e, click.UsageError) and e.ctx is not None:
                msg += f" (see `{e.ctx.command_path} --help`)"
            click.echo(f"Error: {msg}", err=True)
            sys.exit(e.exit_code)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"],
                                          "show_default": True})
@click.version_option(package_name="balance")
def cli():
    """Monte Carlo balance analysis for card games.

    Start with `balance rulesets`, then `balance params RULESET` and
    `balance run RULESET --games 100000 --out runs/x`.
    """


def main():
    cli.main()


def _register():
    from . import params, replay, rulesets, run  # noqa: F401
    for mod in (rulesets, params, run, replay):
        cli.add_command(mod.command)
    try:
        from . import workflow  # designer workflow commands, when present
        for c in workflow.commands():
            cli.add_command(c)
    except ImportError:
        pass


_register()
