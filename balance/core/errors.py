"""The one exception type for bad input: the CLI prints it as a one-line
error and exits with code 2."""


class BalanceError(ValueError):
    """Bad input from the user (ruleset, policy, parameter, file, count)."""


def did_you_mean(value, known) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known``, else ``""``."""
    import difflib
    close = difflib.get_close_matches(str(value), [str(k) for k in known], n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def interrupt(signum, frame):
    """A signal handler that raises KeyboardInterrupt, as Ctrl-C does (SIGTERM:
    a terminated command saves its finished pieces and says so)."""
    raise KeyboardInterrupt(f"signal {signum}")
