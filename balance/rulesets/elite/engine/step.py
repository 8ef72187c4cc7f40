"""Magic Elite's step interface for the game engine (``core.engine``).

A game is a phase machine held in ``Z`` (``layout.Z_CUR`` ... ``Z_XS``):
the turn of seat ``Z_CUR`` begins (the turn cap, v1/v2 effects ending, v3's
start of a turn, an empty hand's refill: ``begin``), then the pending
decision is ``Z_PHASE``:

- ``PH_TURN``: ``Z_CUR``'s turn play;
- ``PH_RESP``: the defender ``Z_XD``'s response in the exchange (``Z_XA``
  sent ``Z_XI`` damage; ``Z_XS`` responses so far): every response of an
  OD chain is a decision of its own, so a search searches responses too.

An option is one int64 code (``code_of``): the run, its target, its
option (Judgment, frame, shield, control, v3 shields, frost,
bloodthirst) and the option's target; ``PASS`` (0) when the seat has no
option (it passes its turn, or takes the damage). ``apply`` plays it with
the turn's own code (``step_turn.play12``/``play3``,
``step_exchange.xresp12``/``xresp3``), then goes on: the next response
(``step_exchange.xnext``), or the end of the exchange (``settle``: a
revived rogue's pending attack opens the next exchange, v3's duel queue is
resolved), the end of the turn (check mode's invariants, the sides left,
the next seat) and the next turn.

Decisions that stay inside ``apply``, chosen by the seat's own heuristic
(greedy for a seat that searches): a v1 rogue's paid revive, v3's spent 4s
(reflect blocks, thaws, ending bloodthirst, steals), the shop,
``duel_first`` and the duel's plays (which the rules fix). A heuristic
called for a seat (``heuristic``) records its policy in the seat's
``C_POL``, so in a rollout these inner choices are the rollout policy's
once the seat has decided.

Every random number of the game comes from ``State.st``, in the order
the whole-turn code (the scenarios' ``entry``) draws them.

This module is the one ``core.engine.bind`` imports (``kernel``): it reads
the step interface's functions and ``POLICIES`` here, so the state's
functions (``state``) and the heuristics' dispatchers (``heuristic``,
``options``, ``prior`` over ``policies``) are found here too; the rule
parts it plays are the ``step_*`` modules.
"""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, inlined, inlined_callable, internal, ir_inlined

from ....core import jit
from ....core.engine.inlining import in_batch_loop
from ....core.kernel import ev  # before kernel_cache_begin: cached with core
from ..layout import (C_ALIVE, C_HN, C_HP, C_KEY, C_MAXHP, C_OUT, C_POL, C_RANK, C_TEAM, D_RESP,
                      D_TURN, END_ALLOUT, END_CAP, END_LAST, E_TURN, G_FIRST, PH_RESP, PH_TURN,
                      POL_GREEDY, POL_RANDOM, POL_SEARCH0, P_MAXT, Z_CERR, Z_CUR, Z_END,
                      Z_FIRST, Z_KEY0, Z_ON, Z_PA, Z_PD, Z_PHASE, Z_PT, Z_ROUNDS, Z_TURN, Z_V,
                      Z_XA, Z_XD, Z_XI)
from ..rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .step_duel import resolve_duels
from .step_exchange import xnext, xopen, xresp3, xresp12
from .step_game import check_state, first_seat, init_game
from .step_game import finish as records
from .policies import decide, decide3, options3, options12, seat_row
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)
from .step_turn import advance, play3, play12, pre3, pre12, sides_left, winner_of
from . import RULESET, VARIANT

ROLLOUT = np.array([POL_GREEDY, POL_RANDOM], np.int64)   # search_rollout_policy 0, 1
PASS = 0

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)


@ir_inlined
def code_of(k, t, o, ot):
    """An option's code: run k, target t, option o onto ot (``parts``)."""
    return 1 + k * 4096 + o * 256 + (t + 1) * 16 + (ot + 1)


@ir_inlined
def parts(code):
    x = code - 1
    return x // 4096, (x // 16) % 16 - 1, (x // 256) % 16, x % 16 - 1


@compiled
def prepare(s, c):
    """Nothing to prepare: every game builds its own deck (``step_game.init_game``)."""
    return None


@ir_inlined
def done(s, c):
    return s.Z[Z_END] >= 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_XD] if s.Z[Z_PHASE] == PH_RESP else s.Z[Z_CUR]


@internal
def end_turn(s, c, check):
    """Z_CUR's turn is over: the invariants (check mode), the sides left
    (the game may end), the next seat. Returns broken invariants (and, at
    the end, the negative damage counted: ``Z_CERR``)."""
    S, Z = s.S, s.Z
    errors = check_state(S, Z) if check else 0
    n = sides_left(S, Z)
    if n <= 1:
        Z[Z_END] = END_LAST if n == 1 else END_ALLOUT
        return errors + Z[Z_CERR]
    Z[Z_CUR] = advance(S, Z, Z[Z_KEY0])
    return errors


@inlined_callable
def begin(s, c, masks, counts, tr, check):
    """Turns begin from seat Z_CUR's until one asks its turn play (v3: a
    seat the start of its turn put out of play has no play; its duels are
    resolved and the turn ends) or the turn cap ends the game. Returns
    broken invariants."""
    st, S, pile, Z = s.st, s.S, s.pile, s.Z
    errors = 0
    while True:
        if Z[Z_TURN] >= c.ip[P_MAXT]:
            Z[Z_END] = END_CAP
            return errors + Z[Z_CERR]
        Z[Z_TURN] += 1
        p = Z[Z_CUR]
        Z[Z_KEY0] = S[p, C_KEY]
        if Z[Z_ON]:
            ev(tr, Z, E_TURN, p, Z[Z_ROUNDS], S[p, C_HP], S[p, C_HN], S[p, C_MAXHP], S[p, C_RANK])
        if VARIANT == 3:
            pre3(st, S, pile, Z, tr, masks, counts, c.ip, c.pp, c.PT, c.PID, p)
            if S[p, C_ALIVE] == 1:
                Z[Z_PHASE] = PH_TURN
                return errors
            resolve_duels(s, c, masks, counts, tr)
        else:
            pre12(st, S, pile, Z, tr, masks, counts, c.ip, p)
            Z[Z_PHASE] = PH_TURN
            return errors
        errors += end_turn(s, c, check)
        if Z[Z_END] >= 0:
            return errors


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game (``step_game.init_game``), played on to its first decision."""
    Z = s.Z
    init_game(s, c, seed, game, masks, counts, tr, on)
    p = first_seat(s.S, Z)
    Z[Z_CUR] = p
    Z[Z_FIRST] = p
    Z[Z_END] = -1
    Z[Z_XD] = -1
    return begin(s, c, masks, counts, tr, check)


@inlined
def settle(s, c, masks, counts, tr, check):
    """After the turn play or its exchange: v1/v2, a revived rogue's
    pending attack opens the next exchange (its first response is the next
    decision); v3, the duel queue; then the turn ends and the next begins."""
    S, Z = s.S, s.Z
    if VARIANT != 3:
        while Z[Z_PA] >= 0:
            a = Z[Z_PA]
            t = Z[Z_PT]
            Z[Z_PA] = -1
            if S[a, C_ALIVE] == 1 and S[t, C_ALIVE] == 1 and a != t:
                xopen(Z, a, t, Z[Z_PD])
                if xnext(s, c, masks, counts, tr):
                    Z[Z_PHASE] = PH_RESP
                    return np.int64(0)
    else:
        resolve_duels(s, c, masks, counts, tr)
    errors = end_turn(s, c, check)
    if Z[Z_END] < 0:
        errors += begin(s, c, masks, counts, tr, check)
    return errors


@njit(cache=True, _nrt=False, inline=in_batch_loop)
def apply(s, c, code, masks, counts, tr, on, check):
    """The seat to decide plays option ``code``, then the game goes on to
    the next decision or the end. Returns broken invariants (check mode)."""
    Z = s.Z
    Z[Z_ON] = 1 if on else 0
    n = 0 if code == PASS else 1
    k, t, o, ot = parts(code)
    if Z[Z_PHASE] == PH_RESP:
        if VARIANT == 3:
            go = xresp3(s, c, masks, counts, tr, n, k, o, ot)
        else:
            go = xresp12(s, c, masks, counts, tr, n, k, o, ot)
        if go and xnext(s, c, masks, counts, tr):
            return np.int64(0)
    else:
        p = Z[Z_CUR]
        if VARIANT == 3:
            dmg = play3(s, c, masks, counts, tr, p, n, k, t, o, ot)
        else:
            dmg = play12(s, c, masks, counts, tr, p, n, k, t, o)
        if dmg > 0:
            xopen(Z, p, t, dmg)
            if xnext(s, c, masks, counts, tr):
                Z[Z_PHASE] = PH_RESP
                return np.int64(0)
    return settle(s, c, masks, counts, tr, check)       # the one call site


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, greedy, the tests' script; a
    search id plays greedy), drawing from the game's stream as the turn
    always did (``policies.decide``/``decide3``)."""
    S, Z = s.S, s.Z
    p = seat(s, c)
    S[p, C_POL] = pol if pol < POL_SEARCH0 else POL_GREEDY
    resp = Z[Z_PHASE] == PH_RESP
    dec = np.int64(D_RESP) if resp else np.int64(D_TURN)
    inc = Z[Z_XI] if resp else np.int64(0)
    a = Z[Z_XA] if resp else np.int64(-1)
    if VARIANT == 3:
        n, i = decide3(s, c, p, dec, inc, a)
    else:
        n, i = decide(s, c, p, dec, inc, a)
    if n == 0:
        return np.int64(PASS)
    acts = c.acts
    return code_of(acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3])


@internal
def scored(s, c):
    """Every option of the pending decision in ``c.acts``, greedy's score
    of each in ``c.sink``; returns their number."""
    S, Z = s.S, s.Z
    p = seat(s, c)
    resp = Z[Z_PHASE] == PH_RESP
    dec = np.int64(D_RESP) if resp else np.int64(D_TURN)
    inc = Z[Z_XI] if resp else np.int64(0)
    a = Z[Z_XA] if resp else np.int64(-1)
    seat_row(c, p)
    if VARIANT == 3:
        return options3(S, Z, c.ip, c.prow, c.PT, c.PID, c.acts, p, dec, inc, a, c.sink)
    return options12(S, Z, c.ip, c.prow, c.PT, c.PID, c.acts, p, dec, inc, a, c.sink)


@compiled
def options(s, c, rows):
    """The options of the pending decision into ``rows`` (random's list:
    every distinct run x its targets and options); ``PASS`` alone when the
    seat has none."""
    n = min(scored(s, c), rows.shape[0])
    if n == 0:
        rows[0] = PASS
        return 1
    acts = c.acts
    for i in range(n):
        rows[i] = code_of(acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3])
    return n


@compiled
def prior(s, c, code):
    """greedy's score of option ``code`` (v1/v2 ``greedy_score``, v3
    ``score_options3``'s)."""
    n = scored(s, c)
    acts = c.acts
    for i in range(n):
        if code_of(acts[i, 0], acts[i, 1], acts[i, 2], acts[i, 3]) == code:
            return c.sink[i]
    return -1e300


@inlined_callable
def side_mask(S, w):
    """The mask of every seat of side ``w`` (0 for no side, -1)."""
    m = np.int64(0)
    if w >= 0:
        for q in range(S.shape[0]):
            if S[q, C_TEAM] == w:
                m |= np.int64(1) << q
    return m


@ir_inlined
def winners(s, c):
    """The winners' mask: every seat of the winning side (a v2 team, a v3
    zombie with its 10); 0 while the game is on, or for a draw."""
    S, Z = s.S, s.Z
    if Z[Z_END] < 0:
        return np.int64(0)
    return side_mask(S, winner_of(S, Z, Z[Z_END])[0])


@compiled
def standing(s, c):
    """The seats a rollout stopped before the end shares its point among
    (``core.engine.search``): v1/v3 the seats still in the game (a seat
    waiting for its duel and a zombie included), v2 the side the scores put
    ahead, as a capped game is scored (0 on equal scores: every seat)."""
    S, Z = s.S, s.Z
    if VARIANT != 3 and Z[Z_V] == 2:
        return side_mask(S, winner_of(S, Z, END_CAP)[0])
    m = np.int64(0)
    for q in range(S.shape[0]):
        if S[q, C_OUT] < 0:
            m |= np.int64(1) << q
    return m


@compiled
def finish(s, c, tr, on, grow, srow):
    """The game's records (``step_game.finish``)."""
    Z = s.Z
    records(s.S, Z, tr, Z[Z_END], Z[Z_TURN], grow, srow)
    grow[G_FIRST] = Z[Z_FIRST]


jit.kernel_cache_end()
