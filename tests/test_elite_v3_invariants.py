"""Magic Elite v3 and card bans: invariants over many games, a duel
replayed, summary figures, forbid's fallback. Determinism, replay and bans
in every version: tests/test_ruleset_contract.py."""
import numpy as np
import pytest

import balance
from balance.core import batch
from balance.core.setup import setup
from balance.core.play import play_range
from balance.rulesets.elite import layout as L

CONFIGS = [
    (2, ["random"], {"version": 3}),
    (3, ["greedy", "random", "greedy"], {"version": 3}),
    (4, ["greedy"], {"version": 3}),
    (4, ["random"], {"version": 3, "shop": False, "start_diamonds": 100}),
    (4, ["greedy", "random"] * 2,
     {"version": 3, "reflect_multiplier": 10**12, "rampage_multiplier": 10**12,
      "kingkong_multiplier": 10**12, "dragon_multiplier": 10**12, "start_diamonds": 50,
      "max_turns": 300}),
    (3, ["random"], {"version": 3, "duel_first": 0.5, "max_duel_plays": 5,
                     "glutton_mines": 3, "bloodthirst_uses": 10}),
]


@pytest.mark.parametrize("players,policies,params", CONFIGS)
def test_v3_invariants_check_mode(players, policies, params):
    """Cards conserved across zones, hand counts and rampage marks
    consistent, HP in (0, max HP] in play, no duel left waiting between
    turns (kernel check mode, after every turn); every game ends; diamonds
    never negative unless from a duel penalty; deaths add up by cause."""
    s = setup("elite", seed=13, players=players, policies=policies, params=params)
    n = 1500
    b = play_range(s, 0, n, check=True, progress=False)
    assert int(b.errors.sum()) == 0
    g, st = b.games, b.seats
    maxt = s.values["max_turns"]
    assert (g[:, L.G_TURNS] <= maxt).all() and (g[:, L.G_TURNS] >= 1).all()
    last = g[:, L.G_END] == L.END_LAST
    assert (g[last, L.G_WINNER] >= 0).all()
    assert (st[:, :, L.S_HP] <= st[:, :, L.S_MAXHP]).all() and (st[:, :, L.S_HP] >= 0).all()
    assert (st[:, :, L.S_DEALT] >= 0).all() and (st[:, :, L.S_DEALT] <= 2**62).all()
    pen = s.values["duel_penalty"]
    assert (st[:, :, L.S_DIAM] + pen * st[:, :, L.S_DUELL] >= 0).all()
    # deaths: seat totals = game totals by cause; every duel kills one
    causes = g[:, L.G_D_EXCH:L.G_D_DUEL + 1].sum(axis=1)
    assert (st[:, :, L.S_DEATHS].sum(axis=1) == causes).all()
    assert (g[:, L.G_D_DUEL] == g[:, L.G_DUELS]).all()
    assert (st[:, :, L.S_DUELW].sum(axis=1) == g[:, L.G_DUELS]).all()
    assert (st[:, :, L.S_STORMU].sum(axis=1) == g[:, L.G_STORMS]).all()
    # winners: every seat of the winning side (zombies included) is marked won
    won = st[:, :, L.S_TEAMWON].sum(axis=1)
    assert (won[last] >= 1).all()
    assert (st[:, :, L.S_ZOMBIE] <= 1).all()
    assert set(np.unique(st[:, :, L.S_ROLE])) <= {7, 8, 9, 10}


def test_v3_duel_game_replays_and_narrates_the_duel():
    """A game with a duel replays to its batch row and its narration tells
    the duel (the contract test replays fixed game numbers, which need not
    hold a duel)."""
    s = setup("elite", seed=3, players=4, policies=["greedy", "random"] * 2,
                     params={"version": 3})
    b = play_range(s, 0, 300, progress=False)
    duel_game = int(np.argmax(b.games[:, L.G_DUELS] > 0))
    assert b.games[duel_game, L.G_DUELS] > 0
    spec = balance.ruleset("elite")
    one, ev = batch.trace(spec, s.values, 3, duel_game, 4, s.policy_ids)
    for f in ("games", "seats", "masks"):
        np.testing.assert_array_equal(getattr(one, f)[0], getattr(b, f)[duel_game], err_msg=f)
    lines = spec.format_trace(ev, s.values, 4, s.policies)
    assert lines[-1].startswith("==") and any("duel" in x for x in lines)


def test_v3_summary_and_default_version():
    r = balance.simulate("elite", games=1500, seed=2, players=4, policies=["greedy"],
                         progress=False)
    assert r.setup.values["version"] == 3
    sm = r.summary
    assert set(sm["win_rate_by_character"]) == {"7 glutton", "8 bloodthirsty devil",
                                                "9 rampage", "10 king kong"}
    for v in sm["win_rate_by_character"].values():
        assert v["ci_low"] <= v["win_rate"] <= v["ci_high"]
    assert {"reflect shield (7)", "rampage shield (9)", "devouring shield (10)",
            "freezing shield (8)", "bloodthirst (8)"} <= set(sm["shields_and_skills"])
    assert set(sm["deaths_per_game"]) == {"exchange", "reflect", "bloodthirst", "mine", "duel"}
    assert {"per_game", "won_by_character"} <= set(sm["duels"])
    assert {"mean", "median"} <= set(sm["diamonds_at_end"])
    assert {"leopard", "dragon", "birds", "medical_kit"} <= set(sm["shop_per_game"])
    bench = balance.ruleset("elite").bench
    assert {"label": "elite v3 4p greedy", "players": 4, "policies": ["greedy"],
            "params": {"version": 3}} in [{k: v for k, v in b.items() if k != "games"}
                                          for b in bench]
    assert balance.ruleset("elite").headline[0] == "reflect_multiplier"


# --- card bans (all versions) -----------------------------------------------------------
# Removed kinds never drawn nor played, forbidden ones still drawn, and a
# replay with a ban: tests/test_ruleset_contract.py, in every version.
@pytest.mark.parametrize("version", [1, 3])
def test_forbid_never_chosen_unless_every_option_holds_it(version):
    """Ban code 2: a policy never chooses a play holding the kind; when every
    option holds one, the decision falls back to the unbanned options."""
    from balance.rulesets.elite.scenario import Table
    t = Table(players=2, params={"version": version, "hand_damage_value": 0.0}, policies="greedy",
              ban={"diamond-K": "forbid"})
    t.identity(0, "S9")
    t.identity(1, "H9")
    t.arrange({0: ["DK", "S2"], 1: ["C3", "C2"]}, deck=["SJ", "SQ"])
    t.turn(0)
    p = t.events()[t.events()[:, 0] == L.E_PLAY]
    assert int(p[0, 3]) == t.play("S2")                     # ♦K (13) would score more
    t.arrange({0: ["DK"], 1: ["C3", "C2"]}, deck=["SJ", "SQ"])
    t.turn(0)
    p = t.events()[t.events()[:, 0] == L.E_PLAY]
    assert int(p[0, 3]) == t.play("DK")                     # fallback: the only option
    no = Table(players=2, params={"version": version, "hand_damage_value": 0.0}, policies="greedy")
    no.identity(0, "S9")
    no.identity(1, "H9")
    no.arrange({0: ["DK", "S2"], 1: ["C3", "C2"]}, deck=["SJ", "SQ"])
    no.turn(0)
    p = no.events()[no.events()[:, 0] == L.E_PLAY]
    assert int(p[0, 3]) == no.play("DK")
    assert balance.ruleset("elite").ban_modes == ("remove", "forbid")


# --- v1/v2 unchanged by v3 and the bans -------------------------------------------------
# greedy with hand_damage_value 0, its default until issue 37 (the pins are of that greedy)
_H0 = {"hand_damage_value": 0.0}
V12_PINNED = [
    (2, ["random"], {"version": 1}, "8c340a690395f851"),
    (4, ["greedy"], {"version": 1, **_H0}, "8ed2495ebd1f2581"),
    (4, ["greedy"], {"version": 2, "teams": True, **_H0}, "be40e38ba543f228"),
    (3, ["greedy", "random", "greedy"], {"version": 2, **_H0}, "f7f89e64f29b4b47"),
]


@pytest.mark.parametrize("players,policies,params,digest", V12_PINNED)
def test_v1_v2_results_identical_to_before_v3(players, policies, params, digest):
    """Games 0-399 of seed 7 hash to pinned values (the v1/v2 columns, masks
    and card counts): v3 and the bans leave v1/v2 unchanged. Pinned before
    v3 (commit 407ac10); re-pinned by each rules fix that changes v1/v2
    games (issue 12): the immune defender's OD (v2); durations counted at
    the target's turn starts (v2); greedy's ties drawn at random (v1, v2).
    v1 random play never changed."""
    import hashlib
    s = setup("elite", seed=7, players=players, policies=policies, params=params)
    b = play_range(s, 0, 400, progress=False)
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(b.games[:, :L.NG_V12]).tobytes())
    h.update(np.ascontiguousarray(b.seats[:, :, :L.NSEAT_V12]).tobytes())
    h.update(np.ascontiguousarray(b.masks).tobytes())
    h.update(np.ascontiguousarray(b.counts).tobytes())
    assert h.hexdigest()[:16] == digest
    # the v3 columns stay zero (``responses``, after them, is for all versions)
    assert not b.games[:, L.NG_V12:L.G_RESP].any() and not b.seats[:, :, L.NSEAT_V12:].any()
