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
>>> balance.sensitivity("elite", "v3", players=4, policies=["greedy"])  # which numbers matter
>>> balance.tune("talisman", ["hp=10..40"], objective="seats-fair")     # which values balance
>>> balance.tune("elite", ["hand_damage_value"], players=4, params={"version": 3},
...              objective="policy:greedy=max")                          # a stronger greedy
"""
# imported on first use: a command that needs one helper of this package
# (``balance run`` prints with ``outcome.text_table``) must not pull in
# matplotlib, statsmodels and every workflow (0.75 s at start-up)
_WHERE = {"run_precise": "adaptive", "cards": "cards", "compare": "compare", "ladder": "ladder",
          "matchups": "matchups", "report": "report", "sweep": "sweep",
          "sensitivity": "sensitivity", "tune": "tune"}

__all__ = ["sweep", "compare", "cards", "matchups", "run_precise", "report", "ladder",
           "sensitivity", "tune"]


def function(name: str):
    """The workflow function ``name`` (``balance.sweep`` and the others come
    from here). Looked up in its module, not as an attribute of this
    package: once ``balance.workflow.sweep`` is imported, that attribute is
    the module."""
    import importlib
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)


def __getattr__(name):
    if name in _WHERE:
        return function(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
