"""Demon Faction's rules, the attack: the legal attacks (``list_attack``,
each with greedy's value from ``policies``), the normal and joker attacks,
the joker clash and the Q effect, and playing a chosen attack
(``attack_choice``). The step machine (``step``) lists the attacks and
plays the chosen one; ``step_scenario.attack_phase`` plays a whole attack
phase for the scenario tests.
"""

from numba import njit
from balance.core.compiled import inlined
from numba import types as nt

from ...core import jit
from ...core.kernel import ev  # before kernel_cache_begin
from ...core.rng import shuffle
from .layout import (C_BJ, C_DECKM, C_DECKN, C_HAND, C_POW, C_ROW, D_OPT, E_ATTACK, E_CLASH,
                     E_CLASHCH, E_CLASHRES, E_LAY, E_NOATTACK, E_Q, H_ATTACK, H_CLASH, H_DIRECT,
                     Z_ATT, Z_CLASH, Z_DESTR, Z_FIRST, Z_FORBID, Z_NOATK, Z_ON)
from .policies import attack_value, choose, pick_card, q_lower_value, q_mean_value
from .state_bits import bit, ctz
from .step_board import (A1, A2, CTX, I64, LAY, P_BONUS, P_CLASH, P_MULT, P_PAS, RANK, STATE,
                         T_ATK, T_CLAY, T_CLOST, T_CWON, T_CYIELD, T_DESTR, T_DHITS, T_DIRECT,
                         T_HITS, T_JEFF, T_JNORM, T_QCH, T_QF, T_QOPT, U3, check_end, face_active,
                         high_cands, hurt, joker_gone, leave_row, low_cands, occupied, played,
                         setrow, sig, targets, to_row)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# --- attack --------------------------------------------------------------------------
@inlined
def list_attack(S, Z, ip, pp, rows, sc, tmp, p):
    """Every distinct legal attack of seat p now (rows [key, row, target
    (-1 direct), mode (0 normal, 1 joker effect)], greedy's value with seat
    p's float policy parameters ``pp[p]``), then "no attack" (the last row)."""
    q = 1 - p
    pr = pp[p]
    n = 0
    for r in range(3):
        if not occupied(S, p, r) or (Z[Z_NOATK] >> r) & 1:
            continue
        nt_ = targets(S, q, r, tmp)
        pw = S[p, C_POW + r]
        bj = S[p, C_BJ] == r
        for i in range(nt_):
            t = tmp[i]
            key = r * 4 + t + 1
            if t < 0:
                setrow(rows, sc, n, key, r, t, 0, 0, 0, attack_value(S, ip, pr, p, r, t, 0, tmp))
                n += 1
                if bj:
                    setrow(rows, sc, n, key, r, t, 1, 0, 0,
                           attack_value(S, ip, pr, p, r, t, 1, tmp))
                    n += 1
                continue
            if pw > S[q, C_POW + t]:
                setrow(rows, sc, n, key, r, t, 0, 0, 0, attack_value(S, ip, pr, p, r, t, 0, tmp))
                n += 1
            if bj:
                setrow(rows, sc, n, key, r, t, 1, 0, 0, attack_value(S, ip, pr, p, r, t, 1, tmp))
                n += 1
    setrow(rows, sc, n, 99, -1, -1, 0, 0, 0, 0.0)
    return n + 1


@njit(nt.int64(STATE, CTX, A2, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def fight_or_yield(s, c, tr, x, attacker):
    """Seat x's clash decision: 1 fight (lay down), 0 yield."""
    Z, rows, sc = s.Z, c.rows, c.sc
    setrow(rows, sc, 0, 0, 0, 0, 0, 0, 0, 0.0)
    setrow(rows, sc, 1, 1, 1, 0, 0, 0, 0, 1.0)
    i = choose(s.st, Z, c.pol[x], c.script, rows, sc, 2, D_OPT)
    f = rows[i, 1]
    if f == 0:
        s.S[x, T_CYIELD] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_CLASHCH, x, f, attacker, 0, 0, 0)
    return f


@njit(nt.void(A2, A1, U3, A2, A2, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def lay_down(S, Z, masks, counts, tr, x, r):
    m = S[x, C_HAND] & LAY[r] & ~Z[Z_FORBID]
    S[x, C_HAND] &= ~m
    while m != 0:
        low = m & -m
        m ^= low
        k = ctz(low)
        to_row(S, x, r, k)
        played(masks, counts, x, k)
        if Z[Z_ON]:
            ev(tr, Z, E_LAY, x, k, r, 0, 0, 0)


@njit(sig(I64, I64, I64, ret=nt.int64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def clash(s, c, masks, counts, tr, p, r, t):
    """p's joker row r against q's joker row t: 0 the attacker lost its
    joker, 1 the defender did, 2 both jokers went (equal totals)."""
    S, Z = s.S, s.Z
    q = 1 - p
    on = Z[Z_ON]
    Z[Z_CLASH] += 1
    if on:
        ev(tr, Z, E_CLASH, p, r, t, 0, 0, 0)
    res = 0
    if fight_or_yield(s, c, tr, p, 1) == 0:
        res = 0
    elif fight_or_yield(s, c, tr, q, 0) == 0:
        res = 1
    else:
        S[p, T_CLAY] += 1
        S[q, T_CLAY] += 1
        lay_down(S, Z, masks, counts, tr, p, r)
        lay_down(S, Z, masks, counts, tr, q, t)
        ta = S[p, C_POW + r]
        tb = S[q, C_POW + t]
        res = 0 if ta < tb else (1 if tb < ta else 2)
        if on:
            ev(tr, Z, E_CLASHRES, p, -1 if res == 2 else (p if res == 0 else q), ta, tb, 0, 0)
    if res == 2:
        joker_gone(S, Z, tr, p, False)
        joker_gone(S, Z, tr, q, False)
        return 2
    loser = p if res == 0 else q
    S[loser, T_CLOST] += 1
    S[1 - loser, T_CWON] += 1
    joker_gone(S, Z, tr, loser, True)
    hurt(S, Z, tr, loser, c.ip[P_CLASH], H_CLASH)
    return res


@njit(sig(I64, I64, I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def q_effect(s, c, masks, counts, tr, p, r, nd):
    """The Q of p's attacking row r after an attack destroyed the cards
    c.tmp[16:16+nd]: options 1, 2 or nothing (the owner picks which destroyed
    card counts as part of the concrete choice)."""
    S, Z, pile, st = s.S, s.Z, s.pile, s.st
    ip, rows, sc, tmp = c.ip, c.rows, c.sc, c.tmp
    own = S[p, C_ROW + r]
    avail = S[p, C_HAND] & ~Z[Z_FORBID]
    pool = (S[p, C_HAND] | S[p, C_DECKM]) & ~Z[Z_FORBID]
    setrow(rows, sc, 0, 0, 0, -1, -1, -1, -1, 0.0)
    n = 1
    if own != 0:
        high_cands(own, tmp, 8)
        hi = RANK[tmp[8]]
        for i in range(nd):                  # option 1
            d = tmp[16 + i]
            s2 = hi + RANK[d]
            if s2 % 2 == 0:
                k = r * 13 + s2 // 2 - 1
                if (avail >> k) & 1:
                    setrow(rows, sc, n, 1, 1, d, -1, k, r, q_mean_value(k))
                    n += 1
        nl = low_cands(own, tmp, 8)
        for i in range(nd):                  # option 2
            d = tmp[16 + i]
            vd = RANK[d]
            for li in range(nl):
                lo = tmp[8 + li]
                vl = RANK[lo]
                higher = vd if vd > vl else vl
                for x in range(2):
                    if x == 0:
                        su = (d // 13) if vd >= vl else (lo // 13)
                    else:
                        if vd != vl or d // 13 == lo // 13:
                            break
                        su = lo // 13
                    for v in range(1, higher):
                        k = su * 13 + v - 1
                        if (pool >> k) & 1 and n + 2 < rows.shape[0]:
                            for dest in range(2 if su == 3 else 1):
                                dr = dest if su == 3 else su
                                setrow(rows, sc, n, 2, 2, d, lo, k, dr,
                                       q_lower_value(v, vl, ip[P_PAS]))
                                n += 1
    if n == 1:
        return
    S[p, T_QCH] += 1
    i = choose(st, Z, c.pol[p], c.script, rows, sc, n, D_OPT)
    opt = rows[i, 1]
    if opt == 0:
        return
    d = rows[i, 2]
    lo = rows[i, 3]
    k = rows[i, 4]
    dr = rows[i, 5]
    S[p, T_QF] += 1
    S[p, T_QOPT + opt - 1] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_Q, p, r, opt, d, k, dr)
    if opt == 2:
        leave_row(S, Z, tr, ip, p, r, lo)
    if (S[p, C_HAND] >> k) & 1:
        S[p, C_HAND] &= ~bit(k)
    else:                                    # from the deck, then shuffle it
        nn = S[p, C_DECKN]
        j = 0
        while pile[p, j] != k:
            j += 1
        for jj in range(j, nn - 1):
            pile[p, jj] = pile[p, jj + 1]
        S[p, C_DECKN] = nn - 1
        S[p, C_DECKM] &= ~bit(k)
        shuffle(st, pile[p], nn - 1)
    to_row(S, p, dr, k)
    played(masks, counts, p, k)


@njit(sig(I64, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def attack(s, c, masks, counts, tr, p, r, t, mode):
    S, Z, ip, tmp = s.S, s.Z, c.ip, c.tmp
    q = 1 - p
    on = Z[Z_ON]
    S[p, T_ATK + r] += 1
    Z[Z_ATT] += 1
    if on:
        ev(tr, Z, E_ATTACK, p, r, t, mode, S[p, C_POW + r], S[q, C_POW + t] if t >= 0 else 0)
    if t < 0:
        dmg = S[p, C_POW + r]
        if mode == 1:
            dmg += ip[P_BONUS]
            S[p, T_JEFF] += 1
            joker_gone(S, Z, tr, p, False)
        elif S[p, C_BJ] == r:
            S[p, T_JNORM] += 1
        S[p, T_HITS + r] += 1
        S[p, T_DHITS + r] += 1
        S[p, T_DIRECT + r] += dmg
        hurt(S, Z, tr, q, dmg, H_DIRECT)
        check_end(S, Z)
        return
    mult = ip[P_MULT] if r == 0 and t == 2 else 1
    nd = 0
    if mode == 0:
        if S[p, C_BJ] == r:
            S[p, T_JNORM] += 1
        n = low_cands(S[q, C_ROW + t], tmp, 8)
        if n > 0:
            k = pick_card(s, c, q, 8, n)
            tmp[16] = k
            nd = 1
            leave_row(S, Z, tr, ip, q, t, k)
            hurt(S, Z, tr, q, RANK[k] * mult, H_ATTACK)
    else:
        if S[q, C_BJ] == t:
            res = clash(s, c, masks, counts, tr, p, r, t)
            if check_end(S, Z) or res != 1:
                return
        m = S[q, C_ROW + t]
        S[p, T_JEFF] += 1
        joker_gone(S, Z, tr, p, False)
        if m != 0:
            n = high_cands(m, tmp, 8)
            keep = pick_card(s, c, q, 8, n)
            m &= ~bit(keep)
            total = 0
            while m != 0:
                low = m & -m
                m ^= low
                k = ctz(low)
                tmp[16 + nd] = k
                nd += 1
                total += RANK[k]
                leave_row(S, Z, tr, ip, q, t, k)
            hurt(S, Z, tr, q, total * mult, H_ATTACK)
    S[p, T_DESTR + r] += nd
    if nd > 0:
        S[p, T_HITS + r] += 1
    Z[Z_DESTR] += nd
    if check_end(S, Z) or nd == 0:
        return
    if face_active(S, p, r, 12):
        q_effect(s, c, masks, counts, tr, p, r, nd)
        check_end(S, Z)


@inlined
def no_first_attack(Z, tr, p):
    """True (and the trace says so) in the first player's first turn."""
    if Z[Z_FIRST]:
        if Z[Z_ON]:
            ev(tr, Z, E_NOATTACK, p, 1, 0, 0, 0, 0)
        return True
    return False


@inlined
def attack_choice(s, c, masks, counts, tr, p, r, t, mode, n):
    """Carry out the attack row (r, t, mode) chosen among n (r < 0: none)."""
    if r < 0:
        if s.Z[Z_ON]:
            ev(tr, s.Z, E_NOATTACK, p, 0 if n > 1 else 2, 0, 0, 0, 0)
        return
    attack(s, c, masks, counts, tr, p, r, t, mode)


jit.kernel_cache_end()
