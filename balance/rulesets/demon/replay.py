"""Turn a demon event trace into readable lines; after each turn, the board
(both seats' rows with their cards, powers and face cards, the big jokers,
the extra slots and their holders, HP, and hand, deck and graveyard sizes)."""
from ...core.replay import event_rows
from . import layout as L
from .rules import N_KINDS, ROW_NAMES, card_name


def _from(b):
    return ROW_NAMES[b] if b < 3 else f"extra slot {'♦♠♣'[b - 3]}"


def _cards(mask) -> str:
    return " ".join(card_name(k) for k in range(N_KINDS) if (mask >> k) & 1) or "-"


def _face(code) -> str:
    if code < 0:
        return ""
    k = code % L.FACE_ACTIVE
    return card_name(k) + ("" if code >= L.FACE_ACTIVE else " (from its owner's next turn)")


def board_lines(seats, rows, slots) -> list[str]:
    """The board block from one turn's E_BSEAT, E_BROW and E_BSLOT events."""
    out = []
    for q in sorted(seats):
        hp, hand, deck, grave, bj = seats[q]
        out.append(f"   | P{q}: HP {hp}; hand {hand}, deck {deck}, graveyard {grave}")
        for r in range(3):
            power, mask, c0, c1 = rows[q, r]
            faces = ", ".join(f for f in (_face(c0), _face(c1)) if f)
            line = f"   |   {ROW_NAMES[r]}: {_cards(mask)} (power {power})"
            if bj == r:
                line += "; big joker"
            if faces:
                line += f"; face cards {faces}"
            out.append(line)
    held = []
    for s in range(3):
        holder, card, active = slots[s]
        sym = "♦♠♣"[s]
        if holder < 0:
            held.append(f"{sym} empty")
        else:
            held.append(f"{sym} P{holder} {card_name(card)}"
                        + ("" if active else " (from its holder's next turn)"))
    out.append(f"   | extra slots: {'; '.join(held)}")
    return out


def format_trace(events, values, n_players, policies) -> list[str]:
    seat = lambda s: f"P{int(s)}"  # noqa: E731
    row = lambda r: "the player" if r < 0 else ROW_NAMES[r]  # noqa: E731
    lines = []
    seats, rows = {}, {}
    for ev in event_rows(events, L.E_DEAL, card_name, policies):
        if isinstance(ev, str):
            lines.append(ev)
            continue
        t, turn, p, a, b, c, d, e = ev
        P = seat(p)
        if t == L.E_BSEAT:
            if p == 0:
                seats, rows = {}, {}
            seats[p] = (a, b, c, d, e)
            continue
        if t == L.E_BROW:
            rows[p, a] = (b, c, d, e)
            continue
        if t == L.E_BSLOT:
            if a == 0:
                slots = {}
                lines.append(f"   board after turn {turn}:")
            slots[a] = (p, b, c)
            if a == 2:
                lines.extend(board_lines(seats, rows, slots))
            continue
        if t == L.E_TURN:
            lines.append(f"-- turn {turn} (round {a}): {P} to play; HP P0 {b}, P1 {c}; "
                         f"hand {d}")
        elif t == L.E_ACT:
            lines.append(f"   {P}'s {a} face/extra-zone card(s) become active")
        elif t == L.E_JFX:
            lines.append(f"   {P}'s J of {ROW_NAMES[a]}: own {card_name(b)} and opposing "
                         f"{card_name(c)} go")
        elif t == L.E_KOPT:
            how = "spends the points" if b == 1 else "spends the points and discards the K"
            lines.append(f"   {P}'s K of {ROW_NAMES[a]} (points {d}): option {b}, {how}, "
                         f"revives {card_name(c)}")
        elif t == L.E_DISCARD:
            lines.append(f"   {P} discards {card_name(a)} (preparation)")
        elif t == L.E_DRAW:
            lines.append(f"   {P} draws {card_name(a)}")
        elif t == L.E_NODRAW:
            lines.append(f"   {P}'s deck is empty: no draw")
        elif t == L.E_ROW:
            lines.append(f"   {P} places {card_name(a)} in {ROW_NAMES[b]} (power {c})")
        elif t == L.E_SLOT:
            lines.append(f"   {P} places {card_name(a)} in the {'♦♠♣'[b]} extra slot")
        elif t == L.E_PAIR:
            lines.append(f"   {P} places the pair {card_name(a)} {card_name(b)} in "
                         f"{ROW_NAMES[c]} (extra-slot sum; power {d})")
        elif t == L.E_FACE:
            rep = f", replacing {card_name(c)}" if c >= 0 else ""
            lines.append(f"   {P} places face card {card_name(a)} in {ROW_NAMES[b]}{rep}")
        elif t == L.E_HEART:
            which = ("the first", "the second", "both")[d]
            lines.append(f"   {P} uses {card_name(a)}: removes {which} face card(s) of "
                         f"{seat(b)}'s {ROW_NAMES[c]}")
        elif t == L.E_BIG:
            if b:
                lines.append(f"   {P} places the big joker in {ROW_NAMES[a]} (it stays)")
            else:
                lines.append(f"   {P} plays the big joker into the empty {ROW_NAMES[a]}: "
                             f"to the graveyard, heal")
        elif t == L.E_SMALL:
            how = " in reply (costs its user)" if c else ""
            lines.append(f"   {P} plays the small joker{how}: destroys {seat(a)}'s big joker "
                         f"in {ROW_NAMES[b]} and that row's face cards")
        elif t == L.E_ATTACK:
            mode = "with the big joker's effect" if c else "normally"
            tgt = "the player directly" if b < 0 else f"{ROW_NAMES[b]} (power {e})"
            lines.append(f"   {P} attacks from {ROW_NAMES[a]} (power {d}) {mode} -> {tgt}")
        elif t == L.E_GONE:
            lines.append(f"   {P}'s {card_name(a)} leaves {_from(b)} for the graveyard")
        elif t == L.E_FACEGONE:
            lines.append(f"   {P}'s face card {card_name(a)} leaves {ROW_NAMES[b]}")
        elif t == L.E_JOKERGONE:
            lines.append(f"   {P}'s big joker leaves {ROW_NAMES[a]}"
                         + (" with that row's face cards" if b else ""))
        elif t == L.E_HP:
            cause = L.CAUSES[c]
            verb = "heals" if a > 0 else "takes"
            lines.append(f"   {P} {verb} {abs(a)} ({cause}): HP {b}")
        elif t == L.E_CLASH:
            lines.append(f"   joker clash: {P}'s {ROW_NAMES[a]} against {ROW_NAMES[b]}")
        elif t == L.E_CLASHCH:
            lines.append(f"   {P} ({'attacker' if b else 'defender'}) "
                         f"{'fights' if a else 'yields'}")
        elif t == L.E_LAY:
            lines.append(f"   {P} lays {card_name(a)} into {ROW_NAMES[b]}")
        elif t == L.E_CLASHRES:
            who = "equal totals: both jokers go" if a < 0 else f"{seat(a)} loses the clash"
            lines.append(f"   totals {b} (attacker) vs {c} (defender): {who}")
        elif t == L.E_Q:
            if b == 1:
                lines.append(f"   {P}'s Q of {ROW_NAMES[a]} (option 1, counting "
                             f"{card_name(c)}): places {card_name(d)} in {ROW_NAMES[e]}")
            else:
                lines.append(f"   {P}'s Q of {ROW_NAMES[a]} (option 2, counting "
                             f"{card_name(c)}): sends its lowest card, places {card_name(d)} "
                             f"in {ROW_NAMES[e]}")
        elif t == L.E_NOATTACK:
            why = ("chooses not to attack", "may not attack (first player's first turn)",
                   "has no legal attack")[a]
            lines.append(f"   {P} {why}")
        elif t == L.E_END:
            reason = L.END_REASONS[a]
            if p >= 0:
                lines.append(f"== {P} ({policies[p]}) wins ({reason}) after {b} turns, "
                             f"{c} rounds")
            else:
                lines.append(f"== draw ({reason}) after {b} turns, {c} rounds")
    return lines
