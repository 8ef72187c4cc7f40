"""v3 大冒险, the duel: a character that died with no life left waits
(``C_PEND``) and duels its killer, or the next seat in play
(``resolve_duels``, after every turn and scenario step). Each duelist plays
the top card of its shuffled face-down hand (a ring buffer at ``C_DQ``),
with OD rules and no skills, shields or multipliers; a 4 blocks. The
winner gains diamonds, the loser's unused lives and dedicated shield(s);
King Kong turns a loser into its zombie unless a medical kit saves it.

``duel`` and ``resolve_duels`` take the game ``s`` (``state.State``) and
the context ``c`` (``state.Ctx``), then ``masks``, ``counts`` and ``tr``;
a duelist's play and draws (``duel_play``, ``duel_after``) the arrays they
use.
"""
import numpy as np
from balance.core.compiled import inlined, internal

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ....core.rng import shuffle
from ..layout import (CA_DUEL, C_ALIVE, C_BTT, C_DEATHS, C_DIAM, C_DQ, C_DQH, C_DQN, C_DUELL,
                      C_DUELW, C_H, C_HP, C_KEY, C_KIT, C_KLR, C_MAXHP, C_PEND, C_POUCH, C_PREMAX,
                      C_RANK, C_SHB, C_STORM, C_TEAM, C_ZMB, E_DAMAGE, E_DPLAY, E_DUEL, E_DUELEND,
                      E_KIT, E_ZOMBIE, NCAP, P_DBASE, P_DPEN, P_MAXDP, P_REFILL, R_4, R_5, Z_D0,
                      Z_DCAPS, Z_DUELS, Z_INDUEL, Z_JOINT, Z_KITSAVE, Z_NEXT, Z_ON, Z_P, Z_ZOMB)
from ..rules import T_DMG, T_HEAL
from .cards import draws_after_play, remove_play, sat_add
from .step_v12 import eliminate
from .step_v3 import draw_n3, fix_mark
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@inlined
def duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """The top card of p's pile (refilled when empty), or -1."""
    if S[p, C_DQN] == 0:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])
        if S[p, C_DQN] == 0:
            return -1
    c = S[p, C_DQ + S[p, C_DQH]]
    S[p, C_DQH] = (S[p, C_DQH] + 1) % NCAP
    S[p, C_DQN] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, PID[c // 9, c % 9, c % 9])
    fix_mark(S, p, c)
    return c


@inlined
def duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, p, c):
    """The draws after a duel play, one draw as after any play: ``five_draw``
    for a 5, + ``refill`` if it emptied the pile (``draw_n3`` puts them at
    the bottom of the pile)."""
    draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p,
            draws_after_play(S[p, C_DQN], np.int64(1 if c % 9 == R_5 else 0), ip))


@internal
def duel(s, c, masks, counts, tr, x, y):
    """大冒险 between x (in play) and y (waiting after its death). Returns the
    winner. No skills, shields or multipliers; each plays the top card of
    its shuffled face-down hand; OD rules; a 4 blocks."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    Z[Z_DUELS] += 1
    Z[Z_INDUEL] = 1
    prex = S[x, C_HP]
    if S[y, C_MAXHP] <= 0:
        S[y, C_MAXHP] = S[y, C_PREMAX] if S[y, C_PREMAX] > 0 else 1
    if S[x, C_MAXHP] <= 0:
        S[x, C_MAXHP] = 1
    S[x, C_HP] = S[x, C_MAXHP]
    S[y, C_HP] = S[y, C_MAXHP]
    for p in (x, y):
        n = 0
        for kind in range(36):
            for _ in range(S[p, C_H + kind]):
                S[p, C_DQ + n] = kind
                n += 1
        shuffle(st, S[p, C_DQ:C_DQ + NCAP], n)
        S[p, C_DQH] = 0
        S[p, C_DQN] = n
    if Z[Z_ON]:
        ev(tr, Z, E_DUEL, x, y, S[x, C_HP], S[y, C_HP], S[y, C_KLR], 0)
    first = x if S[x, C_KEY] > S[y, C_KEY] else y
    maxp = ip[P_MAXDP]
    plays = 0
    cur = first
    passes = 0
    lbx = S[x, C_HP]
    lby = S[y, C_HP]
    loser = -1
    while plays < maxp and loser < 0:
        oth = y if cur == x else x
        card = duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, cur)
        if card < 0:
            passes += 1
            if passes >= 2:
                break
            cur = oth
            continue
        passes = 0
        plays += 1
        kc = PID[card // 9, card % 9, card % 9]
        dmg = PT[kc, T_DMG]
        if Z[Z_ON]:
            ev(tr, Z, E_DPLAY, cur, card, dmg, PT[kc, T_HEAL], 0, 0)
        duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, cur, card)
        if dmg > 0:
            a = cur
            d = oth
            inc = dmg
            while True:
                hurt = np.int64(0)
                if plays >= maxp:
                    break
                c2 = duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, d)
                if c2 < 0:
                    hurt = inc
                else:
                    plays += 1
                    k2 = PID[c2 // 9, c2 % 9, c2 % 9]
                    if Z[Z_ON]:
                        ev(tr, Z, E_DPLAY, d, c2, PT[k2, T_DMG], PT[k2, T_HEAL], 1, inc)
                    duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, d, c2)
                    inc_eff = 0 if c2 % 9 == R_4 else inc
                    od = sat_add(PT[k2, T_DMG], PT[k2, T_HEAL]) - inc_eff
                    if od < 0:
                        hurt = -od
                    elif od > 0:
                        t = a
                        a = d
                        d = t
                        inc = od
                        continue
                if hurt > 0:
                    if d == x:
                        lbx = S[x, C_HP]
                    else:
                        lby = S[y, C_HP]
                    S[d, C_HP] -= hurt
                    if Z[Z_ON]:
                        ev(tr, Z, E_DAMAGE, d, hurt, S[d, C_HP], a, CA_DUEL, 1)
                break
        else:
            h = min(PT[kc, T_HEAL], S[cur, C_MAXHP] - S[cur, C_HP])
            if h > 0:
                S[cur, C_HP] += h
        if S[x, C_HP] <= 0:
            loser = x
        elif S[y, C_HP] <= 0:
            loser = y
        cur = oth
    capped = 0
    if loser < 0:
        capped = 1
        Z[Z_DCAPS] += 1
        if S[x, C_HP] != S[y, C_HP]:
            loser = x if S[x, C_HP] < S[y, C_HP] else y
        else:
            loser = x if S[x, C_KEY] < S[y, C_KEY] else y
        lbx = S[x, C_HP]
        lby = S[y, C_HP]
    w = y if loser == x else x
    before = lbx if loser == x else lby
    Z[Z_INDUEL] = 0
    reward = ip[P_DBASE] + max(before, 0)
    S[w, C_DIAM] += reward
    S[loser, C_DIAM] -= ip[P_DPEN]
    S[w, C_DUELW] += 1
    S[loser, C_DUELL] += 1
    S[loser, C_DEATHS] += 1
    Z[Z_D0 + CA_DUEL] += 1
    if w == x:
        S[x, C_HP] = prex if prex > 0 else S[x, C_MAXHP]
    else:
        S[y, C_HP] = S[y, C_MAXHP]
        S[y, C_ALIVE] = 1
        S[y, C_PEND] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DUELEND, w, loser, reward, ip[P_DPEN], capped, plays)
    # the winner inherits unused revives and the loser's dedicated shield(s)
    S[w, C_STORM] += S[loser, C_STORM]
    S[w, C_POUCH] += S[loser, C_POUCH]
    S[w, C_SHB] |= S[loser, C_SHB]
    S[loser, C_STORM] = 0
    S[loser, C_POUCH] = 0
    S[loser, C_SHB] = 0
    Z[Z_JOINT] = w + 1
    Z[Z_NEXT] = 1
    if S[w, C_RANK] == 10:
        if S[loser, C_KIT] > 0:
            S[loser, C_KIT] -= 1
            Z[Z_KITSAVE] += 1
            if Z[Z_ON]:
                ev(tr, Z, E_KIT, loser, w, 0, 0, 0, 0)
        else:
            Z[Z_ZOMB] += 1
            S[loser, C_ZMB] = w + 1
            S[loser, C_TEAM] = S[w, C_TEAM]
            S[loser, C_ALIVE] = 1
            S[loser, C_PEND] = 0
            S[loser, C_HP] = S[loser, C_MAXHP]
            S[loser, C_BTT] = 0
            if Z[Z_ON]:
                ev(tr, Z, E_ZOMBIE, loser, w, S[loser, C_HP], 0, 0, 0)
            return w
    eliminate(S, pile, Z, tr, loser)
    return w


@inlined
def resolve_duels(s, c, masks, counts, tr):
    """Duel queue: largest waiting character first duels its killer (or the
    next living seat after it); the winner duels the next-largest, ..."""
    S, Z = s.S, s.Z
    champ = -1
    while True:
        q = -1
        for x in range(Z[Z_P]):
            if S[x, C_PEND] == 1 and (q < 0 or S[x, C_KEY] > S[q, C_KEY]):
                q = x
        if q < 0:
            return
        if champ < 0 or S[champ, C_ALIVE] == 0:
            k = S[q, C_KLR]
            if k < 0:
                k = q
            champ = -1
            P = Z[Z_P]
            for j in range(P):
                nxt = (k + j) % P
                if S[nxt, C_ALIVE] == 1:
                    champ = nxt
                    break
            if champ < 0:
                # nobody in play: the largest waiting character comes back to face the next
                S[q, C_PEND] = 0
                S[q, C_ALIVE] = 1
                if S[q, C_MAXHP] <= 0:
                    S[q, C_MAXHP] = S[q, C_PREMAX] if S[q, C_PREMAX] > 0 else 1
                S[q, C_HP] = S[q, C_MAXHP]
                champ = q
                continue
        champ = duel(s, c, masks, counts, tr, champ, q)


jit.kernel_cache_end()
