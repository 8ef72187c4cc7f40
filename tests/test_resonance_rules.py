"""Magic Resonance scenarios on exact positions, through the compiled
kernel (``balance.rulesets.resonance.scenario``). Contract:
docs/rules/resonance.md; the default magic table's cards are cited by id.

Cards used (default table): #1 Spark base R2 / overdraft R5 G3 B3, normal
GAIN 1, overdraft LOSE 1, use PEEK 1; #2 Dew base G2 / over R3 G5 B3, DRAW 1 /
DISCARD 1, use PEEK 1; #3 Glimmer base B2, use DRAW 1; #4 Ember base R1 G1,
normal HIT 1; #5 Vine use DISSOLVE 1.
"""
import numpy as np
import pytest

from balance.core.engine import contract
from balance.core.errors import BalanceError
from balance.rulesets.resonance import layout as L
from balance.rulesets.resonance.scenario import Table, kind
from balance.rulesets.resonance.cards import load_cards

DECK = "G+1 " * 30
MAGIC = (7, 8, 9, 10, 11, 12)


def table(players=3, policies="counter", **kw):
    t = Table(players=players, policies=policies, **kw)
    t.arrange(hands={p: "R+1 R+1 G+1 G+1 B+1 B+1" for p in range(players)}, deck=DECK,
              field=[], revealed=(1, 2), magic_deck=MAGIC, discard="", supply=40)
    return t


def test_a_resonance_below_the_base_requirement_fails():
    """Fail: some colour below the base: every participant discards 2, the
    card is discarded, nobody takes it; the field is cleared, 2 cards revealed."""
    t = table()
    t.arrange(field=[(0, "R+1"), (1, "G+2")])
    m0 = t.Z[L.Z_MDISC]
    assert t.resonate(0, slot=0, joiners=[1]) == 0
    assert [t.hand_size(p) for p in range(3)] == [4, 4, 6]
    assert t.S[0, L.C_OWN] == 0 and t.Z[L.Z_ACQ] == 0
    assert t.field() == [] and t.Z[L.Z_REV] == 7 - 1 and t.Z[L.Z_REV + 1] == 8 - 1
    assert t.Z[L.Z_MDISC] == m0 + 2            # the other revealed card and the failed one
    assert t.broken() == 0
    text = "\n".join(t.lines())
    assert "FAILS" in text and "red 1, green 2, blue 0" in text


def test_a_normal_resonance_applies_the_normal_effect_and_awards_the_card():
    """Spark: red 2 meets base R2 but not overdraft R5 G3 B3: normal, GAIN 1
    for each participant; the initiator takes the card (1 point)."""
    t = table()
    t.arrange(field=[(0, "R+2"), (1, "G+1"), (2, "B+1")])
    assert t.resonate(0, slot=0, joiners=[2]) == 1
    assert [t.markers(p) for p in range(3)] == [1, 0, 1]
    assert t.Z[L.Z_SUPPLY] == 38
    assert t.S[0, L.C_OWN] == 1 and t.S[0, L.C_MPTS] == 1 and t.S[0, L.C_MN] == 1
    assert t.broken() == 0


def test_an_overdraft_resonance_applies_the_overdraft_effect():
    """Spark with R5 G3 B3 on the field: overdraft, LOSE 1 each (never below 0)."""
    t = table()
    t.arrange(markers={0: 2, 1: 0}, field=[(0, "R+2"), (1, "R+2"), (2, "R+1"), (0, "G+2"),
                                            (1, "G+1"), (2, "B+2"), (0, "B+1")])
    assert t.resonate(0, slot=0, joiners=[1]) == 2
    assert t.markers(0) == 1 and t.markers(1) == 0
    assert t.S[0, L.C_OWN] == 1 and t.S[0, L.C_OVER] == 1
    assert t.broken() == 0


def test_negative_runes_subtract_and_a_zero_requirement_can_fail():
    """Values add and negatives subtract: B+2 B-1 is blue 1 < Glimmer's B2;
    G+2 R-1 gives red -1 below Dew's red requirement 0: both fail."""
    t = table()
    t.arrange(revealed=(3, 2), field=[(0, "B+2"), (1, "B-1")])
    assert t.resonate(0, slot=0, joiners=[]) == 0
    t = table()
    t.arrange(revealed=(2, 3), field=[(0, "G+2"), (1, "R-1")])
    assert t.resonate(0, slot=0, joiners=[]) == 0
    t = table()
    t.arrange(revealed=(2, 3), field=[(0, "G+2"), (1, "R-1"), (2, "R+1")])
    assert t.resonate(0, slot=0, joiners=[]) == 1


def test_dissolve_removes_a_field_rune_or_is_discarded_to_draw():
    t = table()
    t.arrange(hands={0: "D R+1"}, deck="B+2 G+1", field=[(1, "G-2"), (2, "R+1")])
    t.dissolve(0, slot=0)                       # remove P1's G-2
    assert t.field() == [(2, "R+1")] and t.hand(0) == ["R+1"]
    assert t.Z[L.Z_DISC + kind("G-2")] == 1 and t.Z[L.Z_DISC + L.DISSOLVE] == 1
    t.arrange(hands={0: "D R+1"})
    t.dissolve(0)                               # redraw: the top card B+2
    assert sorted(t.hand(0)) == ["B+2", "R+1"]
    assert t.broken() == 0


def test_random_redraws_with_a_dissolve_only_when_forced():
    """random uses dissolves only when its hand holds no rune to place."""
    t = table(policies="random")
    t.arrange(hands={0: "D D"}, deck="D R+2 B+1")      # draws D: only dissolves
    t.turn(0)
    ev = t.events()
    assert (ev[:, 0] == L.E_REDRAW).sum() == 1 and (ev[:, 0] == L.E_PLACE).sum() == 1
    t.arrange(hands={0: "D R+1"}, deck="G+1 R+2 B+1", owned={0: [3]})   # a DRAW use card
    t.lines()
    t.turn(0)
    ev = t.events()
    assert (ev[:, 0] == L.E_REDRAW).sum() == 0 and (ev[:, 0] == L.E_USE).sum() == 0


@pytest.mark.parametrize("card,field,outcome,effect", [
    (1, [(0, "R+2")], 1, "GAIN"),
    (1, [(0, "R+2"), (0, "R+2"), (0, "R+1"), (1, "G+2"), (1, "G+1"), (2, "B+2"), (2, "B+1")],
     2, "LOSE"),
    (2, [(0, "G+2")], 1, "DRAW"),
    (2, [(0, "G+2"), (0, "G+2"), (0, "G+1"), (1, "R+2"), (1, "R+1"), (2, "B+2"), (2, "B+1")],
     2, "DISCARD"),
])
def test_each_effect_applies_to_every_participant(card, field, outcome, effect):
    t = table()
    t.arrange(revealed=(card, 5), field=field, markers={0: 1, 1: 1})
    before = [t.hand_size(p) for p in range(3)], [t.markers(p) for p in range(3)]
    assert t.resonate(0, slot=0, joiners=[1]) == outcome
    hands = [t.hand_size(p) for p in range(3)]
    marks = [t.markers(p) for p in range(3)]
    delta = {"GAIN": (0, 1), "LOSE": (0, -1), "DRAW": (1, 0), "DISCARD": (-1, 0)}[effect]
    for p in (0, 1):
        assert hands[p] - before[0][p] == delta[0] and marks[p] - before[1][p] == delta[1]
    assert hands[2] == before[0][2] and marks[2] == before[1][2]       # did not join
    assert t.broken() == 0


def test_hit_makes_every_player_who_did_not_join_discard_but_not_out_players():
    """Ember normal HIT 1: the seats still in that did not join discard 1;
    an out seat is untouched (and is never asked to join)."""
    t = table(players=4)
    t.arrange(revealed=(4, 5), field=[(0, "R+1"), (1, "G+1")], hands={3: ""})
    t.end()                                          # seat 3 is out
    assert t.S[3, L.C_IN] == 0
    assert t.resonate(0, slot=0, joiners=None) >= 0
    joins = t.events(etype=L.E_JOIN)
    assert 3 not in joins[:, 2]
    t2 = table(players=4)
    t2.arrange(revealed=(4, 5), field=[(0, "R+1"), (1, "G+1")], hands={3: ""})
    t2.end()
    assert t2.resonate(0, slot=0, joiners=[1]) == 1
    assert [t2.hand_size(p) for p in range(4)] == [6, 6, 5, 0]
    assert t2.broken() == 0


def test_use_effects_peek_dissolve_and_draw():
    t = table()
    t.arrange(field=[(1, "G+2"), (2, "B-1")])
    t.use(0, 1)                                      # Spark: PEEK 1
    assert sum((t.F[L.F_KNOW, i] >> 0) & 1 for i in range(2)) == 1
    assert t.S[0, L.C_USED] == 1
    t = table(policies="random")
    t.arrange(field=[(1, "G+2")])
    t.use(0, 5)                                      # Vine: DISSOLVE 1
    assert t.field() == [] and t.Z[L.Z_DISC + kind("G+2")] == 1
    t.use(0, 3)                                      # Glimmer: DRAW 1
    assert t.hand_size(0) == 7
    assert t.S[0, L.C_USES] == 2 and t.broken() == 0


def test_counter_spends_its_draw_card_and_removes_a_known_negative_rune():
    t = table(players=3)
    t.arrange(owned={0: [3, 5]}, field=[(1, "R-2")], revealed=(1, 1))
    t.know(0, 0)
    t.turn(0)
    uses = t.events(etype=L.E_USE)
    assert sorted(uses[:, 3]) == [2, 4]              # Glimmer DRAW and Vine DISSOLVE
    assert (t.events(etype=L.E_DISSOLVE)[:, 4] == kind("R-2")).all()


def test_end_when_only_two_players_hold_cards_after_the_resolution():
    t = table(players=3)
    t.arrange(hands={2: "B+1"}, field=[(0, "R+1")])
    assert t.resonate(0, slot=0, joiners=[2]) == 0   # fails: P2 discards its last card
    assert t.end() == L.END_PLAYERS and t.S[2, L.C_IN] == 0 and t.S[2, L.C_OUT] >= 0


def test_end_on_total_magic_and_on_one_players_magic_after_the_award():
    t = table(players=4)
    t.arrange(owned={1: [9, 10], 2: [11], 3: [12]}, field=[(0, "R+2")])
    assert t.end() == -1
    assert t.resonate(0, slot=0, joiners=[0]) == 1
    assert t.markers(0) == 1                          # effect applied, then the end
    assert t.end() == L.END_TOTAL
    t = table(players=4)
    t.arrange(owned={0: [9, 10]}, field=[(0, "R+2")])
    assert t.resonate(0, slot=0, joiners=[]) == 1
    assert t.end() == L.END_PLAYER


def test_end_when_a_draw_or_a_reveal_finds_its_deck_empty():
    t = table()
    t.arrange(deck="")
    assert t.turn(0) == L.END_RUNES
    assert (t.events(etype=L.E_PLACE)).shape[0] == 0        # the game ended after the draw
    t = table()
    t.arrange(magic_deck=(7,), field=[(0, "R+2")])
    assert t.resonate(0, slot=0, joiners=[]) == 1
    assert t.end() == L.END_MAGIC and t.S[0, L.C_MN] == 1


def test_turn_cap_is_a_draw_and_out_players_take_no_turns():
    t = table(players=4, params={"max_turns": 6})
    t.arrange(hands={1: ""}, revealed=(18, 17))
    t.end()
    assert t.play(0) == L.END_CAP
    assert t.grow[0] == -1 and t.srow[:, L.SEAT_COLUMNS.index("won")].sum() == 0
    turns = t.events(etype=L.E_TURN)
    assert 1 not in turns[:, 2] and len(turns) == 6
    assert t.errors == 0


def test_score_ties_go_to_magic_points_then_are_shared():
    won = L.SEAT_COLUMNS.index("won")
    t = table(players=3)
    t.arrange(hands={0: "R+1", 1: "R+1", 2: "R+1 R+1"}, markers={0: 1, 1: 1, 2: 0},
              deck="")
    assert t.play(0) == L.END_RUNES
    # scores 2, 2, 2 (P0 drew nothing), magic points 0: shared by all three
    assert t.grow[0] == -1 and list(t.srow[:, won]) == [1, 1, 1]
    t = table(players=3)
    t.arrange(hands={0: "R+1", 1: "R+1 R+1", 2: "R+1"}, owned={0: [1]}, deck="")
    assert t.play(0) == L.END_RUNES       # 1 + 1 pt = 2 vs 2 vs 1: P0 has magic points
    assert t.grow[0] == 0 and list(t.srow[:, won]) == [1, 0, 0]


# --- the magic-card table ---------------------------------------------------------
def test_the_default_table_loads_and_a_toml_copy_gives_the_same_arrays(tmp_path):
    d = load_cards()
    assert d.source == "default" and d.arrays[0].shape == (18, L.NM)
    assert list(d.arrays[0][0, :7]) == [1, 2, 0, 0, 5, 3, 3]
    lines = ["[[card]]\n" + "\n".join(f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}"
                                        for k, v in r.items())
             for r in d.rows.to_dict("records")]
    f = tmp_path / "t.toml"
    f.write_text("\n\n".join(lines), encoding="utf-8")
    t = load_cards(f)
    np.testing.assert_array_equal(t.arrays[0], d.arrays[0])
    assert t.source == str(f) and t.digest != d.digest


@pytest.mark.parametrize("edit,message", [
    (lambda df: df.drop(columns=["over_g"]), "missing column.*over_g"),
    (lambda df: df.assign(normal=df["normal"].where(df.index != 4, "FREEZE 1")),
     "row 5.*column normal.*FREEZE 1.*GAIN n"),
    (lambda df: df.assign(base_b=df["base_b"].where(df.index != 2, "-1")),
     "row 3.*column base_b.*below 0"),
    (lambda df: df.assign(over_r=df["over_r"].where(df.index != 0, "1")),
     "row 1.*column over_r.*below the base requirement 2"),
    (lambda df: df.iloc[:17], "17 magic cards, the game has 18"),
    (lambda df: df.assign(use=df["use"].where(df.index != 6, "STEAL 1")),
     "row 7.*column use.*PEEK n"),
    (lambda df: df.assign(pts=df["pts"].where(df.index != 1, "1.5")),
     r"row 2.*column pts.*'1.5' is not a whole number \(allowed: a whole number >= 0\)"),
])
def test_a_bad_table_is_one_line_naming_row_and_column(tmp_path, edit, message):
    import pandas as pd
    df = pd.read_csv(load_cards.__globals__["DEFAULT"], dtype=str, keep_default_na=False)
    f = tmp_path / "bad.csv"
    edit(df).to_csv(f, index=False)
    with pytest.raises(BalanceError, match=message) as e:
        load_cards(f)
    assert "\n" not in str(e.value)


def test_a_bad_table_is_refused_by_the_cli_before_any_game(tmp_path):
    from click.testing import CliRunner
    from balance.cli import cli
    f = tmp_path / "bad.csv"
    f.write_text("id,name\n1,x\n")
    r = CliRunner().invoke(cli, ["run", "resonance", "--cards", str(f), "--games", "10",
                                 "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "missing column" in r.output + (r.stderr or "")
    assert not (tmp_path / "x").exists()


def test_a_designers_table_changes_the_games_and_is_recorded(tmp_path):
    import balance
    import pandas as pd
    from balance.core.setup import use_data
    df = pd.read_csv(load_cards.__globals__["DEFAULT"], dtype=str, keep_default_na=False)
    f = tmp_path / "easy.csv"
    df.assign(base_r="0", base_g="0", base_b="0").to_csv(f, index=False)
    base = balance.simulate("resonance", games=300, seed=3, players=4, progress=False)
    try:
        use_data("resonance", cards=str(f))
        easy = balance.simulate("resonance", games=300, seed=3, players=4, progress=False)
    finally:
        use_data("resonance", cards=None)
    assert easy.summary["data"]["cards"]["source"] == str(f)
    assert easy.summary["resonance_success_rate"] > base.summary["resonance_success_rate"]


def test_float_policy_parameters_are_read_per_seat():
    """The kernel reads seat p's float policy parameters from row p: the
    contract of policy variants (``core.engine.contract.check_seat_rows``)
    with a bolder start_threshold at seat 2."""
    from balance.rulesets.resonance import SPEC
    contract.check_seat_rows(SPEC, 4, "counter", {"start_threshold": 0.2}, 2)
