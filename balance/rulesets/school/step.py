"""Magic School's step interface for the game engine (``core.engine``).

A game is a phase machine held in ``Z``. Between two decisions play goes
through stages (``layout.G_*``, ``advance``): a round begins (``G_ROUND``),
then the sage names the invisible (decision ``PH_NAME``: a seat), who
cloaks a house (``PH_CLOAK``: a house); the round's draws (``G_DRAWS``);
each turn from the sage's left, the sage last (``G_TURN``): the seat casts
spells one decision at a time (``PH_SPELL``: ``policy.spell_code`` of
(effect, card cast, a, b), 0 to stop) while it holds a castable card and
has cast fewer than ``max_casts``; the sage's meeting after its spells
(``G_MEET``): the options turned or listed, one sealed vote per
non-invisible seat from the sage's left, the sage last (``PH_VOTE``: an
option), the sage's tie break (``PH_TIE``: a tied option), the result;
each seat's discard down to the limit (``G_DISCARD``); the round's checks
and end (``G_ROUNDEND``); after round 6 the game is over (``G_END``).

Chosen inside ``apply`` by the seat's own policy (``Ctx.bpol``: informed
for a search seat), as before the engine: which of the target's fate
cards a fate peek looks at (``policy.fate_index``), the discards, and a
joker's pile. The card a hand peek or a steal finds is the rules'
randomness (the game's stream).

Every random number comes from the same streams in the same order as
before the engine (the game's ``st``, each seat's ``pst[p]``), so the plain
policies' games are unchanged.
"""
import numpy as np
from numba import njit
from balance.core.compiled import compiled, inlined_callable, ir_inlined

from ...core import jit
from ...core.engine.inlining import in_batch_loop
from ...core.kernel import ev  # before kernel_cache_begin
from ...core.rng import below_at
from .base import (draw_to_hand, fate_house, book_all_values, next_seat, P_FATE,
                   P_LIMIT, P_MAXC, P_RDRAW, S_DEC, S_INV6, S_INVR, S_SAGE)
from .layout import (C_HN, D_CLOAK, D_TIE, D_VOTE, EF_PEEK_FATE, EF_STOP, E_CLOAK, E_INVISIBLE,
                     E_ROUND, E_STOPPED, E_TIE, E_TURN, E_VOTE, G_DISCARD, G_DRAWS, G_END,
                     G_MEET, G_NEXT, G_ROUND, G_ROUNDEND, G_SPELLS, G_STOPPED, G_TURN, G_TURNEV,
                     G_VOTES, NOPT, NVOTE, PH_CLOAK, PH_HALT, PH_NAME, PH_SPELL, PH_TIE, PH_VOTE,
                     POL_INFORMED, POL_ISMCTS, POL_RANDOM, POL_SCRIPT, POL_SEARCH_FAST, Z_CASTS,
                     Z_CLN, Z_CLOAK, Z_CLOAK6, Z_CLSUM, Z_CUR, Z_DEC, Z_ERR, Z_HALT, Z_INV,
                     Z_MKIND, Z_NOPT, Z_OPT, Z_OVER, Z_PHASE, Z_PN, Z_PT, Z_ROUND, Z_SAGE, Z_SEAT,
                     Z_STAGE, Z_TIED, Z_TURN, Z_VK, Z_VOTE)
from .play import (broken_invariants, can_cast, cast, discard_down, fill_deck, init_game,
                   meeting_end, meeting_open, records, show_state)
from .policy import (choose_house, choose_invisible, choose_vote, fate_index, informed_spell,
                     known_house, my_house, script_spell, spell_code, spell_codes, spell_list,
                     spell_prior, vote_scores)
from .rules import POLICIES  # noqa: F401  (the engine's policy ids)
from .state import copy, info_key, redeal_hidden, reseed  # noqa: F401  (the step interface)

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


@ir_inlined
def spell_parts(code, out):
    """An option code of PH_SPELL back into out[0:4] (``policy.spell_code``)."""
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
    """A new game (``play.init_game``), played on to its first decision."""
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
    house, stop then every spell entry (``policy.spell_codes``; as many as
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


@ir_inlined
def base(pol):
    """A search policy's heuristic: informed."""
    return POL_INFORMED if pol >= POL_SEARCH_FAST and pol <= POL_ISMCTS else pol


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, informed, a scenario's script; a
    search id plays informed), from the seat's own stream."""
    S, B, Z, KN = s.S, s.B, s.Z, s.KN
    p = Z[Z_SEAT]
    ph = Z[Z_PHASE]
    pol = base(pol)
    F = c.ip[P_FATE]
    if ph == PH_SPELL:
        out = c.out
        if pol == POL_INFORMED:
            informed_spell(s, c, p)
        else:
            r = 1
            if pol == POL_SCRIPT:
                r = script_spell(p, c.P, S, s.hand, B, Z, s.pile, c.ip, c.ban, F, c.script, out)
                if r == 2:
                    Z[Z_ERR] += 1
            if r == 1:
                n = spell_list(p, c.P, S, s.hand, B, Z, s.pile, c.ip, c.ban, F, np.int64(-1),
                               out)
                pick = below_at(s.pst, p, n + 1)
                if pick == n:
                    out[0] = EF_STOP
                else:
                    spell_list(p, c.P, S, s.hand, B, Z, s.pile, c.ip, c.ban, F, pick, out)
        return spell_code(out[0], out[1], out[2], out[3])
    if ph == PH_VOTE or ph == PH_TIE:
        n = Z[Z_NOPT]
        tied = c.tied
        for o in range(n):
            tied[o] = 1 if ph == PH_VOTE else (Z[Z_TIED] >> o) & 1
        return choose_vote(s, c, pol, p, tied, np.int64(D_VOTE if ph == PH_VOTE else D_TIE))
    if ph == PH_NAME:
        return choose_invisible(s, c, pol, p)
    return choose_house(pol, p, Z, KN, s.pst, c.script, np.int64(D_CLOAK), c.buf)


@compiled
def prior(s, c, code):
    """informed's score of an option (the search's top-k): a spell entry's
    ``policy.spell_prior`` (stop above every entry: it is always searched);
    a seat to name, its hand size, less 1000 for a known ally; a cloak, 1
    for the seat's believed house; a vote or a tie's option, informed's
    margin for it (``vote_scores``)."""
    S, Z, KN = s.S, s.Z, s.KN
    p = Z[Z_SEAT]
    ph = Z[Z_PHASE]
    F = c.ip[P_FATE]
    if ph == PH_SPELL:
        if code == 0:
            return 1e9
        spell_parts(code, c.out)
        return spell_prior(s, c, p, c.out)
    if ph == PH_NAME:
        x = float(S[code, C_HN])
        if known_house(Z, KN, s.KF, s.fate, p, code, F, c.buf) == my_house(Z, KN, p, c.buf):
            x -= 1000.0
        return x
    if ph == PH_CLOAK:
        return 1.0 if my_house(Z, KN, p, c.buf) == code else 0.0
    vote_scores(p, Z[Z_MKIND], Z[Z_OPT:Z_OPT + NOPT], Z[Z_NOPT], s.B, Z, KN, c.ip, c.fs, c.buf)
    return c.fs[code]


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
    """The game's records (``play.records``)."""
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
