"""Magic Resonance's step interface for the game engine (``core.engine``,
which imports this module and reads its functions and ``POLICIES``).

A turn is a phase machine held in ``Z``: the turn begins (the turn cap,
the draw, counter's and saboteur's magic-card and dissolve uses, a forced
redraw: ``step_turn.turn_head``), then seat ``Z_CUR`` decides
``PH_PLACE`` (the rune kind to place, -1 when none is placeable; then its
peek and peek uses, ``step_turn.turn_place``) and ``PH_START`` (a revealed
slot, or -1); a resonance asks each seat still in after the initiator, in
turn order, ``PH_JOIN`` (1 or 0; seat ``Z_Q``), then resolves
(``step_turn.res_close``). The peeks, discards, magic-card and dissolve
uses stay inside ``apply``, chosen by the seat's own policy (``Ctx.pol``;
a search seat plays them as counter does).

The rule parts are in ``step_actions`` (single actions, end checks),
``step_turn`` (the turn, the resonance) and ``step_game`` (deal, records);
the heuristics in ``policies`` (``prior`` is re-exported from there).
Every random number comes from the game's stream ``st`` (the deal) and
each seat's own stream ``ST[p]``, in the same order as ``step_turn.turn``
draws them, so a plain policy's game is the same played either way.
"""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from ...core import jit
from ...core.engine.inlining import in_batch_loop
from ...core.kernel import BAN_FORBID, ev  # before kernel_cache_begin
from .layout import (C_H, C_IN, C_JOINED, E_JOIN, E_NOSTART, END_CAP, PH_JOIN, PH_PLACE,
                     PH_START, POL_COUNTER, POL_RANDOM, Z_CARD, Z_CUR, Z_DEC, Z_END, Z_INIT, Z_JK,
                     Z_NEXT, Z_NJ, Z_PART, Z_PHASE, Z_Q, Z_REV, Z_TURN)
from .policies import choose_place, wants_join, wants_start
from .policies import prior  # noqa: F401  (the step interface: the search's top-k)
from .rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .state import P_MAXT
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)
from .step_actions import check_end, next_in
from .step_game import broken_invariants, fill_deck, start
from .step_game import finish as records
from .step_game import winners as winners_of
from .step_turn import after_resonance, res_close, res_open, turn_head, turn_place

ROLLOUT = np.array([POL_COUNTER, POL_RANDOM], np.int64)   # search_rollout_policy 0, 1

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def prepare(s, c):
    """Once per batch: the unshuffled rune deck."""
    fill_deck(c.ip, c.ban, s.pile, s.Z)


@ir_inlined
def done(s, c):
    return s.Z[Z_END] >= 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_Q] if s.Z[Z_PHASE] == PH_JOIN else s.Z[Z_CUR]


@compiled
def turns_on(s, c, e, first, masks, counts, tr, on, check):
    """A turn ended with ``e`` (an end reason, or -1; ``first``: none was
    played yet): the check-mode invariants, the end, or the next seat's
    turn up to its placement. Returns broken invariants."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    errors = 0
    while True:
        if not first:
            if check:
                errors += broken_invariants(S, s.F, Z, s.MD, c.ip, P)
            if e >= 0:
                Z[Z_END] = e
                return errors
            nxt = Z[Z_NEXT]
            Z[Z_CUR] = nxt if nxt >= 0 else next_in(S, Z[Z_CUR], P)
        first = False
        if Z[Z_TURN] >= c.ip[P_MAXT]:
            Z[Z_END] = END_CAP
            return errors
        Z[Z_TURN] += 1
        p = Z[Z_CUR]
        e = turn_head(s, c, p, masks, counts, tr, on)
        if e < 0:
            Z[Z_PHASE] = PH_PLACE
            return errors


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game (``step_game.start``), played on to its first decision."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    start(s, c, seed, game, masks, counts, tr, on)
    errors = 0
    if check:
        errors += broken_invariants(S, s.F, Z, s.MD, c.ip, P)
    Z[Z_CUR] = 0
    Z[Z_END] = -1
    end = check_end(S, Z, c.ip, P, tr, on)      # a deal that emptied the deck
    if end >= 0:
        Z[Z_END] = end
        return errors
    return errors + turns_on(s, c, np.int64(-1), True, masks, counts, tr, on, check)


@compiled
def options(s, c, rows):
    """The pending decision's options into ``rows``: each placeable rune
    kind (or -1 alone), -1 then each revealed slot, or 0 and 1."""
    S, Z = s.S, s.Z
    ph = Z[Z_PHASE]
    if ph == PH_PLACE:
        p = Z[Z_CUR]
        n = 0
        for k in range(12):
            if S[p, C_H + k] > 0 and c.ban[k] != BAN_FORBID:
                rows[n] = k
                n += 1
        if n == 0:
            rows[0] = -1
            n = 1
        return n
    if ph == PH_START:
        rows[0] = -1
        n = 1
        for j in range(2):
            if Z[Z_REV + j] >= 0:
                rows[n] = j
                n += 1
        return n
    rows[0] = 0
    rows[1] = 1
    return np.int64(2)


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, counter, saboteur; a search id
    plays counter), from the seat's own stream."""
    S, F, Z = s.S, s.F, s.Z
    ph = Z[Z_PHASE]
    if ph == PH_PLACE:
        p = Z[Z_CUR]
        return choose_place(pol, S, F, Z, c.M, s.ST, p, c.W, c.ip, c.pp[p], c.ban)
    if ph == PH_START:
        p = Z[Z_CUR]
        return wants_start(pol, S, F, Z, c.M, s.ST, p, c.W, c.ip, c.pp[p])
    q = Z[Z_Q]
    return np.int64(1) if wants_join(pol, S, F, Z, c.M, s.ST, q, c.W, Z[Z_CARD], c.ip,
                                     c.pp[q]) else np.int64(0)


@inlined_callable
def joins_next(s, c, masks, counts, tr, on):
    """Ask the next seat still in after the initiator (returns -2: its join
    decision is pending), or, when every one of the P - 1 was asked,
    resolve the resonance: returns the turn's end (an end reason or -1)."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    while Z[Z_JK] < P - 1:
        Z[Z_JK] += 1
        q = Z[Z_Q] + 1
        if q >= P:
            q = 0
        Z[Z_Q] = q
        if S[q, C_IN] == 1:
            Z[Z_PHASE] = PH_JOIN
            return np.int64(-2)
    p = Z[Z_INIT]
    out = res_close(s, c, p, Z[Z_CARD], Z[Z_PART], Z[Z_NJ], masks, counts, tr, on)
    return after_resonance(S, Z, c.ip, p, out, tr, on)


@njit(cache=True, _nrt=False, inline=in_batch_loop)
def apply(s, c, code, masks, counts, tr, on, check):
    """The pending decision's seat plays option ``code``; the game goes on to
    the next decision or the end. Returns broken invariants (check mode).
    ``joins_next`` (LLVM-inlined: a call per join decision) and
    ``turns_on`` (a plain call, once a turn: inlined too, it would be
    compiled into both ``deal`` and ``apply``) have one call site each."""
    S, Z = s.S, s.Z
    ph = Z[Z_PHASE]
    p = Z[Z_CUR]
    if ph == PH_PLACE:
        e = turn_place(s, c, p, code, masks, counts, tr, on)
        if e == -1:
            Z[Z_PHASE] = PH_START
            return np.int64(0)
        if e < 0:
            e = np.int64(-1)
    else:
        Z[Z_DEC] += 1
        e = np.int64(-2)                    # a resonance goes on
        if ph == PH_START:
            if code < 0:
                if on:
                    ev(tr, Z, E_NOSTART, p, 0, 0, 0, 0, 0)
                e = np.int64(-1)
            else:
                Z[Z_CARD] = res_open(S, Z, p, code, tr, on)
                Z[Z_INIT] = p
                Z[Z_PART] = np.int64(1) << p
                Z[Z_NJ] = 0
                Z[Z_Q] = p
                Z[Z_JK] = 0
        else:
            q = Z[Z_Q]
            if code == 1:
                Z[Z_PART] |= np.int64(1) << q
                Z[Z_NJ] += 1
                S[q, C_JOINED] += 1
            if on:
                ev(tr, Z, E_JOIN, q, code, Z[Z_CARD], 0, 0, 0)
        if e == -2:
            e = joins_next(s, c, masks, counts, tr, on)
            if e == -2:
                return np.int64(0)
    return turns_on(s, c, e, False, masks, counts, tr, on, check)


@ir_inlined
def winners(s, c):
    return winners_of(s.S, s.S.shape[0], s.Z[Z_END])


@compiled
def finish(s, c, tr, on, grow, srow):
    """The game's records (``step_game.finish``)."""
    records(s.S, s.Z, c.M, tr, on, s.S.shape[0], s.Z[Z_END], s.Z[Z_TURN], grow, srow)


jit.kernel_cache_end()
