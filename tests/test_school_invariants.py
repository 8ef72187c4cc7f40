"""Magic School invariants over many games (check mode) and the hidden
information test: a seat's decisions depend only on what it may see."""
import numpy as np
import pytest

from balance.core.runner import setup
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
    b = s.spec.simulate_range(s.values, 5, 0, 3000, players, s.policy_ids, check=True)
    assert b.errors.sum() == 0
    cols = s.spec.game_columns
    assert (b.games[:, cols.index("rounds")] == 6).all()
    assert (b.games[:, cols.index("turns")] == 6 * (players - 1)).all()
    won = b.seats[:, :, s.spec.seat_columns.index("won")]
    assert (won.sum(axis=1) == b.games[:, cols.index("n_winners")]).all()
    assert ((b.games[:, cols.index("n_winners")] == 0)
            == (b.games[:, cols.index("winner")] == -1)).all()


DECIDE = (L.E_INVISIBLE, L.E_CLOAK, L.E_SPELL, L.E_STOPPED, L.E_VOTE, L.E_TIE, L.E_DISCARD)


def seat_decisions(events, p):
    """Seat p's decisions in trace order: (type, turn, a, b, c, d, e) rows."""
    rows = events[(events[:, 2] == p) & np.isin(events[:, 0], DECIDE)]
    return [tuple(int(x) for x in r[[0, 1, 3, 4, 5, 6, 7]]) for r in rows]


def play(t):
    for r in range(1, 7):
        t.round(r)
    return seat_decisions(t.events(), 0)


def compare_until_seen(a, b, changed):
    """The two decision lists agree up to (and at) the first decision where
    seat 0 sees a changed card; after that they may differ."""
    for x, y in zip(a, b):
        if x[0] == L.E_SPELL and (x[6] in changed or y[6] in changed):
            assert x[:6] == y[:6]
            return True
        assert x == y
    assert len(a) == len(b)
    return False


def test_a_seats_decisions_ignore_cards_it_cannot_see():
    """Swap the fate cards of seats 1 and 2 and the two hidden book cards
    (seat 0 cannot see them; the random seats' choices do not depend on
    them): seat 0 (informed) makes the same decisions until it peeks at one
    of those cards. Seat 0's policy draws from its own stream, seeded by
    (seed, game, seat), so no other seat's choices shift it."""
    seen_before_end = 0
    for game in range(40):
        pol = ["informed", "random", "random", "random"]
        t1 = Table(players=4, policies=pol, seed=11, game=game)
        t2 = Table(players=4, policies=pol, seed=11, game=game)
        t2.fate[[1, 2]] = t2.fate[[2, 1]]
        t2.fates_changed()
        hid = [(b, j) for b in range(2) for j in range(t2.Z[L.Z_BN + b]) if not t2.B[b, 1, j]]
        (b0, j0), (b1, j1) = hid[0], hid[1]
        t2.B[b0, 0, j0], t2.B[b1, 0, j1] = t2.B[b1, 0, j1], t2.B[b0, 0, j0]
        changed = {int(c) for c in t1.fate[1:3, :3].ravel()} | {int(t1.B[b0, 0, j0]),
                                                                int(t1.B[b1, 0, j1])}
        seen_before_end += compare_until_seen(play(t1), play(t2), changed)
    assert seen_before_end > 0          # the comparison did stop at peeks in some games


def test_its_own_fate_cards_do_change_its_decisions():
    """The control: change seat 0's own fate cards (with seat 1's) and its
    decisions change in some games."""
    differ = 0
    for game in range(40):
        pol = ["informed", "random", "random", "random"]
        t1 = Table(players=4, policies=pol, seed=11, game=game)
        t2 = Table(players=4, policies=pol, seed=11, game=game)
        t2.fate[[0, 1]] = t2.fate[[1, 0]]
        t2.fates_changed()
        differ += play(t1) != play(t2)
    assert differ > 0
