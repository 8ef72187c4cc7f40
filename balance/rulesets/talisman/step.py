"""Talisman Poker's step interface for the game engine (``core.engine``).

A turn is a phase machine held in ``Z``: the turn begins (the turn cap,
wind skips, the draw), then seat ``Z_CUR`` decides, ``Z_PHASE``:
``PH_DISCARD`` (one card at a time while its hand is above ``hand_limit``:
option = the hand index) or ``PH_ACTION`` (option = an action code,
``policies.list_actions``, or 0 for passing, always legal). ``apply`` plays
the option and goes on to the next decision or the end. Every random
number of the game comes from ``State.st`` in the order the rules need it
(``reference.py`` replays the same order).

The rule parts it plays are below it: the zones (``state_zones``), the
combos (``step_combos``), the heuristics (``policies``) and the parts that
change the game (``step_play``). The engine reads the heuristics from
this module: ``heuristic`` dispatches to ``policies``, and ``prior``
(greedy's score of an option) is ``policies.prior``.
"""
import numpy as np
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from ...core import jit
from ...core.kernel import ev  # before kernel_cache_begin
from ...core.rng import game_state
from .layout import (A_COMBO, C_ALIVE, C_GUARDS, C_HN, C_HP, C_SKIPS, E_DISCARD, E_SKIP,
                     E_TURN, END_CAP, END_LAST, PH_ACTION, PH_DISCARD, POL_GREEDY, POL_RANDOM,
                     Z_ALIVE, Z_CUR, Z_END, Z_PHASE, Z_ROUNDS, Z_TURN)
from .policies import (action_parts, choose_discard, choose_greedy, choose_random,
                       fill_special_table, list_actions)
from .policies import prior  # noqa: F401  (the step interface: greedy's score of an option)
from .rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)
from .state_slots import P_LIMIT, P_MAXT
from .state_zones import draw, next_alive, take_from_hand, to_discard
from .step_combos import combo_sizes_apart
from .step_play import broken_invariants, eliminate, end_turn, fill_deck, records, start

ROLLOUT = np.array([POL_GREEDY, POL_RANDOM], np.int64)   # search_rollout_policy 0, 1

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def prepare(s, c):
    """Once per batch: the special tables (one per seat) and the unshuffled deck."""
    fill_special_table(c.ip, c.pp, c.spbest)
    fill_deck(c.ip, c.ban, s.pile, s.Z)


@ir_inlined
def done(s, c):
    return s.Z[Z_END] >= 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_CUR]


@inlined_callable
def begin(s, c, masks, counts, tr, on, check):
    """Turns begin from seat Z_CUR's until one asks a decision (after its
    draw) or the turn cap ends the game. Returns broken invariants."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    errors = 0
    while True:
        t = Z[Z_TURN]
        if t >= c.ip[P_MAXT]:
            Z[Z_END] = END_CAP
            return errors
        Z[Z_TURN] = t + 1
        cur = Z[Z_CUR]
        if on:
            ev(tr, Z, E_TURN, cur, Z[Z_ROUNDS], S[cur, C_HP], S[cur, C_HN], S[cur, C_GUARDS], 0)
        if S[cur, C_SKIPS] > 0:             # wind
            S[cur, C_SKIPS] -= 1
            if on:
                ev(tr, Z, E_SKIP, cur, S[cur, C_SKIPS], 0, 0, 0, 0)
            if check:
                errors += broken_invariants(S, s.hand, Z, P)
            nxt = next_alive(S, cur, P)
            if nxt <= cur:
                Z[Z_ROUNDS] += 1
            Z[Z_CUR] = nxt
            continue
        draw(s.st, S, s.hand, s.pile, Z, cur, masks, counts, tr, on, False)
        Z[Z_PHASE] = PH_DISCARD if S[cur, C_HN] > c.ip[P_LIMIT] else PH_ACTION
        return errors


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game (``step_play.start``), played on to its first decision."""
    s.st[0] = game_state(seed, game)
    start(s.st, s.S, s.hand, s.pile, s.Z, masks, counts, tr, on, c.ip, c.P)
    Z = s.Z
    Z[Z_CUR] = 0
    Z[Z_ALIVE] = c.P
    Z[Z_ROUNDS] = 1
    Z[Z_END] = -1
    Z[Z_PHASE] = PH_ACTION
    return begin(s, c, masks, counts, tr, on, check)


@ir_inlined
def code_of(kind, arg, tgt):
    """An action's option code (``policies.action_parts`` reads it back)."""
    return kind * 4096 + arg * 16 + tgt + 1


@compiled
def options(s, c, rows):
    """The options of the pending decision into ``rows``: every hand index
    (a discard: copies of a special are kept apart, since which one goes
    orders the hand), or ``list_actions`` then passing (the turn's action)."""
    S, hand = s.S, s.hand
    p = s.Z[Z_CUR]
    if s.Z[Z_PHASE] == PH_DISCARD:
        for i in range(S[p, C_HN]):
            rows[i] = i
        return S[p, C_HN]
    n = list_actions(S, hand, p, c.P, c.NB, rows, c.ban)
    rows[n] = 0                               # passing
    return n + 1


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, greedy, patient; any other id
    plays greedy), drawing its ties from the game's stream."""
    S, hand = s.S, s.hand
    p = s.Z[Z_CUR]
    if s.Z[Z_PHASE] == PH_DISCARD:
        return choose_discard(pol, s.st, S, hand, p, c.NB, c.V, c.sizes, c.acts, c.ip,
                              c.pp[p])
    if pol == POL_RANDOM:
        kind, arg, tgt = choose_random(s.st, S, hand, p, c.P, c.NB, c.sizes, c.acts, c.ban)
    else:
        kind, arg, tgt = choose_greedy(s, c, pol, p)
    return code_of(kind, arg, tgt)


@inlined_callable
def apply(s, c, code, masks, counts, tr, on, check):
    """Seat Z_CUR plays option ``code``, then the game goes on to the next
    decision or the end. Returns broken invariants (check mode)."""
    S, hand, pile, Z = s.S, s.hand, s.pile, s.Z
    P = S.shape[0]
    p = Z[Z_CUR]
    if Z[Z_PHASE] == PH_DISCARD:
        x = take_from_hand(S, hand, p, code)
        to_discard(pile, Z, x)
        if on:
            ev(tr, Z, E_DISCARD, p, x, 0, 0, 0, 0)
        if S[p, C_HN] <= c.ip[P_LIMIT]:
            Z[Z_PHASE] = PH_ACTION
        return np.int64(0)
    kind, arg, tgt = action_parts(code)
    if kind == A_COMBO:
        combo_sizes_apart(S, p, c.sizes)    # fire reads p's combo sizes
    errors = end_turn(s, c, masks, counts, tr, on, check, p, kind, arg, tgt)
    alive = Z[Z_ALIVE] - eliminate(S, hand, pile, Z, tr, on, P, c.V)
    Z[Z_ALIVE] = alive
    if check:
        errors += broken_invariants(S, hand, Z, P)
    if alive <= 1:
        Z[Z_END] = END_LAST
        return errors
    nxt = next_alive(S, p, P)
    if nxt <= p:
        Z[Z_ROUNDS] += 1
    Z[Z_CUR] = nxt
    return errors + begin(s, c, masks, counts, tr, on, check)


@ir_inlined
def winners(s, c):
    """The winners' mask: the seat left standing (0: none, or the cap)."""
    w = np.int64(0)
    if s.Z[Z_END] == END_LAST:
        for q in range(s.S.shape[0]):
            if s.S[q, C_ALIVE] == 1:
                w |= np.int64(1) << q
    return w


@compiled
def finish(s, c, tr, on, grow, srow):
    """The game's records (``step_play.records``)."""
    Z = s.Z
    records(s.S, Z, tr, on, c.P, Z[Z_END], Z[Z_TURN], Z[Z_ROUNDS], grow, srow)


jit.kernel_cache_end()
