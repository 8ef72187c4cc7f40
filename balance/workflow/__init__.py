"""The designer workflow: sweeps, paired comparisons, interventional card
power, matchups, adaptive precision and reports, for every registered
ruleset through the registry (no per-ruleset code).

>>> import balance
>>> balance.sweep("talisman", {"hp": [10, 20, 40]}, games=20_000, policies=["greedy", "random"])
>>> balance.compare("talisman", {"hp": 20}, {"hp": 25}, games=50_000)
>>> balance.cards("talisman", games=20_000, policies=["greedy"])
>>> balance.matchups("talisman", ["greedy", "random", "patient"], games=20_000)
>>> balance.run_precise("talisman", 0.005, policies=["greedy", "random"])
>>> balance.report("talisman", out="reports/talisman", games=100_000)
>>> balance.ladder("talisman", games=2_000)          # skill ladder, ratings, depth
"""
from .adaptive import run_precise
from .cards import cards
from .compare import compare
from .ladder import ladder
from .matchups import matchups
from .report import report
from .sweep import sweep

__all__ = ["sweep", "compare", "cards", "matchups", "run_precise", "report", "ladder"]
