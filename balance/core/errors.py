"""The one exception type for bad input: the CLI prints it as a one-line
error and exits with code 2."""


class BalanceError(ValueError):
    """Bad input from the user (ruleset, policy, parameter, file, count)."""
