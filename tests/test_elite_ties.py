"""Magic Elite: ties in a heuristic and the random policy's draws.

Rules cited: docs/rules/README.md, "Ties in a heuristic": two targets,
plays or votes scoring the same are broken uniformly at random from the
game's own random stream, never by seat or list order; and
docs/rules/elite.md, "Heuristics": ``random`` is uniform over the legal
options. Each test plays one position many times from one table (its
stream runs on from trial to trial) and checks the counts with a
chi-square test at p = 0.001: the tests can fail, and with a fixed seed
they are deterministic.
"""
import numpy as np
import pytest
from scipy.stats import chi2

from balance.rulesets.elite import layout as L
from balance.rulesets.elite.scenario import Table


def uniform(counts):
    """True unless the counts reject equal shares (chi-square, p = 0.001)."""
    c = np.asarray(counts, float)
    e = c.sum() / len(c)
    return ((c - e) ** 2 / e).sum() < chi2.ppf(0.999, len(c) - 1)


def first_play(t):
    e = t.events()
    return e[e[:, 0] == L.E_PLAY][0]


@pytest.mark.parametrize("version,ids", [
    (1, ("S10", "H7", "C7", "D7")),      # v1: the King's ♠2 deals 2 to any of three 7s
    (2, ("S10", "H9", "C9", "D9")),      # v2: the 10's ♠2 deals 1 to any of three 9s
])
def test_greedy_tied_targets_are_drawn_uniformly(version, ids):
    """greedy's turn: three targets with the same HP score the same; each is
    chosen about a third of the time (before: always seat 1, the first)."""
    t = Table(players=4, params={"version": version},
              policies=["greedy", "script", "script", "script"], seed=3)
    for p, i in enumerate(ids):
        t.identity(p, i)
    counts = [0, 0, 0]
    for _ in range(3000):
        t.arrange({0: ["S2", "SK"]}, deck=["CJ", "CQ", "CK"] * 2)
        for q in (1, 2, 3):
            t.S[q, L.C_HP] = t.S[q, L.C_MAXHP]
        t.turn(0)
        pl = first_play(t)
        assert int(pl[3]) in (t.play("S2"), t.play("SK"))   # ♠2 and ♠K deal the same
        counts[int(pl[4]) - 1] += 1
    assert min(counts) > 800 and uniform(counts), counts


def test_greedy_tied_plays_are_drawn_uniformly():
    """greedy's turn: ♠2, ♣2, ♠J, ♣Q at one target score the same (1 damage,
    one card); each run is played about a quarter of the time (before:
    always ♠2, the first listed)."""
    t = Table(players=2, params={"version": 1}, policies=["greedy", "script"], seed=4)
    t.identity(0, "S9")
    t.identity(1, "H9")
    counts = {}
    for _ in range(4000):
        t.arrange({0: ["S2", "C2", "SJ", "CQ"]}, deck=["DJ", "DQ", "DK"] * 2)
        t.S[1, L.C_HP] = 9
        t.turn(0)
        k = int(first_play(t)[3])
        counts[k] = counts.get(k, 0) + 1
    assert sorted(counts) == sorted(t.play(r) for r in ("S2", "C2", "SJ", "CQ")), counts
    assert uniform(list(counts.values())), counts


def test_greedy_v3_tied_targets_are_drawn_uniformly():
    """v3 greedy (``greedy3``): two Rampage 9s with the same HP score the
    same; each is attacked about half the time."""
    t = Table(players=3, params={"version": 3}, policies=["greedy", "script", "script"],
              seed=5)
    for p, i in enumerate(("S8", "H9", "C9")):
        t.identity(p, i)
    counts = [0, 0]
    for _ in range(2000):
        t.arrange({0: ["S2", "SK"]}, deck=["CJ", "CQ", "CK"] * 2)
        for q in (1, 2):
            t.S[q, L.C_HP] = 9
        t.turn(0)
        counts[int(first_play(t)[4]) - 1] += 1
    assert uniform(counts), counts


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_spent_four_is_drawn_uniformly(policy):
    """A 4 spent outside a play (here a thaw at the turn start) is any 4 the
    seat holds, uniformly: random over the suits it holds, greedy over
    those it values least (with hand_damage_value 0 every 4 costs the same;
    by default a ♦4's 4 damage make it the dearest, test below). Before:
    always the first suit, ♠."""
    t = Table(players=2, params={"version": 3, "hand_damage_value": 0.0},
              policies=[policy, "script"], seed=6)
    t.identity(0, "S8")
    t.identity(1, "H9")
    counts = [0, 0, 0]
    for _ in range(3000):
        t.arrange({0: ["S4", "H4", "D4"], 1: ["C2"]}, deck=["CJ", "CQ", "CK"] * 2)
        t.S[0, L.C_FRSK] = 1
        t.turn_start(0)
        th = t.events()
        th = th[th[:, 0] == L.E_THAW]
        if len(th):
            counts[[0, 1, 3].index(int(th[0, 6]) // 9)] += 1
    assert sum(counts) > 1000 and uniform(counts), counts


def test_random_picks_each_option_uniformly():
    """random: uniform over the distinct options: ♠2 at seat 1, ♠2 at
    seat 2, and the heals ♥2, ♥3 and ♥2-♥3 (no target), a fifth each."""
    t = Table(players=3, params={"version": 1}, policies=["random", "script", "script"],
              seed=7)
    for p, i in enumerate(("S9", "H7", "C7")):
        t.identity(p, i)
    counts = {}
    for _ in range(4000):
        t.arrange({0: ["S2", "H2", "H3"]}, deck=["CJ", "CQ", "CK"] * 2)
        for q in (1, 2):
            t.S[q, L.C_HP] = 7
        t.turn(0)
        pl = first_play(t)
        key = (int(pl[3]), int(pl[4]))
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == 5, counts      # ♠2@1, ♠2@2, ♥2, ♥3, ♥2-♥3
    assert uniform(list(counts.values())), counts


def test_greedy_spends_the_cheapest_four():
    """With the default hand_damage_value (4) a 4 costs 4 x its damage: ♥4
    none, ♠4 and ♣4 one, ♦4 four, so greedy thaws with the ♥4, else draws
    among ♠4 and ♣4, and keeps the ♦4."""
    t = Table(players=2, params={"version": 3}, policies=["greedy", "script"], seed=6)
    t.identity(0, "S8")
    t.identity(1, "H9")
    for hand, allowed in ((["S4", "H4", "D4"], {1}), (["S4", "C4", "D4"], {0, 2})):
        seen = set()
        for _ in range(200):
            t.arrange({0: hand, 1: ["C2"]}, deck=["CJ", "CQ", "CK"] * 2)
            t.S[0, L.C_FRSK] = 1
            t.turn_start(0)
            th = t.events()
            th = th[th[:, 0] == L.E_THAW]
            seen.add(int(th[0, 6]) // 9)
        assert seen == allowed, (hand, seen)
