"""The names a run was first published under, kept for code that imports
them from here: ``balance.core.runner.use_data`` (the rulesets' READMEs and
notebooks), ``setup`` and ``play_range`` (the per-ruleset tests),
``simulate``, ``Result`` and ``load`` (``balance.simulate`` and friends).

Nothing is defined here and nothing in ``balance/`` imports it: each name
lives in the module of its job, where new code imports it from:

- ``core.setup``: input checks, ``Setup``, ``setup``, ``use_data``, chunk keys;
- ``core.play``: ``play_range`` (chunk source, executor, sink), ``simulate``;
- ``core.results``: who won, the rate tables, ``Result``;
- ``core.io``: Parquet and JSON writing, ``load``;
- ``core.machine``: memory, table sizes, threads.
"""
from __future__ import annotations

from .io import load
from .play import play_range, simulate
from .results import Result
from .setup import setup, use_data

__all__ = ["load", "play_range", "simulate", "Result", "setup", "use_data"]
