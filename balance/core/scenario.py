"""The part of a ruleset's scenario table (``rulesets/<slug>/scenario.py``)
that every ruleset shares.

A scenario table holds one game's arrays, dealt by the ruleset's kernel and
then edited by the test (a hand, a deck, a field), so a rulebook example or
an invariant can be played from a chosen position and read back as trace
rows or as the replay's lines. What differs between rulesets (the state's
arrays, how a position is arranged, which rule parts can be called one by
one) is the subclass's; what is the same is here: the parameter values
checked against the spec, the seats' policies and their ids, the record
buffers the kernel writes into, and reading the trace since a mark.

Pure Python: importing it loads no compiled code.
"""
from __future__ import annotations

import numpy as np

from .errors import BalanceError
from .layout import Z_TR


class Table:
    """One game of ``spec``'s ruleset, for scenario tests.

    The subclass calls this ``__init__`` first, then builds its state and
    context and deals; it must expose the game-globals vector as ``self.Z``
    (its ``Z_TR`` slot counts the trace rows written, ``core.layout``).

    ``ids`` adds policy ids the scenarios know beyond the spec's (a
    scripted seat: ``{"script": POL_SCRIPT}``); ``kinds`` is the number of
    card kinds the card-count buffer holds.
    """

    def __init__(self, spec, players: int, params: dict | None, policies, *, kinds: int,
                 ids: dict | None = None, seed: int = 0, game: int = 0, trace: int = 100_000):
        self.spec = spec
        self.values = spec.space.resolve(params)
        spec.check_values(self.values, players)
        self.P = int(players)
        if isinstance(policies, str):
            policies = [policies] * self.P
        self.policies = list(policies)
        known = {**spec.policies, **(ids or {})}
        unknown = [p for p in self.policies if p not in known]
        if unknown or len(self.policies) != self.P:
            raise BalanceError(f"{spec.name} scenario: policies {self.policies} for "
                               f"{self.P} seats; allowed: {', '.join(known)}")
        self.pol = np.array([known[p] for p in self.policies], np.int64)
        self.seed, self.game = np.uint64(seed), np.int64(game)
        self.tr = np.zeros((trace, 8), np.int64)
        self.masks = np.zeros((self.P, 2, 1), np.uint64)
        self.counts = np.zeros((2, kinds), np.int64)
        self.grow = np.zeros(len(spec.game_columns), np.int64)
        self.srow = np.zeros((self.P, len(spec.seat_columns)), np.int64)
        self.mark = 0

    # --- the trace ------------------------------------------------------------
    def set_mark(self) -> None:
        """Later :meth:`events` and :meth:`lines` start here (after an arrange)."""
        self.mark = int(self.Z[Z_TR])

    def events(self, all: bool = False, etype: int | None = None) -> np.ndarray:
        """Trace rows since the mark (``all``: since the deal), of one event
        type when ``etype`` is given."""
        rows = self.tr[0 if all else self.mark:self.Z[Z_TR]]
        return rows if etype is None else rows[rows[:, 0] == etype]

    def format(self, events) -> list[str]:
        """The replay's lines for trace rows (a subclass adds what its
        ``format_trace`` takes beyond the common arguments)."""
        return self.spec.format_trace(events, self.values, self.P, self.policies)

    def lines(self, all: bool = False) -> list[str]:
        """The replay's lines of :meth:`events`."""
        return self.format(self.events(all))
