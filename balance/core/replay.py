"""The trace helpers every ruleset's ``replay.py`` shares: a kernel trace's
rows as tuples, the deal lines, a seat's label. Pure Python, below the
layers that play a run (``core.play.replay_text`` plays the one game)."""
from __future__ import annotations


def event_rows(events, deal_type: int, card_name, policies):
    """The rows of a kernel trace as int tuples (type, turn, seat, a, b, c, d,
    e), except that each run of deal events (type ``deal_type``, card in
    ``a``) comes out as ready lines ``deal P0 (policy): cards...``, one per
    seat. Shared by the rulesets' ``format_trace``."""
    deal: dict[int, list[str]] = {}
    for row in events:
        t, turn, p, a, b, c, d, e = (int(x) for x in row)
        if t == deal_type:
            deal.setdefault(p, []).append(card_name(a))
            continue
        for q in sorted(deal):
            yield f"deal P{q} ({policies[q]}): {' '.join(deal[q])}"
        deal = {}
        yield t, turn, p, a, b, c, d, e
    for q in sorted(deal):
        yield f"deal P{q} ({policies[q]}): {' '.join(deal[q])}"


def seat(s) -> str:
    """A seat's name in a trace line: ``P0``, ``P1``, ..."""
    return f"P{int(s)}"


def trace_events(events, deal_type: int, card_name, policies, lines: list):
    """The opening of a ruleset's ``format_trace``, shared: yields each event
    of a kernel trace that is not a deal as an int tuple (type, turn, seat,
    a, b, c, d, e), and appends the deal lines of ``event_rows`` to
    ``lines`` in their place, so that the caller narrates the rest::

        lines = []
        for t, turn, p, a, b, c, d, e in trace_events(events, E_DEAL, name, policies, lines):
            if t == E_TURN:
                lines.append(...)
    """
    for row in event_rows(events, deal_type, card_name, policies):
        if isinstance(row, str):
            lines.append(row)
        else:
            yield row


__all__ = ["event_rows", "trace_events", "seat"]
