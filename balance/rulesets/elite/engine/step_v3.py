"""v3 三代: dedicated shields, multipliers, passives, lives and everything
that is not the exchange loop, the duel or a policy: the King Kong and
dragon multipliers and rampage-marked cards (``mult3``, ``pdmg3``), the
Glutton's ignore/HP extension and King Kong's halving on each incoming
instance (``incoming3``), v3 damage and death (``hit3``, ``die3``:
leopard, storm god, pouch, else the duel queue), draws with mines and the
gift pack (``draw_n3``), the reflect, rampage and devouring shields,
frost and bloodthirst (the devouring shield may steal either), the shop
and the start of a turn (``turn_start3``, where the dragon's and the birds'
rounds end).

v3 keeps its own versions of a few v1/v2 functions, not merged:
``mult3`` (other ranks, frost; called per run by v3's greedy, without
``Z``), ``play_cards3`` (rampage marks), ``hit3``/``die3``
(passives, the HP before the hit, causes, lives and the duel queue: little
is shared with v1/v2's ``hit``, which LLVM inlines into v1/v2's hot
exchange, and ``die``, which scores v2 kills and revives v1 rogues) and
``draw_n3`` (mines, the gift pack; v1/v2's ``draw_n`` is a three-line
inlined loop). The v1/v2 and v3 turns are separate too (``step_turn``).

``die3`` and ``hit3`` carry explicit signatures (see ``core.kernel.ev``):
called with many constant arguments (causes, flags), numba would
otherwise compile each of them once per combination.

The heuristics' choices inside these rules stay here, beside the rule
they serve (``policies`` imports this module): the 4 a seat spends
(``choose_four``), a yes/no at a turn start (``wants``), the shop
(``buy``).

The skills and shields a play or a response fires (``bloodthirst``,
``freeze``, the ``steal_react`` both may meet, ``reflect``) take the game
``s`` (``state.State``) and the context ``c`` (``state.Ctx``), then
``masks``, ``counts`` and ``tr``, as their callers do; the others take
the arrays they use.
"""
import numpy as np
from numba import njit
from balance.core.compiled import inlined, internal, ir_inlined_nrt
from numba import types as nt

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ....core.rng import below
from ..layout import (CA_BLOOD, CA_MINE, CA_REFLECT, C_ALIVE, C_BIRD, C_BTS, C_BTT, C_BTU, C_BUYS,
                      C_DEALT, C_DEATHS, C_DIAM, C_DQ, C_DQH, C_DQN, C_DRG, C_EXT, C_FRSH, C_FRSK,
                      C_FRU, C_H, C_HN, C_HP, C_KEY, C_KIT, C_KLR, C_LEO, C_MAXHP, C_MINES,
                      C_NBLOOD, C_NDEV, C_NEXT, C_NFRZ, C_NIGN, C_NMINE, C_NRAMP, C_NREF, C_NSTEAL,
                      C_PEND, C_POL, C_POUCH, C_POUCHU, C_PREHP, C_PREMAX, C_RANK, C_RM, C_RMANY,
                      C_SHB, C_STORM, C_STORMU, C_TAKEN, C_ZMB, E_BIRDS, E_BLOCK, E_BLOOD,
                      E_BLOODEND, E_BURY, E_BUY, E_DAMAGE, E_DEATH3, E_DEVOUR, E_DUELQ,
                      E_EFFECT_END, E_EXTEND, E_FREEZE, E_GIFT, E_IGNORE, E_LEOPARD, E_MINE,
                      E_POUCH, E_RAMP, E_REFLECT, E_RESTART, E_STEAL, E_STORM, E_THAW, E_TICK,
                      I_BIRDS, I_DRAGON, I_KIT, I_LEO, I_NONE, NCAP, POL_GREEDY, POL_RANDOM,
                      POL_SCRIPT, P_BIRDR, P_BTD, P_BTR, P_BTU, P_BYIELD, P_DRAGON, P_DRGR, P_GEXT,
                      P_GIFT, P_GIGN, P_GMINES, P_KK, P_KKDIV, P_MDIAM, P_PBIRD, P_PDRG, P_PIP,
                      P_PKIT, P_PLEO, P_RAMPM, P_REFILL, P_REFLM, P_SHOP, Q_DUEL1, Q_RUN, R_4, R_6,
                      Z_BBIRD, Z_BDRG, Z_BKIT, Z_BLEO, Z_CERR, Z_D0, Z_DECK, Z_DISC, Z_DODGE,
                      Z_GIFTS, Z_IDC, Z_INDUEL, Z_JOINT, Z_MHIT, Z_MOWN, Z_MPOS, Z_NEXT, Z_ON, Z_P,
                      Z_POUCHES, Z_RALLBLOCK, Z_RBLOCK, Z_REFL, Z_STORMS)
from ..rules import T_DMG, T_HI, T_LO, T_SUIT
from .cards import add_card, chance, draw, enemy, remove_play, sat_add, sat_mul
from .step_v12 import eliminate
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)

# explicit signatures of die3 and hit3 (see core.kernel.ev); pp is the float policy
# parameters one row per seat (``spec.kernel_arrays``): seat p's choices read pp[p]
_U1, _A1, _A2, _F2, _I = nt.uint64[::1], nt.int64[::1], nt.int64[:, ::1], nt.float64[:, ::1], nt.int64


@ir_inlined_nrt
def card_val(kind):
    """Face value of a card kind: A 1 ... 6 6, J 11, Q 12, K 13."""
    r = kind % 9
    return r + 1 if r <= R_6 else r + 5


@ir_inlined_nrt
def skill_on(S, p):
    return S[p, C_FRSK] == 0


@ir_inlined_nrt
def has_shield(S, p, rank):
    """p owns the dedicated shield of character ``rank`` and it is not frozen."""
    return S[p, C_FRSH] == 0 and (S[p, C_SHB] >> (rank - 7)) & 1 == 1


@ir_inlined_nrt
def can_freeze(S, p):
    return has_shield(S, p, 8) or (S[p, C_FRU] > 0 and S[p, C_FRSH] == 0)


@ir_inlined_nrt
def mult3(S, ip, p):
    """v3 multipliers: King Kong x10 (its skill), the dragon (bought)."""
    m = np.int64(1)
    if S[p, C_RANK] == 10 and skill_on(S, p):
        m = sat_mul(m, ip[P_KK])
    if S[p, C_DRG] > 0:
        m = sat_mul(m, ip[P_DRAGON])
    return m


@ir_inlined_nrt
def pdmg3(S, ip, PT, PID, p, k):
    """Damage of p's run k: rampage-marked cards x rampage_multiplier, then
    p's multipliers (one saturating product)."""
    s = PT[k, T_SUIT]
    base = PT[k, T_DMG]
    marked = np.int64(0)
    if S[p, C_RMANY] != 0:       # (almost always 0: only a 9's shield marks cards)
        for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
            if S[p, C_RM + s * 9 + r] > 0:
                marked += PT[PID[s, r, r], T_DMG]
    if marked > 0:
        base = sat_add(base - marked, sat_mul(marked, ip[P_RAMPM]))
    return sat_mul(base, mult3(S, ip, p))


@ir_inlined_nrt
def fix_mark(S, p, kind):
    if S[p, C_RM + kind] > S[p, C_H + kind]:
        S[p, C_RM + kind] = S[p, C_H + kind]


@inlined
def play_cards3(S, pile, Z, masks, counts, ip, PT, PID, p, k):
    """Remove run k from p's hand (marked copies first); return its damage."""
    dmg = pdmg3(S, ip, PT, PID, p, k)
    s = PT[k, T_SUIT]
    if S[p, C_RMANY] != 0:
        for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
            if S[p, C_RM + s * 9 + r] > 0:
                S[p, C_RM + s * 9 + r] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, k)
    return dmg


@internal
def four_kind(S, p):
    """A 4 in p's hand (first suit ♠♥♣♦), or -1."""
    for s in range(4):
        if S[p, C_H + s * 9 + R_4] > 0:
            return s * 9 + R_4
    return -1


@internal
def n_fours(S, p):
    n = 0
    for s in range(4):
        n += S[p, C_H + s * 9 + R_4]
    return n


@internal
def mark_rampage(S, Z, tr, PT, PID, p):
    """暴走盾: every damage card now in p's hand is marked."""
    n = 0
    for kind in range(36):
        if PT[PID[kind // 9, kind % 9, kind % 9], T_DMG] > 0:
            S[p, C_RM + kind] = S[p, C_H + kind]
            n += S[p, C_H + kind]
    S[p, C_RMANY] = 1
    S[p, C_NRAMP] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_RAMP, p, n, 0, 0, 0, 0)


@njit(nt.void(_U1, _A2, _A2, _A1, _A2, _A1, _F2, _I, _I, _I), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def die3(st, S, pile, Z, tr, ip, pp, t, killer, cause):
    """v3 lethal damage to t: the leopard dodges it, which is not a death
    (contract: it neither revives nor ends a joint attack); else t dies: the
    storm god, then the pouch (unless the policy duels at once); else t
    waits for a duel. Whether to duel at once is t's policy's choice: its
    row of the per-seat policy parameters, ``pp[t, Q_DUEL1]``."""
    if S[t, C_LEO] > 0:
        S[t, C_LEO] -= 1
        Z[Z_DODGE] += 1
        S[t, C_HP] = S[t, C_PREHP]
        S[t, C_MAXHP] = S[t, C_PREMAX]
        if Z[Z_ON]:
            ev(tr, Z, E_LEOPARD, t, S[t, C_HP], 0, 0, 0, 0)
        return
    Z[Z_D0 + cause] += 1
    S[t, C_DEATHS] += 1
    if Z[Z_JOINT] == t + 1:
        Z[Z_JOINT] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DEATH3, t, killer, cause, S[t, C_RANK], 0, 0)
    if S[t, C_ZMB] > 0:
        eliminate(S, pile, Z, tr, t)       # zombies have no revives and no duel
        return
    skip = False
    if S[t, C_STORM] > 0 or S[t, C_POUCH] > 0:
        if S[t, C_POL] == POL_SCRIPT:
            skip = pp[t, Q_DUEL1] >= 0.5
        else:
            skip = chance(st, pp[t, Q_DUEL1])
    if not skip and S[t, C_STORM] > 0:
        S[t, C_STORM] -= 1
        S[t, C_STORMU] += 1
        Z[Z_STORMS] += 1
        S[t, C_MAXHP] = S[t, C_PREMAX]
        S[t, C_HP] = S[t, C_MAXHP]
        Z[Z_NEXT] = 1
        if Z[Z_ON]:
            ev(tr, Z, E_STORM, t, S[t, C_HP], S[t, C_STORM], 0, 0, 0)
        return
    if not skip and S[t, C_POUCH] > 0:
        S[t, C_POUCH] -= 1
        S[t, C_POUCHU] += 1
        Z[Z_POUCHES] += 1
        S[t, C_MAXHP] = S[t, C_PREMAX]
        S[t, C_HP] = S[t, C_PREHP]
        if S[t, C_RANK] == 8:
            S[t, C_BTU] = ip[P_BTU]
        if S[t, C_RANK] == 7:
            S[t, C_EXT] = ip[P_GEXT]
            S[t, C_MINES] = ip[P_GMINES]
        Z[Z_NEXT] = 2 + t
        if Z[Z_ON]:
            ev(tr, Z, E_POUCH, t, S[t, C_HP], S[t, C_POUCH], 0, 0, 0)
        return
    S[t, C_ALIVE] = 0
    S[t, C_PEND] = 1
    S[t, C_KLR] = killer
    S[t, C_HP] = 0
    S[t, C_BTT] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DUELQ, t, killer, 0, 0, 0, 0)


@internal
def incoming3(S, Z, tr, ip, t, amount):
    """Passive defences on one incoming damage instance: the Glutton ignores
    <= glutton_ignore (and may extend its HP once), King Kong halves."""
    if amount <= 0 or not skill_on(S, t):
        return amount
    r = S[t, C_RANK]
    if r == 7 and amount <= ip[P_GIGN]:
        S[t, C_NIGN] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_IGNORE, t, amount, 0, 0, 0, 0)
        if S[t, C_EXT] > 0:
            for rr in range(3, -1, -1):
                done = False
                for su in range(4):
                    i = rr * 4 + su
                    if Z[Z_IDC + i] > 0:
                        Z[Z_IDC + i] -= 1
                        add = (rr + 7) * ip[P_PIP]
                        S[t, C_HP] += add
                        S[t, C_MAXHP] += add
                        S[t, C_EXT] -= 1
                        S[t, C_NEXT] += 1
                        if Z[Z_ON]:
                            ev(tr, Z, E_EXTEND, t, i, add, S[t, C_HP], S[t, C_MAXHP], 0)
                        done = True
                        break
                if done:
                    break
        return np.int64(0)
    if r == 10:
        return amount // ip[P_KKDIV]
    return amount


@njit(nt.void(_U1, _A2, _A2, _A1, _A2, _A1, _F2, _I, _I, _I, _I, nt.boolean), cache=True,
      _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def hit3(st, S, pile, Z, tr, ip, pp, t, src, amount, cause, raw):
    """One damage instance (``raw``: the passive defences apply to it)."""
    if amount < 0:
        Z[Z_CERR] += 1
        return
    if S[t, C_ALIVE] == 0:
        return
    if raw:
        amount = incoming3(S, Z, tr, ip, t, amount)
    if amount <= 0:
        return
    S[t, C_PREHP] = S[t, C_HP]
    S[t, C_PREMAX] = S[t, C_MAXHP]
    S[t, C_HP] -= amount
    S[t, C_TAKEN] = sat_add(S[t, C_TAKEN], amount)
    if src >= 0 and src != t:
        S[src, C_DEALT] = sat_add(S[src, C_DEALT], amount)
    if Z[Z_ON]:
        ev(tr, Z, E_DAMAGE, t, amount, S[t, C_HP], src, cause, 0)
    if S[t, C_HP] <= 0:
        die3(st, S, pile, Z, tr, ip, pp, t, src, cause)


@inlined
def draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, n):
    """v3 draws: one event's n cards (a play's draws, a refill) are one
    draw, in a duel too. A draw of n cards from a deck of exactly n (no
    reshuffle within it, none left) earns the gift pack. A buried mine fires
    on the card that carries it (not in a duel). In a duel the cards go to
    the bottom of p's face-down pile as well."""
    if n <= 0:
        return
    gift = Z[Z_DECK] == n
    got = 0
    for _ in range(n):
        mine = Z[Z_MPOS] > 0 and Z[Z_DECK] > 0 and Z[Z_DECK] == Z[Z_MPOS]
        c = draw(st, S, pile, Z, tr, masks, counts, p, np.int64(0))
        if c < 0:
            break
        got += 1
        if Z[Z_INDUEL] == 1:
            S[p, C_DQ + (S[p, C_DQH] + S[p, C_DQN]) % NCAP] = c
            S[p, C_DQN] += 1
        if mine:
            Z[Z_MPOS] = 0
            if Z[Z_INDUEL] == 1:
                if Z[Z_ON]:
                    ev(tr, Z, E_MINE, p, c, -1, 0, Z[Z_MOWN], 0)
            else:
                Z[Z_MHIT] += 1
                v = card_val(c)
                if c // 9 == 1:
                    S[p, C_DIAM] += v * ip[P_MDIAM]
                    if Z[Z_ON]:
                        ev(tr, Z, E_MINE, p, c, 1, v * ip[P_MDIAM], Z[Z_MOWN], 0)
                else:
                    if Z[Z_ON]:
                        ev(tr, Z, E_MINE, p, c, 0, v, Z[Z_MOWN], 0)
                    hit3(st, S, pile, Z, tr, ip, pp, p, Z[Z_MOWN], v, CA_MINE, True)
                    if S[p, C_ALIVE] == 0:
                        break
    if gift and got == n:
        S[p, C_DIAM] += ip[P_GIFT]
        Z[Z_GIFTS] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_GIFT, p, ip[P_GIFT], S[p, C_DIAM], 0, 0, 0)


@internal
def choose_four(st, S, pp, PID, p):
    """The 4 p spends (a reflect block, a thaw, the end of bloodthirst, a
    steal), -1 if none: random, uniformly over the suits it holds; greedy,
    the one it values least (the highest run value ``pp[p, Q_RUN + k]``, what
    playing it costs; by default every 4 costs the same), ties uniformly
    from the game's stream; script (tests), the first suit ♠♥♣♦ it holds."""
    pol = S[p, C_POL]
    best = -1e300
    tied = 0
    nt = 0
    for s in range(4):
        if S[p, C_H + s * 9 + R_4] > 0:
            if pol == POL_SCRIPT:
                return s * 9 + R_4
            v = 0.0 if pol == POL_RANDOM else pp[p, Q_RUN + PID[s, R_4, R_4]]
            if v > best:
                best = v
                tied = 1 << s
                nt = 1
            elif v == best:
                tied |= 1 << s
                nt += 1
    j = below(st, nt) if nt > 1 else 0
    for s in range(4):
        if (tied >> s) & 1:
            if j == 0:
                return s * 9 + R_4
            j -= 1
    return -1


@internal
def spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """p spends one 4 (block, thaw, end bloodthirst, steal; ``choose_four``):
    it is played."""
    kind = choose_four(st, S, pp, PID, p)
    s = kind // 9
    remove_play(S, pile, Z, masks, counts, p, PT, PID[s, R_4, R_4])
    fix_mark(S, p, kind)
    if S[p, C_HN] == 0:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])
    return kind


@internal
def wants(st, S, p):
    """A yes/no decision of p's policy at a turn start (random: a coin;
    greedy and script: yes)."""
    if S[p, C_POL] == POL_RANDOM:
        return below(st, 2) == 1
    return True


@internal
def steal_react(s, c, masks, counts, tr, t, src, what):
    """吞噬盾 against a skill: the holder of the devouring shield spends a 4
    to void bloodthirst (what 0) or frost (what 1) and gains one use."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    if not has_shield(S, t, 10) or four_kind(S, t) < 0 or not wants(st, S, t):
        return False
    kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, t)
    if what == 0:
        S[t, C_BTU] += 1
    else:
        S[t, C_FRU] += 1
    S[t, C_NSTEAL] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_STEAL, t, src, what, kind, 0, 0)
    return True


@internal
def bloodthirst(s, c, masks, counts, tr, p, t):
    S, Z = s.S, s.Z
    ip = c.ip
    S[p, C_BTU] -= 1
    S[p, C_NBLOOD] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_BLOOD, p, t, ip[P_BTR], S[p, C_BTU], 0, 0)
    if steal_react(s, c, masks, counts, tr, t, p, 0):
        return
    S[t, C_BTT] = ip[P_BTR]
    S[t, C_BTS] = p


@internal
def freeze(s, c, masks, counts, tr, p, t, which):
    """冰封盾: a frost layer on t's skill (which 0) or shield (1)."""
    S, Z = s.S, s.Z
    if not has_shield(S, p, 8):
        S[p, C_FRU] -= 1
    S[p, C_NFRZ] += 1
    if steal_react(s, c, masks, counts, tr, t, p, 1):
        return
    if which == 0:
        S[t, C_FRSK] += 1
    else:
        S[t, C_FRSH] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_FREEZE, p, t, which, S[t, C_FRSK], S[t, C_FRSH], 0)


@internal
def reflect(s, c, masks, counts, tr, g, inc):
    """反射盾: incoming x reflect_multiplier hits every other player (turn
    order from the top); each blocks with a 4 (firing nothing) or dies
    (contract: "each must play a 4 to block or die"; no passive applies,
    and a hit below its HP is raised to its HP; a leopard still dodges). If
    all block, the turn order restarts from the top. A multiplier of 0
    reflects nothing."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    amount = sat_mul(inc, ip[P_REFLM])
    Z[Z_REFL] += 1
    S[g, C_NREF] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_REFLECT, g, amount, inc, 0, 0, 0)
    if amount <= 0:
        return
    done = np.int64(1) << g
    hits = 0
    while True:
        q = -1
        for x in range(Z[Z_P]):
            if (done >> x) & 1 == 0 and S[x, C_ALIVE] == 1:
                if q < 0 or S[x, C_KEY] > S[q, C_KEY]:
                    q = x
        if q < 0:
            break
        done |= np.int64(1) << q
        if four_kind(S, q) >= 0:
            Z[Z_RBLOCK] += 1
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, q)
            if Z[Z_ON]:
                ev(tr, Z, E_BLOCK, q, kind, g, 0, 0, 0)
        else:
            hits += 1
            hit3(st, S, pile, Z, tr, ip, pp, q, g, max(amount, S[q, C_HP]), CA_REFLECT, False)
    if hits == 0:
        Z[Z_RALLBLOCK] += 1
        Z[Z_NEXT] = 1
        if Z[Z_ON]:
            ev(tr, Z, E_RESTART, g, 0, 0, 0, 0, 0)


@internal
def devour(S, pile, Z, tr, PT, d, k, a):
    """吞噬盾: the cards of run k (the attacker's play) go from the discard
    pile into d's hand (cards already reshuffled into the deck are not)."""
    s = PT[k, T_SUIT]
    got = 0
    for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
        kind = s * 9 + r
        for j in range(Z[Z_DISC] - 1, -1, -1):
            if pile[1, j] == kind:
                pile[1, j] = pile[1, Z[Z_DISC] - 1]
                Z[Z_DISC] -= 1
                add_card(S, d, kind)
                got += 1
                break
    S[d, C_NDEV] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEVOUR, d, k, got, a, 0, 0)


@internal
def buy(st, S, Z, tr, ip, p):
    """Shop: at most one item at the start of p's turn. greedy/script: the
    first affordable of leopard (none held), dragon (not active), medical
    kit (an enemy 10 is alive, none held), birds (not laying); random:
    uniform over nothing and the affordable items."""
    dm = S[p, C_DIAM]
    ok = 0                       # bit x: item x is affordable and allowed
    if dm >= ip[P_PLEO] and S[p, C_LEO] == 0:
        ok |= 1 << I_LEO
    if dm >= ip[P_PDRG] and S[p, C_DRG] == 0:
        ok |= 1 << I_DRAGON
    if dm >= ip[P_PKIT] and S[p, C_KIT] == 0:
        for q in range(Z[Z_P]):
            if S[q, C_ALIVE] == 1 and S[q, C_RANK] == 10 and enemy(S, p, q):
                ok |= 1 << I_KIT
    if dm >= ip[P_PBIRD] and S[p, C_BIRD] == 0:
        ok |= 1 << I_BIRDS
    item = I_NONE
    if S[p, C_POL] == POL_RANDOM:
        m = 0
        for x in range(1, 5):
            m += (ok >> x) & 1
        if m == 0:
            return
        j = below(st, m + 1)
        for x in range(1, 5):
            if (ok >> x) & 1:
                j -= 1
                if j == 0:
                    item = x
                    break
    else:
        for x in (I_LEO, I_DRAGON, I_KIT, I_BIRDS):
            if (ok >> x) & 1:
                item = x
                break
    if item == I_NONE:
        return
    price = 0
    if item == I_LEO:
        price = ip[P_PLEO]
        S[p, C_LEO] += 1
        Z[Z_BLEO] += 1
    elif item == I_DRAGON:
        price = ip[P_PDRG]
        S[p, C_DRG] = ip[P_DRGR]
        Z[Z_BDRG] += 1
    elif item == I_KIT:
        price = ip[P_PKIT]
        S[p, C_KIT] += 1
        Z[Z_BKIT] += 1
    else:
        price = ip[P_PBIRD]
        S[p, C_BIRD] = ip[P_BIRDR]
        Z[Z_BBIRD] += 1
    S[p, C_DIAM] -= price
    S[p, C_BUYS] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_BUY, p, item, price, S[p, C_DIAM], 0, 0)


@inlined
def turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """A round of the dragon and the birds ends (the birds lay at each of
    their N turn starts; both end at the N-th); bloodthirst ends with a
    spent 4 or ticks (at each of the victim's next N turn starts); a 4
    thaws one frost layer; the Glutton buries its mine; the shop."""
    if S[p, C_DRG] > 0:
        S[p, C_DRG] -= 1
        if S[p, C_DRG] == 0 and Z[Z_ON]:
            ev(tr, Z, E_EFFECT_END, p, 3, 0, 0, 0, 0)
    if S[p, C_BIRD] > 0:
        S[p, C_DIAM] += ip[P_BYIELD]
        S[p, C_BIRD] -= 1
        if Z[Z_ON]:
            ev(tr, Z, E_BIRDS, p, ip[P_BYIELD], S[p, C_DIAM], 0, 0, 0)
            if S[p, C_BIRD] == 0:
                ev(tr, Z, E_EFFECT_END, p, 4, 0, 0, 0, 0)
    if S[p, C_BTT] > 0:
        if four_kind(S, p) >= 0 and wants(st, S, p):
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
            S[p, C_BTT] = 0
            if Z[Z_ON]:
                ev(tr, Z, E_BLOODEND, p, kind, 0, 0, 0, 0)
        else:
            src = S[p, C_BTS]
            S[p, C_BTT] -= 1
            amt = incoming3(S, Z, tr, ip, p, ip[P_BTD])
            if Z[Z_ON]:
                ev(tr, Z, E_TICK, p, amt, S[p, C_BTT], src, 0, 0)
            if amt > 0:
                S[p, C_PREHP] = S[p, C_HP]
                S[p, C_PREMAX] = S[p, C_MAXHP]
                S[p, C_HP] -= amt
                S[p, C_MAXHP] -= amt
                S[p, C_TAKEN] = sat_add(S[p, C_TAKEN], amt)
                if src != p:
                    S[src, C_DEALT] = sat_add(S[src, C_DEALT], amt)
                if S[p, C_HP] <= 0 or S[p, C_MAXHP] <= 0:
                    die3(st, S, pile, Z, tr, ip, pp, p, src, CA_BLOOD)
        if S[p, C_ALIVE] == 0:
            return
    if (S[p, C_FRSK] > 0 or S[p, C_FRSH] > 0) and four_kind(S, p) >= 0:
        # greedy keeps a 4 for defence unless it holds two; script: always thaws
        if S[p, C_POL] == POL_SCRIPT or (S[p, C_POL] == POL_GREEDY and n_fours(S, p) >= 2) \
                or (S[p, C_POL] == POL_RANDOM and below(st, 2) == 1):
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
            which = 1 if (S[p, C_FRSH] > 0 and (S[p, C_SHB] != 0 or S[p, C_FRSK] == 0)) else 0
            if which == 1:
                S[p, C_FRSH] -= 1
            else:
                S[p, C_FRSK] -= 1
            if Z[Z_ON]:
                ev(tr, Z, E_THAW, p, which, S[p, C_FRSK], S[p, C_FRSH], kind, 0)
    if S[p, C_RANK] == 7 and S[p, C_MINES] > 0 and skill_on(S, p) and Z[Z_MPOS] == 0 \
            and Z[Z_DECK] > 0:
        pos = below(st, Z[Z_DECK])
        Z[Z_MPOS] = pos + 1
        Z[Z_MOWN] = p
        S[p, C_MINES] -= 1
        S[p, C_NMINE] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_BURY, p, pile[0, pos], Z[Z_DECK] - pos, 0, 0, 0)
    if ip[P_SHOP] == 1:
        buy(st, S, Z, tr, ip, p)


jit.kernel_cache_end()
