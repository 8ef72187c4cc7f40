"""Magic School's step interface for the game engine (``core.engine``).

A game is a phase machine held in ``Z``. Between two decisions play goes
through stages (``layout.G_*``, ``advance``): a round begins (``G_ROUND``),
then the sage names the invisible (decision ``PH_NAME``: a seat), who
cloaks a house (``PH_CLOAK``: a house); the round's draws (``G_DRAWS``);
each turn from the sage's left, the sage last (``G_TURN``): the seat casts
spells one decision at a time (``PH_SPELL``: ``policies_spells.spell_code``
of (effect, card cast, a, b), 0 to stop) while it holds a castable card
and has cast fewer than ``max_casts``; the sage's meeting after its spells
(``G_MEET``): the options turned or listed, one sealed vote per
non-invisible seat from the sage's left, the sage last (``PH_VOTE``: an
option), the sage's tie break (``PH_TIE``: a tied option), the result;
each seat's discard down to the limit (``G_DISCARD``); the round's checks
and end (``G_ROUNDEND``); after round 6 the game is over (``G_END``).

The moves the stages play are ``step_moves`` (deal, spells, score area,
meeting, discard) and ``step_records`` (checks, state rows, records);
``heuristic`` and ``prior`` are the policies' (``policies``), re-exported
here with ``state``'s functions because the engine reads the whole step
interface from this module.

Chosen inside ``apply`` by the seat's own policy (``Ctx.bpol``: informed
for a search seat), not offered to the search as decisions: which of the
target's fate cards a fate peek looks at (``policies.fate_index``), the
discards, and a joker's pile. The card a hand peek or a steal finds is
the rules' randomness (the game's stream).

Every random number comes from the game's stream ``st`` or the choosing
seat's ``pst[p]``, in an order fixed by the stages, so a game is the same
whether it is run, replayed or stepped by a scenario.
"""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from ...core import jit
from ...core.engine.inlining import in_batch_loop
from ...core.kernel import ev  # before kernel_cache_begin
from .cards import fate_house
from .layout import (C_HN, E_CLOAK, E_INVISIBLE, E_ROUND, E_STOPPED, E_TIE, E_TURN, E_VOTE,
                     EF_PEEK_FATE, G_DISCARD, G_DRAWS, G_END, G_MEET, G_NEXT, G_ROUND, G_ROUNDEND,
                     G_SPELLS, G_STOPPED, G_TURN, G_TURNEV, G_VOTES, NVOTE, PH_CLOAK, PH_HALT,
                     PH_NAME, PH_SPELL, PH_TIE, PH_VOTE, POL_INFORMED, POL_RANDOM, Z_CASTS, Z_CLN,
                     Z_CLOAK, Z_CLOAK6, Z_CLSUM, Z_CUR, Z_DEC, Z_ERR, Z_HALT, Z_INV, Z_MKIND,
                     Z_NOPT, Z_OVER, Z_PHASE, Z_PN, Z_PT, Z_ROUND, Z_SAGE, Z_SEAT, Z_STAGE,
                     Z_TIED, Z_TURN, Z_VK, Z_VOTE)
from .policies import fate_index, heuristic, prior  # noqa: F401  (heuristic, prior: the step interface)
from .policies_spells import spell_codes, spell_parts
from .rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)
from .state_slots import P_FATE, P_LIMIT, P_MAXC, P_RDRAW, S_DEC, S_INV6, S_INVR, S_SAGE
from .state_zones import book_all_values, draw_to_hand, next_seat
from .step_moves import (can_cast, cast, discard_down, fill_deck, init_game, meeting_end,
                         meeting_open)
from .step_records import broken_invariants, records, show_state

ROLLOUT = np.array([POL_INFORMED, POL_RANDOM], np.int64)   # search_rollout_policy 0, 1

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def prepare(s, c):
    """Once per batch: the unshuffled deck."""
    fill_deck(s, c)


@ir_inlined
def done(s, c):
    return s.Z[Z_OVER] != 0


@ir_inlined
def seat(s, c):
    return s.Z[Z_SEAT]


@inlined_callable
def advance(s, c, stage, masks, counts, tr, on, check):
    """Play on from ``stage`` to the next decision (Z_PHASE, Z_SEAT) or the
    end (Z_OVER); check mode counts broken invariants in Z_ERR. A stage in
    Z_HALT's mask halts play before it (scenario.Table steps a turn, a
    meeting, a round)."""
    S, Z = s.S, s.Z
    P = S.shape[0]
    ip = c.ip
    while True:
        if (Z[Z_HALT] >> stage) & 1:
            Z[Z_PHASE] = PH_HALT
            Z[Z_STAGE] = stage
            return
        if stage == G_ROUND:
            sage = Z[Z_SAGE]
            S[sage, S_SAGE] += 1
            if on:
                ev(tr, Z, E_ROUND, sage, Z[Z_ROUND], 0, 0, 0, 0)
            Z[Z_PHASE] = PH_NAME
            Z[Z_SEAT] = sage
            return
        elif stage == G_DRAWS:
            sage = Z[Z_SAGE]
            inv = Z[Z_INV]
            q = next_seat(sage, P)
            for _ in range(P):
                if q != inv:
                    for _ in range(ip[P_RDRAW]):
                        draw_to_hand(s.st, S, s.hand, s.cards, Z, q, masks, counts, tr, on)
                q = next_seat(q, P)
            q = next_seat(sage, P)
            if q == inv:
                q = next_seat(q, P)
            Z[Z_CUR] = q
            stage = G_TURN
        elif stage == G_TURN:
            Z[Z_TURN] += 1
            stage = G_TURNEV
        elif stage == G_TURNEV:
            p = Z[Z_CUR]
            if on:
                ev(tr, Z, E_TURN, p, S[p, C_HN], 0, 0, 0, 0)
            Z[Z_CASTS] = 0
            stage = G_SPELLS
        elif stage == G_SPELLS:
            p = Z[Z_CUR]
            if Z[Z_CASTS] < ip[P_MAXC] and can_cast(p, S, s.hand, Z, c.ban):
                S[p, S_DEC] += 1
                Z[Z_DEC] += 1
                Z[Z_PHASE] = PH_SPELL
                Z[Z_SEAT] = p
                return
            stage = G_STOPPED
        elif stage == G_STOPPED:
            p = Z[Z_CUR]
            if on:
                ev(tr, Z, E_STOPPED, p, S[p, C_HN], 0, 0, 0, 0)
            stage = G_MEET if p == Z[Z_SAGE] else G_DISCARD
        elif stage == G_MEET:
            sage = Z[Z_SAGE]
            kind, n = meeting_open(s, c, Z[Z_ROUND], sage, tr, on)
            Z[Z_MKIND] = kind
            Z[Z_NOPT] = n
            stage = G_DISCARD
            if n == 1:
                meeting_end(s, c, kind, sage, n, np.int64(0), tr, on)
            elif n > 1:
                for q in range(NVOTE):
                    Z[Z_VOTE + q] = -1
                Z[Z_VK] = 0
                stage = G_VOTES
        elif stage == G_VOTES:
            sage = Z[Z_SAGE]
            inv = Z[Z_INV]
            while Z[Z_VK] < P:
                q = sage + 1 + Z[Z_VK]
                if q >= P:
                    q -= P
                Z[Z_VK] += 1
                if q != inv:
                    Z[Z_PHASE] = PH_VOTE
                    Z[Z_SEAT] = q
                    return
            n = Z[Z_NOPT]
            tally = c.tally
            for o in range(n):
                tally[o] = 0
            for q in range(P):
                if Z[Z_VOTE + q] >= 0:
                    tally[Z[Z_VOTE + q]] += 1
            best = 0
            for o in range(n):
                if tally[o] > best:
                    best = tally[o]
            k = 0
            win = 0
            tied = 0
            for o in range(n):
                if tally[o] == best:
                    k += 1
                    win = o
                    tied |= np.int64(1) << o
            if k > 1:
                Z[Z_TIED] = tied
                Z[Z_PHASE] = PH_TIE
                Z[Z_SEAT] = sage
                return
            meeting_end(s, c, Z[Z_MKIND], sage, n, np.int64(win), tr, on)
            stage = G_DISCARD
        elif stage == G_DISCARD:
            q = Z[Z_CUR]
            discard_down(s, c, q, tr, on)
            if check and S[q, C_HN] > ip[P_LIMIT]:
                Z[Z_ERR] += 1
            if q == Z[Z_SAGE]:
                stage = G_ROUNDEND
            else:
                q = next_seat(q, P)
                if q == Z[Z_INV]:
                    q = next_seat(q, P)
                Z[Z_CUR] = q
                stage = G_TURN
        elif stage == G_ROUNDEND:
            r = Z[Z_ROUND]
            cl = Z[Z_CLOAK]
            inv = Z[Z_INV]
            if check:
                x = 0
                for j in range(Z[Z_PN + cl]):
                    x += s.pile[cl, j] * (j + 1)
                if Z[Z_PN + cl] != Z[Z_CLN] or x != Z[Z_CLSUM]:
                    Z[Z_ERR] += 1
                Z[Z_ERR] += broken_invariants(s, c, r)
            if on:
                show_state(s.B, Z, s.pile, tr, c.buf)
            if r == 6:
                S[inv, S_INV6] = 1
                Z[Z_CLOAK6] = cl
            Z[Z_SAGE] = inv          # the invisible is next round's sage
            Z[Z_CLOAK] = -1
            stage = G_END if r == 6 else G_NEXT
        elif stage == G_NEXT:
            Z[Z_ROUND] += 1
            stage = G_ROUND
        else:                       # G_END
            if check and (Z[Z_ROUND] != 6 or Z[Z_TURN] != 6 * (P - 1)):
                Z[Z_ERR] += 1
            Z[Z_OVER] = 1
            return


@compiled
def deal(s, c, seed, game, masks, counts, tr, on, check):
    """A new game (``step_moves.init_game``), played on to its first decision."""
    init_game(s, c, seed, game, masks, counts, tr, on)
    Z = s.Z
    if check:
        Z[Z_ERR] += broken_invariants(s, c, np.int64(0))
    Z[Z_ROUND] = 1
    advance(s, c, np.int64(G_ROUND), masks, counts, tr, on, check)
    return Z[Z_ERR]


@compiled
def options(s, c, rows):
    """The pending decision's options into ``rows``: every other seat, every
    house, stop then every spell entry (``policies_spells.spell_codes``; as many as
    rows holds), every option of the vote, or the tied ones."""
    Z = s.Z
    ph = Z[Z_PHASE]
    p = Z[Z_SEAT]
    if ph == PH_SPELL:
        rows[0] = 0
        return spell_codes(p, c.P, s.S, s.hand, s.B, Z, s.pile, c.ip, c.ban, rows, np.int64(1))
    n = 0
    if ph == PH_NAME:
        for q in range(c.P):
            if q != p:
                rows[n] = q
                n += 1
    elif ph == PH_CLOAK:
        for h in range(4):
            rows[h] = h
        n = 4
    elif ph == PH_VOTE:
        for o in range(Z[Z_NOPT]):
            rows[o] = o
        n = Z[Z_NOPT]
    else:
        for o in range(Z[Z_NOPT]):
            if (Z[Z_TIED] >> o) & 1:
                rows[n] = o
                n += 1
    return np.int64(n)


@njit(cache=True, _nrt=False, inline=in_batch_loop)
def apply(s, c, code, masks, counts, tr, on, check):
    """The pending decision's seat plays option ``code``; the game goes on to
    the next decision or the end. Returns broken invariants (check mode)."""
    S, Z = s.S, s.Z
    e0 = Z[Z_ERR]
    ph = Z[Z_PHASE]
    p = Z[Z_SEAT]
    if ph == PH_NAME:
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        Z[Z_INV] = code
        S[code, S_INVR] += 1
        if on:
            ev(tr, Z, E_INVISIBLE, p, code, 0, 0, 0, 0)
        Z[Z_PHASE] = PH_CLOAK
        Z[Z_SEAT] = code
        return np.int64(0)
    if ph == PH_SPELL:
        stage = G_STOPPED
        if code != 0:
            out = c.out
            spell_parts(code, out)
            if out[0] == EF_PEEK_FATE:
                F = c.ip[P_FATE]
                if out[3] < 0:
                    out[3] = fate_index(c.bpol[p], p, out[2], F, s.KF, s.pst, c.fs, c.ix)
                if F > 1:
                    S[p, S_DEC] += 1        # which fate card: a second choice
                    Z[Z_DEC] += 1
            cast(s, c, p, masks, counts, tr, on)
            Z[Z_CASTS] += 1
            stage = G_SPELLS
    elif ph == PH_VOTE:
        Z[Z_VOTE + p] = code
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        if on:
            ev(tr, Z, E_VOTE, p, code, 0, 0, 0, 0)
        stage = G_VOTES
    elif ph == PH_TIE:
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        if on:
            ev(tr, Z, E_TIE, p, code, 0, 0, 0, 0)
        meeting_end(s, c, Z[Z_MKIND], p, Z[Z_NOPT], code, tr, on)
        stage = G_DISCARD
    else:                           # PH_CLOAK
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        Z[Z_CLOAK] = code
        if on:
            ev(tr, Z, E_CLOAK, p, code, 0, 0, 0, 0)
        if check:                   # the cloaked pile, to check that it does not change this round
            x = 0
            for j in range(Z[Z_PN + code]):
                x += s.pile[code, j] * (j + 1)
            Z[Z_CLN] = Z[Z_PN + code]
            Z[Z_CLSUM] = x
        stage = G_DRAWS
    advance(s, c, np.int64(stage), masks, counts, tr, on, check)
    return Z[Z_ERR] - e0


@compiled
def winners(s, c):
    """The winning seats' mask: the members of the houses whose pile is
    highest, from the fate cards and the final books (0: a winning house
    with no member)."""
    B, Z = s.B, s.Z
    wm = book_all_values(B, Z, np.int64(0))
    bm = book_all_values(B, Z, np.int64(1))
    top = max(max(Z[Z_PT], Z[Z_PT + 1]), max(Z[Z_PT + 2], Z[Z_PT + 3]))
    w = np.int64(0)
    for q in range(s.S.shape[0]):
        if Z[Z_PT + fate_house(s.KN, q, wm, bm)] == top:
            w |= np.int64(1) << q
    return w


@compiled
def finish(s, c, tr, on, grow, srow):
    """The game's records (``step_records.records``)."""
    records(s, c, grow, srow, tr, on)


@compiled
def play_stages(s, c, stage, halt, masks, counts, tr, on, check):
    """Scenario tests (``scenario.Table``): play from ``stage``, every
    decision by the seat's heuristic (``c.pol``), until play halts before a
    stage of the mask ``halt`` (or the game ends)."""
    Z = s.Z
    Z[Z_HALT] = halt
    advance(s, c, stage, masks, counts, tr, on, check)
    while Z[Z_OVER] == 0 and Z[Z_PHASE] != PH_HALT:
        apply(s, c, heuristic(s, c, c.pol[Z[Z_SEAT]]), masks, counts, tr, on, check)
    Z[Z_HALT] = 0


jit.kernel_cache_end()
