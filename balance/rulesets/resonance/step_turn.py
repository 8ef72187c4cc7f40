"""Magic Resonance's turn: magic-card uses, the resonance (opening, joins,
resolution), the heuristics' uses before placing, and the turn in three
phases (``turn_head``: draw and uses; ``turn_place``: place and peek;
``turn_resonance``), which ``turn`` chains with the policies' choices and
``step`` (the engine's phase machine) chains with each seat's decision in
between; then ``run_turns`` and ``play_from``, the whole-game loop the
scenario tests play.

The resonance is three functions (``res_open``, the joins, ``res_close``)
because the engine asks each join as a decision of its own, while
``resonate`` (the scenarios, forced joins) asks them in one loop; both
resolve with the same ``res_close``.
"""
import numpy as np
from balance.core.compiled import compiled, ir_inlined

from ...core import jit
from ...core.kernel import BAN_FORBID, ev  # before kernel_cache_begin
from ...core.rng import below_at
from .layout import (C_H, C_HN, C_IN, C_JOINED, C_JOINOK, C_MARK, C_MN, C_MPTS, C_OVER,
                     C_OWN, C_STARTED, C_SUCC, C_USED, C_USES, DISSOLVE, E_AWARD, E_EFFECT,
                     E_JOIN, E_NOPLACE, E_NOSTART, E_OUTCOME, E_START, E_TOTALS, E_TURN, E_USE,
                     EF_DISCARD, EF_DRAW, EF_GAIN, EF_HIT, EF_LOSE, END_CAP, F_KIND, M_BASE,
                     M_NEFF, M_OEFF, M_OVER, M_PTS, M_UEFF, POL_RANDOM, U_DISSOLVE, U_DRAW,
                     U_PEEK, WHY_DISCARD, WHY_FAIL, WHY_HIT, Z_ACQ, Z_DEC, Z_DISC, Z_FN, Z_JOINS,
                     Z_MCHO, Z_MDISC, Z_MJOIN, Z_MOVR, Z_MSUC, Z_NEXT, Z_OVERS, Z_RES, Z_REV,
                     Z_ROUND, Z_SUCC, Z_SUPPLY, Z_TURN)
from .policies import choose_peek, choose_place, discard_n, dissolve_target, wants_join, wants_start
from .rules import KIND_COLOUR, KIND_VALUE
from .state import P_FAIL, P_MAXT, Q_DISSV
from .state_zones import draw1, placeable, reveal
from .step_actions import (check_end, dissolve_redraw, dissolve_remove, hand_state, next_in, peek,
                           place, usable)
from .step_game import broken_invariants, finish

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def use_magic(s, c, p, card, masks, counts, tr, on):
    """Seat p spends magic card ``card``'s use effect (once): DRAW n cards;
    PEEK n runes (its peek choice, fewer when none is left to see);
    DISSOLVE n known runes (its dissolve choice, random: uniform among all
    face-down runes)."""
    S, F, Z, ST, M = s.S, s.F, s.Z, s.ST, c.M
    mine = c.pol[p]
    S[p, C_USED] |= np.int64(1) << card
    S[p, C_USES] += 1
    u = M[card, M_UEFF]
    n = M[card, M_UEFF + 1]
    if on:
        ev(tr, Z, E_USE, p, card, u, n, 0, 0)
    for _ in range(n):
        if u == U_DRAW:
            draw1(S, s.pile, Z, p, masks, counts, tr, on, np.int64(3))
        elif u == U_PEEK:
            i = choose_peek(mine, S, F, Z, ST, p, S.shape[0])
            if i >= 0:
                Z[Z_DEC] += 1           # a peek (the use itself is not counted)
                peek(S, F, Z, p, i, np.int64(1), tr, on)
        else:
            if mine == POL_RANDOM:
                m = 0
                for j in range(Z[Z_FN]):
                    if F[F_KIND, j] >= 0:
                        m += 1
                i = -1
                if m > 0:
                    r = below_at(ST, p, m)
                    for j in range(Z[Z_FN]):
                        if F[F_KIND, j] >= 0:
                            if r == 0:
                                i = j
                                break
                            r -= 1
            else:
                i = dissolve_target(mine, S, F, Z, M, ST, p, c.W, c.ip, c.pp[p], 1.0)
            if i >= 0:
                dissolve_remove(S, F, Z, p, i, np.int64(1), masks, counts, tr, on)


@compiled
def resonate(s, c, p, j, force, masks, counts, tr, on):
    """Seat p starts a resonance on revealed slot j. The others still in,
    in turn order, join or not (``force`` >= 0: a mask of joining seats,
    for scenarios); the field is revealed and summed by colour; the outcome
    applies; the field is cleared and, unless the game ends there, 2 magic
    cards are revealed. Returns the outcome: 0 fail, 1 normal, 2 overdraft."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    card = res_open(S, Z, p, j, tr, on)
    part = np.int64(1) << p
    nj = 0
    q = p
    for _ in range(P - 1):
        q = q + 1 if q + 1 < P else 0
        if S[q, C_IN] == 0:
            continue
        if force >= 0:
            yes = ((force >> q) & 1) == 1
        else:
            Z[Z_DEC] += 1
            yes = wants_join(c.pol[q], S, s.F, Z, c.M, s.ST, q, c.W, card, c.ip, c.pp[q])
        if yes:
            part |= np.int64(1) << q
            nj += 1
            S[q, C_JOINED] += 1
        if on:
            ev(tr, Z, E_JOIN, q, 1 if yes else 0, card, 0, 0, 0)
    return res_close(s, c, p, card, part, nj, masks, counts, tr, on)


@compiled
def res_open(S, Z, p, j, tr, on):
    """A resonance starts on revealed slot j: the other card is discarded,
    both slots emptied. Returns the card."""
    card = Z[Z_REV + j]
    other = Z[Z_REV + 1 - j]
    Z[Z_REV] = -1
    Z[Z_REV + 1] = -1
    if other >= 0:
        Z[Z_MDISC] += 1
    Z[Z_RES] += 1
    Z[Z_ROUND] += 1
    Z[Z_MCHO] |= np.int64(1) << card
    S[p, C_STARTED] += 1
    if on:
        ev(tr, Z, E_START, p, card, other, 0, 0, 0)
    return card


@compiled
def res_close(s, c, p, card, part, nj, masks, counts, tr, on):
    """The joins are made (``part`` the participants' mask, ``nj`` how many
    joined): the field is revealed, the outcome applies, the field is
    cleared, the end conditions are checked and, only when the game goes
    on, 2 magic cards are revealed. Returns 0 fail, 1 normal, 2 overdraft."""
    S, F, pile, Z, MD, ST = s.S, s.F, s.pile, s.Z, s.MD, s.ST
    pol, M, ip = c.pol, c.M, c.ip
    P = S.shape[0]
    Z[Z_JOINS] += nj
    Z[Z_MJOIN] |= np.int64(min(nj, 7)) << (3 * card)
    t0 = 0
    t1 = 0
    t2 = 0
    nr = 0
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k < 0:
            continue
        nr += 1
        c = KIND_COLOUR[k]
        if c == 0:
            t0 += KIND_VALUE[k]
        elif c == 1:
            t1 += KIND_VALUE[k]
        else:
            t2 += KIND_VALUE[k]
    if on:
        ev(tr, Z, E_TOTALS, p, t0, t1, t2, nr, 0)
    if t0 < M[card, M_BASE] or t1 < M[card, M_BASE + 1] or t2 < M[card, M_BASE + 2]:
        out = 0
    elif (t0 >= M[card, M_OVER] and t1 >= M[card, M_OVER + 1]
          and t2 >= M[card, M_OVER + 2]):
        out = 2
    else:
        out = 1
    if on:
        ev(tr, Z, E_OUTCOME, p, card, out, part, 0, 0)
    if out == 0:
        Z[Z_MDISC] += 1
        q = p
        for _ in range(P):
            if (part >> q) & 1:
                discard_n(pol[q], S, Z, ST, q, ip[P_FAIL], np.int64(WHY_FAIL), tr, on)
            q = q + 1 if q + 1 < P else 0
    else:
        Z[Z_SUCC] += 1
        Z[Z_MSUC] |= np.int64(1) << card
        S[p, C_SUCC] += 1
        if out == 2:
            Z[Z_OVERS] += 1
            Z[Z_MOVR] |= np.int64(1) << card
            S[p, C_OVER] += 1
        e = M[card, M_NEFF] if out == 1 else M[card, M_OEFF]
        n = M[card, M_NEFF + 1] if out == 1 else M[card, M_OEFF + 1]
        q = p
        for _ in range(P):
            if (part >> q) & 1:
                if q != p:
                    S[q, C_JOINOK] += 1
                if e == EF_GAIN:
                    g = min(n, Z[Z_SUPPLY])
                    S[q, C_MARK] += g
                    Z[Z_SUPPLY] -= g
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, g, 0, 0)
                elif e == EF_LOSE:
                    g = min(n, S[q, C_MARK])
                    S[q, C_MARK] -= g
                    Z[Z_SUPPLY] += g
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, g, 0, 0)
                elif e == EF_DRAW:
                    h0 = S[q, C_HN]
                    for _ in range(n):
                        draw1(S, pile, Z, q, masks, counts, tr, on, np.int64(2))
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, S[q, C_HN] - h0, 0, 0)
                elif e == EF_DISCARD:
                    h0 = S[q, C_HN]
                    discard_n(pol[q], S, Z, ST, q, n, np.int64(WHY_DISCARD), tr, on)
                    if on:
                        ev(tr, Z, E_EFFECT, q, e, n, h0 - S[q, C_HN], 0, 0)
            elif e == EF_HIT and S[q, C_IN] == 1:
                h0 = S[q, C_HN]
                discard_n(pol[q], S, Z, ST, q, n, np.int64(WHY_HIT), tr, on)
                if on:
                    ev(tr, Z, E_EFFECT, q, e, n, h0 - S[q, C_HN], 0, 0)
            q = q + 1 if q + 1 < P else 0
        S[p, C_OWN] |= np.int64(1) << card
        S[p, C_MN] += 1
        S[p, C_MPTS] += M[card, M_PTS]
        Z[Z_ACQ] += 1
        if on:
            ev(tr, Z, E_AWARD, p, card, 0, 0, 0, 0)
    for i in range(Z[Z_FN]):
        k = F[F_KIND, i]
        if k >= 0:
            Z[Z_DISC + k] += 1
    Z[Z_FN] = 0
    # the end conditions are checked before the reveal: only a game that goes on
    # reveals 2 new magic cards (contract, "A turn"); after_resonance checks again
    if check_end(S, Z, ip, P, tr, on) < 0:
        reveal(Z, MD, np.int64(0), tr, on)
        reveal(Z, MD, np.int64(1), tr, on)
    if on:
        hand_state(S, Z, P, tr)
    return out


@compiled
def heuristic_uses(s, c, p, masks, counts, tr, on):
    """Counter/saboteur, before placing: spend DRAW magic cards, a DISSOLVE
    magic card when a known rune is worth removing, and one dissolve card
    from hand on a known rune of absolute value >= dissolve_value (keeping
    at least one card). Returns an end reason or -1."""
    S, F, Z, ST = s.S, s.F, s.Z, s.ST
    M, W, ip, pp = c.M, c.W, c.ip, c.pp[p]         # pp: seat p's row
    mine = c.pol[p]
    P = S.shape[0]
    while True:
        card = usable(S, M, p, np.int64(U_DRAW))
        if card < 0:
            break
        use_magic(s, c, p, card, masks, counts, tr, on)
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    card = usable(S, M, p, np.int64(U_DISSOLVE))
    if card >= 0 and dissolve_target(mine, S, F, Z, M, ST, p, W, ip, pp, 1.0) >= 0:
        use_magic(s, c, p, card, masks, counts, tr, on)
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    if S[p, C_H + DISSOLVE] > 0 and S[p, C_HN] >= 2 and c.ban[DISSOLVE] != BAN_FORBID:
        i = dissolve_target(mine, S, F, Z, M, ST, p, W, ip, pp, pp[Q_DISSV])
        if i >= 0:
            dissolve_remove(S, F, Z, p, i, np.int64(0), masks, counts, tr, on)
            e = check_end(S, Z, ip, P, tr, on)
            if e >= 0:
                return e
    return -1


@ir_inlined
def turn_head(s, c, p, masks, counts, tr, on):
    """Seat p's personal phase up to the placement: the draw, (counter,
    saboteur) magic-card and dissolve uses, a forced dissolve redraw.
    Returns an end reason or -1."""
    S, Z, ip, ban = s.S, s.Z, c.ip, c.ban
    P = S.shape[0]
    Z[Z_NEXT] = -1
    if on:
        ev(tr, Z, E_TURN, p, Z[Z_ROUND], S[p, C_HN], S[p, C_MARK], S[p, C_MPTS], 0)
    draw1(S, s.pile, Z, p, masks, counts, tr, on, np.int64(0))
    e = check_end(S, Z, ip, P, tr, on)
    if e >= 0:
        return e
    if c.pol[p] != POL_RANDOM and ((S[p, C_OWN] & ~S[p, C_USED]) != 0 or (
            S[p, C_H + DISSOLVE] > 0 and S[p, C_HN] >= 2 and ban[DISSOLVE] != BAN_FORBID)):
        # (heuristic_uses does nothing, and draws no number, otherwise)
        e = heuristic_uses(s, c, p, masks, counts, tr, on)
        if e >= 0:
            return e
    if placeable(S, p, ban) == 0 and S[p, C_H + DISSOLVE] > 0 and ban[DISSOLVE] != BAN_FORBID:
        dissolve_redraw(S, s.pile, Z, p, masks, counts, tr, on)      # forced
        e = check_end(S, Z, ip, P, tr, on)
        if e >= 0:
            return e
    return np.int64(-1)


@ir_inlined
def turn_place(s, c, p, k, masks, counts, tr, on):
    """Seat p places rune kind k (-1: nothing to place), then peeks, then
    (counter, saboteur) spends its PEEK magic cards. Returns an end reason,
    -1 (on to the resonance phase) or -2 (p went out: its turn is over)."""
    S, F, Z, ST = s.S, s.F, s.Z, s.ST
    mine = c.pol[p]
    P = S.shape[0]
    if k >= 0:
        Z[Z_DEC] += 1
        place(S, F, Z, p, k, masks, counts, tr, on)
    elif on:
        ev(tr, Z, E_NOPLACE, p, 0, 0, 0, 0, 0)
    e = check_end(S, Z, c.ip, P, tr, on)
    if e >= 0:
        return e
    if S[p, C_IN] == 0:
        return np.int64(-2)
    i = choose_peek(mine, S, F, Z, ST, p, P)
    if i >= 0:
        Z[Z_DEC] += 1
        peek(S, F, Z, p, i, np.int64(0), tr, on)
    if mine != POL_RANDOM and (S[p, C_OWN] & ~S[p, C_USED]) != 0:
        while True:
            card = usable(S, c.M, p, np.int64(U_PEEK))
            if card < 0 or choose_peek(mine, S, F, Z, ST, p, P) < 0:
                break
            use_magic(s, c, p, card, masks, counts, tr, on)
    return np.int64(-1)


@ir_inlined
def turn_resonance(s, c, p, j, masks, counts, tr, on):
    """Seat p's resonance phase: it starts on revealed slot j (-1: it does
    not). Returns an end reason or -1; Z[Z_NEXT] = p after a success with p
    still in (the initiator starts the next round)."""
    if j < 0:
        if on:
            ev(tr, s.Z, E_NOSTART, p, 0, 0, 0, 0, 0)
        return np.int64(-1)
    out = resonate(s, c, p, j, np.int64(-1), masks, counts, tr, on)
    return after_resonance(s.S, s.Z, c.ip, p, out, tr, on)


@ir_inlined
def after_resonance(S, Z, ip, p, out, tr, on):
    """The end check after seat p's resonance (outcome ``out``), and who
    plays next: p after a success with p still in."""
    e = check_end(S, Z, ip, S.shape[0], tr, on)
    if out > 0 and S[p, C_IN] == 1:
        Z[Z_NEXT] = p           # a success: the initiator starts the next round
    return e


@ir_inlined
def turn(s, c, p, masks, counts, tr, on):
    """Seat p's personal phase (draw, magic and dissolve uses, place, peek)
    then its resonance phase. The end is checked after every action.
    Returns an end reason or -1; Z[Z_NEXT] = the seat to play next."""
    S, F, Z, ST = s.S, s.F, s.Z, s.ST
    mine = c.pol[p]
    e = turn_head(s, c, p, masks, counts, tr, on)
    if e >= 0:
        return e
    k = choose_place(mine, S, F, Z, c.M, ST, p, c.W, c.ip, c.pp[p], c.ban)
    e = turn_place(s, c, p, k, masks, counts, tr, on)
    if e != -1:
        return e if e >= 0 else np.int64(-1)
    Z[Z_DEC] += 1
    j = wants_start(mine, S, F, Z, c.M, ST, p, c.W, c.ip, c.pp[p])
    return turn_resonance(s, c, p, j, masks, counts, tr, on)


@ir_inlined
def run_turns(s, c, masks, counts, tr, on, check, cur, turns):
    """Whole turns from seat ``cur``'s (``turns`` already played) to an end
    or the turn cap. Returns (end reason, turns played, broken invariants
    found in check mode)."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    maxt = c.ip[P_MAXT]
    errors = 0
    end = END_CAP
    while turns < maxt:
        turns += 1
        Z[Z_TURN] = turns
        e = turn(s, c, cur, masks, counts, tr, on)
        if check:
            errors += broken_invariants(S, s.F, Z, s.MD, c.ip, P)
        if e >= 0:
            end = e
            break
        nxt = Z[Z_NEXT]
        cur = nxt if nxt >= 0 else next_in(S, cur, P)
    return end, turns, errors


@compiled
def play_from(s, c, masks, counts, tr, on, check, cur, turns, grow, srow):
    """Play from seat ``cur``'s turn (``turns`` already played) to the end;
    fill the records. Returns the broken invariants found (check mode)."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    errors = 0
    end = check_end(S, Z, c.ip, P, tr, on)      # a deal that emptied the deck
    if end < 0:
        end, turns, errors = run_turns(s, c, masks, counts, tr, on, check, cur, turns)
    finish(S, Z, c.M, tr, on, P, end, turns, grow, srow)
    return errors


jit.kernel_cache_end()
