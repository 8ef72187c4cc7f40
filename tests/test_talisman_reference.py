"""The numba kernel against the pure-Python reference, game by game.

Both draw their random numbers from the same per-game stream in the same
order (``reference.py`` lists the order), so each game must agree exactly:
the game row, every seat row, the drawn/played masks, the per-kind draw and
play totals and, for a subset, the whole event trace. A mismatch message
names the game and the first event where the two traces part.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np
import pytest

from balance.core import batch
from balance.core.setup import setup
from balance.core.play import play_range
from balance.rulesets.talisman import SPEC
from balance.rulesets.talisman import reference as R
from balance.rulesets.talisman.rules import SEARCH_POLICIES

SEED = 20240611

# name -> (param overrides, players, policies, games)
CONFIGS = {
    "2p-random": ({}, 2, ["random", "random"], 250),
    "2p-greedy": ({}, 2, ["greedy", "greedy"], 250),
    "2p-patient": ({}, 2, ["patient", "patient"], 250),
    "2p-random-greedy": ({}, 2, ["random", "greedy"], 250),
    "2p-patient-random": ({}, 2, ["patient", "random"], 250),
    "3p-random": ({}, 3, ["random"] * 3, 200),
    "3p-greedy": ({}, 3, ["greedy"] * 3, 200),
    "3p-patient": ({}, 3, ["patient"] * 3, 200),
    "3p-mixed": ({}, 3, ["random", "greedy", "patient"], 250),
    "4p-random": ({}, 4, ["random"] * 4, 150),
    "4p-greedy": ({}, 4, ["greedy"] * 4, 150),
    "4p-patient": ({}, 4, ["patient"] * 4, 150),
    "4p-mixed": ({}, 4, ["greedy", "random", "patient", "random"], 250),
    "values5": ({"values_per_element": 5}, 3, ["patient", "random", "greedy"], 250),
    "gamble8": ({"copies_gamble": 8, "value_gamble": 1.0}, 2, ["greedy", "random"], 250),
    "nocap": ({"hp_cap": 0}, 4, ["random", "patient", "greedy", "random"], 250),
    "hand3": ({"hand_limit": 3}, 3, ["random", "greedy", "patient"], 250),
    # every special 12 times, big hands, odd policy weights, zero-damage thunder
    "specials": ({"copies_thunder": 12, "copies_wind": 12, "copies_guard": 12,
                  "copies_steal": 12, "copies_gamble": 12, "thunder_damage": 0,
                  "overcoming_per_card": 0, "start_hand": 10, "hand_limit": 12,
                  "value_wind": 3.0, "value_steal": 2.0, "value_gamble": 0.5,
                  "destroy_value": 0.0, "heal_value": 2.0, "min_combo_value": 20.0},
                 4, ["random", "greedy", "patient", "random"], 100),
    # HP above the heal cap, factors changed, 12 values per element
    "hp40-cap25": ({"hp": 40, "hp_cap": 25, "values_per_element": 12,
                    "flush_per_card": 4, "chaos_factor": 2, "four_symbols_heal_factor": 2,
                    "min_combo_value": 3.0}, 3, ["greedy", "patient", "random"], 150),
    # a 14-card deck: draws are skipped when deck and pile are empty, hands run dry
    "tiny-deck": ({"values_per_element": 2, "copies_thunder": 0, "copies_wind": 0,
                   "copies_guard": 0, "copies_steal": 3, "copies_gamble": 1,
                   "start_hand": 4, "hand_limit": 1, "hp": 5}, 4,
                  ["random", "greedy", "patient", "random"], 150),
    "turn-cap": ({"max_turns": 12, "hp": 12}, 2, ["random", "patient"], 200),
    "ban-remove": ({}, 3, ["random", "greedy", "patient"], 150),
    "ban-forbid": ({}, 4, ["random", "greedy", "patient", "random"], 150),
}
# card bans (interventional per-card power) of some configs
BANS = {
    "ban-remove": {"thunder": "remove", "water-3": "remove", "fire-8": "remove"},
    "ban-forbid": {"guard": "forbid", "wind": "forbid", "metal-1": "forbid", "earth-5": "forbid"},
}

TRACED = 12     # games per config whose whole event traces are compared


def ids(policies) -> np.ndarray:
    return np.array([SPEC.policies[p] for p in policies], dtype=np.int64)


def first_divergence(values, seed, game, n_players, policies, ban_vector=None, ban=None) -> str:
    """Where the kernel's trace and the reference's log of one game part."""
    V = values["values_per_element"]
    _, tr = batch.trace(SPEC, values, seed, game, n_players, ids(policies), ban_vector)
    kernel = [tuple(int(x) for x in row) for row in tr]
    try:
        ref = R.play(values, seed, game, n_players, policies, log=True, ban=ban)["events"]
    except AssertionError as e:       # the reference's own invariant checks
        return f"the reference broke an invariant: {e}"
    for i, (a, b) in enumerate(zip(kernel, ref)):
        if a != b:
            ctx = "\n".join(f"      {R.describe_event(r, V)}" for r in kernel[max(0, i - 4):i])
            return (f"event {i}:\n    kernel    {a}  {R.describe_event(a, V)}\n"
                    f"    reference {b}  {R.describe_event(b, V)}\n    after\n{ctx}")
    if len(kernel) != len(ref):
        return f"one trace is longer: kernel {len(kernel)} events, reference {len(ref)}"
    return "traces agree (the difference is in the records only)"


@lru_cache(maxsize=None)
def run_config(name: str):
    """Play a config in both implementations; returns (mismatch messages,
    event-type coverage of the reference logs, number of games)."""
    over, P, policies, n = CONFIGS[name]
    ban = BANS.get(name)
    s = setup("talisman", seed=SEED, players=P, policies=policies, params=over, ban=ban)
    batch = play_range(s, 0, n, progress=False, check=True)
    values = s.values
    K = len(SPEC.card_kinds(values))
    bad = []
    draws = np.zeros(K, np.int64)
    plays = np.zeros(K, np.int64)
    coverage = Counter()
    for g in range(n):
        res = R.play(values, SEED, g, P, policies, log=True, ban=ban)
        coverage.update(ev[0] for ev in res["events"])
        coverage.update(("combo", ev[3]) for ev in res["events"] if ev[0] == R.E_COMBO)
        coverage.update(("steal-empty",) for ev in res["events"]
                        if ev[0] == R.E_STEAL and ev[4] < 0)
        coverage.update(("absorbed",) for ev in res["events"] if ev[0] == R.E_DAMAGE and ev[4])
        evs = res["events"]
        coverage.update(("no-draw",) for i, ev in enumerate(evs[:-1]) if ev[0] == R.E_TURN
                        and evs[i + 1][0] not in (R.E_SKIP, R.E_DRAW, R.E_RESHUFFLE))
        coverage.update([("end", res["end_reason"])])
        draws += res["draws"]
        plays += res["plays"]
        game_row, seat_rows, masks = R.record(res, K)
        ok = (batch.games[g].tolist() == game_row and batch.seats[g].tolist() == seat_rows
              and batch.masks[g].tolist() == masks)
        if not ok:
            bad.append(f"game {g} (seed {SEED}, {P} players, {policies}, params {over}):\n"
                       f"  kernel    {batch.games[g].tolist()} {batch.seats[g].tolist()}\n"
                       f"  reference {game_row} {seat_rows}\n"
                       f"  first divergence: "
                       f"{first_divergence(values, SEED, g, P, policies, s.ban_vector, ban)}")
    if not (batch.counts[0] == draws).all() or not (batch.counts[1] == plays).all():
        bad.append(f"per-kind draw/play totals differ: kernel {batch.counts.tolist()}, "
                   f"reference {[draws.tolist(), plays.tolist()]}")
    if batch.errors.any():
        bad.append(f"kernel check mode found broken invariants in games "
                   f"{np.flatnonzero(batch.errors)[:10].tolist()}")
    return bad, coverage, n


def test_columns_match_spec():
    assert R.GAME_COLUMNS == SPEC.game_columns
    assert R.SEAT_COLUMNS == SPEC.seat_columns
    # every policy but the search ones, whose rollouts are the kernel's random
    # and greedy turns (tests/test_search_talisman.py)
    assert tuple(R.POLICY_NAMES) + SEARCH_POLICIES == tuple(SPEC.policies)


def test_same_stream_as_kernel():
    """python_rng replays the kernel's deck: the first deal of a game matches."""
    values = SPEC.space.resolve({})
    _, tr = batch.trace(SPEC, values, 7, 123, 3, ids(["random"] * 3))
    kernel_deal = [(int(r[2]), int(r[3])) for r in tr if r[0] == R.E_DEAL]
    ref = R.play(values, 7, 123, 3, "random", log=True)["events"]
    assert kernel_deal == [(e[2], e[3]) for e in ref if e[0] == R.E_DEAL]
    assert len(kernel_deal) == 15


@pytest.mark.parametrize("name", list(CONFIGS))
def test_exact_game_by_game(name):
    bad, _, n = run_config(name)
    assert not bad, f"{len(bad)} of {n} games differ:\n" + "\n".join(bad[:3])


@pytest.mark.parametrize("name", ["2p-random-greedy", "3p-mixed", "4p-mixed", "specials",
                                  "hp40-cap25", "tiny-deck", "turn-cap", "ban-forbid"])
def test_event_traces_identical(name):
    """The whole event trace, row by row, for the first games of a config."""
    over, P, policies, _ = CONFIGS[name]
    s = setup("talisman", seed=SEED, players=P, policies=policies, params=over,
                     ban=BANS.get(name))
    values = s.values
    for g in range(TRACED):
        b, tr = batch.trace(SPEC, values, SEED, g, P, ids(policies), s.ban_vector)
        kernel = [tuple(int(x) for x in row) for row in tr]
        res = R.play(values, SEED, g, P, policies, log=True, ban=s.ban)
        assert kernel == res["events"], first_divergence(values, SEED, g, P, policies,
                                                         s.ban_vector, s.ban)
        # per-game per-kind counts from the one-game batch
        assert b.counts[0].tolist() == res["draws"]
        assert b.counts[1].tolist() == res["plays"]


def test_exact_comparison_covers_every_rule():
    """The games compared above exercise every action, combo and special
    effect, reshuffles, skipped draws (deck and pile empty), guards, winds,
    empty-hand steals, eliminations and both end reasons. (Stacked winds
    never arise in play: see test_talisman_rules.py.)"""
    total = Counter()
    for name in CONFIGS:
        total.update(run_config(name)[1])
    for ev in (R.E_SKIP, R.E_RESHUFFLE, R.E_DISCARD, R.E_PLACE, R.E_CAST, R.E_COMBO,
               R.E_DAMAGE, R.E_HEAL, R.E_STEAL, R.E_WIND, R.E_GUARD, R.E_GAMBLE,
               R.E_DESTROY, R.E_OUT, R.E_PASS):
        assert total[ev] > 0, f"event type {ev} never happened"
    for ct in range(5):
        assert total[("combo", ct)] > 0, f"combo type {ct} never fired"
    for key in (("steal-empty",), ("absorbed",), ("no-draw",),
                ("end", "last_standing"), ("end", "turn_cap")):
        assert total[key] > 0, f"{key} never happened"
    assert sum(n for *_, n in CONFIGS.values()) >= 4000


def test_reference_rejects_broken_invariants():
    """The reference's own checks fire when a card goes missing or HP rises."""
    values = SPEC.space.resolve({})
    from balance.core.rng import python_rng
    g = R.Game(values, 2, "random", python_rng(1, 1))
    g.setup()
    g.deck.pop()                                # a card vanishes
    with pytest.raises(R.InvariantError):
        g.check_cards()
    g = R.Game(values, 2, "random", python_rng(1, 1))
    g.setup()
    before = [s.hp for s in g.seats]
    g.seats[1].hp += 1                          # HP rises without four symbols
    with pytest.raises(R.InvariantError):
        g.check_turn(0, (R.PASS, 0, -1), before)


def test_bans_are_respected():
    """A removed kind is never drawn; a forbidden kind is drawn but never
    placed or cast, in both implementations."""
    for name in ("ban-remove", "ban-forbid"):
        over, P, policies, _ = CONFIGS[name]
        s = setup("talisman", seed=SEED, players=P, policies=policies, params=over,
                         ban=BANS[name])
        kinds = SPEC.card_kinds(s.values)
        b = play_range(s, 0, 100, progress=False)
        ref = [R.play(s.values, SEED, g, P, policies, ban=s.ban) for g in range(100)]
        for kind, mode in BANS[name].items():
            k = kinds.index(kind)
            assert b.counts[1, k] == 0 and sum(r["plays"][k] for r in ref) == 0
            if mode == "remove":
                assert b.counts[0, k] == 0 and sum(r["draws"][k] for r in ref) == 0
            else:
                assert b.counts[0, k] > 0
