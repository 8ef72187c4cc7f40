"""Characters and their skills: a character (v1/v3) or general (v2)
entering play (``init_general``, every version: it also gives v3's lives,
shield and skill), the v1/v2 multipliers (``mult``; v3's are
``step_v3.mult3``), who may call Judgment, control and its infighting, the
10's combined skill (v2), playing a run (v1/v2) and a seat leaving play
(``eliminate``, every version).

The v1/v2 deaths, Judgment and the exchange are in ``step_exchange``: a
v1 rogue's revive is a decision (``policies.decide``).
"""
import numpy as np
from balance.core.compiled import inlined, internal, ir_inlined_nrt

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ..layout import (C_ALIVE, C_BILOC, C_BRESET, C_BTT, C_BTU, C_COMB, C_DECOYS, C_EXT, C_FB,
                      C_FL, C_FREE, C_FT, C_G, C_GEN, C_HP, C_IMM, C_KEY, C_MAXHP, C_MINES, C_OUT,
                      C_PEND, C_POUCH, C_RANK, C_REV, C_REVFREE, C_RM, C_RMANY, C_SHB, C_SKILLS,
                      C_STORM, C_SUIT, C_TB, C_USES, C_X, E_COMBINED, E_EFFECT_END, E_OUT, P_BTU,
                      P_C7, P_C8, P_DECOYS, P_FREE, P_GEXT, P_GMINES, P_KILLER, P_KING, P_PIP,
                      P_POUCHES, P_REV, P_REVFREE, P_SEVEN, P_STORMS, P_USES, Z_JOINT, Z_ON, Z_P,
                      Z_TURN, Z_V)
from ..rules import T_DMG
from .cards import discard_hand, remove_play, sat_mul
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@ir_inlined_nrt
def ident_key(ident, tb):
    """Turn-order key: rank 10>9>8>7, then ♠>♥>♣>♦, exact ties by ``tb``."""
    return ((ident // 4) * 4 + (3 - ident % 4)) * 8 + tb


@internal
def init_general(S, Z, ip, p):
    """Make identity card number S[p, C_GEN] p's active character."""
    ident = S[p, C_G + S[p, C_GEN]]
    r = ident // 4 + 7
    S[p, C_RANK] = r
    S[p, C_SUIT] = ident % 4
    S[p, C_MAXHP] = r * ip[P_PIP]
    S[p, C_HP] = S[p, C_MAXHP]
    S[p, C_KEY] = ident_key(ident, S[p, C_TB])
    S[p, C_REV] = 0
    S[p, C_REVFREE] = 0
    S[p, C_BILOC] = 0
    S[p, C_BRESET] = 0
    S[p, C_DECOYS] = 0
    S[p, C_USES] = 0
    S[p, C_FREE] = 0
    S[p, C_IMM] = 0
    S[p, C_COMB] = 0
    S[p, C_X] = 0
    if VARIANT == 3:
        # v3: one life each of storm god and pouch, the character's shield and skill
        S[p, C_STORM] = ip[P_STORMS]
        S[p, C_POUCH] = ip[P_POUCHES]
        S[p, C_SHB] = np.int64(1) << (r - 7)
        S[p, C_BTU] = ip[P_BTU] if r == 8 else 0
        S[p, C_EXT] = ip[P_GEXT] if r == 7 else 0
        S[p, C_MINES] = ip[P_GMINES] if r == 7 else 0
    elif Z[Z_V] == 1:
        if r == 8:
            S[p, C_REV] = ip[P_REV]
            S[p, C_REVFREE] = ip[P_REVFREE]
    elif r == 8:
        if Z[Z_P] == 2:
            S[p, C_BILOC] = 1
            S[p, C_BRESET] = 1
            S[p, C_DECOYS] = ip[P_DECOYS]
        else:
            S[p, C_USES] = ip[P_USES]
            S[p, C_FREE] = ip[P_FREE]


@ir_inlined_nrt
def mult(S, Z, ip, p):
    """Product of every multiplier that applies to p's next damaging play."""
    r = S[p, C_RANK]
    if Z[Z_V] == 1:
        if r == 7:
            return ip[P_KILLER]
        if r == 10:
            return ip[P_KING]
        return np.int64(1)
    m = np.int64(1)
    if r == 7:
        m = sat_mul(m, ip[P_SEVEN])
    if S[p, C_BILOC] == 1:
        m = sat_mul(m, 1 + S[p, C_DECOYS])
    if S[p, C_X] > 0:
        m = sat_mul(m, ip[P_SEVEN])
    return m


@ir_inlined_nrt
def can_judge(S, Z, p):
    return Z[Z_V] == 2 and (S[p, C_RANK] == 9 or S[p, C_COMB] == 1)


@ir_inlined_nrt
def forced_target(S, p):
    """The seat p must target (control 內斗), or -1."""
    if S[p, C_FL] > 0:
        t = S[p, C_FT]
        if t >= 0 and S[t, C_ALIVE] == 1:
            return t
    return -1


@internal
def combined(S, Z, tr, ip, p):
    """v2 10: the first play with an A gives the combined skill 合体技能."""
    S[p, C_COMB] = 1
    S[p, C_X] = ip[P_C7]
    if Z[Z_P] == 2:
        if ip[P_DECOYS] > 0:
            S[p, C_BILOC] = 1
            S[p, C_BRESET] = 0
            S[p, C_DECOYS] = ip[P_DECOYS]
    else:
        S[p, C_USES] = ip[P_C8]
        S[p, C_FREE] = ip[P_C8]
    if Z[Z_ON]:
        ev(tr, Z, E_COMBINED, p, S[p, C_X], S[p, C_DECOYS], S[p, C_USES], 0, 0)


@ir_inlined_nrt
def play_cards(S, pile, Z, masks, counts, ip, PT, p, k):
    """Remove run k from p's hand; return its damage with p's multipliers
    (consuming a one-play multiplier) and trigger the 10's combined skill."""
    base = PT[k, T_DMG]
    dmg = sat_mul(base, mult(S, Z, ip, p))
    if S[p, C_X] > 0 and base > 0:
        S[p, C_X] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, k)
    return dmg


@ir_inlined_nrt
def use_eight(S, p):
    S[p, C_USES] -= 1
    if S[p, C_FREE] > 0:
        S[p, C_FREE] -= 1
    S[p, C_SKILLS] += 1


@internal
def clear_effects(S, Z, tr, t):
    """t's general leaves: its immunity ends, and so does any control it is
    part of (as controller or as one of the two infighters)."""
    S[t, C_IMM] = 0
    for q in range(Z[Z_P]):
        if q == t or S[q, C_FB] == t or S[q, C_FT] == t:
            if S[q, C_FL] > 0:
                if Z[Z_ON]:
                    ev(tr, Z, E_EFFECT_END, q, 0, 0, 0, 0, 0)
            S[q, C_FL] = 0
            S[q, C_FT] = -1
            S[q, C_FB] = -1


@inlined
def rounds_end(S, Z, tr, p):
    """p's turn starts (v1/v2): one round of each effect on p ends. A round
    runs from the skill's use until the target's next turn starts, so an
    effect of N rounds ends at the N-th of the target's turn starts after
    its use, before that turn's play: the 8's immunity (shield, control; the
    10's borrowed ones) counts the 8's turn starts, each infighter's bond its
    own. (v3's dragon and birds: ``step_v3.turn_start3``.)"""
    if S[p, C_IMM] > 0:
        S[p, C_IMM] -= 1
        if S[p, C_IMM] == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_EFFECT_END, p, 1, 0, 0, 0, 0)
    if S[p, C_FL] > 0:
        S[p, C_FL] -= 1
        if S[p, C_FL] == 0:
            S[p, C_FT] = -1
            S[p, C_FB] = -1
            if Z[Z_ON]:
                ev(tr, Z, E_EFFECT_END, p, 2, 0, 0, 0, 0)


@internal
def pair_controller(S, x, y):
    """The 8 controlling the infighting pair (x, y), or -1."""
    if S[x, C_FL] > 0 and S[x, C_FT] == y:
        return S[x, C_FB]
    if S[y, C_FL] > 0 and S[y, C_FT] == x:
        return S[y, C_FB]
    return -1


@internal
def eliminate(S, pile, Z, tr, t):
    """t leaves play (every version): its hand is discarded; v1/v2: its
    immunity and any control it is part of end; v3: its duel wait,
    bloodthirst, rampage marks and a joint attack on it end."""
    S[t, C_ALIVE] = 0
    S[t, C_HP] = 0
    S[t, C_OUT] = Z[Z_TURN]
    discard_hand(S, pile, Z, t)
    if VARIANT == 3:
        S[t, C_PEND] = 0
        S[t, C_BTT] = 0
        for kind in range(36):
            S[t, C_RM + kind] = 0
        S[t, C_RMANY] = 0
        if Z[Z_JOINT] == t + 1:
            Z[Z_JOINT] = 0
    else:
        clear_effects(S, Z, tr, t)
    if Z[Z_ON]:
        ev(tr, Z, E_OUT, t, 0, 0, 0, 0, 0)


jit.kernel_cache_end()
