"""Magic School's policies, their common part: what a seat believes (the
values it knows in each book, so its own house and another seat's from
the fate cards it peeked), what things are worth to it (a card's keep
value, a house's margin over the best other, each option of a meeting's
vote), the uniform tie-break from its own stream, and the scenario
script's queue. Each reads only what the choosing seat may know (listed
in ``kernel``'s docstring); ``policies_spells`` and ``policies`` build the
choices on them.
"""
import numpy as np
from balance.core.compiled import internal, ir_inlined

from ...core import jit
from ...core.rng import below_at
from .cards import fate_house, house_of_card, HOUSE_WB, is_joker, val, vbit
from .layout import KN_MASK, Z_BN, Z_CLOAK, Z_PT, Z_SCR, Z_UP
from .state_slots import Q_JOKER

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- the script queue (scenario tests) ---------------------------------------------------
@internal
def script_next(script, Z, p, dtype):
    """The next script row if it is for seat p and decision ``dtype`` (it is
    consumed), else -1 (the scripted seat then decides at random)."""
    k = Z[Z_SCR]
    if k < script.shape[0] and script[k, 0] == p and script[k, 1] == dtype:
        Z[Z_SCR] = k + 1
        return k
    return -1


# --- beliefs -----------------------------------------------------------------------------
@internal
def believed_masks(Z, KN, p, out):
    """out[0], out[1]: the values seat p knows in the white / black book
    (face-up cards and the hidden ones it peeked)."""
    out[0] = Z[Z_UP] | KN[p, KN_MASK]
    out[1] = Z[Z_UP + 1] | KN[p, KN_MASK + 1]


@internal
def my_house(Z, KN, p, buf):
    believed_masks(Z, KN, p, buf)
    return fate_house(KN, p, buf[0], buf[1])


@internal
def known_house(Z, KN, KF, fate, p, q, F, buf):
    """The house seat p believes q is in from q's fate cards it has seen
    (-1 when it has seen none)."""
    believed_masks(Z, KN, p, buf)
    w = 0
    b = 0
    n = 0
    for i in range(F):
        if KF[p, q, i] == 1:
            n += 1
            m = vbit(fate[q, i])
            w |= np.int64((m & buf[0]) != 0)
            b |= np.int64((m & buf[1]) != 0)
    if n == 0:
        return -1
    return HOUSE_WB[w + 2 * b]


# --- values and the tie-break ------------------------------------------------------------
@internal
def keep_value(c, pp):
    """Card c's worth to keep, by a seat's float policy row ``pp`` (1-D)."""
    return pp[Q_JOKER] if is_joker(c) else float(val(c))


@internal
def margin(T0, T1, T2, T3, hm):
    """Total of house hm minus the best other house's."""
    t = T0 if hm == 0 else (T1 if hm == 1 else (T2 if hm == 2 else T3))
    best = -(1 << 40)
    if hm != 0 and T0 > best:
        best = T0
    if hm != 1 and T1 > best:
        best = T1
    if hm != 2 and T2 > best:
        best = T2
    if hm != 3 and T3 > best:
        best = T3
    return t - best


@internal
def argmax_tie(scores, n, pst, p):
    """Index of the highest of scores[:n]; ties uniform from seat p's stream."""
    best = scores[0]
    first = 0
    k = 1
    for i in range(1, n):
        x = scores[i]
        if x > best:
            best = x
            first = i
            k = 1
        elif x == best:
            k += 1
    if k == 1:
        return first
    r = below_at(pst, p, k)
    for i in range(n):
        if scores[i] == best:
            if r == 0:
                return i
            r -= 1
    return 0


@ir_inlined
def vote_scores(p, kind, opts, n, B, Z, KN, ip, fs, buf):
    """The informed voter's score of each option: the margin of the house it
    would then be in over the best other house, with the cards that reach
    the score area added (cloaked pile: discarded; a joker adds 0)."""
    book = kind & 1
    believed_masks(Z, KN, p, buf)
    T0 = Z[Z_PT]
    T1 = Z[Z_PT + 1]
    T2 = Z[Z_PT + 2]
    T3 = Z[Z_PT + 3]
    cloak = Z[Z_CLOAK]
    for o in range(n):
        wm = buf[0]
        bm = buf[1]
        t0, t1, t2, t3 = T0, T1, T2, T3
        if kind < 2:            # opts[o] enters the book, the others the score area
            if book == 0:
                wm |= vbit(opts[o])
            else:
                bm |= vbit(opts[o])
            for x in range(n):
                if x != o and not is_joker(opts[x]):
                    h = house_of_card(opts[x], ip)
                    if h != cloak:
                        v = val(opts[x])
                        t0 += v * (h == 0)
                        t1 += v * (h == 1)
                        t2 += v * (h == 2)
                        t3 += v * (h == 3)
        else:                   # opts[o] (a book place) leaves the book for the score area
            m = 0
            for j in range(Z[Z_BN + book]):
                if j != opts[o]:
                    cj = B[book, 0, j]
                    if B[book, 1, j] == 1 or KN[p, cj] == 1:
                        m |= vbit(cj)
            if book == 0:
                wm = m
            else:
                bm = m
            c = B[book, 0, opts[o]]
            if not is_joker(c):
                h = house_of_card(c, ip)
                if h != cloak:
                    v = val(c)
                    t0 += v * (h == 0)
                    t1 += v * (h == 1)
                    t2 += v * (h == 2)
                    t3 += v * (h == 3)
        fs[o] = float(margin(t0, t1, t2, t3, fate_house(KN, p, wm, bm)))


jit.kernel_cache_end()
