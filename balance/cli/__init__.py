"""The ``balance`` command line: a click group, one module per command.

Bad input never shows a traceback: every :class:`BalanceError` and every
click usage error is printed as one line ``Error: ...`` on stderr with exit
code 2.
"""
from __future__ import annotations

import sys

import click

from ..core.errors import BalanceError


# Designer-workflow commands live in balance/cli/workflow.py and pull in
# matplotlib and statsmodels; they are imported only when one is used, so that
# `balance run` starts fast.
LAZY = ("sweep", "compare", "cards", "matchups", "report", "ladder")


class Group(click.Group):
    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self._lazy()))

    def get_command(self, ctx, name):
        cmd = super().get_command(ctx, name)
        if cmd is None and name in self._lazy():
            cmd = self._lazy()[name]
        return cmd

    def _lazy(self):
        if not hasattr(self, "_lazy_cache"):
            try:
                # one module per command (sensitivity, tune) imports this one's options
                from . import sensitivity, tune, workflow
                self._lazy_cache = {c.name: c for c in workflow.commands()
                                    + [tune.command, sensitivity.command]}
            except ImportError:
                self._lazy_cache = {}
        return self._lazy_cache

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
        except OSError as e:          # a full disk, a read-only or vanished folder
            where = f" ({e.filename})" if e.filename else ""
            click.echo(f"Error: could not read or write a file{where}: {e.strerror or e}; "
                       f"finished pieces are kept, run the same command again once it is "
                       f"fixed", err=True)
            sys.exit(2)
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
    _sigterm_as_interrupt()
    try:
        cli.main()
        code = 0
    except SystemExit as e:
        code = e.code
    _exit(code)


def _sigterm_as_interrupt() -> None:
    """SIGTERM raises KeyboardInterrupt, as Ctrl-C does: a command that is
    terminated (a job scheduler, ``kill PID``) saves its finished pieces and
    says so, and the same command resumes (exit code 130)."""
    import signal

    from ..core.errors import interrupt
    signal.signal(signal.SIGTERM, interrupt)


def _exit(code) -> None:
    """End the process without the interpreter's own teardown.

    After a command, Python's finalisation (clearing the modules of numba,
    LLVM, pandas and pyarrow, and collecting their objects) took about 0.4 s
    of a 4-second ``balance run`` (measured: 0.40-0.56 s between the
    command's end and the process's, 0.13 s without it). Everything a
    command writes is closed by then; the standard streams are flushed here
    and the ``atexit`` handlers (logging, Dask, multiprocessing) still run.
    Where a thread other than daemons is still alive, the interpreter's
    normal exit waits for it instead."""
    import atexit
    import os
    import threading
    if code is None:
        code = 0
    elif not isinstance(code, int):          # sys.exit("message")
        print(code, file=sys.stderr)
        code = 1
    if any(t is not threading.main_thread() and not t.daemon and t.is_alive()
           for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):        # a closed pipe: nothing more to say
            pass
    os._exit(code)


def _register():
    from . import params, replay, rulesets, run  # noqa: F401
    for mod in (rulesets, params, run, replay):
        cli.add_command(mod.command)


_register()
