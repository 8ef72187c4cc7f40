"""Magic Elite: invariants over many random games, the event trace, the
summary. Determinism and replay (every version, mixed seats) are checked by
tests/test_ruleset_contract.py for every ruleset."""
import numpy as np
import pytest

import balance
from balance.core import batch
from balance.core.setup import setup
from balance.core.play import play_range
from balance.rulesets.elite import layout as L

CONFIGS = [
    (2, ["random"], {"version": 1}),
    (3, ["greedy", "random", "greedy"], {"version": 1}),
    (4, ["greedy"], {"version": 1, "killer_multiplier": 10**12, "king_multiplier": 10**12}),
    (2, ["greedy", "random"], {"version": 2}),
    (3, ["random"], {"version": 2, "max_turns": 300}),
    (4, ["greedy"], {"version": 2, "teams": True, "max_turns": 300}),
    (4, ["random", "greedy", "random", "greedy"],
     {"version": 2, "v2_seven_multiplier": 10**12, "six_j_adjacent": True, "max_turns": 200}),
]


@pytest.mark.parametrize("players,policies,params", CONFIGS)
def test_invariants_check_mode(players, policies, params):
    """Cards conserved across zones, hand counts consistent, HP in (0, max
    HP] for every character in play, no negative damage (kernel check mode,
    after every turn); every game ends by max_turns; table ranges."""
    s = setup("elite", seed=11, players=players, policies=policies, params=params)
    n = 2000
    b = play_range(s, 0, n, check=True, progress=False)
    assert int(b.errors.sum()) == 0
    g, st = b.games, b.seats
    maxt = s.values["max_turns"]
    assert (g[:, L.G_TURNS] <= maxt).all() and (g[:, L.G_TURNS] >= 1).all()
    capped = g[:, L.G_END] == L.END_CAP
    assert (g[capped, L.G_TURNS] == maxt).all()
    assert (g[:, L.G_WINNER] >= -1).all() and (g[:, L.G_WINNER] < players).all()
    assert (st[:, :, L.S_HP] <= st[:, :, L.S_MAXHP]).all()
    assert (st[:, :, L.S_HP] >= 0).all()
    assert (st[:, :, L.S_DEALT] >= 0).all() and (st[:, :, L.S_DEALT] <= 2**62).all()
    assert (st[:, :, L.S_TAKEN] >= 0).all()
    assert set(np.unique(st[:, :, L.S_ROLE])) <= {7, 8, 9, 10}
    if params["version"] == 1:
        last = g[:, L.G_END] == L.END_LAST
        assert (g[last, L.G_WINNER] >= 0).all()
        assert (g[capped, L.G_WINNER] == -1).all()
    else:
        # generals lost never exceed generals; scores are sums of ranks (7-10 each)
        assert (st[:, :, L.S_LOST] <= s.values["generals_per_player"]).all()
        assert (st[:, :, L.S_SCORE] <= 10 * st[:, :, L.S_KILLS]).all()
        assert (st[:, :, L.S_SCORE] >= 7 * st[:, :, L.S_KILLS]).all()
        assert st[:, :, L.S_KILLS].sum() == g[:, L.G_KILLS].sum()
        assert st[:, :, L.S_SCORE].sum() == g[:, L.G_KPTS].sum()


def test_trace_invariants():
    """From the event trace of random games: no negative damage, HP never
    above max HP at a turn start or after a heal, the deck+hands+discard
    bookkeeping matches the final seat rows (plays and draws add up)."""
    spec = balance.ruleset("elite")
    for params, pols in (({"version": 1}, ["random"] * 3), ({"version": 2}, ["greedy"] * 3)):
        s = setup("elite", seed=5, players=3, policies=pols, params=params)
        for game in range(25):
            b, ev = batch.trace(spec, s.values, 5, game, 3, s.policy_ids)
            dmg = ev[ev[:, 0] == L.E_DAMAGE]
            assert (dmg[:, 3] > 0).all()
            turn = ev[ev[:, 0] == L.E_TURN]
            assert (turn[:, 4] <= turn[:, 6]).all()
            assert ev[-1, 0] == L.E_END
            assert spec.format_trace(ev, s.values, 3, s.policies)[-1].startswith("==")
            # hand sizes: dealt + drawn - played - discarded at elimination
            hand = np.zeros(3, np.int64)
            for row in ev:
                t, p = row[0], row[2]
                if t in (L.E_DEAL, L.E_DRAW):
                    hand[p] += 1
                elif t == L.E_PLAY:
                    hand[p] -= int(spec_play_len(s.values, row[3]))
                elif t == L.E_OUT:
                    hand[p] = 0
            assert (hand == b.seats[0, :, L.S_HAND]).all()


def spec_play_len(values, k, _cache={}):
    from balance.rulesets.elite import rules
    key = values["six_j_adjacent"]
    if key not in _cache:
        _cache[key] = rules.play_table(values)[0]
    return _cache[key][k, rules.T_LEN]


def test_simulate_tables_and_summary():
    r = balance.simulate("elite", games=2000, seed=2, players=4, policies=["greedy"],
                         params={"version": 2, "teams": True}, progress=False)
    sm = r.summary
    assert {"score", "points_per_kill", "teams", "judgment_self_kill_share"} <= set(sm)
    assert sm["teams"]["seats 0+2"]["wins"] + sm["teams"]["seats 1+3"]["wins"] + \
        sm["teams"]["draws"]["count"] == 2000
    assert 7 <= sm["points_per_kill"] <= 10
    roles = r.by_role()
    assert len(roles) == 4 and set(roles.index) == set(balance.ruleset("elite").role_names(
        r.setup.values).values())
    assert len(r.cards) == 36
    # with teams, both seats of the winning team count as won (not only its lowest seat)
    assert (r.seats["won"] == (r.seats["team"] == r.games["team_winner"].repeat(4).values)).all()
    decided = r.games["team_winner"].to_numpy() >= 0
    assert (r.seats.groupby("game")["won"].sum().to_numpy()[decided] == 2).all()
    r1 = balance.simulate("elite", games=500, seed=2, players=2, policies=["random"],
                          params={"version": 1}, progress=False)
    assert "revives_per_game" in r1.summary
    bench = balance.ruleset("elite").bench
    assert {b["params"]["version"] for b in bench} == {1, 2, 3}
