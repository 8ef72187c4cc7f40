"""Demon Faction invariants over many games (check mode: the kernel counts
broken invariants per game: 108 cards conserved across decks, hands, rows,
face slots, extra slots and graveyards; row powers; HP never above hp), and
the random policy's choice distribution as the rules file defines it."""
import numpy as np
import pytest
from scipy import stats

from balance.core import batch, registry
from balance.rulesets.demon.scenario import Table

GAMES = 3000


@pytest.fixture(scope="module")
def spec():
    return registry.get("demon")


@pytest.mark.parametrize("pols", [("random", "random"), ("greedy", "greedy"),
                                  ("defensive", "defensive"), ("greedy", "random"),
                                  ("random", "defensive")])
def test_no_broken_invariant_and_every_game_ends(spec, pols):
    values = spec.space.defaults()
    ids = [spec.policies[p] for p in pols]
    b = batch.play(spec, values, 7, 0, GAMES, 2, ids, True)
    assert b.errors.sum() == 0
    g = b.games
    cols = list(spec.game_columns)
    assert ((g[:, 0] >= -1) & (g[:, 0] <= 1)).all()
    assert ((g[:, 3] >= 0) & (g[:, 3] < len(spec.end_reasons))).all()
    assert (g[:, 1] <= values["max_turns"]).all() and (g[:, 1] >= 1).all()
    hp = b.seats[:, :, list(spec.seat_columns).index("hp")]
    assert (hp <= values["hp"]).all()
    won = g[:, 0] >= 0
    assert (hp[won, 1 - g[won, 0]] <= 0).all() and (hp[won, g[won, 0]] > 0).all()
    assert (g[:, cols.index("decisions")] > 0).all()


@pytest.mark.parametrize("params", [{"hp": 30}, {"hp": 100, "passive_damage": 0},
                                    {"max_turns": 6}, {"stalemate_rounds": 1},
                                    {"start_hand": 0, "draw_per_turn": 4, "hand_trigger": 3,
                                     "hand_keep": 1}])
def test_invariants_hold_under_other_parameters(spec, params):
    from balance.core.search import LEVELS
    values = spec.space.resolve(params)
    # the search levels at the smallest budget and fewer games: these are
    # checks of the rules under other parameters, not of search's strength
    # (at its default budget a search seat costs about a hundred greedy ones)
    small = spec.space.resolve({**params, "search_determinizations": 1, "search_top_k": 2,
                                "search_iterations": 4})
    for name, pol in spec.policies.items():
        v, n = (small, 60) if name in LEVELS or name == "ismcts" else (values, 500)
        b = batch.play(spec, v, 3, 0, n, 2, [pol, pol], True)
        assert b.errors.sum() == 0
    if params == {"max_turns": 6}:
        assert (b.games[:, 3] == spec.end_reasons.index("turn_cap")).any()
        assert (b.games[:, 1] <= 6).all()


def _chi2_uniform(counts):
    return stats.chisquare(counts).pvalue


def test_random_first_placement_is_uniform_over_the_listed_actions():
    """random: one entry per card and destination, plus "end placement",
    picked uniformly."""
    t = Table(policies="random", seed=5)
    t.hand(0, "D3", "H4", "SQ", "BIG", "C7")
    t.row(1, 2, "S5")
    t.face(1, 2, "SJ")
    t.hand(0, "HJ")
    acts = t.place_list(0)
    # ♦3: row 1, ♦ slot; ♥4: rows 1, 2; ♠Q: row 2; big joker: rows 1-3; ♣7: row 3, ♣ slot;
    # ♥J on P1's row 2; end
    assert len(acts) == 12
    n = 12000
    counts = np.bincount([t.pick(0) for _ in range(n)], minlength=len(acts))
    assert _chi2_uniform(counts) > 1e-3, counts


def test_random_attack_is_uniform_over_row_and_target_then_mode():
    """random: uniform over (row, target) plus "no attack", then the mode."""
    t = Table(policies="random", seed=6)
    t.row(0, 1, "D9")
    t.big(0, 1)
    t.row(0, 2, "S9")
    t.row(1, 1, "D3")
    t.row(1, 2, "S2")
    acts = t.attack_list(0)
    # row 1 -> row 1 (normal, effect); row 2 -> rows 1, 2; no attack
    assert acts == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 1, 0), (-1, -1, 0)]
    n = 16000
    counts = np.bincount([t.attack_pick(0) for _ in range(n)], minlength=5)
    expected = np.array([1 / 8, 1 / 8, 1 / 4, 1 / 4, 1 / 4]) * n
    assert stats.chisquare(counts, expected).pvalue > 1e-3, counts


def test_random_discard_is_a_uniform_subset():
    """Preparation with 7 cards: random discards a uniform 2-card subset."""
    seven = {"♦A", "♦2", "♦3", "♦4", "♦5", "♦6", "♦7"}
    seen = {}
    for g in range(2100):
        t = Table(policies="random", seed=1, game=g)
        t.hand(0, "DA", "D2", "D3", "D4", "D5", "D6", "D7")
        t.empty_deck(0)
        t.st[0] = np.uint64(g * 7919 + 1)
        t.turn(0)
        gone = tuple(sorted(seven & set(t.graveyard(0))))
        seen[gone] = seen.get(gone, 0) + 1
    assert all(len(k) == 2 for k in seen) and len(seen) == 21
    assert _chi2_uniform(list(seen.values())) > 1e-3, seen
