"""balance: Monte Carlo balance analysis for card games.

>>> import balance
>>> r = balance.simulate("talisman", games=100_000, seed=1, players=2,
...                      policies=["greedy", "random"])
>>> r.by_policy(), r.summary["length_turns"], r.cards.head()
"""
__version__ = "0.1.0"

from .core.errors import BalanceError  # noqa: E402
from .core.registry import get as ruleset, names as rulesets  # noqa: E402
from .core.runner import Result, simulate  # noqa: E402

__all__ = ["simulate", "Result", "BalanceError", "ruleset", "rulesets", "replay"]


def replay(ruleset: str, game: int, seed: int = 0, players=None, policies=None,
           params=None) -> str:
    """Text of game ``game`` of ``seed``, turn by turn (see ``balance replay``)."""
    from .core.replay import replay_text
    return replay_text(ruleset, game=game, seed=seed, players=players,
                       policies=policies, params=params)

from .workflow import cards, compare, matchups, report, run_precise, sweep  # noqa: E402

__all__ += ["sweep", "compare", "cards", "matchups", "run_precise", "report"]
