"""Magic School's policies, their choices: the random, informed and
scripted seat's pile for a joker or the cloak, the invisible it names, the
fate card its peek looks at, its vote or tie break; and, for the game
engine (``step`` re-exports them), ``heuristic`` (a policy's choice at any
decision) and ``prior`` (informed's score of an option, the search's top
k). The random policy is exactly the contract's yardstick; informed's
definitions are in the README ("Policies (exact definitions)").
"""
import numpy as np
from balance.core.compiled import compiled, inlined_callable, internal, ir_inlined

from ...core import jit
from ...core.rng import below_at
from .layout import (C_HN, D_CLOAK, D_NAME, D_TIE, D_VOTE, EF_STOP, NOPT, PH_CLOAK, PH_NAME,
                     PH_SPELL, PH_TIE, PH_VOTE, POL_INFORMED, POL_ISMCTS, POL_SCRIPT,
                     POL_SEARCH_FAST, Z_ERR, Z_MKIND, Z_NOPT, Z_OPT, Z_PHASE, Z_SEAT, Z_TIED)
from .policies_spells import (informed_spell, script_spell, spell_code, spell_list, spell_parts,
                              spell_prior)
from .policies_values import (argmax_tie, known_house, my_house, script_next, vote_scores)
from .state_slots import P_FATE

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


# --- houses, the invisible, the fate card, votes -----------------------------------------
@compiled
def choose_house(pol, p, Z, KN, pst, script, dtype, buf):
    """A house for a joker (sage) or the cloak (invisible)."""
    if pol == POL_INFORMED:
        return my_house(Z, KN, p, buf)
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, dtype)
        if k >= 0:
            return script[k, 2]
    return below_at(pst, p, np.int64(4))


@ir_inlined
def choose_invisible(s, c, pol, p):
    """The seat sage p names invisible: informed the seat with the most
    cards it does not know to be an ally (ties uniform), random uniform."""
    P, S, Z, KN, KF, fate, pst, script, fs, buf = (c.P, s.S, s.Z, s.KN, s.KF, s.fate, s.pst,
                                                   c.script, c.fs, c.buf)
    F = c.ip[P_FATE]
    if pol == POL_INFORMED:
        hm = my_house(Z, KN, p, buf)
        n = 0
        for q in range(P):
            if q != p:
                sc = float(S[q, C_HN])
                if known_house(Z, KN, KF, fate, p, q, F, buf) == hm:
                    sc -= 1000.0
                fs[n] = sc
                n += 1
        i = argmax_tie(fs, n, pst, p)
        return i if i < p else i + 1
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, np.int64(D_NAME))
        if k >= 0:
            return script[k, 2]
    i = below_at(pst, p, P - 1)
    return i if i < p else i + 1


@internal
def fate_index(pol, p, q, F, KF, pst, fs, ix):
    """Which of seat q's fate cards seat p's fate peek looks at (a choice of
    its own, made when the spell is cast, right after the spell was
    chosen): informed one it has not seen (uniform, from its stream; every
    unseen one is alike to it), random any (uniform)."""
    if pol == POL_INFORMED:
        n = 0
        for i in range(F):
            if KF[p, q, i] == 0:
                fs[n] = 0.0
                ix[n] = i
                n += 1
        if n > 0:
            return ix[argmax_tie(fs, n, pst, p)]
    return below_at(pst, p, F)


@ir_inlined
def choose_vote(s, c, pol, p, tied, dtype):
    """Seat p's vote (dtype D_VOTE) or the sage's tie break (D_TIE) among
    the meeting's options (Z[Z_OPT:], Z[Z_NOPT] of them) where tied[o] ==
    1: informed the best by ``vote_scores`` (ties uniform), random
    uniform."""
    B, Z, KN, pst, script, fs, buf = s.B, s.Z, s.KN, s.pst, c.script, c.fs, c.buf
    kind = Z[Z_MKIND]
    n = Z[Z_NOPT]
    opts = Z[Z_OPT:Z_OPT + NOPT]
    ip = c.ip
    if pol == POL_INFORMED:
        vote_scores(p, kind, opts, n, B, Z, KN, ip, fs, buf)
        for o in range(n):
            if tied[o] == 0:
                fs[o] = -1e300
        return argmax_tie(fs, n, pst, p)
    if pol == POL_SCRIPT:
        k = script_next(script, Z, p, dtype)
        if k >= 0:
            return script[k, 2]
    m = 0
    for o in range(n):
        m += tied[o]
    r = below_at(pst, p, m)
    for o in range(n):
        if tied[o] == 1:
            if r == 0:
                return o
            r -= 1
    return 0


# --- the step interface: a heuristic's choice, informed's prior --------------------------
@ir_inlined
def plain_policy(pol):
    """A search policy's heuristic: informed."""
    return POL_INFORMED if pol >= POL_SEARCH_FAST and pol <= POL_ISMCTS else pol


@inlined_callable
def heuristic(s, c, pol):
    """Heuristic ``pol``'s option (random, informed, a scenario's script; a
    search id plays informed), from the seat's own stream."""
    S, B, Z, KN = s.S, s.B, s.Z, s.KN
    p = Z[Z_SEAT]
    ph = Z[Z_PHASE]
    pol = plain_policy(pol)
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
    ``policies_spells.spell_prior`` (stop above every entry: it is always searched);
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


jit.kernel_cache_end()
