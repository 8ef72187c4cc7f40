"""Replay one game of a run as text, through the registry."""
from __future__ import annotations

from . import jit, registry
from .errors import BalanceError
from .setup import check_count, setup


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


def replay_game(ruleset: str, *, game: int, seed: int = 0, players=None, policies=None,
                params=None, ban=None):
    """(setup, Batch of the one game, event array) for game ``game`` of ``seed``."""
    s = setup(ruleset, seed=seed, players=players, policies=policies, params=params, ban=ban)
    game = check_count("game", game, 0)
    kw = {} if s.ban_vector is None else {"ban": s.ban_vector}
    if s.data:
        kw["data"] = s.data
    seat_values = s.seat_values
    if seat_values is not None:
        kw["seat_values"] = seat_values
    jit.notice(s.spec, "replay", values=s.values)
    batch, events = s.spec.trace_game(s.values, s.seed, game, s.n_players, s.policy_ids, **kw)
    return s, batch, events


def replay_text(ruleset: str, *, game: int, seed: int = 0, players=None, policies=None,
                params=None) -> str:
    s, batch, events = replay_game(ruleset, game=game, seed=seed, players=players,
                                   policies=policies, params=params)
    head = (f"{s.spec.title}: game {game} of seed {s.seed}, {s.n_players} players "
            f"({', '.join(s.policies)}), ruleset version {s.spec.version(s.values)}")
    body = s.spec.format_trace(events, s.values, s.n_players, s.policies)
    return "\n".join([head] + body)


__all__ = ["event_rows", "trace_events", "seat", "replay_game", "replay_text", "registry",
           "BalanceError"]
