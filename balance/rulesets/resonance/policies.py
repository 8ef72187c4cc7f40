"""Magic Resonance's heuristics (random, counter, saboteur): their choices
(the target card, the placement, the peek, the dissolve target, the
discards, starting and joining) and counter's score of an option for the
search's top-k (``prior``). Each reads only its seat's view
(``policies_view``) and draws its randomness from its seat's own stream.

The engine reads ``prior`` (and ``heuristic``, the dispatch of these
choices by the pending decision) from ``step``, which re-exports it.
"""
import numpy as np
from balance.core.compiled import compiled, ir_inlined

from ...core import jit
from ...core.kernel import BAN_FORBID, ev  # before kernel_cache_begin
from ...core.rng import below_at
from .layout import (C_H, C_HN, E_DISCARD, F_KIND, F_KNOW, F_OWNER, M_BASE, M_NEFF, M_OEFF,
                     M_OVER, M_PTS, NK, PH_JOIN, PH_PLACE, PH_START, POL_RANDOM, POL_SABOTEUR,
                     Z_CARD, Z_CUR, Z_FN, Z_PHASE, Z_Q, Z_REV)
from .policies_view import card_ev, card_terms, chance, effect_value, shifted, view
from .rules import KIND_COLOUR, KIND_VALUE
from .state import P_FAIL, Q_JOIN, Q_PJOIN, Q_PSTART, Q_RISK, Q_START
from .state_zones import hand_to_discard, placeable, uniform_at

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# keep score of each kind when a counter/saboteur must discard (lowest goes first)
KEEP = np.array([[3.0, 4.0, 1.0, 0.0] * 3 + [2.0],          # counter
                 [3.0, 4.0, 2.5, 2.6] * 3 + [2.0]])         # saboteur keeps negatives


@compiled
def target_card(S, Z, M, ST, p, W, ip, pp):
    """The revealed slot with the best expected points as initiator (ties
    uniform); W must hold p's view."""
    best = -1
    bv = -1e300
    ties = 0
    for j in range(2):
        card = Z[Z_REV + j]
        if card < 0:
            continue
        ps, po = card_terms(W, M, card)
        for i in range(6):
            W[32 + 6 * j + i] = W[10 + i]
        e = card_ev(M, card, ps, po, True, ip, pp)
        if e > bv:
            bv = e
            best = j
            ties = 1
        elif e == bv:
            ties += 1
            if below_at(ST, p, ties) == 0:
                best = j
    for i in range(6):                  # the target's per-colour terms in W[10..15]
        W[10 + i] = W[32 + 6 * best + i]
    return best


# --- choices --------------------------------------------------------------
@ir_inlined
def place_terms(S, F, Z, M, ST, p, W, ip, pp):
    """Counter's placement: p's view in W, its target card (``target_card``)
    and card_ev's terms that do not depend on the rune: (card, points +
    normal value, points + overdraft value, fail discard)."""
    view(S, F, Z, p, W)
    j = target_card(S, Z, M, ST, p, W, ip, pp)
    card = Z[Z_REV + j]
    gain = M[card, M_PTS] * 1.0
    gvn = gain + effect_value(M[card, M_NEFF], M[card, M_NEFF + 1], pp)
    gvo = gain + effect_value(M[card, M_OEFF], M[card, M_OEFF + 1], pp)
    return card, gvn, gvo, ip[P_FAIL]


@ir_inlined
def place_value(W, M, card, k, gvn, gvo, fl):
    """(counter's value of placing a rune of kind k, the target's P(success)
    after it): card_ev's expression (after ``place_terms``)."""
    ps, po = shifted(W, M, card, KIND_COLOUR[k], KIND_VALUE[k])
    return (ps - po) * gvn + po * gvo - (1.0 - ps) * fl, ps


@ir_inlined
def choose_place(pol, S, F, Z, M, ST, p, W, ip, pp, ban):
    """The rune kind seat p places, or -1 (nothing placeable)."""
    n = placeable(S, p, ban)
    if n == 0:
        return -1
    if pol == POL_RANDOM:
        r = below_at(ST, p, n)
        for k in range(12):
            if ban[k] != BAN_FORBID:
                r -= S[p, C_H + k]
                if r < 0:
                    return k
        return -1
    card, gvn, gvo, fl = place_terms(S, F, Z, M, ST, p, W, ip, pp)
    best = -1
    bv = -1e300
    bps = 0.0
    ties = 0
    for k in range(12):
        if S[p, C_H + k] == 0 or ban[k] == BAN_FORBID:
            continue
        e, ps = place_value(W, M, card, k, gvn, gvo, fl)
        if e > bv:
            bv = e
            best = k
            bps = ps
            ties = 1
        elif e == bv:
            ties += 1
            if below_at(ST, p, ties) == 0:
                best = k
                bps = ps
    if pol == POL_SABOTEUR and bps < pp[Q_JOIN]:
        # no hope for itself: negative runes where the revealed cards need most
        best = -1
        bv = -1e300
        ties = 0
        for k in range(12):
            if S[p, C_H + k] == 0 or ban[k] == BAN_FORBID:
                continue
            c = KIND_COLOUR[k]
            need = 1
            for jj in range(2):
                if Z[Z_REV + jj] >= 0:
                    need += M[Z[Z_REV + jj], M_BASE + c]
            e = -1.0 * KIND_VALUE[k] * need
            if e > bv:
                bv = e
                best = k
                ties = 1
            elif e == bv:
                ties += 1
                if below_at(ST, p, ties) == 0:
                    best = k
    return best


@compiled
def choose_peek(pol, S, F, Z, ST, p, P):
    """A field slot of another seat's face-down rune, or -1."""
    bit = np.int64(1) << p
    if pol == POL_RANDOM:
        n = 0
        for i in range(Z[Z_FN]):
            if F[F_KIND, i] >= 0 and F[F_OWNER, i] != p:
                n += 1
        if n == 0:
            return -1
        r = below_at(ST, p, n)
        for i in range(Z[Z_FN]):
            if F[F_KIND, i] >= 0 and F[F_OWNER, i] != p:
                if r == 0:
                    return i
                r -= 1
        return -1
    # the column it knows least: most runes unknown to p (ties uniform);
    # the unknown runes per column counted in one pass, 10 bits per seat
    per = np.int64(0)
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and (F[F_KNOW, i] & bit) == 0:
            per += np.int64(1) << (10 * F[F_OWNER, i])
    bq = -1
    bn = 0
    ties = 0
    for q in range(P):
        if q == p:
            continue
        n = (per >> (10 * q)) & 1023
        if n > bn:
            bn = n
            bq = q
            ties = 1
        elif n == bn and n > 0:
            ties += 1
            if below_at(ST, p, ties) == 0:
                bq = q
    if bq < 0:
        return -1
    r = below_at(ST, p, bn)
    for i in range(Z[Z_FN]):
        if F[F_KIND, i] >= 0 and F[F_OWNER, i] == bq and (F[F_KNOW, i] & bit) == 0:
            if r == 0:
                return i
            r -= 1
    return -1


@compiled
def dissolve_target(pol, S, F, Z, M, ST, p, W, ip, pp, minv):
    """A known field rune worth removing for p, of absolute value >= minv,
    or -1. Counter (and a saboteur that hopes): the most negative rune in a
    colour its target card needs; saboteur without hope: the largest
    positive rune where the revealed cards need most."""
    bit = np.int64(1) << p
    seen = False                        # any known rune that could qualify?
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k >= 0 and (F[F_KNOW, i] & bit) != 0 and abs(KIND_VALUE[k]) >= minv and (
                KIND_VALUE[k] < 0 or pol == POL_SABOTEUR):
            seen = True
            break
    if not seen:
        return -1
    view(S, F, Z, p, W)
    j = target_card(S, Z, M, ST, p, W, ip, pp)
    card = Z[Z_REV + j]
    ps = W[10] * W[11] * W[12]
    sab = pol == POL_SABOTEUR and ps < pp[Q_JOIN]
    best = -1
    bv = 0.0
    ties = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0 or (F[F_KNOW, i] & bit) == 0:
            continue
        v = KIND_VALUE[k]
        c = KIND_COLOUR[k]
        if abs(v) < minv:
            continue
        if sab:
            need = 0
            for jj in range(2):
                if Z[Z_REV + jj] >= 0:
                    need += M[Z[Z_REV + jj], M_BASE + c]
            e = 1.0 * v * need if v > 0 else 0.0
        else:
            e = -1.0 * v if (v < 0 and M[card, M_BASE + c] > 0) else 0.0
        if e <= 0.0:
            continue
        if e > bv:
            bv = e
            best = i
            ties = 1
        elif e == bv:
            ties += 1
            if below_at(ST, p, ties) == 0:
                best = i
    return best


@compiled
def discard_n(pol, S, Z, ST, p, n, why, tr, on):
    """Seat p discards n cards of its choice (all it has when fewer):
    random: a uniform subset; counter/saboteur: lowest keep score first,
    ties uniform over the tied cards."""
    n = min(n, S[p, C_HN])
    if n <= 0:
        return
    for _ in range(n):
        k = -1
        if pol == POL_RANDOM:
            r = below_at(ST, p, S[p, C_HN])
            for kk in range(NK):
                r -= S[p, C_H + kk]
                if r < 0:
                    k = kk
                    break
        else:
            row = 0 if pol != POL_SABOTEUR else 1
            lo = 1e300
            tot = 0
            for kk in range(NK):
                if S[p, C_H + kk] > 0:
                    s = KEEP[row, kk]
                    if s < lo:
                        lo = s
                        tot = S[p, C_H + kk]
                    elif s == lo:
                        tot += S[p, C_H + kk]
            r = below_at(ST, p, tot)
            for kk in range(NK):
                if S[p, C_H + kk] > 0 and KEEP[row, kk] == lo:
                    r -= S[p, C_H + kk]
                    if r < 0:
                        k = kk
                        break
        hand_to_discard(S, Z, p, k)
        if on:
            ev(tr, Z, E_DISCARD, p, k, why, 0, 0, 0)


@ir_inlined
def wants_start(pol, S, F, Z, M, ST, p, W, ip, pp):
    """The revealed slot seat p starts a resonance on, or -1 (the caller
    counts the decision)."""
    if pol == POL_RANDOM:
        if uniform_at(ST, p) < pp[Q_PSTART]:
            j = below_at(ST, p, np.int64(2))
            if Z[Z_REV + j] < 0:
                j = 1 - j
            return j
        return -1
    view(S, F, Z, p, W)
    best = -1
    bv = -1e300
    ties = 0
    for j in range(2):
        card = Z[Z_REV + j]
        if card < 0:
            continue
        ps = chance(W, M, card, np.int64(M_BASE))
        if ps < pp[Q_START]:
            continue
        po = chance(W, M, card, np.int64(M_OVER))
        if po > pp[Q_RISK]:
            continue
        e = card_ev(M, card, ps, po, True, ip, pp)
        if e > bv:
            bv = e
            best = j
            ties = 1
        elif e == bv:
            ties += 1
            if below_at(ST, p, ties) == 0:
                best = j
    return best


@compiled
def wants_join(pol, S, F, Z, M, ST, q, W, card, ip, pp):
    """Whether seat q joins a resonance on ``card`` (the caller counts the
    decision)."""
    if pol == POL_RANDOM:
        return uniform_at(ST, q) < pp[Q_PJOIN]
    view(S, F, Z, q, W)
    if chance(W, M, card, np.int64(M_BASE)) < pp[Q_JOIN]:
        return False
    return chance(W, M, card, np.int64(M_OVER)) <= pp[Q_RISK]


@compiled
def prior(s, c, code):
    """counter's score of an option (the search's top-k): the placement's
    value for its target card; starting or joining, the card's expected
    value given the chances the seat sees; 0 for not starting, declining."""
    S, F, Z = s.S, s.F, s.Z
    ph = Z[Z_PHASE]
    if ph == PH_PLACE:
        if code < 0:
            return 0.0
        p = Z[Z_CUR]
        cc, gvn, gvo, fl = place_terms(S, F, Z, c.M, s.ST, p, c.W, c.ip, c.pp[p])
        e, _ = place_value(c.W, c.M, cc, code, gvn, gvo, fl)
        return e
    if (ph == PH_START and code < 0) or (ph == PH_JOIN and code == 0):
        return 0.0
    p = Z[Z_Q] if ph == PH_JOIN else Z[Z_CUR]          # the deciding seat (step.seat)
    view(S, F, Z, p, c.W)
    card = Z[Z_REV + code] if ph == PH_START else Z[Z_CARD]
    ps = chance(c.W, c.M, card, np.int64(M_BASE))
    po = chance(c.W, c.M, card, np.int64(M_OVER))
    return card_ev(c.M, card, ps, po, ph == PH_START, c.ip, c.pp[p])


jit.kernel_cache_end()
