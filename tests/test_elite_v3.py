"""Magic Elite v3 三代: rulebook scenarios, each set up as an exact position.

Rules cited: docs/rules/elite.md "v3 三代" (the contract) and
docs/rules/seeds/elite.zh.txt 四. Positions are built with
:class:`balance.rulesets.elite.scenario.Table`; seats with the ``script``
policy play the scripted rows exactly (a row that is not a legal option
counts as a script error).
"""
import numpy as np
import pytest

from balance.rulesets.elite import layout as L
from balance.rulesets.elite.scenario import Table

FILLER = ["SJ", "SQ", "SK", "CJ", "CQ", "CK"]


def table(players=2, ids=("S7", "H9"), policies="script", **params):
    t = Table(players=players, params={"version": 3, **params}, policies=policies)
    for p, i in enumerate(ids):
        t.identity(p, i)
    return t


def ev(t, etype):
    e = t.events()
    return e[e[:, 0] == etype]


def play_dmg(t):
    return [int(x) for x in ev(t, L.E_PLAY)[:, 5]]


def set_idc(t, **avail):
    """Unused identity cards for the Glutton's extension: e.g. H9=1."""
    from balance.rulesets.elite.scenario import ident
    t.Z[L.Z_IDC:L.Z_IDC + 16] = 0
    for c, n in avail.items():
        t.Z[L.Z_IDC + ident(c)] = n


# --- reflect shield ---------------------------------------------------------------------
def test_reflect_blocks_kills_and_storm_god():
    """v3 7 反射盾: a Glutton attacked for 3 plays a 4: every other player
    faces 3 x 10000 = 30,000; a player holding a 4 blocks (that 4 fires
    nothing), one without dies, and the death calls its storm god (full HP,
    order restarts from the top)."""
    t = table(players=3, ids=("S7", "S9", "H8"))
    t.arrange({0: ["S4", "C2"], 1: ["D3", "H4", "C3"], 2: ["C2", "D2"]}, deck=FILLER)
    t.script((1, "D3", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    refl = ev(t, L.E_REFLECT)
    assert len(refl) == 1 and int(refl[0, 3]) == 30_000 and int(refl[0, 2]) == 0
    blocks = ev(t, L.E_BLOCK)
    assert [int(x) for x in blocks[:, 2]] == [1]             # the 9 blocks with its 4
    assert t.col(1, L.C_H + 1 * 9 + 3) == 0                  # ♥4 spent
    dmg = ev(t, L.E_DAMAGE)
    assert int(dmg[0, 2]) == 2 and int(dmg[0, 3]) == 30_000 and int(dmg[0, 6]) == L.CA_REFLECT
    assert len(ev(t, L.E_STORM)) == 1
    assert t.hp(2) == 8 and t.col(2, L.C_STORM) == 0 and t.col(2, L.C_ALIVE) == 1
    assert t.Z[L.Z_D0 + L.CA_REFLECT] == 1
    assert t.Z[L.Z_NEXT] == 1                                 # order restarts from the top
    assert t.hp(0) > 7 and t.col(0, L.C_NIGN) == 1          # 3 <= 20 ignored, HP extended
    assert t.script_errors() == 0 and t.check() == 0


def test_reflect_at_x1_is_block_or_die():
    """v3 7 反射盾: "each must play a 4 to block or die", whatever the
    multiplier. At x1 the Glutton's reflect of 3 kills the 9 and the 10
    (9 and 10 HP, no 4): each death calls its storm god; no passive applies
    (the 10 does not halve it)."""
    t = table(players=3, ids=("S7", "S9", "S10"), reflect_multiplier=1)
    t.arrange({0: ["S4", "C2"], 1: ["D3", "C3"], 2: ["C2", "D2"]}, deck=FILLER)
    t.script((1, "D3", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    refl = ev(t, L.E_REFLECT)
    assert len(refl) == 1 and int(refl[0, 3]) == 3
    dmg = ev(t, L.E_DAMAGE)
    hit = {int(r[2]): int(r[3]) for r in dmg if int(r[6]) == L.CA_REFLECT}
    assert hit == {1: 9, 2: 10}                              # raised to each HP: both die
    assert len(ev(t, L.E_STORM)) == 2
    assert t.Z[L.Z_D0 + L.CA_REFLECT] == 2
    assert t.script_errors() == 0 and t.check() == 0



def test_greedy_scores_a_reflect_the_same_at_any_multiplier():
    """Greedy's score of a reflect (and so its choice) does not depend on
    reflect_multiplier: the reflect is block or die, so a multiplied amount
    is exactly lethal and its overkill doublings mean nothing. Played step
    by step at x10000, every position with a reflect option is scored again
    under x1 (same state)."""
    from balance.core import registry
    from balance.core.engine import contract
    from balance.rulesets.elite.kernel import engine
    K = engine(3, "kernel")
    spec = registry.get("elite")
    pols = ["greedy"] * 4
    big = contract.Table(spec, K, 4, pols, {"version": 3, "reflect_multiplier": 10_000})
    one = contract.Table(spec, K, 4, pols, {"version": 3, "reflect_multiplier": 1})
    R = big.R
    seen = 0
    for g in range(40):
        big.deal(7, g)
        while not R.done(big.s, big.c) and seen < 30:
            p = R.seat(big.s, big.c)
            refl = [c for c in big.options() if int(K.E.R.parts(np.int64(c))[2]) == L.O_REFLECT]
            if refl:
                R.copy(big.s, one.s)
                for code in refl:
                    assert R.prior(big.s, big.c, code) == R.prior(one.s, one.c, code)
                seen += 1
            big.apply(R.heuristic(big.s, big.c, big.pol[p]))
    assert seen >= 10

def test_leopard_dodge_is_not_a_death():
    """v3 shop, 闪电豹: a dodge is not a death, so it neither calls a revive
    nor ends the joint attack on the dodger (contract, Shop)."""
    t = table(players=3, ids=("S7", "S9", "H8"))
    t.arrange({0: ["C2"], 1: ["C3"], 2: ["C2"]}, deck=FILLER)
    t.S[1, L.C_LEO] = 1
    t.Z[L.Z_JOINT] = 1 + 1                          # everyone must attack seat 1
    t.hit(1, 0, 100)
    assert t.hp(1) == 9 and t.col(1, L.C_LEO) == 0 and len(ev(t, L.E_LEOPARD)) == 1
    assert t.Z[L.Z_JOINT] == 2                      # the joint attack goes on
    assert t.col(1, L.C_DEATHS) == 0 and len(ev(t, L.E_DEATH3)) == 0
    assert t.col(1, L.C_STORM) == 1 and t.Z[L.Z_STORMS] == 0
    assert sum(int(t.Z[L.Z_D0 + c]) for c in range(L.CA_DUEL + 1)) == 0


def test_reflect_all_block_restarts_order():
    """v3 7 反射盾 (3): if everybody blocks with a 4, the order restarts."""
    t = table(players=3, ids=("S7", "S9", "H8"))
    t.arrange({0: ["S4", "C2"], 1: ["D3", "H4", "C3"], 2: ["C4", "D2"]}, deck=FILLER)
    t.script((1, "D3", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    assert len(ev(t, L.E_BLOCK)) == 2 and len(ev(t, L.E_RESTART)) == 1
    assert len(ev(t, L.E_DAMAGE)) == 0
    assert t.Z[L.Z_NEXT] == 1 and t.Z[L.Z_RALLBLOCK] == 1
    assert t.script_errors() == 0 and t.check() == 0


def test_reflect_multiplier_saturates():
    """Multipliers up to 10**12 saturate at 2**62 and never wrap."""
    t = table(players=2, ids=("S7", "S9"), reflect_multiplier=10**12, dragon_multiplier=10**12,
              storm_gods=0, pouches=0)
    t.arrange({0: ["S4", "C2"], 1: ["DK", "C3"]}, deck=FILLER)
    t.identity(1, "S9")
    t.S[1, L.C_DRG] = 3                           # the 9 rides a dragon: 13 x 1000
    t.script((1, "DK", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    refl = ev(t, L.E_REFLECT)
    assert int(refl[0, 4]) == 13 * 10**12 and int(refl[0, 3]) == 2**62
    assert t.col(1, L.C_ALIVE) == 0 or t.col(1, L.C_ZMB) > 0


# --- Glutton --------------------------------------------------------------------------------
def test_glutton_ignores_20_not_21_and_extends_once():
    """v3 7 贪吃鬼 (1): damage <= 20 is ignored; the first ignore adds the
    highest unused identity card's rank to HP and max HP (once)."""
    t = table(ids=("S7", "S9"), hp_per_pip=5)
    t.arrange({0: [], 1: []}, deck=FILLER)
    set_idc(t, H9=1, C8=2)
    t.hit(0, 1, 20)
    assert t.hp(0) == 35 + 45 and t.max_hp(0) == 35 + 45       # ♥9 taken
    assert t.Z[L.Z_IDC + 9] == 0
    t.hit(0, 1, 20)
    assert t.hp(0) == 80 and t.max_hp(0) == 80                  # no second extension
    t.hit(0, 1, 21)
    assert t.hp(0) == 59
    assert t.col(0, L.C_NIGN) == 2 and t.col(0, L.C_NEXT) == 1


def test_glutton_buries_mine_once_and_mines_hurt_or_pay():
    """v3 7 (2) 地雷: buried once at its turn start; whoever draws it takes
    its value (♠♣♦) as damage from the Glutton, or gains value x 10
    diamonds (♥)."""
    t = table(ids=("S7", "S9"))
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER + ["S6"])
    t.turn_start(0)
    assert t.col(0, L.C_MINES) == 0 and t.Z[L.Z_MPOS] > 0 and len(ev(t, L.E_BURY)) == 1
    t.turn_start(0)
    assert len(ev(t, L.E_BURY)) == 1                           # only once a game
    # put the mine on the top card (♠6) and let the 9 draw it
    t.Z[L.Z_MPOS] = t.Z[L.Z_DECK]
    t.draw(1, 1)
    assert t.hp(1) == 9 - 6
    d = ev(t, L.E_DAMAGE)
    assert int(d[0, 6]) == L.CA_MINE and int(d[0, 5]) == 0      # sent by the Glutton
    # a ♥ mine pays diamonds
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER + ["HQ"])
    t.Z[L.Z_MPOS] = t.Z[L.Z_DECK]
    t.draw(1, 1)
    assert t.col(1, L.C_DIAM) == 12 * 10 and t.hp(1) == 3
    assert t.check() == 0


def test_glutton_ignores_its_own_mine_damage_sized():
    """The Glutton itself ignores a mine (<= 20)."""
    t = table(ids=("S7", "S9"))
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER + ["DK"])
    t.Z[L.Z_MOWN] = 0
    t.Z[L.Z_MPOS] = t.Z[L.Z_DECK]
    t.draw(0, 1)
    assert t.hp(0) >= 7 and len(ev(t, L.E_IGNORE)) == 1


# --- Rampage ----------------------------------------------------------------------------------
def test_rampage_marks_exactly_the_damage_cards_in_hand():
    """v3 9 暴走盾: when it plays a 4, every damage card then in its hand
    deals x 10**8; cards drawn later, heal cards and the 4 itself do not."""
    t = table(ids=("S9", "H9"), specials_keep_suit_value=False)
    t.arrange({0: ["H4", "D2", "C3", "H6"], 1: ["S4", "C4"]}, deck=FILLER + ["D6"])
    t.script((0, "H4", None, "rampage"))
    t.turn(0)
    assert t.col(0, L.C_RM + 3 * 9 + 1) == 1 and t.col(0, L.C_RM + 2 * 9 + 2) == 1
    assert t.col(0, L.C_RM + 1 * 9 + 5) == 0 and len(ev(t, L.E_RAMP)) == 1
    t.draw(0, 1)                                               # ♦6 after the 4: not marked
    t.arrange({0: ["D2", "C3", "H6", "D6"], 1: ["S4", "C4"]}, deck=FILLER)
    t.S[0, L.C_RM + 3 * 9 + 1] = 1
    t.S[0, L.C_RM + 2 * 9 + 2] = 1
    assert t.col(0, L.C_RMANY) == 1                            # set by the shield above
    t.script((0, "D2", 1), (1, "S4"), (0, "D6", 1), (1, "C4"))
    t.turn(0)
    t.turn(0)
    assert play_dmg(t) == [2 * 10**8, 0, 6, 0]
    assert t.col(0, L.C_RM + 3 * 9 + 1) == 0 and t.col(0, L.C_RM + 2 * 9 + 2) == 1
    assert t.script_errors() == 0 and t.check() == 0


def test_rampage_dragon_products_saturate():
    """Products of multipliers (rampage x dragon x King Kong) saturate."""
    t = table(ids=("S10", "H9"), rampage_multiplier=10**12, dragon_multiplier=10**12)
    t.arrange({0: ["DK"], 1: ["S4"]}, deck=FILLER)
    t.S[0, L.C_RM + 3 * 9 + 8] = 1
    t.S[0, L.C_RMANY] = 1                                      # its cards carry marks
    t.S[0, L.C_SHB] |= 4
    t.S[0, L.C_DRG] = 2
    t.script((0, "DK", 1), (1, "S4"))
    t.turn(0)
    assert play_dmg(t)[0] == 2**62


# --- King Kong ----------------------------------------------------------------------------------
def test_kingkong_times_ten_and_halves_incoming():
    """v3 10 僵王金刚: damage x10; incoming halved, rounded down (7 -> 3)."""
    t = table(ids=("S10", "S9"))
    t.arrange({0: ["D2"], 1: ["S4"]}, deck=FILLER)
    t.script((0, "D2", 1), (1, "S4"))
    t.turn(0)
    assert play_dmg(t)[0] == 20
    t.arrange({0: [], 1: []}, deck=FILLER)
    t.exchange(1, 0, 7)
    assert t.hp(0) == 10 - 3


def test_kingkong_devours_incoming_and_cards():
    """v3 10 吞噬盾: the incoming damage is void and added to its own response
    damage, and the attacker's played cards go into its hand."""
    t = table(ids=("S10", "S9"), specials_keep_suit_value=False)
    t.arrange({0: ["S4", "C2"], 1: ["D6", "C4"]}, deck=FILLER)
    t.script((1, "D6", 0), (0, "S4", None, "devour"), (1, "C4"))
    t.turn(1)
    od = ev(t, L.E_OD)
    assert int(od[0, 3]) == 0 * 10 + 6                          # ♠4 (0 here) + devoured 6
    assert int(od[1, 3]) == 0                                   # the 9 blocks with ♣4
    assert t.col(0, L.C_H + 3 * 9 + 5) == 1                      # ♦6 now in its hand
    assert t.col(0, L.C_NDEV) == 1
    assert t.script_errors() == 0 and t.check() == 0


def test_kingkong_steals_bloodthirst_with_a_four():
    """v3 10 吞噬盾 against a skill: a 4 spent when targeted by bloodthirst
    voids it and gives the 10 one use of it."""
    t = table(ids=("S8", "S10"), policies=["script", "greedy"])
    t.arrange({0: ["H5", "C2"], 1: ["S4", "H6", "HK"]}, deck=FILLER)
    t.script((0, "H5", None, "bloodthirst", 1))
    t.turn(0)
    assert len(ev(t, L.E_STEAL)) == 1
    assert t.col(1, L.C_BTT) == 0 and t.col(1, L.C_BTU) == 1
    assert t.col(0, L.C_BTU) == 2
    assert t.col(1, L.C_H + 3) == 0
    assert t.script_errors() == 0 and t.check() == 0


# --- Bloodthirsty Devil ------------------------------------------------------------------------
def test_bloodthirst_ticks_five_times_and_a_four_ends_it():
    """v3 8 嗜血: with a 5 in its play, the target loses 1 HP and 1 max HP at
    each of its next 5 turn starts; the victim may spend a 4 to end it."""
    t = table(ids=("S8", "S9"))
    t.arrange({0: ["H5", "C2"], 1: ["C3"]}, deck=FILLER)
    t.script((0, "H5", None, "bloodthirst", 1))
    t.turn(0)
    assert t.col(1, L.C_BTT) == 5 and t.col(0, L.C_BTU) == 2
    for i in range(6):
        t.turn_start(1)
    assert t.hp(1) == 4 and t.max_hp(1) == 4 and len(ev(t, L.E_TICK)) == 5
    t.arrange({0: ["H5", "C2"], 1: ["C3", "D4"]}, deck=FILLER)
    t.script((0, "H5", None, "bloodthirst", 1))
    t.turn(0)
    t.turn_start(1)
    assert t.col(1, L.C_BTT) == 0 and len(ev(t, L.E_BLOODEND)) == 1
    assert t.hp(1) == 4 and len(ev(t, L.E_TICK)) == 0
    assert t.script_errors() == 0 and t.check() == 0


def test_frost_disables_shield_or_skill_and_a_four_thaws():
    """v3 8 冰封盾: each 4 it plays adds a frost layer to a chosen enemy's
    skill or shield; frozen, it cannot be used; a 4 removes one layer."""
    t = table(ids=("S8", "S7"), specials_keep_suit_value=False)
    t.arrange({0: ["H4", "D2"], 1: ["S4", "C4", "C3"]}, deck=FILLER)
    t.script((0, "H4", None, "freeze_shield", 1))
    t.turn(0)
    assert t.col(1, L.C_FRSH) == 1
    # the frozen Glutton cannot reflect: the scripted reflect is not an option
    t.script((0, "D2", 1), (1, "S4", None, "reflect"))
    t.turn(0)
    assert t.script_errors() == 1 and len(ev(t, L.E_REFLECT)) == 0
    # a 4 at its turn start removes the layer
    t.turn_start(1)
    assert t.col(1, L.C_FRSH) == 0 and len(ev(t, L.E_THAW)) == 1
    # frozen skill: the Glutton no longer ignores small damage
    t.arrange({0: ["H4", "D2"], 1: ["C3"]}, deck=FILLER)
    t.script((0, "H4", None, "freeze_skill", 1))
    t.turn(0)
    hp = t.hp(1)
    t.hit(1, 0, 2)
    assert t.hp(1) == hp - 2 and t.col(1, L.C_FRSK) == 1


# --- lives -----------------------------------------------------------------------------------
def test_lives_storm_then_pouch_then_duel():
    """v3 lives: first death the storm god (void, full HP, order restarts),
    second the pouch (void, skill uses restored, play resumes from here),
    third the duel against the killer."""
    t = table(players=2, ids=("S8", "S9"))
    t.arrange({0: ["C2", "C3"], 1: ["D2", "D3"]}, deck=FILLER)
    t.S[0, L.C_HP] = 5
    t.hit(0, 1, 100)
    assert t.hp(0) == 8 and t.col(0, L.C_STORM) == 0 and t.Z[L.Z_NEXT] == 1
    t.S[0, L.C_BTU] = 0
    t.S[0, L.C_HP] = 6
    t.hit(0, 1, 100)
    assert t.hp(0) == 6 and t.col(0, L.C_POUCH) == 0 and t.col(0, L.C_BTU) == 3
    assert t.Z[L.Z_NEXT] == 2 + 0
    t.hit(0, 1, 100)
    assert len(ev(t, L.E_DUEL)) == 1
    end = ev(t, L.E_DUELEND)
    w, lo = int(end[0, 2]), int(end[0, 3])
    assert {w, lo} == {0, 1}
    assert t.col(lo, L.C_ALIVE) == 0 and t.col(w, L.C_ALIVE) == 1
    assert t.col(w, L.C_DIAM) >= 20 and t.col(lo, L.C_DIAM) == -10
    assert t.Z[L.Z_D0 + L.CA_DUEL] == 1 and t.check() == 0


def test_duel_at_once_skips_revives():
    """Seed 1(6): the dying player may go straight to the duel (duel_first)."""
    t = table(players=2, ids=("S8", "S9"), duel_first=1.0)
    t.arrange({0: ["C2", "C3"], 1: ["D2", "D3"]}, deck=FILLER)
    t.hit(0, 1, 100)
    assert len(ev(t, L.E_STORM)) == 0 and len(ev(t, L.E_DUEL)) == 1
    end = ev(t, L.E_DUELEND)
    w = int(end[0, 2])
    assert t.col(w, L.C_STORM) == 2 and t.col(w, L.C_POUCH) == 2   # inherits unused lives


def test_duel_rewards_penalty_inheritance_and_joint_attack():
    """v3 大冒险: larger character plays first, top card of its pile; OD
    rules. Winner: + 20 + loser's HP before the final blow, returns at its
    pre-duel HP, inherits unused lives and the shield, and every other
    player must target it. Loser: - 10 and out."""
    t = table(players=4, ids=("S9", "S7", "H8", "D7"),
              policies=["greedy", "script", "script", "greedy"])
    t.arrange({0: ["DK"], 1: ["S2"], 2: ["D2", "D3"], 3: ["C2"]}, deck=FILLER)
    t.S[0, L.C_HP] = 4
    w = t.duel(0, 1)
    assert w == 0
    assert t.col(0, L.C_DIAM) == 20 + 7 and t.col(1, L.C_DIAM) == -10
    assert t.hp(0) == 4 and t.col(1, L.C_ALIVE) == 0 and t.col(1, L.C_ZMB) == 0
    assert t.col(0, L.C_STORM) == 2 and t.col(0, L.C_POUCH) == 2
    assert t.col(0, L.C_SHB) == (1 << 2) | 1                       # rampage + reflect
    assert t.Z[L.Z_JOINT] == 0 + 1 and t.Z[L.Z_NEXT] == 1
    dp = ev(t, L.E_DPLAY)
    assert int(dp[0, 2]) == 0 and int(dp[0, 3]) == 3 * 9 + 8       # the 9 opens with ♦K
    # joint attack: the 8 may only target the duel winner, not the 7 at seat 3
    t.script((2, "D2", 3))
    t.turn(2)
    assert t.script_errors() >= 1                    # the scripted target was not legal
    p = ev(t, L.E_PLAY)
    first = p[p[:, 2] == 2][0]
    assert int(first[4]) == 0                        # it had to attack the duel winner
    assert t.check() == 0


def test_duel_cap_higher_hp_wins():
    """v3 duel: after max_duel_plays the higher HP wins (pending damage dropped)."""
    t = table(players=2, ids=("S9", "S7"), max_duel_plays=1)
    t.arrange({0: ["DK"], 1: ["S2"]}, deck=FILLER)
    w = t.duel(0, 1)
    assert w == 0 and t.Z[L.Z_DCAPS] == 1
    assert t.col(0, L.C_DIAM) == 20 + 7


def test_zombie_and_medical_kit():
    """v3 10: a duel loser against King Kong becomes its zombie (its side,
    full HP, no revives); a medical kit prevents it (the loser is out)."""
    t = table(players=3, ids=("S10", "S7", "H8"))
    t.arrange({0: ["DK"], 1: ["S2"], 2: ["D2"]}, deck=FILLER)
    assert t.duel(0, 1) == 0
    assert t.col(1, L.C_ZMB) == 1 and t.col(1, L.C_ALIVE) == 1 and t.hp(1) == 7
    assert t.col(1, L.C_TEAM) == t.col(0, L.C_TEAM) and t.col(1, L.C_STORM) == 0
    assert len(ev(t, L.E_ZOMBIE)) == 1
    t = table(players=3, ids=("S10", "S7", "H8"))
    t.arrange({0: ["DK"], 1: ["S2"], 2: ["D2"]}, deck=FILLER)
    t.S[1, L.C_KIT] = 1
    assert t.duel(0, 1) == 0
    assert t.col(1, L.C_ALIVE) == 0 and t.col(1, L.C_ZMB) == 0 and len(ev(t, L.E_KIT)) == 1


def test_duel_queue_after_reflect_largest_first():
    """v3 duel queue: a reflect kills several at once; the largest character
    duels the killer first, the winner then duels the next-largest."""
    t = table(players=4, ids=("S7", "S9", "H10", "D8"), storm_gods=0, pouches=0)
    t.arrange({0: ["S4", "C2"], 1: ["D3", "C3"], 2: ["C2", "D2"], 3: ["H2", "S3"]},
              deck=FILLER)
    t.script((1, "D3", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    duels = ev(t, L.E_DUEL)
    assert len(duels) == 3
    assert int(duels[0, 2]) == 0 and int(duels[0, 3]) == 2         # Glutton vs the 10
    ends = ev(t, L.E_DUELEND)
    assert int(duels[1, 2]) == int(ends[0, 2]) and int(duels[1, 3]) == 1   # winner vs the 9
    assert int(duels[2, 2]) == int(ends[1, 2]) and int(duels[2, 3]) == 3   # then the 8
    assert t.Z[L.Z_D0 + L.CA_REFLECT] == 3 and t.check() == 0


# --- diamonds -------------------------------------------------------------------------------
def test_gift_pack_on_drawing_exactly_the_last_card():
    """v3 钻石大礼包: a draw that takes exactly the last card earns 20."""
    t = table(ids=("S7", "S9"))
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER)
    n = int(t.Z[L.Z_DECK])
    # move all but three deck cards to the discard pile
    t.pile[1, :n - 3] = t.pile[0, :n - 3]
    t.pile[0, :3] = t.pile[0, n - 3:n]
    t.Z[L.Z_DISC] = n - 3
    t.Z[L.Z_DECK] = 3
    t.draw(1, 3)
    assert t.col(1, L.C_DIAM) == 20 and len(ev(t, L.E_GIFT)) == 1
    t.draw(1, 4)                       # 0 left: a reshuffle first, no gift
    assert t.col(1, L.C_DIAM) == 20
    assert t.check() == 0


@pytest.mark.parametrize("hand,deck,drawn,gift", [
    (["DK"], 2, 5, 0),       # the emptied pile draws 5 from a 2-card deck: short, no gift
    (["DK"], 5, 5, 20),      # exactly the 5 cards left: the gift pack
    (["DK"], 6, 5, 0),       # one card left over: no gift
    (["D5"], 10, 10, 20),    # a 5 that empties the pile: 5 + 5 = 10 cards, one draw
])
def test_duel_draw_is_one_draw_for_the_gift_pack(hand, deck, drawn, gift):
    """Contract, Diamonds: one event's cards are one draw, in a duel too; a
    draw that needs a reshuffle part-way earns nothing. The 10 opens the
    duel with its only card, which empties its pile: it draws ``refill``
    (+ ``five_draw`` for a 5) at once to the bottom of its pile. (Before,
    a duel drew one card at a time, so a draw of 5 that emptied a 2-card
    deck was paid 20.) The 7 (max HP 1) then answers and dies."""
    t = table(ids=("S10", "H7"))
    t.identity(1, "H7", max_hp=1)
    top = ["CJ", "CQ", "CK", "SJ", "SQ", "SK", "HJ", "HQ", "HK", "C6"]
    t.arrange({0: hand, 1: ["S2"]}, deck=top[:deck], rest="discard")
    assert t.Z[L.Z_DECK] == deck
    assert t.duel(0, 1) == 0
    draws = ev(t, L.E_DRAW)
    first = draws[draws[:, 2] == 0]
    assert len(first) == drawn
    gifts = ev(t, L.E_GIFT)
    assert len(gifts) == (1 if gift else 0)
    if gift:
        assert int(gifts[0, 2]) == 0
    assert t.col(0, L.C_DIAM) == gift + 20 + 1          # + duel_base + the 7's HP before the blow
    assert t.Z[L.Z_GIFTS] == (1 if gift else 0)
    assert t.check() == 0


def test_dragon_and_birds_last_five_rounds():
    """Contract, Round: an effect of N rounds lasts N of the owner's turn
    starts. Bought at a turn start, the dragon multiplies until the 5th
    turn start after it, and the birds lay 20 at each of the next 5 (100 for
    70) and end with the 5th. (Before, the count fell at the end of each of
    the owner's turns, the turn of purchase included: 4 lays, and the dragon
    was gone in the responses after its 4th turn.)"""
    t = table(ids=("S7", "S9"))
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER)
    t.S[1, L.C_LEO] = 1                  # holds a leopard: the shop picks the dragon
    t.S[1, L.C_DIAM] = 30
    t.turn_start(1)
    assert int(ev(t, L.E_BUY)[0, 3]) == L.I_DRAGON and t.col(1, L.C_DRG) == 5
    active = []
    for _ in range(5):
        t.turn_start(1)
        active.append(t.col(1, L.C_DRG) > 0)
    assert active == [True] * 4 + [False]
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER)
    t.S[1, L.C_DRG] = 99                 # dragon active: the shop picks the birds
    t.S[1, L.C_DIAM] = 70
    t.turn_start(1)
    assert int(ev(t, L.E_BUY)[0, 3]) == L.I_BIRDS and t.col(1, L.C_DIAM) == 0
    t.ip[L.P_SHOP] = 0                   # no second pair when the first is done
    lays = []
    for _ in range(6):
        t.turn_start(1)
        lays.append(len(ev(t, L.E_BIRDS)))
    assert lays == [1, 2, 3, 4, 5, 5] and t.col(1, L.C_DIAM) == 100 and t.col(1, L.C_BIRD) == 0


@pytest.mark.parametrize("value,played", [(0.0, 13), (4.0, 2)])
def test_greedy_hand_damage_value_keeps_damage_cards(value, played):
    """greedy's hand_damage_value: a play costs this x its cards' damage.
    At 0 (the contract's greedy) the 8 kills the 9 with ♦K (13 >= 9 HP); at
    4 the ♦K would cost 52, more than the kill is worth, and it plays ♦2."""
    t = table(ids=("S8", "H9"), policies="greedy", hand_damage_value=value)
    t.arrange({0: ["DK", "D2"], 1: ["C2"]}, deck=FILLER)
    t.turn(0)
    assert play_dmg(t)[0] == played
    assert t.check() == 0


@pytest.mark.parametrize("players,value,lives,kills", [
    (3, 0.0, 0, True),          # the contract's greedy: takes the kill
    (3, -1000.0, 0, False),     # the final blow would force its duel: it does something else
    (3, -1000.0, 1, True),      # the 9 has a storm god left: not its last life
    (2, -1000.0, 0, True),      # two seats in play: the duel decides the game either way
    (2, 0.0, 0, True),
])
def test_greedy_final_blow_value(players, value, lives, kills):
    """greedy's final_blow_value (v3): killing an enemy on its last life
    makes the killer duel it (contract v3, Duel), so with 3+ seats in play
    greedy does not land that blow unless the value says so."""
    ids = ("S8", "H9", "C10")[:players]
    t = table(players=players, ids=ids, policies="greedy", final_blow_value=value,
              storm_gods=lives, pouches=0, hand_damage_value=0.0)
    t.identity(0, "S8", hp=5)                   # ♥3 would heal 3
    t.identity(1, "H9", hp=1)                   # ♠2 kills it
    t.arrange({p: ["S2", "H3"] if p == 0 else ["C2"] for p in range(players)}, deck=FILLER)
    t.turn(0)
    play = ev(t, L.E_PLAY)[0]
    assert (int(play[4]) == 1) == kills
    assert t.check() == 0


def test_shop_buys_leopard_which_dodges_a_lethal_hit():
    """v3 shop: the leopard 闪电豹 (20) dodges one lethal damage."""
    t = table(ids=("S7", "S9"), policies="greedy")
    t.arrange({0: ["C2"], 1: ["C3"]}, deck=FILLER)
    t.S[1, L.C_DIAM] = 25
    t.turn_start(1)
    assert t.col(1, L.C_LEO) == 1 and t.col(1, L.C_DIAM) == 5 and len(ev(t, L.E_BUY)) == 1
    t.hit(1, 0, 100)
    assert t.hp(1) == 9 and t.col(1, L.C_STORM) == 1 and len(ev(t, L.E_LEOPARD)) == 1


def test_replay_narrates_v3():
    t = table(players=3, ids=("S7", "S9", "H8"))
    t.arrange({0: ["S4", "C2"], 1: ["D3", "H4", "C3"], 2: ["C2", "D2"]}, deck=FILLER)
    t.script((1, "D3", 0), (0, "S4", None, "reflect"))
    t.turn(1)
    text = "\n".join(t.lines())
    assert "reflect" in text and "blocks" in text and "storm god" in text
    assert "30000" in text.replace(",", "")
