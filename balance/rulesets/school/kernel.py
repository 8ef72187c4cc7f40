"""Magic School kernel: njit functions over small int64 arrays.

Five modules, each importing only those above it, each compiled into the
ruleset's cache folder: ``base`` (parameter slots, record columns, card
tables, helpers, the deck and hands), ``policy`` (the random spell list,
the informed policy, the scenario script), ``play`` (spells' effects, the
meeting in pieces, the discard, a turn's spells), ``search`` (the search
policies: determinizations and rollouts, which play ``play``'s functions)
and this one (setup, rounds with the search seats' choices, the end, the
batch and trace entries).

Speed. numba passes each array argument as 7-11 machine words, so a call
that takes twenty arrays copies a few hundred: the functions called once
per spell, turn or meeting from ``play_round`` (``turn``, ``meeting``,
``discard_down``, ``informed_spell``, ``cast``, ``vote_scores``,
``choose_invisible``) are inlined by numba (``inline="always"``, one call
site each in the batch kernel); small helpers are plain njit functions,
which LLVM inlines without numba's per-call-site typing cost.

One game's state (allocated once per thread by ``work``):
- ``S``     int64[P, NS]: per-seat statistics (the seat record's columns,
  in order) and working slots (hand size);
- ``hand``  int64[P, HCAP]: card ids, in the order they entered the hand;
- ``fate``  int64[P, FCAP]: the fate cards;
- ``B``     int64[2, 2, BCAP]: B[book, 0, j] the card in place j, B[book, 1, j]
  1 when face up (book 0 white, 1 black);
- ``pile``  int64[4, PCAP]: the score area, one pile per house;
- ``cards`` int64[3, NCMAX]: row 0 the deck (top = last), row 1 the
  discard pile, row 2 the unshuffled deck (per batch);
- ``KN``    int64[P, KNW]: KN[p, c] = 1 when seat p has seen card c in a
  hidden book place (hidden cards never move); KN[p, KN_MASK + b] the
  value mask (``vbit``) of the hidden cards of book b it has seen;
  KN[p, KN_FATE] the value mask of its own fate cards;
- ``KF``    int64[P, P, FCAP]: KF[p, q, i] = 1 when p has seen q's i-th fate card;
- ``Z``     int64[NZ]: game globals (``layout.Z_*``).

Random numbers. The game's own stream ``st`` (``core.rng.game_state(seed,
game)``) deals, picks the first sage, reshuffles, and picks the card a peek
at a hand or a steal finds. Every policy choice (random choices and
heuristic tie-breaks) comes from the choosing seat's own stream ``pst[p]``,
seeded by (seed, game, seat) (``seat_stream``): a seat's stream advances
only when it decides, so two deals that agree on everything a seat sees
give it the same choices (tests/test_school_invariants.py proves it).

Hidden information. The informed policy reads only: its hand and fate
cards, face-up book cards, hidden book cards it peeked (``KN``), fate
cards it peeked (``KF``), the score area, hand sizes, the round, the
sage, the invisible seat and the cloak.
"""
import numpy as np
from numba import njit

from ...core import jit
from ...core.kernel import BAN_REMOVE, ev, setbit  # before kernel_cache_begin
from ...core.records import BLOCK
from ...core.rng import below, game_state, shuffle
from .base import (book_all_values, draw_card, draw_to_hand, G_BVALS, G_CLOAK6, G_DEC, G_END,
                   G_FIRST, G_INV6, G_MEMBERS, G_NWIN, G_PVALS, G_ROUNDS, G_STAT, G_TOP, G_TOTAL,
                   G_TURNS, G_WINNER, G_WMASK, G_WVALS, HOUSE_WB, is_joker, KIND, KVAL,
                   next_seat, pile_total, P_DECKS, P_FATE, P_HIDDEN, P_LIMIT, P_RDRAW, P_SETUP,
                   P_START, seat_stream, S_DEC, S_FB, S_FIRST, S_FVALS, S_FW, S_INV6, S_INVR,
                   S_ROLE, S_SAGE, S_SCORE, S_WON, to_hand, update_up, vbit)
from .layout import (BCAP, C_HN, D_CLOAK, END_NOBODY, END_WON, E_BOOKS, E_BOOKSET, E_CLOAK,
                     E_DEAL, E_END, E_FATE, E_FATEREVEAL, E_FIRST, E_HOUSE, E_INVISIBLE, E_PILE,
                     E_PILES, E_ROUND, FCAP, HCAP, KNW, KN_FATE, NCMAX, NK, NS, NSEAT, NZ, PCAP,
                     POL_INFORMED, POL_SEARCH_FAST, POL_SEARCH_STRONG, SK_CLOAK, SK_NAME, SK_TIE,
                     SK_VOTE, ZG_NAMES, Z_BN, Z_CLOAK, Z_CLOAK6, Z_DEC, Z_DECK, Z_ERR, Z_FIRST,
                     Z_DISC, Z_GSTAT, Z_INV, Z_NC, Z_PN, Z_PT, Z_ROUND, Z_SAGE, Z_TR, Z_TURN, Z_UP)
from .play import (discard_down, meeting_end, meeting_open, meeting_tie, meeting_vote,
                   to_score, turn)
from .play import cast, meeting, spells  # noqa: F401 (scenario.Table, tests: K.meeting)
from .policy import choose_house, choose_invisible
from .search import search_base, search_option, search_turn, search_work
from .policy import spell_list  # noqa: F401 (scenario.Table reads K.spell_list)
from .base import NG  # noqa: F401 (the ruleset contract reads K.NG, K.NSEAT)

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# --- setup, a round, the end ----------------------------------------------------
@njit(cache=True, _nrt=False)
def fill_deck(ip, ban, P, cards, Z):
    """The unshuffled deck in cards[2, :n], n in Z[Z_NC] (once per batch)."""
    d = ip[P_DECKS]
    if d == 0:
        d = 1 if P <= 5 else 2
    n = 0
    for c in range(NK * d):
        if ban[KIND[c]] != BAN_REMOVE:
            cards[2, n] = c
            n += 1
    Z[Z_NC] = n


@njit(cache=True, _nrt=False)
def init_game(seed, game, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst, script,
              masks, counts, tr, on, buf):
    """Reset, shuffle, deal (each seat in turn: hand cards, then fate cards),
    set the books (white: face up, then hidden; black likewise), pick the
    first sage, who turns the setup score cards."""
    nc = Z[Z_NC]
    for i in range(Z.shape[0]):
        if i != Z_NC:
            Z[i] = 0
    st[0] = game_state(seed, game)
    for p in range(P):
        pst[p] = seat_stream(seed, game, p)
        for j in range(S.shape[1]):
            S[p, j] = 0
        for c in range(KNW):
            KN[p, c] = 0
        for q in range(P):
            for i in range(FCAP):
                KF[p, q, i] = 0
    for i in range(nc):
        cards[0, i] = cards[2, i]
    Z[Z_DECK] = nc
    shuffle(st, cards[0], nc)
    Z[Z_INV] = -1
    Z[Z_CLOAK] = -1
    F = ip[P_FATE]
    for p in range(P):
        for _ in range(ip[P_START]):
            c = draw_card(st, cards, Z, tr, on)
            if c >= 0:
                to_hand(S, hand, p, c, masks, counts)
                if on:
                    ev(tr, Z, E_DEAL, p, c, 0, 0, 0, 0)
        for i in range(F):
            c = draw_card(st, cards, Z, tr, on)
            fate[p, i] = c
            if c >= 0:
                KF[p, p, i] = 1
                KN[p, KN_FATE] |= vbit(c)
                setbit(masks, p, 0, KIND[c])
                counts[0, KIND[c]] += 1
                S[p, S_FVALS] |= np.int64(1) << KVAL[KIND[c]]
                if on:
                    ev(tr, Z, E_FATE, p, c, 0, 0, 0, 0)
    for b in range(2):
        for x in range(1 + ip[P_HIDDEN]):
            c = draw_card(st, cards, Z, tr, on)
            if c < 0:
                break
            j = Z[Z_BN + b]
            B[b, 0, j] = c
            B[b, 1, j] = np.int64(x == 0)
            Z[Z_BN + b] = j + 1
            if on:
                ev(tr, Z, E_BOOKSET, -1, b, c, np.int64(x == 0), 0, 0)
        update_up(B, Z, b)
    sage = below(st, P)
    Z[Z_FIRST] = sage
    Z[Z_SAGE] = sage
    S[sage, S_FIRST] = 1
    if on:
        ev(tr, Z, E_FIRST, sage, 0, 0, 0, 0, 0)
    for _ in range(ip[P_SETUP]):
        c = draw_card(st, cards, Z, tr, on)
        if c < 0:
            break
        to_score(c, sage, pol, S, Z, pile, cards, KN, ip, pst, script, tr, on, buf)


@njit(cache=True, _nrt=False)
def show_state(B, Z, pile, tr, x):
    """Trace rows: both books and the score piles (x: 4 ints of scratch)."""
    for b in range(2):
        for j in range(4):
            x[j] = 0
            if j < Z[Z_BN + b]:
                x[j] = (B[b, 0, j] + 1) if B[b, 1, j] == 1 else -(B[b, 0, j] + 1)
        ev(tr, Z, E_BOOKS, -1, b, x[0], x[1], x[2], x[3])
    for h in range(4):
        n = Z[Z_PN + h]
        j = 0
        while True:
            for i in range(4):
                x[i] = pile[h, j + i] + 1 if j + i < n else 0
            ev(tr, Z, E_PILE, -1, h, x[0], x[1], x[2], x[3])
            j += 4
            if j >= n:
                break
    ev(tr, Z, E_PILES, -1, Z[Z_PT], Z[Z_PT + 1], Z[Z_PT + 2], Z[Z_PT + 3], Z[Z_CLOAK])


@njit(cache=True, _nrt=False)
def play_round(st, r, P, pol, spol, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF, pst,
               script, masks, counts, tr, on, check, out, opts, tally, tied, votes, fs, ix, buf,
               SX):
    """Round r (1..6): the sage names the invisible, who cloaks a house;
    every other seat draws; turns from the sage's left, the sage last (its
    meeting after its spells); hands down to the limit. ``spol``: the
    seats' policies; ``pol`` the same with informed for a search level
    (what a search seat plays where it does not search: discards, jokers'
    piles). A search seat's spells, votes, tie breaks, named invisible and
    cloak come from ``search`` (SX: its scratch)."""
    F = ip[P_FATE]
    Z[Z_ROUND] = r
    sage = Z[Z_SAGE]
    S[sage, S_SAGE] += 1
    if on:
        ev(tr, Z, E_ROUND, sage, r, 0, 0, 0, 0)
    if SX is not None and spol[sage] >= POL_SEARCH_FAST:
        inv = search_option(np.int64(SK_NAME), sage, P, spol[sage] - POL_SEARCH_FAST, ip, pp, ban,
                            F, S, hand, fate, B, Z, pile, cards, KN, KF, opts, np.int64(0), tied,
                            SX)
    else:
        inv = choose_invisible(pol[sage], sage, P, S, Z, KN, KF, fate, F, pst, script, fs, buf)
    S[sage, S_DEC] += 1
    Z[Z_DEC] += 1
    Z[Z_INV] = inv
    S[inv, S_INVR] += 1
    if on:
        ev(tr, Z, E_INVISIBLE, sage, inv, 0, 0, 0, 0)
    if SX is not None and spol[inv] >= POL_SEARCH_FAST:
        cl = search_option(np.int64(SK_CLOAK), inv, P, spol[inv] - POL_SEARCH_FAST, ip, pp, ban,
                           F, S, hand, fate, B, Z, pile, cards, KN, KF, opts, np.int64(0), tied,
                           SX)
    else:
        cl = choose_house(pol[inv], inv, Z, KN, pst, script, np.int64(D_CLOAK), buf)
    S[inv, S_DEC] += 1
    Z[Z_DEC] += 1
    Z[Z_CLOAK] = cl
    if on:
        ev(tr, Z, E_CLOAK, inv, cl, 0, 0, 0, 0)
    # the cloaked pile, to check that it does not change this round
    cl_n = Z[Z_PN + cl]
    cl_sum = 0
    for j in range(cl_n):
        cl_sum += pile[cl, j] * (j + 1)
    q = next_seat(sage, P)
    for _ in range(P):
        if q != inv:
            for _ in range(ip[P_RDRAW]):
                draw_to_hand(st, S, hand, cards, Z, q, masks, counts, tr, on)
        q = next_seat(q, P)
    q = next_seat(sage, P)
    for _ in range(P):
        if q != inv:
            Z[Z_TURN] += 1
            if SX is not None and spol[q] >= POL_SEARCH_FAST:
                search_turn(st, q, P, spol[q] - POL_SEARCH_FAST, ip, pp, ban, F, S, hand, fate, B,
                            Z, pile, cards, KN, KF, out, masks, counts, tr, on, SX)
            else:
                turn(st, q, P, pol, S, hand, fate, B, Z, pile, cards, KN, KF, ip, pp, ban, F, pst,
                     script, masks, counts, tr, on, out, fs, ix, buf)
            if q == sage:
                # play.meeting, with the search seats' votes and tie break
                kind, n = meeting_open(st, r, sage, B, Z, cards, ip, tr, on, opts)
                if n > 0:
                    win = 0
                    if n > 1:
                        for v in range(P):
                            votes[v] = -1
                            if SX is not None and v != inv and spol[v] >= POL_SEARCH_FAST:
                                votes[v] = search_option(
                                    np.int64(SK_VOTE), v, P, spol[v] - POL_SEARCH_FAST, ip, pp,
                                    ban, F, S, hand, fate, B, Z, pile, cards, KN, KF, opts, n,
                                    tied, SX)
                        k, win = meeting_vote(kind, sage, P, pol, S, B, Z, KN, ip, pst, script,
                                              tr, on, opts, n, tally, tied, votes, fs, buf)
                        if k > 1:
                            win = -1
                            if SX is not None and spol[sage] >= POL_SEARCH_FAST:
                                win = search_option(
                                    np.int64(SK_TIE), sage, P, spol[sage] - POL_SEARCH_FAST, ip,
                                    pp, ban, F, S, hand, fate, B, Z, pile, cards, KN, KF, opts,
                                    n, tied, SX)
                            win = meeting_tie(kind, sage, pol, S, B, Z, KN, ip, pst, script, tr,
                                              on, opts, n, tied, fs, buf, win)
                    meeting_end(kind, sage, P, pol, S, B, Z, pile, cards, KN, ip, pst, script,
                                tr, on, opts, n, win, votes, buf)
            discard_down(q, pol[q], S, hand, cards, Z, ip, pp, pst, script, tr, on, fs, ix)
            if check and S[q, C_HN] > ip[P_LIMIT]:
                Z[Z_ERR] += 1
        q = next_seat(q, P)
    if check:
        s = 0
        for j in range(Z[Z_PN + cl]):
            s += pile[cl, j] * (j + 1)
        if Z[Z_PN + cl] != cl_n or s != cl_sum:
            Z[Z_ERR] += 1
        Z[Z_ERR] += broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, ix, r)
    if on:
        show_state(B, Z, pile, tr, buf)
    if r == 6:
        S[inv, S_INV6] = 1
        Z[Z_CLOAK6] = cl
    Z[Z_SAGE] = inv          # the invisible is next round's sage
    Z[Z_CLOAK] = -1


@njit(cache=True, _nrt=False)
def broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, seen, r):
    """Check mode: every card of the deck is in exactly one zone; each
    book's face-up value mask matches its cards; each pile's running total
    (Z_PT) matches its cards; after round r <= 4 a book holds at most 1 +
    hidden + its adds."""
    errors = 0
    for c in range(NCMAX):
        seen[c] = 0
    total = 0
    for i in range(Z[Z_DECK]):
        seen[cards[0, i]] += 1
    for i in range(Z[Z_DISC]):
        seen[cards[1, i]] += 1
    total += Z[Z_DECK] + Z[Z_DISC]
    for p in range(P):
        for i in range(S[p, C_HN]):
            seen[hand[p, i]] += 1
        total += S[p, C_HN]
        for i in range(F):
            if fate[p, i] >= 0:
                seen[fate[p, i]] += 1
                total += 1
    for b in range(2):
        m = 0
        for j in range(Z[Z_BN + b]):
            seen[B[b, 0, j]] += 1
            if B[b, 1, j] == 1:
                m |= vbit(B[b, 0, j])
        total += Z[Z_BN + b]
        if m != Z[Z_UP + b]:
            errors += 1
    for h in range(4):
        for j in range(Z[Z_PN + h]):
            seen[pile[h, j]] += 1
        total += Z[Z_PN + h]
    if total != Z[Z_NC]:
        errors += 1
    for h in range(4):
        if pile_total(pile, Z, h) != Z[Z_PT + h]:
            errors += 1
    for i in range(Z[Z_NC]):
        if seen[cards[2, i]] != 1:
            errors += 1
    return errors


@njit(cache=True, _nrt=False)
def finish(P, ip, S, fate, B, Z, pile, grow, srow, tr, on, T, members):
    """After round 6: the highest pile(s) win; houses from the fate cards
    and the final books (face up and hidden); members of a winning house win
    and score its total // members."""
    F = ip[P_FATE]
    wm = book_all_values(B, Z, np.int64(0))
    bm = book_all_values(B, Z, np.int64(1))
    top = -1
    for h in range(4):
        T[h] = pile_total(pile, Z, h)
        if T[h] > top:
            top = T[h]
        v = 0
        for j in range(Z[Z_PN + h]):
            v |= vbit(pile[h, j]) if not is_joker(pile[h, j]) else 1
        grow[G_PVALS + h] = v
        grow[G_TOTAL + h] = T[h]
    mask = 0
    for h in range(4):
        if T[h] == top:
            mask |= 1 << h
    for h in range(4):
        members[h] = 0
    for p in range(P):
        w = 0
        b = 0
        for i in range(F):
            m = vbit(fate[p, i])
            w += np.int64((m & wm) != 0)
            b += np.int64((m & bm) != 0)
        hs = HOUSE_WB[np.int64(w > 0) + 2 * np.int64(b > 0)]
        S[p, S_ROLE] = hs
        S[p, S_FW] = w
        S[p, S_FB] = b
        members[hs] += 1
    nwin = 0
    winner = -1
    for p in range(P):
        hs = S[p, S_ROLE]
        if (mask >> hs) & 1:
            S[p, S_WON] = 1
            S[p, S_SCORE] = T[hs] // members[hs]
            nwin += 1
            if winner < 0:
                winner = p
    for p in range(P):
        for j in range(NSEAT):
            srow[p, j] = S[p, j]
    for h in range(4):
        grow[G_MEMBERS + h] = members[h]
    grow[G_WINNER] = winner
    grow[G_TURNS] = Z[Z_TURN]
    grow[G_ROUNDS] = Z[Z_ROUND]
    grow[G_END] = END_WON if nwin > 0 else END_NOBODY
    grow[G_FIRST] = Z[Z_FIRST]
    grow[G_DEC] = Z[Z_DEC]
    grow[G_WMASK] = mask
    grow[G_NWIN] = nwin
    grow[G_TOP] = top
    grow[G_WVALS] = wm
    grow[G_BVALS] = bm
    for i in range(len(ZG_NAMES)):
        grow[G_STAT + i] = Z[Z_GSTAT + i]
    for p in range(P):
        if S[p, S_INV6] == 1:
            grow[G_INV6] = p
    grow[G_CLOAK6] = Z[Z_CLOAK6]
    if on:
        for b in range(2):
            for j in range(Z[Z_BN + b]):
                if B[b, 1, j] == 0:
                    ev(tr, Z, E_BOOKSET, -1, b, B[b, 0, j], 2, 0, 0)
        for p in range(P):
            ev(tr, Z, E_FATEREVEAL, p, fate[p, 0], fate[p, 1] if F > 1 else -1,
               fate[p, 2] if F > 2 else -1, F, 0)
            ev(tr, Z, E_HOUSE, p, S[p, S_ROLE], S[p, S_FW], S[p, S_FB], S[p, S_WON], S[p, S_SCORE])
        ev(tr, Z, E_END, -1, mask, top, nwin, grow[G_END], 0)
    return nwin


def work(P):
    """One thread's workspace (allocated in Python: the kernels allocate
    nothing per game)."""
    return (np.zeros((P, NS), np.int64), np.zeros((P, HCAP), np.int64),
            np.full((P, FCAP), -1, np.int64), np.zeros((2, 2, BCAP), np.int64),
            np.zeros(NZ, np.int64), np.zeros((4, PCAP), np.int64),
            np.zeros((3, NCMAX), np.int64), np.zeros((P, KNW), np.int64),
            np.zeros((P, P, FCAP), np.int64), np.zeros(1, np.uint64), np.zeros(P, np.uint64),
            np.zeros((0, 6), np.int64),
            np.zeros(4, np.int64), np.zeros(16, np.int64), np.zeros(16, np.int64),
            np.zeros(16, np.int64), np.zeros(P, np.int64), np.zeros(4096, np.float64),
            np.zeros(4096, np.int64), np.zeros(4, np.int64))


def base_policies(pol):
    """The policy a seat plays where it does not search: informed for a
    search level, else its own."""
    pol = np.asarray(pol, np.int64)
    return np.where((pol >= POL_SEARCH_FAST) & (pol <= POL_SEARCH_STRONG), POL_INFORMED, pol)


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, pp, ban, check, games, seats, masks,
              counts, errors):
    """Blocks [b0, b1) of a batch (``core.parallel.run_blocks`` spreads the
    blocks over threads); counts[b] holds block b's card counts."""
    play_blocks(b0, b1, seed, start, n_games, P, base_policies(pol), pol, ip, pp, ban, check,
                games, seats, masks, counts, errors, np.zeros((1, 8), np.int64), *work(int(P)),
                search_scratch(P, pol))


def search_scratch(P, pol):
    """The search's scratch when a seat plays a search level, else None:
    numba then compiles the batch and the round without the search (the
    branches on ``SX is not None`` are pruned), so a table of informed and
    random seats neither compiles nor runs any of it."""
    if not (np.asarray(pol)[:int(P)] >= POL_SEARCH_FAST).any():
        return None
    return search_work(int(P))


@njit(cache=True, nogil=True, _nrt=False)
def play_blocks(b0, b1, seed, start, n_games, P, pol, spol, ip, pp, ban, check, games, seats,
                masks, counts, errors, tr, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst,
                script, out, opts, tally, tied, votes, fs, ix, buf, SX):
    fill_deck(ip, ban, P, cards, Z)
    F = ip[P_FATE]
    off = np.bool_(False)    # the trace flag as a run-time bool, as _trace_one's (see there)
    for b in range(b0, b1):
        hi = min(n_games, (b + 1) * BLOCK)
        for g in range(b * BLOCK, hi):
            # one game (the same steps as _trace_one; not a function of its own:
            # each njit level compiles its whole call tree once more)
            init_game(seed, start + g, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st,
                      pst, script, masks[g], counts[b], tr, off, buf)
            if SX is not None:
                for p in range(P):
                    SX[33][p] = search_base(seed, start + g, p)
            if check:
                Z[Z_ERR] += broken_invariants(S, hand, fate, B, Z, pile, cards, P, F, ix,
                                              np.int64(0))
            for r in range(1, 7):
                play_round(st, r, P, pol, spol, ip, pp, ban, S, hand, fate, B, Z, pile, cards,
                           KN, KF, pst, script, masks[g], counts[b], tr, off, check, out, opts,
                           tally, tied, votes, fs, ix, buf, SX)
            finish(P, ip, S, fate, B, Z, pile, games[g], seats[g], tr, off, opts, tally)
            if check:
                if Z[Z_ROUND] != 6 or Z[Z_TURN] != 6 * (P - 1):
                    Z[Z_ERR] += 1
                for p in range(P):
                    if S[p, S_WON] == 1 and ((games[g, G_WMASK] >> S[p, S_ROLE]) & 1) == 0:
                        Z[Z_ERR] += 1
            errors[g] = Z[Z_ERR]


def trace_one(seed, game, P, pol, ip, pp, ban, games, seats, masks, counts, tr):
    """Play one game with its event trace in ``tr``; returns the trace length."""
    return _trace_one(seed, game, P, base_policies(pol), pol, ip, pp, ban, games, seats, masks,
                      counts, tr, *work(int(P)), search_scratch(P, pol))


@njit(cache=True, _nrt=False)
def _trace_one(seed, game, P, pol, spol, ip, pp, ban, games, seats, masks, counts, tr, S, hand,
               fate, B, Z, pile, cards, KN, KF, st, pst, script, out, opts, tally, tied, votes,
               fs, ix, buf, SX):
    # the trace and check flags as run-time bools, not literals: the
    # specialisations the scenario's steps (``scenario.Table``) call from
    # Python and play_blocks calls too, so a run, a replay and a scenario
    # compile play_round, init_game and finish once between them (a replay
    # after a run compiles little more; the batch is as fast)
    on, check = np.bool_(True), np.bool_(False)
    fill_deck(ip, ban, P, cards, Z)
    init_game(seed, game, P, pol, ip, S, hand, fate, B, Z, pile, cards, KN, KF, st, pst, script,
              masks[0], counts[0], tr, on, buf)
    if SX is not None:
        for p in range(P):
            SX[33][p] = search_base(seed, game, p)
    for r in range(1, 7):
        play_round(st, r, P, pol, spol, ip, pp, ban, S, hand, fate, B, Z, pile, cards, KN, KF,
                   pst, script, masks[0], counts[0], tr, on, check, out, opts, tally, tied,
                   votes, fs, ix, buf, SX)
    finish(P, ip, S, fate, B, Z, pile, games[0], seats[0], tr, on, opts, tally)
    return Z[Z_TR]


# what core.jit watches for the first-compile notice (spec.kernels())
KERNELS = {"run": play_blocks, "replay": _trace_one, "search": search_turn}


jit.kernel_cache_end()
