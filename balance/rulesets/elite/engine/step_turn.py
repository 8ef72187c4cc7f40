"""A turn and what follows it: ``turn`` (v1/v2 ``play_turn``, v3
``play_turn3``; a v3 turn ends in ``step_duel.resolve_duels``), each the
start of the turn up to its play decision (``pre12``/``pre3``), the
decision (``policies.decide``/``decide3``) and the play
(``play12``/``play3``, then ``step_exchange.exchange``), played whole (the
scenarios' ``entry``); the step machine (``step``) plays the same pieces
one decision at a time. The turn order (``next_turn``, ``advance``), the
sides left and the winner (``sides_left``, ``winner_of``).

The turn and the plays take the game ``s`` (``state.State``) and the
context ``c`` (``state.Ctx``), then ``masks``, ``counts`` and ``tr``, as
``step_exchange`` does; the start of a turn (``pre12``, ``pre3``) takes the
arrays it uses.
"""
import numpy as np
from balance.core.compiled import inlined, internal, ir_inlined_nrt

from ....core import jit
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ..layout import (C_ALIVE, C_COMB, C_HN, C_KEY, C_MAXHP, C_HP, C_RANK, C_SCORE, C_TEAM,
                      D_TURN, END_LAST, E_PASS, E_PLAY, E_TURN, O_BLOOD, O_FRZSH, O_FRZSK, O_JUDG,
                      O_RAMP, P_REFILL, Z_LK, Z_NEXT, Z_ON, Z_P, Z_PA, Z_ROUNDS, Z_V)
from ..rules import T_HAS5, T_HASA, T_HEAL
from .cards import draw_n, draws_after_play, heal_self
from .step_duel import resolve_duels
from .step_exchange import exchange, judgment, resolve_pending
from .policies import decide, decide3
from .step_v12 import combined, play_cards, rounds_end
from .step_v3 import bloodthirst, draw_n3, freeze, mark_rampage, play_cards3, turn_start3
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@ir_inlined_nrt
def turn(s, c, masks, counts, tr, p):
    """One turn of seat p in any version: a round of each effect on p ends
    as it starts (v1/v2 ``step_v12.rounds_end``; v3 in ``step_v3.turn_start3``), then
    its play. v3's turn function is inlined here (alwaysinline), not into
    v1/v2's ``play_turn``, which it slowed by ~7 %."""
    S, Z = s.S, s.Z
    if Z[Z_ON]:
        ev(tr, Z, E_TURN, p, Z[Z_ROUNDS], S[p, C_HP], S[p, C_HN], S[p, C_MAXHP], S[p, C_RANK])
    if VARIANT == 3:
        play_turn3(s, c, masks, counts, tr, p)
    else:
        play_turn(s, c, masks, counts, tr, p)


@ir_inlined_nrt
def pre12(st, S, pile, Z, tr, masks, counts, ip, p):
    """v1/v2: the start of p's turn up to its play decision: a round of each
    effect on p ends (``step_v12.rounds_end``), an empty hand refills."""
    rounds_end(S, Z, tr, p)
    if S[p, C_HN] == 0:
        draw_n(st, S, pile, Z, tr, masks, counts, p, ip[P_REFILL])


@inlined
def play12(s, c, masks, counts, tr, p, n, k, t, o):
    """v1/v2: p plays run k at t with option o (n = 0: it has none and
    passes): the run, the 10's combined skill, its heal, Judgment and the
    draws. Returns the damage that opens an exchange with t (0: none)."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, PT = c.ip, c.PT
    if n == 0:
        if Z[Z_ON]:
            ev(tr, Z, E_PASS, p, 0, 0, 0, 0, 0)
        return np.int64(0)
    dmg = play_cards(S, pile, Z, masks, counts, ip, PT, p, k)
    if Z[Z_ON]:
        ev(tr, Z, E_PLAY, p, k, t, dmg, PT[k, T_HEAL], D_TURN * 256 + o)
    if Z[Z_V] == 2 and S[p, C_RANK] == 10 and S[p, C_COMB] == 0 and PT[k, T_HASA] == 1:
        combined(S, Z, tr, ip, p)
    heal_self(S, Z, tr, p, PT[k, T_HEAL])
    died = 0
    if o == O_JUDG:
        died = judgment(s, c, masks, counts, tr, p)
    draw_n(st, S, pile, Z, tr, masks, counts, p,
           draws_after_play(S[p, C_HN], PT[k, T_HAS5], ip))
    if dmg > 0 and t >= 0 and (died >> p) & 1 == 0 and (died >> t) & 1 == 0:
        return dmg
    return np.int64(0)


@ir_inlined_nrt
def act12(s, c, masks, counts, tr, p, n, i):
    """v1/v2: p plays option acts[i] of its turn (n options; none: it
    passes); damage opens an exchange with a target, played whole."""
    Z = s.Z
    acts = c.acts
    t = acts[i, 1]
    dmg = play12(s, c, masks, counts, tr, p, n, acts[i, 0], t, acts[i, 2])
    if n == 0:
        return
    if dmg > 0:
        exchange(s, c, masks, counts, tr, p, t, dmg)
    if Z[Z_PA] >= 0:             # a revived rogue's attack is waiting
        resolve_pending(s, c, masks, counts, tr)


@ir_inlined_nrt
def play_turn(s, c, masks, counts, tr, p):
    """One turn of seat p (v1/v2): the start of the turn, a play; damage
    opens an exchange with a target. (v3: ``turn`` calls ``play_turn3``.)"""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip = c.ip
    pre12(st, S, pile, Z, tr, masks, counts, ip, p)
    n, i = decide(s, c, p, np.int64(D_TURN), np.int64(0), np.int64(-1))
    act12(s, c, masks, counts, tr, p, n, i)


@ir_inlined_nrt
def pre3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """v3: the start of p's turn up to its play decision (``step_v3.turn_start3``,
    then an empty hand refills); p may be out of play after it."""
    turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
    if S[p, C_ALIVE] == 1:
        if S[p, C_HN] == 0:
            draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])


@inlined
def play3(s, c, masks, counts, tr, p, n, k, t, o, ot):
    """v3: p plays run k at t with option o onto ot (n = 0: it has none and
    passes): the run, its skill or shield, its heal and the draws. Returns
    the damage that opens an exchange with t (0: none; the duel queue is
    the caller's)."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    if n == 0:
        if Z[Z_ON]:
            ev(tr, Z, E_PASS, p, 0, 0, 0, 0, 0)
        return np.int64(0)
    dmg = play_cards3(S, pile, Z, masks, counts, ip, PT, PID, p, k)
    Z[Z_LK] = k
    if Z[Z_ON]:
        ev(tr, Z, E_PLAY, p, k, t, dmg, PT[k, T_HEAL], D_TURN * 256 + o, )
    if o == O_BLOOD:
        bloodthirst(s, c, masks, counts, tr, p, ot)
    elif o == O_RAMP:
        mark_rampage(S, Z, tr, PT, PID, p)
    elif o == O_FRZSK or o == O_FRZSH:
        freeze(s, c, masks, counts, tr, p, ot, o - O_FRZSK)
    heal_self(S, Z, tr, p, PT[k, T_HEAL])
    draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p,
            draws_after_play(S[p, C_HN], PT[k, T_HAS5], ip))
    if dmg > 0 and t >= 0 and S[p, C_ALIVE] == 1 and S[t, C_ALIVE] == 1:
        return dmg
    return np.int64(0)


@inlined
def act3(s, c, masks, counts, tr, p, n, i):
    """v3: p plays option acts[i] of its turn (n options; none: it passes),
    then the exchange, played whole (the duel queue is the caller's)."""
    acts = c.acts
    t = acts[i, 1]
    dmg = play3(s, c, masks, counts, tr, p, n, acts[i, 0], t, acts[i, 2], acts[i, 3])
    if dmg > 0:
        exchange(s, c, masks, counts, tr, p, t, dmg)


@ir_inlined_nrt
def play_turn3(s, c, masks, counts, tr, p):
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    ip, pp, PT, PID = c.ip, c.pp, c.PT, c.PID
    pre3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
    if S[p, C_ALIVE] == 1:
        n, i = decide3(s, c, p, np.int64(D_TURN), np.int64(0), np.int64(-1))
        act3(s, c, masks, counts, tr, p, n, i)
    resolve_duels(s, c, masks, counts, tr)


@inlined
def next_turn(S, Z, key):
    """Next seat after turn-order key ``key``: the largest key below it
    among seats still in, else the largest key (a new round). Returns
    (seat, wrapped)."""
    best = -1
    top = -1
    for q in range(Z[Z_P]):
        if S[q, C_ALIVE] == 1:
            kq = S[q, C_KEY]
            if kq < key and (best < 0 or kq > S[best, C_KEY]):
                best = q
            if top < 0 or kq > S[top, C_KEY]:
                top = q
    if best >= 0:
        return best, False
    return top, True


@ir_inlined_nrt
def advance(S, Z, key0):
    """The seat to move after a turn that started at turn-order key
    ``key0`` (``next_turn``, or v3's restart from the top or resumption at
    a pouch's user, ``Z_NEXT``); counts the new round when the order wraps."""
    nxt, wrapped = next_turn(S, Z, key0)
    if Z[Z_NEXT] != 0:
        # v3: the order restarts from the top (storm god, duel, all blocked a
        # reflect) or resumes from the pouch's user
        o = Z[Z_NEXT]
        Z[Z_NEXT] = 0
        if o == 1:
            nxt, wrapped = next_turn(S, Z, np.int64(1) << np.int64(60))
            wrapped = True
        elif S[o - 2, C_ALIVE] == 1:
            nxt = o - 2
    if wrapped:
        Z[Z_ROUNDS] += 1
    return nxt


@inlined
def sides_left(S, Z):
    """Number of sides (seats, or teams) with a character/general in play."""
    P = Z[Z_P]
    seen = 0
    n = 0
    for q in range(P):
        if S[q, C_ALIVE] == 1:
            b = 1 << S[q, C_TEAM]
            if seen & b == 0:
                seen |= b
                n += 1
    return n


@internal
def winner_of(S, Z, end):
    """(winner side, last side standing) of a game that ended with ``end``:
    v1/v3 the last side standing (none: a draw, -1); v2 the highest score
    (team sum), equal scores a draw."""
    P = Z[Z_P]
    last = -1
    if end == END_LAST:
        for q in range(P):
            if S[q, C_ALIVE] == 1:
                last = S[q, C_TEAM]
                break
    winner = -1
    if Z[Z_V] != 2:
        winner = last
    else:
        # highest score (team sum) wins; equal scores: draw
        best = -1
        bsc = -1
        tie = False
        for side in range(P):
            sc = 0
            has = False
            for q in range(P):
                if S[q, C_TEAM] == side:
                    sc += S[q, C_SCORE]
                    has = True
            if not has:
                continue
            if sc > bsc:
                bsc = sc
                best = side
                tie = False
            elif sc == bsc:
                tie = True
        winner = -1 if tie else best
    return winner, last


jit.kernel_cache_end()
