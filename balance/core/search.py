"""The search policy's names and budgets, shared by every ruleset.

A ruleset that offers determinized flat Monte Carlo search registers its
skill levels under these policy names, and declares the budget parameters
``search_determinizations`` and ``search_rollouts`` (rollouts per
determinization) among its policy parameters; ``search_top_k`` limits the
candidates to the best by greedy's score (0: every distinct legal action)
and ``search_rollout_policy`` picks the rollout policy (0 greedy, 1 random).
Each level multiplies the number of determinizations by its factor
(at least 1), so several budgets can sit at one table.

Pure Python: nothing here is compiled, and the kernels keep their own copy
of the factors as integer constants.
"""
from __future__ import annotations

from .variants import base

# policy name -> multiplier of the declared budget (numerator, denominator)
LEVELS = {"search_fast": (1, 4), "search": (1, 1), "search_strong": (4, 1)}

# search variants that see what their seat cannot (an ``oracle``): yardsticks
# only, under that name; the default matchup matrix and ladder leave them out
YARDSTICKS = ("oracle",)

# the game engine's information-set MCTS (``core.engine.search``; budget
# ``search_iterations``): on the ladder, out of the default matchup matrix
TREE_SEARCHES = ("ismcts",)


def iterations_param():
    """``search_iterations``, the ISMCTS budget, declared the same in every
    ruleset's ``PolicyParams`` (a new field each call: a dataclass field
    belongs to one class)."""
    from .params import param
    return param(64, doc="ismcts: iterations per decision (each one determinization, one "
                 "descent of the tree, one rollout)", bounds=(1, 100_000), sweep=(16, 64, 256))


def is_search(policy: str) -> bool:
    """A search level, ISMCTS or a yardstick: a policy that simulates games
    per move (a variant ``search[...]`` too)."""
    policy = base(policy)
    return policy in LEVELS or policy in YARDSTICKS or policy in TREE_SEARCHES

DOCS = {
    "search_fast": "search with a quarter of the determinizations (a weaker level)",
    "search": "determinized flat Monte Carlo: per candidate action, sample what the seat "
              "cannot see, play rollouts to the end, take the best win rate (ties at random)",
    "search_strong": "search with four times the determinizations (a stronger level)",
}


def determinizations(values: dict, policy: str) -> int:
    """The determinizations per candidate a search level samples."""
    num, den = LEVELS[policy]
    return max(1, int(values["search_determinizations"]) * num // den)


def budget(values: dict, policy: str) -> int:
    """Rollouts per candidate action of a search level; 0 for any other
    policy (and for a ruleset without the budget parameters)."""
    policy = base(policy)
    if policy not in LEVELS or "search_determinizations" not in values:
        return 0
    return determinizations(values, policy) * int(values.get("search_rollouts", 1))
