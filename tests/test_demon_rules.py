"""Demon Faction rule scenarios (contract: docs/rules/demon.md), each an
exact position run one step through the compiled kernel
(``balance.rulesets.demon.scenario``). Rows are numbered 1-3 as in the
rules; seat 0 moves, seat 1 is the opponent, unless said otherwise."""
import pytest

from balance.rulesets.demon.scenario import (Table, attack, big, choice, end, face, heart,
                                             no_attack, option, pair, place, slot, small)

ROWCARD = {1: "D2", 2: "S2", 3: "C2"}


def table(**kw):
    return Table(**kw)


# --- attacks -------------------------------------------------------------------------
@pytest.mark.parametrize("row,occupied,expected", [
    (1, {1}, [1]), (1, {1, 2, 3}, [1]), (1, {2}, [2]), (1, {2, 3}, [2]), (1, {3}, [3]),
    (1, set(), [0]),
    (2, {1, 2}, [1, 2]), (2, {1, 2, 3}, [1, 2]), (2, {1}, [1]), (2, {1, 3}, [1]), (2, {2}, [2]),
    (2, {2, 3}, [2]), (2, {3}, []), (2, set(), [0]),
    (3, {1}, [1]), (3, {1, 2}, [1]), (3, {3}, [3]), (3, {2, 3}, [3]), (3, {1, 3}, [1]),
    (3, {2}, []), (3, set(), [0]),
])
def test_attack_table(row, occupied, expected):
    """Attacks, the table: which opposing rows (0 = the player) a row may target."""
    t = table()
    for r in occupied:
        t.row(1, r, ROWCARD[r])
    assert t.targets(0, row) == expected


def test_a_big_joker_alone_occupies_a_row():
    """A row is occupied if it holds a normal card or a big joker."""
    t = table().big(1, 1)
    assert t.targets(0, 2) == [1]
    assert t.targets(0, 3) == [1]


def test_normal_attack_destroys_the_lowest_card_with_the_passive():
    t = table()
    t.row(0, 1, "D8")
    t.row(1, 1, "D3", "D4")
    t.script(attack(1, 1))
    t.attack(0)
    assert t.hp(1) == 50 - 3 - 1            # value + demon passive
    assert t.row_cards(1, 1) == ["♦4"] and "♦3" in t.graveyard(1)
    assert t.stat(0, "attacks_row1") == 1 and t.stat(0, "destroyed_row1") == 1
    assert t.stat(0, "hits_row1") == 1 and t.stat(0, "direct_hits_row1") == 0
    assert t.stat(1, "attack_taken") == 3 and t.stat(1, "passive_taken") == 1
    assert t.script_errors() == 0


def test_row1_on_row3_doubles_the_card_value_not_the_passive():
    t = table()
    t.row(0, 1, "D8")
    t.row(1, 3, "C4")
    t.script(attack(1, 3))
    t.attack(0)
    assert t.hp(1) == 50 - 2 * 4 - 1


def test_direct_attack_deals_the_row_power():
    t = table()
    t.row(0, 2, "S5", "S4")
    assert t.attack_list(0) == [(1, -1, 0), (-1, -1, 0)]
    t.script(attack(2, 0))
    t.attack(0)
    assert t.hp(1) == 41 and t.stat(0, "direct_row2") == 9
    assert t.stat(0, "direct_hits_row2") == 1 and t.stat(0, "hits_row2") == 1
    assert t.stat(1, "direct_taken") == 9 and t.stat(1, "damage_taken") == 9


@pytest.mark.parametrize("mine,theirs", [(["D8"], ["D3", "D5"]), (["D5"], ["D9"])])
def test_ties_and_weaker_rows_do_not_attack(mine, theirs):
    """A normal attack is legal only when the attacking row's power is greater."""
    t = table()
    t.row(0, 1, *mine)
    t.row(1, 1, *theirs)
    assert t.attack_list(0) == [(-1, -1, 0)]


def test_defender_chooses_between_equal_lowest_cards():
    t = table()
    t.row(0, 1, "D9")
    t.row(1, 1, "D3", "H3")
    t.script(attack(1, 1), choice("H3"))
    t.attack(0)
    assert t.row_cards(1, 1) == ["♦3"] and t.script_errors() == 0


def test_hand_discards_cost_no_passive():
    """Preparation discards go to the graveyard without the demon passive."""
    t = table(policies="greedy")
    t.hand(0, "D2", "D3", "S4", "S5", "C6", "C7", "C8")
    t.empty_deck(0)
    t.turn(0)
    assert len(t.graveyard(0)) == 54 - 7 + 2
    assert t.hp(0) == 50


# --- extra zone ---------------------------------------------------------------------
def test_pair_placement_from_an_active_extra_slot():
    t = table()
    t.slot(0, "D5", active=True)
    t.hand(0, "DA", "D4", "D2", "D3")
    lst = t.place_list(0)
    pairs = [x for x in lst if x[0] == 3]
    assert len(pairs) == 2                          # ♦A+♦4 and ♦2+♦3
    t.script(pair("DA", "D4"), end())
    t.place(0)
    assert t.row_cards(0, 1) == ["♦A", "♦4"] and t.power(0, 1) == 5
    assert t.stat(0, "pairs") == 1
    # the pair used row 1's one normal card: no single ♦ card into row 1 now
    assert not [x for x in t.place_list(0) if x[0] == 1 and x[2] == 0]


def test_pair_placement_waits_for_the_owners_next_turn():
    t = table()
    t.slot(0, "D5", active=False)
    t.hand(0, "DA", "D4")
    assert not [x for x in t.place_list(0) if x[0] == 3]


def test_slot_held_by_the_opponent_is_closed_and_own_slot_replaced():
    t = table()
    t.slot(1, "S6")
    t.slot(0, "D5")
    t.hand(0, "S7", "D8")
    slots = [x for x in t.place_list(0) if x[0] == 2]
    assert [x[1] for x in slots] == [7]             # only ♦8 (card id 7); ♠ slot closed
    t.script(slot("D8"), end())
    t.place(0)
    assert t.slot_of("D") == (0, "♦8") and "♦5" in t.graveyard(0)
    assert t.hp(0) == 49                            # the replaced card's passive


# --- J ----------------------------------------------------------------------------------
def test_j_both_sides_have_a_card():
    t = table()
    t.face(0, 1, "DJ")
    t.row(0, 1, "D3", "D6")
    t.row(1, 1, "D2", "D9")
    t.begin(0)
    assert t.hp(0) == 50 - 3 - 1 and t.hp(1) == 50 - 2 - 1
    assert t.stat(0, "j_fired") == 1 and t.stat(1, "j_fired") == 0
    assert t.stat(0, "j_taken") == 3 and t.stat(1, "j_taken") == 2
    assert t.row_cards(0, 1) == ["♦6"] and t.row_cards(1, 1) == ["♦9"]


def test_j_only_the_owner_has_a_card():
    t = table()
    t.face(0, 1, "DJ")
    t.row(0, 1, "D4")
    t.begin(0)
    assert t.hp(0) == 50 - 4 - 1 and t.hp(1) == 50 - 4


def test_j_only_the_opponent_has_a_card():
    t = table()
    t.face(0, 2, "SJ")
    t.row(1, 2, "S4", "H6")
    t.begin(0)
    assert t.hp(0) == 50 - 4 and t.hp(1) == 50 - 4 - 1
    assert t.row_cards(1, 2) == ["♥6"]


def test_j_with_no_cards_does_nothing_and_acts_from_the_next_turn():
    t = table()
    t.face(0, 1, "DJ")
    t.row(0, 3, "C4")
    t.hand(0, "CJ")
    t.begin(0)
    assert t.hp(0) == 50 and t.hp(1) == 50 and t.stat(0, "j_fired") == 0
    t.script(face("CJ"), end())
    t.place(0)                                      # placed: no effect this turn
    assert t.hp(0) == 50 and t.faces(0, 3) == ["♣J"]
    t.begin(0)                                      # the owner's next turn: it fires
    assert t.hp(0) == 50 - 5 and t.hp(1) == 50 - 4


# --- Q ----------------------------------------------------------------------------------
def test_q_option1_seed_example():
    """♦3 destroyed, ♦7 highest in the attacking row: place ♦5 from hand."""
    t = table()
    t.face(0, 1, "DQ")
    t.row(0, 1, "D7")
    t.hand(0, "D5")
    t.row(1, 1, "D3")
    t.script(attack(1, 1), option(1))
    t.attack(0)
    assert t.row_cards(0, 1) == ["♦5", "♦7"] and t.hand_cards(0) == []
    assert t.stat(0, "q_fired") == 1 and t.script_errors() == 0
    assert t.stat(0, "q_opt1") == 1 and t.stat(0, "q_opt2") == 0
    assert t.stat(0, "q_chances") == 1


def test_q_option1_needs_a_whole_number():
    """With ♦6 highest, (6 + 3) / 2 is not whole: no option 1."""
    t = table()
    t.face(0, 1, "DQ")
    t.row(0, 1, "D6")
    t.hand(0, "D5", "D4")
    t.row(1, 1, "D3")
    t.script(attack(1, 1), option(1))
    t.attack(0)
    assert t.script_errors() == 1
    assert "♦5" in t.hand_cards(0) and "♦4" in t.hand_cards(0)


def test_q_option2_contract_example():
    """Own ♠2 and opposing ♦3 gone: place a ♦1 or ♦2 (not ♦3, not a ♠)."""
    t = table()
    t.face(0, 2, "SQ")
    t.row(0, 2, "S2", "S9")
    t.row(1, 1, "D3")
    t.script(attack(2, 1), option(2, "D3", "S2", "D3", 0))
    t.attack(0)
    assert t.script_errors() == 1                   # ♦3 is not below 3
    t = table()
    t.face(0, 2, "SQ")
    t.row(0, 2, "S2", "S9")
    t.row(1, 1, "D3")
    t.script(attack(2, 1), option(2, "D3", "S2", "D2", 0))
    t.attack(0)
    assert t.script_errors() == 0
    assert t.row_cards(0, 1) == ["♦2"] and t.row_cards(0, 2) == ["♠9"]
    assert "♠2" in t.graveyard(0) and t.hp(0) == 49  # own card's passive
    assert t.check() == 0                           # ♦2 came from the deck, still 54 cards
    assert t.stat(0, "q_opt2") == 1 and t.stat(0, "q_opt1") == 0


def test_q_option2_seed_example_higher_own_card():
    """Opposing ♦3 gone, own lowest ♠4: place a ♠1-3."""
    t = table()
    t.face(0, 2, "SQ")
    t.row(0, 2, "S4", "S9")
    t.row(1, 1, "D3")
    t.hand(0, "S3")
    t.script(attack(2, 1), option(2, "D3", "S4", "S3", 1))
    t.attack(0)
    assert t.script_errors() == 0 and t.row_cards(0, 2) == ["♠3", "♠9"]


# --- K ----------------------------------------------------------------------------------
def test_k_gathers_points_from_its_row():
    t = table()
    t.face(1, 1, "DK")
    t.row(1, 1, "D2")
    t.row(0, 1, "D8")
    t.script(attack(1, 1))
    t.attack(0)
    assert int(t.S[1, 24]) == 1                     # C_KPTS of row 1


def test_k_option1_revives_the_card_of_value_points():
    t = table()
    t.face(0, 1, "DK")
    t.grave(0, "D3", "D5")
    t.points(0, 1, 3)
    t.script(option(1))
    t.begin(0)
    assert t.row_cards(0, 1) == ["♦3"] and int(t.S[0, 24]) == 0
    assert t.faces(0, 1) == ["♦K"] and t.stat(0, "k_fired") == 1
    assert t.stat(0, "k_opt1") == 1 and t.stat(0, "k_opt2") == 0 and t.stat(0, "k_chances") == 1


def test_k_option2_discards_the_k_and_the_row_may_not_attack():
    t = table()
    t.face(0, 1, "DK")
    t.row(0, 1, "D8")
    t.row(1, 1, "D2")
    t.grave(0, "D9", "D3")
    t.points(0, 1, 7)
    t.script(option(2, "D9"))
    t.begin(0)
    assert t.row_cards(0, 1) == ["♦8", "♦9"] and t.faces(0, 1) == []
    assert "♦K" in t.graveyard(0)
    assert [a for a in t.attack_list(0) if a[0] == 0] == []
    assert t.stat(0, "k_opt2") == 1 and t.stat(0, "k_opt1") == 0


# --- ♥ face cards ---------------------------------------------------------------------------
@pytest.mark.parametrize("which,left", [(0, ["♠Q"]), (1, ["♠J"]), (2, [])])
def test_heart_face_removes_one_or_both(which, left):
    t = table()
    t.face(1, 2, "SJ", "SQ")
    t.hand(0, "HK")
    t.script(heart("HK", 1, 2, which), end())
    t.place(0)
    assert t.faces(1, 2) == left and "♥K" in t.graveyard(0)


# --- jokers ------------------------------------------------------------------------------
def test_big_joker_into_an_empty_row_heals_up_to_hp():
    t = table()
    t.set_hp(0, 45)
    t.hand(0, "BIG")
    t.script(big(2), end())
    t.place(0)
    assert t.hp(0) == 50 and "big joker" in t.graveyard(0) and t.joker_row(0) == 0


def test_big_joker_effect_wins_whatever_the_sums():
    t = table()
    t.row(0, 1, "D5")
    t.big(0, 1)
    t.row(1, 1, "D2", "D6", "D9")
    assert t.attack_list(0) == [(0, 0, 1), (-1, -1, 0)]   # normal illegal: 5 < 17
    t.script(attack(1, 1, 1))
    t.attack(0)
    assert t.row_cards(1, 1) == ["♦9"] and t.hp(1) == 50 - 8 - 2
    assert t.joker_row(0) == 0 and "big joker" in t.graveyard(0)
    assert t.stat(0, "joker_effects") == 1 and t.stat(0, "joker_normal") == 0


def test_big_joker_normal_attack_keeps_the_joker():
    t = table()
    t.row(0, 1, "D9")
    t.big(0, 1)
    t.row(1, 1, "D3")
    assert t.attack_list(0) == [(0, 0, 0), (0, 0, 1), (-1, -1, 0)]
    t.script(attack(1, 1, 0))
    t.attack(0)
    assert t.hp(1) == 46 and t.joker_row(0) == 1
    assert t.stat(0, "joker_normal") == 1 and t.stat(0, "joker_effects") == 0


def test_big_joker_direct_hit():
    t = table()
    t.row(0, 3, "C4", "C5")
    t.big(0, 3)
    t.script(attack(3, 0, 1))
    t.attack(0)
    assert t.hp(1) == 50 - 9 - 10
    assert t.stat(0, "direct_hits_row3") == 1 and t.stat(0, "joker_effects") == 1


def _clash_table():
    t = table()
    t.row(0, 1, "D5")
    t.big(0, 1)
    t.row(1, 1, "D4", "D6")
    t.big(1, 1)
    t.face(1, 1, "DQ")
    return t


def test_clash_defender_yields():
    t = _clash_table()
    t.script(attack(1, 1, 1), option(1), option(0))
    t.attack(0)
    assert t.hp(1) == 50 - 10 - 4 - 1              # yield, then the effect: ♦4 goes
    assert t.joker_row(1) == 0 and t.faces(1, 1) == [] and t.joker_row(0) == 0
    assert t.row_cards(1, 1) == ["♦6"] and t.script_errors() == 0
    assert t.stat(1, "clash_yield") == 1 and t.stat(0, "clash_yield") == 0
    assert t.stat(0, "clash_lay") == 0 and t.stat(1, "clash_taken") == 10


def test_clash_attacker_yields():
    t = _clash_table()
    t.script(attack(1, 1, 1), option(0))
    t.attack(0)
    assert t.hp(0) == 40 and t.hp(1) == 50 and t.joker_row(1) == 1 and t.joker_row(0) == 0
    assert t.stat(0, "clash_yield") == 1 and t.stat(0, "hits_row1") == 0   # nothing destroyed


def test_clash_lay_down():
    t = _clash_table()
    t.hand(0, "D7", "H3", "S5")
    t.hand(1, "D2")
    t.script(attack(1, 1, 1), option(1), option(1))
    t.attack(0)
    # 5 + 7 + 3 = 15 against 10 + 2 = 12: the defender loses, then the effect
    assert t.hand_cards(0) == ["♠5"] and t.power(0, 1) == 15
    assert t.hp(1) == 50 - 10 - (2 + 4) - 2
    assert t.row_cards(1, 1) == ["♦6"] and t.joker_row(1) == 0
    assert t.stat(0, "clash_lay") == 1 and t.stat(1, "clash_lay") == 1
    assert t.stat(0, "clash_yield") == 0 and t.stat(1, "clash_yield") == 0


def test_clash_equal_totals_destroy_both_jokers():
    t = _clash_table()
    t.hand(0, "D3", "H2")
    t.script(attack(1, 1, 1), option(1), option(1))
    t.attack(0)
    assert t.hp(0) == 50 and t.hp(1) == 50
    assert t.joker_row(0) == 0 and t.joker_row(1) == 0 and t.faces(1, 1) == ["♦Q"]


def test_small_joker_on_own_turn_costs_nothing():
    t = table()
    t.row(1, 2, "S3")
    t.big(1, 2)
    t.face(1, 2, "SQ")
    t.hand(0, "SMALL")
    t.script(small(), end())
    t.place(0)
    assert t.hp(0) == 50 and t.joker_row(1) == 0 and t.faces(1, 2) == []
    assert "big joker" in t.graveyard(1) and "small joker" in t.graveyard(0)


def test_small_joker_reply_costs_five():
    t = table()
    t.row(0, 1, "D3")
    t.hand(0, "BIG")
    t.hand(1, "SMALL")
    t.script(big(1), option(1), end())
    t.place(0)
    assert t.hp(1) == 45 and t.joker_row(0) == 0 and t.stat(1, "small_replies") == 1
    assert t.stat(1, "reply_taken") == 5


def test_no_small_joker_reply_at_or_below_its_cost():
    t = table()
    t.set_hp(1, 5)
    t.row(0, 1, "D3")
    t.hand(0, "BIG")
    t.hand(1, "SMALL")
    t.script(big(1), end())
    t.place(0)
    assert t.joker_row(0) == 1 and t.hp(1) == 5 and t.script_errors() == 0


# --- the end --------------------------------------------------------------------------------
def test_stalemate_after_the_rounds_without_hp_change():
    t = table(policies="greedy")
    t.row(0, 1, "D5")
    t.row(1, 1, "D5")
    t.empty_deck(0).empty_deck(1)
    row, err = t.play(0, 10)
    assert row["end_reason"] == 2 and row["winner"] == -1 and err == 0
    assert row["turns"] == 10 + 2 * 10


def test_both_at_zero_at_once_is_a_draw():
    t = table(policies="greedy")
    t.set_hp(0, 4).set_hp(1, 3)
    t.face(0, 1, "DJ")
    t.row(0, 1, "D3")
    t.row(1, 1, "D2")
    row, err = t.play(0, 10)
    assert row["end_reason"] == 1 and row["winner"] == -1
    assert row["end_cause"] == 2                    # CAUSES: the J


# --- replay: the board after each turn -------------------------------------------------------
def _board_block(lines):
    """The last "board after turn" block of a replay, as its lines."""
    i = max(j for j, x in enumerate(lines) if x.startswith("   board after turn"))
    return lines[i:i + 10]


def test_replay_shows_the_board_after_the_turn():
    """replay: after each turn, both seats' rows (cards, power), face cards
    (active or not), the big joker's row, the extra slots with their
    holders, HP, and hand, deck and graveyard sizes."""
    t = table()
    t.row(0, 1, "D8")
    t.face(0, 1, "DQ")
    t.row(0, 3, "C2")
    t.big(0, 3)
    t.slot(0, "S6")
    t.hand(0, "CJ", "H9")
    t.row(1, 1, "D3", "D4")
    t.face(1, 1, "DK", active=False)
    t.slot(1, "C5", active=False)
    t.grave(1, "S7")
    t.hand(1, "D2")
    t.deck_top(0, "H2", "S3")
    t.script(face("CJ"), end(), attack(1, 1))
    t.turn(0)                                       # draws ♥2 ♠3, places ♣J, ♦8 takes ♦3
    assert t.script_errors() == 0
    block = _board_block(t.lines())
    assert block == [
        "   board after turn 11:",
        "   | P0: HP 50; hand 3, deck 45, graveyard 0",
        "   |   row 1 ♦: ♦8 (power 8); face cards ♦Q",
        "   |   row 2 ♠: - (power 0)",
        "   |   row 3 ♣: ♣2 (power 2); big joker; face cards ♣J (from its owner's next turn)",
        "   | P1: HP 46; hand 1, deck 48, graveyard 2",
        "   |   row 1 ♦: ♦4 (power 4); face cards ♦K (from its owner's next turn)",
        "   |   row 2 ♠: - (power 0)",
        "   |   row 3 ♣: - (power 0)",
        "   | extra slots: ♦ empty; ♠ P0 ♠6; ♣ P1 ♣5 (from its holder's next turn)"]
    assert t.hp(1) == 46 and len(t.hand_cards(0)) == 3 and len(t.graveyard(1)) == 2


def test_replay_prints_a_board_after_every_turn():
    from balance.core.play import replay_text
    lines = replay_text("demon", game=3, seed=1, policies=["greedy", "greedy"]).splitlines()
    turns = [x for x in lines if x.startswith("-- turn")]
    boards = [x for x in lines if x.startswith("   board after turn")]
    assert len(turns) == len(boards) > 3
    assert [x.split()[2] for x in turns] == [x.split()[3][:-1] for x in boards]


# --- policy variants: the float policy parameters per seat ---------------------------
def test_float_policy_parameters_are_read_per_seat():
    """``Ctx.pp`` holds one row of float policy parameters per seat and every
    choice made for seat p reads row p (``core.engine.contract.check_seat_rows``):
    a seat given ``slot_value = -10`` never takes an extra slot (greedy: a
    negative score loses to "end placement") while the other seat, with the
    default, still does; a context refuses a single row."""
    import numpy as np

    from balance.core import registry
    from balance.core.engine import contract
    from balance.rulesets.demon.state import context
    spec = registry.get("demon")
    slots = list(spec.seat_columns).index("slots")
    for p in (0, 1):
        base, _, one = contract.check_seat_rows(spec, 2, "greedy", {"slot_value": -10.0}, p)
        assert one[1][:, p, slots].sum() == 0 and one[1][:, 1 - p, slots].sum() > 0
    assert base[1][:, :, slots].sum(axis=0).min() > 0
    values = spec.space.defaults()
    ip, pp, ban = spec.kernel_arrays(values, np.zeros(spec.n_kinds(values), np.int64))
    with pytest.raises(ValueError):
        context(2, np.array([spec.policies["greedy"]] * 2), ip, pp[0], ban)
