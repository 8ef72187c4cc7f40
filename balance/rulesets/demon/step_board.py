"""Demon Faction's rules, the board part: the parameter and record slots,
the card tables, the numba types of the game steps' arguments, the board
helpers (rows, face cards, targets by the attack table), HP, cards leaving
the field and the rows of a choice list (``setrow``).

Every other rule module (``policies``, ``step_fight``, ``step_turn``,
``step_scenario``, ``step``) imports from here and nothing here imports
them: this is the bottom of the rules, above the state (``state``,
``state_bits``).

Arguments: a game step takes the engine's tuples and the records, ``(s, c,
masks, counts, tr, ...)`` (``s`` the ``State``, ``c`` the ``Ctx``:
``state``; ``BASE`` their numba types, ``sig`` a signature over them), or
the few arrays it needs when it needs few (``hurt``, ``leave_row``,
``list_place``, ``draw``).
"""

import numpy as np
from numba import njit
from balance.core.compiled import inlined, ir_inlined_nrt
from numba import types as nt

from ...core import jit
from ...core.kernel import ev, setbit  # before kernel_cache_begin
from ...core.layout import index
from .layout import (C_BJ, C_FACE, C_FACT, C_GRAVE, C_HP, C_KPTS, C_POW, C_ROW, C_STATS,
                     E_FACEGONE, E_GONE, E_HP, E_JOKERGONE, GAME_COLUMNS, H_HEAL, H_PASSIVE, ST,
                     Z_DONE, Z_HPCH, Z_LASTC, Z_ON, Z_SACT, Z_SCARD, Z_SOWN, Ctx, State)
from .rules import BIG, IDX
from .state_bits import bit

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

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

GI = index(GAME_COLUMNS)
G_WINNER, G_TURNS, G_ROUNDS, G_END = GI["winner"], GI["turns"], GI["rounds"], GI["end_reason"]
G_DEC, G_ATT, G_DESTR, G_CLASH = GI["decisions"], GI["attacks"], GI["destroyed"], GI["clashes"]
G_ECAUSE = GI["end_cause"]
T_TAKEN = ST["damage_taken"]
T_BYCAUSE = ST["attack_taken"]      # + cause (CAUSES order)
T_HEALED = ST["healed"]
T_ATK = ST["attacks_row1"]          # + row
T_HITS = ST["hits_row1"]            # + row
T_DESTR = ST["destroyed_row1"]      # + row
T_DHITS = ST["direct_hits_row1"]    # + row
T_DIRECT = ST["direct_row1"]        # + row
T_JPL = ST["j_placed"]              # J, Q, K consecutive
T_HEART = ST["heart_faces"]
T_JF = ST["j_fired"]
T_QCH = ST["q_chances"]
T_QF = ST["q_fired"]
T_QOPT = ST["q_opt1"]               # + option - 1
T_KCH = ST["k_chances"]
T_KF = ST["k_fired"]
T_KOPT = ST["k_opt1"]               # + option - 1
T_JNORM = ST["joker_normal"]
T_CYIELD = ST["clash_yield"]
T_CLAY = ST["clash_lay"]
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
assert ST["passive_taken"] == T_BYCAUSE + H_PASSIVE and ST["reply_taken"] == T_BYCAUSE + 5
assert ST["q_opt2"] == T_QOPT + 1 and ST["k_opt2"] == T_KOPT + 1

RANK = np.array([k % 13 + 1 for k in range(52)] + [0, 0], np.int64)
NORMAL = np.array([sum(1 << (s * 13 + v) for v in range(10)) for s in range(4)], np.int64)
LAY = np.array([NORMAL[0] | NORMAL[3], NORMAL[1] | NORMAL[3], NORMAL[2]], np.int64)

I64 = nt.int64
A1, A2 = nt.int64[::1], nt.int64[:, ::1]
F1, U1, U3 = nt.float64[::1], nt.uint64[::1], nt.uint64[:, :, ::1]
F2 = nt.float64[:, ::1]
B1 = nt.boolean
# the engine's tuples (layout.State, layout.Ctx) as numba types them; Ctx.pp is
# float64[2, K]: row p holds seat p's float policy parameters
STATE = nt.NamedTuple((A2, A1, A2, U1, A2, F1), State)
CTX = nt.NamedTuple((A1, I64, A1, F2, A1, A1, A2, F1, A2, A1), Ctx)
# the arguments every game step takes, in this order: the state, the
# context and the records (masks, counts, trace)
BASE = (STATE, CTX, U3, A2, A2)


def sig(*extra, ret=nt.void):
    return ret(*BASE, *extra)


# --- the board ---------------------------------------------------------------
@inlined
def occupied(S, q, r):
    return S[q, C_ROW + r] != 0 or S[q, C_BJ] == r


@inlined
def face_active(S, q, r, rank):
    k = r * 13 + rank - 1
    return ((S[q, C_FACE + 2 * r] == k and S[q, C_FACT + 2 * r] == 1)
            or (S[q, C_FACE + 2 * r + 1] == k and S[q, C_FACT + 2 * r + 1] == 1))


@inlined
def n_faces(S, q, r):
    return np.int64(S[q, C_FACE + 2 * r] >= 0) + np.int64(S[q, C_FACE + 2 * r + 1] >= 0)


@inlined
def played(masks, counts, q, k):
    setbit(masks, q, 1, k)
    counts[1, k] += 1


@inlined
def check_end(S, Z):
    if S[0, C_HP] <= 0 or S[1, C_HP] <= 0:
        Z[Z_DONE] = 1
    return Z[Z_DONE] != 0


@inlined
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


@inlined
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


@inlined
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
@njit(nt.void(A2, A1, A2, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def hurt(S, Z, tr, q, amount, cause):
    if amount <= 0:
        return
    S[q, C_HP] -= amount
    S[q, T_TAKEN] += amount
    S[q, T_BYCAUSE + cause] += amount
    Z[Z_HPCH] = 1
    Z[Z_LASTC] = cause + 1
    if Z[Z_ON]:
        ev(tr, Z, E_HP, q, -amount, S[q, C_HP], cause, 0, 0)


@inlined
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
@njit(nt.void(A2, A1, A2, A1, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(nt.void(A2, A1, A2, A1, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(nt.void(A2, A1, A2, I64, I64, I64), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(nt.void(A2, A1, A2, I64, B1), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@inlined
def to_row(S, q, r, k):
    S[q, C_ROW + r] |= bit(k)
    S[q, C_POW + r] += RANK[k]


# --- choice rows ------------------------------------------------------------------
@ir_inlined_nrt
def setrow(rows, sc, n, key, a, b, c, d, e, score):
    rows[n, 0] = key
    rows[n, 1] = a
    rows[n, 2] = b
    rows[n, 3] = c
    rows[n, 4] = d
    rows[n, 5] = e
    sc[n] = score


jit.kernel_cache_end()
