"""balance: Monte Carlo balance analysis for card games.

>>> import balance
>>> r = balance.simulate("talisman", games=100_000, seed=1, players=2,
...                      policies=["greedy", "random"])
>>> r.by_policy(), r.summary["length_turns"], r.cards.head()
"""
from .core.io import VERSION as __version__  # noqa: F401  (core writes it into every result)
from .core.errors import BalanceError  # noqa: E402
from .core.registry import get as ruleset, names as ruleset_names  # noqa: E402
from .core.io import load  # noqa: E402
from .core.play import simulate  # noqa: E402
from .core.results import Result  # noqa: E402
from .core.cluster import use as cluster  # noqa: E402

__all__ = ["simulate", "load", "Result", "BalanceError", "ruleset", "ruleset_names", "replay",
           "cluster"]


def replay(ruleset: str, game: int, seed: int = 0, players=None, policies=None,
           params=None) -> str:
    """Text of game ``game`` of ``seed``, turn by turn (see ``balance replay``)."""
    from .core.play import replay_text
    return replay_text(ruleset, game=game, seed=seed, players=players,
                       policies=policies, params=params)

_WORKFLOW = ("sweep", "compare", "cards", "matchups", "run_precise", "report", "ladder",
             "sensitivity", "tune")
__all__ += list(_WORKFLOW)


def __getattr__(name):
    # the workflow pulls in matplotlib and statsmodels: import it on first use
    # so that `import balance` (and every `balance run`) starts fast
    if name in _WORKFLOW:
        from .workflow import function
        return function(name)
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
