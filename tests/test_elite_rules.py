"""Magic Elite 魔法精英: rulebook scenarios, each set up as an exact position.

Rules cited: docs/rules/elite.md (the contract) and docs/rules/seeds/elite.zh.txt.
Positions are built with :class:`balance.rulesets.elite.scenario.Table`;
seats with the ``script`` policy play the scripted rows exactly (a row that
does not match a legal option counts as a script error).
"""
import numpy as np
import pytest

from balance.core.setup import setup
from balance.core.play import play_range
from balance.core.engine import contract
from balance.core.errors import BalanceError
from balance.rulesets.elite import SPEC, rules
from balance.rulesets.elite import layout as L
from balance.rulesets.elite.scenario import Table

FILLER = ["C2", "C3", "C6", "CJ", "CQ", "CK"]


def table(players=2, version=1, ids=("S7", "H7"), policies="script", **params):
    t = Table(players=players, params={"version": version, **params}, policies=policies)
    for p, i in enumerate(ids):
        t.identity(p, *(i if isinstance(i, tuple) else (i,)))
    return t


def ev(t, etype):
    e = t.events()
    return e[e[:, 0] == etype]


def od_values(t):
    return [int(x) for x in ev(t, L.E_OD)[:, 3]]


# --- general rules ---------------------------------------------------------------
def test_options_count_the_choices_at_each_decision():
    """The ``options`` column (issue 19): the options listed at each decision,
    summed. Seat 0's turn: runs D6 and S2, each at seat 1 (2); seat 1's
    response: S3 or H2 (2; killers, so no frame)."""
    t = table()
    t.arrange({0: ["D6", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "S3"))
    before = int(t.Z[L.Z_OPTS])
    t.turn(0)
    assert t.script_errors() == 0
    assert int(t.Z[L.Z_OPTS]) - before == 4


def test_od_negative_defender_loses_difference():
    """General 6(3): OD < 0, the defender loses |OD|."""
    t = table()
    t.arrange({0: ["D6", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "S3"))
    t.turn(0)
    assert od_values(t) == [1 - 6]
    assert t.hp(1) == 7 - 5 and t.hp(0) == 7
    assert t.script_errors() == 0 and t.check() == 0


def test_od_zero_ends_and_response_heal_only_offsets():
    """General 6(2): OD = 0 ends the exchange; heal in a response offsets
    the incoming damage (OD = damage + heal - incoming) and heals nothing."""
    t = table()
    t.arrange({0: ["D6", "S2"], 1: ["H6", "S3"]}, deck=FILLER)
    t.identity(1, "H7", hp=5)
    t.script((0, "D6", 1), (1, "H6"))
    t.turn(0)
    assert od_values(t) == [0]
    assert t.hp(1) == 5 and t.hp(0) == 7
    assert len(ev(t, L.E_DAMAGE)) == 0


def test_od_chain_bounces_twice():
    """General 6(1): OD > 0 goes back to the sender, who responds the same
    way: 6 -> (J: OD 5 back) -> (Q: OD 7 back) -> (2: OD -6, loses 6)."""
    t = table()
    t.arrange({0: ["D6", "DQ"], 1: ["DJ", "S2"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "DJ"), (0, "DQ"), (1, "S2"))
    t.turn(0)
    assert od_values(t) == [11 - 6, 12 - 5, 1 - 7]
    assert t.hp(0) == 7 and t.hp(1) == 1
    assert t.script_errors() == 0 and t.check() == 0


def test_chain_cap_hits_current_defender():
    """Contract: at max_exchange responses the pending damage hits the defender."""
    t = table(max_exchange=1)
    t.arrange({0: ["D6", "S2"], 1: ["DJ", "S3"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "DJ"))
    t.turn(0)
    assert od_values(t) == [5]
    assert len(ev(t, L.E_CAP)) == 1
    assert t.hp(0) == 7 - 5 and t.hp(1) == 7


@pytest.mark.parametrize("keep,ods,hp0", [(True, [1, 0], 7), (False, [0], 7)])
def test_four_is_earth_king_shield(keep, ods, hp0):
    """General 5(1): a response with a 4 makes the incoming damage 0; the 4
    keeps its suit value (specials_keep_suit_value), so ♠4 bounces 1."""
    t = table(specials_keep_suit_value=keep)
    t.arrange({0: ["DK", "S3"], 1: ["S4", "S2"]}, deck=FILLER)
    t.script((0, "DK", 1), (1, "S4"), (0, "S3"))
    t.turn(0)
    assert od_values(t) == ods
    assert t.hp(1) == 7 and t.hp(0) == hp0


def test_draw_one_five_in_last_play_leaves_ten():
    """General 5(2): emptying the hand with a 5 draws refill 5 + 5 = 10."""
    t = table()
    t.arrange({0: ["D2", "S2"], 1: ["S5"]}, deck=FILLER * 2)
    t.script((0, "D2", 1), (1, "S5"))
    t.turn(0)
    assert t.hand(1) == 10
    assert t.hand(0) == 1


def test_draw_arithmetic():
    """General 5(2) ①②: refill 5 + 5 per 5 played: one 5 -> 10, two 5s ->
    15, three -> 20 (a single run holds at most one 5, see README)."""
    from balance.rulesets.elite.kernel import engine
    draws_after_play = engine(3, "cards").draws_after_play
    ip = Table(players=2).ip
    assert draws_after_play(0, 1, ip) == 10
    assert draws_after_play(0, 2, ip) == 15
    assert draws_after_play(0, 3, ip) == 20
    assert draws_after_play(3, 1, ip) == 5
    assert draws_after_play(0, 0, ip) == 5
    assert draws_after_play(2, 0, ip) == 0


def test_heal_play_heals_up_to_max_and_passes():
    """Contract: a play with no damage heals you, never above max HP."""
    t = table(ids=("S10", "H7"))
    t.identity(0, "S10", hp=4)
    t.arrange({0: ["HQ", "S2"], 1: ["S3"]}, deck=FILLER)
    t.script((0, "HQ", None))
    t.turn(0)
    assert t.hp(0) == 10
    assert len(ev(t, L.E_OD)) == 0


def test_run_rules():
    """General 4: several cards must be one suit with consecutive values;
    A-6 and J-K, 6-J only with six_j_adjacent."""
    PT, PID = rules.play_table(SPEC.space.resolve({}))
    assert PID[0, 0, 5] >= 0 and PID[0, 6, 8] >= 0
    assert PID[0, 5, 6] < 0 and PID[0, 0, 8] < 0
    PT2, PID2 = rules.play_table(SPEC.space.resolve({"six_j_adjacent": True}))
    assert PID2[0, 5, 6] >= 0 and PID2[0, 0, 8] >= 0
    # values: ♠ non-ace 1 each, ♠A ♣A ♦A 6, ♦ = value, ♥ heal = value, ♥A 5 + 1
    k = PID[3, 0, 2]
    assert PT[k, rules.T_DMG] == 6 + 2 + 3
    k = PID[1, 0, 2]
    assert (PT[k, rules.T_DMG], PT[k, rules.T_HEAL]) == (5, 1 + 2 + 3)
    k = PID[0, 6, 8]
    assert PT[k, rules.T_DMG] == 3
    assert len(rules.card_kinds()) == 36 and rules.card_kinds()[0] == "spade-A"


def test_turn_order_by_identity():
    """General 3: ♠10 > ♥10 > ♣10 > ♦10 > ♠9 > ... ; a new round wraps to the top."""
    t = table(players=4, ids=("H10", "S9", "S10", "D10"))
    order, p, wraps = [], 2, []
    for _ in range(4):
        p, w = t.next_turn(p)
        order.append(p)
        wraps.append(w)
    assert order == [0, 3, 1, 2]
    assert wraps == [False, False, False, True]
    t = table(players=4, ids=("D7", "H9", "C10", "S9"))
    seq, p = [], 2
    for _ in range(3):
        p, _ = t.next_turn(p)
        seq.append(p)
    assert seq == [3, 1, 0]


def test_exact_tie_broken_at_random_but_fixed():
    """General 3: identical identities are ordered at random (per game)."""
    firsts = set()
    for g in range(40):
        t = Table(players=2, params={"version": 1}, game=g)
        t.identity(0, "S10")
        t.identity(1, "S10")
        assert t.col(0, L.C_KEY) != t.col(1, L.C_KEY)
        firsts.add(int(t.col(0, L.C_KEY) > t.col(1, L.C_KEY)))
    assert firsts == {0, 1}


# --- v1 ---------------------------------------------------------------------------
def test_king_doubles_damage():
    """v1 10 王者: damage x2."""
    t = table(ids=("S10", "H10"))
    t.arrange({0: ["DK", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "DK", 1), (1, "S3"))
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 26
    assert od_values(t) == [2 - 26]           # the ♥10 defending is a king too
    assert t.col(1, L.C_ALIVE) == 0


def test_killer_multiplier_param():
    """v1 7 杀手: skill undetermined; killer_multiplier lets a designer try one."""
    t = table(ids=("S7", "H10"), killer_multiplier=3)
    t.arrange({0: ["D6", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "S3"))
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 18


def test_ninja_frames_own_plus_incoming():
    """v1 9 忍者: a response with an A frames (own damage + incoming) onto
    any enemy, sent by the ninja."""
    t = table(players=3, ids=("S7", "S9", "H9"))
    t.arrange({0: ["D6", "S2"], 1: ["CA", "S3"], 2: ["D6", "H2"]}, deck=FILLER)
    t.script((0, "D6", 1), (1, "CA", None, "frame", 2), (2, "D6"))
    t.turn(0)
    fr = ev(t, L.E_FRAME)
    assert len(fr) == 1 and int(fr[0, 4]) == 6 + 6 and int(fr[0, 3]) == 2
    assert od_values(t) == [6 - 12]
    dmg = ev(t, L.E_DAMAGE)
    assert int(dmg[0, 2]) == 2 and int(dmg[0, 5]) == 1      # seat 2 hit, by the ninja
    assert t.hp(2) == 9 - 6 and t.hp(1) == 9 and t.hp(0) == 7
    assert t.script_errors() == 0


def test_rogue_free_revive():
    """v1 8 恶贼: the first death revives at full HP for free."""
    t = table(ids=("S10", "S8"))
    t.arrange({0: ["DK", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "DK", 1), (1, "S3"))
    t.turn(0)
    assert t.col(1, L.C_ALIVE) == 1 and t.hp(1) == 8
    assert t.col(1, L.C_REV) == 3 and t.col(1, L.C_REVFREE) == 0
    assert len(ev(t, L.E_REVIVE)) == 1


def test_rogue_revive_with_five_attacks_after():
    """v1 8: a later revive needs a 5 at once; that 5 still draws and its
    damage attacks an enemy in a new exchange after the current one."""
    t = table(ids=("S10", "S8"))
    t.S[1, L.C_REVFREE] = 0                     # the free revive is used
    t.S[1, L.C_REV] = 3
    t.arrange({0: ["DK", "S3"], 1: ["S2", "D5"]}, deck=FILLER * 2)
    t.script((0, "DK", 1), (1, "S2"), (1, "D5", 0), (0, "S3"))
    t.turn(0)
    assert t.script_errors() == 0
    assert t.col(1, L.C_ALIVE) == 1 and t.hp(1) == 8 and t.col(1, L.C_REV) == 2
    assert t.hand(1) == 10                      # refill 5 + the 5's draw
    assert od_values(t) == [1 - 26, 2 - 5]        # the king's ♠3 counts 2
    assert t.hp(0) == 10 - 3


def test_rogue_dies_without_five():
    """v1 8: no 5 in hand at a paid revive: the rogue dies."""
    t = table(ids=("S10", "S8"))
    t.S[1, L.C_REVFREE] = 0
    t.arrange({0: ["DK", "S3"], 1: ["S2", "S3"]}, deck=FILLER)
    t.script((0, "DK", 1), (1, "S2"))
    t.turn(0)
    assert t.col(1, L.C_ALIVE) == 0
    assert len(ev(t, L.E_OUT)) == 1


# --- v2 ---------------------------------------------------------------------------
def v2(players=2, ids=(("S7",), ("H7", "H9", "C8")), **params):
    return table(players=players, version=2, ids=ids, **params)


def test_v2_next_general_full_hp_and_kill_scores():
    """v2: killing an enemy general scores its rank; the next general enters
    at full HP; 7 deals x100."""
    t = v2(ids=(("S7", "D7", "C7"), ("H9", "H10", "C8")))
    t.arrange({0: ["S2", "S3"], 1: ["S4", "S6"]}, deck=FILLER)
    t.script((0, "S2", 1), (1, "S6"))
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 100
    assert t.col(0, L.C_SCORE) == 9 and t.col(0, L.C_KILLS) == 1
    assert t.col(1, L.C_RANK) == 10 and t.hp(1) == 10 and t.max_hp(1) == 10
    assert t.col(1, L.C_LOST) == 1 and t.col(1, L.C_ALIVE) == 1


def test_v2_teammate_kill_scores_nobody():
    """v2 03/04: a kill by a teammate scores for nobody; by an enemy it scores."""
    t = v2(players=4, ids=(("S10", "D10", "C10"), ("H9", "D8", "C8"), ("H9", "S9", "C9"),
                           ("C10", "S8", "D9")), teams=True)
    t.arrange({0: ["S2", "S3"], 1: ["S6"], 2: ["S4"], 3: ["H2"]}, deck=FILLER)
    t.script((2, "S4"), (0, "S3"))
    t.exchange(0, 2, 100)               # the 4 blocks: no damage
    assert t.hp(2) == 9
    t.arrange({0: ["S2", "S3"], 1: ["S6"], 2: ["S3"], 3: ["H2"]}, deck=FILLER)
    t.script((2, "S3"))
    t.exchange(0, 2, 100)
    assert t.col(2, L.C_LOST) == 1 and t.col(0, L.C_SCORE) == 0
    t.script((1, "S6"))
    t.exchange(0, 1, 100)
    assert t.col(1, L.C_LOST) == 1 and t.col(0, L.C_SCORE) == 9


def test_v2_bilocation_damage_and_decoys():
    """v2 8 with 2 players 分身术: damage x (1 + decoys); an attack first picks
    one of the 1 + decoys at random; a decoy hit spends the attack and at 0
    decoys they reset to 4."""
    t = v2(ids=(("S10", "D7"), ("S8", "D8")))
    t.arrange({0: ["S2", "S3"], 1: ["S2", "H2"]}, deck=FILLER * 2)
    assert t.col(1, L.C_BILOC) == 1 and t.col(1, L.C_DECOYS) == 4
    t.script((1, "S2", 0), (0, "S3"))
    t.turn(1)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 1 * 5
    assert t.hp(0) == 10 - 4
    t.S[:, L.C_POL] = rules.POLICIES["greedy"]
    saw_decoy = saw_body = False
    for i in range(40):
        t.arrange({0: ["S2"], 1: ["S4", "H2"]}, deck=FILLER * 2)
        t.S[1, L.C_DECOYS] = 1
        t.exchange(0, 1, 3)
        d = ev(t, L.E_DECOY)
        if len(d):
            saw_decoy = True
            assert t.col(1, L.C_DECOYS) == 4 and t.col(1, L.C_BILOC) == 1
            assert len(ev(t, L.E_PLAY)) == 0
        else:
            saw_body = True
            assert t.col(1, L.C_DECOYS) == 1 and len(ev(t, L.E_PLAY)) >= 1
        if saw_decoy and saw_body:
            break
    assert saw_decoy and saw_body
    assert t.check() == 0


def control_table():
    # the contract's myopic greedy (hand_damage_value 0): it attacks with ♠2 rather than heal
    t = v2(players=3, ids=(("S9", "D7"), ("S8", "D8"), ("H10", "C7")), hand_damage_value=0.0)
    t.arrange({0: ["S2", "DK", "DQ", "DJ", "D6", "D3"], 1: ["S2", "H2", "S3"],
               2: ["S3", "D2", "D4", "H3", "H4", "H6"]}, deck=FILLER * 2)
    t.script((1, "S2", None, "control", 2), (2, "S3"))
    t.exchange(0, 1, 10)
    return t


def test_v2_control_moves_damage_and_binds():
    """v2 8 (3-4 players) 控制: the incoming damage moves onto another enemy B
    (sent by the attacker A); A and B must target each other for 5 rounds;
    the 8 is immune meanwhile; the first use is free."""
    t = control_table()
    assert t.script_errors() == 0
    assert od_values(t) == [1 - 10]
    dmg = ev(t, L.E_DAMAGE)
    assert int(dmg[0, 2]) == 2 and int(dmg[0, 5]) == 0     # B hit, by A
    assert t.hp(2) == 1 and t.hp(1) == 8
    for a, b in ((0, 2), (2, 0)):
        assert t.col(a, L.C_FT) == b and t.col(a, L.C_FL) == 5 and t.col(a, L.C_FB) == 1
    assert t.col(1, L.C_IMM) == 5
    assert t.col(1, L.C_USES) == 3 and t.col(1, L.C_FREE) == 0
    # the 8 is immune to damage: OD as for anyone, and its loss is void
    t.arrange({0: ["S2"], 1: ["H2", "S3"], 2: ["H3"]}, deck=FILLER * 2)
    t.script((1, "H2"))
    t.exchange(0, 1, 50)
    o = ev(t, L.E_OD)
    assert od_values(t) == [2 - 50] and int(o[0, 4]) == 50 and t.hp(1) == 8
    assert len(ev(t, L.E_IMMUNE)) == 1 and len(ev(t, L.E_DAMAGE)) == 0


def test_v2_control_infighting_lasts_five_rounds_and_kill_scores_for_eight():
    """內斗 for 5 rounds (contract, Round: from the use until A's next turn
    starts; N rounds last N of A's turn starts): control used in another
    seat's turn binds A on its next 4 turns, and the bond ends as its 5th
    starts; a kill between A and B scores for the 8; afterwards A targets
    freely."""
    t = control_table()
    t.S[:, L.C_POL] = rules.POLICIES["greedy"]
    t.identity(2, "H10", "C7", hp=10)
    targets, ends = [], []
    for turn in range(6):
        t.arrange({0: ["S2", "H2"], 1: ["H3"], 2: ["S3"]}, deck=FILLER * 2)
        t.identity(1, "S8", "D8", hp=1)            # the 8 is the weakest target
        t.S[1, L.C_IMM] = 0
        t.turn(0)
        pl = ev(t, L.E_PLAY)
        targets.append(int(pl[0, 4]))
        e = t.events()
        ends.append([int(r[3]) for r in e if r[0] == L.E_EFFECT_END and r[2] == 0])
        if ends[-1]:                               # it ends before the turn's play
            assert list(e[:, 0]).index(L.E_EFFECT_END) < list(e[:, 0]).index(L.E_PLAY)
    assert targets[:4] == [2] * 4
    assert targets[4:] == [1, 1]
    assert ends == [[], [], [], [], [2], []]        # 2: infighting
    # kill between A and B under control scores for the 8
    t = control_table()
    t.arrange({0: ["DK"], 1: ["H3"], 2: ["S3"]}, deck=FILLER * 2)
    t.script((0, "DK", 2), (2, "S3"))
    t.turn(0)
    assert t.col(2, L.C_LOST) == 1
    assert t.col(1, L.C_SCORE) == 10 and t.col(0, L.C_SCORE) == 0


def test_v2_shield_immunity_not_against_judgment():
    """v2 8 shield 护盾: immune to damage for 5 rounds, from the response that
    raises it (OD counts the incoming: 1 - 10, and the loss is void), not to
    Judgment."""
    t = v2(players=3, ids=(("S9", "D7"), ("H8", "D8"), ("C10", "C7")))
    t.arrange({0: ["SK", "S3"], 1: ["S2", "H2"], 2: ["S3"]}, deck=FILLER + ["H5"])
    t.script((1, "S2", None, "shield"))
    assert t.exchange(0, 1, 10) == 1
    assert od_values(t) == [1 - 10] and len(ev(t, L.E_IMMUNE)) == 1
    assert t.col(1, L.C_IMM) == 5 and t.hp(1) == 8
    t.judgment(0)                                  # turns ♥5: the ♥8 is hit anyway
    assert t.hp(1) == 3 and t.max_hp(1) == 3


def immune_table():
    """v2, 3 players: a 9 (seat 0), an 8 with 40 HP (seat 1), a 10 (seat 2)."""
    t = v2(players=3, ids=(("S9", "D7"), ("H8", "D8"), ("C10", "C7")))
    t.identity(1, "H8", "D8", max_hp=40)
    return t


def test_v2_immune_defender_od_negative_loses_nothing_and_ends():
    """Contract, immune defenders: OD is computed as for anyone (only a 4
    zeroes the incoming); with OD < 0 the immune 8 loses no HP and the
    exchange ends. (Before: incoming counted 0, so the ♠2 bounced 1.)"""
    t = immune_table()
    t.arrange({0: ["S3", "D2"], 1: ["S2", "DK"], 2: ["H3"]}, deck=FILLER)
    t.S[1, L.C_IMM] = 3
    t.script((1, "S2"))
    assert t.exchange(0, 1, 10) == 1
    o = ev(t, L.E_OD)
    assert od_values(t) == [1 - 10] and int(o[0, 4]) == 10      # counted in full
    assert len(ev(t, L.E_IMMUNE)) == 1 and int(ev(t, L.E_IMMUNE)[0, 3]) == 9
    assert len(ev(t, L.E_DAMAGE)) == 0 and t.hp(1) == 40 and t.hp(0) == 9
    assert t.hand(0) == 2 and t.script_errors() == 0


def test_v2_immune_defender_od_positive_bounces():
    """Contract, immune defenders: with OD > 0 the immune 8's OD (response -
    incoming, not the whole response) bounces back as usual."""
    t = immune_table()
    t.arrange({0: ["S3", "D2"], 1: ["DK", "S2"], 2: ["H3"]}, deck=FILLER)
    t.S[1, L.C_IMM] = 3
    t.script((1, "DK"), (0, "S3"))
    assert t.exchange(0, 1, 5) == 2
    assert od_values(t) == [13 - 5, 1 - 8]
    assert t.hp(0) == 9 - 7 and t.hp(1) == 40 and len(ev(t, L.E_IMMUNE)) == 0
    assert t.script_errors() == 0


def probe_between(t):
    """Seat 0 sends 9 at the 8 outside the 8's turn; it answers ♠2 (OD -8).
    True when it is immune (no HP lost). HP is restored afterwards."""
    t.arrange({0: ["S3"], 1: ["S2", "H2"], 2: ["H3"]}, deck=FILLER)
    t.script((1, "S2"))
    t.exchange(0, 1, 9)
    immune = t.hp(1) == 40
    t.S[1, L.C_HP] = 40
    return immune


def probe_own_turn(t):
    """A turn of the 8: ♦2 at seat 0, which answers ♦K (OD 11 back); the 8
    answers ♠2 (OD -10). True when it is immune in its own turn."""
    t.arrange({0: ["DK", "S3"], 1: ["D2", "S2", "H2"], 2: ["H3"]}, deck=FILLER)
    t.script((1, "D2", 0), (0, "DK"), (1, "S2"))
    t.turn(1)
    assert od_values(t) == [13 - 2, 1 - 11]
    immune = t.hp(1) == 40
    t.S[1, L.C_HP] = 40
    return immune


@pytest.mark.parametrize("own_turn", [True, False])
def test_v2_immunity_lasts_until_the_fifth_turn_start(own_turn):
    """Contract, Round: a round runs from the use until the 8's next turn
    starts; the shield's 5 rounds last 5 of its turn starts. Its last
    protected moment is just before its 5th turn after the use starts
    (between its 4th and 5th turns), whether the shield was raised in its
    own turn (a bounce of its own attack) or in another seat's exchange;
    its 5th turn is not protected. (Before, the count fell at the end of
    each of its turns, the turn of use included: a use in its own turn
    ended after its 4th turn, a use in another's after its 5th.)"""
    t = immune_table()
    if own_turn:
        t.arrange({0: ["DK", "S3"], 1: ["D2", "S2", "H2"], 2: ["H3"]}, deck=FILLER)
        t.script((1, "D2", 0), (0, "DK"), (1, "S2", None, "shield"))
        t.turn(1)
        assert od_values(t) == [13 - 2, 1 - 11]
    else:
        t.arrange({0: ["S3"], 1: ["S2", "H2"], 2: ["H3"]}, deck=FILLER)
        t.script((1, "S2", None, "shield"))
        t.exchange(0, 1, 10)
    assert t.col(1, L.C_IMM) == 5 and t.hp(1) == 40 and len(ev(t, L.E_SHIELD)) == 1
    seen = [probe_between(t)]
    for turn in range(1, 6):
        seen.append(probe_own_turn(t))
        if turn == 5:
            e = t.events()
            end = [i for i, r in enumerate(e) if r[0] == L.E_EFFECT_END]
            assert len(end) == 1 and int(e[end[0], 3]) == 1              # immunity
            assert e[end[0] - 1, 0] == L.E_TURN                          # as the turn starts
        seen.append(probe_between(t))
    #       before 1st, 1st, gap, 2nd, gap, 3rd, gap, 4th, gap, 5th turn, after
    assert seen == [True] * 9 + [False, False]
    assert t.col(1, L.C_IMM) == 0 and t.script_errors() == 0


def test_v2_judgment():
    """v2 9 天神的审判: a play with a K turns the deck's top card; every active
    general of its suit (any side) loses 5 HP and 5 max HP, permanently; a 4
    cannot block it; used in a response the incoming damage is ignored and
    the K's own value still counts."""
    t = v2(players=3, ids=(("S9", "D7"), ("H10", "D8"), ("H7", "C8")))
    t.arrange({0: ["SK", "S3"], 1: ["S4", "H4", "HQ"], 2: ["S4", "H4"]}, deck=FILLER + ["H2"])
    t.script((0, "SK", 1, "judgment"), (1, "S4"), (0, "S3"))
    t.turn(0)
    assert t.script_errors() == 0
    j = ev(t, L.E_JUDG)
    assert int(j[0, 3]) == kind_of("H2") and int(j[0, 5]) == 0b110
    assert (t.hp(1), t.max_hp(1)) == (5, 5)
    assert (t.hp(2), t.max_hp(2)) == (2, 2)        # a 4 in hand does not block it
    assert (t.hp(0), t.max_hp(0)) == (9, 9)
    # permanent: healing stops at the new max HP
    t.arrange({0: ["S3"], 1: ["HQ"], 2: ["S4"]}, deck=FILLER)
    t.identity(1, "H10", hp=2, max_hp=5)
    t.script((1, "HQ", None))
    t.turn(1)
    assert t.hp(1) == 5
    # in a response: incoming ignored, the K's value bounces
    t.arrange({0: ["SK", "S3"], 1: ["S2", "S3"], 2: ["S4"]}, deck=FILLER + ["C2"])
    t.script((0, "SK", None, "judgment"), (1, "S2"))
    t.exchange(1, 0, 20)
    assert od_values(t)[0] == 1 and t.hp(0) == 9


def kind_of(card):
    from balance.rulesets.elite.scenario import kind
    return kind(card)


def test_v2_judgment_self_kill_scores_nobody():
    """v2 1: a general killed by its own side's Judgment scores for nobody."""
    t = v2(players=2, ids=(("S9", "D7"), ("H7", "D8")))
    t.identity(0, "S9", "D7", hp=3)
    t.arrange({0: ["S3"], 1: ["S2"]}, deck=FILLER + ["S2"])
    died = t.judgment(0)
    assert died == 1
    assert t.col(0, L.C_LOST) == 1 and t.col(0, L.C_SCORE) == 0 and t.col(1, L.C_SCORE) == 0
    assert t.Z[L.Z_JSELF] == 1 and t.Z[L.Z_JKILL] == 1


def test_v2_ten_combined_skill():
    """v2 10 合体技能: a play with an A gives, from then on, one x100 play (the
    7), one free shield/control use (the 8, 3-4 players) and unlimited
    Judgment; with 2 players the 8 part is bilocation until decoys first
    reach 0."""
    t = v2(players=3, ids=(("S10", "D7"), ("H7", "D8"), ("C7", "C8")),
           specials_keep_suit_value=False)
    t.arrange({0: ["SA", "S2", "S3", "SK", "D2"], 1: ["S4", "H4", "D4"], 2: ["S4"]},
              deck=FILLER * 2)
    t.script((0, "SA", 1), (1, "S4"), (0, "S2", 1), (1, "H4"))
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 6 and t.col(0, L.C_COMB) == 1
    assert t.col(0, L.C_USES) == 1 and t.col(0, L.C_FREE) == 1
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[2, 5]) == 100
    assert t.col(0, L.C_X) == 0
    assert t.script_errors() == 0
    t.script((0, "SK", 1, "judgment"), (1, "D4"))
    t.turn(0)
    assert t.script_errors() == 0 and t.Z[L.Z_JUDG] == 1
    # two players: bilocation until the decoys first reach 0 (no reset)
    t = v2(players=2, ids=(("S10", "D7"), ("H7", "D8")), decoys=1,
           specials_keep_suit_value=False)
    t.arrange({0: ["SA", "S2"], 1: ["S4", "H4"]}, deck=FILLER * 2)
    t.script((0, "SA", 1), (1, "S4"))
    t.turn(0)
    assert t.col(0, L.C_BILOC) == 1 and t.col(0, L.C_DECOYS) == 1
    t.S[:, L.C_POL] = rules.POLICIES["greedy"]
    for _ in range(60):
        t.arrange({0: ["S2", "H2"], 1: ["S3"]}, deck=FILLER * 2)
        t.exchange(1, 0, 1)
        if t.col(0, L.C_BILOC) == 0:
            break
    assert t.col(0, L.C_BILOC) == 0 and t.col(0, L.C_DECOYS) == 0


def test_saturating_multipliers():
    """Damage is int64 saturating at 2**62; multipliers up to 10**12 never wrap."""
    t = Table(players=2)
    assert t.saturating(10**12, 10**12) == (2**62, 2 * 10**12)
    assert t.saturating(2**62, 2**62) == (2**62, 2**62)
    assert t.saturating(3, 7) == (21, 10)
    assert t.saturating(0, 10**12)[0] == 0
    t = table(ids=("S10", "H7"), king_multiplier=10**12)
    t.arrange({0: ["DK", "S2"], 1: ["S3", "H2"]}, deck=FILLER)
    t.script((0, "DK", 1), (1, "S3"))
    t.turn(0)
    assert int(ev(t, L.E_PLAY)[0, 5]) == 13 * 10**12


def test_params_validation():
    with pytest.raises(BalanceError, match="teams"):
        SPEC.check_values(SPEC.space.resolve({"teams": True, "version": 2}), 2)
    with pytest.raises(BalanceError, match="version"):
        SPEC.space.resolve({"version": 4})
    with pytest.raises(BalanceError, match="generals_per_player"):
        SPEC.check_values(SPEC.space.resolve({"version": 2, "generals_per_player": 8,
                                              "n_decks": 1}), 4)
    assert SPEC.roles(SPEC.space.resolve({"version": 1}))[8] == "8 rogue"
    assert SPEC.roles(SPEC.space.resolve({}))[8] == "8 bloodthirsty devil"     # v3 is the default


# --- the scenario table itself ---------------------------------------------------
@pytest.mark.parametrize("params", [{"version": 1}, {"version": 2, "teams": True}],
                         ids=["v1", "v2-teams"])
def test_a_dealt_table_run_to_the_end_is_the_batch_game(params):
    """Table.run plays on through the step machine (``engine.step``) the
    batch loop plays: a table dealt as game g of a seed and run from the
    batch's first seat ends with the batch's game and seat rows, in check
    mode with no broken invariant; a search choice for a seat that does
    not search is refused."""
    P = 4 if params.get("teams") else 3
    s = setup("elite", seed=5, players=P, policies=["greedy"], params=params)
    b = play_range(s, 0, 6, progress=False)
    for g in range(6):
        t = Table(players=P, params=params, policies="greedy", seed=5, game=g)
        first = int(b.games[g, L.G_FIRST])
        grow, srow, err = t.run(first)
        grow[L.G_FIRST] = first            # set by the batch's deal, not by the game loop
        assert err == 0
        assert np.array_equal(grow, b.games[g]) and np.array_equal(srow, b.seats[g]), g
    searching = Table(players=2, params={"version": 1}, policies=["search", "greedy"])
    with pytest.raises(ValueError, match="not a search policy"):
        searching.search_play(1)


# --- per-seat policy parameters ---------------------------------------------------
@pytest.mark.parametrize("version, name, v", [
    (1, "hand_damage_value", 16.0),     # greedy's scoring (policy.decide: the decider's row)
    (3, "hand_damage_value", 0.0),      # v3 greedy's scoring (policy.decide3)
    (3, "duel_first", 1.0),             # a choice in the rules code: die3 reads the dying seat's row
])
def test_float_policy_parameters_are_read_per_seat(version, name, v):
    """The float policy parameters reach the kernel one row per seat: the
    contract of policy variants (``core.engine.contract.check_seat_rows``)
    with the changed value at seat 1, per version."""
    contract.check_seat_rows(SPEC, 4, "greedy", {name: v}, 1, base={"version": version},
                             games=200)
