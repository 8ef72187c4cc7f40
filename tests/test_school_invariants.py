"""Magic School invariants over many games (check mode) and the hidden
information test: a seat's decisions depend only on what it may see."""
import copy

import numpy as np
import pytest

from balance.core import batch
from balance.core.setup import setup
from balance.rulesets.school import layout as L
from balance.rulesets.school.scenario import Table


@pytest.mark.parametrize("players,policies", [(3, ["informed", "random", "informed"]),
                                              (4, ["random"] * 4),
                                              (5, ["informed"] * 5),
                                              (8, ["informed", "random"] * 4)])
def test_check_mode_conserves_cards_and_every_game_lasts_six_rounds(players, policies):
    """All 54 cards (108 with two decks) are in exactly one zone after setup
    and after every round; the cloaked pile never changes in its round;
    hands are at most the limit after each turn; 6 rounds, 6 x (P-1) turns."""
    s = setup("school", seed=5, players=players, policies=policies)
    b = batch.play(s.spec, s.values, 5, 0, 3000, players, s.policy_ids, check=True)
    assert b.errors.sum() == 0
    cols = s.spec.game_columns
    assert (b.games[:, cols.index("rounds")] == 6).all()
    assert (b.games[:, cols.index("turns")] == 6 * (players - 1)).all()
    won = b.seats[:, :, s.spec.seat_columns.index("won")]
    assert (won.sum(axis=1) == b.games[:, cols.index("n_winners")]).all()
    assert ((b.games[:, cols.index("n_winners")] == 0)
            == (b.games[:, cols.index("winner")] == -1)).all()


DECIDE = (L.E_INVISIBLE, L.E_CLOAK, L.E_SPELL, L.E_STOPPED, L.E_VOTE, L.E_TIE, L.E_DISCARD)


# --- hidden information: re-deal what a seat cannot see --------------------
# The round is stepped here as the step machine plays it (checked against
# it below), so that a game can be forked before any step: the fork re-deals
# every card seat 0 cannot see, both copies play on to the end of the round,
# and seat 0's decisions must agree for as long as what it sees agrees.

from balance.core.kernel import ev                      # noqa: E402
from balance.rulesets.school import state_slots as KS   # noqa: E402


def begin(t, r):
    sage = int(t.Z[L.Z_SAGE])
    t.Z[L.Z_ROUND] = r
    t.S[sage, KS.S_SAGE] += 1
    ev(t.tr, t.Z, L.E_ROUND, sage, r, 0, 0, 0, 0)


def name(t):
    sage = int(t.Z[L.Z_SAGE])
    inv = t.K.choose_invisible(t.s, t.c, t.pol[sage], sage)
    t.S[sage, KS.S_DEC] += 1
    t.Z[L.Z_DEC] += 1
    t.Z[L.Z_INV] = inv
    t.S[inv, KS.S_INVR] += 1
    ev(t.tr, t.Z, L.E_INVISIBLE, sage, inv, 0, 0, 0, 0)


def cloak(t):
    inv = int(t.Z[L.Z_INV])
    cl = t.K.choose_house(t.pol[inv], inv, t.Z, t.KN, t.pst, t._script, L.D_CLOAK, t.buf)
    t.S[inv, KS.S_DEC] += 1
    t.Z[L.Z_DEC] += 1
    t.Z[L.Z_CLOAK] = cl
    ev(t.tr, t.Z, L.E_CLOAK, inv, cl, 0, 0, 0, 0)


def order(t):
    """The non-invisible seats from the sage's left, the sage last."""
    sage, inv = int(t.Z[L.Z_SAGE]), int(t.Z[L.Z_INV])
    return [q for q in ((sage + 1 + i) % t.P for i in range(t.P)) if q != inv]


def draws(t):
    for q in order(t):
        for _ in range(t.values["round_draw"]):
            t.K.draw_to_hand(t.st, t.S, t.hand, t.cards, t.Z, q, t.masks, t.counts, t.tr, True)


def take_turn(t, q):
    t.Z[L.Z_TURN] += 1
    t.turn(q)


def end(t, r):
    inv = int(t.Z[L.Z_INV])
    t.K.show_state(t.B, t.Z, t.pile, t.tr, t.buf)
    if r == 6:
        t.S[inv, KS.S_INV6] = 1
        t.Z[L.Z_CLOAK6] = t.Z[L.Z_CLOAK]
    t.Z[L.Z_SAGE] = inv
    t.Z[L.Z_CLOAK] = -1


def turn_phase(t, r):
    """The turns, the sage's meeting after its spells, each seat's discard."""
    sage = int(t.Z[L.Z_SAGE])
    out = []
    for q in order(t):
        out.append(("turn", lambda u, q=q: take_turn(u, q)))
        if q == sage:
            out.append(("meeting", lambda u: u.meeting(r)))
        out.append(("discard", lambda u, q=q: u.discard_down(q)))
    return out


def steps(P, r):
    """Round r as (kind, step) pairs, in the step machine's order. A turn-phase
    step is the k-th of the order of the table it is played on (a fork's
    invisible may differ; the number of steps does not)."""
    def phase(k):
        def run(u):
            turn_phase(u, r)[k][1](u)
        return run
    out = [("begin", lambda u: begin(u, r)), ("name", name), ("cloak", cloak),
           ("draws", draws)]
    out += [(None, phase(k)) for k in range(2 * (P - 1) + 1)]
    return out + [("end", lambda u: end(u, r))]


def fork(t):
    u = copy.copy(t)
    for k, v in vars(t).items():
        if isinstance(v, np.ndarray):
            setattr(u, k, v.copy())
    return u


def known_in_hidden_places(events, p):
    """Cards seat p has seen that may now sit where it cannot look: the hand
    cards and the deck top it peeked, the cards stolen from it."""
    e = events[events[:, 0] == L.E_SPELL]
    own = e[(e[:, 2] == p) & np.isin(e[:, 3], (L.EF_PEEK_HAND, L.EF_PEEK_DECK))]
    lost = e[(e[:, 2] != p) & (e[:, 3] == L.EF_STEAL) & (e[:, 5] == p)]
    return {int(c) for c in np.concatenate([own[:, 7], lost[:, 7]])}


def hidden_from(t, p, rng, keep=0, own_fate=False):
    """Deal anew, in place, every card seat p cannot see: the other seats'
    hands, their fate cards p has not peeked, the hidden spells p has not
    peeked, and the deck below its top ``keep`` cards (the cards drawn
    before p would see them). Cards p has seen in a hand or on the deck top
    stay where they are, so do the discard pile, the books' face-up cards
    and the score area. Sizes do not change. ``own_fate`` also deals p's own
    fate cards anew (the control). Returns the number of places dealt."""
    known = known_in_hidden_places(t.events(), p)
    places = []
    keep = min(keep, int(t.Z[L.Z_DECK]))
    places += [(t.cards, (0, i)) for i in range(int(t.Z[L.Z_DECK]) - keep)]
    for q in range(t.P):
        if q != p:
            places += [(t.hand, (q, i)) for i in range(int(t.S[q, L.C_HN]))]
        places += [(t.fate, (q, i)) for i in range(t.F)
                   if (q != p and not t.KF[p, q, i]) or (q == p and own_fate)]
    for b in range(2):
        places += [(t.B, (b, 0, j)) for j in range(int(t.Z[L.Z_BN + b]))
                   if not t.B[b, 1, j] and not t.KN[p, t.B[b, 0, j]]]
    places = [(a, i) for a, i in places if int(a[i]) not in known]
    pool = rng.permutation([int(a[i]) for a, i in places])
    for (a, i), c in zip(places, pool):
        a[i] = c
    t.fates_changed()
    return len(places)


def view(rows, p):
    """What seat p sees of trace rows, as ("d", ...) for its decisions and
    ("o", ...) for what it observes. Another seat's draw, deal, fate card,
    hidden book card, peeked or stolen card is seen only as the event; the
    other seats' votes are sealed: seen together once the voting ends."""
    out, votes = [], []
    for r in rows:
        r = tuple(int(x) for x in r)
        typ, seat = r[0], r[2]
        if typ != L.E_VOTE and votes:
            out.append(("o", "votes", tuple(votes)))
            votes = []
        mine = seat == p
        if typ == L.E_VOTE:
            if mine:
                out.append(("d",) + r[:4])
            else:
                votes.append(r[2:4])
        elif typ == L.E_SPELL:
            if mine:
                out += [("d",) + r[:7], ("o", "seen", r[7])]
            else:
                robbed = r[3] == L.EF_STEAL and r[5] == p
                out.append(("o",) + r[:7] + ((r[7],) if robbed else ()))
        elif typ in (L.E_DEAL, L.E_DRAW, L.E_FATE):
            out.append(("o",) + (r if mine else r[:3]))
        elif typ == L.E_BOOKSET:
            out.append(("o",) + (r if r[5] == 1 else r[:4]))
        elif typ == L.E_BOOKS:
            out.append(("o",) + r[:4] + tuple(max(x, -1) for x in r[4:]))
        elif mine and (typ in DECIDE or (typ == L.E_SCORE and r[3] % 54 >= 52)):
            out.append(("d",) + r)
        else:
            out.append(("o",) + r)
    if votes:
        out.append(("o", "votes", tuple(votes)))
    return out


def agree_while_seen_agrees(va, vb, where):
    """Seat p's decisions in the two views agree for as long as everything
    before them agrees. Returns (decisions compared, views identical)."""
    n = 0
    for x, y in zip(va, vb):
        if x == y:
            n += x[0] == "d"
            continue
        assert not (x[0] == "d" and y[0] == "d"), \
            f"{where}: the same view, a different decision: {x} vs {y}"
        return n, False
    assert len(va) == len(vb), where
    return n, True


KEEP = {"draws": lambda t, r: len(order(t)) * t.values["round_draw"],
        "meeting": lambda t, r: t.values["meeting_cards"] if r <= 4 else 0}


def forked_rounds(policies, games, seed=3, p=0, own_fate=False, params=None):
    """Play each game step by step; before every step, fork, re-deal what
    seat p cannot see, play both copies to the end of the round and compare
    seat p's views. Returns the seat's decisions compared, by trace type,
    the forks, how many dealt some card anew, and (``own_fate``: p's own
    fate cards are dealt anew too) how many found a decision that changed
    while p's view had not."""
    rng = np.random.default_rng(seed)
    compared, forks, dealt, changed = {}, 0, 0, 0
    for game in range(games):
        t = Table(players=len(policies), policies=policies, params=params, seed=seed,
                  game=game, trace=4000)
        for r in range(1, 7):
            todo = steps(t.P, r)
            for i, (kind, step) in enumerate(todo):
                if kind is None:
                    kind = turn_phase(t, r)[i - 4][0]
                a, b = fork(t), fork(t)
                n0 = int(t.Z[L.Z_TR])
                keep = KEEP[kind](t, r) if kind in KEEP else 0
                dealt += hidden_from(b, p, rng, keep, own_fate) > 0
                for _, s in todo[i:]:
                    s(a)
                    s(b)
                va, vb = view(a.events()[n0:], p), view(b.events()[n0:], p)
                forks += 1
                try:
                    n, same = agree_while_seen_agrees(va, vb, f"game {game} round {r} {kind}")
                    if same:                # the same random numbers drawn
                        np.testing.assert_array_equal(a.pst[p], b.pst[p])
                except AssertionError:
                    if not own_fate:
                        raise
                    changed += 1
                    n = 0
                for x in [x for x in va if x[0] == "d"][:n]:
                    compared[x[1]] = compared.get(x[1], 0) + 1
                step(t)
    return compared, forks, dealt, changed


def test_the_stepped_round_is_the_kernels_round():
    """The steps above play a round exactly as the step machine does
    (``Table.round``: ``step.advance`` and ``step.apply``, every decision by
    the seat's heuristic): the same trace and the same state, game after
    game."""
    pol = ["informed", "random", "informed", "random"]
    for game in range(6):
        a = Table(players=4, policies=pol, seed=3, game=game, trace=4000)
        b = Table(players=4, policies=pol, seed=3, game=game, trace=4000)
        for r in range(1, 7):
            a.round(r, check=False)
            for _, s in steps(4, r):
                s(b)
        np.testing.assert_array_equal(a.events(), b.events())
        for k in ("S", "hand", "fate", "B", "pile", "cards", "KN", "KF", "st", "pst"):
            np.testing.assert_array_equal(getattr(a, k), getattr(b, k), err_msg=k)
        # the globals (the phase machine's slots after them hold where each halted)
        np.testing.assert_array_equal(a.Z[:L.Z_CUR], b.Z[:L.Z_CUR])


# the third: informed tuned to steal, draw and swap often
@pytest.mark.parametrize("policies,params", [
    (["informed", "random", "informed", "random"], None),
    (["random", "informed", "informed", "informed"], None),
    (["informed", "informed", "random", "informed"],
     {"steal_min_hand": 1.0, "draw_max_hand": 5.0, "swap_min_gain": 0.0})])
def test_a_seats_decisions_do_not_change_when_cards_it_cannot_see_change(policies, params):
    """Before every step of every round (the sage naming the invisible, the
    cloak, the draws, each turn, the meeting, each discard), deal anew every
    card seat 0 cannot see: the other seats' hands, their fate cards and the
    hidden spells it has not peeked, and the deck below the cards drawn
    before it sees them (the round's draws, the meeting's turned cards).
    Both copies play to the end of the round: seat 0's decisions (spells
    with their cards and targets, stops, votes, tie breaks, names, cloaks,
    jokers' piles, discards) agree for as long as everything it has seen
    agrees, and, where it saw the same all round, so do the random numbers
    it drew from its own stream."""
    compared, forks, dealt, _ = forked_rounds(policies, games=60, params=params)
    assert dealt > 0.9 * forks
    for typ in (L.E_SPELL, L.E_STOPPED, L.E_VOTE, L.E_DISCARD, L.E_INVISIBLE, L.E_CLOAK):
        assert compared.get(typ, 0) >= 5, (typ, compared)
    assert compared[L.E_SPELL] >= 200 and compared[L.E_VOTE] >= 200, compared


def test_the_check_fails_when_a_decision_reads_what_the_view_does_not_show():
    """The control: deal seat 0's own fate cards anew as well (its view of
    the round does not show them; its informed decisions read them): the
    check finds decisions that changed while the view had not."""
    _, forks, _, changed = forked_rounds(["informed", "random", "informed", "random"],
                                         games=20, own_fate=True)
    assert changed > 0.05 * forks, (changed, forks)
