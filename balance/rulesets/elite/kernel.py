"""Magic Elite kernel: njit functions over small int64 arrays.

One game's state (allocated once per block of games, reset per game):

- ``S`` int64[P, NS]: per seat scalars (columns ``C_*``): the active
  character/general (rank, suit, HP, max HP, turn-order key), skill state,
  statistics, then the hand as counts per card kind (``C_H + kind``), one
  9-bit presence mask per suit (``C_M + suit``, for run enumeration) and the
  seat's identity cards (``C_G + i``, generals in v2).
- ``pile`` int64[2, NCAP]: row 0 the play deck (top = last), row 1 the
  discard pile.
- ``Z`` int64[NZ]: deck and discard sizes, turn, trace length, trace flag,
  game counters, the pending rogue attack.
- ``acts`` int64[MAXA, 4]: the option buffer (play, target, option, option
  target) every decision enumerates into; policies pick an index (greedy
  scores options as they are listed and keeps only the best, in acts[0]).
- ``PT``/``PID``: the static play table of ``rules.play_table``; the runs a
  hand can play in a suit are read from ``PID[suit, RUN0 + mask]``.

The exchange (OD chain, :func:`exchange`) is written so later versions can
hook into it: per-step defender options (``enum_resp``: v3 dedicated shields
go there), the damage multiplier as a saturating product (``mult``: v3
dragon/rampage/king-kong factors go there), and every damage instance goes
through ``hit`` then ``die`` (v3 lives, storm god and duels go there).
Damage is int64 and saturates at ``SAT`` = 2**62 (``sat_mul``, ``sat_add``).

Random numbers come from the game's own stream (``core/rng.py``), in a fixed
order that tracing does not change.

Speed: every function except ``play_blocks`` (the batch loop, run on
threads by ``core.parallel.run_blocks``) is compiled with ``_nrt=False``: numba then emits no
reference counting for the ~10 array arguments of each call (it was ~40 %
of the run time). Such a function must never allocate or return an array
(views like ``pile[0]`` are fine). Small hot helpers are inlined
(``inline="always"``); ``sat_mul`` avoids its integer division when both
factors are < 2**31; trace events are only built under ``if Z[Z_ON]``.
Larger hot functions with one call site (the option enumerators, ``hit``,
v3's turn) carry LLVM's ``alwaysinline`` (``forceinline=True``): a call
passes every array as a ~7-11 word struct, ~60-110 words per call, and
that was a tenth of the time. numba's own ``inline="always"`` does the same
at a far higher compile cost (inlining ``enum_resp_f`` that way took the cold
compile from 90 to 211 s); ``forceinline`` on ``play_turn`` (two call sites,
inlined callees) took it to 290 s, so it is not used there.
"""
import numpy as np
from numba import njit
from numba import types as nt

from ...core import jit
from ...core.kernel import ev, setbit  # before kernel_cache_begin: cached with core
from ...core.records import BLOCK
from ...core.rng import below, game_state, shuffle
from .rules import (IDX, PIDX, POLICY_SCRIPT, RUN0, T_DMG, T_HAS4, T_HAS5, T_HASA, T_HASK,
                    T_HEAL, T_HI, T_LEN, T_LO, T_SUIT)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

SAT = np.int64(1) << np.int64(62)
LIM31 = np.int64(1) << np.int64(31)     # a, b < LIM31: a x b < SAT

# --- parameter slots -----------------------------------------------------
P_VERSION = IDX["version"]
P_DECKS = IDX["n_decks"]
P_PIP = IDX["hp_per_pip"]
P_START = IDX["start_hand"]
P_REFILL = IDX["refill"]
P_FIVE = IDX["five_draw"]
P_MAXEX = IDX["max_exchange"]
P_MAXT = IDX["max_turns"]
P_KILLER = IDX["killer_multiplier"]
P_KING = IDX["king_multiplier"]
P_REV = IDX["rogue_revives"]
P_REVFREE = IDX["rogue_free_revives"]
P_GENS = IDX["generals_per_player"]
P_TEAMS = IDX["teams"]
P_SEVEN = IDX["v2_seven_multiplier"]
P_DECOYS = IDX["decoys"]
P_USES = IDX["eight_uses"]
P_FREE = IDX["eight_free_uses"]
P_SHIELD = IDX["shield_rounds"]
P_CONTROL = IDX["control_rounds"]
P_JDMG = IDX["judgment_damage"]
P_C7 = IDX["combined_seven_plays"]
P_C8 = IDX["combined_eight_uses"]
P_BAN = len(IDX)          # ip[P_BAN + kind]: records.BAN_* code per card kind (vectors())
Q_HEAL = PIDX["heal_value"]
Q_KILL = PIDX["kill_bonus"]
Q_SKILL = PIDX["skill_cost"]
Q_JEV = PIDX["judgment_min_ev"]
Q_OVER = PIDX["overkill_value"]
Q_RUN = len(PIDX)          # pp[Q_RUN + k]: greedy's value of run k itself (rules.run_values)
# (these slots are frozen into the compiled kernel: its cache folder is named
# by the fingerprint of every file of the ruleset, core.jit.cache_dir)

# --- seat state columns ----------------------------------------------------
(C_HP, C_MAXHP, C_ALIVE, C_RANK, C_SUIT, C_KEY, C_HN, C_GEN, C_TEAM, C_POL,
 C_SCORE, C_KILLS, C_LOST, C_REV, C_REVFREE, C_BILOC, C_BRESET, C_DECOYS, C_USES, C_FREE,
 C_IMM, C_FT, C_FL, C_FB, C_COMB, C_X, C_DEALT, C_TAKEN, C_HEALED, C_OUT,
 C_FRAMES, C_SKILLS, C_JUDGS, C_REVUSED, C_ROLE, C_ROLESUIT, C_TB) = range(37)
C_M = 40                 # 4 suit presence masks
C_H = 44                 # 36 hand counts
C_G = 80                 # identity cards (generals), up to GMAX
GMAX = 8
# v3 三代 per seat (after the identity cards)
(C_STORM, C_POUCH, C_SHB, C_DIAM, C_BTU, C_BTT, C_BTS, C_FRSK, C_FRSH, C_FRU, C_EXT, C_MINES,
 C_LEO, C_DRG, C_BIRD, C_KIT, C_ZMB, C_PEND, C_KLR, C_PREHP, C_PREMAX, C_DQH, C_DQN,
 C_NREF, C_NRAMP, C_NDEV, C_NFRZ, C_NBLOOD, C_NIGN, C_NEXT, C_NMINE, C_NSTEAL, C_STORMU,
 C_POUCHU, C_DUELW, C_DUELL, C_BUYS, C_DEATHS, C_BTOFF) = range(C_G + GMAX, C_G + GMAX + 39)
C_RMANY = C_G + GMAX + 39        # 1 once p's cards were marked (so C_RM may be > 0), until out
C_RM = C_G + GMAX + 40           # 36 counts: rampage-marked cards per kind
NCAP = 36 * 6
C_DQ = C_RM + 36                 # duel pile: ring buffer of NCAP card kinds
NS = C_DQ + NCAP
MAXA = 8192

# --- game globals -----------------------------------------------------------
(Z_DECK, Z_DISC, Z_TURN, Z_TR, Z_ON, Z_SP, Z_P, Z_NC, Z_EXCH, Z_MAXCH, Z_JUDG, Z_JKILL,
 Z_JSELF, Z_CAPS, Z_PA, Z_PT, Z_PD, Z_SERR, Z_FRAMES, Z_DECOYHITS, Z_TEAMS, Z_V,
 Z_ROUNDS, Z_CERR, Z_KPTS, Z_KILLS, Z_REVIVES, Z_SHIELDS, Z_CONTROLS) = range(29)
Z_FORB = 29              # any card kind forbidden (ban code 2)
Z_FM = 30                # 4 per-suit 9-bit masks of forbidden ranks
# v3: next-turn override (0 none, 1 top of the order, 2 + q seat q), joint
# attack (seat + 1), mine (position + 1 in the deck, owner), last play (run,
# seat) for devouring, in-duel flag, deaths by cause (5), counters
(Z_NEXT, Z_JOINT, Z_MPOS, Z_MOWN, Z_LK, Z_LKP, Z_INDUEL, Z_D0, Z_D1, Z_D2, Z_D3, Z_D4,
 Z_STORMS, Z_POUCHES, Z_DUELS, Z_DCAPS, Z_GIFTS, Z_BLEO, Z_BDRG, Z_BBIRD, Z_BKIT, Z_ZOMB,
 Z_REFL, Z_RBLOCK, Z_MHIT, Z_DODGE, Z_KITSAVE, Z_RALLBLOCK) = range(34, 62)
Z_IDC = 62               # 16 counts: unused identity cards (v3 glutton extension)
Z_RESP = Z_IDC + 16      # responses played in exchanges, all versions
NZ = Z_RESP + 1

# --- records: game columns and seat columns (see __init__.py) -----------------
(G_WINNER, G_TURNS, G_ROUNDS, G_END, G_FIRST, G_LAST, G_TEAMWIN, G_EXCH, G_MAXCH, G_CAPS,
 G_JUDG, G_JKILL, G_JSELF, G_REVIVES, G_FRAMES, G_DECOYHITS, G_SHIELDS, G_CONTROLS,
 G_KPTS, G_KILLS) = range(20)
NG_V12 = 20
(G_D_EXCH, G_D_REFLECT, G_D_BLOOD, G_D_MINE, G_D_DUEL, G_STORMS, G_POUCHES, G_DUELS, G_DCAPS,
 G_GIFTS, G_BLEO, G_BDRG, G_BBIRD, G_BKIT, G_ZOMB, G_REFL, G_RBLOCK, G_MHIT, G_DODGE,
 G_KITSAVE) = range(20, 40)
G_RESP = 40              # all versions: responses played in exchanges
NG = 41
(S_ROLE, S_SUIT, S_TEAM, S_TEAMWON, S_HP, S_MAXHP, S_SCORE, S_KILLS, S_LOST, S_OUT,
 S_REVIVES, S_FRAMES, S_SKILLS, S_JUDGS, S_DEALT, S_TAKEN, S_HEALED, S_HAND) = range(18)
NSEAT_V12 = 18
(S_REFL, S_RAMP, S_DEV, S_FRZ, S_BLOOD, S_IGN, S_EXT, S_MINE, S_STEAL, S_STORMU, S_POUCHU,
 S_DUELW, S_DUELL, S_DIAM, S_BUYS, S_ZOMBIE, S_DEATHS) = range(18, 35)
NSEAT = 35

END_LAST, END_CAP, END_ALLOUT = 0, 1, 2
POL_RANDOM, POL_GREEDY = 0, 1
POL_SCRIPT = POLICY_SCRIPT
# options
O_NONE, O_JUDG, O_FRAME, O_SHIELD, O_CONTROL = range(5)
# v3 options: dedicated shields (a run with a 4) and bloodthirst (a turn run with a 5)
O_REFLECT, O_RAMP, O_DEVOUR, O_FRZSK, O_FRZSH, O_BLOOD = range(5, 11)
# v3 causes of death
CA_EXCH, CA_REFLECT, CA_BLOOD, CA_MINE, CA_DUEL = range(5)
# v3 shop items
I_NONE, I_LEO, I_DRAGON, I_BIRDS, I_KIT = range(5)
# decisions
D_TURN, D_RESP, D_REVIVE = range(3)

# trace events: row = [type, turn, seat, a, b, c, d, e]
(E_DEAL, E_IDENT, E_TURN, E_PLAY, E_HEAL, E_DRAW, E_RESHUFFLE, E_OD, E_DAMAGE, E_IMMUNE,
 E_DEATH, E_REVIVE, E_OUT, E_DECOY, E_JUDG, E_JHIT, E_SHIELD, E_CONTROL, E_FRAME,
 E_COMBINED, E_CAP, E_NORESP, E_PASS, E_END, E_EFFECT_END) = range(1, 26)
# v3 events
(E_REFLECT, E_BLOCK, E_RAMP, E_DEVOUR, E_FREEZE, E_THAW, E_STEAL, E_BLOOD, E_TICK, E_BLOODEND,
 E_IGNORE, E_EXTEND, E_BURY, E_MINE, E_GIFT, E_BUY, E_BIRDS, E_LEOPARD, E_STORM, E_POUCH,
 E_DUEL, E_DPLAY, E_DUELEND, E_ZOMBIE, E_KIT, E_DEATH3, E_RESTART, E_DUELQ) = range(26, 54)


# --- saturating arithmetic (damage never overflows or wraps) --------------------
@njit(cache=True, inline="always")
def sat_mul(a, b):
    """a x b for a, b >= 0, saturating at SAT = 2**62 (0 when a or b <= 0)."""
    if a < LIM31 and b < LIM31:
        # < 2**62 = SAT: no integer division, and no branch on the signs, on the hot path
        return max(a, np.int64(0)) * max(b, np.int64(0))
    if a <= 0 or b <= 0:
        return np.int64(0)
    if a > SAT // b:
        return SAT
    r = a * b
    return r if r < SAT else SAT


@njit(cache=True, inline="always")
def sat_add(a, b):
    """a + b for 0 <= a, b <= SAT, saturating at SAT."""
    if a >= SAT - b:
        return SAT
    return a + b


@njit(cache=True, inline="always")
def draws_after_play(hand_left, fives, ip):
    """Cards drawn after a play: ``five_draw`` per 5 played, plus ``refill``
    when the play emptied the hand (General 5(2): 5 + 5 = 10, 5 + 10 = 15)."""
    n = fives * ip[P_FIVE]
    if hand_left == 0:
        n += ip[P_REFILL]
    return n


# --- cards -------------------------------------------------------------------------
@njit(cache=True, inline="always")
def add_card(S, p, kind):
    if S[p, C_H + kind] == 0:
        S[p, C_M + kind // 9] |= np.int64(1) << (kind % 9)
    S[p, C_H + kind] += 1
    S[p, C_HN] += 1


@njit(cache=True, inline="always")
def draw(st, S, pile, Z, tr, masks, counts, p, deal):
    if Z[Z_DECK] == 0:
        n = Z[Z_DISC]
        if n == 0:
            return -1
        for i in range(n):
            pile[0, i] = pile[1, i]
        Z[Z_DECK] = n
        Z[Z_DISC] = 0
        shuffle(st, pile[0], n)
        if Z[Z_ON]:
            ev(tr, Z, E_RESHUFFLE, -1, n, 0, 0, 0, 0)
    Z[Z_DECK] -= 1
    c = pile[0, Z[Z_DECK]]
    add_card(S, p, c)
    setbit(masks, p, 0, c)
    counts[0, c] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEAL if deal else E_DRAW, p, c, 0, 0, 0, 0)
    return c


@njit(cache=True, inline="always")
def draw_n(st, S, pile, Z, tr, masks, counts, p, n):
    for _ in range(n):
        if draw(st, S, pile, Z, tr, masks, counts, p, np.int64(0)) < 0:
            break


@njit(cache=True, inline="always")
def remove_play(S, pile, Z, masks, counts, p, PT, k):
    """Move the cards of run k from p's hand to the discard pile."""
    s = PT[k, T_SUIT]
    for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
        kind = s * 9 + r
        S[p, C_H + kind] -= 1
        if S[p, C_H + kind] == 0:
            S[p, C_M + s] &= ~(np.int64(1) << r)
        pile[1, Z[Z_DISC]] = kind
        Z[Z_DISC] += 1
        setbit(masks, p, 1, kind)
        counts[1, kind] += 1
    S[p, C_HN] -= PT[k, T_LEN]


@njit(cache=True, _nrt=False)
def discard_hand(S, pile, Z, p):
    for kind in range(36):
        c = S[p, C_H + kind]
        for _ in range(c):
            pile[1, Z[Z_DISC]] = kind
            Z[Z_DISC] += 1
        S[p, C_H + kind] = 0
    for s in range(4):
        S[p, C_M + s] = 0
    S[p, C_HN] = 0


# --- sides, keys, multipliers -----------------------------------------------------
@njit(cache=True, inline="always")
def enemy(S, p, q):
    return p != q and S[p, C_TEAM] != S[q, C_TEAM]


@njit(cache=True, inline="always")
def ident_key(ident, tb):
    """Turn-order key: rank 10>9>8>7, then ♠>♥>♣>♦, exact ties by ``tb``."""
    return ((ident // 4) * 4 + (3 - ident % 4)) * 8 + tb


@njit(cache=True, inline="always")
def mult(S, Z, ip, p):
    """Product of every multiplier that applies to p's next damaging play."""
    r = S[p, C_RANK]
    if Z[Z_V] == 1:
        if r == 7:
            return ip[P_KILLER]
        if r == 10:
            return ip[P_KING]
        return np.int64(1)
    m = np.int64(1)
    if r == 7:
        m = sat_mul(m, ip[P_SEVEN])
    if S[p, C_BILOC] == 1:
        m = sat_mul(m, 1 + S[p, C_DECOYS])
    if S[p, C_X] > 0:
        m = sat_mul(m, ip[P_SEVEN])
    return m


@njit(cache=True, _nrt=False)
def init_general(S, Z, ip, p):
    """Make identity card number S[p, C_GEN] p's active character."""
    ident = S[p, C_G + S[p, C_GEN]]
    r = ident // 4 + 7
    S[p, C_RANK] = r
    S[p, C_SUIT] = ident % 4
    S[p, C_MAXHP] = r * ip[P_PIP]
    S[p, C_HP] = S[p, C_MAXHP]
    S[p, C_KEY] = ident_key(ident, S[p, C_TB])
    S[p, C_REV] = 0
    S[p, C_REVFREE] = 0
    S[p, C_BILOC] = 0
    S[p, C_BRESET] = 0
    S[p, C_DECOYS] = 0
    S[p, C_USES] = 0
    S[p, C_FREE] = 0
    S[p, C_IMM] = 0
    S[p, C_COMB] = 0
    S[p, C_X] = 0
    if Z[Z_V] == 1:
        if r == 8:
            S[p, C_REV] = ip[P_REV]
            S[p, C_REVFREE] = ip[P_REVFREE]
    elif Z[Z_V] == 3:
        # v3: one life each of storm god and pouch, the character's shield and skill
        S[p, C_STORM] = ip[P_STORMS]
        S[p, C_POUCH] = ip[P_POUCHES]
        S[p, C_SHB] = np.int64(1) << (r - 7)
        S[p, C_BTU] = ip[P_BTU] if r == 8 else 0
        S[p, C_EXT] = ip[P_GEXT] if r == 7 else 0
        S[p, C_MINES] = ip[P_GMINES] if r == 7 else 0
    elif r == 8:
        if Z[Z_P] == 2:
            S[p, C_BILOC] = 1
            S[p, C_BRESET] = 1
            S[p, C_DECOYS] = ip[P_DECOYS]
        else:
            S[p, C_USES] = ip[P_USES]
            S[p, C_FREE] = ip[P_FREE]


# --- option enumeration -------------------------------------------------------------
@njit(cache=True, inline="always")
def push(acts, n, k, t, o, ot):
    acts[n, 0] = k
    acts[n, 1] = t
    acts[n, 2] = o
    acts[n, 3] = ot
    return n + 1


@njit(cache=True, inline="always")
def can_judge(S, Z, p):
    return Z[Z_V] == 2 and (S[p, C_RANK] == 9 or S[p, C_COMB] == 1)


@njit(cache=True, inline="always")
def forced_target(S, p):
    """The seat p must target (control 內斗), or -1."""
    if S[p, C_FL] > 0:
        t = S[p, C_FT]
        if t >= 0 and S[t, C_ALIVE] == 1:
            return t
    return -1


@njit(cache=True, inline="always")
def run_bits(lo, hi):
    return ((np.int64(1) << (hi + 1)) - 1) ^ ((np.int64(1) << lo) - 1)


@njit(cache=True, inline="always")
def forbidden(Z, PT, s, k):
    """Run k (of suit s) holds a forbidden card kind (ban code 2)."""
    return Z[Z_FM + s] & run_bits(PT[k, T_LO], PT[k, T_HI]) != 0


@njit(cache=True, inline="always")
def ban_fallback(Z, f, args):
    """The ban fallback of every decision: ``f(*args, fb)`` lists the
    options without forbidden cards (ban code 2, ``fb``); if every option
    holds one, it lists them all. ``f`` (an option enumerator) is a
    compile-time argument, and this loop is its one call site, so LLVM
    inlines it once (``forceinline``). Returns the number of options."""
    fb = Z[Z_FORB] == 1
    n = 0
    for _ in range(2):
        n = f(*(args + (fb,)))
        if n > 0 or not fb:
            break
        fb = False
    return n


@njit(cache=True, inline="always")
def enum_plays(S, Z, ip, pp, PT, PID, acts, p, dec, g):
    """Options of a turn or revive (``g``: greedy, see ``emit``)."""
    return ban_fallback(Z, enum_plays_f, (S, Z, ip, pp, PT, PID, acts, p, dec, g))


@njit(cache=True, inline="always")
def enum_resp(S, Z, ip, pp, PT, PID, acts, d, a, inc, g):
    """Response options of d against ``inc`` from a."""
    return ban_fallback(Z, enum_resp_f, (S, Z, ip, pp, PT, PID, acts, d, a, inc, g))


@njit(cache=True, inline="always")
def greedy_ctx(S, Z, ip, pp, p, g):
    """What greedy's scores of p's options share: multiplier, Judgment
    value, HP, room to heal, immunity."""
    m = mult(S, Z, ip, p)
    jev = 0.0
    if g and can_judge(S, Z, p):
        jev = judgment_ev(S, Z, ip, pp, p) - pp[Q_JEV]
    hp = S[p, C_HP]
    return m, jev, hp, S[p, C_MAXHP] - hp, S[p, C_IMM] > 0


@njit(cache=True, inline="always")
def emit(S, Z, pp, PT, acts, n, bs, g, p, dec, inc, a, m, jev, hp, room, imm, k, t, o, ot):
    """Option number n, (k, t, o, ot): listed at acts[n]; or, for greedy
    (``g``), scored and written to acts[0] when it beats the best score
    ``bs`` so far (the first of equal scores wins; the first option is the
    default). Returns (n + 1, best score)."""
    if not g:
        return push(acts, n, k, t, o, ot), bs
    s = gscore(S, Z, pp, PT, p, dec, inc, a, sat_mul(PT[k, T_DMG], m), jev, hp, room, imm,
               k, t, o, ot)
    if s > bs:
        bs = s
        push(acts, 0, k, t, o, ot)
    elif n == 0:
        push(acts, 0, k, t, o, ot)
    return n + 1, bs


@njit(cache=True, _nrt=False, forceinline=True)
def enum_plays_f(S, Z, ip, pp, PT, PID, acts, p, dec, g, fb):
    """Options of a turn (D_TURN) or of a rogue's revive (D_REVIVE, runs
    with a 5): each distinct run x each legal target when it deals damage
    (x Judgment or not when the run holds a K and p can judge)."""
    P = Z[Z_P]
    m, jev, hp, room, imm = greedy_ctx(S, Z, ip, pp, p, g)
    judge = can_judge(S, Z, p) and dec == D_TURN
    ft = forced_target(S, p)
    inc = np.int64(0)
    a = np.int64(-1)
    n = 0
    bs = -1e300
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        row = RUN0 + bits
        for j in range(1, PID[s, row, 0] + 1):
            k = PID[s, row, j]
            if fb and forbidden(Z, PT, s, k):
                pass
            elif dec != D_REVIVE or PT[k, T_HAS5] == 1:
                jk = judge and PT[k, T_HASK] == 1
                if sat_mul(PT[k, T_DMG], m) > 0:
                    for t in range(P):
                        ok = (t == ft) if ft >= 0 else (S[t, C_ALIVE] == 1 and enemy(S, p, t))
                        if ok:
                            n, bs = emit(S, Z, pp, PT, acts, n, bs, g, p, dec, inc, a, m, jev,
                                         hp, room, imm, k, t, O_NONE, -1)
                            if jk:
                                n, bs = emit(S, Z, pp, PT, acts, n, bs, g, p, dec, inc, a, m,
                                             jev, hp, room, imm, k, t, O_JUDG, -1)
                else:
                    n, bs = emit(S, Z, pp, PT, acts, n, bs, g, p, dec, inc, a, m, jev, hp,
                                 room, imm, k, -1, O_NONE, -1)
                    if jk:
                        n, bs = emit(S, Z, pp, PT, acts, n, bs, g, p, dec, inc, a, m, jev,
                                     hp, room, imm, k, -1, O_JUDG, -1)
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def enum_resp_f(S, Z, ip, pp, PT, PID, acts, d, a, inc, g, fb):
    """Options of defender d against ``inc`` sent by a: each distinct run,
    plus for that run each skill it allows (Judgment, a frame onto each
    enemy, the 8's shield, control onto each other enemy)."""
    P = Z[Z_P]
    m, jev, hp, room, imm = greedy_ctx(S, Z, ip, pp, d, g)
    dec = np.int64(D_RESP)
    judge = can_judge(S, Z, d)
    frame = Z[Z_V] == 1 and S[d, C_RANK] == 9
    eight = S[d, C_USES] > 0
    control = eight and S[d, C_FL] == 0
    n = 0
    bs = -1e300
    for s in range(4):
        bits = S[d, C_M + s]
        if bits == 0:
            continue
        row = RUN0 + bits
        for j in range(1, PID[s, row, 0] + 1):
            k = PID[s, row, j]
            if fb and forbidden(Z, PT, s, k):
                pass
            else:
                n, bs = emit(S, Z, pp, PT, acts, n, bs, g, d, dec, inc, a, m, jev, hp, room,
                             imm, k, -1, O_NONE, -1)
                if judge and PT[k, T_HASK] == 1:
                    n, bs = emit(S, Z, pp, PT, acts, n, bs, g, d, dec, inc, a, m, jev, hp,
                                 room, imm, k, -1, O_JUDG, -1)
                if frame and PT[k, T_HASA] == 1:
                    for e in range(P):
                        if S[e, C_ALIVE] == 1 and enemy(S, d, e):
                            n, bs = emit(S, Z, pp, PT, acts, n, bs, g, d, dec, inc, a, m,
                                         jev, hp, room, imm, k, -1, O_FRAME, e)
                if eight and (S[d, C_FREE] > 0 or PT[k, T_HAS5] == 1):
                    n, bs = emit(S, Z, pp, PT, acts, n, bs, g, d, dec, inc, a, m, jev, hp,
                                 room, imm, k, -1, O_SHIELD, -1)
                    if control:
                        for b in range(P):
                            if b != a and S[b, C_ALIVE] == 1 and enemy(S, d, b):
                                n, bs = emit(S, Z, pp, PT, acts, n, bs, g, d, dec, inc, a,
                                             m, jev, hp, room, imm, k, -1, O_CONTROL, b)
    return n


# --- policies ------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
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


@njit(cache=True, inline="always")
def hit_value(S, Z, pp, t, amount):
    """Greedy's value of sending ``amount`` at t: damage up to its HP, a kill
    bonus (+ rank in v2) and ``overkill_value`` per doubling beyond its HP
    (harder to cancel); sending damage at an immune seat only invites it back."""
    if amount <= 0:
        return 0.0
    if S[t, C_IMM] > 0:
        return -1.0
    hp = S[t, C_HP]
    if amount >= hp:
        v = hp + pp[Q_KILL] + pp[Q_OVER] * np.log2(amount / max(hp, 1))
        if Z[Z_V] == 2:
            v += S[t, C_RANK]
        return v
    return float(amount)


@njit(cache=True, inline="always")
def gscore(S, Z, pp, PT, p, dec, inc, a, dmg, jev, hp, room, imm, k, t, o, ot):
    """greedy's value of option (k, t, o, ot) of p (v1/v2); ``dmg`` is run
    k's damage with p's multipliers, ``jev`` the Judgment value, ``imm`` p
    is immune."""
    heal = PT[k, T_HEAL]
    s = pp[Q_RUN + k]
    if dec != D_RESP:
        s += pp[Q_HEAL] * min(heal, room)
        if dmg > 0:
            s += hit_value(S, Z, pp, t, dmg)
        if o == O_JUDG:
            s += jev
    elif o == O_FRAME:
        s += hit_value(S, Z, pp, ot, sat_add(dmg, inc)) + pp[Q_HEAL] * min(heal, room)
    elif o == O_CONTROL:
        s += hit_value(S, Z, pp, ot, inc) - pp[Q_SKILL]
    else:
        inc_eff = inc
        if PT[k, T_HAS4] == 1 or o == O_SHIELD or o == O_JUDG or imm:
            inc_eff = 0
        od = sat_add(dmg, heal) - inc_eff
        if od < 0:
            loss = -od
            if loss >= hp:
                s -= 1e12 + hp
            else:
                s -= loss
        elif od > 0:
            s += hit_value(S, Z, pp, a, od)
        if o == O_SHIELD:
            s -= pp[Q_SKILL]
        elif o == O_JUDG:
            s += jev
    return s


@njit(cache=True, inline="always")
def script_pick(Z, acts, script, n):
    """Tests: the next script row must match an enumerated option exactly."""
    r = Z[Z_SP]
    Z[Z_SP] = r + 1
    if r < script.shape[0]:
        for i in range(n):
            if (acts[i, 0] == script[r, 0] and acts[i, 1] == script[r, 1]
                    and acts[i, 2] == script[r, 2] and acts[i, 3] == script[r, 3]):
                return i
    Z[Z_SERR] += 1
    return 0


@njit(cache=True, inline="always")
def decide(st, S, Z, ip, pp, PT, PID, acts, script, p, dec, inc, a):
    """One decision of p (D_TURN, D_RESP against ``inc`` from a, D_REVIVE):
    (number of options, index of the chosen one in ``acts``). Every
    enumeration skips forbidden cards unless that leaves no option (ban
    fallback). greedy scores the options as they are listed and keeps only
    the best (``emit``). The enumerators are inlined by LLVM into the one
    place each is called (``forceinline``)."""
    pol = S[p, C_POL]
    g = pol == POL_GREEDY
    if dec == D_RESP:
        n = enum_resp(S, Z, ip, pp, PT, PID, acts, p, a, inc, g)
    else:
        n = enum_plays(S, Z, ip, pp, PT, PID, acts, p, dec, g)
    if n == 0 or g:
        return n, 0              # greedy: its choice is in acts[0]
    if pol == POL_RANDOM:
        return n, below(st, n)
    return n, script_pick(Z, acts, script, n)


# --- damage, deaths, skills -----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def clear_effects(S, Z, tr, t):
    """t's general leaves: its immunity ends, and so does any control it is
    part of (as controller or as one of the two infighters)."""
    S[t, C_IMM] = 0
    for q in range(Z[Z_P]):
        if q == t or S[q, C_FB] == t or S[q, C_FT] == t:
            if S[q, C_FL] > 0:
                if Z[Z_ON]:
                    ev(tr, Z, E_EFFECT_END, q, 0, 0, 0, 0, 0)
            S[q, C_FL] = 0
            S[q, C_FT] = -1
            S[q, C_FB] = -1


@njit(cache=True, _nrt=False)
def eliminate(S, pile, Z, tr, t):
    S[t, C_ALIVE] = 0
    S[t, C_HP] = 0
    S[t, C_OUT] = Z[Z_TURN]
    discard_hand(S, pile, Z, t)
    clear_effects(S, Z, tr, t)
    if Z[Z_ON]:
        ev(tr, Z, E_OUT, t, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def pair_controller(S, x, y):
    """The 8 controlling the infighting pair (x, y), or -1."""
    if S[x, C_FL] > 0 and S[x, C_FT] == y:
        return S[x, C_FB]
    if S[y, C_FL] > 0 and S[y, C_FT] == x:
        return S[y, C_FB]
    return -1


@njit(cache=True, _nrt=False)
def die(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, t, killer, judg):
    """t's character or general has HP <= 0 (or max HP <= 0)."""
    if Z[Z_V] == 1:
        if S[t, C_RANK] == 8 and S[t, C_REV] > 0:
            if S[t, C_REVFREE] > 0:
                S[t, C_REVFREE] -= 1
                S[t, C_REV] -= 1
                S[t, C_HP] = S[t, C_MAXHP]
                S[t, C_REVUSED] += 1
                Z[Z_REVIVES] += 1
                if Z[Z_ON]:
                    ev(tr, Z, E_REVIVE, t, 0, S[t, C_REV], S[t, C_HP], 0, 0)
                return
            n, i = decide(st, S, Z, ip, pp, PT, PID, acts, script, t, np.int64(D_REVIVE),
                          np.int64(0), np.int64(-1))
            if n > 0:
                k = acts[i, 0]
                tg = acts[i, 1]
                S[t, C_REV] -= 1
                S[t, C_HP] = S[t, C_MAXHP]
                S[t, C_REVUSED] += 1
                Z[Z_REVIVES] += 1
                if Z[Z_ON]:
                    ev(tr, Z, E_REVIVE, t, 1, S[t, C_REV], S[t, C_HP], 0, 0)
                dmg = sat_mul(PT[k, T_DMG], mult(S, Z, ip, t))
                remove_play(S, pile, Z, masks, counts, t, PT, k)
                if Z[Z_ON]:
                    ev(tr, Z, E_PLAY, t, k, tg, dmg, PT[k, T_HEAL], D_REVIVE * 256)
                draw_n(st, S, pile, Z, tr, masks, counts, t,
                       draws_after_play(S[t, C_HN], PT[k, T_HAS5], ip))
                if dmg > 0 and tg >= 0:
                    Z[Z_PA] = t
                    Z[Z_PT] = tg
                    Z[Z_PD] = dmg
                return
        if Z[Z_ON]:
            ev(tr, Z, E_DEATH, t, killer, S[t, C_RANK], -1, judg, 0)
        S[t, C_LOST] += 1
        eliminate(S, pile, Z, tr, t)
        return
    # v2: score the kill, then the next general enters at full HP
    rank = S[t, C_RANK]
    to = -1
    if killer >= 0:
        c = pair_controller(S, killer, t)
        if judg == 1:
            Z[Z_JKILL] += 1
            if killer == t:
                Z[Z_JSELF] += 1
            if S[killer, C_FL] > 0 and S[killer, C_FB] == t:
                to = -1          # seed 02: a controlled player's Judgment kills the controller
            elif c >= 0:
                to = c
            elif enemy(S, killer, t):
                to = killer
        elif c >= 0:
            to = c
        elif enemy(S, killer, t):
            to = killer
    if to >= 0:
        S[to, C_SCORE] += rank
        S[to, C_KILLS] += 1
        Z[Z_KPTS] += rank
        Z[Z_KILLS] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEATH, t, killer, rank, to, judg, 0)
    S[t, C_LOST] += 1
    clear_effects(S, Z, tr, t)
    if S[t, C_GEN] + 1 < ip[P_GENS]:
        S[t, C_GEN] += 1
        init_general(S, Z, ip, t)
        if Z[Z_ON]:
            ev(tr, Z, E_IDENT, t, S[t, C_G + S[t, C_GEN]], S[t, C_HP], S[t, C_KEY], S[t, C_GEN], 0)
    else:
        eliminate(S, pile, Z, tr, t)


@njit(cache=True, _nrt=False, forceinline=True)
def hit(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, t, src, amount):
    """One damage instance from src to t (exchange damage)."""
    if amount < 0:
        Z[Z_CERR] += 1
        return
    if amount == 0:
        return
    if S[t, C_IMM] > 0:
        if Z[Z_ON]:
            ev(tr, Z, E_IMMUNE, t, amount, src, 0, 0, 0)
        return
    S[t, C_HP] -= amount
    S[t, C_TAKEN] = sat_add(S[t, C_TAKEN], amount)
    if src >= 0:
        S[src, C_DEALT] = sat_add(S[src, C_DEALT], amount)
    if Z[Z_ON]:
        ev(tr, Z, E_DAMAGE, t, amount, S[t, C_HP], src, 0, 0)
    if S[t, C_HP] <= 0:
        die(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, t, src, np.int64(0))


@njit(cache=True, _nrt=False)
def judgment(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p):
    """天神的审判: turn the top card of the play deck; every active general of
    its suit loses judgment_damage HP and max HP. Returns a bitmask of the
    seats whose general died."""
    Z[Z_JUDG] += 1
    S[p, C_JUDGS] += 1
    if Z[Z_DECK] == 0:
        n = Z[Z_DISC]
        if n == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_JUDG, p, -1, -1, 0, 0, 0)
            return 0
        for i in range(n):
            pile[0, i] = pile[1, i]
        Z[Z_DECK] = n
        Z[Z_DISC] = 0
        shuffle(st, pile[0], n)
        if Z[Z_ON]:
            ev(tr, Z, E_RESHUFFLE, -1, n, 0, 0, 0, 0)
    Z[Z_DECK] -= 1
    c = pile[0, Z[Z_DECK]]
    pile[1, Z[Z_DISC]] = c
    Z[Z_DISC] += 1
    suit = c // 9
    jd = ip[P_JDMG]
    hitmask = 0
    for q in range(Z[Z_P]):
        if S[q, C_ALIVE] == 1 and S[q, C_SUIT] == suit:
            hitmask |= 1 << q
    if Z[Z_ON]:
        ev(tr, Z, E_JUDG, p, c, suit, hitmask, 0, 0)
    died = 0
    for q in range(Z[Z_P]):
        if (hitmask >> q) & 1:
            S[q, C_HP] -= jd
            S[q, C_MAXHP] -= jd
            S[q, C_TAKEN] = sat_add(S[q, C_TAKEN], jd)
            if q != p:
                S[p, C_DEALT] = sat_add(S[p, C_DEALT], jd)
            if Z[Z_ON]:
                ev(tr, Z, E_JHIT, q, jd, S[q, C_HP], S[q, C_MAXHP], p, 0)
            if S[q, C_HP] <= 0 or S[q, C_MAXHP] <= 0:
                died |= 1 << q
                die(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, q, p,
                    np.int64(1))
    return died


@njit(cache=True, _nrt=False)
def combined(S, Z, tr, ip, p):
    """v2 10: the first play with an A gives the combined skill 合体技能."""
    S[p, C_COMB] = 1
    S[p, C_X] = ip[P_C7]
    if Z[Z_P] == 2:
        if ip[P_DECOYS] > 0:
            S[p, C_BILOC] = 1
            S[p, C_BRESET] = 0
            S[p, C_DECOYS] = ip[P_DECOYS]
    else:
        S[p, C_USES] = ip[P_C8]
        S[p, C_FREE] = ip[P_C8]
    if Z[Z_ON]:
        ev(tr, Z, E_COMBINED, p, S[p, C_X], S[p, C_DECOYS], S[p, C_USES], 0, 0)


@njit(cache=True, inline="always")
def play_cards(S, pile, Z, tr, masks, counts, ip, PT, p, k):
    """Remove run k from p's hand; return its damage with p's multipliers
    (consuming a one-play multiplier) and trigger the 10's combined skill."""
    base = PT[k, T_DMG]
    dmg = sat_mul(base, mult(S, Z, ip, p))
    if S[p, C_X] > 0 and base > 0:
        S[p, C_X] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, k)
    return dmg


@njit(cache=True, inline="always")
def heal_self(S, Z, tr, p, heal):
    h = min(heal, S[p, C_MAXHP] - S[p, C_HP])
    if h > 0:
        S[p, C_HP] += h
        S[p, C_HEALED] += h
        if Z[Z_ON]:
            ev(tr, Z, E_HEAL, p, h, S[p, C_HP], 0, 0, 0)


@njit(cache=True, inline="always")
def use_eight(S, Z, p):
    S[p, C_USES] -= 1
    if S[p, C_FREE] > 0:
        S[p, C_FREE] -= 1
    S[p, C_SKILLS] += 1


@njit(cache=True, _nrt=False)
def exchange(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a, d, inc):
    """伤害抵消 OD chain: d defends against ``inc`` damage sent by a.

    OD = response damage + response heal - incoming (0 if the response holds
    a 4, uses a shield or Judgment, or d is immune). OD < 0: d loses |OD|;
    OD = 0: done; OD > 0: OD goes back to a, who responds the same way. A
    frame (v1 9) or control (v2 8) moves the incoming damage to another
    defender. At ``max_exchange`` responses the pending damage hits d.
    Returns the number of responses."""
    if Z[Z_V] == 3:
        return exchange3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a, d,
                         inc)
    Z[Z_EXCH] += 1
    steps = 0
    maxex = ip[P_MAXEX]
    while True:
        if S[a, C_ALIVE] == 0 or S[d, C_ALIVE] == 0:
            break
        if steps >= maxex:
            Z[Z_CAPS] += 1
            if Z[Z_ON]:
                ev(tr, Z, E_CAP, d, inc, a, 0, 0, 0)
            hit(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, d, a, inc)
            break
        steps += 1
        if S[d, C_BILOC] == 1:
            nd = S[d, C_DECOYS]
            if below(st, 1 + nd) < nd:
                nd -= 1
                if nd == 0:
                    if S[d, C_BRESET] == 1:
                        nd = ip[P_DECOYS]
                    else:
                        S[d, C_BILOC] = 0
                S[d, C_DECOYS] = nd
                Z[Z_DECOYHITS] += 1
                if Z[Z_ON]:
                    ev(tr, Z, E_DECOY, d, nd, S[d, C_BILOC], inc, a, 0)
                break
        n, i = decide(st, S, Z, ip, pp, PT, PID, acts, script, d, np.int64(D_RESP), inc, a)
        if n == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_NORESP, d, inc, a, 0, 0, 0)
            hit(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, d, a, inc)
            break
        k = acts[i, 0]
        o = acts[i, 2]
        ot = acts[i, 3]
        dmg = play_cards(S, pile, Z, tr, masks, counts, ip, PT, d, k)
        heal = PT[k, T_HEAL]
        if Z[Z_ON]:
            ev(tr, Z, E_PLAY, d, k, ot, dmg, heal, D_RESP * 256 + o)
        if Z[Z_V] == 2 and S[d, C_RANK] == 10 and S[d, C_COMB] == 0 and PT[k, T_HASA] == 1:
            combined(S, Z, tr, ip, d)
        if o == O_FRAME:
            # 嫁祸之术: ot defends against (ninja's damage + incoming), sent by the ninja
            S[d, C_FRAMES] += 1
            Z[Z_FRAMES] += 1
            heal_self(S, Z, tr, d, heal)
            framed = sat_add(dmg, inc)
            if Z[Z_ON]:
                ev(tr, Z, E_FRAME, d, ot, framed, a, 0, 0)
            draw_n(st, S, pile, Z, tr, masks, counts, d,
                   draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
            a = d
            d = ot
            inc = framed
            continue
        if o == O_CONTROL:
            # 控制: the incoming damage moves to B; A and B must fight each other
            use_eight(S, Z, d)
            Z[Z_CONTROLS] += 1
            r = ip[P_CONTROL]
            S[a, C_FT] = ot
            S[a, C_FL] = r
            S[a, C_FB] = d
            S[ot, C_FT] = a
            S[ot, C_FL] = r
            S[ot, C_FB] = d
            if r > S[d, C_IMM]:
                S[d, C_IMM] = r
            heal_self(S, Z, tr, d, heal)
            if Z[Z_ON]:
                ev(tr, Z, E_CONTROL, d, a, ot, inc, r, 0)
            draw_n(st, S, pile, Z, tr, masks, counts, d,
                   draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
            d = ot
            continue
        if o == O_SHIELD:
            use_eight(S, Z, d)
            Z[Z_SHIELDS] += 1
            if ip[P_SHIELD] > S[d, C_IMM]:
                S[d, C_IMM] = ip[P_SHIELD]
            if Z[Z_ON]:
                ev(tr, Z, E_SHIELD, d, S[d, C_IMM], 0, 0, 0, 0)
        died = 0
        if o == O_JUDG:
            died = judgment(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, d)
        draw_n(st, S, pile, Z, tr, masks, counts, d,
               draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
        if (died >> a) & 1 or (died >> d) & 1:
            break
        inc_eff = inc
        if PT[k, T_HAS4] == 1 or o == O_SHIELD or o == O_JUDG or S[d, C_IMM] > 0:
            inc_eff = 0
        od = sat_add(dmg, heal) - inc_eff
        if Z[Z_ON]:
            ev(tr, Z, E_OD, d, od, inc_eff, a, inc, 0)
        if od < 0:
            hit(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, d, a, -od)
            break
        if od == 0:
            break
        t = a
        a = d
        d = t
        inc = od
    if steps > Z[Z_MAXCH]:
        Z[Z_MAXCH] = steps
    Z[Z_RESP] += steps
    return steps


@njit(cache=True, _nrt=False)
def resolve_pending(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID):
    """A revived rogue's 5 that carries damage attacks after the exchange
    (v3: the duel queue)."""
    if Z[Z_V] == 3:
        resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID)
        return
    while Z[Z_PA] >= 0:
        a = Z[Z_PA]
        t = Z[Z_PT]
        dm = Z[Z_PD]
        Z[Z_PA] = -1
        if S[a, C_ALIVE] == 1 and S[t, C_ALIVE] == 1 and a != t:
            exchange(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a, t, dm)


@njit(cache=True, inline="always")
def turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p):
    """One turn of seat p in any version. v3's turn function is inlined here
    (alwaysinline), not into v1/v2's ``play_turn``, which it slowed by ~7 %."""
    if Z[Z_ON]:
        ev(tr, Z, E_TURN, p, Z[Z_ROUNDS], S[p, C_HP], S[p, C_HN], S[p, C_MAXHP], S[p, C_RANK])
    if Z[Z_V] == 3:
        play_turn3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p)
    else:
        play_turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p)


@njit(cache=True, _nrt=False)
def play_turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p):
    """One turn of seat p: a play; damage opens an exchange with a target.
    (v3: ``turn`` calls ``play_turn3`` instead.)"""
    if S[p, C_HN] == 0:
        draw_n(st, S, pile, Z, tr, masks, counts, p, ip[P_REFILL])
    n, i = decide(st, S, Z, ip, pp, PT, PID, acts, script, p, np.int64(D_TURN), np.int64(0),
                  np.int64(-1))
    if n == 0:
        if Z[Z_ON]:
            ev(tr, Z, E_PASS, p, 0, 0, 0, 0, 0)
        return
    k = acts[i, 0]
    t = acts[i, 1]
    o = acts[i, 2]
    dmg = play_cards(S, pile, Z, tr, masks, counts, ip, PT, p, k)
    if Z[Z_ON]:
        ev(tr, Z, E_PLAY, p, k, t, dmg, PT[k, T_HEAL], D_TURN * 256 + o)
    if Z[Z_V] == 2 and S[p, C_RANK] == 10 and S[p, C_COMB] == 0 and PT[k, T_HASA] == 1:
        combined(S, Z, tr, ip, p)
    heal_self(S, Z, tr, p, PT[k, T_HEAL])
    died = 0
    if o == O_JUDG:
        died = judgment(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p)
    draw_n(st, S, pile, Z, tr, masks, counts, p,
           draws_after_play(S[p, C_HN], PT[k, T_HAS5], ip))
    if dmg > 0 and t >= 0 and (died >> p) & 1 == 0 and (died >> t) & 1 == 0:
        exchange(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p, t, dmg)
    if Z[Z_PA] >= 0:             # a revived rogue's attack is waiting
        resolve_pending(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID)


@njit(cache=True, _nrt=False, forceinline=True)
def end_turn(S, Z, tr, p):
    """Durations count the target's turns: an effect of N rounds covers its
    next N turns and ends when the N-th of them ends."""
    if Z[Z_V] == 3:
        end_turn3(S, Z, tr, p)
    if S[p, C_IMM] > 0:
        S[p, C_IMM] -= 1
        if S[p, C_IMM] == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_EFFECT_END, p, 1, 0, 0, 0, 0)
    if S[p, C_FL] > 0:
        S[p, C_FL] -= 1
        if S[p, C_FL] == 0:
            S[p, C_FT] = -1
            S[p, C_FB] = -1
            if Z[Z_ON]:
                ev(tr, Z, E_EFFECT_END, p, 2, 0, 0, 0, 0)


@njit(cache=True, _nrt=False, forceinline=True)
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


@njit(cache=True, _nrt=False, forceinline=True)
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


@njit(cache=True, _nrt=False)
def check_state(S, pile, Z):
    """Broken invariants now: cards conserved, hand counts and masks
    consistent, HP in (0, max HP] for characters in play."""
    err = 0
    tot = Z[Z_DECK] + Z[Z_DISC]
    for q in range(Z[Z_P]):
        hn = 0
        for s in range(4):
            m = 0
            for r in range(9):
                c = S[q, C_H + s * 9 + r]
                if c < 0:
                    err += 1
                hn += c
                if c > 0:
                    m |= 1 << r
            if m != S[q, C_M + s]:
                err += 1
        if hn != S[q, C_HN]:
            err += 1
        for kind in range(36):
            if S[q, C_RM + kind] > S[q, C_H + kind] or S[q, C_RM + kind] < 0:
                err += 1
        if S[q, C_PEND] == 1:
            err += 1             # the duel queue is empty between turns
        tot += S[q, C_HN]
        if S[q, C_ALIVE] == 1:
            if S[q, C_HP] > S[q, C_MAXHP] or S[q, C_HP] <= 0 or S[q, C_MAXHP] <= 0:
                err += 1
    if tot != Z[Z_NC]:
        err += 1
    return err


# --- one game -------------------------------------------------------------------------------------
@njit(cache=True, _nrt=False)
def init_game(st, S, pile, Z, tr, masks, counts, ip, pol, P, seed, game, on):
    """Shuffle the play deck, break exact identity ties, deal identities
    (v1: one each; v2: generals_per_player each, round-robin) and hands."""
    st[0] = game_state(seed, game)
    for j in range(NZ):
        Z[j] = 0
    Z[Z_ON] = 1 if on else 0
    Z[Z_P] = P
    Z[Z_V] = ip[P_VERSION]
    Z[Z_PA] = -1
    Z[Z_ROUNDS] = 1
    nd = ip[P_DECKS]
    n = 0
    for kind in range(36):
        b = ip[P_BAN + kind]
        if b == 2:
            Z[Z_FORB] = 1
            Z[Z_FM + kind // 9] |= np.int64(1) << (kind % 9)
        if b == 1:
            continue             # ban code 1: removed from the play deck
        for _ in range(nd):
            pile[0, n] = kind
            n += 1
    NC = n
    Z[Z_NC] = NC
    shuffle(st, pile[0], NC)
    Z[Z_DECK] = NC
    teams = ip[P_TEAMS] == 1 and P == 4 and Z[Z_V] == 2
    Z[Z_TEAMS] = 1 if teams else 0
    for p in range(P):
        for j in range(C_DQ):    # the duel pile after C_DQ is written before it is read
            S[p, j] = 0
        S[p, C_TB] = p
        S[p, C_POL] = pol[p]
        S[p, C_TEAM] = p % 2 if teams else p
        S[p, C_ALIVE] = 1
        S[p, C_OUT] = -1
        S[p, C_FT] = -1
        S[p, C_FB] = -1
        for w in range(masks.shape[2]):
            masks[p, 0, w] = 0
            masks[p, 1, w] = 0
    # a random seat order breaks exact identity ties (same rank and suit)
    for i in range(P - 1, 0, -1):
        j = below(st, i + 1)
        t = S[i, C_TB]
        S[i, C_TB] = S[j, C_TB]
        S[j, C_TB] = t
    # identity cards: shuffled in the (still empty) discard row
    NI = 16 * nd
    n = 0
    for ident in range(16):
        for _ in range(nd):
            pile[1, n] = ident
            n += 1
    shuffle(st, pile[1], NI)
    ng = ip[P_GENS] if Z[Z_V] == 2 else 1
    top = NI - 1
    for j in range(ng):
        for p in range(P):
            S[p, C_G + j] = pile[1, top]
            top -= 1
    Z[Z_DISC] = 0
    if Z[Z_V] == 3:
        for i in range(16):
            Z[Z_IDC + i] = nd
        for p in range(P):
            Z[Z_IDC + S[p, C_G]] -= 1
            S[p, C_DIAM] = ip[P_DIAM0]
    for p in range(P):
        S[p, C_GEN] = 0
        init_general(S, Z, ip, p)
        S[p, C_ROLE] = S[p, C_RANK]
        S[p, C_ROLESUIT] = S[p, C_SUIT]
        if Z[Z_ON]:
            ev(tr, Z, E_IDENT, p, S[p, C_G], S[p, C_HP], S[p, C_KEY], 0, 0)
    for p in range(P):
        for _ in range(ip[P_START]):
            draw(st, S, pile, Z, tr, masks, counts, p, np.int64(1))


@njit(cache=True, _nrt=False)
def run_game(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, check, cur, turns,
             grow, srow):
    """Play from turn ``turns`` with seat ``cur`` to move until the game
    ends; fill the game row and seat rows. Returns broken invariants (check
    mode: state checks after every turn; always: negative damage)."""
    maxt = ip[P_MAXT]
    errors = 0
    end = END_CAP
    while True:
        if turns >= maxt:
            break
        turns += 1
        Z[Z_TURN] = turns
        key0 = S[cur, C_KEY]
        turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, cur)
        end_turn(S, Z, tr, cur)
        if check:
            errors += check_state(S, pile, Z)
        if sides_left(S, Z) <= 1:
            end = END_LAST if sides_left(S, Z) == 1 else END_ALLOUT
            break
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
        cur = nxt
    errors += Z[Z_CERR]
    finish(S, Z, tr, end, turns, grow, srow)
    return errors


@njit(cache=True, _nrt=False)
def finish(S, Z, tr, end, turns, grow, srow):
    P = Z[Z_P]
    teams = Z[Z_TEAMS] == 1
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
    # winner seat: the winning side's lowest seat (team id = lowest seat)
    grow[G_WINNER] = winner
    grow[G_TURNS] = turns
    grow[G_ROUNDS] = Z[Z_ROUNDS]
    grow[G_END] = end
    grow[G_LAST] = last
    grow[G_TEAMWIN] = winner if teams else -1
    grow[G_EXCH] = Z[Z_EXCH]
    grow[G_MAXCH] = Z[Z_MAXCH]
    grow[G_CAPS] = Z[Z_CAPS]
    grow[G_JUDG] = Z[Z_JUDG]
    grow[G_JKILL] = Z[Z_JKILL]
    grow[G_JSELF] = Z[Z_JSELF]
    grow[G_REVIVES] = Z[Z_REVIVES]
    grow[G_FRAMES] = Z[Z_FRAMES]
    grow[G_DECOYHITS] = Z[Z_DECOYHITS]
    grow[G_SHIELDS] = Z[Z_SHIELDS]
    grow[G_CONTROLS] = Z[Z_CONTROLS]
    grow[G_KPTS] = Z[Z_KPTS]
    grow[G_KILLS] = Z[Z_KILLS]
    for j in range(5):
        grow[G_D_EXCH + j] = Z[Z_D0 + j]
    grow[G_STORMS] = Z[Z_STORMS]
    grow[G_POUCHES] = Z[Z_POUCHES]
    grow[G_DUELS] = Z[Z_DUELS]
    grow[G_DCAPS] = Z[Z_DCAPS]
    grow[G_GIFTS] = Z[Z_GIFTS]
    grow[G_BLEO] = Z[Z_BLEO]
    grow[G_BDRG] = Z[Z_BDRG]
    grow[G_BBIRD] = Z[Z_BBIRD]
    grow[G_BKIT] = Z[Z_BKIT]
    grow[G_ZOMB] = Z[Z_ZOMB]
    grow[G_REFL] = Z[Z_REFL]
    grow[G_RBLOCK] = Z[Z_RBLOCK]
    grow[G_MHIT] = Z[Z_MHIT]
    grow[G_DODGE] = Z[Z_DODGE]
    grow[G_KITSAVE] = Z[Z_KITSAVE]
    grow[G_RESP] = Z[Z_RESP]
    for q in range(P):
        srow[q, S_ROLE] = S[q, C_ROLE]
        srow[q, S_SUIT] = S[q, C_ROLESUIT]
        srow[q, S_TEAM] = S[q, C_TEAM]
        srow[q, S_TEAMWON] = 1 if winner >= 0 and S[q, C_TEAM] == winner else 0
        srow[q, S_HP] = S[q, C_HP] if S[q, C_ALIVE] == 1 else 0
        srow[q, S_MAXHP] = max(S[q, C_MAXHP], 0)
        srow[q, S_SCORE] = S[q, C_SCORE]
        srow[q, S_KILLS] = S[q, C_KILLS]
        srow[q, S_LOST] = S[q, C_LOST]
        srow[q, S_OUT] = S[q, C_OUT]
        srow[q, S_REVIVES] = S[q, C_REVUSED]
        srow[q, S_FRAMES] = S[q, C_FRAMES]
        srow[q, S_SKILLS] = S[q, C_SKILLS]
        srow[q, S_JUDGS] = S[q, C_JUDGS]
        srow[q, S_DEALT] = S[q, C_DEALT]
        srow[q, S_TAKEN] = S[q, C_TAKEN]
        srow[q, S_HEALED] = S[q, C_HEALED]
        srow[q, S_HAND] = S[q, C_HN]
        srow[q, S_REFL] = S[q, C_NREF]
        srow[q, S_RAMP] = S[q, C_NRAMP]
        srow[q, S_DEV] = S[q, C_NDEV]
        srow[q, S_FRZ] = S[q, C_NFRZ]
        srow[q, S_BLOOD] = S[q, C_NBLOOD]
        srow[q, S_IGN] = S[q, C_NIGN]
        srow[q, S_EXT] = S[q, C_NEXT]
        srow[q, S_MINE] = S[q, C_NMINE]
        srow[q, S_STEAL] = S[q, C_NSTEAL]
        srow[q, S_STORMU] = S[q, C_STORMU]
        srow[q, S_POUCHU] = S[q, C_POUCHU]
        srow[q, S_DUELW] = S[q, C_DUELW]
        srow[q, S_DUELL] = S[q, C_DUELL]
        srow[q, S_DIAM] = S[q, C_DIAM]
        srow[q, S_BUYS] = S[q, C_BUYS]
        srow[q, S_ZOMBIE] = 1 if S[q, C_ZMB] > 0 else 0
        srow[q, S_DEATHS] = S[q, C_DEATHS]
    if Z[Z_ON]:
        ev(tr, Z, E_END, winner, end, turns, Z[Z_ROUNDS], last, 0)


@njit(cache=True, _nrt=False)
def first_seat(S, Z):
    top = 0
    for q in range(1, Z[Z_P]):
        if S[q, C_KEY] > S[top, C_KEY]:
            top = q
    return top


@njit(cache=True, _nrt=False)
def play_game(seed, game, P, pol, ip, pp, PT, PID, st, S, pile, Z, acts, script,
              grow, srow, masks, counts, tr, on, check):
    init_game(st, S, pile, Z, tr, masks, counts, ip, pol, P, seed, game, on)
    cur = first_seat(S, Z)
    grow[G_FIRST] = cur
    return run_game(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, check,
                    cur, np.int64(0), grow, srow)


def work(P):
    """One thread's workspace (allocated in Python: no kernel allocates)."""
    P = int(P)
    return (np.zeros(1, np.uint64), np.zeros((P, NS), np.int64), np.zeros((2, NCAP), np.int64),
            np.zeros(NZ, np.int64), np.zeros((MAXA, 4), np.int64), np.zeros((1, 4), np.int64))


# --- the one non-parallel entry point: replay, scenario tests -----------------------------
# (a single entry keeps numba's compile time down: every top-level function
# re-optimises the whole call graph)
M_GAME, M_TURN, M_EXCHANGE, M_JUDGMENT, M_RUN, M_NEXT, M_GENERAL, M_CHECK, M_SAT, M_INIT, M_BATCH = range(11)
M_HIT, M_DUEL, M_DRAW, M_START = range(11, 15)


@njit(cache=True, _nrt=False)
def entry(mode, seed, game, pol, ip, pp, PT, PID, st, S, pile, Z, acts, script, tr, masks, counts,
          grow, srow, a, b, c):
    """``mode`` M_GAME: play game ``game`` of ``seed`` (trace when ``a``;
    M_BATCH: the same in check mode);
    M_TURN: one turn of seat a; M_EXCHANGE: a sends c damage at b;
    M_JUDGMENT: seat a calls Judgment; M_RUN: play on from turn b with seat a
    to move (check mode); M_NEXT: next seat after key a; M_GENERAL: make seat
    a's identity card b its character; M_CHECK: broken invariants now;
    M_SAT: saturating a x b (in grow[0]) and a + b (in grow[1]); M_INIT: deal
    game ``game`` of ``seed`` (trace when ``a``) without playing it."""
    P = S.shape[0]
    if mode == M_GAME or mode == M_BATCH:
        return play_game(seed, game, P, pol, ip, pp, PT, PID, st, S, pile, Z, acts, script,
                         grow, srow, masks, counts, tr, a == 1, mode == M_BATCH)
    if mode == M_TURN:
        turn(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a)
        end_turn(S, Z, tr, a)
        return 0
    if mode == M_EXCHANGE:
        n = exchange(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a, b, c)
        resolve_pending(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID)
        return n
    if mode == M_JUDGMENT:
        return judgment(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a)
    if mode == M_RUN:
        return run_game(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID,
                        mode == M_RUN, a, b, grow, srow)
    if mode == M_NEXT:
        q, w = next_turn(S, Z, a)
        return q * 2 + (1 if w else 0)
    if mode == M_GENERAL:
        S[a, C_GEN] = b
        init_general(S, Z, ip, a)
        return 0
    if mode == M_CHECK:
        return check_state(S, pile, Z)
    if mode == M_INIT:
        init_game(st, S, pile, Z, tr, masks, counts, ip, pol, P, seed, game, a == 1)
        return 0
    if mode == M_HIT:
        # v3: c damage from b hits a (passives apply), then the duel queue
        hit3(st, S, pile, Z, tr, ip, pp, a, b, c, CA_EXCH, True)
        resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID)
        return 0
    if mode == M_DUEL:
        return duel(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, a, b)
    if mode == M_DRAW:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, a, b)
        resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID)
        return 0
    if mode == M_START:
        turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, a)
        return 0
    if mode == M_SAT:
        grow[0] = sat_mul(a, b)
        grow[1] = sat_add(min(a, SAT), min(b, SAT))
        return 0
    return -1


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, PT, PID, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch on one thread (``core.parallel.run_blocks``
    spreads the blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, pol, ip, pp, PT, PID, check, games, seats, masks,
                counts, errors, *work(P), np.zeros((1, 8), np.int64))


@njit(cache=True, nogil=True)
def play_blocks(b0, b1, seed, start, n_games, pol, ip, pp, PT, PID, check, games, seats, masks,
                counts, errors, st, S, pile, Z, acts, script, tr):
    zero = np.int64(0)
    mode = np.int64(M_BATCH if check else M_GAME)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            errors[g] = entry(mode, seed, start + g, pol, ip, pp, PT, PID, st, S, pile, Z, acts,
                              script, tr, masks[g], counts[b], games[g], seats[g], zero, zero, zero)


def trace_one(seed, game, P, pol, ip, pp, PT, PID, games, seats, masks, counts, tr):
    st, S, pile, Z, acts, script = work(P)
    entry(M_GAME, seed, game, pol, ip, pp, PT, PID, st, S, pile, Z, acts, script, tr, masks[0],
          counts[0], games[0], seats[0], 1, 0, 0)
    return Z[Z_TR]


# =====================================================================================
# v3 三代: lives, dedicated shields, bloodthirst, frost, duels, diamonds, shop, zombies
# =====================================================================================
P_STORMS = IDX["storm_gods"]
P_POUCHES = IDX["pouches"]
P_DBASE = IDX["duel_base"]
P_DPEN = IDX["duel_penalty"]
P_MAXDP = IDX["max_duel_plays"]
P_DIAM0 = IDX["start_diamonds"]
P_GIFT = IDX["gift_pack"]
P_SHOP = IDX["shop"]
P_PLEO = IDX["leopard_price"]
P_PDRG = IDX["dragon_price"]
P_PBIRD = IDX["birds_price"]
P_PKIT = IDX["kit_price"]
P_DRAGON = IDX["dragon_multiplier"]
P_DRGR = IDX["dragon_rounds"]
P_BYIELD = IDX["birds_yield"]
P_BIRDR = IDX["birds_rounds"]
P_GIGN = IDX["glutton_ignore"]
P_GEXT = IDX["glutton_extensions"]
P_GMINES = IDX["glutton_mines"]
P_MDIAM = IDX["mine_diamonds"]
P_REFLM = IDX["reflect_multiplier"]
P_BTU = IDX["bloodthirst_uses"]
P_BTR = IDX["bloodthirst_rounds"]
P_BTD = IDX["bloodthirst_damage"]
P_RAMPM = IDX["rampage_multiplier"]
P_KK = IDX["kingkong_multiplier"]
P_KKDIV = IDX["kingkong_divisor"]
Q_DUEL1 = PIDX["duel_first"]


@njit(cache=True, inline="always")
def card_val(kind):
    """Face value of a card kind: A 1 ... 6 6, J 11, Q 12, K 13."""
    r = kind % 9
    return r + 1 if r <= R_6 else r + 5


R_6 = 5
R_4 = 3
R_5 = 4


@njit(cache=True, inline="always")
def skill_on(S, p):
    return S[p, C_FRSK] == 0


@njit(cache=True, inline="always")
def has_shield(S, p, rank):
    """p owns the dedicated shield of character ``rank`` and it is not frozen."""
    return S[p, C_FRSH] == 0 and (S[p, C_SHB] >> (rank - 7)) & 1 == 1


@njit(cache=True, inline="always")
def can_freeze(S, p):
    return has_shield(S, p, 8) or (S[p, C_FRU] > 0 and S[p, C_FRSH] == 0)


@njit(cache=True, inline="always")
def mult3(S, ip, p):
    """v3 multipliers: King Kong x10 (its skill), the dragon (bought)."""
    m = np.int64(1)
    if S[p, C_RANK] == 10 and skill_on(S, p):
        m = sat_mul(m, ip[P_KK])
    if S[p, C_DRG] > 0:
        m = sat_mul(m, ip[P_DRAGON])
    return m


@njit(cache=True, inline="always")
def pdmg3(S, ip, PT, PID, p, k):
    """Damage of p's run k: rampage-marked cards x rampage_multiplier, then
    p's multipliers (one saturating product)."""
    s = PT[k, T_SUIT]
    base = PT[k, T_DMG]
    marked = np.int64(0)
    if S[p, C_RMANY] != 0:       # (almost always 0: only a 9's shield marks cards)
        for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
            if S[p, C_RM + s * 9 + r] > 0:
                marked += PT[PID[s, r, r], T_DMG]
    if marked > 0:
        base = sat_add(base - marked, sat_mul(marked, ip[P_RAMPM]))
    return sat_mul(base, mult3(S, ip, p))


@njit(cache=True, inline="always")
def fix_mark(S, p, kind):
    if S[p, C_RM + kind] > S[p, C_H + kind]:
        S[p, C_RM + kind] = S[p, C_H + kind]


@njit(cache=True, _nrt=False, forceinline=True)
def play_cards3(S, pile, Z, masks, counts, ip, PT, PID, p, k):
    """Remove run k from p's hand (marked copies first); return its damage."""
    dmg = pdmg3(S, ip, PT, PID, p, k)
    s = PT[k, T_SUIT]
    if S[p, C_RMANY] != 0:
        for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
            if S[p, C_RM + s * 9 + r] > 0:
                S[p, C_RM + s * 9 + r] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, k)
    return dmg


@njit(cache=True, _nrt=False)
def four_kind(S, p):
    """A 4 in p's hand (first suit ♠♥♣♦), or -1."""
    for s in range(4):
        if S[p, C_H + s * 9 + R_4] > 0:
            return s * 9 + R_4
    return -1


@njit(cache=True, _nrt=False)
def n_fours(S, p):
    n = 0
    for s in range(4):
        n += S[p, C_H + s * 9 + R_4]
    return n


@njit(cache=True, _nrt=False)
def mark_rampage(S, Z, tr, PT, PID, p):
    """暴走盾: every damage card now in p's hand is marked."""
    n = 0
    for kind in range(36):
        if PT[PID[kind // 9, kind % 9, kind % 9], T_DMG] > 0:
            S[p, C_RM + kind] = S[p, C_H + kind]
            n += S[p, C_H + kind]
    S[p, C_RMANY] = 1
    S[p, C_NRAMP] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_RAMP, p, n, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def eliminate3(S, pile, Z, tr, t):
    S[t, C_ALIVE] = 0
    S[t, C_PEND] = 0
    S[t, C_HP] = 0
    S[t, C_OUT] = Z[Z_TURN]
    S[t, C_BTT] = 0
    discard_hand(S, pile, Z, t)
    for kind in range(36):
        S[t, C_RM + kind] = 0
    S[t, C_RMANY] = 0
    if Z[Z_JOINT] == t + 1:
        Z[Z_JOINT] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_OUT, t, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def chance(st, q):
    """True with probability q (draws a number only when 0 < q < 1)."""
    if q >= 1.0:
        return True
    if q <= 0.0:
        return False
    return below(st, 1 << 30) < q * (1 << 30)


# explicit signatures (see ``ev``): these are called with many constant
# arguments (causes, flags) and were compiled six times each
_U1, _A1, _A2, _F1, _I = nt.uint64[::1], nt.int64[::1], nt.int64[:, ::1], nt.float64[::1], nt.int64


@njit(nt.void(_U1, _A2, _A2, _A1, _A2, _A1, _F1, _I, _I, _I), cache=True, _nrt=False)
def die3(st, S, pile, Z, tr, ip, pp, t, killer, cause):
    """v3 death of t: the leopard dodges it; else the storm god, then the
    pouch (unless the policy duels at once); else t waits for a duel."""
    Z[Z_D0 + cause] += 1
    S[t, C_DEATHS] += 1
    if Z[Z_JOINT] == t + 1:
        Z[Z_JOINT] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DEATH3, t, killer, cause, S[t, C_RANK], 0, 0)
    if S[t, C_LEO] > 0:
        S[t, C_LEO] -= 1
        Z[Z_DODGE] += 1
        S[t, C_HP] = S[t, C_PREHP]
        S[t, C_MAXHP] = S[t, C_PREMAX]
        if Z[Z_ON]:
            ev(tr, Z, E_LEOPARD, t, S[t, C_HP], 0, 0, 0, 0)
        return
    if S[t, C_ZMB] > 0:
        eliminate3(S, pile, Z, tr, t)       # zombies have no revives and no duel
        return
    skip = False
    if S[t, C_STORM] > 0 or S[t, C_POUCH] > 0:
        if S[t, C_POL] == POL_SCRIPT:
            skip = pp[Q_DUEL1] >= 0.5
        else:
            skip = chance(st, pp[Q_DUEL1])
    if not skip and S[t, C_STORM] > 0:
        S[t, C_STORM] -= 1
        S[t, C_STORMU] += 1
        Z[Z_STORMS] += 1
        S[t, C_MAXHP] = S[t, C_PREMAX]
        S[t, C_HP] = S[t, C_MAXHP]
        Z[Z_NEXT] = 1
        if Z[Z_ON]:
            ev(tr, Z, E_STORM, t, S[t, C_HP], S[t, C_STORM], 0, 0, 0)
        return
    if not skip and S[t, C_POUCH] > 0:
        S[t, C_POUCH] -= 1
        S[t, C_POUCHU] += 1
        Z[Z_POUCHES] += 1
        S[t, C_MAXHP] = S[t, C_PREMAX]
        S[t, C_HP] = S[t, C_PREHP]
        if S[t, C_RANK] == 8:
            S[t, C_BTU] = ip[P_BTU]
        if S[t, C_RANK] == 7:
            S[t, C_EXT] = ip[P_GEXT]
            S[t, C_MINES] = ip[P_GMINES]
        Z[Z_NEXT] = 2 + t
        if Z[Z_ON]:
            ev(tr, Z, E_POUCH, t, S[t, C_HP], S[t, C_POUCH], 0, 0, 0)
        return
    S[t, C_ALIVE] = 0
    S[t, C_PEND] = 1
    S[t, C_KLR] = killer
    S[t, C_HP] = 0
    S[t, C_BTT] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DUELQ, t, killer, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def incoming3(S, Z, tr, ip, t, amount):
    """Passive defences on one incoming damage instance: the Glutton ignores
    <= glutton_ignore (and may extend its HP once), King Kong halves."""
    if amount <= 0 or not skill_on(S, t):
        return amount
    r = S[t, C_RANK]
    if r == 7 and amount <= ip[P_GIGN]:
        S[t, C_NIGN] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_IGNORE, t, amount, 0, 0, 0, 0)
        if S[t, C_EXT] > 0:
            for rr in range(3, -1, -1):
                done = False
                for su in range(4):
                    i = rr * 4 + su
                    if Z[Z_IDC + i] > 0:
                        Z[Z_IDC + i] -= 1
                        add = (rr + 7) * ip[P_PIP]
                        S[t, C_HP] += add
                        S[t, C_MAXHP] += add
                        S[t, C_EXT] -= 1
                        S[t, C_NEXT] += 1
                        if Z[Z_ON]:
                            ev(tr, Z, E_EXTEND, t, i, add, S[t, C_HP], S[t, C_MAXHP], 0)
                        done = True
                        break
                if done:
                    break
        return np.int64(0)
    if r == 10:
        return amount // ip[P_KKDIV]
    return amount


@njit(nt.void(_U1, _A2, _A2, _A1, _A2, _A1, _F1, _I, _I, _I, _I, nt.boolean), cache=True,
      _nrt=False)
def hit3(st, S, pile, Z, tr, ip, pp, t, src, amount, cause, raw):
    """One damage instance (``raw``: the passive defences apply to it)."""
    if amount < 0:
        Z[Z_CERR] += 1
        return
    if S[t, C_ALIVE] == 0:
        return
    if raw:
        amount = incoming3(S, Z, tr, ip, t, amount)
    if amount <= 0:
        return
    S[t, C_PREHP] = S[t, C_HP]
    S[t, C_PREMAX] = S[t, C_MAXHP]
    S[t, C_HP] -= amount
    S[t, C_TAKEN] = sat_add(S[t, C_TAKEN], amount)
    if src >= 0 and src != t:
        S[src, C_DEALT] = sat_add(S[src, C_DEALT], amount)
    if Z[Z_ON]:
        ev(tr, Z, E_DAMAGE, t, amount, S[t, C_HP], src, cause, 0)
    if S[t, C_HP] <= 0:
        die3(st, S, pile, Z, tr, ip, pp, t, src, cause)


@njit(cache=True, _nrt=False)
def draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, n):
    """v3 draws: a buried mine fires on the card that carries it (not in a
    duel); a draw of n cards that takes exactly the deck's last card earns
    the gift pack."""
    if n <= 0:
        return
    gift = Z[Z_DECK] == n
    got = 0
    for _ in range(n):
        mine = Z[Z_MPOS] > 0 and Z[Z_DECK] > 0 and Z[Z_DECK] == Z[Z_MPOS]
        c = draw(st, S, pile, Z, tr, masks, counts, p, np.int64(0))
        if c < 0:
            break
        got += 1
        if mine:
            Z[Z_MPOS] = 0
            if Z[Z_INDUEL] == 1:
                if Z[Z_ON]:
                    ev(tr, Z, E_MINE, p, c, -1, 0, Z[Z_MOWN], 0)
            else:
                Z[Z_MHIT] += 1
                v = card_val(c)
                if c // 9 == 1:
                    S[p, C_DIAM] += v * ip[P_MDIAM]
                    if Z[Z_ON]:
                        ev(tr, Z, E_MINE, p, c, 1, v * ip[P_MDIAM], Z[Z_MOWN], 0)
                else:
                    if Z[Z_ON]:
                        ev(tr, Z, E_MINE, p, c, 0, v, Z[Z_MOWN], 0)
                    hit3(st, S, pile, Z, tr, ip, pp, p, Z[Z_MOWN], v, CA_MINE, True)
                    if S[p, C_ALIVE] == 0:
                        break
    if gift and got == n:
        S[p, C_DIAM] += ip[P_GIFT]
        Z[Z_GIFTS] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_GIFT, p, ip[P_GIFT], S[p, C_DIAM], 0, 0, 0)


@njit(cache=True, _nrt=False)
def spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """p spends one 4 (block, thaw, end bloodthirst, steal): it is played."""
    kind = four_kind(S, p)
    s = kind // 9
    remove_play(S, pile, Z, masks, counts, p, PT, PID[s, R_4, R_4])
    fix_mark(S, p, kind)
    if S[p, C_HN] == 0:
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])
    return kind


@njit(cache=True, _nrt=False)
def wants(st, S, p):
    """A yes/no decision of p's policy at a turn start (random: a coin;
    greedy and script: yes)."""
    if S[p, C_POL] == POL_RANDOM:
        return below(st, 2) == 1
    return True


@njit(cache=True, _nrt=False)
def steal_react(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, t, src, what):
    """吞噬盾 against a skill: the holder of the devouring shield spends a 4
    to void bloodthirst (what 0) or frost (what 1) and gains one use."""
    if not has_shield(S, t, 10) or four_kind(S, t) < 0 or not wants(st, S, t):
        return False
    kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, t)
    if what == 0:
        S[t, C_BTU] += 1
    else:
        S[t, C_FRU] += 1
    S[t, C_NSTEAL] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_STEAL, t, src, what, kind, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def bloodthirst(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p, t):
    S[p, C_BTU] -= 1
    S[p, C_NBLOOD] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_BLOOD, p, t, ip[P_BTR], S[p, C_BTU], 0, 0)
    if steal_react(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, t, p, 0):
        return
    S[t, C_BTT] = ip[P_BTR]
    S[t, C_BTS] = p


@njit(cache=True, _nrt=False)
def freeze(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p, t, which):
    """冰封盾: a frost layer on t's skill (which 0) or shield (1)."""
    if not has_shield(S, p, 8):
        S[p, C_FRU] -= 1
    S[p, C_NFRZ] += 1
    if steal_react(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, t, p, 1):
        return
    if which == 0:
        S[t, C_FRSK] += 1
    else:
        S[t, C_FRSH] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_FREEZE, p, t, which, S[t, C_FRSK], S[t, C_FRSH], 0)


@njit(cache=True, _nrt=False)
def reflect(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, g, inc):
    """反射盾: incoming x reflect_multiplier hits every other player (turn
    order from the top); each blocks with a 4 (firing nothing) or takes it.
    If all block, the turn order restarts from the top."""
    amount = sat_mul(inc, ip[P_REFLM])
    Z[Z_REFL] += 1
    S[g, C_NREF] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_REFLECT, g, amount, inc, 0, 0, 0)
    if amount <= 0:
        return
    done = np.int64(1) << g
    hits = 0
    while True:
        q = -1
        for x in range(Z[Z_P]):
            if (done >> x) & 1 == 0 and S[x, C_ALIVE] == 1:
                if q < 0 or S[x, C_KEY] > S[q, C_KEY]:
                    q = x
        if q < 0:
            break
        done |= np.int64(1) << q
        if four_kind(S, q) >= 0:
            Z[Z_RBLOCK] += 1
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, q)
            if Z[Z_ON]:
                ev(tr, Z, E_BLOCK, q, kind, g, 0, 0, 0)
        else:
            hits += 1
            hit3(st, S, pile, Z, tr, ip, pp, q, g, amount, CA_REFLECT, True)
    if hits == 0:
        Z[Z_RALLBLOCK] += 1
        Z[Z_NEXT] = 1
        if Z[Z_ON]:
            ev(tr, Z, E_RESTART, g, 0, 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def devour(S, pile, Z, tr, PT, d, k, a):
    """吞噬盾: the cards of run k (the attacker's play) go from the discard
    pile into d's hand (cards already reshuffled into the deck are not)."""
    s = PT[k, T_SUIT]
    got = 0
    for r in range(PT[k, T_LO], PT[k, T_HI] + 1):
        kind = s * 9 + r
        for j in range(Z[Z_DISC] - 1, -1, -1):
            if pile[1, j] == kind:
                pile[1, j] = pile[1, Z[Z_DISC] - 1]
                Z[Z_DISC] -= 1
                add_card(S, d, kind)
                got += 1
                break
    S[d, C_NDEV] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_DEVOUR, d, k, got, a, 0, 0)


# --- v3 options ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def push3(acts, n, k, t, o, ot):
    if n < MAXA:
        return push(acts, n, k, t, o, ot)
    return n


@njit(cache=True, _nrt=False, forceinline=True)
def enum3(S, Z, ip, PT, PID, acts, p, dec, a, inc, fb):
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
    n = 0
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        row = RUN0 + bits
        for j in range(1, PID[s, row, 0] + 1):
            k = PID[s, row, j]
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


@njit(cache=True, _nrt=False)
def enum_v3(S, Z, ip, PT, PID, acts, p, dec, a, inc):
    """v3 options (random and script policies), with the ban fallback."""
    return ban_fallback(Z, enum3, (S, Z, ip, PT, PID, acts, p, dec, a, inc))


@njit(cache=True, inline="always")
def est_incoming(S, ip, t, amount):
    """Greedy: what t would really take of ``amount`` (public passives)."""
    if amount <= 0 or not skill_on(S, t):
        return amount
    if S[t, C_RANK] == 7 and amount <= ip[P_GIGN]:
        return np.int64(0)
    if S[t, C_RANK] == 10:
        return amount // ip[P_KKDIV]
    return amount


@njit(cache=True, inline="always")
def run_base(pp, PT, k):
    """greedy's value of run k itself: + a 5, - a spent 4, - its cards
    (the first term of every v3 option score)."""
    return pp[Q_RUN + k]


@njit(cache=True, inline="always")
def take3(n, sc, bs):
    """(consider, new best): options past MAXA are not enumerated (push3);
    the first option is the default pick (as index 0 was)."""
    if n >= MAXA:
        return False, False
    return True, sc > bs or n == 0


@njit(cache=True, inline="always")
def keep3(n, bs, sc, bk, bt, bo, bot, k, t, o, ot):
    """greedy3_f: count option (k, t, o, ot) scored ``sc`` and keep it when
    it is the new best; returns (n, best score, best option)."""
    ok, better = take3(n, sc, bs)
    if ok:
        if better:
            if sc > bs:
                bs = sc
            bk, bt, bo, bot = k, t, np.int64(o), np.int64(ot)
        n += 1
    return n, bs, bk, bt, bo, bot


@njit(cache=True, inline="always")
def common3(sc, dec, ht, cadd, c):
    """greedy3_f: the terms every option of a run and target shares, added
    after the option's own term (turn: heal; a hit or the OD bounce)."""
    if dec == D_TURN:
        sc += ht
    if cadd:
        sc += c
    return sc


@njit(cache=True, _nrt=False, forceinline=True)
def greedy3_f(S, Z, ip, pp, PT, PID, acts, p, dec, a, inc, hp, room, fb):
    """greedy for v3, enumeration and scoring in one pass: the options of
    ``enum3`` in the same order (at most MAXA), each scored with the same
    float operations in the same order as the former per-option score
    (``g3score``); per run and target the shared terms (v3 damage, the
    target's value) are computed once. The first of the best goes to
    acts[0]; returns the number of options."""
    P = Z[Z_P]
    jt = Z[Z_JOINT] - 1
    if jt >= 0 and (S[jt, C_ALIVE] == 0 or not enemy(S, p, jt)):
        jt = -1
    blood = dec == D_TURN and S[p, C_BTU] > 0 and skill_on(S, p)
    ramp = has_shield(S, p, 9)
    frz = can_freeze(S, p)
    refl = dec == D_RESP and has_shield(S, p, 7) and inc > 0
    dev = dec == D_RESP and has_shield(S, p, 10)
    inc_p = est_incoming(S, ip, p, inc)
    n = 0
    bs = -1e300
    bk = np.int64(-1)
    bt = np.int64(-1)
    bo = np.int64(O_NONE)
    bot = np.int64(-1)
    for s in range(4):
        bits = S[p, C_M + s]
        if bits == 0:
            continue
        row = RUN0 + bits
        for j in range(1, PID[s, row, 0] + 1):
            k = PID[s, row, j]
            if not (fb and forbidden(Z, PT, s, k)):
                has4 = PT[k, T_HAS4] == 1
                has5 = PT[k, T_HAS5] == 1
                dmg = pdmg3(S, ip, PT, PID, p, k)
                hurts = dec == D_TURN and dmg > 0
                heal = PT[k, T_HEAL]
                s0 = run_base(pp, PT, k)
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
                    cadd, c = od_term3(S, Z, ip, pp, a, sat_add(dmg, heal) - ie, hp)
                    if dev and has4:
                        dadd, dc = od_term3(S, Z, ip, pp, a,
                                            sat_add(sat_add(dmg, inc), heal) - ie, hp)
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
                        c = hit_value(S, Z, pp, t, est_incoming(S, ip, t, dmg))
                    # O_NONE
                    sc = common3(s0, dec, ht, cadd, c)
                    n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot, k, t, O_NONE, -1)
                    if blood and has5:
                        for e in range(P):
                            if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                sc = s0 + (float(est_incoming(S, ip, e, ip[P_BTD]) * ip[P_BTR])
                                           - pp[Q_SKILL])
                                sc = common3(sc, dec, ht, cadd, c)
                                n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                    k, t, O_BLOOD, e)
                    if has4:
                        if refl:
                            sc = s0
                            amt = sat_mul(inc, ip[P_REFLM])
                            for q in range(P):
                                if q != p and S[q, C_ALIVE] == 1:
                                    v = 0.5 * hit_value(S, Z, pp, q, est_incoming(S, ip, q, amt))
                                    sc += v if enemy(S, p, q) else -v
                            n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                k, t, O_REFLECT, -1)
                        if dev:
                            sc = s0
                            if dadd:
                                sc += dc
                            n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                k, t, O_DEVOUR, -1)
                        if ramp:
                            sc = s0 + ramp_v
                            sc = common3(sc, dec, ht, cadd, c)
                            n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                k, t, O_RAMP, -1)
                        if frz:
                            for e in range(P):
                                if S[e, C_ALIVE] == 1 and enemy(S, p, e):
                                    r = S[e, C_RANK]
                                    sc = s0 + (2.0 if (r == 7 or r == 10 or S[e, C_BTU] > 0)
                                               else -1.0)
                                    sc = common3(sc, dec, ht, cadd, c)
                                    n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                        k, t, O_FRZSK, e)
                                    sc = s0 + (2.0 if S[e, C_SHB] != 0 and S[e, C_FRSH] == 0
                                               else -1.0)
                                    sc = common3(sc, dec, ht, cadd, c)
                                    n, bs, bk, bt, bo, bot = keep3(n, bs, sc, bk, bt, bo, bot,
                                        k, t, O_FRZSH, e)
    if n > 0:
        push(acts, 0, bk, bt, bo, bot)
    return n


@njit(cache=True, inline="always")
def od_term3(S, Z, ip, pp, a, od, hp):
    """:func:`od_term` with the sender's public passives on the bounce."""
    if od < 0:
        loss = -od
        if loss >= hp:
            return True, -(1e12 + hp)
        return True, -float(loss)
    if od > 0:
        return True, hit_value(S, Z, pp, a, est_incoming(S, ip, a, od))
    return False, 0.0


@njit(cache=True, _nrt=False)
def greedy3(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a):
    """greedy for v3: the first of the best-scoring options in acts[0]
    (forbidden cards skipped unless that leaves none); returns the number
    of options."""
    hp = S[p, C_HP]
    room = S[p, C_MAXHP] - hp
    return ban_fallback(Z, greedy3_f, (S, Z, ip, pp, PT, PID, acts, p, dec, a, inc, hp, room))


@njit(cache=True, _nrt=False)
def decide3(st, S, Z, ip, pp, PT, PID, acts, script, p, dec, inc, a):
    """A v3 decision: (number of options, index of the chosen one in acts);
    as :func:`decide`."""
    pol = S[p, C_POL]
    if pol != POL_RANDOM and pol != POL_SCRIPT:
        return greedy3(S, Z, ip, pp, PT, PID, acts, p, dec, inc, a), np.int64(0)
    n = enum_v3(S, Z, ip, PT, PID, acts, p, dec, a, inc)
    if n == 0:
        return n, 0
    if pol == POL_RANDOM:
        return n, below(st, n)
    return n, script_pick(Z, acts, script, n)


# --- v3 exchange and turn ----------------------------------------------------------------
@njit(cache=True, _nrt=False)
def exchange3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, a, d, inc):
    """The OD chain with v3 defences: passives on each incoming instance
    (Glutton ignore, King Kong halving), a 4 blocks, dedicated shields fire
    on a response with a 4 (reflect ends the exchange)."""
    Z[Z_EXCH] += 1
    steps = 0
    maxex = ip[P_MAXEX]
    while True:
        if S[a, C_ALIVE] == 0 or S[d, C_ALIVE] == 0:
            break
        if steps >= maxex:
            Z[Z_CAPS] += 1
            if Z[Z_ON]:
                ev(tr, Z, E_CAP, d, inc, a, 0, 0, 0)
            hit3(st, S, pile, Z, tr, ip, pp, d, a, inc, CA_EXCH, True)
            break
        steps += 1
        n, i = decide3(st, S, Z, ip, pp, PT, PID, acts, script, d, np.int64(D_RESP), inc, a)
        if n == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_NORESP, d, inc, a, 0, 0, 0)
            hit3(st, S, pile, Z, tr, ip, pp, d, a, inc, CA_EXCH, True)
            break
        k = acts[i, 0]
        o = acts[i, 2]
        ot = acts[i, 3]
        lk = Z[Z_LK]
        dmg = play_cards3(S, pile, Z, masks, counts, ip, PT, PID, d, k)
        heal = PT[k, T_HEAL]
        Z[Z_LK] = k
        Z[Z_LKP] = d
        if Z[Z_ON]:
            ev(tr, Z, E_PLAY, d, k, ot, dmg, heal, D_RESP * 256 + o)
        inc_eff = incoming3(S, Z, tr, ip, d, inc)
        if PT[k, T_HAS4] == 1:
            inc_eff = 0
        if o == O_REFLECT:
            draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, d,
                    draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
            reflect(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, d, inc)
            break
        if o == O_DEVOUR:
            dmg = sat_add(dmg, inc)
            inc_eff = 0
            devour(S, pile, Z, tr, PT, d, lk, a)
        elif o == O_RAMP:
            mark_rampage(S, Z, tr, PT, PID, d)
        elif o == O_FRZSK or o == O_FRZSH:
            freeze(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, d, ot, o - O_FRZSK)
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, d,
                draws_after_play(S[d, C_HN], PT[k, T_HAS5], ip))
        if S[a, C_ALIVE] == 0 or S[d, C_ALIVE] == 0:
            break
        od = sat_add(dmg, heal) - inc_eff
        if Z[Z_ON]:
            ev(tr, Z, E_OD, d, od, inc_eff, a, inc, 0)
        if od < 0:
            hit3(st, S, pile, Z, tr, ip, pp, d, a, -od, CA_EXCH, False)
            break
        if od == 0:
            break
        t = a
        a = d
        d = t
        inc = od
    if steps > Z[Z_MAXCH]:
        Z[Z_MAXCH] = steps
    Z[Z_RESP] += steps
    return steps


@njit(cache=True, _nrt=False)
def buy(st, S, Z, tr, ip, p):
    """Shop: at most one item at the start of p's turn. greedy/script: the
    first affordable of leopard (none held), dragon (not active), medical
    kit (an enemy 10 is alive, none held), birds (not laying); random:
    uniform over nothing and the affordable items."""
    dm = S[p, C_DIAM]
    ok = 0                       # bit x: item x is affordable and allowed
    if dm >= ip[P_PLEO] and S[p, C_LEO] == 0:
        ok |= 1 << I_LEO
    if dm >= ip[P_PDRG] and S[p, C_DRG] == 0:
        ok |= 1 << I_DRAGON
    if dm >= ip[P_PKIT] and S[p, C_KIT] == 0:
        for q in range(Z[Z_P]):
            if S[q, C_ALIVE] == 1 and S[q, C_RANK] == 10 and enemy(S, p, q):
                ok |= 1 << I_KIT
    if dm >= ip[P_PBIRD] and S[p, C_BIRD] == 0:
        ok |= 1 << I_BIRDS
    item = I_NONE
    if S[p, C_POL] == POL_RANDOM:
        m = 0
        for x in range(1, 5):
            m += (ok >> x) & 1
        if m == 0:
            return
        j = below(st, m + 1)
        for x in range(1, 5):
            if (ok >> x) & 1:
                j -= 1
                if j == 0:
                    item = x
                    break
    else:
        for x in (I_LEO, I_DRAGON, I_KIT, I_BIRDS):
            if (ok >> x) & 1:
                item = x
                break
    if item == I_NONE:
        return
    price = 0
    if item == I_LEO:
        price = ip[P_PLEO]
        S[p, C_LEO] += 1
        Z[Z_BLEO] += 1
    elif item == I_DRAGON:
        price = ip[P_PDRG]
        S[p, C_DRG] = ip[P_DRGR]
        Z[Z_BDRG] += 1
    elif item == I_KIT:
        price = ip[P_PKIT]
        S[p, C_KIT] += 1
        Z[Z_BKIT] += 1
    else:
        price = ip[P_PBIRD]
        S[p, C_BIRD] = ip[P_BIRDR]
        Z[Z_BBIRD] += 1
    S[p, C_DIAM] -= price
    S[p, C_BUYS] += 1
    if Z[Z_ON]:
        ev(tr, Z, E_BUY, p, item, price, S[p, C_DIAM], 0, 0)


@njit(cache=True, _nrt=False)
def turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """Birds lay; bloodthirst ends with a spent 4 or ticks; a 4 thaws one
    frost layer; the Glutton buries its mine; the shop."""
    if S[p, C_BIRD] > 0:
        S[p, C_DIAM] += ip[P_BYIELD]
        if Z[Z_ON]:
            ev(tr, Z, E_BIRDS, p, ip[P_BYIELD], S[p, C_DIAM], 0, 0, 0)
    if S[p, C_BTT] > 0:
        if four_kind(S, p) >= 0 and wants(st, S, p):
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
            S[p, C_BTT] = 0
            if Z[Z_ON]:
                ev(tr, Z, E_BLOODEND, p, kind, 0, 0, 0, 0)
        else:
            src = S[p, C_BTS]
            S[p, C_BTT] -= 1
            amt = incoming3(S, Z, tr, ip, p, ip[P_BTD])
            if Z[Z_ON]:
                ev(tr, Z, E_TICK, p, amt, S[p, C_BTT], src, 0, 0)
            if amt > 0:
                S[p, C_PREHP] = S[p, C_HP]
                S[p, C_PREMAX] = S[p, C_MAXHP]
                S[p, C_HP] -= amt
                S[p, C_MAXHP] -= amt
                S[p, C_TAKEN] = sat_add(S[p, C_TAKEN], amt)
                if src != p:
                    S[src, C_DEALT] = sat_add(S[src, C_DEALT], amt)
                if S[p, C_HP] <= 0 or S[p, C_MAXHP] <= 0:
                    die3(st, S, pile, Z, tr, ip, pp, p, src, CA_BLOOD)
        if S[p, C_ALIVE] == 0:
            return
    if (S[p, C_FRSK] > 0 or S[p, C_FRSH] > 0) and four_kind(S, p) >= 0:
        # greedy keeps a 4 for defence unless it holds two; script: always thaws
        if S[p, C_POL] == POL_SCRIPT or (S[p, C_POL] == POL_GREEDY and n_fours(S, p) >= 2) \
                or (S[p, C_POL] == POL_RANDOM and below(st, 2) == 1):
            kind = spend_four(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
            which = 1 if (S[p, C_FRSH] > 0 and (S[p, C_SHB] != 0 or S[p, C_FRSK] == 0)) else 0
            if which == 1:
                S[p, C_FRSH] -= 1
            else:
                S[p, C_FRSK] -= 1
            if Z[Z_ON]:
                ev(tr, Z, E_THAW, p, which, S[p, C_FRSK], S[p, C_FRSH], kind, 0)
    if S[p, C_RANK] == 7 and S[p, C_MINES] > 0 and skill_on(S, p) and Z[Z_MPOS] == 0 \
            and Z[Z_DECK] > 0:
        pos = below(st, Z[Z_DECK])
        Z[Z_MPOS] = pos + 1
        Z[Z_MOWN] = p
        S[p, C_MINES] -= 1
        S[p, C_NMINE] += 1
        if Z[Z_ON]:
            ev(tr, Z, E_BURY, p, pile[0, pos], Z[Z_DECK] - pos, 0, 0, 0)
    if ip[P_SHOP] == 1:
        buy(st, S, Z, tr, ip, p)


@njit(cache=True, _nrt=False, forceinline=True)
def play_turn3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p):
    turn_start3(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p)
    if S[p, C_ALIVE] == 1:
        if S[p, C_HN] == 0:
            draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])
    if S[p, C_ALIVE] == 1:
        n, i = decide3(st, S, Z, ip, pp, PT, PID, acts, script, p, np.int64(D_TURN),
                       np.int64(0), np.int64(-1))
        if n == 0:
            if Z[Z_ON]:
                ev(tr, Z, E_PASS, p, 0, 0, 0, 0, 0)
        else:
            k = acts[i, 0]
            t = acts[i, 1]
            o = acts[i, 2]
            ot = acts[i, 3]
            dmg = play_cards3(S, pile, Z, masks, counts, ip, PT, PID, p, k)
            Z[Z_LK] = k
            Z[Z_LKP] = p
            if Z[Z_ON]:
                ev(tr, Z, E_PLAY, p, k, t, dmg, PT[k, T_HEAL], D_TURN * 256 + o, )
            if o == O_BLOOD:
                bloodthirst(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p, ot)
            elif o == O_RAMP:
                mark_rampage(S, Z, tr, PT, PID, p)
            elif o == O_FRZSK or o == O_FRZSH:
                freeze(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p, ot, o - O_FRZSK)
            heal_self(S, Z, tr, p, PT[k, T_HEAL])
            draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p,
                    draws_after_play(S[p, C_HN], PT[k, T_HAS5], ip))
            if dmg > 0 and t >= 0 and S[p, C_ALIVE] == 1 and S[t, C_ALIVE] == 1:
                exchange3(st, S, pile, Z, tr, masks, counts, acts, script, ip, pp, PT, PID, p, t,
                          dmg)
    resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID)


@njit(cache=True, _nrt=False)
def end_turn3(S, Z, tr, p):
    if S[p, C_DRG] > 0:
        S[p, C_DRG] -= 1
        if S[p, C_DRG] == 0 and Z[Z_ON]:
            ev(tr, Z, E_EFFECT_END, p, 3, 0, 0, 0, 0)
    if S[p, C_BIRD] > 0:
        S[p, C_BIRD] -= 1
        if S[p, C_BIRD] == 0 and Z[Z_ON]:
            ev(tr, Z, E_EFFECT_END, p, 4, 0, 0, 0, 0)


# --- v3 duels ---------------------------------------------------------------------------
@njit(cache=True, _nrt=False, forceinline=True)
def duel_draw(st, S, pile, Z, tr, masks, counts, ip, pp, p, n):
    """Cards a duelist draws go to the bottom of its face-down pile."""
    for _ in range(n):
        before = S[p, C_HN]
        draw_n3(st, S, pile, Z, tr, masks, counts, ip, pp, p, np.int64(1))
        if S[p, C_HN] == before:
            break
        # the card just drawn is the top of the discard-free deck row
        c = pile[0, Z[Z_DECK]]
        S[p, C_DQ + (S[p, C_DQH] + S[p, C_DQN]) % NCAP] = c
        S[p, C_DQN] += 1


@njit(cache=True, _nrt=False, forceinline=True)
def duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, p):
    """The top card of p's pile (refilled when empty), or -1."""
    if S[p, C_DQN] == 0:
        duel_draw(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])
        if S[p, C_DQN] == 0:
            return -1
    c = S[p, C_DQ + S[p, C_DQH]]
    S[p, C_DQH] = (S[p, C_DQH] + 1) % NCAP
    S[p, C_DQN] -= 1
    remove_play(S, pile, Z, masks, counts, p, PT, PID[c // 9, c % 9, c % 9])
    fix_mark(S, p, c)
    return c


@njit(cache=True, _nrt=False, forceinline=True)
def duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, p, c):
    if c % 9 == R_5:
        duel_draw(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_FIVE])
    if S[p, C_DQN] == 0:
        duel_draw(st, S, pile, Z, tr, masks, counts, ip, pp, p, ip[P_REFILL])


@njit(cache=True, _nrt=False)
def duel(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, x, y):
    """大冒险 between x (in play) and y (waiting after its death). Returns the
    winner. No skills, shields or multipliers; each plays the top card of
    its shuffled face-down hand; OD rules; a 4 blocks."""
    Z[Z_DUELS] += 1
    Z[Z_INDUEL] = 1
    prex = S[x, C_HP]
    if S[y, C_MAXHP] <= 0:
        S[y, C_MAXHP] = S[y, C_PREMAX] if S[y, C_PREMAX] > 0 else 1
    if S[x, C_MAXHP] <= 0:
        S[x, C_MAXHP] = 1
    S[x, C_HP] = S[x, C_MAXHP]
    S[y, C_HP] = S[y, C_MAXHP]
    for p in (x, y):
        n = 0
        for kind in range(36):
            for _ in range(S[p, C_H + kind]):
                S[p, C_DQ + n] = kind
                n += 1
        shuffle(st, S[p, C_DQ:C_DQ + NCAP], n)
        S[p, C_DQH] = 0
        S[p, C_DQN] = n
    if Z[Z_ON]:
        ev(tr, Z, E_DUEL, x, y, S[x, C_HP], S[y, C_HP], S[y, C_KLR], 0)
    first = x if S[x, C_KEY] > S[y, C_KEY] else y
    maxp = ip[P_MAXDP]
    plays = 0
    cur = first
    passes = 0
    lbx = S[x, C_HP]
    lby = S[y, C_HP]
    loser = -1
    while plays < maxp and loser < 0:
        oth = y if cur == x else x
        c = duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, cur)
        if c < 0:
            passes += 1
            if passes >= 2:
                break
            cur = oth
            continue
        passes = 0
        plays += 1
        kc = PID[c // 9, c % 9, c % 9]
        dmg = PT[kc, T_DMG]
        if Z[Z_ON]:
            ev(tr, Z, E_DPLAY, cur, c, dmg, PT[kc, T_HEAL], 0, 0)
        duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, cur, c)
        if dmg > 0:
            a = cur
            d = oth
            inc = dmg
            while True:
                hurt = np.int64(0)
                if plays >= maxp:
                    break
                c2 = duel_play(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, d)
                if c2 < 0:
                    hurt = inc
                else:
                    plays += 1
                    k2 = PID[c2 // 9, c2 % 9, c2 % 9]
                    if Z[Z_ON]:
                        ev(tr, Z, E_DPLAY, d, c2, PT[k2, T_DMG], PT[k2, T_HEAL], 1, inc)
                    duel_after(st, S, pile, Z, tr, masks, counts, ip, pp, d, c2)
                    inc_eff = 0 if c2 % 9 == R_4 else inc
                    od = sat_add(PT[k2, T_DMG], PT[k2, T_HEAL]) - inc_eff
                    if od < 0:
                        hurt = -od
                    elif od > 0:
                        t = a
                        a = d
                        d = t
                        inc = od
                        continue
                if hurt > 0:
                    if d == x:
                        lbx = S[x, C_HP]
                    else:
                        lby = S[y, C_HP]
                    S[d, C_HP] -= hurt
                    if Z[Z_ON]:
                        ev(tr, Z, E_DAMAGE, d, hurt, S[d, C_HP], a, CA_DUEL, 1)
                break
        else:
            h = min(PT[kc, T_HEAL], S[cur, C_MAXHP] - S[cur, C_HP])
            if h > 0:
                S[cur, C_HP] += h
        if S[x, C_HP] <= 0:
            loser = x
        elif S[y, C_HP] <= 0:
            loser = y
        cur = oth
    capped = 0
    if loser < 0:
        capped = 1
        Z[Z_DCAPS] += 1
        if S[x, C_HP] != S[y, C_HP]:
            loser = x if S[x, C_HP] < S[y, C_HP] else y
        else:
            loser = x if S[x, C_KEY] < S[y, C_KEY] else y
        lbx = S[x, C_HP]
        lby = S[y, C_HP]
    w = y if loser == x else x
    before = lbx if loser == x else lby
    Z[Z_INDUEL] = 0
    reward = ip[P_DBASE] + max(before, 0)
    S[w, C_DIAM] += reward
    S[loser, C_DIAM] -= ip[P_DPEN]
    S[w, C_DUELW] += 1
    S[loser, C_DUELL] += 1
    S[loser, C_DEATHS] += 1
    Z[Z_D4] += 1
    if w == x:
        S[x, C_HP] = prex if prex > 0 else S[x, C_MAXHP]
    else:
        S[y, C_HP] = S[y, C_MAXHP]
        S[y, C_ALIVE] = 1
        S[y, C_PEND] = 0
    if Z[Z_ON]:
        ev(tr, Z, E_DUELEND, w, loser, reward, ip[P_DPEN], capped, plays)
    # the winner inherits unused revives and the loser's dedicated shield(s)
    S[w, C_STORM] += S[loser, C_STORM]
    S[w, C_POUCH] += S[loser, C_POUCH]
    S[w, C_SHB] |= S[loser, C_SHB]
    S[loser, C_STORM] = 0
    S[loser, C_POUCH] = 0
    S[loser, C_SHB] = 0
    Z[Z_JOINT] = w + 1
    Z[Z_NEXT] = 1
    if S[w, C_RANK] == 10:
        if S[loser, C_KIT] > 0:
            S[loser, C_KIT] -= 1
            Z[Z_KITSAVE] += 1
            if Z[Z_ON]:
                ev(tr, Z, E_KIT, loser, w, 0, 0, 0, 0)
        else:
            Z[Z_ZOMB] += 1
            S[loser, C_ZMB] = w + 1
            S[loser, C_TEAM] = S[w, C_TEAM]
            S[loser, C_ALIVE] = 1
            S[loser, C_PEND] = 0
            S[loser, C_HP] = S[loser, C_MAXHP]
            S[loser, C_BTT] = 0
            if Z[Z_ON]:
                ev(tr, Z, E_ZOMBIE, loser, w, S[loser, C_HP], 0, 0, 0)
            return w
    eliminate3(S, pile, Z, tr, loser)
    return w


@njit(cache=True, _nrt=False)
def resolve_duels(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID):
    """Duel queue: largest waiting character first duels its killer (or the
    next living seat after it); the winner duels the next-largest, ..."""
    champ = -1
    while True:
        q = -1
        for x in range(Z[Z_P]):
            if S[x, C_PEND] == 1 and (q < 0 or S[x, C_KEY] > S[q, C_KEY]):
                q = x
        if q < 0:
            return
        if champ < 0 or S[champ, C_ALIVE] == 0:
            k = S[q, C_KLR]
            if k < 0:
                k = q
            champ = -1
            P = Z[Z_P]
            for j in range(P):
                c = (k + j) % P
                if S[c, C_ALIVE] == 1:
                    champ = c
                    break
            if champ < 0:
                # nobody in play: the largest waiting character comes back to face the next
                S[q, C_PEND] = 0
                S[q, C_ALIVE] = 1
                if S[q, C_MAXHP] <= 0:
                    S[q, C_MAXHP] = S[q, C_PREMAX] if S[q, C_PREMAX] > 0 else 1
                S[q, C_HP] = S[q, C_MAXHP]
                champ = q
                continue
        champ = duel(st, S, pile, Z, tr, masks, counts, ip, pp, PT, PID, champ, q)


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": entry}

jit.kernel_cache_end()
