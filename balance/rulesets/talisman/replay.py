"""Turn a talisman event trace into readable lines."""
from ...core.replay import seat, trace_events
from . import layout as L
from .rules import COMBOS, FLUSH, FOUR, GENERATING, OVERCOMING, SPECIALS, card_name


def format_trace(events, values, n_players, policies) -> list[str]:
    V = values["values_per_element"]
    name = lambda c: card_name(int(c), V)  # noqa: E731
    lines = []
    for t, turn, p, a, b, c, d, e in trace_events(events, L.E_DEAL, name, policies, lines):
        if t == L.E_TURN:
            lines.append(f"-- turn {turn} (round {a}): {seat(p)} HP {b}, hand {c}, guards {d}")
        elif t == L.E_SKIP:
            lines.append(f"   {seat(p)} is skipped by wind ({a} skips left)")
        elif t == L.E_DRAW:
            lines.append(f"   {seat(p)} draws {name(a)}")
        elif t == L.E_RESHUFFLE:
            lines.append(f"   discard pile ({a} cards) reshuffled into the deck")
        elif t == L.E_DISCARD:
            lines.append(f"   {seat(p)} discards {name(a)} (hand limit)")
        elif t == L.E_PLACE:
            lines.append(f"   {seat(p)} places {name(a)} (array: {b} cards)")
        elif t == L.E_CAST:
            tgt = f" on {seat(b)}" if b >= 0 else ""
            lines.append(f"   {seat(p)} casts {SPECIALS[a]}{tgt}")
        elif t == L.E_COMBO:
            tgt = f" on {seat(b)}" if b >= 0 else ""
            what = f"{c} cards" if a in (FLUSH, GENERATING, OVERCOMING) else \
                (f"sum {c}" if a == FOUR else f"value {e} x {c // max(e, 1)}")
            verb = "heal" if a == FOUR else "damage"
            lines.append(f"   {seat(p)} fires {COMBOS[a]}{tgt} ({what}): {d} {verb}")
        elif t == L.E_DAMAGE:
            if b:
                lines.append(f"   {seat(p)}'s guard absorbs {a} damage from {seat(d)} (HP {c})")
            else:
                lines.append(f"   {seat(p)} takes {a} damage from {seat(d)}: HP {c}")
        elif t == L.E_HEAL:
            lines.append(f"   {seat(p)} heals {a}: HP {b}")
        elif t == L.E_STEAL:
            got = name(b) if b >= 0 else "nothing (empty hand)"
            lines.append(f"   {seat(p)} steals from {seat(a)}: {got}")
        elif t == L.E_WIND:
            lines.append(f"   {seat(a)} will skip a turn ({b} pending)")
        elif t == L.E_GUARD:
            lines.append(f"   {seat(p)} now holds {a} guard(s)")
        elif t == L.E_GAMBLE:
            lines.append(f"   {seat(p)} discards the whole hand ({a} cards) and redraws")
        elif t == L.E_DESTROY:
            lines.append(f"   {seat(p)}'s array is destroyed ({a} cards)")
        elif t == L.E_OUT:
            lines.append(f"   {seat(p)} is out")
        elif t == L.E_PASS:
            lines.append(f"   {seat(p)} passes")
        elif t == L.E_END:
            if p >= 0:
                lines.append(f"== {seat(p)} ({policies[p]}) wins after {b} turns, {c} rounds")
            else:
                lines.append(f"== draw: turn cap reached after {b} turns")
    return lines
