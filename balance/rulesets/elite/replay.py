"""Turn a Magic Elite event trace into readable lines."""
from . import kernel as K
from .rules import card_name, identity_name, play_name, play_table

OPTION = {K.O_NONE: "", K.O_JUDG: " + Judgment", K.O_FRAME: " + frame",
          K.O_SHIELD: " + shield", K.O_CONTROL: " + control"}
EFFECT = {0: "control", 1: "immunity", 2: "infighting"}


def format_trace(events, values, n_players, policies) -> list[str]:
    PT, _ = play_table(values)
    seat = lambda s: f"P{int(s)}"  # noqa: E731
    lines = []
    deal = {}
    for row in events:
        t, turn, p, a, b, c, d, e = (int(x) for x in row)
        if t == K.E_DEAL:
            deal.setdefault(p, []).append(card_name(a))
            continue
        if deal:
            for q in sorted(deal):
                lines.append(f"deal {seat(q)} ({policies[q]}): {' '.join(deal[q])}")
            deal = {}
        if t == K.E_IDENT:
            lines.append(f"   {seat(p)} {'general' if values['version'] == 2 else 'character'} "
                         f"#{d + 1}: {identity_name(a)} (HP {b}, order key {c})")
        elif t == K.E_TURN:
            lines.append(f"-- turn {turn} (round {a}): {seat(p)} [{e}] HP {b}/{d}, hand {c}")
        elif t == K.E_PLAY:
            role, opt = divmod(e, 256)
            what = play_name(PT, a)
            if role == K.D_TURN:
                tgt = f" at {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} plays {what}{OPTION[opt]}{tgt}: damage {c}, heal {d}")
            elif role == K.D_RESP:
                tgt = f" onto {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} responds {what}{OPTION[opt]}{tgt}: damage {c}, heal {d}")
            else:
                tgt = f" at {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} revives with {what}{tgt}: damage {c}")
        elif t == K.E_HEAL:
            lines.append(f"   {seat(p)} heals {a}: HP {b}")
        elif t == K.E_DRAW:
            lines.append(f"   {seat(p)} draws {card_name(a)}")
        elif t == K.E_RESHUFFLE:
            lines.append(f"   discard pile ({a} cards) reshuffled into the deck")
        elif t == K.E_OD:
            verdict = "loses" if a < 0 else ("even" if a == 0 else "bounces")
            lines.append(f"   OD = {a} (incoming {d}, counted {b}): {seat(p)} {verdict}"
                         + (f" {-a}" if a < 0 else (f" {a} back to {seat(c)}" if a > 0 else "")))
        elif t == K.E_DAMAGE:
            lines.append(f"   {seat(p)} takes {a} from {seat(c)}: HP {b}")
        elif t == K.E_IMMUNE:
            lines.append(f"   {seat(p)} is immune: {a} damage from {seat(b)} void")
        elif t == K.E_DEATH:
            score = f", {b} points to {seat(c)}" if c >= 0 else ", no points"
            how = " by Judgment" if d else ""
            by = f" by {seat(a)}" if a >= 0 else ""
            lines.append(f"   {seat(p)}'s {b} dies{how}{by}"
                         + (score if values["version"] == 2 else ""))
        elif t == K.E_REVIVE:
            lines.append(f"   {seat(p)} revives at HP {c} ({'with a 5' if a else 'free'}; "
                         f"{b} revives left)")
        elif t == K.E_OUT:
            lines.append(f"   {seat(p)} is out")
        elif t == K.E_DECOY:
            lines.append(f"   the attack on {seat(p)} hits a decoy: {a} decoys left"
                         + ("" if b else " (bilocation over)"))
        elif t == K.E_JUDG:
            if a < 0:
                lines.append(f"   {seat(p)} calls Judgment: no card to turn")
            else:
                hit = [seat(q) for q in range(n_players) if (c >> q) & 1]
                lines.append(f"   {seat(p)} calls Judgment: turns {card_name(a)}; hits "
                             + (", ".join(hit) if hit else "nobody"))
        elif t == K.E_JHIT:
            lines.append(f"   {seat(p)} loses {a} HP and max HP: {b}/{c}")
        elif t == K.E_SHIELD:
            lines.append(f"   {seat(p)} raises the shield: immune for {a} rounds")
        elif t == K.E_CONTROL:
            lines.append(f"   {seat(p)} controls: {c} damage from {seat(a)} moves to {seat(b)}; "
                         f"{seat(a)} and {seat(b)} infight for {d} rounds")
        elif t == K.E_FRAME:
            lines.append(f"   {seat(p)} frames {seat(a)} for {b} damage")
        elif t == K.E_COMBINED:
            lines.append(f"   {seat(p)} gains the combined skill")
        elif t == K.E_CAP:
            lines.append(f"   exchange capped: {seat(p)} takes the pending {a}")
        elif t == K.E_NORESP:
            lines.append(f"   {seat(p)} cannot respond")
        elif t == K.E_PASS:
            lines.append(f"   {seat(p)} has no card and passes")
        elif t == K.E_EFFECT_END:
            lines.append(f"   {seat(p)}'s {EFFECT.get(a, 'effect')} ends")
        elif t == K.E_END:
            last = f"; last standing: {seat(d)}" if d >= 0 else ""
            if p >= 0:
                lines.append(f"== {seat(p)} ({policies[p]}) wins after {b} turns, {c} rounds{last}")
            else:
                lines.append(f"== draw after {b} turns, {c} rounds{last}")
    return lines
