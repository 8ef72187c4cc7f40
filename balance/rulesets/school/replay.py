"""Turn a Magic School event trace into readable lines: each round's sage,
invisible player and cloak, the spells (what was seen, what was taken), the
meeting's votes, the books and score piles; the houses revealed at the end."""
from ...core.replay import event_rows
from . import layout as L
from .rules import card_name

BOOKS = ("white", "black")
MEETINGS = ("add a white spell", "add a black spell", "delete a white spell",
            "delete a black spell")


def _house(h):
    h = int(h)
    return f"{L.HOUSES[h]} {L.HOUSES_ZH[h]}" if 0 <= h < 4 else "-"


def format_trace(events, values, n_players, policies) -> list[str]:
    name = card_name
    seat = lambda s: f"P{int(s)}"  # noqa: E731
    lines = []
    fates: dict[int, list[str]] = {}
    meet = None
    for row in event_rows(events, L.E_DEAL, name, policies):
        if isinstance(row, str):
            lines.append(row)
            continue
        t, turn, p, a, b, c, d, e = row
        if t == L.E_FATE:
            fates.setdefault(p, []).append(name(a))
            if len(fates[p]) == 1:
                lines.append(f"fate {seat(p)}: (hidden)")
        elif t == L.E_BOOKSET:
            if c == 2:
                lines.append(f"   revealed: hidden {BOOKS[a]} spell {name(b)}")
            else:
                lines.append(f"{BOOKS[a]} book: {name(b) if c else '?? (hidden: ' + name(b) + ')'}")
        elif t == L.E_FIRST:
            lines.append(f"first sage: {seat(p)} ({policies[p]})")
        elif t == L.E_SCORE:
            where = f"discarded (the {_house(b)} pile is cloaked)" if c else f"to the {_house(b)} pile"
            lines.append(f"   {name(a)} {where}")
        elif t == L.E_ROUND:
            lines.append(f"== round {a}: sage {seat(p)} ({policies[p]})")
        elif t == L.E_INVISIBLE:
            lines.append(f"   {seat(p)} names {seat(a)} invisible")
        elif t == L.E_CLOAK:
            lines.append(f"   {seat(p)} cloaks the {_house(a)} pile")
        elif t == L.E_DRAW:
            lines.append(f"   {seat(p)} draws {name(a)}")
        elif t == L.E_RESHUFFLE:
            lines.append(f"   discard pile ({a} cards) reshuffled into the deck")
        elif t == L.E_TURN:
            lines.append(f"-- turn {turn}: {seat(p)} ({policies[p]}), {a} cards in hand")
        elif t == L.E_SPELL:
            col = "black" if a >= L.EF_STEAL else "white"
            what = {L.EF_PEEK_BOOK: lambda: f"peeks at the hidden {BOOKS[c]} spell: {name(e)}",
                    L.EF_PEEK_FATE: lambda: f"peeks at {seat(c)}'s fate card {d + 1}: {name(e)}",
                    L.EF_PEEK_HAND: lambda: f"peeks at a card in {seat(c)}'s hand: {name(e)}",
                    L.EF_PEEK_DECK: lambda: f"peeks at the deck top: {name(e)}",
                    L.EF_STEAL: lambda: f"steals from {seat(c)}: {name(e)}",
                    L.EF_DRAW: lambda: "draws",
                    L.EF_SWAP: lambda: "swaps"}[a]()
            lines.append(f"   {seat(p)} casts {name(b)} ({col}): {what}")
        elif t == L.E_SWAP:
            lines.append(f"   {seat(p)} gives {name(a)} to the {_house(c)} pile, {name(b)} is discarded")
        elif t == L.E_STOPPED:
            lines.append(f"   {seat(p)} stops ({a} cards)")
        elif t == L.E_MEET:
            meet = a
            lines.append(f"   meeting ({MEETINGS[a]}), {b} option(s):")
        elif t == L.E_OPTION:
            lines.append(f"     option {a}: {name(b)}")
        elif t == L.E_VOTE:
            lines.append(f"     {seat(p)} votes {a}")
        elif t == L.E_TIE:
            lines.append(f"     tie: the sage {seat(p)} picks {a}")
        elif t == L.E_TOBOOK:
            lines.append(f"   {name(b)} joins the {BOOKS[a]} book")
        elif t == L.E_DELETE:
            lines.append(f"   {name(b)} is deleted from the {BOOKS[a]} book")
        elif t == L.E_DISCARD:
            lines.append(f"   {seat(p)} discards {name(a)}")
        elif t == L.E_BOOKS:
            cards = [x for x in (b, c, d, e) if x != 0]
            shown = " ".join(name(x - 1) if x > 0 else "??" for x in cards)
            lines.append(f"   {BOOKS[a]} book: {shown or '(empty)'}")
        elif t == L.E_PILE:
            cards = [name(x - 1) for x in (b, c, d, e) if x != 0]
            if cards:
                lines.append(f"   {_house(a)} pile: {' '.join(cards)}")
        elif t == L.E_PILES:
            lines.append(f"   totals: " + ", ".join(f"{L.HOUSES[h]} {v}" for h, v in enumerate((a, b, c, d))))
        elif t == L.E_FATEREVEAL:
            cards = [name(x) for x in (a, b, c)[:min(d, 3)] if x >= 0]
            lines.append(f"   {seat(p)} fate: {' '.join(cards)}")
        elif t == L.E_HOUSE:
            res = f"wins, scores {e}" if d else "loses"
            lines.append(f"   {seat(p)} ({policies[p]}) is {_house(a)} ({b} white, {c} black fate cards): {res}")
        elif t == L.E_END:
            houses = [L.HOUSES[h] for h in range(4) if (a >> h) & 1]
            if c:
                lines.append(f"== {' and '.join(houses)} win with {b}: {c} winner(s)")
            else:
                lines.append(f"== {' and '.join(houses)} win with {b}, but no player is of that house: nobody wins")
    del meet
    return lines
