"""The exchange 伤害抵消 (OD chain) and the damage, deaths and Judgment it
triggers in v1/v2.

The chain is played one response at a time, its state in Z (``Z_XA``
sends ``Z_XI`` to the defender ``Z_XD``; ``Z_XS`` responses so far):
``xopen`` opens it, ``xnext`` is the top of the chain (a side out, the cap
at ``max_exchange`` responses, v2 decoys), ``xresp12``/``xresp3`` play a
response (v1/v2: frame, control, shield, Judgment, the 10's combined
skill; v3: passives on every incoming instance, the reflect that ends the
exchange, devouring, rampage and frost shields on a response with a 4,
run damage with rampage marks), and ``xod`` applies the OD rule they
share. The step machine (``step``) stops between responses; ``exchange``
plays a chain whole with every defender's heuristic (the scenarios'
``entry``). ``hit`` applies one v1/v2 damage instance, ``die`` a v1 death
(a rogue's revive) or a v2 death (the kill is scored, the next general
enters); ``resolve_pending`` plays a revived rogue's attack after the
exchange (v3: the duel queue, ``step_duel.resolve_duels``).

All but ``xopen`` and ``xdone`` (which keep to ``Z``) take the game
``s`` (``state.State``: the seats ``S``, the piles, the globals ``Z``,
the stream ``st``) and the context ``c`` (``state.Ctx``: the rule and
policy vectors, the play table, the option buffer and script rows the
decisions use), then the card zones ``masks``/``counts`` and the trace
``tr``, as the step machine does.
"""
import numpy as np
from balance.core.compiled import inlined, internal

from ....core import jit
from ....core.kernel import ev, refill_deck  # before kernel_cache_begin: cached with core
from ....core.rng import below
from ..layout import (CA_EXCH, C_ALIVE, C_BILOC, C_BRESET, C_COMB, C_DEALT, C_DECOYS, C_FB, C_FL,
                      C_FRAMES, C_FT, C_G, C_GEN, C_HN, C_HP, C_IMM, C_JUDGS, C_KEY, C_KILLS,
                      C_LOST, C_MAXHP, C_RANK, C_REV, C_REVFREE, C_REVUSED, C_SCORE, C_SUIT,
                      C_TAKEN, D_RESP, D_REVIVE, E_CAP, E_CONTROL, E_DAMAGE, E_DEATH, E_DECOY,
                      E_FRAME, E_IDENT, E_IMMUNE, E_JHIT, E_JUDG, E_NORESP, E_OD, E_PLAY,
                      E_RESHUFFLE, E_REVIVE, E_SHIELD, O_CONTROL, O_DEVOUR, O_FRAME, O_FRZSH,
                      O_FRZSK, O_JUDG, O_RAMP, O_REFLECT, O_SHIELD, P_CONTROL, P_DECOYS, P_GENS,
                      P_JDMG, P_MAXEX, P_SHIELD, Z_CAPS, Z_CERR, Z_CONTROLS, Z_DECK, Z_DECOYHITS,
                      Z_DISC, Z_EXCH, Z_FRAMES, Z_JKILL, Z_JSELF, Z_JUDG, Z_KILLS, Z_KPTS, Z_LK,
                      Z_MAXCH, Z_ON, Z_P, Z_PA, Z_PD, Z_PT, Z_RESP, Z_REVIVES, Z_SHIELDS, Z_V,
                      Z_XA, Z_XD, Z_XI, Z_XS)
from ..rules import T_DMG, T_HAS4, T_HAS5, T_HASA, T_HEAL
from .cards import draw_n, draws_after_play, enemy, heal_self, remove_play, sat_add, sat_mul
from .step_duel import resolve_duels
from .policies import decide, decide3
from .step_v12 import (clear_effects, combined, eliminate, init_general, mult, pair_controller,
                  play_cards, use_eight)
from .step_v3 import devour, draw_n3, freeze, hit3, incoming3, mark_rampage, play_cards3, reflect
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@inlined
def hit(s, c, masks, counts, tr, t, src, amount):
    """One damage instance from src to t (exchange damage)."""
    S, Z = s.S, s.Z
    if amount < 0:
        Z[Z_CERR] += 1
        return
    if amount == 0:
        return
    if S[t, C_IMM] > 0:
        if Z[Z_ON]:
            ev(tr, Z, E_IMMUNE, t, amount, src, 0, 0, 0)
        return
    S[t, C_HP] -= amount
    S[t, C_TAKEN] = sat_add(S[t, C_TAKEN], amount)
    if src >= 0:
        S[src, C_DEALT] = sat_add(S[src, C_DEALT], amount)
    if Z[Z_ON]:
        ev(tr, Z, E_DAMAGE, t, amount, S[t, C_HP], src, 0, 0)
    if S[t, C_HP] <= 0:
        die(s, c, masks, counts, tr, t, src, np.int64(0))


@internal
def die(s, c, masks, counts, tr, t, killer, judg):
    """t's character or general has HP <= 0 (or max HP <= 0)."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    acts, ip, PT = c.acts, c.ip, c.PT
    if Z[Z_V] == 1:
        if S[t, C_RANK] == 8 and S[t, C_REV] > 0:
            if S[t, C_REVFREE] > 0:
                S[t, C_REVFREE] -= 1
                S[t, C_REV] -= 1
                S[t, C_HP] = S[t, C_MAXHP]
                S[t, C_REVUSED] += 1
                Z[Z_REVIVES] += 1
                if Z[Z_ON]:
                    ev(tr, Z, E_REVIVE, t, 0, S[t, C_REV], S[t, C_HP], 0, 0)
                return
            n, i = decide(s, c, t, np.int64(D_REVIVE), np.int64(0), np.int64(-1))
            if n > 0:
                k = acts[i, 0]
                tg = acts[i, 1]
                S[t, C_REV] -= 1
                S[t, C_HP] = S[t, C_MAXHP]
                S[t, C_REVUSED] += 1
                Z[Z_REVIVES] += 1
                if Z[Z_ON]:
                    ev(tr, Z, E_REVIVE, t, 1, S[t, C_REV], S[t, C_HP], 0, 0)
                dmg = sat_mul(PT[k, T_DMG], mult(S, Z, ip, t))
                remove_play(S, pile, Z, masks, counts, t, PT, k)
                if Z[Z_ON]:
                    ev(tr, Z, E_PLAY, t, k, tg, dmg, PT[k, T_HEAL], D_REVIVE * 256)
                draw_n(st, S, pile, Z, tr, masks, counts, t,
                       draws_after_play(S[t, C_HN], PT[k, T_HAS5], ip))
                if dmg > 0 and tg >= 0:
                    Z[Z_PA] = t
                    Z[Z_PT] = tg
                    Z[Z_PD] = dmg
                return
        if Z[Z_ON]:
            ev(tr, Z, E_DEATH, t, killer, S[t, C_RANK], -1, judg, 0)
        S[t, C_LOST] += 1
        eliminate(S, pile, Z, tr, t)
        return
    # v2: score the kill, then the next general enters at full HP
    rank = S[t, C_RANK]
    to = -1
    if killer >= 0:
        ctl = pair_controller(S, killer, t)
        if judg == 1:
            Z[Z_JKILL] += 1
            if killer == t:
                Z[Z_JSELF] += 1
            if S[killer, C_FL] > 0 and S[killer, C_FB] == t:
                to = -1          # seed 02: a controlled player's Judgment kills the controller
            elif ctl >= 0:
                to = ctl
            elif enemy(S, killer, t):
                to = killer
        elif ctl >= 0:
            to = ctl
        elif enemy(S, killer, t):
            to = killer
    if to >= 0:
        S[to, C_SCORE] += rank
        S[to, C_KILLS] += 1
        Z[Z_KPTS] += rank
        Z[Z_KILLS] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEATH, t, killer, rank, to, judg, 0)
    S[t, C_LOST] += 1
    clear_effects(S, Z, tr, t)
    if S[t, C_GEN] + 1 < ip[P_GENS]:
        S[t, C_GEN] += 1
        init_general(S, Z, ip, t)
        if Z[Z_ON]:
            ev(tr, Z, E_IDENT, t, S[t, C_G + S[t, C_GEN]], S[t, C_HP], S[t, C_KEY], S[t, C_GEN], 0)
    else:
        eliminate(S, pile, Z, tr, t)


@internal
def judgment(s, c, masks, counts, tr, p):
    """天神的审判: turn the top card of the play deck; every active general of
    its suit loses judgment_damage HP and max HP. Returns a bitmask of the
    seats whose general died."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip = c.ip
    Z[Z_JUDG] += 1
    S[p, C_JUDGS] += 1
    if refill_deck(st, pile, Z, Z_DECK, Z_DISC, tr, Z[Z_ON], E_RESHUFFLE) == 0:
        if Z[Z_ON]:
            ev(tr, Z, E_JUDG, p, -1, -1, 0, 0, 0)
        return 0
    Z[Z_DECK] -= 1
    card = pile[0, Z[Z_DECK]]
    pile[1, Z[Z_DISC]] = card
    Z[Z_DISC] += 1
    suit = card // 9
    jd = ip[P_JDMG]
    hitmask = 0
    for q in range(Z[Z_P]):
        if S[q, C_ALIVE] == 1 and S[q, C_SUIT] == suit:
            hitmask |= 1 << q
    if Z[Z_ON]:
        ev(tr, Z, E_JUDG, p, card, suit, hitmask, 0, 0)
    died = 0
    for q in range(Z[Z_P]):
        if (hitmask >> q) & 1:
            S[q, C_HP] -= jd
            S[q, C_MAXHP] -= jd
            S[q, C_TAKEN] = sat_add(S[q, C_TAKEN], jd)
            if q != p:
                S[p, C_DEALT] = sat_add(S[p, C_DEALT], jd)
            if Z[Z_ON]:
                ev(tr, Z, E_JHIT, q, jd, S[q, C_HP], S[q, C_MAXHP], p, 0)
            if S[q, C_HP] <= 0 or S[q, C_MAXHP] <= 0:
                died |= 1 << q
                die(s, c, masks, counts, tr, q, p, np.int64(1))
    return died


@inlined
def xopen(Z, a, d, inc):
    """An exchange opens: d defends against ``inc`` damage sent by a. Its
    state lives in Z (``Z_XA``, ``Z_XD``, ``Z_XI``, ``Z_XS``), so the chain
    can stop at each response and resume (``engine.step``)."""
    Z[Z_EXCH] += 1
    Z[Z_XA] = a
    Z[Z_XD] = d
    Z[Z_XI] = inc
    Z[Z_XS] = 0


@inlined
def xdone(Z):
    """The exchange is over: its responses are counted. Returns False."""
    steps = Z[Z_XS]
    if steps > Z[Z_MAXCH]:
        Z[Z_MAXCH] = steps
    Z[Z_RESP] += steps
    Z[Z_XD] = -1
    return False


@inlined
def xhit(s, c, masks, counts, tr, t, src, amount, raw):
    """One damage instance of the exchange, from src to t: v3 ``hit3``
    (passives apply when ``raw``), v1/v2 ``hit``."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp = c.ip, c.pp
    if VARIANT == 3:
        hit3(st, S, pile, Z, tr, ip, pp, t, src, amount, CA_EXCH, raw)
    else:
        hit(s, c, masks, counts, tr, t, src, amount)


@inlined
def xod(s, c, masks, counts, tr, a, d, inc, inc_eff, od):
    """The OD rule after d's response: OD < 0, d loses |OD| and the chain
    ends; OD = 0, it ends; OD > 0, OD goes back to a, who responds next.
    Returns True when the chain goes on."""
    Z = s.Z
    if Z[Z_ON]:
        ev(tr, Z, E_OD, d, od, inc_eff, a, inc, 0)
    if od < 0:
        xhit(s, c, masks, counts, tr, d, a, -od, False)
        return xdone(Z)
    if od == 0:
        return xdone(Z)
    Z[Z_XA] = d
    Z[Z_XD] = a
    Z[Z_XI] = od
    return True


@inlined
def xnoresp(s, c, masks, counts, tr, a, d, inc):
    """d has no response: it takes the incoming damage and the chain ends."""
    Z = s.Z
    if Z[Z_ON]:
        ev(tr, Z, E_NORESP, d, inc, a, 0, 0, 0)
    xhit(s, c, masks, counts, tr, d, a, inc, True)
    return xdone(Z)


@inlined
def xnext(s, c, masks, counts, tr):
    """The top of the OD chain: True when the defender ``Z[Z_XD]`` responds
    now (the response is counted); False when the exchange is over (a side
    is out, the cap at ``max_exchange`` responses hit the defender with the
    pending damage, or a v2 decoy took the hit)."""
    st, S, Z = s.st, s.S, s.Z
    ip = c.ip
    a = Z[Z_XA]
    d = Z[Z_XD]
    inc = Z[Z_XI]
    if S[a, C_ALIVE] == 0 or S[d, C_ALIVE] == 0:
        return xdone(Z)
    if Z[Z_XS] >= ip[P_MAXEX]:
        Z[Z_CAPS] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_CAP, d, inc, a, 0, 0, 0)
        xhit(s, c, masks, counts, tr, d, a, inc, True)
        return xdone(Z)
    Z[Z_XS] += 1
    if VARIANT != 3 and S[d, C_BILOC] == 1:
        nd = S[d, C_DECOYS]
        if below(st, 1 + nd) < nd:
            nd -= 1
            if nd == 0:
                if S[d, C_BRESET] == 1:
                    nd = ip[P_DECOYS]
                else:
                    S[d, C_BILOC] = 0
            S[d, C_DECOYS] = nd
            Z[Z_DECOYHITS] += 1
            if Z[Z_ON]:
                ev(tr, Z, E_DECOY, d, nd, S[d, C_BILOC], inc, a, 0)
            return xdone(Z)
    return True


@inlined
def xresp12(s, c, masks, counts, tr, n, k, o, ot):
    """v1/v2: the defender plays its response (run k, option o onto ot; n =
    0: it has none and takes the damage). OD = response damage + response
    heal - incoming (0 if the response holds a 4 or calls Judgment; never
    for immunity). OD < 0: d loses |OD| (an immune d, the 8 of a shield or
    control, loses nothing) and the chain ends; OD = 0: done; OD > 0: OD
    goes back to a, who responds the same way. A frame (v1 9) or control
    (v2 8) moves the incoming damage to another defender. Returns True when
    the chain goes on (``xnext``)."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, PT = c.ip, c.PT
    a = Z[Z_XA]
    d = Z[Z_XD]
    inc = Z[Z_XI]
    if n == 0:
        return xnoresp(s, c, masks, counts, tr, a, d, inc)
    dmg = play_cards(S, pile, Z, masks, counts, ip, PT, d, k)
    heal = PT[k, T_HEAL]
    if Z[Z_ON]:
        ev(tr, Z, E_PLAY, d, k, ot, dmg, heal, D_RESP * 256 + o)
    if Z[Z_V] == 2 and S[d, C_RANK] == 10 and S[d, C_COMB] == 0 and PT[k, T_HASA] == 1:
        combined(S, Z, tr, ip, d)
    if o == O_FRAME:
        # 嫁祸之术: ot defends against (ninja's damage + incoming), sent by the ninja
        S[d, C_FRAMES] += 1
        Z[Z_FRAMES] += 1
        heal_self(S, Z, tr, d, heal)
        framed = sat_add(dmg, inc)
        if Z[Z_ON]:
            ev(tr, Z, E_FRAME, d, ot, framed, a, 0, 0)
        draw_n(st, S, pile, Z, tr, masks, counts, d,
               draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
        Z[Z_XA] = d
        Z[Z_XD] = ot
        Z[Z_XI] = framed
        return True
    if o == O_CONTROL:
        # 控制: the incoming damage moves to B; A and B must fight each other
        use_eight(S, d)
        Z[Z_CONTROLS] += 1
        r = ip[P_CONTROL]
        S[a, C_FT] = ot
        S[a, C_FL] = r
        S[a, C_FB] = d
        S[ot, C_FT] = a
        S[ot, C_FL] = r
        S[ot, C_FB] = d
        if r > S[d, C_IMM]:
            S[d, C_IMM] = r
        heal_self(S, Z, tr, d, heal)
        if Z[Z_ON]:
            ev(tr, Z, E_CONTROL, d, a, ot, inc, r, 0)
        draw_n(st, S, pile, Z, tr, masks, counts, d,
               draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
        Z[Z_XD] = ot
        return True
    if o == O_SHIELD:
        use_eight(S, d)
        Z[Z_SHIELDS] += 1
        if ip[P_SHIELD] > S[d, C_IMM]:
            S[d, C_IMM] = ip[P_SHIELD]
        if Z[Z_ON]:
            ev(tr, Z, E_SHIELD, d, S[d, C_IMM], 0, 0, 0, 0)
    died = 0
    if o == O_JUDG:
        died = judgment(s, c, masks, counts, tr, d)
    draw_n(st, S, pile, Z, tr, masks, counts, d,
           draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
    if (died >> a) & 1 or (died >> d) & 1:
        return xdone(Z)
    inc_eff = inc
    if PT[k, T_HAS4] == 1 or o == O_JUDG:
        inc_eff = 0          # immunity never zeroes it: an immune d's loss is void in hit
    return xod(s, c, masks, counts, tr, a, d, inc, inc_eff, sat_add(dmg, heal) - inc_eff)


@inlined
def xresp3(s, c, masks, counts, tr, n, k, o, ot):
    """v3: the defender's response, as ``xresp12`` with v3's defences:
    passives on each incoming instance (Glutton ignore, King Kong halving),
    a 4 blocks, dedicated shields fire on a response with a 4 (a reflect
    ends the exchange). Returns True when the chain goes on."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    a = Z[Z_XA]
    d = Z[Z_XD]
    inc = Z[Z_XI]
    if n == 0:
        return xnoresp(s, c, masks, counts, tr, a, d, inc)
    lk = Z[Z_LK]
    dmg = play_cards3(S, pile, Z, masks, counts, ip, PT, PID, d, k)
    heal = PT[k, T_HEAL]
    Z[Z_LK] = k
    if Z[Z_ON]:
        ev(tr, Z, E_PLAY, d, k, ot, dmg, heal, D_RESP * 256 + o)
    inc_eff = incoming3(S, Z, tr, ip, d, inc)
    if PT[k, T_HAS4] == 1:
        inc_eff = 0
    if o == O_REFLECT:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, d,
                draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
        reflect(s, c, masks, counts, tr, d, inc)
        return xdone(Z)
    if o == O_DEVOUR:
        dmg = sat_add(dmg, inc)
        inc_eff = 0
        devour(S, pile, Z, tr, PT, d, lk, a)
    elif o == O_RAMP:
        mark_rampage(S, Z, tr, PT, PID, d)
    elif o == O_FRZSK or o == O_FRZSH:
        freeze(s, c, masks, counts, tr, d, ot, o - O_FRZSK)
    draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, d,
            draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
    if S[a, C_ALIVE] == 0 or S[d, C_ALIVE] == 0:
        return xdone(Z)
    return xod(s, c, masks, counts, tr, a, d, inc, inc_eff, sat_add(dmg, heal) - inc_eff)


@internal
def exchange(s, c, masks, counts, tr, a, d, inc):
    """伤害抵消 OD chain, played whole with every defender's heuristic
    (the scenarios' ``entry`` and a turn played whole, ``step_turn.turn``;
    the game loop plays it one response at a time, ``step``): d defends
    against ``inc`` damage sent by a. Returns the number of responses."""
    Z = s.Z
    acts = c.acts
    xopen(Z, a, d, inc)
    while xnext(s, c, masks, counts, tr):
        if VARIANT == 3:
            n, i = decide3(s, c, Z[Z_XD], np.int64(D_RESP), Z[Z_XI], Z[Z_XA])
            go = xresp3(s, c, masks, counts, tr, n, acts[i, 0], acts[i, 2], acts[i, 3])
        else:
            n, i = decide(s, c, Z[Z_XD], np.int64(D_RESP), Z[Z_XI], Z[Z_XA])
            go = xresp12(s, c, masks, counts, tr, n, acts[i, 0], acts[i, 2], acts[i, 3])
        if not go:
            break
    return Z[Z_XS]


@internal
def resolve_pending(s, c, masks, counts, tr):
    """A revived rogue's 5 that carries damage attacks after the exchange
    (v3: the duel queue)."""
    S, Z = s.S, s.Z
    if VARIANT == 3:
        resolve_duels(s, c, masks, counts, tr)
        return
    while Z[Z_PA] >= 0:
        a = Z[Z_PA]
        t = Z[Z_PT]
        dm = Z[Z_PD]
        Z[Z_PA] = -1
        if S[a, C_ALIVE] == 1 and S[t, C_ALIVE] == 1 and a != t:
            exchange(s, c, masks, counts, tr, a, t, dm)


jit.kernel_cache_end()
