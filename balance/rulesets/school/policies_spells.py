"""Magic School's spells as the policies see them: the contract's list of
the spells a seat can cast now (``spell_list``: the random policy's list
and the scenario script's check), the same entries as the step machine's
option codes (``spell_code``, ``spell_codes``; ``spell_parts`` reads a code
back), the informed policy's next spell (``informed_spell``), a scripted
spell (``script_spell``) and informed's score of an entry, the search's
prior (``spell_prior``). One module, because the list, the codes and the
scores must enumerate the same entries in the same order.
"""
import numpy as np
from balance.core.compiled import compiled, internal, ir_inlined

from ...core import jit
from ...core.kernel import BAN_FORBID  # before kernel_cache_begin
from .cards import house_of_card, is_joker, KIND, KVAL, val
from .layout import (BCAP, C_HN, D_SPELL, EF_DRAW, EF_PEEK_BOOK, EF_PEEK_DECK, EF_PEEK_FATE,
                     EF_PEEK_HAND, EF_STEAL, EF_STOP, EF_SWAP, PCAP, Z_BN, Z_CLOAK, Z_DECK, Z_INV,
                     Z_PN, Z_PT, Z_UP)
from .policies_values import argmax_tie, keep_value, known_house, margin, my_house, script_next
from .state_slots import P_FATE, Q_DRAW, Q_FATES, Q_STEAL, Q_SWAP

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- the legal list ----------------------------------------------------------------------
@compiled
def spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, pick, out):
    """The contract's list of distinct spells seat p can cast now, one entry
    per (hand card used, effect, target), in a fixed order. pick < 0: return
    the number of entries; else write entry ``pick`` to out[0:4] (effect,
    hand index, a, b) and return it. The stop entry is not listed."""
    n = 0
    inv = Z[Z_INV]
    cloak = Z[Z_CLOAK]
    hn = S[p, C_HN]
    for i in range(hn):
        c = hand[p, i]
        k = KIND[c]
        if k >= 52 or ban[k] == BAN_FORBID:
            continue
        m = np.int64(1) << KVAL[k]
        if Z[Z_UP] & m:
            for b in range(2):
                for j in range(Z[Z_BN + b]):
                    if B[b, 1, j] == 0:
                        if n == pick:
                            out[0] = EF_PEEK_BOOK
                            out[1] = i
                            out[2] = b
                            out[3] = j
                            return n
                        n += 1
            for q in range(P):
                if q != p and q != inv:
                    if n == pick:
                        out[0] = EF_PEEK_FATE
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0:
                    if n == pick:
                        out[0] = EF_PEEK_HAND
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            if Z[Z_DECK] > 0:
                if n == pick:
                    out[0] = EF_PEEK_DECK
                    out[1] = i
                    out[2] = -1
                    out[3] = -1
                    return n
                n += 1
        if Z[Z_UP + 1] & m:
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0:
                    if n == pick:
                        out[0] = EF_STEAL
                        out[1] = i
                        out[2] = q
                        out[3] = -1
                        return n
                    n += 1
            if n == pick:
                out[0] = EF_DRAW
                out[1] = i
                out[2] = -1
                out[3] = -1
                return n
            n += 1
            for g in range(hn):
                if g == i:
                    continue
                cg = hand[p, g]
                jg = is_joker(cg)
                hg = -1 if jg else house_of_card(cg, ip)
                for h in range(4):
                    if h == cloak:
                        continue
                    if jg or hg == h:
                        cnt = Z[Z_PN + h]
                        if pick >= n and pick < n + cnt:
                            out[0] = EF_SWAP
                            out[1] = i
                            out[2] = g
                            out[3] = h * PCAP + (pick - n)
                            return pick
                        n += cnt
                    else:
                        for j in range(Z[Z_PN + h]):
                            if is_joker(pile[h, j]):
                                if n == pick:
                                    out[0] = EF_SWAP
                                    out[1] = i
                                    out[2] = g
                                    out[3] = h * PCAP + j
                                    return n
                                n += 1
    return n


# --- the informed policy's spell ---------------------------------------------------------
@internal
def cheapest(p, S, hand, Z, color, avoid, pp, ban, pst, fs, ix):
    """Hand index of the lowest keep-value card casting ``color`` (0 white,
    1 black), not index ``avoid``; ties uniform; -1 when none."""
    n = 0
    for i in range(S[p, C_HN]):
        c = hand[p, i]
        k = KIND[c]
        if i == avoid or k >= 52 or ban[k] == BAN_FORBID:
            continue
        if Z[Z_UP + color] & (np.int64(1) << KVAL[k]):
            fs[n] = -keep_value(c, pp)
            ix[n] = i
            n += 1
    if n == 0:
        return -1
    return ix[argmax_tie(fs, n, pst, p)]


@ir_inlined
def informed_spell(s, c, p):
    """The informed policy's next spell (c.out[0:4]); out[0] = EF_STOP to
    stop. Order: peek an unknown hidden spell; the best swap (margin gain
    >= swap_min_gain); steal from a non-ally holding >= steal_min_hand
    cards; peek an unknown fate card; draw while holding <= draw_max_hand
    cards."""
    P, S, hand, fate, B, Z, pile, KN, KF, pst = (c.P, s.S, s.hand, s.fate, s.B, s.Z, s.pile,
                                                 s.KN, s.KF, s.pst)
    ip, ban, out, fs, ix, buf = c.ip, c.ban, c.out, c.fs, c.ix, c.buf
    pp = c.pp[p]                # seat p's own float policy parameters (its row)
    F = ip[P_FATE]
    out[0] = EF_STOP
    inv = Z[Z_INV]
    hn = S[p, C_HN]
    wi = cheapest(p, S, hand, Z, np.int64(0), np.int64(-1), pp, ban, pst, fs, ix)
    # 1. an unknown hidden spell
    if wi >= 0:
        n = 0
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                    ix[n] = b * BCAP + j
                    fs[n] = 0.0
                    n += 1
        if n > 0:
            t = ix[argmax_tie(fs, n, pst, p)]
            out[0] = EF_PEEK_BOOK
            out[1] = wi
            out[2] = t // BCAP
            out[3] = t % BCAP
            return
    bi = cheapest(p, S, hand, Z, np.int64(1), np.int64(-1), pp, ban, pst, fs, ix)
    hm = my_house(Z, KN, p, buf)
    if bi >= 0:
        # 2. the best swap
        cloak = Z[Z_CLOAK]
        T0 = Z[Z_PT]
        T1 = Z[Z_PT + 1]
        T2 = Z[Z_PT + 2]
        T3 = Z[Z_PT + 3]
        base = margin(T0, T1, T2, T3, hm)
        n = 0
        for g in range(hn):
            cg = hand[p, g]
            jg = is_joker(cg)
            hg = -1 if jg else house_of_card(cg, ip)
            vg = val(cg)
            for h in range(4):
                if h == cloak:
                    continue
                for j in range(Z[Z_PN + h]):
                    cj = pile[h, j]
                    if not (jg or hg == h or is_joker(cj)):
                        continue
                    d = vg - val(cj)
                    gain = margin(T0 + d * (h == 0), T1 + d * (h == 1), T2 + d * (h == 2),
                                  T3 + d * (h == 3), hm) - base
                    if gain >= pp[Q_SWAP] and n < fs.shape[0]:
                        fs[n] = float(gain)
                        ix[n] = (g * 4 + h) * PCAP + j
                        n += 1
        while n > 0:
            k = argmax_tie(fs, n, pst, p)
            t = ix[k]
            g = t // (4 * PCAP)
            caster = cheapest(p, S, hand, Z, np.int64(1), g, pp, ban, pst, fs[n:], ix[n:])
            if caster >= 0:
                out[0] = EF_SWAP
                out[1] = caster
                out[2] = g
                out[3] = t % (4 * PCAP)
                return
            fs[k] = -1e300         # this giver is the only black card: next best
            top = -1e300
            for x in range(n):
                if fs[x] > top:
                    top = fs[x]
            if top < pp[Q_SWAP]:
                break
        # 3. steal from a non-ally with a full hand
        n = 0
        for q in range(P):
            if q != p and q != inv and S[q, C_HN] > 0 and S[q, C_HN] >= pp[Q_STEAL]:
                if known_house(Z, KN, KF, fate, p, q, F, buf) != hm:
                    fs[n] = float(S[q, C_HN])
                    ix[n] = q
                    n += 1
        if n > 0:
            out[0] = EF_STEAL
            out[1] = bi
            out[2] = ix[argmax_tie(fs, n, pst, p)]
            out[3] = -1
            return
    # 4. an unknown fate card
    if wi >= 0 and pp[Q_FATES] > 0:
        n = 0
        for q in range(P):
            if q != p and q != inv:
                u = 0
                for i in range(F):
                    u += 1 - KF[p, q, i]
                if u > 0:
                    fs[n] = float(u)
                    ix[n] = q
                    n += 1
        if n > 0:
            out[0] = EF_PEEK_FATE
            out[1] = wi
            out[2] = ix[argmax_tie(fs, n, pst, p)]
            out[3] = -1             # which of its fate cards: ``fate_index``, when it is cast
            return
    # 5. draw
    if bi >= 0 and hn <= pp[Q_DRAW]:
        out[0] = EF_DRAW
        out[1] = bi
        out[2] = -1
        out[3] = -1


# --- a scripted spell (scenario tests) ---------------------------------------------------
@internal
def script_spell(p, P, S, hand, B, Z, pile, ip, ban, F, script, out):
    """A scripted spell (scenario tests): the row's (effect, card cast, a, b)
    must be a listed entry (a swap's a = the given card's id); returns 0, or
    1 when no script row applies, 2 when the row is illegal (stops)."""
    k = script_next(script, Z, p, np.int64(D_SPELL))
    if k < 0:
        return 1
    eff = script[k, 2]
    out[0] = EF_STOP
    if eff == EF_STOP:
        return 0
    n = spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, np.int64(-1), out)
    for e in range(n):
        spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, e, out)
        if out[0] != eff or hand[p, out[1]] != script[k, 3]:
            continue
        if eff == EF_SWAP:
            if hand[p, out[2]] == script[k, 4] and out[3] == script[k, 5]:
                return 0
        elif eff == EF_PEEK_FATE:
            if out[2] == script[k, 4]:
                out[3] = script[k, 5]
                return 0
        elif out[2] == script[k, 4] and (eff != EF_PEEK_BOOK or out[3] == script[k, 5]):
            return 0
    out[0] = EF_STOP
    return 2


# --- option codes (the step interface) and informed's prior ------------------------------
@ir_inlined
def spell_code(eff, i, a, b):
    """The option code of spell entry (effect, hand index of the cast card,
    a, b): 0 for stop (``spell_parts`` reads it back)."""
    if eff == EF_STOP:
        return np.int64(0)
    return eff + 8 * (i + 256 * ((a + 1) + 256 * (b + 1)))


@ir_inlined
def spell_parts(code, out):
    """An option code of PH_SPELL back into out[0:4] (``spell_code``)."""
    if code == 0:
        out[0] = EF_STOP
        out[1] = -1
        out[2] = -1
        out[3] = -1
        return
    out[0] = code % 8
    x = code // 8
    out[1] = x % 256
    x //= 256
    out[2] = x % 256 - 1
    out[3] = x // 256 - 1


@compiled
def spell_codes(p, P, S, hand, B, Z, pile, ip, ban, rows, n):
    """Every entry of ``spell_list`` (in its order) as option codes into
    rows[n:], as many as rows holds; returns the new n. A fate peek's card
    (b) is left to ``fate_index`` (-1)."""
    cap = rows.shape[0]
    inv = Z[Z_INV]
    cloak = Z[Z_CLOAK]
    hn = S[p, C_HN]
    for i in range(hn):
        k = KIND[hand[p, i]]
        if k >= 52 or ban[k] == BAN_FORBID:
            continue
        m = np.int64(1) << KVAL[k]
        if Z[Z_UP] & m:
            for b in range(2):
                for j in range(Z[Z_BN + b]):
                    if B[b, 1, j] == 0 and n < cap:
                        rows[n] = spell_code(EF_PEEK_BOOK, i, b, j)
                        n += 1
            for q in range(P):
                if q != p and q != inv and n < cap:
                    rows[n] = spell_code(EF_PEEK_FATE, i, q, -1)
                    n += 1
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0 and n < cap:
                    rows[n] = spell_code(EF_PEEK_HAND, i, q, -1)
                    n += 1
            if Z[Z_DECK] > 0 and n < cap:
                rows[n] = spell_code(EF_PEEK_DECK, i, -1, -1)
                n += 1
        if Z[Z_UP + 1] & m:
            for q in range(P):
                if q != p and q != inv and S[q, C_HN] > 0 and n < cap:
                    rows[n] = spell_code(EF_STEAL, i, q, -1)
                    n += 1
            if n < cap:
                rows[n] = spell_code(EF_DRAW, i, -1, -1)
                n += 1
            for g in range(hn):
                if g == i:
                    continue
                cg = hand[p, g]
                jg = is_joker(cg)
                hg = -1 if jg else house_of_card(cg, ip)
                for h in range(4):
                    if h == cloak:
                        continue
                    any_card = jg or hg == h
                    for j in range(Z[Z_PN + h]):
                        if (any_card or is_joker(pile[h, j])) and n < cap:
                            rows[n] = spell_code(EF_SWAP, i, g, h * PCAP + j)
                            n += 1
    return n


@internal
def spell_prior(s, c, p, e):
    """Informed's priorities as a score of entry e (effect, hand index, a, b),
    for search_top_k: an unknown hidden spell's peek; a swap raising its
    house's margin by >= swap_min_gain (by the gain); a steal from a
    non-ally holding >= steal_min_hand cards; a peek at unknown fate cards;
    a draw while holding <= draw_max_hand; then the same moves below their
    thresholds; peeks at hands, the deck top or known cards last. A cheaper
    card (its keep value) first among equals."""
    S, hand, fate, B, Z, pile, KN, KF = s.S, s.hand, s.fate, s.B, s.Z, s.pile, s.KN, s.KF
    pp, buf = c.pp[p], c.buf    # seat p's own float policy parameters (its row)
    F = c.ip[P_FATE]
    eff = e[0]
    x = -50.0
    hm = my_house(Z, KN, p, buf)
    if eff == EF_PEEK_BOOK:
        x = 1000.0 if KN[p, B[e[2], 0, e[3]]] == 0 else -1000.0
    elif eff == EF_SWAP:
        g = hand[p, e[2]]
        h = e[3] // PCAP
        d = val(g) - val(pile[h, e[3] % PCAP])
        T0, T1, T2, T3 = Z[Z_PT], Z[Z_PT + 1], Z[Z_PT + 2], Z[Z_PT + 3]
        gain = margin(T0 + d * (h == 0), T1 + d * (h == 1), T2 + d * (h == 2), T3 + d * (h == 3),
                      hm) - margin(T0, T1, T2, T3, hm)
        x = (500.0 if gain >= pp[Q_SWAP] else -100.0) + gain
    elif eff == EF_STEAL:
        q = e[2]
        ally = known_house(Z, KN, KF, fate, p, q, F, buf) == hm
        x = (20.0 if ally else (300.0 if S[q, C_HN] >= pp[Q_STEAL] else 100.0)) + S[q, C_HN]
    elif eff == EF_PEEK_FATE:
        u = 0
        for i in range(F):
            u += 1 - KF[p, e[2], i]
        x = -500.0 if u == 0 else (200.0 if pp[Q_FATES] > 0 else 50.0) + u
    elif eff == EF_DRAW:
        x = 150.0 if S[p, C_HN] <= pp[Q_DRAW] else 30.0
    return x - keep_value(hand[p, e[1]], pp) / 100.0


jit.kernel_cache_end()
