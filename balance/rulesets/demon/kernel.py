"""Demon Faction kernel: njit functions over small int64 arrays.

One game's state:
- ``S`` int64[2, NS]: per seat, HP, the zones as 54-bit masks of card ids
  (each seat has its own deck, so a card id names one card), row powers,
  face cards, the big joker's row, K regeneration points, and the seat's
  record (columns ``C_*`` and ``ST`` in ``layout``);
- ``pile`` int64[3, 54]: rows 0 and 1 the decks of seats 0 and 1 (top =
  last), row 2 the unshuffled deck (per batch);
- ``Z`` int64[NZ]: the game's globals (extra-zone slots, this turn's
  placement flags, counters, the turn and the trace length).

Every policy choice goes through ``choose``: the caller lists the legal
choices as rows ``[group, a, b, c, d, e]`` (and, for the heuristics, a
score per row); ``random`` picks a group uniformly and then a row of it
uniformly (the contract's two steps), ``greedy`` and ``defensive`` the best
score with ties broken uniformly from the game's stream. Random numbers come
in a fixed order from the game's own stream (``core/rng.py``).
"""
import numpy as np
from numba import njit
from numba import types as nt

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from ...core.records import BLOCK
from ...core.rng import below, game_state, shuffle
from .layout import (A_BIG, A_END, A_FACE, A_HEART, A_PAIR, A_ROW, A_SLOT, A_SMALL, C_BJ,
                     C_DECKM, C_DECKN, C_FACE, C_FACT, C_GRAVE, C_HAND, C_HP, C_KPTS, C_POW,
                     C_ROW, C_STATS, D_ATTACK, D_OPT, D_PLACE, E_ACT, E_ATTACK, E_BIG, E_CLASH,
                     E_CLASHCH, E_CLASHRES, E_DEAL, E_DISCARD, E_DRAW, E_END, E_FACE,
                     E_FACEGONE, E_GONE, E_HEART, E_HP, E_JFX, E_JOKERGONE, E_KOPT, E_LAY,
                     E_NOATTACK, E_NODRAW, E_PAIR, E_Q, E_ROW, E_SLOT, E_SMALL, E_TURN,
                     END_CAP, END_DRAW, END_HP, END_STALE, F_FACE, F_HEART, F_PAIR, F_ROW,
                     F_SLOT, GAME_COLUMNS, H_ATTACK, H_CLASH, H_DIRECT, H_HEAL, H_J, H_PASSIVE,
                     H_REPLY, NO, NS, NSCRIPT, NSEAT, NZ, POL_DEFENSIVE, POL_RANDOM,
                     POL_SCRIPT, ST, Z_ATT, Z_CLASH, Z_DEC, Z_DESTR, Z_DONE, Z_FIRST, Z_FLAGS,
                     Z_FORBID, Z_HPCH, Z_NC, Z_NOATK, Z_ON, Z_SACT, Z_SCARD, Z_SERR, Z_SOWN,
                     Z_SPOS, Z_STALE, Z_TR, Z_TURN)
from .layout import NG as _NG
from .rules import BIG, IDX, PIDX, SMALL

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

NG = _NG

# --- parameter slots -----------------------------------------------------
P_HP = IDX["hp"]
P_PAS = IDX["passive_damage"]
P_HEAL = IDX["big_joker_heal"]
P_BONUS = IDX["joker_direct_bonus"]
P_CLASH = IDX["clash_damage"]
P_REPLY = IDX["small_joker_reply_cost"]
P_MULT = IDX["row3_multiplier"]
P_K2 = IDX["k_option2_points"]
P_START = IDX["start_hand"]
P_DRAW = IDX["draw_per_turn"]
P_TRIG = IDX["hand_trigger"]
P_KEEP = IDX["hand_keep"]
P_STALE = IDX["stalemate_rounds"]
P_MAXT = IDX["max_turns"]
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

GI = index(GAME_COLUMNS)
G_WINNER, G_TURNS, G_ROUNDS, G_END = GI["winner"], GI["turns"], GI["rounds"], GI["end_reason"]
G_DEC, G_ATT, G_DESTR, G_CLASH = GI["decisions"], GI["attacks"], GI["destroyed"], GI["clashes"]
T_TAKEN = ST["damage_taken"]
T_PASSIVE = ST["passive_taken"]
T_HEALED = ST["healed"]
T_ATK = ST["attacks_row1"]          # + row
T_DESTR = ST["destroyed_row1"]      # + row
T_DIRECT = ST["direct_row1"]        # + row
T_JPL = ST["j_placed"]              # J, Q, K consecutive
T_HEART = ST["heart_faces"]
T_QF = ST["q_fired"]
T_KF = ST["k_fired"]
T_SLOTS = ST["slots"]
T_PAIRS = ST["pairs"]
T_BIG = ST["big_joker"]
T_JHEAL = ST["joker_heals"]
T_JEFF = ST["joker_effects"]
T_SMALL = ST["small_joker"]
T_REPLY = ST["small_replies"]
T_CWON = ST["clashes_won"]
T_CLOST = ST["clashes_lost"]
T_HP = ST["hp"]
assert T_HP == C_STATS

RANK = np.array([k % 13 + 1 for k in range(52)] + [0, 0], np.int64)
NORMAL = np.array([sum(1 << (s * 13 + v) for v in range(10)) for s in range(4)], np.int64)
LAY = np.array([NORMAL[0] | NORMAL[3], NORMAL[1] | NORMAL[3], NORMAL[2]], np.int64)
_DB = 0x03F79D71B4CB0A89
DEBRUIJN = np.uint64(_DB)
CTZ = np.zeros(64, np.int64)
for _i in range(64):
    CTZ[(((1 << _i) * _DB) & ((1 << 64) - 1)) >> 58] = _i
S58 = np.uint64(58)
WILD = -99          # scenario scripts: matches any value

I64 = nt.int64
A1, A2 = nt.int64[::1], nt.int64[:, ::1]
F1, U1, U3 = nt.float64[::1], nt.uint64[::1], nt.uint64[:, :, ::1]
B1 = nt.boolean
# the arguments every game step takes, in this order
BASE = (U1, A2, A1, A2, U3, A2, A2, A1, F1, A1, A2, F1, A2, A1)


def sig(*extra, ret=nt.void):
    return ret(*BASE, *extra)


# --- small helpers ---------------------------------------------------------
@njit(cache=True, inline="always")
def bit(k):
    return np.int64(1) << np.int64(k)


@njit(cache=True, inline="always")
def popc(x):
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def ctz(low):
    """The index of the single set bit of ``low`` (a power of two)."""
    return CTZ[(np.uint64(low) * DEBRUIJN) >> S58]


@njit(cache=True, inline="always")
def occupied(S, q, r):
    return S[q, C_ROW + r] != 0 or S[q, C_BJ] == r


@njit(cache=True, inline="always")
def face_active(S, q, r, rank):
    k = r * 13 + rank - 1
    return ((S[q, C_FACE + 2 * r] == k and S[q, C_FACT + 2 * r] == 1)
            or (S[q, C_FACE + 2 * r + 1] == k and S[q, C_FACT + 2 * r + 1] == 1))


@njit(cache=True, inline="always")
def n_faces(S, q, r):
    return np.int64(S[q, C_FACE + 2 * r] >= 0) + np.int64(S[q, C_FACE + 2 * r + 1] >= 0)


@njit(cache=True, inline="always")
def played(masks, counts, q, k):
    setbit(masks, q, 1, k)
    counts[1, k] += 1


@njit(cache=True, inline="always")
def check_end(S, Z):
    if S[0, C_HP] <= 0 or S[1, C_HP] <= 0:
        Z[Z_DONE] = 1
    return Z[Z_DONE] != 0


@njit(cache=True, inline="always")
def low_cands(m, out, o):
    """The normal cards of lowest value in mask m, into out[o:], how many."""
    for v in range(10):
        n = 0
        for s in range(4):
            k = s * 13 + v
            if (m >> k) & 1:
                out[o + n] = k
                n += 1
        if n > 0:
            return n
    return 0


@njit(cache=True, inline="always")
def high_cands(m, out, o):
    for v in range(9, -1, -1):
        n = 0
        for s in range(4):
            k = s * 13 + v
            if (m >> k) & 1:
                out[o + n] = k
                n += 1
        if n > 0:
            return n
    return 0


@njit(cache=True, inline="always")
def targets(S, q, r, out):
    """The opposing rows (-1: the player) own row r may target, by the
    attack table, in out[0:n]; returns n (0: cannot attack)."""
    o0 = occupied(S, q, 0)
    o1 = occupied(S, q, 1)
    o2 = occupied(S, q, 2)
    if not (o0 or o1 or o2):
        out[0] = -1
        return 1
    if r == 0:
        out[0] = 0 if o0 else (1 if o1 else 2)
        return 1
    if r == 1:
        if o0 and o1:
            out[0] = 0
            out[1] = 1
            return 2
        if o0 or o1:
            out[0] = 0 if o0 else 1
            return 1
        return 0
    if o0 or o2:
        out[0] = 0 if o0 else 2
        return 1
    return 0


# --- HP ------------------------------------------------------------------------
@njit(nt.void(A2, A1, A2, I64, I64, I64), cache=True, _nrt=False)
def hurt(S, Z, tr, q, amount, cause):
    if amount <= 0:
        return
    S[q, C_HP] -= amount
    S[q, T_TAKEN] += amount
    if cause == H_PASSIVE:
        S[q, T_PASSIVE] += amount
    Z[Z_HPCH] = 1
    if Z[Z_ON]:
        ev(tr, Z, E_HP, q, -amount, S[q, C_HP], cause, 0, 0)


@njit(cache=True, inline="always")
def heal(S, Z, tr, q, amount, hpmax):
    h = hpmax - S[q, C_HP]
    if amount < h:
        h = amount
    if h < 0:
        h = 0
    if h > 0:
        S[q, C_HP] += h
        S[q, T_HEALED] += h
        Z[Z_HPCH] = 1
        if Z[Z_ON]:
            ev(tr, Z, E_HP, q, h, S[q, C_HP], H_HEAL, 0, 0)
    return h


# --- cards leaving the field ----------------------------------------------------
@njit(nt.void(A2, A1, A2, A1, I64, I64, I64), cache=True, _nrt=False)
def leave_row(S, Z, tr, ip, q, r, k):
    """q's normal card k leaves row r for q's graveyard: the K of that row
    gains a point while active, and the demon passive hurts q."""
    b = bit(k)
    S[q, C_ROW + r] &= ~b
    S[q, C_POW + r] -= RANK[k]
    S[q, C_GRAVE] |= b
    if face_active(S, q, r, 13):
        S[q, C_KPTS + r] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_GONE, q, k, r, 0, 0, 0)
    hurt(S, Z, tr, q, ip[P_PAS], H_PASSIVE)


@njit(nt.void(A2, A1, A2, A1, I64), cache=True, _nrt=False)
def leave_slot(S, Z, tr, ip, s):
    q = Z[Z_SOWN + s]
    k = Z[Z_SCARD + s]
    S[q, C_GRAVE] |= bit(k)
    Z[Z_SOWN + s] = -1
    Z[Z_SCARD + s] = -1
    Z[Z_SACT + s] = 0
    if face_active(S, q, s, 13):
        S[q, C_KPTS + s] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_GONE, q, k, 3 + s, 0, 0, 0)
    hurt(S, Z, tr, q, ip[P_PAS], H_PASSIVE)


@njit(nt.void(A2, A1, A2, I64, I64, I64), cache=True, _nrt=False)
def face_gone(S, Z, tr, q, r, j):
    """Face card j of q's row r goes to q's graveyard (no passive)."""
    c = C_FACE + 2 * r
    k = S[q, c + j]
    S[q, C_GRAVE] |= bit(k)
    if RANK[k] == 13:
        S[q, C_KPTS + r] = 0
    if j == 0:
        S[q, c] = S[q, c + 1]
        S[q, C_FACT + 2 * r] = S[q, C_FACT + 2 * r + 1]
    S[q, c + 1] = -1
    S[q, C_FACT + 2 * r + 1] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_FACEGONE, q, k, r, 0, 0, 0)


@njit(nt.void(A2, A1, A2, I64, B1), cache=True, _nrt=False)
def joker_gone(S, Z, tr, q, faces):
    """q's big joker goes to the graveyard; with ``faces``, so do the face
    cards of its row (destroyed: small joker, clash)."""
    r = S[q, C_BJ]
    S[q, C_BJ] = -1
    S[q, C_GRAVE] |= bit(BIG)
    if Z[Z_ON]:
        ev(tr, Z, E_JOKERGONE, q, r, np.int64(faces), 0, 0, 0)
    if faces:
        while S[q, C_FACE + 2 * r] >= 0:
            face_gone(S, Z, tr, q, r, 0)


@njit(cache=True, inline="always")
def to_row(S, q, r, k):
    S[q, C_ROW + r] |= bit(k)
    S[q, C_POW + r] += RANK[k]


# --- choosing -------------------------------------------------------------------
@njit(nt.int64(A1, A2, A2, I64, I64), cache=True, _nrt=False)
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


@njit(nt.int64(U1, A1, I64, A2, A2, F1, I64, I64), cache=True, _nrt=False)
def choose(st, Z, pol, script, rows, sc, n, dtype):
    """Index of the chosen row among rows[:n] (n >= 1). A decision (the
    issue's unit: a placement or attack choice) is counted when a placement
    or attack choice had two or more rows; effect options are not counted."""
    if n > 1 and dtype != D_OPT:
        Z[Z_DEC] += 1
    if pol == POL_SCRIPT:
        i = script_pick(Z, script, rows, n, dtype)
        if i >= 0:
            return i
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


@njit(cache=True, inline="always")
def setrow(rows, sc, n, key, a, b, c, d, e, score):
    rows[n, 0] = key
    rows[n, 1] = a
    rows[n, 2] = b
    rows[n, 3] = c
    rows[n, 4] = d
    rows[n, 5] = e
    sc[n] = score


@njit(sig(I64, I64, I64, ret=nt.int64), cache=True, _nrt=False)
def pick_card(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, x, o, n):
    """Seat x picks one of the equal cards tmp[o:o+n] (a tie: uniform for
    every heuristic)."""
    if n == 1:
        return tmp[o]
    for i in range(n):
        setrow(rows, sc, i, 0, tmp[o + i], 0, 0, 0, 0, 0.0)
    return rows[choose(st, Z, pol[x], script, rows, sc, n, D_OPT), 1]


# --- heuristics' values -----------------------------------------------------------
@njit(cache=True, inline="always")
def lowest_value(m):
    for v in range(10):
        if (m >> v) & 1 or (m >> (13 + v)) & 1 or (m >> (26 + v)) & 1 or (m >> (39 + v)) & 1:
            return v + 1
    return 0


@njit(nt.float64(A2, A1, I64, I64), cache=True, _nrt=False)
def jval(S, ip, me, r):
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


@njit(cache=True, inline="always")
def face_value(S, ip, pp, me, r, k):
    rk = RANK[k]
    if rk == 11:
        return jval(S, ip, me, r)
    if rk == 12:
        return pp[Q_Q]
    return pp[Q_K] + 0.5 * S[me, C_KPTS + r]


@njit(cache=True, inline="always")
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


@njit(cache=True, inline="always")
def row_gain(S, pp, pol, p, r, add, tmp):
    """Greedy's value of adding ``add`` power to own row r (``thresholds``
    computed first)."""
    s = float(add)
    if tmp[24 + r] == 0 and S[p, C_POW + r] + add > tmp[20 + r]:
        s += pp[Q_WIN]
    if pol == POL_DEFENSIVE and r == 0 and not occupied(S, p, 0):
        s += pp[Q_GUARD]
    return s


# --- placement ---------------------------------------------------------------------
@njit(sig(I64, ret=nt.int64), cache=True, _nrt=False)
def list_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    """Every distinct legal placement action of seat p now, then "end"."""
    q = 1 - p
    pl = pol[p]
    greedy = pl != POL_RANDOM
    fl = Z[Z_FLAGS]
    hand = S[p, C_HAND] & ~Z[Z_FORBID]
    if greedy:
        thresholds(S, p, tmp)
    n = 0
    h = hand
    while h != 0:
        low = h & -h
        h ^= low
        k = ctz(low)
        if k == BIG:
            for r in range(3):
                if not (fl >> r) & 1:
                    s = 0.0
                    if greedy:
                        if occupied(S, p, r):
                            s = pp[Q_JOKER]
                        else:
                            hh = ip[P_HP] - S[p, C_HP]
                            s = float(min(hh, ip[P_HEAL])) - pp[Q_HEALMIN]
                    setrow(rows, sc, n, n, A_BIG, k, r, 0, 0, s)
                    n += 1
        elif k == SMALL:
            r = S[q, C_BJ]
            if r >= 0:
                s = 0.0
                if greedy:
                    s = pp[Q_SMALL]
                    for j in range(2):
                        f = S[q, C_FACE + 2 * r + j]
                        if f >= 0:
                            s += face_value(S, ip, pp, q, r, f)
                setrow(rows, sc, n, n, A_SMALL, k, r, 0, 0, s)
                n += 1
        else:
            rk = RANK[k]
            su = k // 13
            if rk <= 10:
                if su < 3:
                    if not (fl >> su) & 1:
                        s = row_gain(S, pp, pl, p, su, rk, tmp) if greedy else 0.0
                        setrow(rows, sc, n, n, A_ROW, k, su, 0, 0, s)
                        n += 1
                    if rk >= 3 and not fl & F_SLOT and Z[Z_SOWN + su] != q:
                        s = pp[Q_SLOT] if Z[Z_SOWN + su] < 0 else -1.0
                        setrow(rows, sc, n, n, A_SLOT, k, su, 0, 0, s)
                        n += 1
                else:
                    for r in range(2):
                        if not (fl >> r) & 1:
                            s = row_gain(S, pp, pl, p, r, rk, tmp) if greedy else 0.0
                            setrow(rows, sc, n, n, A_ROW, k, r, 0, 0, s)
                            n += 1
            elif su < 3:
                if not (fl >> (5 + su)) & 1:
                    nf = n_faces(S, p, su)
                    s = face_value(S, ip, pp, p, su, k) if greedy else 0.0
                    if nf < 2:
                        setrow(rows, sc, n, n, A_FACE, k, su, -1, 0, s)
                        n += 1
                    else:
                        for j in range(2):
                            s2 = s - face_value(S, ip, pp, p, su, S[p, C_FACE + 2 * su + j]) \
                                if greedy else 0.0
                            setrow(rows, sc, n, n, A_FACE, k, su, j, 0, s2)
                            n += 1
            elif not fl & F_HEART:
                for x in range(2):
                    side = p if x == 0 else q
                    sign = -1.0 if side == p else 1.0
                    for r in range(3):
                        nf = n_faces(S, side, r)
                        if nf == 0:
                            continue
                        v0 = 0.0
                        v1 = 0.0
                        if greedy:
                            v0 = sign * face_value(S, ip, pp, side, r, S[side, C_FACE + 2 * r])
                            if nf == 2:
                                v1 = sign * face_value(S, ip, pp, side, r,
                                                       S[side, C_FACE + 2 * r + 1])
                        setrow(rows, sc, n, n, A_HEART, k, side * 3 + r, 0, 0, v0)
                        n += 1
                        if nf == 2:
                            setrow(rows, sc, n, n, A_HEART, k, side * 3 + r, 1, 0, v1)
                            n += 1
                            setrow(rows, sc, n, n, A_HEART, k, side * 3 + r, 2, 0, v0 + v1)
                            n += 1
    if not fl & F_PAIR:
        for s_ in range(3):
            if Z[Z_SOWN + s_] == p and Z[Z_SACT + s_] == 1 and not (fl >> s_) & 1:
                sv = RANK[Z[Z_SCARD + s_]]
                for a in range(1, (sv + 1) // 2):
                    ka = s_ * 13 + a - 1
                    kb = s_ * 13 + sv - a - 1
                    if (hand >> ka) & 1 and (hand >> kb) & 1:
                        s = row_gain(S, pp, pl, p, s_, sv, tmp) if greedy else 0.0
                        setrow(rows, sc, n, n, A_PAIR, ka, s_, kb, 0, s)
                        n += 1
    setrow(rows, sc, n, n, A_END, -1, 0, 0, 0, 0.0)
    return n + 1


@njit(sig(I64, I64), cache=True, _nrt=False)
def reply(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, x, p):
    """Seat x may answer p's big joker with its small joker (cost)."""
    cost = ip[P_REPLY]
    if not (S[x, C_HAND] >> SMALL) & 1 or (Z[Z_FORBID] >> SMALL) & 1 or S[x, C_HP] <= cost:
        return
    setrow(rows, sc, 0, 0, 0, 0, 0, 0, 0, 0.0)
    setrow(rows, sc, 1, 1, 1, 0, 0, 0, 0,
           1.0 if S[x, C_HP] > cost + pp[Q_MARGIN] else -1.0)
    i = choose(st, Z, pol[x], script, rows, sc, 2, D_OPT)
    if rows[i, 1] == 0:
        return
    r = S[p, C_BJ]
    S[x, C_HAND] &= ~bit(SMALL)
    S[x, C_GRAVE] |= bit(SMALL)
    played(masks, counts, x, SMALL)
    S[x, T_REPLY] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_SMALL, x, p, r, 1, 0, 0)
    hurt(S, Z, tr, x, cost, H_REPLY)
    joker_gone(S, Z, tr, p, True)


@njit(sig(I64, I64, I64, I64, I64), cache=True, _nrt=False)
def apply_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, t, k,
                a, b):
    q = 1 - p
    on = Z[Z_ON]
    S[p, C_HAND] &= ~bit(k)
    played(masks, counts, p, k)
    if t == A_ROW:
        to_row(S, p, a, k)
        Z[Z_FLAGS] |= F_ROW << a
        if on:
            ev(tr, Z, E_ROW, p, k, a, S[p, C_POW + a], 0, 0)
    elif t == A_SLOT:
        Z[Z_FLAGS] |= F_SLOT
        S[p, T_SLOTS] += 1
        if on:
            ev(tr, Z, E_SLOT, p, k, a, 0, 0, 0)
        if Z[Z_SOWN + a] == p:
            leave_slot(S, Z, tr, ip, a)
        Z[Z_SOWN + a] = p
        Z[Z_SCARD + a] = k
        Z[Z_SACT + a] = 0
    elif t == A_PAIR:
        S[p, C_HAND] &= ~bit(b)
        played(masks, counts, p, b)
        to_row(S, p, a, k)
        to_row(S, p, a, b)
        Z[Z_FLAGS] |= (F_ROW << a) | F_PAIR
        S[p, T_PAIRS] += 1
        if on:
            ev(tr, Z, E_PAIR, p, k, b, a, S[p, C_POW + a], 0)
    elif t == A_FACE:
        old = -1
        if b >= 0:
            old = S[p, C_FACE + 2 * a + b]
        if on:
            ev(tr, Z, E_FACE, p, k, a, old, 0, 0)
        if b >= 0:
            face_gone(S, Z, tr, p, a, b)
        j = 0 if S[p, C_FACE + 2 * a] < 0 else 1
        S[p, C_FACE + 2 * a + j] = k
        S[p, C_FACT + 2 * a + j] = 0
        Z[Z_FLAGS] |= F_FACE << a
        S[p, T_JPL + RANK[k] - 11] += 1
    elif t == A_HEART:
        S[p, C_GRAVE] |= bit(k)
        Z[Z_FLAGS] |= F_HEART
        S[p, T_HEART] += 1
        side = a // 3
        r = a % 3
        if on:
            ev(tr, Z, E_HEART, p, k, side, r, b, 0)
        if b == 2:
            face_gone(S, Z, tr, side, r, 0)
            face_gone(S, Z, tr, side, r, 0)
        else:
            face_gone(S, Z, tr, side, r, b)
    elif t == A_BIG:
        Z[Z_FLAGS] |= F_ROW << a
        S[p, T_BIG] += 1
        if occupied(S, p, a):
            S[p, C_BJ] = a
            if on:
                ev(tr, Z, E_BIG, p, a, 1, 0, 0, 0)
            reply(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, q, p)
        else:
            S[p, C_GRAVE] |= bit(BIG)
            S[p, T_JHEAL] += 1
            if on:
                ev(tr, Z, E_BIG, p, a, 0, 0, 0, 0)
            heal(S, Z, tr, p, ip[P_HEAL], ip[P_HP])
    else:  # A_SMALL
        S[p, C_GRAVE] |= bit(k)
        S[p, T_SMALL] += 1
        if on:
            ev(tr, Z, E_SMALL, p, q, S[q, C_BJ], 0, 0, 0)
        joker_gone(S, Z, tr, q, True)
    check_end(S, Z)


@njit(sig(I64), cache=True, _nrt=False)
def placement(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    while True:
        n = list_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
        i = choose(st, Z, pol[p], script, rows, sc, n, D_PLACE)
        t = rows[i, 1]
        if t == A_END:
            return
        apply_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, t,
                    rows[i, 2], rows[i, 3], rows[i, 4])
        if Z[Z_DONE]:
            return


# --- turn start: activation, J, K -------------------------------------------------------
@njit(nt.void(A2, A1, A2, I64), cache=True, _nrt=False)
def activate(S, Z, tr, p):
    n = 0
    for j in range(6):
        if S[p, C_FACE + j] >= 0 and S[p, C_FACT + j] == 0:
            S[p, C_FACT + j] = 1
            n += 1
    for s in range(3):
        if Z[Z_SOWN + s] == p and Z[Z_SACT + s] == 0:
            Z[Z_SACT + s] = 1
            n += 1
    if n > 0 and Z[Z_ON]:
        ev(tr, Z, E_ACT, p, n, 0, 0, 0, 0)


@njit(sig(I64, I64), cache=True, _nrt=False)
def j_effect(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r):
    """The J of p's row r: the lowest normal card of row r on each side
    goes; each side takes its own card's value, or both take the one
    card's value."""
    q = 1 - p
    kp = -1
    kq = -1
    n = low_cands(S[p, C_ROW + r], tmp, 8)
    if n > 0:
        kp = pick_card(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p,
                       8, n)
    n = low_cands(S[q, C_ROW + r], tmp, 8)
    if n > 0:
        kq = pick_card(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, q,
                       8, n)
    if Z[Z_ON]:
        ev(tr, Z, E_JFX, p, r, kp, kq, 0, 0)
    if kp >= 0:
        leave_row(S, Z, tr, ip, p, r, kp)
    if kq >= 0:
        leave_row(S, Z, tr, ip, q, r, kq)
    if kp >= 0 and kq >= 0:
        hurt(S, Z, tr, p, RANK[kp], H_J)
        hurt(S, Z, tr, q, RANK[kq], H_J)
    elif kp >= 0 or kq >= 0:
        v = RANK[kp] if kp >= 0 else RANK[kq]
        hurt(S, Z, tr, p, v, H_J)
        hurt(S, Z, tr, q, v, H_J)


@njit(sig(I64, I64), cache=True, _nrt=False)
def k_option(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r):
    pts = S[p, C_KPTS + r]
    avail = S[p, C_GRAVE] & ~Z[Z_FORBID]
    setrow(rows, sc, 0, 0, 0, -1, 0, 0, 0, 0.0)
    n = 1
    if pts <= 10:
        k = r * 13 + pts - 1
        if (avail >> k) & 1:
            setrow(rows, sc, n, 1, 1, k, 0, 0, 0, 1.0 + pts)
            n += 1
    if pts >= ip[P_K2]:
        for v in range(1, 11):
            k = r * 13 + v - 1
            if (avail >> k) & 1:
                setrow(rows, sc, n, 2, 2, k, 0, 0, 0, v - pp[Q_KMIN] + 0.5)
                n += 1
    if n == 1:
        return
    i = choose(st, Z, pol[p], script, rows, sc, n, D_OPT)
    opt = rows[i, 1]
    if opt == 0:
        return
    k = rows[i, 2]
    S[p, C_KPTS + r] = 0
    S[p, T_KF] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_KOPT, p, r, opt, k, pts, 0)
    if opt == 2:
        kk = r * 13 + 12
        face_gone(S, Z, tr, p, r, 0 if S[p, C_FACE + 2 * r] == kk else 1)
        Z[Z_NOATK] |= np.int64(1) << r
    S[p, C_GRAVE] &= ~bit(k)
    to_row(S, p, r, k)
    played(masks, counts, p, k)


# --- preparation and draw -------------------------------------------------------------
@njit(cache=True, inline="always")
def keep_score(k, forbid):
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


@njit(sig(I64), cache=True, _nrt=False)
def prepare(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    """Preparation: with hand_trigger cards or more, discard down to
    hand_keep (to the graveyard, no passive)."""
    hand = S[p, C_HAND]
    n = popc(hand)
    if n < ip[P_TRIG] or n <= ip[P_KEEP]:
        return
    m = n - ip[P_KEEP]
    i = 0
    h = hand
    while h != 0:
        low = h & -h
        h ^= low
        tmp[i] = ctz(low)
        i += 1
    if pol[p] == POL_RANDOM:
        for i in range(m):              # a uniform subset of size m
            j = i + below(st, n - i)
            t = tmp[i]
            tmp[i] = tmp[j]
            tmp[j] = t
    else:
        for i in range(m):              # the m lowest keep scores, ties uniform
            best = i
            bv = keep_score(tmp[i], Z[Z_FORBID])
            ties = 1
            for j in range(i + 1, n):
                v = keep_score(tmp[j], Z[Z_FORBID])
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
    for i in range(m):
        k = tmp[i]
        S[p, C_HAND] &= ~bit(k)
        S[p, C_GRAVE] |= bit(k)
        if Z[Z_ON]:
            ev(tr, Z, E_DISCARD, p, k, 0, 0, 0, 0)


@njit(nt.int64(A2, A1, A2, U3, A2, A2, I64, B1), cache=True, _nrt=False)
def draw(S, Z, pile, masks, counts, tr, p, deal):
    n = S[p, C_DECKN]
    if n == 0:
        if Z[Z_ON]:
            ev(tr, Z, E_NODRAW, p, 0, 0, 0, 0, 0)
        return -1
    n -= 1
    k = pile[p, n]
    S[p, C_DECKN] = n
    S[p, C_DECKM] &= ~bit(k)
    S[p, C_HAND] |= bit(k)
    setbit(masks, p, 0, k)
    counts[0, k] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, k, 0, 0, 0, 0)
    return k


# --- attack --------------------------------------------------------------------------
@njit(sig(I64, ret=nt.int64), cache=True, _nrt=False)
def list_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    q = 1 - p
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
                setrow(rows, sc, n, key, r, t, 0, 0, 0, float(pw))
                n += 1
                if bj:
                    setrow(rows, sc, n, key, r, t, 1, 0, 0, pw + ip[P_BONUS] - pp[Q_SPEND])
                    n += 1
                continue
            m = S[q, C_ROW + t]
            mult = ip[P_MULT] if r == 0 and t == 2 else 1
            if pw > S[q, C_POW + t]:
                lv = lowest_value(m)
                s = float(lv * mult + ip[P_PAS]) if lv > 0 else 0.0
                setrow(rows, sc, n, key, r, t, 0, 0, 0, s)
                n += 1
            if bj:
                cnt = popc(m)
                s = -pp[Q_SPEND]
                if cnt > 1:
                    high_cands(m, tmp, 8)
                    s += float((S[q, C_POW + t] - RANK[tmp[8]]) * mult + (cnt - 1) * ip[P_PAS])
                setrow(rows, sc, n, key, r, t, 1, 0, 0, s)
                n += 1
    setrow(rows, sc, n, 99, -1, -1, 0, 0, 0, 0.0)
    return n + 1


@njit(sig(I64, I64, I64, ret=nt.int64), cache=True, _nrt=False)
def fight_or_yield(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, x, r,
                   attacker):
    """Seat x's clash decision: 1 fight (lay down), 0 yield."""
    setrow(rows, sc, 0, 0, 0, 0, 0, 0, 0, 0.0)
    setrow(rows, sc, 1, 1, 1, 0, 0, 0, 0, 1.0)
    i = choose(st, Z, pol[x], script, rows, sc, 2, D_OPT)
    f = rows[i, 1]
    if Z[Z_ON]:
        ev(tr, Z, E_CLASHCH, x, f, attacker, 0, 0, 0)
    return f


@njit(nt.void(A2, A1, U3, A2, A2, I64, I64), cache=True, _nrt=False)
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


@njit(sig(I64, I64, I64, ret=nt.int64), cache=True, _nrt=False)
def clash(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r, t):
    """p's joker row r against q's joker row t: 0 the attacker lost its
    joker, 1 the defender did, 2 both jokers went (equal totals)."""
    q = 1 - p
    on = Z[Z_ON]
    Z[Z_CLASH] += 1
    if on:
        ev(tr, Z, E_CLASH, p, r, t, 0, 0, 0)
    res = 0
    if fight_or_yield(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p,
                      r, 1) == 0:
        res = 0
    elif fight_or_yield(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                        q, t, 0) == 0:
        res = 1
    else:
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
    hurt(S, Z, tr, loser, ip[P_CLASH], H_CLASH)
    return res


@njit(sig(I64, I64, I64), cache=True, _nrt=False)
def q_effect(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r, nd):
    """The Q of p's attacking row r after an attack destroyed the cards
    tmp[16:16+nd]: options 1, 2 or nothing (the owner picks which destroyed
    card counts as part of the concrete choice)."""
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
                    setrow(rows, sc, n, 1, 1, d, -1, k, r, 1.0 + RANK[k])
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
                                       float(v - vl - ip[P_PAS]) - 0.5)
                                n += 1
    if n == 1:
        return
    i = choose(st, Z, pol[p], script, rows, sc, n, D_OPT)
    opt = rows[i, 1]
    if opt == 0:
        return
    d = rows[i, 2]
    lo = rows[i, 3]
    k = rows[i, 4]
    dr = rows[i, 5]
    S[p, T_QF] += 1
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


@njit(sig(I64, I64, I64, I64), cache=True, _nrt=False)
def attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r, t, mode):
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
        S[p, T_DIRECT + r] += dmg
        hurt(S, Z, tr, q, dmg, H_DIRECT)
        check_end(S, Z)
        return
    mult = ip[P_MULT] if r == 0 and t == 2 else 1
    nd = 0
    if mode == 0:
        n = low_cands(S[q, C_ROW + t], tmp, 8)
        if n > 0:
            k = pick_card(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                          q, 8, n)
            tmp[16] = k
            nd = 1
            leave_row(S, Z, tr, ip, q, t, k)
            hurt(S, Z, tr, q, RANK[k] * mult, H_ATTACK)
    else:
        if S[q, C_BJ] == t:
            res = clash(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                        p, r, t)
            if check_end(S, Z) or res != 1:
                return
        m = S[q, C_ROW + t]
        S[p, T_JEFF] += 1
        joker_gone(S, Z, tr, p, False)
        if m != 0:
            n = high_cands(m, tmp, 8)
            keep = pick_card(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script,
                             tmp, q, 8, n)
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
    Z[Z_DESTR] += nd
    if check_end(S, Z) or nd == 0:
        return
    if face_active(S, p, r, 12):
        q_effect(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r, nd)
        check_end(S, Z)


@njit(sig(I64), cache=True, _nrt=False)
def attack_phase(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    if Z[Z_FIRST]:
        if Z[Z_ON]:
            ev(tr, Z, E_NOATTACK, p, 1, 0, 0, 0, 0)
        return
    n = list_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
    i = choose(st, Z, pol[p], script, rows, sc, n, D_ATTACK)
    r = rows[i, 1]
    if r < 0:
        if Z[Z_ON]:
            ev(tr, Z, E_NOATTACK, p, 0 if n > 1 else 2, 0, 0, 0, 0)
        return
    attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r,
           rows[i, 2], rows[i, 3])


# --- a turn and a game ------------------------------------------------------------------
@njit(sig(I64), cache=True, _nrt=False)
def begin(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    """Start of p's turn: its face and extra-zone cards become active, its
    J effects fire (rows 1 to 3), then its K options (rows 1 to 3)."""
    Z[Z_FLAGS] = 0
    Z[Z_NOATK] = 0
    activate(S, Z, tr, p)
    for r in range(3):
        if face_active(S, p, r, 11):
            j_effect(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r)
            if check_end(S, Z):
                return
    for r in range(3):
        if S[p, C_KPTS + r] > 0 and face_active(S, p, r, 13):
            k_option(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p, r)


@njit(sig(I64), cache=True, _nrt=False)
def turn(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p):
    begin(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
    if Z[Z_DONE]:
        return
    prepare(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
    for _ in range(ip[P_DRAW]):
        if draw(S, Z, pile, masks, counts, tr, p, False) < 0:
            break
    placement(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)
    if Z[Z_DONE]:
        return
    attack_phase(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, p)


@njit(nt.int64(A2, A1, A2, A1), cache=True, _nrt=False)
def broken_invariants(S, Z, pile, ip):
    """Check mode: every card of each seat's deck is in exactly one zone
    (deck, hand, rows, face slots, big joker, extra slots, graveyard: 108
    cards in all when nothing is removed), the deck order matches the deck
    mask, row powers match their cards, rows hold only cards of their suits
    (and ♥ in rows 1-2), face slots only J/Q/K of their row's suit, HP is at
    most hp. Returns the number of broken invariants."""
    e = 0
    full = np.int64(0)
    for i in range(Z[Z_NC]):
        full |= bit(pile[2, i])
    for p in range(2):
        acc = np.int64(0)
        tot = 0
        m = S[p, C_HAND]
        acc |= m
        tot += popc(m)
        m = S[p, C_GRAVE]
        acc |= m
        tot += popc(m)
        m = S[p, C_DECKM]
        acc |= m
        tot += popc(m)
        dm = np.int64(0)
        for i in range(S[p, C_DECKN]):
            dm |= bit(pile[p, i])
        if dm != S[p, C_DECKM] or popc(dm) != S[p, C_DECKN]:
            e += 1
        for r in range(3):
            m = S[p, C_ROW + r]
            acc |= m
            tot += popc(m)
            if m & ~LAY[r] != 0:
                e += 1
            pw = 0
            for k in range(52):
                if (m >> k) & 1:
                    pw += RANK[k]
            if pw != S[p, C_POW + r]:
                e += 1
            for j in range(2):
                f = S[p, C_FACE + 2 * r + j]
                if f >= 0:
                    if f // 13 != r or RANK[f] < 11:
                        e += 1
                    acc |= bit(f)
                    tot += 1
            if S[p, C_FACE + 2 * r] < 0 and S[p, C_FACE + 2 * r + 1] >= 0:
                e += 1
        if S[p, C_BJ] >= 0:
            acc |= bit(BIG)
            tot += 1
        for s in range(3):
            if Z[Z_SOWN + s] == p:
                acc |= bit(Z[Z_SCARD + s])
                tot += 1
        if acc != full or tot != popc(full):
            e += 1
        if S[p, C_HP] > ip[P_HP]:
            e += 1
    return e


@njit(cache=True)
def fill_deck(ban, pile, Z):
    """The unshuffled deck in pile[2, :n] and the forbidden mask (per batch)."""
    n = 0
    fb = np.int64(0)
    for k in range(54):
        if ban[k] != BAN_REMOVE:
            pile[2, n] = k
            n += 1
        if ban[k] == BAN_FORBID:
            fb |= bit(k)
    Z[Z_NC] = n
    Z[Z_FORBID] = fb


@njit(nt.void(U1, A2, A1, A2, U3, A2, A2, A1, B1), cache=True, _nrt=False)
def start(st, S, Z, pile, masks, counts, tr, ip, on):
    """Set up a game: shuffle seat 0's deck, then seat 1's; each draws
    start_hand (seat 0 first)."""
    n = Z[Z_NC]
    for j in range(Z_NC):
        if j != Z_FORBID:
            Z[j] = 0
    for j in range(Z_NC + 1, Z.shape[0]):
        Z[j] = 0
    Z[Z_ON] = 1 if on else 0
    for s in range(3):
        Z[Z_SOWN + s] = -1
        Z[Z_SCARD + s] = -1
    for p in range(2):
        m = np.int64(0)
        for i in range(n):
            pile[p, i] = pile[2, i]
            m |= bit(pile[2, i])
        shuffle(st, pile[p], n)
        for j in range(S.shape[1]):
            S[p, j] = 0
        S[p, C_HP] = ip[P_HP]
        S[p, C_DECKM] = m
        S[p, C_DECKN] = n
        S[p, C_BJ] = -1
        for j in range(6):
            S[p, C_FACE + j] = -1
        for w in range(masks.shape[2]):
            masks[p, 0, w] = 0
            masks[p, 1, w] = 0
    for p in range(2):
        for _ in range(ip[P_START]):
            draw(S, Z, pile, masks, counts, tr, p, True)


@njit(nt.void(A2, A1, A2, I64, I64, I64, I64, A1, A2), cache=True, _nrt=False)
def finish(S, Z, tr, winner, end, turns, rounds, grow, srow):
    if Z[Z_ON]:
        ev(tr, Z, E_END, winner, end, turns, rounds, 0, 0)
    grow[G_WINNER] = winner
    grow[G_TURNS] = turns
    grow[G_ROUNDS] = rounds
    grow[G_END] = end
    grow[G_DEC] = Z[Z_DEC]
    grow[G_ATT] = Z[Z_ATT]
    grow[G_DESTR] = Z[Z_DESTR]
    grow[G_CLASH] = Z[Z_CLASH]
    for q in range(2):
        S[q, T_HP] = S[q, C_HP]
        for j in range(NSEAT):
            srow[q, j] = S[q, C_STATS + j]


@njit(sig(I64, I64, B1, A1, A2, ret=nt.int64), cache=True, _nrt=False)
def play_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, cur, turns,
            check, grow, srow):
    """Play from the start of seat cur's turn (after ``turns`` turns) to the
    end of the game; returns the number of broken invariants (check mode)."""
    maxt = ip[P_MAXT]
    stale = 2 * ip[P_STALE]
    errors = 0
    end = END_CAP
    while turns < maxt:
        turns += 1
        Z[Z_TURN] = turns
        Z[Z_FIRST] = 1 if turns == 1 else 0
        Z[Z_HPCH] = 0
        if Z[Z_ON]:
            ev(tr, Z, E_TURN, cur, (turns + 1) // 2, S[0, C_HP], S[1, C_HP],
               popc(S[cur, C_HAND]), 0)
        turn(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, cur)
        if check:
            errors += broken_invariants(S, Z, pile, ip)
        if Z[Z_DONE]:
            end = END_HP
            break
        if Z[Z_HPCH]:
            Z[Z_STALE] = 0
        else:
            Z[Z_STALE] += 1
            if Z[Z_STALE] >= stale:
                end = END_STALE
                break
        cur = 1 - cur
    winner = -1
    if end == END_HP:
        if S[0, C_HP] <= 0 and S[1, C_HP] <= 0:
            end = END_DRAW
        else:
            winner = 0 if S[1, C_HP] <= 0 else 1
    finish(S, Z, tr, winner, end, turns, (turns + 1) // 2, grow, srow)
    return errors


@njit(cache=True, _nrt=False)
def play_game(seed, game, pol, ip, pp, st, S, Z, pile, rows, sc, script, tmp, games, seats,
              gmasks, g, bcounts, b, tr, on, check):
    st[0] = game_state(seed, game)
    masks = gmasks[g]
    counts = bcounts[b]
    start(st, S, Z, pile, masks, counts, tr, ip, on)
    return play_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, 0, 0,
                   check, games[g], seats[g])


def work():
    """One thread's workspace (allocated in Python: the kernels allocate nothing)."""
    return (np.zeros(1, np.uint64), np.zeros((2, NS), np.int64), np.zeros(NZ, np.int64),
            np.zeros((3, 54), np.int64), np.zeros((NO, 6), np.int64), np.zeros(NO, np.float64),
            np.zeros((NSCRIPT, 6), np.int64), np.zeros(64, np.int64))


def run_batch(b0, b1, seed, start_, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start_, n_games, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, *work(), np.zeros((1, 8), np.int64))


@njit(cache=True, nogil=True)
def play_blocks(b0, b1, seed, start_, n_games, pol, ip, pp, ban, check, games, seats, masks,
                counts, errors, st, S, Z, pile, rows, sc, script, tmp, tr):
    fill_deck(ban, pile, Z)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = play_game(seed, start_ + g, pol, ip, pp, st, S, Z, pile, rows, sc, script,
                                  tmp, games, seats, masks, g, counts, b, tr, False, check)


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    return _trace_one(seed, game, pol, ip, pp, ban, games, seats, masks, counts, tr, *work())


@njit(cache=True)
def _trace_one(seed, game, pol, ip, pp, ban, games, seats, masks, counts, tr, st, S, Z, pile,
               rows, sc, script, tmp):
    fill_deck(ban, pile, Z)
    play_game(seed, game, pol, ip, pp, st, S, Z, pile, rows, sc, script, tmp, games, seats, masks,
              0, counts, 0, tr, True, False)
    return Z[Z_TR]


# --- scenarios (scenario.py): one step of a set-up position ----------------------------------
M_DEAL, M_TURN, M_BEGIN, M_PLACE, M_ATTACK, M_CHECK, M_TARGETS, M_LIST, M_PICK, M_PLAY, \
    M_FILL, M_ALIST, M_APICK = range(13)


@njit(cache=True)
def entry(mode, a, b, seed, game, st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc,
          script, tmp, ban, grow, srow):
    """Scenario entry: mode M_* on seat a (b: a row, or a turn count)."""
    if mode == M_FILL:
        fill_deck(ban, pile, Z)
        return 0
    if mode == M_DEAL:
        st[0] = game_state(seed, game)
        start(st, S, Z, pile, masks, counts, tr, ip, True)
        return 0
    if mode == M_TURN:
        turn(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return Z[Z_DONE]
    if mode == M_BEGIN:
        begin(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return Z[Z_DONE]
    if mode == M_PLACE:
        placement(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return Z[Z_DONE]
    if mode == M_ATTACK:
        attack_phase(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return Z[Z_DONE]
    if mode == M_CHECK:
        return broken_invariants(S, Z, pile, ip)
    if mode == M_TARGETS:
        return targets(S, 1 - a, b, tmp)
    if mode == M_LIST:
        return list_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                          a)
    if mode == M_PICK:
        n = list_place(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return choose(st, Z, pol[a], script, rows, sc, n, D_PLACE)
    if mode == M_ALIST:
        return list_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp,
                           a)
    if mode == M_APICK:
        n = list_attack(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a)
        return choose(st, Z, pol[a], script, rows, sc, n, D_ATTACK)
    if mode == M_PLAY:
        return play_on(st, S, Z, pile, masks, counts, tr, ip, pp, pol, rows, sc, script, tmp, a,
                       b, True, grow, srow)
    return -1


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one}

jit.kernel_cache_end()
