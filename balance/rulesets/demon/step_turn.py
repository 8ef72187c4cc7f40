"""Demon Faction's rules, the turn: placement (the legal placements with
greedy's values, ``list_place``, and playing one, ``apply_place``, with
the small joker's reply), the turn's start (activation, the J effects, the
K options), preparation and the draw, a turn's head and tail (the
stalemate count), the deal, the check-mode invariants and the game's
records. The step machine (``step``) plays these parts one decision at a
time; ``step_scenario`` plays them whole for the scenario tests.

Speed (the rules and their reasons: docs/performance.md): numba passes
the State, the Ctx and the records as about 145 machine words per call
(each array as its 7-11 words); with a dozen such calls per turn, the
calls cost more than the work. So the hot path of a turn is inlined into
its callers (``front`` with ``begin``, ``prepare`` and ``draw``;
``list_place``, ``apply_place``, ``step_fight.list_attack``), while rare
steps (J, K, Q, clash, reply, the attack itself) stay separate functions.
The inlining is LLVM's (``forceinline=True``: each function is typed once
and inlined once linked), not numba's ``inline="always"``, which copies
the callee's IR at every call site and types it again, for the same speed;
only ``step_board.setrow`` (ten scalar arguments whose types vary by call
site) keeps numba's.
"""
import numpy as np
from numba import njit
from balance.core.compiled import inlined
from numba import types as nt

from ...core import jit
from ...core.kernel import BAN_FORBID, BAN_REMOVE, drawn, ev  # before kernel_cache_begin
from ...core.rng import shuffle
from .layout import (A_BIG, A_END, A_FACE, A_HEART, A_PAIR, A_ROW, A_SLOT, A_SMALL, C_BJ, C_DECKM,
                     C_DECKN, C_FACE, C_FACT, C_GRAVE, C_HAND, C_HP, C_KPTS, C_POW, C_ROW, C_STATS,
                     D_OPT, END_DRAW, END_HP, END_STALE, E_ACT, E_BIG, E_BROW, E_BSEAT, E_BSLOT,
                     E_DEAL, E_DISCARD, E_DRAW, E_END, E_FACE, E_HEART, E_JFX, E_KOPT, E_NODRAW,
                     E_PAIR, E_ROW, E_SLOT, E_SMALL, E_TURN, FACE_ACTIVE, F_FACE, F_HEART, F_PAIR,
                     F_ROW, F_SLOT, H_J, H_REPLY, NSEAT, POL_RANDOM, Z_ATT, Z_CLASH, Z_DEC,
                     Z_DESTR, Z_DONE, Z_FIRST, Z_FLAGS, Z_FORBID, Z_HPCH, Z_LASTC, Z_NC, Z_NOATK,
                     Z_ON, Z_SACT, Z_SCARD, Z_SOWN, Z_STALE, Z_TURN)
from .policies import (big_joker_value, choose, face_value, k_any_value, k_revive_value,
                       pick_card, pick_discards, reply_value, row_gain, slot_value,
                       small_joker_value, thresholds)
from .rules import BIG, SMALL
from .state_bits import bit, ctz, popc
from .step_board import (A1, A2, B1, G_ATT, G_CLASH, G_DEC, G_DESTR, G_ECAUSE, G_END, G_ROUNDS,
                         G_TURNS, G_WINNER, I64, LAY, P_DRAW, P_HEAL, P_HP, P_K2, P_KEEP, P_REPLY,
                         P_START, P_TRIG, RANK, T_BIG, T_HEART, T_HP, T_JF, T_JHEAL, T_JPL, T_KCH,
                         T_KF, T_KOPT, T_PAIRS, T_REPLY, T_SLOTS, T_SMALL, U1, U3, check_end,
                         face_active, face_gone, heal, hurt, joker_gone, leave_row, leave_slot,
                         low_cands, n_faces, occupied, played, setrow, sig, to_row)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# --- placement ---------------------------------------------------------------------
@inlined
def list_place(S, Z, ip, pp, rows, sc, tmp, p, pl):
    """Every distinct legal placement action of seat p now, then "end"
    (the last row); scored for policy ``pl`` (``POL_RANDOM``: no scores)
    with seat p's float policy parameters (row p of ``pp``, also when it
    values the opponent's face cards)."""
    q = 1 - p
    pr = pp[p]
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
                    s = big_joker_value(S, ip, pr, p, r) if greedy else 0.0
                    setrow(rows, sc, n, n, A_BIG, k, r, 0, 0, s)
                    n += 1
        elif k == SMALL:
            r = S[q, C_BJ]
            if r >= 0:
                s = small_joker_value(S, ip, pr, q, r) if greedy else 0.0
                setrow(rows, sc, n, n, A_SMALL, k, r, 0, 0, s)
                n += 1
        else:
            rk = RANK[k]
            su = k // 13
            if rk <= 10:
                if su < 3:
                    if not (fl >> su) & 1:
                        s = row_gain(S, pr, pl, p, su, rk, tmp) if greedy else 0.0
                        setrow(rows, sc, n, n, A_ROW, k, su, 0, 0, s)
                        n += 1
                    if rk >= 3 and not fl & F_SLOT and Z[Z_SOWN + su] != q:
                        s = slot_value(Z, pr, su)
                        setrow(rows, sc, n, n, A_SLOT, k, su, 0, 0, s)
                        n += 1
                else:
                    for r in range(2):
                        if not (fl >> r) & 1:
                            s = row_gain(S, pr, pl, p, r, rk, tmp) if greedy else 0.0
                            setrow(rows, sc, n, n, A_ROW, k, r, 0, 0, s)
                            n += 1
            elif su < 3:
                if not (fl >> (5 + su)) & 1:
                    nf = n_faces(S, p, su)
                    s = face_value(S, ip, pr, p, su, k) if greedy else 0.0
                    if nf < 2:
                        setrow(rows, sc, n, n, A_FACE, k, su, -1, 0, s)
                        n += 1
                    else:
                        for j in range(2):
                            s2 = s - face_value(S, ip, pr, p, su, S[p, C_FACE + 2 * su + j]) \
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
                            v0 = sign * face_value(S, ip, pr, side, r, S[side, C_FACE + 2 * r])
                            if nf == 2:
                                v1 = sign * face_value(S, ip, pr, side, r,
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
                        s = row_gain(S, pr, pl, p, s_, sv, tmp) if greedy else 0.0
                        setrow(rows, sc, n, n, A_PAIR, ka, s_, kb, 0, s)
                        n += 1
    setrow(rows, sc, n, n, A_END, -1, 0, 0, 0, 0.0)
    return n + 1


@njit(sig(I64, I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def reply(s, c, masks, counts, tr, x, p):
    """Seat x may answer p's big joker with its small joker (cost)."""
    S, Z, rows, sc = s.S, s.Z, c.rows, c.sc
    cost = c.ip[P_REPLY]
    if not (S[x, C_HAND] >> SMALL) & 1 or (Z[Z_FORBID] >> SMALL) & 1 or S[x, C_HP] <= cost:
        return
    setrow(rows, sc, 0, 0, 0, 0, 0, 0, 0, 0.0)
    setrow(rows, sc, 1, 1, 1, 0, 0, 0, 0, reply_value(S, c.pp[x], x, cost))
    i = choose(s.st, Z, c.pol[x], c.script, rows, sc, 2, D_OPT)
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


@inlined
def apply_place(s, c, masks, counts, tr, p, t, k, a, b):
    """Seat p plays placement row (t, k, a, b) (``list_place``)."""
    S, Z, ip = s.S, s.Z, c.ip
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
            reply(s, c, masks, counts, tr, q, p)
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


# --- turn start: activation, J, K -------------------------------------------------------
@inlined
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


@njit(sig(I64, I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def j_effect(s, c, masks, counts, tr, p, r):
    """The J of p's row r: the lowest normal card of row r on each side
    goes; each side takes its own card's value, or both take the one
    card's value."""
    S, Z, ip, tmp = s.S, s.Z, c.ip, c.tmp
    q = 1 - p
    kp = -1
    kq = -1
    n = low_cands(S[p, C_ROW + r], tmp, 8)
    if n > 0:
        kp = pick_card(s, c, p, 8, n)
    n = low_cands(S[q, C_ROW + r], tmp, 8)
    if n > 0:
        kq = pick_card(s, c, q, 8, n)
    if kp >= 0 or kq >= 0:
        S[p, T_JF] += 1
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


@njit(sig(I64, I64), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def k_option(s, c, masks, counts, tr, p, r):
    """The K of p's row r with points: revive a card from the graveyard
    into row r (options 1 and 2) or not."""
    S, Z, rows, sc = s.S, s.Z, c.rows, c.sc
    pts = S[p, C_KPTS + r]
    avail = S[p, C_GRAVE] & ~Z[Z_FORBID]
    setrow(rows, sc, 0, 0, 0, -1, 0, 0, 0, 0.0)
    n = 1
    if pts <= 10:
        k = r * 13 + pts - 1
        if (avail >> k) & 1:
            setrow(rows, sc, n, 1, 1, k, 0, 0, 0, k_revive_value(pts))
            n += 1
    if pts >= c.ip[P_K2]:
        for v in range(1, 11):
            k = r * 13 + v - 1
            if (avail >> k) & 1:
                setrow(rows, sc, n, 2, 2, k, 0, 0, 0, k_any_value(v, c.pp[p]))
                n += 1
    if n == 1:
        return
    S[p, T_KCH] += 1
    i = choose(s.st, Z, c.pol[p], c.script, rows, sc, n, D_OPT)
    opt = rows[i, 1]
    if opt == 0:
        return
    k = rows[i, 2]
    S[p, C_KPTS + r] = 0
    S[p, T_KF] += 1
    S[p, T_KOPT + opt - 1] += 1
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
@inlined
def prepare(s, c, tr, p):
    """Preparation: with hand_trigger cards or more, discard down to
    hand_keep (to the graveyard, no passive)."""
    S, Z, st, ip, tmp = s.S, s.Z, s.st, c.ip, c.tmp
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
    pick_discards(st, c.pol[p], tmp, n, m, Z[Z_FORBID])
    for i in range(m):
        k = tmp[i]
        S[p, C_HAND] &= ~bit(k)
        S[p, C_GRAVE] |= bit(k)
        if Z[Z_ON]:
            ev(tr, Z, E_DISCARD, p, k, 0, 0, 0, 0)


@inlined
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
    drawn(masks, counts, p, k)
    if Z[Z_ON]:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, k, 0, 0, 0, 0)
    return k


# --- a turn, the deal, the invariants, the records ----------------------------------
@inlined
def begin(s, c, masks, counts, tr, p):
    """Start of p's turn: its face and extra-zone cards become active, its
    J effects fire (rows 1 to 3), then its K options (rows 1 to 3)."""
    S, Z = s.S, s.Z
    Z[Z_FLAGS] = 0
    Z[Z_NOATK] = 0
    activate(S, Z, tr, p)
    for r in range(3):
        if face_active(S, p, r, 11):
            j_effect(s, c, masks, counts, tr, p, r)
            if check_end(S, Z):
                return
    for r in range(3):
        if S[p, C_KPTS + r] > 0 and face_active(S, p, r, 13):
            k_option(s, c, masks, counts, tr, p, r)


@njit(nt.void(A2, A1, A2), cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def board_events(S, Z, tr):
    """Trace only: the board after a turn (E_BSEAT and E_BROW per seat, then
    E_BSLOT per extra slot)."""
    for q in range(2):
        ev(tr, Z, E_BSEAT, q, S[q, C_HP], popc(S[q, C_HAND]), S[q, C_DECKN],
           popc(S[q, C_GRAVE]), S[q, C_BJ])
        for r in range(3):
            c0 = S[q, C_FACE + 2 * r]
            c1 = S[q, C_FACE + 2 * r + 1]
            if c0 >= 0 and S[q, C_FACT + 2 * r] == 1:
                c0 += FACE_ACTIVE
            if c1 >= 0 and S[q, C_FACT + 2 * r + 1] == 1:
                c1 += FACE_ACTIVE
            ev(tr, Z, E_BROW, q, r, S[q, C_POW + r], S[q, C_ROW + r], c0, c1)
    for s in range(3):
        ev(tr, Z, E_BSLOT, Z[Z_SOWN + s], s, Z[Z_SCARD + s], Z[Z_SACT + s], 0, 0)


@inlined
def front(s, c, masks, counts, tr, p):
    """The turn up to placement: its start (``begin``), then, unless that
    ended the game, preparation and the draw."""
    begin(s, c, masks, counts, tr, p)
    if not s.Z[Z_DONE]:
        prepare(s, c, tr, p)
        for _ in range(c.ip[P_DRAW]):
            if draw(s.S, s.Z, s.pile, masks, counts, tr, p, False) < 0:
                break


@njit(nt.int64(A2, A1, A2, A1), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(nt.void(U1, A2, A1, A2, U3, A2, A2, A1, B1), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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


@njit(nt.void(A2, A1, A2, I64, I64, I64, I64, A1, A2), cache=True, _nrt=False,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
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
    grow[G_ECAUSE] = Z[Z_LASTC] - 1
    for q in range(2):
        S[q, T_HP] = S[q, C_HP]
        for j in range(NSEAT):
            srow[q, j] = S[q, C_STATS + j]


@inlined
def turn_head(S, Z, tr, cur, turns):
    """Before turn number ``turns`` (seat cur's): the turn's globals."""
    Z[Z_TURN] = turns
    Z[Z_FIRST] = 1 if turns == 1 else 0
    Z[Z_HPCH] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_TURN, cur, (turns + 1) // 2, S[0, C_HP], S[1, C_HP],
           popc(S[cur, C_HAND]), 0)


@inlined
def turn_tail(Z, stale):
    """After a turn: END_HP when an HP check ended the game, END_STALE after
    ``stale`` turns in a row without an HP change, else -1 (play on)."""
    if Z[Z_DONE]:
        return END_HP
    if Z[Z_HPCH]:
        Z[Z_STALE] = 0
    else:
        Z[Z_STALE] += 1
        if Z[Z_STALE] >= stale:
            return END_STALE
    return -1


@inlined
def outcome(S, end):
    """(winner or -1, end reason) of a game that ended for ``end``."""
    if end == END_HP:
        if S[0, C_HP] <= 0 and S[1, C_HP] <= 0:
            return -1, END_DRAW
        return (0 if S[1, C_HP] <= 0 else 1), END_HP
    return -1, end


jit.kernel_cache_end()
