"""Demon Faction's policies: how ``random``, ``greedy`` and ``defensive``
(and a scenario's ``script``) choose, and greedy's values.

Every choice of a seat goes through ``choose`` (``choose_inlined`` inlined into
the placement and attack phases): the rules list the legal choices as rows
``[group, a, b, c, d, e]`` (``step_board.setrow``) with greedy's score per
row; ``random`` picks a group uniformly and then a row of it uniformly (the
contract's two steps), ``greedy`` and ``defensive`` the best score with
ties broken uniformly from the game's stream, ``script`` the row its script
names (greedy where the script is silent). The engine's ``step.heuristic``
and ``step.prior`` pick from and read the same rows (``heuristic_pick``). Random
numbers come in a fixed order from the game's own stream (``core/rng.py``).

Greedy's values (README "Policies (exact definitions)"): the value of a
face card in a row, of a row gaining power, of each placement, attack,
K/Q option and small-joker reply, and the preparation's keep order. The
rules call them where they list the choices (``step_turn.list_place``,
``step_fight.list_attack``, the effect options), so a value lives here and
its legality stays with the rule.

Above ``step_board`` (the tables, the board helpers, ``setrow``), below the
rule parts that choose (``step_fight``, ``step_turn``, ``step``).
"""

import numpy as np
from numba import njit
from balance.core.compiled import inlined
from numba import types as nt

from ...core import jit
from ...core.rng import below
from .layout import (C_FACE, C_HP, C_KPTS, C_POW, C_ROW, D_OPT, POL_DEFENSIVE, POL_RANDOM,
                     POL_SCRIPT, WILD, Z_DEC, Z_SERR, Z_SOWN, Z_SPOS)
from .rules import BIG, PIDX, SMALL
from .state_bits import popc
from .step_board import (A1, A2, CTX, F1, I64, P_BONUS, P_HEAL, P_HP, P_MULT, P_PAS, RANK,
                         STATE, U1, high_cands, occupied, setrow, targets)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# the float policy parameters (Ctx.pp[p, Q_*], README "Policies")
Q_WIN = PIDX["win_bonus"]
Q_SLOT = PIDX["slot_value"]
Q_Q = PIDX["q_value"]
Q_K = PIDX["k_value"]
Q_JOKER = PIDX["joker_value"]
Q_HEALMIN = PIDX["heal_min"]
Q_SPEND = PIDX["joker_spend"]
Q_SMALL = PIDX["small_value"]
Q_MARGIN = PIDX["reply_margin"]
Q_KMIN = PIDX["k_revive_min"]
Q_GUARD = PIDX["guard_bonus"]


# --- choosing ----------------------------------------------------------------------
@njit(nt.int64(A1, A2, A2, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def script_pick(Z, script, rows, n, dtype):
    pos = Z[Z_SPOS]
    if pos >= script.shape[0] or script[pos, 0] != dtype:
        return -1
    Z[Z_SPOS] = pos + 1
    for i in range(n):
        ok = True
        for c in range(1, 6):
            if script[pos, c] != WILD and script[pos, c] != rows[i, c]:
                ok = False
                break
        if ok:
            return i
    Z[Z_SERR] += 1
    return -1


@inlined
def heuristic_pick(st, pol, rows, sc, n):
    """Index of the row of rows[:n] that heuristic ``pol`` picks: ``random``
    a group uniformly, then a row of it uniformly; the others the best
    score, ties uniform (from ``st``; nothing drawn when n <= 1)."""
    if n <= 1:
        return 0
    if pol == POL_RANDOM:
        ng = 1
        for i in range(1, n):
            if rows[i, 0] != rows[i - 1, 0]:
                ng += 1
        g = below(st, ng) if ng > 1 else 0
        i0 = 0
        cur = 0
        for i in range(1, n):
            if rows[i, 0] != rows[i - 1, 0]:
                cur += 1
                if cur > g:
                    break
                i0 = i
        i1 = i0 + 1
        while i1 < n and rows[i1, 0] == rows[i0, 0]:
            i1 += 1
        if i1 - i0 > 1:
            return i0 + below(st, i1 - i0)
        return i0
    best = 0
    bv = sc[0]
    ties = 1
    for i in range(1, n):
        v = sc[i]
        if v > bv + 1e-9:
            bv = v
            best = i
            ties = 1
        elif v >= bv - 1e-9:
            ties += 1
            if below(st, ties) == 0:
                best = i
    return best


@inlined
def choose_inlined(st, Z, pol, script, rows, sc, n, dtype):
    """Index of the chosen row among rows[:n] (n >= 1). A decision (the
    unit of the speed figures: a placement or attack choice) is counted
    when a placement or attack choice had two or more rows; effect options
    are not counted (the engine's ``step.apply`` counts the decisions it
    stops at, the same ones)."""
    if n > 1 and dtype != D_OPT:
        Z[Z_DEC] += 1
    if pol == POL_SCRIPT:
        i = script_pick(Z, script, rows, n, dtype)
        if i >= 0:
            return i
    return heuristic_pick(st, pol, rows, sc, n)


@njit(nt.int64(U1, A1, I64, A2, A2, F1, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose(st, Z, pol, script, rows, sc, n, dtype):
    """``choose_inlined`` compiled once, for the effect options (rare): the
    placement and attack phases inline ``choose_inlined``."""
    return choose_inlined(st, Z, pol, script, rows, sc, n, dtype)


@njit(nt.int64(STATE, CTX, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pick_card(s, c, x, o, n):
    """Seat x picks one of the equal cards c.tmp[o:o+n] (a tie: uniform for
    every heuristic)."""
    tmp, rows, sc = c.tmp, c.rows, c.sc
    if n == 1:
        return tmp[o]
    for i in range(n):
        setrow(rows, sc, i, 0, tmp[o + i], 0, 0, 0, 0, 0.0)
    return rows[choose(s.st, s.Z, c.pol[x], c.script, rows, sc, n, D_OPT), 1]


# --- greedy's values -----------------------------------------------------------------
@inlined
def lowest_value(m):
    """The lowest value (1-10) among the normal cards of mask m, 0 if none."""
    for v in range(10):
        if (m >> v) & 1 or (m >> (13 + v)) & 1 or (m >> (26 + v)) & 1 or (m >> (39 + v)) & 1:
            return v + 1
    return 0


@njit(nt.float64(A2, A1, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def j_value(S, ip, me, r):
    """The immediate value to ``me`` of its J in row r firing now: damage
    to the opponent minus damage to me."""
    pas = ip[P_PAS]
    a = lowest_value(S[me, C_ROW + r])
    b = lowest_value(S[1 - me, C_ROW + r])
    if a > 0 and b > 0:
        return float(b - a)
    if b > 0:
        return float(pas)
    if a > 0:
        return float(-pas)
    return 0.0


@inlined
def face_value(S, ip, pp, me, r, k):
    """Greedy's value of face card k in ``me``'s row r (``pp``: the
    deciding seat's row of float policy parameters)."""
    rk = RANK[k]
    if rk == 11:
        return j_value(S, ip, me, r)
    if rk == 12:
        return pp[Q_Q]
    return pp[Q_K] + 0.5 * S[me, C_KPTS + r]


@inlined
def thresholds(S, p, tmp):
    """tmp[20 + r]: the power own row r must exceed to attack some target
    normally (-1: a direct attack; 1 << 40: no target); tmp[24 + r]: 1 when
    row r can attack normally now."""
    q = 1 - p
    for r in range(3):
        nt_ = targets(S, q, r, tmp)
        thr = np.int64(1) << 40
        for i in range(nt_):
            t = tmp[i]
            v = -1 if t < 0 else S[q, C_POW + t]
            if v < thr:
                thr = v
        tmp[20 + r] = thr
        tmp[24 + r] = 1 if occupied(S, p, r) and S[p, C_POW + r] > thr else 0


@inlined
def row_gain(S, pp, pol, p, r, add, tmp):
    """Greedy's value of adding ``add`` power to own row r (``thresholds``
    computed first; ``pp``: seat p's row of float policy parameters)."""
    s = float(add)
    if tmp[24 + r] == 0 and S[p, C_POW + r] + add > tmp[20 + r]:
        s += pp[Q_WIN]
    if pol == POL_DEFENSIVE and r == 0 and not occupied(S, p, 0):
        s += pp[Q_GUARD]
    return s


@inlined
def big_joker_value(S, ip, pr, p, r):
    """Greedy's value of p's big joker into row r (``pr``: seat p's float
    policy parameters): joker_value into an occupied row, else the HP the
    heal restores minus heal_min."""
    if occupied(S, p, r):
        return pr[Q_JOKER]
    hh = ip[P_HP] - S[p, C_HP]
    return float(min(hh, ip[P_HEAL])) - pr[Q_HEALMIN]


@inlined
def small_joker_value(S, ip, pr, q, r):
    """Greedy's value of the small joker on opponent q's big joker in row r:
    small_value plus the value to q of the face cards it takes along."""
    s = pr[Q_SMALL]
    for j in range(2):
        f = S[q, C_FACE + 2 * r + j]
        if f >= 0:
            s += face_value(S, ip, pr, q, r, f)
    return s


@inlined
def slot_value(Z, pr, su):
    """Greedy's value of a card into the extra slot of suit su: slot_value
    when the slot is empty, -1 when it replaces one's own card."""
    return pr[Q_SLOT] if Z[Z_SOWN + su] < 0 else -1.0


@inlined
def attack_value(S, ip, pr, p, r, t, mode, tmp):
    """Greedy's value of p's attack from row r at target t (-1: the player
    directly), mode 0 normal, 1 with the big joker's effect (``pr``: seat
    p's float policy parameters; uses tmp[8:])."""
    q = 1 - p
    pw = S[p, C_POW + r]
    if t < 0:
        if mode == 0:
            return float(pw)
        return pw + ip[P_BONUS] - pr[Q_SPEND]
    m = S[q, C_ROW + t]
    mult = ip[P_MULT] if r == 0 and t == 2 else 1
    if mode == 0:
        lv = lowest_value(m)
        return float(lv * mult + ip[P_PAS]) if lv > 0 else 0.0
    cnt = popc(m)
    s = -pr[Q_SPEND]
    if cnt > 1:
        high_cands(m, tmp, 8)
        s += float((S[q, C_POW + t] - RANK[tmp[8]]) * mult + (cnt - 1) * ip[P_PAS])
    return s


@inlined
def reply_value(S, pr, x, cost):
    """Greedy's value of seat x answering a big joker with the small joker
    (``pr``: seat x's float policy parameters): 1 when x's HP is above cost
    + reply_margin, else -1 (not answering: 0)."""
    return 1.0 if S[x, C_HP] > cost + pr[Q_MARGIN] else -1.0


@inlined
def q_mean_value(k):
    """Greedy's value of Q option 1, card k placed (not using it: 0)."""
    return 1.0 + RANK[k]


@inlined
def q_lower_value(v, vl, pas):
    """Greedy's value of Q option 2: a card of value v placed for own lowest
    card of value vl, which goes (the passive ``pas``)."""
    return float(v - vl - pas) - 0.5


@inlined
def k_revive_value(pts):
    """Greedy's value of K option 1 (the card of value = points revived)."""
    return 1.0 + pts


@inlined
def k_any_value(v, pr):
    """Greedy's value of K option 2 (any card of value v revived, the K
    goes): v - k_revive_min + 0.5."""
    return v - pr[Q_KMIN] + 0.5


@inlined
def keep_score(k, forbid):
    """The preparation's keep order (higher kept): jokers, face cards, then
    normal cards by value; a forbidden card goes first."""
    if (forbid >> k) & 1:
        return -1
    if k == BIG:
        return 30
    if k == SMALL:
        return 20
    rk = RANK[k]
    if rk > 10:
        return 6 if k >= 39 else 8
    return rk


@inlined
def pick_discards(st, pol, tmp, n, m, forbid):
    """Policy ``pol``'s m discards among the n hand cards tmp[:n], moved to
    tmp[:m]: ``random`` a uniform subset of size m, the others the m lowest
    keep scores (``keep_score``), ties uniform."""
    if pol == POL_RANDOM:
        for i in range(m):              # a uniform subset of size m
            j = i + below(st, n - i)
            t = tmp[i]
            tmp[i] = tmp[j]
            tmp[j] = t
    else:
        for i in range(m):              # the m lowest keep scores, ties uniform
            best = i
            bv = keep_score(tmp[i], forbid)
            ties = 1
            for j in range(i + 1, n):
                v = keep_score(tmp[j], forbid)
                if v < bv:
                    bv = v
                    best = j
                    ties = 1
                elif v == bv:
                    ties += 1
                    if below(st, ties) == 0:
                        best = j
            t = tmp[i]
            tmp[i] = tmp[best]
            tmp[best] = t


jit.kernel_cache_end()
