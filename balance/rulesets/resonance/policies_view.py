"""Magic Resonance's heuristics, their reading of the game: a seat's view
(what it may know, summed per colour) and the chances and values the
counter and saboteur read from it: P(a colour's total >= a requirement),
a card's P(success) and P(overdraft), before and after a rune is added,
an effect's value and a card's expected points for a participant.

Only the policies (``policies``, and ``policies.prior`` for the search's
top-k) read them; they are a module of their own because the choices are
long already and each choice reads several of them.
"""
import math

import numpy as np
from balance.core.compiled import compiled, ir_inlined

from ...core import jit
from .layout import (C_H, EF_DISCARD, EF_DRAW, EF_GAIN, EF_LOSE, F_KIND, F_KNOW, M_BASE,
                     M_NEFF, M_OEFF, M_OVER, M_PTS, Z_DISC, Z_FN, Z_TOT)
from .rules import KIND_COLOUR, KIND_VALUE
from .state import P_FAIL, Q_HIT

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def view(S, F, Z, p, W):
    """What seat p may know, summarized per colour in W: W[c] the sum of the
    field runes it knows, W[3 + c] the expected sum of the runes it does not
    know, W[6 + c] its standard deviation, W[9] how many it does not know.
    Unknown runes are drawn from the runes p has not seen (deck composition
    minus its hand, the public discard pile and the field runes it knows),
    independently (a normal approximation of their sum). Counts and sums
    are whole numbers, so they are kept as integers (the same values as
    float sums); the known field runes per kind are packed 8 bits per
    value in one integer per colour (at most 40 copies of a kind)."""
    bit = np.int64(1) << p
    k0 = 0
    k1 = 0
    k2 = 0
    n0 = np.int64(0)
    n1 = np.int64(0)
    n2 = np.int64(0)
    u = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0:
            continue
        if F[F_KNOW, i] & bit:
            v = KIND_VALUE[k]
            c = KIND_COLOUR[k]
            one = np.int64(1) << (8 * (k - 4 * c))
            if c == 0:
                k0 += v
                n0 += one
            elif c == 1:
                k1 += v
                n1 += one
            else:
                k2 += v
                n2 += one
        else:
            u += 1
    W[0] = k0
    W[1] = k1
    W[2] = k2
    W[9] = u
    tot = 0
    a0 = 0
    a1 = 0
    a2 = 0
    b0 = 0
    b1 = 0
    b2 = 0
    for c in range(3):
        kn = n0 if c == 0 else (n1 if c == 1 else n2)
        m1 = 0
        m2 = 0
        for j in range(4):
            k = 4 * c + j
            n = max(Z[Z_TOT + k] - S[p, C_H + k] - Z[Z_DISC + k] - ((kn >> (8 * j)) & 255), 0)
            v = KIND_VALUE[k]
            tot += n
            m1 += n * v
            m2 += n * v * v
        if c == 0:
            a0 = m1
            b0 = m2
        elif c == 1:
            a1 = m1
            b1 = m2
        else:
            a2 = m1
            b2 = m2
    for c in range(3):
        m1 = a0 if c == 0 else (a1 if c == 1 else a2)
        m2 = b0 if c == 0 else (b1 if c == 1 else b2)
        if tot > 0 and u > 0:
            mu = m1 / tot
            var = m2 / tot - mu * mu
            W[3 + c] = u * mu
            W[6 + c] = math.sqrt(max(u * var, 0.0))
        else:
            W[3 + c] = 0.0
            W[6 + c] = 0.0


@compiled
def chance_at_least(m, sd, need):
    """P(colour total >= need): exact when nothing is unknown, else the
    normal tail with a continuity correction (logistic approximation of the
    normal CDF, error < 0.01)."""
    if sd <= 1e-9:
        return 1.0 if m >= need - 1e-9 else 0.0
    x = 1.702 * (m - need + 0.5) / sd
    if x > 30.0:
        return 1.0
    if x < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@ir_inlined
def card_terms(W, M, card):
    """Per-colour success and overdraft chances of ``card`` in W[10..15];
    returns (P(success), P(overdraft))."""
    ps = 1.0
    po = 1.0
    for c in range(3):
        m = W[c] + W[3 + c]
        tb = chance_at_least(m, W[6 + c], M[card, M_BASE + c])
        to = chance_at_least(m, W[6 + c], M[card, M_OVER + c])
        W[10 + c] = tb
        W[13 + c] = to
        ps *= tb
        po *= to
    return ps, po


@compiled
def chance(W, M, card, col):
    """P(every colour >= the requirement in columns col..col+2 of the card)
    (``col`` = M_BASE: success, M_OVER: overdraft); stops at the first 0."""
    pr = 1.0
    for c in range(3):
        pr *= chance_at_least(W[c] + W[3 + c], W[6 + c], M[card, col + c])
        if pr == 0.0:
            break
    return pr


@ir_inlined
def shifted(W, M, card, sc, sv):
    """(P(success), P(overdraft)) once a rune of value sv is added to colour
    sc (after ``card_terms`` for this card)."""
    ps = 1.0
    po = 1.0
    for c in range(3):
        if c == sc:
            m = W[c] + W[3 + c] + sv
            ps *= chance_at_least(m, W[6 + c], M[card, M_BASE + c])
            po *= chance_at_least(m, W[6 + c], M[card, M_OVER + c])
        else:
            ps *= W[10 + c]
            po *= W[13 + c]
    return ps, po


@compiled
def effect_value(e, n, pp):
    """A participant's value of effect e with its n: GAIN and DRAW +n, LOSE and
    DISCARD -n, HIT n x hit_value (the others discard)."""
    if e == EF_GAIN or e == EF_DRAW:
        return 1.0 * n
    if e == EF_LOSE or e == EF_DISCARD:
        return -1.0 * n
    return n * pp[Q_HIT]


@compiled
def card_ev(M, card, ps, po, initiator, ip, pp):
    """Expected points of taking part (the initiator also takes the card)."""
    gain = M[card, M_PTS] * 1.0 if initiator else 0.0
    vn = effect_value(M[card, M_NEFF], M[card, M_NEFF + 1], pp)
    vo = effect_value(M[card, M_OEFF], M[card, M_OEFF + 1], pp)
    return (ps - po) * (gain + vn) + po * (gain + vo) - (1.0 - ps) * ip[P_FAIL]


jit.kernel_cache_end()
