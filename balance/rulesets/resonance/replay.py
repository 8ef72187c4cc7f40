"""Turn a resonance event trace into readable lines. The reader sees
everything; the lines say what the other seats could not see."""
from ...core.replay import event_rows
from . import layout as L
from .rules import card_name
from .cards import load_cards

OUTCOMES = ("FAILS", "succeeds (normal)", "succeeds (OVERDRAFT)")
WHY = ("turn draw", "dissolve redraw", "DRAW effect", "DRAW use")
DISCARD_WHY = ("failed resonance", "DISCARD effect", "HIT")


def _hand(a, b) -> str:
    counts = [(a >> (8 * k)) & 255 for k in range(7)] + [(b >> (8 * k)) & 255 for k in range(6)]
    return " ".join(card_name(k) for k in range(L.NK) for _ in range(counts[k])) or "-"


def format_trace(events, values, n_players, policies, magic_names=None) -> list[str]:
    if magic_names is None:
        magic_names = [str(n) for n in load_cards().rows["name"]]

    def mc(c):
        return f"#{int(c) + 1} {magic_names[int(c)]}" if c >= 0 else "none"
    seat = lambda s: f"P{int(s)}"  # noqa: E731
    lines = []
    for row in event_rows(events, L.E_DEAL, card_name, policies):
        if isinstance(row, str):
            lines.append(row + "   (hidden from the others)")
            continue
        t, turn, p, a, b, c, d, e = row
        if t == L.E_REVEAL:
            lines.append(f"   magic card revealed: {mc(a)}")
        elif t == L.E_TURN:
            lines.append(f"-- turn {turn} (round {a}): {seat(p)}, hand {b}, markers {c}, "
                         f"magic points {d}")
        elif t == L.E_DRAW:
            lines.append(f"   {seat(p)} draws {card_name(a)} ({WHY[b]}; hidden from the others)")
        elif t == L.E_DRY:
            lines.append("   the " + ("rune deck" if a == 0 else "magic deck")
                         + " is empty: the game ends once this action resolves")
        elif t == L.E_USE:
            lines.append(f"   {seat(p)} uses magic card {mc(a)}: {L.USES[b]} {c}")
        elif t == L.E_DISSOLVE:
            how = "a magic card's DISSOLVE" if d else "a dissolve card"
            lines.append(f"   {seat(p)} removes field slot {a} ({seat(c)}'s rune {card_name(b)}) "
                         f"with {how}")
        elif t == L.E_REDRAW:
            lines.append(f"   {seat(p)} discards a dissolve card to draw")
        elif t == L.E_PLACE:
            lines.append(f"   {seat(p)} places {card_name(a)} face down (slot {b}, "
                         f"{c} in its column; hidden from the others)")
        elif t == L.E_NOPLACE:
            lines.append(f"   {seat(p)} has no rune to place")
        elif t == L.E_PEEK:
            how = " (magic card PEEK)" if d else ""
            lines.append(f"   {seat(p)} peeks at slot {a}: {seat(c)}'s {card_name(b)}{how}")
        elif t == L.E_NOSTART:
            lines.append(f"   {seat(p)} does not start a resonance")
        elif t == L.E_START:
            lines.append(f"   {seat(p)} starts a resonance on {mc(a)} (discards {mc(b)})")
        elif t == L.E_JOIN:
            lines.append(f"   {seat(p)} {'joins' if a else 'declines'}")
        elif t == L.E_TOTALS:
            lines.append(f"   field revealed ({d} runes): red {a}, green {b}, blue {c}")
        elif t == L.E_OUTCOME:
            who = ", ".join(seat(q) for q in range(n_players) if (c >> q) & 1)
            lines.append(f"   the resonance on {mc(a)} {OUTCOMES[b]}; participants {who}")
        elif t == L.E_EFFECT:
            lines.append(f"   {seat(p)}: {L.EFFECTS[a]} {b} ({c} done)")
        elif t == L.E_DISCARD:
            lines.append(f"   {seat(p)} discards {card_name(a)} ({DISCARD_WHY[b]})")
        elif t == L.E_AWARD:
            lines.append(f"   {seat(p)} takes {mc(a)}")
        elif t == L.E_STATE:
            lines.append(f"   {seat(p)}: markers {a}, magic points {c}, hand {b}"
                         + ("" if d else " (out)") + f"; supply {e}")
        elif t == L.E_HAND:
            lines.append(f"      hand: {_hand(a, b)}")
        elif t == L.E_OUT:
            lines.append(f"   {seat(p)} has no cards left: out")
        elif t == L.E_SCORE:
            lines.append(f"   {seat(p)} ({policies[p]}): score {a} = markers {b} + magic "
                         f"points {c} + cards in hand {d}")
        elif t == L.E_END:
            why = L.END_REASONS[a]
            if p >= 0:
                lines.append(f"== {seat(p)} ({policies[p]}) wins ({why}) after {b} turns, "
                             f"{c} rounds")
            elif d:
                who = ", ".join(seat(q) for q in range(n_players) if (d >> q) & 1)
                lines.append(f"== shared win of {who} ({why}) after {b} turns, {c} rounds")
            else:
                lines.append(f"== draw ({why}) after {b} turns")
    return lines
