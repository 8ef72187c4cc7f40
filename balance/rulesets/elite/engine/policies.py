"""The heuristics: option enumeration, greedy's scores, the decisions.

v1/v2 (``decide``): ``enum_plays_f`` (a turn, a v1 rogue's revive) and
``enum_resp_f`` (a response) list each distinct run a hand holds (read from
``cards.RUNS[adj, mask]``) with its targets and skills; random picks
uniformly, script follows its rows (tests), greedy scores the options as
they are listed (``emit``, ``greedy_score``) and keeps only the best, in
acts[0].

v3 (``decide3``): ``enum3`` lists the options for random and script;
greedy enumerates and scores in one pass (``score_options3``, keeping the
best with ``keep_best3``), computing the terms an option shares with the
others of its run and target once.

The search reads every option with greedy's score of it (``options12``,
``options3``: ``step.options``, ``step.prior``).

Every enumeration skips forbidden cards unless that leaves no option
(``cards.ban_fallback``). The enumerators have one call site each and
carry LLVM's ``alwaysinline`` (``forceinline=True``), see ``engine``.

The heuristics' choices inside a rule step (the 4 a seat spends, the shop,
a yes/no at a turn start) stay with the rule they serve
(``step_v3.choose_four``, ``buy``, ``wants``): this module imports the
rule parts it reads (``step_v12``, ``step_v3``), so they cannot import it.
"""
from collections import namedtuple

import numpy as np
from llvmlite import ir
from numba import njit
from balance.core.compiled import inlined, internal, ir_inlined_nrt
from numba import types as nbt
from numba.extending import intrinsic

from ....core import jit
from ....core.rng import below
from ..layout import (C_ALIVE, C_LEO, C_POUCH, C_STORM, C_ZMB, C_BTU, C_FL, C_FREE, C_FRSH, C_HN, C_HP, C_IMM, C_M, C_MAXHP, C_POL,
                      C_RANK, C_SHB, C_USES, D_RESP, D_REVIVE, D_TURN, MAXA, O_BLOOD, O_CONTROL,
                      O_DEVOUR, O_FRAME, O_FRZSH, O_FRZSK, O_JUDG, O_NONE, O_RAMP, O_REFLECT,
                      O_SHIELD, POL_GREEDY, POL_RANDOM, POL_SCRIPT, P_BTD, P_BTR, P_GIGN, P_JDMG,
                      P_KKDIV, P_REFLM, Q_FINAL, Q_HEAL, Q_JEV, Q_KILL, Q_OVER, Q_RUN, Q_SKILL, Z_JOINT,
                      Z_OPTS, Z_P, Z_TIES, Z_V)
from ..rules import T_DMG, T_HAS4, T_HAS5, T_HASA, T_HASK, T_HEAL, T_LEN
from .cards import (RUNS, ban_fallback, enemy, forbidden, push, run_walk, sat_add, sat_mul,
                    script_pick)
from .step_v12 import can_judge, forced_target, mult
from .step_v3 import can_freeze, has_shield, pdmg3, skill_on
from . import RULESET, VARIANT

jit.kernel_cache_begin(RULESET, f"v{VARIANT}")    # numba's cache folder (core.jit.cache_dir)

Decision = namedtuple("Decision", "dec inc a")
Decision.__doc__ = """A decision: its kind ``dec`` (D_TURN, D_RESP, D_REVIVE) and, for a
response, the incoming damage ``inc`` and its sender ``a`` (0 and -1
otherwise)."""
Option = namedtuple("Option", "k t o ot")
Option.__doc__ = """An option: run k at target t (-1: none) with option o (``O_*``) onto
ot (-1: none), as a row of the option buffer ``acts``."""
Terms = namedtuple("Terms", "dmg jev hp room imm")
Terms.__doc__ = """What v1/v2 greedy's score of an option of run k takes from the run and
the deciding seat (``greedy_ctx``): ``dmg`` run k's damage with the seat's
multipliers, ``jev`` the Judgment value, the seat's ``hp``, its ``room``
to heal (max HP - HP), ``imm`` it is immune."""

_I, _F, _B = nbt.int64, nbt.float64, nbt.boolean
_A1, _A2, _F1 = nbt.int64[::1], nbt.int64[:, ::1], nbt.float64[::1]
_DEC = nbt.NamedUniTuple(_I, 3, Decision)
_OPT = nbt.NamedUniTuple(_I, 4, Option)
_TERMS = nbt.NamedTuple((_I, _F, _I, _I, _B), Terms)


def _sigs(variant, *sigs):
    """Fixed signatures, compiled in ``variant`` (12: v1/v2, 3: v3) only;
    none in the other variant, which never calls the function (a signature
    compiles at import). numba otherwise compiles a function once per
    combination of constant arguments it meets (option codes, -1 targets, a
    first n of 0): v3's ``keep_best3`` and ``push3`` 8 times each per sink
    type, for no gain at run time (LLVM inlines them and propagates the
    constants). v1/v2's ``emit`` and ``greedy_score``, whose option arrives
    as an ``Option`` (numba types a NamedTuple of constants as int64
    fields), have one too. ``keep_best3`` has two, its ``sink`` None
    (greedy) and an array (the search's candidates)."""
    return ([*sigs],) if VARIANT == variant else ()



@internal
def judgment_ev(S, Z, ip, pp, p):
    """Greedy's expected value of a Judgment by p, from public information
    only (the active generals): enemy HP lost and kills minus its own side's,
    averaged over the four suits of the unknown turned card."""
    jd = ip[P_JDMG]
    tot = 0.0
    for q in range(Z[Z_P]):
        if S[q, C_ALIVE] == 0:
            continue
        hp = S[q, C_HP]
        v = float(min(jd, hp))
        if hp <= jd or S[q, C_MAXHP] <= jd:
            v += pp[Q_KILL] + S[q, C_RANK]
        if enemy(S, p, q):
            tot += v
        else:
            tot -= v
    return tot / 4.0


@intrinsic
def _bits(typingctx, x):
    """The IEEE bits of float64 x as an int64 (no call: math.frexp is one)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return nbt.int64(nbt.float64), codegen


@intrinsic
def _float(typingctx, b):
    """The float64 of IEEE bits b (int64)."""
    def codegen(context, builder, sig, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return nbt.float64(nbt.int64), codegen


_EXP1 = np.int64(1023) << np.int64(52)          # the exponent bits of 1.0
_FRAC = (np.int64(1) << np.int64(52)) - np.int64(1)


@ir_inlined_nrt
def log2_above(x):
    """A float >= np.log2(x) for finite x >= 1, within 0.11 of it, without a
    libm call: x = y 2**e with 1 <= y < 2 (read from its bits), and log2 is
    concave, so on [1, 2) the tangent at 1.5 lies above it; + 1e-9 covers
    the rounding of this sum and of libm's result."""
    b = _bits(x)
    e = (b >> np.int64(52)) - np.int64(1023)
    y = _float((b & _FRAC) | _EXP1)
    return e + 0.5849625007211562 + (y - 1.5) * 0.9617966939259756 + 1e-9


@inlined
def last_life(S, Z, t):
    """v3: a death of t now is a duel with its killer (no storm god, pouch or
    leopard left; not a zombie, whose death is no duel) while 3 or more seats
    are in play (with 2, the duel ends the game either way). Public state."""
    if S[t, C_STORM] > 0 or S[t, C_POUCH] > 0 or S[t, C_LEO] > 0 or S[t, C_ZMB] > 0:
        return False
    n = 0
    for q in range(Z[Z_P]):
        n += S[q, C_ALIVE]
    return n >= 3


@inlined
def hit_bound(S, Z, pp, t, amount, ub):
    """Greedy's value of sending ``amount`` at t: damage up to its HP, a kill
    bonus (+ rank in v2) and ``overkill_value`` per doubling beyond its HP
    (harder to cancel); sending damage at an immune seat only invites it back.
    Returns (value, bounded). With ``ub`` (and ``overkill_value`` >= 0), a
    kill's doublings are bounded from above (``log2_above``) instead of
    computed: the value is then an upper bound of the exact one (bounded
    True), and so is every score summed from it (float addition and a
    product by a factor >= 0 are monotone), so an option whose bounded score
    is below the best so far is neither better nor tied, exactly as with the
    exact score; the exact value (``hit_value``) is needed only otherwise.
    np.log2 was 5-8 % of a greedy game."""
    if amount <= 0:
        return 0.0, False
    if S[t, C_IMM] > 0:
        return -1.0, False
    hp = S[t, C_HP]
    if amount >= hp:
        x = amount / max(hp, 1)
        bounded = ub and pp[Q_OVER] >= 0.0
        v = hp + pp[Q_KILL] + pp[Q_OVER] * (log2_above(x) if bounded else np.log2(x))
        if Z[Z_V] == 2:
            v += S[t, C_RANK]
        if VARIANT == 3 and last_life(S, Z, t):
            v += pp[Q_FINAL]
        return v, bounded
    return float(amount), False


@inlined
def hit_value(S, Z, pp, t, amount):
    """Greedy's exact value of sending ``amount`` at t (``hit_bound``)."""
    return hit_bound(S, Z, pp, t, amount, False)[0]


@njit(*_sigs(12, (_A2, _A1, _F1, _A2, _DEC, _TERMS, _OPT, _B)),
      cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def greedy_score(S, Z, pp, PT, decision, terms, opt, ub):
    """greedy's value of option ``opt`` (v1/v2, an ``Option``) at
    ``decision`` (a ``Decision``), with the run's and the seat's ``terms``
    (``Terms``: run k's damage with p's multipliers, the Judgment value,
    p's HP, room to heal, immunity). Returns (score, bounded): with ``ub``,
    an upper bound of the score when a kill's doublings were bounded
    (``hit_bound``)."""
    dec, inc, a = decision
    dmg, jev, hp, room, imm = terms
    k, t, o, ot = opt
    heal = PT[k, T_HEAL]
    s = pp[Q_RUN + k]
    bnd = False
    if dec != D_RESP:
        s += pp[Q_HEAL] * min(heal, room)
        if dmg > 0:
            v, bnd = hit_bound(S, Z, pp, t, dmg, ub)
            s += v
        if o == O_JUDG:
            s += jev
    elif o == O_FRAME:
        v, bnd = hit_bound(S, Z, pp, ot, sat_add(dmg, inc), ub)
        s += v + pp[Q_HEAL] * min(heal, room)
    elif o == O_CONTROL:
        v, bnd = hit_bound(S, Z, pp, ot, inc, ub)
        s += v - pp[Q_SKILL]
    else:
        inc_eff = inc
        if PT[k, T_HAS4] == 1 or o == O_JUDG:
            inc_eff = 0
        od = sat_add(dmg, heal) - inc_eff
        if od < 0:
            if not (imm or o == O_SHIELD):       # immune (or now shielded): no HP lost
                loss = -od
                if loss >= hp:
                    s -= 1e12 + hp
                else:
                    s -= loss
        elif od > 0:
            v, bnd = hit_bound(S, Z, pp, a, od, ub)
            s += v
        if o == O_SHIELD:
            s -= pp[Q_SKILL]
        elif o == O_JUDG:
            s += jev
    return s, bnd


@inlined
def greedy_ctx(S, Z, ip, pp, p, g):
    """What greedy's scores of p's options share: multiplier, Judgment
    value, HP, room to heal, immunity."""
    m = mult(S, Z, ip, p)
    jev = 0.0
    if g and can_judge(S, Z, p):
        jev = judgment_ev(S, Z, ip, pp, p) - pp[Q_JEV]
    hp = S[p, C_HP]
    return m, jev, hp, S[p, C_MAXHP] - hp, S[p, C_IMM] > 0


@njit(*_sigs(12, (_A2, _A1, _F1, _A2, _A2, _I, _F, _I, _B, _DEC, _TERMS, _OPT)), cache=True,
      _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms, opt):
    """Option number n, ``opt`` = (k, t, o, ot) (an ``Option``) of
    ``decision`` (a ``Decision``; ``terms``: run k's and the seat's
    ``Terms``): listed at acts[n]; or, for greedy (``g``), scored: a score
    above the best ``bs`` so far makes it the only best, in acts[0] (nt =
    1); an equal score joins the ``nt`` tied best options in acts[:nt] (the
    first option is the default). Returns (n + 1, best score, options tied
    for it); ``decide`` draws among the tied."""
    k, t, o, ot = opt
    if not g:
        return push(acts, n, k, t, o, ot), bs, nt
    # after the first option, a kill's score is first bounded (greedy_score, hit_bound):
    # below the best, the option is neither better nor tied; else its exact score
    ub = n > 0
    while True:
        s, bnd = greedy_score(S, Z, pp, PT, decision, terms, opt, ub)
        if not bnd:
            break
        if s < bs:
            return n + 1, bs, nt
        ub = False
    if s > bs or n == 0:
        if s > bs:
            bs = s
        push(acts, 0, k, t, o, ot)
        nt = 1
    elif s == bs:
        push(acts, nt, k, t, o, ot)
        nt += 1
    return n + 1, bs, nt


@inlined
def enum_plays_f(S, Z, ip, pp, PT, PID, acts, p, dec, g, fb):
    """Options of a turn (D_TURN) or of a rogue's revive (D_REVIVE, runs
    with a 5): each distinct run x each legal target when it deals damage
    (x Judgment or not when the run holds a K and p can judge)."""
    P = Z[Z_P]
    m, jev, hp, room, imm = greedy_ctx(S, Z, ip, pp, p, False)
    judge = can_judge(S, Z, p) and dec == D_TURN
    jlazy = g and judge          # the Judgment value: computed at p's first run with a K
    ft = forced_target(S, p)
    decision = Decision(dec, np.int64(0), np.int64(-1))
    adj, nrs = run_walk(PT, PID)
    n = 0
    bs = -1e300
    nt = 0
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        for j in range(1, RUNS[adj, bits, 0] + 1):
            k = s * nrs + RUNS[adj, bits, j]
            if fb and forbidden(Z, PT, s, k):
                pass
            elif dec != D_REVIVE or PT[k, T_HAS5] == 1:
                jk = judge and PT[k, T_HASK] == 1
                if jk and jlazy:
                    jev = judgment_ev(S, Z, ip, pp, p) - pp[Q_JEV]
                    jlazy = False
                dmg = sat_mul(PT[k, T_DMG], m)
                terms = Terms(dmg, jev, hp, room, imm)
                if dmg > 0:
                    for t in range(P):
                        ok = (t == ft) if ft >= 0 else (S[t, C_ALIVE] == 1 and enemy(S, p, t))
                        if ok:
                            n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                             Option(k, t, O_NONE, -1))
                            if jk:
                                n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                                 Option(k, t, O_JUDG, -1))
                else:
                    n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                     Option(k, -1, O_NONE, -1))
                    if jk:
                        n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                         Option(k, -1, O_JUDG, -1))
    Z[Z_TIES] = nt
    return n


@inlined
def enum_resp_f(S, Z, ip, pp, PT, PID, acts, d, a, inc, g, fb):
    """Options of defender d against ``inc`` sent by a: each distinct run,
    plus for that run each skill it allows (Judgment, a frame onto each
    enemy, the 8's shield, control onto each other enemy)."""
    P = Z[Z_P]
    m, jev, hp, room, imm = greedy_ctx(S, Z, ip, pp, d, False)
    decision = Decision(np.int64(D_RESP), inc, a)
    judge = can_judge(S, Z, d)
    jlazy = g and judge          # the Judgment value: computed at d's first run with a K
    frame = Z[Z_V] == 1 and S[d, C_RANK] == 9
    eight = S[d, C_USES] > 0
    control = eight and S[d, C_FL] == 0
    adj, nrs = run_walk(PT, PID)
    n = 0
    bs = -1e300
    nt = 0
    for s in range(4):
        bits = S[d, C_M + s]
        if bits == 0:
            continue
        for j in range(1, RUNS[adj, bits, 0] + 1):
            k = s * nrs + RUNS[adj, bits, j]
            if fb and forbidden(Z, PT, s, k):
                pass
            else:
                dmg = sat_mul(PT[k, T_DMG], m)
                terms = Terms(dmg, jev, hp, room, imm)
                n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                 Option(k, -1, O_NONE, -1))
                if judge and PT[k, T_HASK] == 1:
                    if jlazy:
                        jev = judgment_ev(S, Z, ip, pp, d) - pp[Q_JEV]
                        jlazy = False
                        terms = Terms(dmg, jev, hp, room, imm)
                    n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                     Option(k, -1, O_JUDG, -1))
                if frame and PT[k, T_HASA] == 1:
                    for e in range(P):
                        if S[e, C_ALIVE] == 1 and enemy(S, d, e):
                            n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                             Option(k, -1, O_FRAME, e))
                if eight and (S[d, C_FREE] > 0 or PT[k, T_HAS5] == 1):
                    n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                     Option(k, -1, O_SHIELD, -1))
                    if control:
                        for b in range(P):
                            if b != a and S[b, C_ALIVE] == 1 and enemy(S, d, b):
                                n, bs, nt = emit(S, Z, pp, PT, acts, n, bs, nt, g, decision, terms,
                                                 Option(k, -1, O_CONTROL, b))
    Z[Z_TIES] = nt
    return n


@inlined
def enum_plays(S, Z, ip, pp, PT, PID, acts, p, dec, g):
    """Options of a turn or revive (``g``: greedy, see ``emit``)."""
    return ban_fallback(Z, enum_plays_f, (S, Z, ip, pp, PT, PID, acts, p, dec, g))


@inlined
def enum_resp(S, Z, ip, pp, PT, PID, acts, d, a, inc, g):
    """Response options of d against ``inc`` from a."""
    return ban_fallback(Z, enum_resp_f, (S, Z, ip, pp, PT, PID, acts, d, a, inc, g))


@inlined
def pick_tied(st, Z):
    """greedy's tie-break (rules README, "Ties in a heuristic"): the options
    tied for the best score are acts[:Z[Z_TIES]], listed in enumeration
    order; one of them uniformly, ``below(st, number tied)``, a draw only
    when two or more tie (never by seat, suit or list order)."""
    nt = Z[Z_TIES]
    return below(st, nt) if nt > 1 else np.int64(0)


@inlined
def seat_row(c, p):
    """Make ``c.prow`` seat p's float policy parameters (the 1-D vector
    greedy reads): row p of ``c.pp``, copied when the seats' rows differ
    and another seat's row is there (``state.context``)."""
    if c.pvar and c.pseat[0] != p:
        for k in range(c.prow.shape[0]):
            c.prow[k] = c.pp[p, k]
        c.pseat[0] = p


@inlined
def decide(s, c, p, dec, inc, a):
    """One decision of p (D_TURN, D_RESP against ``inc`` from a, D_REVIVE)
    in game ``s`` (``state.State``), with ``c``'s rule and policy vectors,
    play table, option buffer and script rows (``state.Ctx``): (number of
    options, index of the chosen one in ``c.acts``). Every enumeration
    skips forbidden cards unless that leaves no option (ban fallback).
    greedy scores the options as they are listed and keeps the
    best, and draws one of equal best scores uniformly from the game's
    stream (``emit``, ``pick_tied``). The enumerators are inlined by LLVM
    into the one place each is called (``forceinline``)."""
    st, S, Z = s.st, s.S, s.Z
    seat_row(c, p)
    ip, pp, PT, PID, acts, script = c.ip, c.prow, c.PT, c.PID, c.acts, c.script
    pol = S[p, C_POL]
    g = pol == POL_GREEDY
    if dec == D_RESP:
        n = enum_resp(S, Z, ip, pp, PT, PID, acts, p, a, inc, g)
    else:
        n = enum_plays(S, Z, ip, pp, PT, PID, acts, p, dec, g)
    Z[Z_OPTS] += n
    if n == 0:
        return n, 0
    if g:
        return n, pick_tied(st, Z)
    if pol == POL_RANDOM:
        return n, below(st, n)
    return n, script_pick(Z, acts, script, n)


@njit(*_sigs(3, (_A2, _I, _I, _I, _I, _I)), cache=True, _nrt=False, forceinline=True,
      no_cpython_wrapper=True, no_cfunc_wrapper=True)
def push3(acts, n, k, t, o, ot):
    if n < MAXA:
        return push(acts, n, k, t, o, ot)
    return n


@inlined
def enum3(S, Z, ip, PT, PID, acts, p, dec, inc, fb):
    """v3 options. Turn (D_TURN): each distinct run x each legal target when
    it deals damage (the joint-attack target only, when there is one), x
    bloodthirst on each enemy (run with a 5), rampage, frost on each enemy's
    skill or shield (run with a 4). Response (D_RESP): each run, x reflect,
    rampage, devour, frost (run with a 4)."""
    P = Z[Z_P]
    jt = Z[Z_JOINT] - 1
    if jt >= 0 and (S[jt, C_ALIVE] == 0 or not enemy(S, p, jt)):
        jt = -1
    blood = dec == D_TURN and S[p, C_BTU] > 0 and skill_on(S, p)
    ramp = has_shield(S, p, 9)
    frz = can_freeze(S, p)
    refl = dec == D_RESP and has_shield(S, p, 7) and inc > 0
    dev = dec == D_RESP and has_shield(S, p, 10)
    adj, nrs = run_walk(PT, PID)
    n = 0
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        for j in range(1, RUNS[adj, bits, 0] + 1):
            k = s * nrs + RUNS[adj, bits, j]
            if not (fb and forbidden(Z, PT, s, k)):
                has4 = PT[k, T_HAS4] == 1
                has5 = PT[k, T_HAS5] == 1
                hurts = dec == D_TURN and pdmg3(S, ip, PT, PID, p, k) > 0
                for t in range(-1, P):
                    if dec == D_TURN:
                        if hurts:
                            if t < 0 or S[t, C_ALIVE] == 0 or not enemy(S, p, t):
                                continue
                            if jt >= 0 and t != jt:
                                continue
                        elif t >= 0:
                            break
                    elif t >= 0:
                        break
                    n = push3(acts, n, k, t, O_NONE, -1)
                    if blood and has5:
                        for e in range(P):
                            if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                n = push3(acts, n, k, t, O_BLOOD, e)
                    if has4:
                        if refl:
                            n = push3(acts, n, k, t, O_REFLECT, -1)
                        if dev:
                            n = push3(acts, n, k, t, O_DEVOUR, -1)
                        if ramp:
                            n = push3(acts, n, k, t, O_RAMP, -1)
                        if frz:
                            for e in range(P):
                                if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                    n = push3(acts, n, k, t, O_FRZSK, e)
                                    n = push3(acts, n, k, t, O_FRZSH, e)
    return n


@internal
def enum_v3(S, Z, ip, PT, PID, acts, p, dec, inc):
    """v3 options (random and script policies), with the ban fallback."""
    return ban_fallback(Z, enum3, (S, Z, ip, PT, PID, acts, p, dec, inc))


@inlined
def est_incoming(S, ip, t, amount):
    """Greedy: what t would really take of ``amount`` (public passives)."""
    if amount <= 0 or not skill_on(S, t):
        return amount
    if S[t, C_RANK] == 7 and amount <= ip[P_GIGN]:
        return np.int64(0)
    if S[t, C_RANK] == 10:
        return amount // ip[P_KKDIV]
    return amount


@inlined
def run_base(pp, k):
    """greedy's value of run k itself: + a 5, - a spent 4, - its cards
    (the first term of every v3 option score)."""
    return pp[Q_RUN + k]


@njit(*_sigs(3, (_A2, _I, _F, _I, _F, _I, _I, _I, _I, nbt.none),
                (_A2, _I, _F, _I, _F, _I, _I, _I, _I, _F1)),
      cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def keep_best3(acts, n, bs, nt, sc, k, t, o, ot, sink):
    """score_options3: count option (k, t, o, ot) scored ``sc`` (options
    past MAXA are not enumerated, as in ``push3``): a new best score makes
    it the only best, in acts[0]; an equal score joins the ``nt`` tied best
    options in acts[:nt] (the first option is the default, as in ``emit``).
    Returns (n, best score, options tied for it). With a ``sink`` (the
    search's candidates, ``options3``; None for greedy, a branch numba
    removes when it compiles greedy) every option is listed at acts[n], its
    score at sink[n]."""
    if n >= MAXA:
        return n, bs, nt
    if sink is not None:
        sink[n] = sc
        push(acts, n, k, t, o, ot)
        return n + 1, bs, nt
    if sc > bs or n == 0:
        if sc > bs:
            bs = sc
        push(acts, 0, k, t, o, ot)
        nt = 1
    elif sc == bs:
        push(acts, nt, k, t, o, ot)
        nt += 1
    return n + 1, bs, nt


@inlined
def common3(sc, dec, ht, cadd, c):
    """score_options3: the terms every option of a run and target shares,
    added after the option's own term (turn: heal; a hit or the OD bounce)."""
    if dec == D_TURN:
        sc += ht
    if cadd:
        sc += c
    return sc


@inlined
def od_term3(S, Z, ip, pp, a, od, hp, ub):
    """score_options3: the value of OD ``od`` after a response (v3): a loss
    (all of the HP: -(1e12 + HP)), or the bounce at the sender a with its public
    passives (``est_incoming``); (whether it applies, value, bounded: with
    ``ub``, see ``hit_bound``)."""
    if od < 0:
        loss = -od
        if loss >= hp:
            return True, -(1e12 + hp), False
        return True, -float(loss), False
    if od > 0:
        v, bnd = hit_bound(S, Z, pp, a, est_incoming(S, ip, a, od), ub)
        return True, v, bnd
    return False, 0.0, False


@inlined
def score_options3(S, Z, ip, pp, PT, PID, acts, p, decision, sink, fb):
    """greedy for v3, enumeration and scoring in one pass: the options of
    p's ``decision`` (a ``Decision``) that ``enum3`` lists, in the same
    order (at most MAXA). An option's score is the run's own value, then
    the option's term, then the terms shared by every option of its run and
    target (``common3``: heal, the hit or the OD bounce),
    added in that order (float sums: the order is part of the results); the
    shared terms (v3 damage, the target's value) are computed once per run
    and target. The options tied for the best score go to acts[:Z[Z_TIES]]
    (``keep_best3``; with a ``sink``, every option and its score); returns the
    number of options. A run and target whose only option is O_NONE and
    whose kill value, bounded (``hit_bound``), puts it below the best so far
    is counted without its exact score (greedy only: the search's ``sink``
    lists every score)."""
    dec, inc, a = decision
    hp = S[p, C_HP]
    room = S[p, C_MAXHP] - hp
    P = Z[Z_P]
    prune = sink is None
    jt = Z[Z_JOINT] - 1
    if jt >= 0 and (S[jt, C_ALIVE] == 0 or not enemy(S, p, jt)):
        jt = -1
    blood = dec == D_TURN and S[p, C_BTU] > 0 and skill_on(S, p)
    ramp = has_shield(S, p, 9)
    frz = can_freeze(S, p)
    refl = dec == D_RESP and has_shield(S, p, 7) and inc > 0
    dev = dec == D_RESP and has_shield(S, p, 10)
    inc_p = est_incoming(S, ip, p, inc)
    adj, nrs = run_walk(PT, PID)
    n = 0
    bs = -1e300
    nt = 0
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        for j in range(1, RUNS[adj, bits, 0] + 1):
            k = s * nrs + RUNS[adj, bits, j]
            if not (fb and forbidden(Z, PT, s, k)):
                has4 = PT[k, T_HAS4] == 1
                has5 = PT[k, T_HAS5] == 1
                dmg = pdmg3(S, ip, PT, PID, p, k)
                hurts = dec == D_TURN and dmg > 0
                heal = PT[k, T_HEAL]
                s0 = run_base(pp, k)
                ramp_v = float(S[p, C_HN] - PT[k, T_LEN])
                # the common term, added after the option's own term
                ht = 0.0
                cadd = False
                c = 0.0
                dadd = False
                dc = 0.0
                if dec == D_TURN:
                    ht = pp[Q_HEAL] * min(heal, room)
                else:
                    ie = 0 if has4 else inc_p
                    cadd, c, cb = od_term3(S, Z, ip, pp, a, sat_add(dmg, heal) - ie, hp, prune)
                    if cb:
                        if not has4 and 0 < n < MAXA and common3(s0, dec, ht, cadd, c) < bs:
                            n += 1       # O_NONE, its one option: neither better nor tied
                            continue
                        cadd, c, cb = od_term3(S, Z, ip, pp, a, sat_add(dmg, heal) - ie, hp,
                                               False)
                    if dev and has4:
                        dadd, dc, _ = od_term3(S, Z, ip, pp, a,
                                               sat_add(sat_add(dmg, inc), heal) - ie, hp, False)
                for t in range(-1, P):
                    if dec == D_TURN:
                        if hurts:
                            if t < 0 or S[t, C_ALIVE] == 0 or not enemy(S, p, t):
                                continue
                            if jt >= 0 and t != jt:
                                continue
                        elif t >= 0:
                            break
                    elif t >= 0:
                        break
                    if dec == D_TURN and dmg > 0:
                        cadd = True
                        c, cb = hit_bound(S, Z, pp, t, est_incoming(S, ip, t, dmg), prune)
                        if cb:
                            if (not has4 and not (blood and has5) and 0 < n < MAXA
                                    and common3(s0, dec, ht, cadd, c) < bs):
                                n += 1   # O_NONE, its one option: neither better nor tied
                                continue
                            c = hit_value(S, Z, pp, t, est_incoming(S, ip, t, dmg))
                    # O_NONE
                    sc = common3(s0, dec, ht, cadd, c)
                    n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_NONE, -1, sink)
                    if blood and has5:
                        for e in range(P):
                            if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                sc = s0 + (float(est_incoming(S, ip, e, ip[P_BTD]) * ip[P_BTR])
                                           - pp[Q_SKILL])
                                sc = common3(sc, dec, ht, cadd, c)
                                n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_BLOOD, e, sink)
                    if has4:
                        if refl:
                            sc = s0
                            amt = sat_mul(inc, ip[P_REFLM])
                            for q in range(P):
                                if q != p and S[q, C_ALIVE] == 1:
                                    # block or die (step_v3.reflect): exactly lethal, however
                                    # large the multiplied amount (its overkill doublings
                                    # mean nothing when no answer can shrink it)
                                    v = 0.5 * hit_value(S, Z, pp, q,
                                                        S[q, C_HP] if amt > 0 else amt)
                                    sc += v if enemy(S, p, q) else -v
                            n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_REFLECT, -1, sink)
                        if dev:
                            sc = s0
                            if dadd:
                                sc += dc
                            n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_DEVOUR, -1, sink)
                        if ramp:
                            sc = s0 + ramp_v
                            sc = common3(sc, dec, ht, cadd, c)
                            n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_RAMP, -1, sink)
                        if frz:
                            for e in range(P):
                                if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                    r = S[e, C_RANK]
                                    sc = s0 + (2.0 if (r == 7 or r == 10 or S[e, C_BTU] > 0)
                                               else -1.0)
                                    sc = common3(sc, dec, ht, cadd, c)
                                    n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_FRZSK, e,
                                                           sink)
                                    sc = s0 + (2.0 if S[e, C_SHB] != 0 and S[e, C_FRSH] == 0
                                               else -1.0)
                                    sc = common3(sc, dec, ht, cadd, c)
                                    n, bs, nt = keep_best3(acts, n, bs, nt, sc, k, t, O_FRZSH, e,
                                                           sink)
    Z[Z_TIES] = nt
    return n


@internal
def greedy3(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a):
    """greedy for v3: the best-scoring options in acts[:Z[Z_TIES]]
    (forbidden cards skipped unless that leaves none); returns the number
    of options."""
    return ban_fallback(Z, score_options3, (S, Z, ip, pp, PT, PID, acts, p, Decision(dec, inc, a),
                                       None))


@internal
def options3(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a, sink):
    """v3: every option of p's decision ``dec`` (a turn, or a response to
    ``inc`` from a: enum3's options, in its order) in acts, greedy's score
    of each in ``sink`` (``score_options3`` with a sink); returns their number
    (the search's: ``step.options``, ``step.prior``)."""
    return ban_fallback(Z, score_options3, (S, Z, ip, pp, PT, PID, acts, p, Decision(dec, inc, a),
                                       sink))


@internal
def options12(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a, sink):
    """v1/v2: every option of p's decision ``dec`` (random's list: a turn
    ``enum_plays``, a response to ``inc`` from a ``enum_resp``) in acts,
    greedy's score of each in ``sink`` (``greedy_score`` with the arguments
    ``emit`` gives it); returns their number."""
    if dec == D_RESP:
        n = enum_resp(S, Z, ip, pp, PT, PID, acts, p, a, inc, False)
    else:
        n = enum_plays(S, Z, ip, pp, PT, PID, acts, p, dec, False)
    m, jev, hp, room, imm = greedy_ctx(S, Z, ip, pp, p, True)
    decision = Decision(dec, inc, a)
    for i in range(n):
        k = acts[i, 0]
        terms = Terms(sat_mul(PT[k, T_DMG], m), jev, hp, room, imm)
        sink[i] = greedy_score(S, Z, pp, PT, decision, terms,
                         Option(k, acts[i, 1], acts[i, 2], acts[i, 3]), False)[0]
    return n


@inlined
def decide3(s, c, p, dec, inc, a):
    """A v3 decision: (number of options, index of the chosen one in
    ``c.acts``); as :func:`decide` (greedy: a tie is drawn by
    ``pick_tied``)."""
    st, S, Z = s.st, s.S, s.Z
    seat_row(c, p)
    ip, pp, PT, PID, acts, script = c.ip, c.prow, c.PT, c.PID, c.acts, c.script
    pol = S[p, C_POL]
    g = pol != POL_RANDOM and pol != POL_SCRIPT
    if g:
        n = greedy3(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a)
    else:
        n = enum_v3(S, Z, ip, PT, PID, acts, p, dec, inc)
    Z[Z_OPTS] += n
    if n == 0:
        return n, np.int64(0)
    if g:
        return n, pick_tied(st, Z)
    if pol == POL_RANDOM:
        return n, below(st, n)
    return n, script_pick(Z, acts, script, n)


jit.kernel_cache_end()
