"""Demon Faction's step interface for the game engine (``core.engine``,
which ``core.engine.bind`` reads here, with ``POLICIES`` and the state's
functions re-exported from ``state``): the rules as a phase machine over
the rule parts of ``step_turn`` (placement, a turn's start, preparation,
the draw, the deal, the invariants, the records) and ``step_fight`` (the
attack), choosing with ``policies``.

A turn is a phase machine held in ``Z``: the turn begins (the turn cap,
``step_turn.turn_head``, then ``step_turn.front``: activation, J effects,
K options, preparation, the draw), then seat ``Z_CUR`` decides,
``Z_PHASE``: ``PH_PLACE`` (one placement pick at a time, or end
placement; asked again after each placement) and ``PH_ATTACK`` (an
attack, or none). A pick with a single legal row (only "end placement",
only "no attack") is played on without stopping, as ``policies.choose``
plays it (nothing drawn, no decision counted). After the attack the turn
closes (the board in the trace, the check-mode invariants, the stalemate
count) and the next turn begins.

Option codes hold the whole row: a placement ``t | (card + 1) << 3 |
arg << 9 | (arg2 + 1) << 12`` (``layout.A_*``: the type, the card, the
row, slot or seat*3+row, the second card of a pair or the face card
replaced or which ♥ target), an attack ``(row + 1) | (target + 1) << 2 |
mode << 4`` (0: no attack).

The small choices stay inside ``apply``, chosen by each seat's own policy
(``Ctx.pol``; a search seat chooses them as greedy does): K options, the
small joker's reply, a clash's fight or yield, the Q option, a tie among
equal cards, the preparation's discards.

Every random number comes from ``State.st`` in the order the rules need
it: ``heuristic`` draws its tie-break where ``policies.choose`` does, so a
game of plain policies is the game the scenario tests' whole turns
(``step_scenario``) play.

``advance`` lists the pick it stops at for the seat's own policy into
``State.rows`` (``Z_LISTED``, ``Z_NROWS``) and ``heuristic`` picks from
those rows when asked for that policy (one listing per pick); ``apply``
and ``copy`` drop them. Each engine call passes the State, the Ctx and
the records as some 150 machine words, more than a decision's own work,
so ``heuristic`` and ``advance`` are LLVM-inlined (``forceinline``) and
``apply`` is inlined by numba into the engine's batch loop
(``core.engine.inlining.in_batch_loop``: ``core.engine.loop.play_blocks``,
where ``play_game`` is inlined) and nowhere else: inlined at every search
call site, its turn would be compiled once per site, so there it stays a
plain call.
"""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from ...core import jit
from ...core.engine.inlining import in_batch_loop
from ...core.rng import game_state
from .policies import heuristic_pick
from .layout import (A_END, END_CAP, PH_ATTACK, PH_PLACE, POL_GREEDY, POL_RANDOM, Z_CUR, Z_DEC,
                     Z_DONE, Z_END, Z_LISTED, Z_NROWS, Z_ON, Z_PHASE, Z_TURN, Z_WIN)
from .rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)
from .step_board import P_MAXT, P_STALE
from .step_fight import attack_choice, list_attack, no_first_attack
from .step_turn import (apply_place, board_events, broken_invariants, fill_deck, front, list_place,
                        outcome, start, turn_head, turn_tail)
from .step_turn import finish as records

ROLLOUT = np.array([POL_GREEDY, POL_RANDOM], np.int64)   # search_rollout_policy 0, 1

# where ``advance`` resumes the turn
ST_BEGIN, ST_PLACE, ST_ATTACK, ST_CLOSE = 0, 1, 2, 3

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def prepare(s, c):
    """Once per batch: the unshuffled deck and the forbidden cards."""
    fill_deck(c.ban, s.pile, s.Z)


@ir_inlined
def done(s, c):
    return s.Z[Z_END] >= 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_CUR]


@ir_inlined
def place_code(rows, i):
    return (rows[i, 1] | ((rows[i, 2] + 1) << 3) | (rows[i, 3] << 9)
            | ((rows[i, 4] + 1) << 12))


@ir_inlined
def attack_code(rows, i):
    return (rows[i, 1] + 1) | ((rows[i, 2] + 1) << 2) | (rows[i, 3] << 4)


@ir_inlined
def listed(s, c, pl):
    """The pending pick's rows in ``s.rows``/``s.sc`` (placement rows scored
    for policy ``pl``; attack rows score the same for every policy), listed
    unless they are already; returns how many."""
    Z = s.Z
    ph = Z[Z_PHASE]
    if Z[Z_LISTED] == pl + 1 or (Z[Z_LISTED] != 0 and ph == PH_ATTACK):
        return Z[Z_NROWS]
    p = Z[Z_CUR]
    if ph == PH_PLACE:
        n = list_place(s.S, Z, c.ip, c.pp, s.rows, s.sc, c.tmp, p, pl)
    else:
        n = list_attack(s.S, Z, c.ip, c.pp, s.rows, s.sc, c.tmp, p)
    Z[Z_LISTED] = pl + 1
    Z[Z_NROWS] = n
    return n


@ir_inlined
def code_of(s, i):
    if s.Z[Z_PHASE] == PH_PLACE:
        return place_code(s.rows, i)
    return attack_code(s.rows, i)


@ir_inlined
def end_game(S, Z, e):
    w, end = outcome(S, e)
    Z[Z_END] = end
    Z[Z_WIN] = w


@inlined_callable
def advance(s, c, stage, masks, counts, tr, on, check):
    """Play seat Z_CUR's turn on from ``stage`` (ST_*), and the turns after
    it, until a pick with two or more rows (``Z_PHASE`` set) or the end.
    Returns broken invariants (check mode)."""
    S, Z = s.S, s.Z
    ip, pp, pol, tmp = c.ip, c.pp, c.pol, c.tmp
    errors = 0
    while True:
        p = Z[Z_CUR]
        if stage == ST_PLACE:
            if Z[Z_DONE]:
                stage = ST_CLOSE
            else:
                # listed for the seat's own policy: its heuristic picks from them
                n = list_place(S, Z, ip, pp, s.rows, s.sc, tmp, p, pol[p])
                if n > 1:
                    Z[Z_PHASE] = PH_PLACE
                    Z[Z_LISTED] = pol[p] + 1
                    Z[Z_NROWS] = n
                    return errors
                stage = ST_ATTACK
        if stage == ST_ATTACK:
            if Z[Z_DONE] or no_first_attack(Z, tr, p):
                stage = ST_CLOSE
            else:
                n = list_attack(S, Z, ip, pp, s.rows, s.sc, tmp, p)
                if n > 1:
                    Z[Z_PHASE] = PH_ATTACK
                    Z[Z_LISTED] = pol[p] + 1
                    Z[Z_NROWS] = n
                    return errors
                attack_choice(s, c, masks, counts, tr, p, s.rows[0, 1], s.rows[0, 2],
                              s.rows[0, 3], n)
                stage = ST_CLOSE
        if stage == ST_CLOSE:
            if Z[Z_ON]:
                board_events(S, Z, tr)
            if check:
                errors += broken_invariants(S, Z, s.pile, ip)
            e = turn_tail(Z, 2 * ip[P_STALE])
            if e >= 0:
                end_game(S, Z, e)
                return errors
            Z[Z_CUR] = 1 - p
            stage = ST_BEGIN
        if stage == ST_BEGIN:
            t = Z[Z_TURN]
            if t >= ip[P_MAXT]:
                end_game(S, Z, END_CAP)
                return errors
            cur = Z[Z_CUR]
            turn_head(S, Z, tr, cur, t + 1)
            front(s, c, masks, counts, tr, cur)
            stage = ST_PLACE


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game (``step_turn.start``: both decks shuffled, the opening
    hands), played on to its first decision."""
    s.st[0] = game_state(seed, game)
    start(s.st, s.S, s.Z, s.pile, masks, counts, tr, c.ip, on)
    Z = s.Z
    Z[Z_CUR] = 0
    Z[Z_PHASE] = PH_PLACE
    Z[Z_END] = -1
    Z[Z_WIN] = -1
    Z[Z_LISTED] = 0
    return advance(s, c, np.int64(ST_BEGIN), masks, counts, tr, on, check)


@compiled
def options(s, c, rows):
    """The pending pick's distinct legal rows as codes (the last: end
    placement, or no attack), at most ``len(rows)`` (the end kept)."""
    Z = s.Z
    n = Z[Z_NROWS] if Z[Z_LISTED] != 0 else listed(s, c, np.int64(POL_RANDOM))
    m = min(n, rows.shape[0])
    for i in range(m - 1):
        rows[i] = code_of(s, i)
    rows[m - 1] = code_of(s, n - 1)
    return m


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, greedy, defensive; a search id
    picks as greedy does: ``policies.heuristic_pick``), drawing from the
    game's stream as ``policies.choose``."""
    n = listed(s, c, pol)
    return code_of(s, heuristic_pick(s.st, pol, s.rows, s.sc, n))


@compiled
def prior(s, c, code):
    """greedy's score of an option (the search's top-k)."""
    n = listed(s, c, np.int64(POL_GREEDY))
    for i in range(n):
        if code_of(s, i) == code:
            return s.sc[i]
    return 0.0


@njit(cache=True, _nrt=False, inline=in_batch_loop)
def apply(s, c, code, masks, counts, tr, on, check):
    """Seat Z_CUR plays option ``code``; the game goes on to the next
    decision or the end. Returns broken invariants (check mode)."""
    Z = s.Z
    Z[Z_ON] = 1 if on else 0
    Z[Z_LISTED] = 0
    Z[Z_DEC] += 1
    p = Z[Z_CUR]
    if Z[Z_PHASE] == PH_PLACE:
        t = code & 7
        stage = ST_ATTACK
        if t != A_END:
            apply_place(s, c, masks, counts, tr, p, t, ((code >> 3) & 63) - 1, (code >> 9) & 7,
                        (code >> 12) - 1)
            stage = ST_PLACE
    else:
        attack_choice(s, c, masks, counts, tr, p, (code & 3) - 1, ((code >> 2) & 3) - 1, code >> 4,
                      np.int64(2))
        stage = ST_CLOSE
    return advance(s, c, np.int64(stage), masks, counts, tr, on, check)


@ir_inlined
def winners(s, c):
    w = s.Z[Z_WIN]
    return (np.int64(1) << w) if w >= 0 else np.int64(0)


@compiled
def finish(s, c, tr, on, grow, srow):
    """The game's records (``step_turn.finish``)."""
    Z = s.Z
    Z[Z_ON] = 1 if on else 0
    t = Z[Z_TURN]
    records(s.S, Z, tr, Z[Z_WIN], Z[Z_END], t, (t + 1) // 2, grow, srow)


jit.kernel_cache_end()
