"""Turn a Magic Elite event trace into readable lines."""
from ...core.replay import seat, trace_events
from . import layout as L
from .rules import card_name, identity_name, play_name, play_table

OPTION = {L.O_NONE: "", L.O_JUDG: " + Judgment", L.O_FRAME: " + frame",
          L.O_SHIELD: " + shield", L.O_CONTROL: " + control",
          L.O_REFLECT: " + reflect shield", L.O_RAMP: " + rampage shield",
          L.O_DEVOUR: " + devouring shield", L.O_FRZSK: " + frost on the skill of",
          L.O_FRZSH: " + frost on the shield of", L.O_BLOOD: " + bloodthirst on"}
EFFECT = {0: "control", 1: "immunity", 2: "infighting", 3: "dragon", 4: "diamond birds"}
CAUSE = {L.CA_EXCH: "exchange", L.CA_REFLECT: "reflect", L.CA_BLOOD: "bloodthirst",
         L.CA_MINE: "mine", L.CA_DUEL: "duel"}
ITEM = {L.I_LEO: "a leopard 闪电豹", L.I_DRAGON: "a dragon 爆爆龙", L.I_BIRDS: "a pair of diamond birds",
        L.I_KIT: "a medical kit 小药箱"}


def format_trace(events, values, n_players, policies) -> list[str]:
    PT, _ = play_table(values)
    lines = []
    for t, turn, p, a, b, c, d, e in trace_events(events, L.E_DEAL, card_name, policies, lines):
        if t == L.E_IDENT:
            lines.append(f"   {seat(p)} {'general' if values['version'] == 2 else 'character'} "
                         f"#{d + 1}: {identity_name(a)} (HP {b}, order key {c})")
        elif t == L.E_TURN:
            lines.append(f"-- turn {turn} (round {a}): {seat(p)} [{e}] HP {b}/{d}, hand {c}")
        elif t == L.E_PLAY and values["version"] == 3:
            role, opt = divmod(e, 256)
            what = play_name(PT, a)
            skill = OPTION[opt]
            if opt in (L.O_FRZSK, L.O_FRZSH, L.O_BLOOD):
                skill = ""                    # the skill event names its target
            if role == L.D_TURN:
                tgt = f" at {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} plays {what}{skill}{tgt}: damage {c:,}, heal {d}")
            else:
                lines.append(f"   {seat(p)} responds {what}{skill}: damage {c:,}, heal {d}")
        elif t == L.E_PLAY:
            role, opt = divmod(e, 256)
            what = play_name(PT, a)
            if role == L.D_TURN:
                tgt = f" at {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} plays {what}{OPTION[opt]}{tgt}: damage {c}, heal {d}")
            elif role == L.D_RESP:
                tgt = f" onto {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} responds {what}{OPTION[opt]}{tgt}: damage {c}, heal {d}")
            else:
                tgt = f" at {seat(b)}" if b >= 0 else ""
                lines.append(f"   {seat(p)} revives with {what}{tgt}: damage {c}")
        elif t == L.E_HEAL:
            lines.append(f"   {seat(p)} heals {a}: HP {b}")
        elif t == L.E_DRAW:
            lines.append(f"   {seat(p)} draws {card_name(a)}")
        elif t == L.E_RESHUFFLE:
            lines.append(f"   discard pile ({a} cards) reshuffled into the deck")
        elif t == L.E_OD:
            verdict = "loses" if a < 0 else ("even" if a == 0 else "bounces")
            lines.append(f"   OD = {a} (incoming {d}, counted {b}): {seat(p)} {verdict}"
                         + (f" {-a}" if a < 0 else (f" {a} back to {seat(c)}" if a > 0 else "")))
        elif t == L.E_DAMAGE and values["version"] == 3:
            how = CAUSE.get(d, "")
            src = f" from {seat(c)}" if c >= 0 else ""
            lines.append(f"   {seat(p)} takes {a:,}{src} ({how}{' play' if e else ''}): HP {b:,}")
        elif t == L.E_DAMAGE:
            lines.append(f"   {seat(p)} takes {a} from {seat(c)}: HP {b}")
        elif t == L.E_IMMUNE:
            lines.append(f"   {seat(p)} is immune: {a} damage from {seat(b)} void")
        elif t == L.E_DEATH:
            score = f", {b} points to {seat(c)}" if c >= 0 else ", no points"
            how = " by Judgment" if d else ""
            by = f" by {seat(a)}" if a >= 0 else ""
            lines.append(f"   {seat(p)}'s {b} dies{how}{by}"
                         + (score if values["version"] == 2 else ""))
        elif t == L.E_REVIVE:
            lines.append(f"   {seat(p)} revives at HP {c} ({'with a 5' if a else 'free'}; "
                         f"{b} revives left)")
        elif t == L.E_OUT:
            lines.append(f"   {seat(p)} is out")
        elif t == L.E_DECOY:
            lines.append(f"   the attack on {seat(p)} hits a decoy: {a} decoys left"
                         + ("" if b else " (bilocation over)"))
        elif t == L.E_JUDG:
            if a < 0:
                lines.append(f"   {seat(p)} calls Judgment: no card to turn")
            else:
                hit = [seat(q) for q in range(n_players) if (c >> q) & 1]
                lines.append(f"   {seat(p)} calls Judgment: turns {card_name(a)}; hits "
                             + (", ".join(hit) if hit else "nobody"))
        elif t == L.E_JHIT:
            lines.append(f"   {seat(p)} loses {a} HP and max HP: {b}/{c}")
        elif t == L.E_SHIELD:
            lines.append(f"   {seat(p)} raises the shield: immune for {a} rounds")
        elif t == L.E_CONTROL:
            lines.append(f"   {seat(p)} controls: {c} damage from {seat(a)} moves to {seat(b)}; "
                         f"{seat(a)} and {seat(b)} infight for {d} rounds")
        elif t == L.E_FRAME:
            lines.append(f"   {seat(p)} frames {seat(a)} for {b} damage")
        elif t == L.E_COMBINED:
            lines.append(f"   {seat(p)} gains the combined skill")
        elif t == L.E_CAP:
            lines.append(f"   exchange capped: {seat(p)} takes the pending {a}")
        elif t == L.E_NORESP:
            lines.append(f"   {seat(p)} cannot respond")
        elif t == L.E_PASS:
            lines.append(f"   {seat(p)} has no card and passes")
        elif t == L.E_EFFECT_END:
            lines.append(f"   {seat(p)}'s {EFFECT.get(a, 'effect')} ends")
        # --- v3 -------------------------------------------------------------------
        elif t == L.E_REFLECT:
            lines.append(f"   {seat(p)}'s reflect shield 反射盾: {b:,} incoming x multiplier = "
                         f"{a:,} at every other player")
        elif t == L.E_BLOCK:
            lines.append(f"   {seat(p)} blocks the reflect with {card_name(a)}")
        elif t == L.E_RESTART:
            lines.append("   everybody blocked: turn order restarts from the top")
        elif t == L.E_RAMP:
            lines.append(f"   {seat(p)}'s rampage shield 暴走盾: {a} damage cards in hand now deal "
                         f"x{values['rampage_multiplier']:,}")
        elif t == L.E_DEVOUR:
            lines.append(f"   {seat(p)}'s devouring shield 吞噬盾: the incoming damage joins its response; "
                         f"{b} card(s) of {seat(c)}'s {play_name(PT, a)} go into its hand")
        elif t == L.E_FREEZE:
            lines.append(f"   {seat(p)} freezes {seat(a)}'s {'shield' if b else 'skill'} "
                         f"(frost layers: skill {c}, shield {d})")
        elif t == L.E_THAW:
            lines.append(f"   {seat(p)} spends {card_name(d)} to thaw a layer on its "
                         f"{'shield' if a else 'skill'} (left: skill {b}, shield {c})")
        elif t == L.E_STEAL:
            lines.append(f"   {seat(p)} spends {card_name(c)}: its devouring shield voids "
                         f"{seat(a)}'s {'frost' if b else 'bloodthirst'} and gains one use")
        elif t == L.E_BLOOD:
            lines.append(f"   {seat(p)} casts bloodthirst 嗜血 on {seat(a)} for {b} rounds "
                         f"({c} uses left)")
        elif t == L.E_TICK:
            lines.append(f"   bloodthirst of {seat(c)}: {seat(p)} loses {a} HP and max HP "
                         f"({b} ticks left)")
        elif t == L.E_BLOODEND:
            lines.append(f"   {seat(p)} spends {card_name(a)} to end the bloodthirst")
        elif t == L.E_IGNORE:
            lines.append(f"   {seat(p)} the Glutton ignores {a} damage")
        elif t == L.E_EXTEND:
            lines.append(f"   {seat(p)} takes the unused identity {identity_name(a)}: +{b} HP, "
                         f"HP {c}/{d}")
        elif t == L.E_BURY:
            lines.append(f"   {seat(p)} buries a mine under {card_name(a)} ({b} cards from the top)")
        elif t == L.E_MINE:
            if b < 0:
                lines.append(f"   {seat(p)} draws the mine ({card_name(a)}) in a duel: defused")
            elif b:
                lines.append(f"   {seat(p)} draws the mine ({card_name(a)}): +{c} diamonds")
            else:
                lines.append(f"   {seat(p)} steps on {seat(d)}'s mine ({card_name(a)}): {c} damage")
        elif t == L.E_GIFT:
            lines.append(f"   {seat(p)} drew the deck's last card exactly: gift pack +{a} "
                         f"diamonds ({b})")
        elif t == L.E_BUY:
            lines.append(f"   {seat(p)} buys {ITEM.get(a, a)} for {b} diamonds ({c} left)")
        elif t == L.E_BIRDS:
            lines.append(f"   {seat(p)}'s diamond birds lay {a} diamonds ({b})")
        elif t == L.E_LEOPARD:
            lines.append(f"   {seat(p)}'s leopard dodges the lethal damage: HP {a}")
        elif t == L.E_DEATH3:
            by = f" by {seat(a)}" if a >= 0 else ""
            lines.append(f"   {seat(p)}'s {c} dies{by} ({CAUSE.get(b, '')})")
        elif t == L.E_STORM:
            lines.append(f"   {seat(p)} calls the storm god 风暴神: damage void, HP {a}; "
                         f"turn order restarts from the top")
        elif t == L.E_POUCH:
            lines.append(f"   {seat(p)} opens the life-saving pouch 救命锦囊: damage void, HP {a}, "
                         f"skill uses restored; play resumes from {seat(p)}")
        elif t == L.E_DUELQ:
            lines.append(f"   {seat(p)} has no life left: it waits for a duel"
                         + (f" (killer {seat(a)})" if a >= 0 else ""))
        elif t == L.E_DUEL:
            lines.append(f"   == duel 大冒险: {seat(p)} (HP {b}) vs {seat(a)} (HP {c})")
        elif t == L.E_DPLAY:
            what = "responds" if d else "plays"
            lines.append(f"      {seat(p)} {what} {card_name(a)}: damage {b}, heal {c}"
                         + (f" (incoming {e})" if d else ""))
        elif t == L.E_DUELEND:
            cap = f", capped after {e} plays" if d else f", {e} plays"
            lines.append(f"   == {seat(p)} wins the duel{cap}: +{b} diamonds; {seat(a)} pays {c}; "
                         f"{seat(p)} inherits unused lives and shields; joint attack on {seat(p)}")
        elif t == L.E_ZOMBIE:
            lines.append(f"   {seat(p)} becomes {seat(a)}'s zombie 小僵尸 (HP {b}, on its side)")
        elif t == L.E_KIT:
            lines.append(f"   {seat(p)}'s medical kit 小药箱 prevents the zombie: {seat(p)} is out")
        elif t == L.E_END:
            last = f"; last standing: {seat(d)}" if d >= 0 else ""
            if p >= 0:
                lines.append(f"== {seat(p)} ({policies[p]}) wins after {b} turns, {c} rounds{last}")
            else:
                lines.append(f"== draw after {b} turns, {c} rounds{last}")
    return lines
