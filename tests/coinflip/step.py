"""The coin flip's step interface for the game engine (``core.engine``).

Seats take turns in order (turn t: seat t mod P); a turn is one decision,
how many times the seat flips: option 1 (steady: one flip, 1 head on
heads) or 2 (bold: two flips, 2 heads only if both are heads; the turn
stops at the first tails). Heuristic ``steady`` picks 1, ``bold`` 2. The
game ends when a seat reaches ``target`` heads, or at the turn cap.

Every flip draws from the game's stream in the order of the whole-game
kernel this replaces, so the tables are the same: seat p's coin lands
heads with (50 + bias)%, ``bias`` = the rule's ``bias`` (seat 0 only) plus
the seat's ``luck``, and a fair coin (bias 0) draws ``below(st, 2)``.
"""
import numpy as np
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from balance.core import jit
from balance.core.kernel import ev, setbit  # before kernel_cache_begin
from balance.core.rng import below, game_state
from .state import (END_CAP, END_TARGET, I_BIAS, I_MAXT, I_TARGET, NZ, Z_CUR, Z_END, Z_TURN,
                    copy, info_key, redeal_hidden, reseed)  # noqa: F401  (the step interface)

POLICIES = {"steady": 0, "bold": 1}     # SPEC.policies
POL_STEADY, POL_BOLD = 0, 1
E_FLIP = 1                              # trace row: [E_FLIP, turn, seat, heads?, seat's heads]
ROLLOUT = np.array([POL_STEADY, POL_STEADY], np.int64)  # no random heuristic: steady for both

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def prepare(s, c):
    """Once per batch: nothing to prepare."""
    return


@ir_inlined
def done(s, c):
    return s.Z[Z_END] >= 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_CUR]


@inlined_callable
def begin(s, c):
    """The next turn: its seat decides, or the turn cap ends the game."""
    Z = s.Z
    t = Z[Z_TURN]
    if t >= c.ip[I_MAXT]:
        Z[Z_END] = END_CAP
        return
    Z[Z_TURN] = t + 1
    Z[Z_CUR] = t % c.P


@compiled
def broken_invariants(s, c):
    """Check mode: every seat's heads in [0, target + 1] (a bold turn may
    pass the target by one)."""
    bad = 0
    for q in range(s.S.shape[0]):
        if s.S[q, 0] < 0 or s.S[q, 0] > c.ip[I_TARGET] + 1:
            bad += 1
    return bad


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game: no heads, seat 0's turn 1 (nothing is dealt)."""
    s.st[0] = game_state(seed, game)
    for q in range(s.S.shape[0]):
        s.S[q, 0] = 0
    for j in range(NZ):
        s.Z[j] = 0
    s.Z[Z_END] = -1
    begin(s, c)
    return np.int64(0)


@compiled
def options(s, c, rows):
    """Flip once or twice."""
    rows[0] = 1
    rows[1] = 2
    return 2


@inlined_callable
def heuristic(s, c, pol):
    """bold flips twice, steady (and any other id) once."""
    return np.int64(2) if pol == POL_BOLD else np.int64(1)


@compiled
def prior(s, c, code):
    """steady's score of an option: flipping once."""
    return 1.0 if code == 1 else 0.0


@inlined_callable
def apply(s, c, code, masks, counts, tr, on, check):
    """Seat Z_CUR flips ``code`` times (stopping at the first tails) and
    scores ``code`` heads if all were heads; then the target ends the
    game, or the next turn begins. Returns broken invariants (check mode)."""
    S, Z = s.S, s.Z
    p = Z[Z_CUR]
    had = S[p, 0]
    scored = code
    for _ in range(code):
        bias = (c.ip[I_BIAS] if p == 0 else 0) + c.pp[p, 0]   # seat 0's bias, the seat's luck
        if bias != 0:                                         # heads with (50 + bias)%
            h = 1 if below(s.st, 100) < 50 + bias else 0
        else:
            h = below(s.st, 2)
        counts[0, h] += 1
        setbit(masks, p, 0, h)
        if on:
            ev(tr, Z, E_FLIP, p, h, had + h, 0, 0, 0)
        if h == 0:
            scored = 0
            break
    S[p, 0] = had + scored
    errors = broken_invariants(s, c) if check else 0
    if S[p, 0] >= c.ip[I_TARGET]:
        Z[Z_END] = END_TARGET
    else:
        begin(s, c)
    return np.int64(errors)


@ir_inlined
def winners(s, c):
    """The seat that reached the target (0: the turn cap, nobody)."""
    if s.Z[Z_END] == END_TARGET:
        return np.int64(1) << s.Z[Z_CUR]
    return np.int64(0)


@compiled
def finish(s, c, tr, on, grow, srow):
    """The records: (winner, turns, rounds, end_reason), each seat's heads."""
    Z, P = s.Z, c.P
    if Z[Z_END] == END_TARGET:
        t = Z[Z_TURN]
        grow[0], grow[1], grow[2], grow[3] = Z[Z_CUR], t, (t - 1) // P + 1, END_TARGET
    else:
        T = c.ip[I_MAXT]
        grow[0], grow[1], grow[2], grow[3] = -1, T, (T + P - 1) // P, END_CAP
    for q in range(P):
        srow[q, 0] = s.S[q, 0]


jit.kernel_cache_end()
