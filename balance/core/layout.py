"""Record and state layouts, declared once by name.

A ruleset's ``layout.py`` declares its game and seat record columns as
tuples of names (the same tuples its ``RulesetSpec`` lists), and its kernel
takes each column's index from them with :func:`index`, the way parameter
slots come from ``params.kernel_index``: reordering or inserting a column
cannot mislabel a table. ``layout`` modules hold plain constants only, so
``replay``, scenarios and tests import them without loading compiled code.

Every kernel's game-globals vector ``Z`` keeps the turn and the trace
length in the slots below, which the shared trace writer
(``core.kernel.ev``) reads.
"""
from __future__ import annotations

Z_TURN = 2          # Z[Z_TURN]: the turn being played (trace rows carry it)
Z_TR = 3            # Z[Z_TR]: trace rows written so far


def index(names) -> dict[str, int]:
    """Column name -> its index in the record (names must be distinct)."""
    names = tuple(names)
    if len(set(names)) != len(names):
        raise ValueError(f"repeated column names in {names}")
    return {n: i for i, n in enumerate(names)}


def slots(names, start: int = 0) -> dict[str, int]:
    """Consecutive state slots from ``start``: name -> index."""
    return {n: start + i for i, n in enumerate(names)}
