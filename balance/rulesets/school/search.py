"""Magic School kernel, part 4: the search policies (``core.search``):
determinized flat Monte Carlo, compiled whole (no Python per decision).

At each searched decision of a seat playing ``search_fast``, ``search`` or
``search_strong`` (its spells, votes, tie breaks, the invisible it names,
the house it cloaks; its discards and jokers' piles are informed's):

1. the candidates: every distinct entry ``random`` chooses among (spells:
   ``spell_list`` plus stop; with ``search_top_k`` > 0 the best k entries
   by informed's priorities, ``spell_prior``, plus stop), every option of a
   vote, the tied options of a tie, every other seat, every house;
2. ``search_determinizations`` deals (x1/4, x1, x4 by level, at least 1) of
   what the seat cannot see (``determinize``): the other seats' hands, the
   fate cards it has not peeked, the hidden spells it has not peeked and
   the deck, dealt anew among themselves; counts, the discard pile, the
   books' face-up cards, the score area and which places each seat has
   peeked stay (all public); the same deals for every candidate;
3. per deal and candidate, ``search_rollouts`` rollouts (``rollout``) on a
   copy: the candidate applied, then the game played to its end, every
   seat (the searching one too) by ``search_rollout_policy`` (0 informed,
   1 random). Games last six rounds and turns ``max_casts`` spells, so a
   rollout needs no cap of its own;
4. the candidate whose rollouts the seat won most often (a win: the seat's
   house is one of the highest piles, shared or not, 1; anything else,
   including a game nobody wins, 0); ties uniform.

Rollouts play the rules' own functions (``play``: ``spells``, ``cast``,
the meeting's pieces, ``discard_down``; ``policy``: the choices) on the
scratch state of ``search_work``: they never touch the real game's state,
records, masks, counts or trace. Every random number of a search comes
from its own counter-based stream ``game_state(sbase[p] ^ kind, decisions
of p)``, ``sbase[p] = mix64(seat_stream(seed, game, p) ^ SALT)``: not the
game's stream nor the seat's, so a search seat leaves every other random
draw of the game as it was, and its choice is a function of what it may
see (tests/test_search_school.py re-deals the rest and checks).
"""
import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import ev  # before kernel_cache_begin
from ...core.rng import game_state, mix64, shuffle
from .base import (book_all_values, draw_to_hand, fate_house, margin, next_seat, P_FATE,
                   P_MAXC, P_RDRAW, P_SDET, P_SPOL, P_SROLL, P_TOPK, Q_DRAW, Q_FATES,
                   Q_STEAL, Q_SWAP, seat_stream, S_DEC, val, vbit)
from .layout import (BCAP, C_HN, D_CLOAK, EF_DRAW, EF_PEEK_BOOK, EF_PEEK_FATE, EF_STEAL, EF_STOP,
                     EF_SWAP, E_STOPPED, E_TURN, FCAP, HCAP, KNW, KN_FATE, KN_MASK, NCMAX, NS, NZ,
                     PCAP, PH_CLOAK, PH_DRAWS, PH_NAME, PH_TIE, PH_TURN, PH_VOTE, POL_INFORMED,
                     POL_RANDOM, SK_NAME, SK_SPELL, SK_TIE, SK_VOTE,
                     Z_BN, Z_CLOAK, Z_DEC, Z_DECK, Z_DISC, Z_INV, Z_PN, Z_PT, Z_ROUND, Z_SAGE)
from .play import (can_cast, cast, discard_down, meeting_end, meeting_open, meeting_tie,
                   meeting_vote, spells)
from .policy import (choose_house, choose_invisible, keep_value, known_house, my_house,
                     spell_list)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# determinizations = max(1, search_determinizations * NUM // DEN) by level (core.search.LEVELS)
LEVEL_NUM = np.array([1, 1, 4], np.int64)
LEVEL_DEN = np.array([4, 1, 1], np.int64)
CMAX = 256          # candidates at most (with search_top_k = 0: the first 255 entries and stop)
_SALT = np.uint64(0x5EA2C4F00D5C1001)
_ROLL = np.uint64(0x2545F4914F6CDD1D)
_SEAT = np.uint64(0xD1B54A32D192ED03)
_KIND = np.uint64(0x9FB21C651E98DF25)


def search_work(P):
    """The search's scratch (allocated in Python, once per thread and batch):
    a tuple, indices as in ``_unpack``'s comments."""
    def state():
        return [np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
                np.full((P, FCAP), -1, np.int64), np.zeros((2, 2, BCAP), np.int64),
                np.zeros(NZ, np.int64), np.zeros((4, PCAP), np.int64),
                np.zeros((3, NCMAX), np.int64), np.zeros((P, KNW), np.int64),
                np.zeros((P, P, FCAP), np.int64)]
    return tuple(state() + state() + [
        np.zeros(1, np.uint64), np.zeros(P, np.uint64), np.zeros(4, np.int64),   # 18 st, 19 pst, 20 out
        np.zeros(16, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64),  # 21 opts, 22 tally, 23 tied
        np.zeros(P, np.int64), np.zeros(4096, np.float64), np.zeros(4096, np.int64),  # 24 votes, 25 fs, 26 ix
        np.zeros(4, np.int64), np.zeros(P, np.int64),                            # 27 buf, 28 rollout policies
        np.zeros((P, 2, 1), np.uint64), np.zeros((2, 54), np.int64),             # 29 masks, 30 counts (dummies)
        np.zeros((1, 8), np.int64), np.zeros((0, 6), np.int64),                  # 31 trace, 32 script (unused)
        np.zeros(P, np.uint64), np.zeros(NCMAX, np.int64), np.zeros(NCMAX, np.int64),  # 33 sbase, 34 pool, 35 flags
        np.zeros((CMAX, 4), np.int64), np.zeros(CMAX, np.float64),               # 36 candidates, 37 their wins
        np.zeros(CMAX, np.float64)])                                             # 38 candidate priors


@njit(cache=True, _nrt=False)
def search_base(seed, game, p):
    """Seed of seat p's search streams in game ``game`` of ``seed``."""
    return mix64(seat_stream(seed, game, p) ^ _SALT)


# --- the state: copies and deals -----------------------------------------------------
@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def copy_state(P, F, S, hand, fate, B, Z, pile, cards, KN, KF,
               S2, hand2, fate2, B2, Z2, pile2, cards2, KN2, KF2):
    """The used part of one game state into another (the unshuffled deck,
    cards[2], is not copied: rollouts never read it)."""
    for q in range(P):
        for j in range(S.shape[1]):
            S2[q, j] = S[q, j]
        for i in range(S[q, C_HN]):
            hand2[q, i] = hand[q, i]
        for i in range(F):
            fate2[q, i] = fate[q, i]
        for c in range(KN.shape[1]):
            KN2[q, c] = KN[q, c]
        for y in range(P):
            for i in range(F):
                KF2[q, y, i] = KF[q, y, i]
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            B2[b, 0, j] = B[b, 0, j]
            B2[b, 1, j] = B[b, 1, j]
    for i in range(Z.shape[0]):
        Z2[i] = Z[i]
    for h in range(4):
        for j in range(Z[Z_PN + h]):
            pile2[h, j] = pile[h, j]
    for i in range(Z[Z_DECK]):
        cards2[0, i] = cards[0, i]
    for i in range(Z[Z_DISC]):
        cards2[1, i] = cards[1, i]


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(p, P, F, S, hand, fate, B, Z, pile, cards, KN, KF,
                S2, hand2, fate2, B2, Z2, pile2, cards2, KN2, KF2, st, pool, flag):
    """The state into the second one with every card seat p cannot see
    dealt anew (from st): the other seats' hands, the fate cards p has not
    peeked, the hidden spells p has not peeked, the deck. The cards are
    pooled in card-id order (so the deal depends on which cards are unseen,
    never on where they lie), shuffled and put back place by place in a
    fixed order. Each other seat keeps the places it peeked (public: the
    spell named them): its hidden-spell flags follow the new cards there."""
    copy_state(P, F, S, hand, fate, B, Z, pile, cards, KN, KF,
               S2, hand2, fate2, B2, Z2, pile2, cards2, KN2, KF2)
    for c in range(NCMAX):
        flag[c] = 0
    for q in range(P):
        if q != p:
            for i in range(S[q, C_HN]):
                flag[hand[q, i]] = 1
            for i in range(F):
                if KF[p, q, i] == 0 and fate[q, i] >= 0:
                    flag[fate[q, i]] = 1
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                flag[B[b, 0, j]] = 1
    for i in range(Z[Z_DECK]):
        flag[cards[0, i]] = 1
    n = 0
    for c in range(NCMAX):
        if flag[c] == 1:
            pool[n] = c
            n += 1
    shuffle(st, pool, n)
    k = 0
    for q in range(P):
        if q != p:
            for i in range(S[q, C_HN]):
                hand2[q, i] = pool[k]
                k += 1
            for i in range(F):
                if KF[p, q, i] == 0 and fate[q, i] >= 0:
                    fate2[q, i] = pool[k]
                    k += 1
    for b in range(2):
        for j in range(Z[Z_BN + b]):
            if B[b, 1, j] == 0 and KN[p, B[b, 0, j]] == 0:
                B2[b, 0, j] = pool[k]
                k += 1
    for i in range(Z[Z_DECK]):
        cards2[0, i] = pool[k]
        k += 1
    for q in range(P):
        if q != p:
            for c in range(NCMAX):
                KN2[q, c] = 0
            KN2[q, KN_MASK] = 0
            KN2[q, KN_MASK + 1] = 0
            for b in range(2):
                for j in range(Z[Z_BN + b]):
                    if B[b, 1, j] == 0 and KN[q, B[b, 0, j]] == 1:
                        c = B2[b, 0, j]
                        KN2[q, c] = 1
                        KN2[q, KN_MASK + b] |= vbit(c)
            m = 0
            for i in range(F):
                if fate2[q, i] >= 0:
                    m |= vbit(fate2[q, i])
            KN2[q, KN_FATE] = m


# --- a rollout --------------------------------------------------------------------
@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def rollout(ph, q, casts, win0, nopts, p, P, ip, pp, ban, F, SX):
    """Play SX's rollout state to the end of the game from phase ``ph`` of
    the current round (layout.PH_*: seat q's turn goes on with ``casts``
    spells left; a meeting with ``nopts`` options in SX's opts, seat votes
    preset in SX's votes, or option ``win0`` carried), every seat by SX's
    rollout policies. Returns 1 when seat p's house is among the highest
    piles at the end (it wins), else 0."""
    S, hand, fate, B, Z, pile, cards, KN, KF = SX[9], SX[10], SX[11], SX[12], SX[13], SX[14], \
        SX[15], SX[16], SX[17]
    st, pst, out, opts, tally, tied, votes, fs, ix, buf = SX[18], SX[19], SX[20], SX[21], \
        SX[22], SX[23], SX[24], SX[25], SX[26], SX[27]
    pol, masks, counts, tr, script = SX[28], SX[29], SX[30], SX[31], SX[32]
    maxc = ip[P_MAXC]
    for r in range(Z[Z_ROUND], 7):
        Z[Z_ROUND] = r
        sage = Z[Z_SAGE]
        if ph == PH_NAME:
            Z[Z_INV] = choose_invisible(pol[sage], sage, P, S, Z, KN, KF, fate, F, pst, script,
                                        fs, buf)
        inv = Z[Z_INV]
        if ph <= PH_CLOAK:
            Z[Z_CLOAK] = choose_house(pol[inv], inv, Z, KN, pst, script, np.int64(D_CLOAK), buf)
        x = q
        stage = ph
        left = casts
        if ph <= PH_DRAWS:
            y = next_seat(sage, P)
            for _ in range(P):
                if y != inv:
                    for _ in range(ip[P_RDRAW]):
                        draw_to_hand(st, S, hand, cards, Z, y, masks, counts, tr, False)
                y = next_seat(y, P)
            x = next_seat(sage, P)
            if x == inv:
                x = next_seat(x, P)
            stage = PH_TURN
            left = maxc
        while True:
            if stage == PH_TURN:
                spells(st, x, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F,
                       pst, script, masks, counts, tr, False, out, fs, ix, buf, left)
            if x == sage:
                n = nopts
                w = win0
                if stage == PH_TURN:
                    kind, n = meeting_open(st, r, sage, B, Z, cards, ip, tr, False, opts)
                    for y in range(P):
                        votes[y] = -1
                else:
                    kind = (r - 1) % 2 if r <= 4 else 2 + (r - 5)
                if n > 0:
                    if stage != PH_TIE:
                        w = 0
                        if n > 1:
                            k, w = meeting_vote(kind, sage, P, pol, S, B, Z, KN, ip, pst, script,
                                                tr, False, opts, n, tally, tied, votes, fs, buf)
                            if k > 1:
                                w = meeting_tie(kind, sage, pol, S, B, Z, KN, ip, pst, script, tr,
                                                False, opts, n, tied, fs, buf, np.int64(-1))
                    meeting_end(kind, sage, P, pol, S, B, Z, pile, cards, KN, ip, pst, script, tr,
                                False, opts, n, w, votes, buf)
            discard_down(x, pol[x], S, hand, cards, Z, ip, pp, pst, script, tr, False, fs, ix)
            if x == sage:
                break
            x = next_seat(x, P)
            if x == inv:
                x = next_seat(x, P)
            stage = PH_TURN
            left = maxc
        Z[Z_SAGE] = inv
        Z[Z_CLOAK] = -1
        ph = PH_NAME
    hp = fate_house(KN, p, book_all_values(B, Z, np.int64(0)), book_all_values(B, Z, np.int64(1)))
    top = max(max(Z[Z_PT], Z[Z_PT + 1]), max(Z[Z_PT + 2], Z[Z_PT + 3]))
    return np.int64(Z[Z_PT + hp] == top)


# --- the search -------------------------------------------------------------------
@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_pick(kind, p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF,
                opts, nopts, casts, ncand, SX):
    """Index of the best of SX's ``ncand`` candidates (rows of SX[36]) for
    seat p's decision of ``kind`` (layout.SK_*): the mean result of the same
    deals and rollout seeds for each; ties uniform from the search's stream."""
    cand, wins = SX[36], SX[37]
    rS, rZ, rst, rpst, rout, ropts, rvotes, rpol = SX[9], SX[13], SX[18], SX[19], SX[20], \
        SX[21], SX[24], SX[28]
    x = game_state(SX[33][p] ^ (np.uint64(kind + 1) * _KIND), S[p, S_DEC])
    if ncand <= 1:
        return 0
    nd = max(1, ip[P_SDET] * LEVEL_NUM[level] // LEVEL_DEN[level])
    nr = max(1, ip[P_SROLL])
    rp = POL_RANDOM if ip[P_SPOL] == 1 else POL_INFORMED
    for y in range(P):
        rpol[y] = rp
    for c in range(ncand):
        wins[c] = 0.0
    maxc = ip[P_MAXC]
    for d in range(nd):
        rst[0] = game_state(x, d)
        determinize(p, P, F, S, hand, fate, B, Z, pile, cards, KN, KF, SX[0], SX[1], SX[2],
                    SX[3], SX[4], SX[5], SX[6], SX[7], SX[8], rst, SX[34], SX[35])
        for c in range(ncand):
            for r in range(nr):
                copy_state(P, F, SX[0], SX[1], SX[2], SX[3], SX[4], SX[5], SX[6], SX[7], SX[8],
                           SX[9], SX[10], SX[11], SX[12], SX[13], SX[14], SX[15], SX[16],
                           SX[17])
                s0 = game_state(x ^ _ROLL, d * nr + r)
                rst[0] = s0
                for y in range(P):
                    rpst[y] = mix64(s0 ^ (np.uint64(y + 1) * _SEAT))
                ph = PH_TURN
                q = p
                left = 0
                w = -1
                if kind == SK_SPELL:
                    for i in range(4):
                        rout[i] = cand[c, i]
                    if rout[0] != EF_STOP:
                        cast(rst, p, rS, SX[10], SX[11], SX[12], rZ, SX[14], SX[15], SX[16],
                             SX[17], ip, rout, SX[29], SX[30], SX[31], False)
                        left = maxc - casts - 1
                else:
                    for o in range(nopts):
                        ropts[o] = opts[o]
                    if kind == SK_VOTE:
                        for y in range(P):
                            rvotes[y] = -1
                        rvotes[p] = cand[c, 0]
                        ph = PH_VOTE
                        q = rZ[Z_SAGE]
                    elif kind == SK_TIE:
                        w = cand[c, 0]
                        ph = PH_TIE
                        q = rZ[Z_SAGE]
                    elif kind == SK_NAME:
                        rZ[Z_INV] = cand[c, 0]
                        ph = PH_CLOAK
                    else:
                        rZ[Z_CLOAK] = cand[c, 0]
                        ph = PH_DRAWS
                wins[c] += rollout(ph, q, left, w, nopts, p, P, ip, pp, ban, F, SX)
    best = -1.0
    k = 0
    for c in range(ncand):
        if wins[c] > best:
            best = wins[c]
            k = 1
        elif wins[c] == best:
            k += 1
    rst[0] = game_state(x, np.int64(1) << 40)
    j = np.int64((rst[0] >> np.uint64(32)) * np.uint64(k) >> np.uint64(32))
    for c in range(ncand):
        if wins[c] == best:
            if j == 0:
                return c
            j -= 1
    return 0


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def spell_prior(p, P, S, hand, fate, B, Z, pile, KN, KF, ip, pp, F, e, buf):
    """Informed's priorities as a score of entry e (effect, hand index, a, b),
    for search_top_k: an unknown hidden spell's peek; a swap raising its
    house's margin by >= swap_min_gain (by the gain); a steal from a
    non-ally holding >= steal_min_hand cards; a peek at unknown fate cards;
    a draw while holding <= draw_max_hand; then the same moves below their
    thresholds; peeks at hands, the deck top or known cards last. A cheaper
    card (its keep value) first among equals."""
    eff = e[0]
    s = -50.0
    hm = my_house(Z, KN, p, buf)
    if eff == EF_PEEK_BOOK:
        s = 1000.0 if KN[p, B[e[2], 0, e[3]]] == 0 else -1000.0
    elif eff == EF_SWAP:
        g = hand[p, e[2]]
        h = e[3] // PCAP
        d = val(g) - val(pile[h, e[3] % PCAP])
        T0, T1, T2, T3 = Z[Z_PT], Z[Z_PT + 1], Z[Z_PT + 2], Z[Z_PT + 3]
        gain = margin(T0 + d * (h == 0), T1 + d * (h == 1), T2 + d * (h == 2), T3 + d * (h == 3),
                      hm) - margin(T0, T1, T2, T3, hm)
        s = (500.0 if gain >= pp[Q_SWAP] else -100.0) + gain
    elif eff == EF_STEAL:
        q = e[2]
        ally = known_house(Z, KN, KF, fate, p, q, F, buf) == hm
        s = (20.0 if ally else (300.0 if S[q, C_HN] >= pp[Q_STEAL] else 100.0)) + S[q, C_HN]
    elif eff == EF_PEEK_FATE:
        u = 0
        for i in range(F):
            u += 1 - KF[p, e[2], i]
        s = -500.0 if u == 0 else (200.0 if pp[Q_FATES] > 0 else 50.0) + u
    elif eff == EF_DRAW:
        s = 150.0 if S[p, C_HN] <= pp[Q_DRAW] else 30.0
    return s - keep_value(hand[p, e[1]], pp) / 100.0


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_spell(p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF, casts,
                 out, SX):
    """Seat p's next spell (out[0:4]; out[0] = EF_STOP to stop) by search
    among the listed entries (the best search_top_k by ``spell_prior``) and
    stop. A fate peek looks at the target's first fate card p has not seen."""
    cand, prior = SX[36], SX[38]
    n = spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, np.int64(-1), out)
    k = ip[P_TOPK]
    if k <= 0 or k > CMAX - 1:
        k = CMAX - 1
    x = game_state(SX[33][p] ^ _ROLL, S[p, S_DEC])
    m = 0
    for e in range(n):
        spell_list(p, P, S, hand, B, Z, pile, ip, ban, F, e, out)
        if out[0] == EF_PEEK_FATE:
            out[3] = 0
            for i in range(F - 1, -1, -1):
                if KF[p, out[2], i] == 0:
                    out[3] = i
        if n > k:           # keep the k best by prior, ties by a uniform key
            x += np.uint64(0x9E3779B97F4A7C15)
            sc = spell_prior(p, P, S, hand, fate, B, Z, pile, KN, KF, ip, pp, F, out, SX[27]) \
                + float(mix64(x) >> np.uint64(11)) * 2.0 ** -60
            if m == k and sc <= prior[m - 1]:
                continue
            i = m if m < k else k - 1
            while i > 0 and prior[i - 1] < sc:
                prior[i] = prior[i - 1]
                for j in range(4):
                    cand[i, j] = cand[i - 1, j]
                i -= 1
            prior[i] = sc
            for j in range(4):
                cand[i, j] = out[j]
            if m < k:
                m += 1
        elif m < k:
            for j in range(4):
                cand[m, j] = out[j]
            m += 1
    cand[m, 0] = EF_STOP
    for j in range(1, 4):
        cand[m, j] = -1
    m += 1
    c = search_pick(np.int64(SK_SPELL), p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile,
                    cards, KN, KF, SX[21], np.int64(0), casts, m, SX)
    for j in range(4):
        out[j] = cand[c, j]


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_option(kind, p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF,
                  opts, n, tied, SX):
    """Seat p's vote (kind SK_VOTE: among options 0..n-1), tie break (SK_TIE:
    among tied[o] == 1), named invisible (SK_NAME: another seat) or cloak
    (SK_CLOAK: a house), by search."""
    cand = SX[36]
    m = 0
    if kind == SK_VOTE or kind == SK_TIE:
        for o in range(n):
            if kind == SK_VOTE or tied[o] == 1:
                cand[m, 0] = o
                m += 1
    elif kind == SK_NAME:
        for q in range(P):
            if q != p:
                cand[m, 0] = q
                m += 1
    else:
        for h in range(4):
            cand[m, 0] = h
            m += 1
    c = search_pick(kind, p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF,
                    opts, n, np.int64(0), m, SX)
    return cand[c, 0]


@njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_turn(st, p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF, out,
                masks, counts, tr, on, SX):
    """A search seat's turn in the real game: ``play.turn`` with each spell
    chosen by ``search_spell`` (the same decisions counted, the same trace)."""
    if on:
        ev(tr, Z, E_TURN, p, S[p, C_HN], 0, 0, 0, 0)
    for c in range(ip[P_MAXC]):
        if not can_cast(p, S, hand, Z, ban):
            break
        S[p, S_DEC] += 1
        Z[Z_DEC] += 1
        search_spell(p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF, c,
                     out, SX)
        if out[0] == EF_STOP:
            break
        if out[0] == EF_PEEK_FATE and F > 1:
            S[p, S_DEC] += 1
            Z[Z_DEC] += 1
        cast(st, p, S, hand, fate, B, Z, pile, cards, KN, KF, ip, out, masks, counts, tr, on)
    if on:
        ev(tr, Z, E_STOPPED, p, S[p, C_HN], 0, 0, 0, 0)


@njit(cache=True, _nrt=False)
def search_decision(kind, p, P, level, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF,
                    opts, n, tied, casts, out, SX):
    """One search decision of seat p from the given state (tests): kind
    SK_SPELL writes the entry to out[0:4] and returns out[0]; the others
    return the option, seat or house chosen. Reads SX[33][p] (the search
    seed) and changes nothing of the state."""
    F = ip[P_FATE]
    if kind == SK_SPELL:
        search_spell(p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF,
                     casts, out, SX)
        return out[0]
    return search_option(kind, p, P, level, ip, pp, ban, F, S, hand, fate, B, Z, pile, cards, KN,
                         KF, opts, n, tied, SX)


jit.kernel_cache_end()
