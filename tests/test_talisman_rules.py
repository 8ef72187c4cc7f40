"""Talisman rulebook scenarios and invariants (contract: docs/rules/talisman.md).

Scenario tests set up the exact position of each worked example and check
the outcome in the kernel and, where cheap, in the pure-Python reference
(``balance/rulesets/talisman/reference.py``).

The kernel keeps a game's state in plain arrays (``S`` per-seat scalars with
the array as one bitmask of values per element, ``hand``, ``pile`` and
``Z``). A combo or a damage instance is checked by filling those arrays and
calling the kernel's own njit helpers on them (``KernelTable``:
``combo_sizes``, ``combo_amount``, ``damage``, ``draw``,
``array_to_discard``, ``next_alive``, ``heal_room``). A whole turn (the
draw, the hand limit, wind, steal, gamble, the eliminations, the end) is
played by the compiled step machine from an arranged position
(``talisman.scenario.Table``) and read back from its event trace; the
traces of whole games are re-played zone by zone (:func:`replay_trace`), and
the reference checks the same rules on constructed positions.
"""
from __future__ import annotations

import numpy as np
import pytest

from balance.core import batch
from balance.core.engine import contract
from balance.core.params import to_kernel
from balance.core.rng import game_state, python_rng
from balance.rulesets.talisman import SPEC
from balance.rulesets.talisman import layout as L
from balance.rulesets.talisman import reference as R
from balance.rulesets.talisman.scenario import Table
from balance.rulesets.talisman import state_slots as slots
from balance.rulesets.talisman.rules import (CHAOS, ELEMENTS_ZH, FLUSH, FOUR, GAMBLE,
                                             GENERATING, GUARD, OVERCOMING, STEAL, THUNDER,
                                             WIND, deck_list)
from lazy import lazy

# compiled on first use, not at collection
zones = lazy("balance.rulesets.talisman.state_zones")
combos = lazy("balance.rulesets.talisman.step_combos")
play = lazy("balance.rulesets.talisman.step_play")
heuristics = lazy("balance.rulesets.talisman.policies")

DEFAULTS = SPEC.space.resolve({})


def values_with(**over):
    return SPEC.space.resolve(over)


def card(name: str, V: int = 8) -> int:
    """'水3' -> card id (element order 金 木 水 火 土, values 1..V)."""
    return ELEMENTS_ZH.index(name[0]) * V + int(name[1:]) - 1


def cards(text: str, V: int = 8) -> list:
    return [card(n, V) for n in text.split()]


def special(s: int, V: int = 8) -> int:
    return 5 * V + s


def policy_ids(policies) -> np.ndarray:
    return np.array([SPEC.policies[p] for p in policies], dtype=np.int64)


# --- a kernel position ---------------------------------------------------------
class KernelTable:
    """A position in the kernel's state layout, driven by the kernel's helpers."""

    def __init__(self, values: dict, n_players: int):
        self.values = values
        self.V = values["values_per_element"]
        self.P = n_players
        self.ip = to_kernel(SPEC.space.rules(values))[0]
        self.S = np.zeros((n_players, L.NS), np.int64)
        self.S[:, L.C_HP] = values["hp"]
        self.S[:, L.C_ALIVE] = 1
        self.S[:, L.C_OUT] = -1
        self.S[:, L.C_NB] = 5 * self.V
        self.hand = np.zeros((n_players, L.HCAP), np.int64)
        self.pile = np.zeros((2, L.NC_MAX), np.int64)
        self.Z = np.zeros(L.NZ, np.int64)
        self.tr = np.zeros((256, 8), np.int64)
        self.buf = np.zeros(64, np.int64)

    def place(self, p: int, text: str):
        for c in cards(text, self.V):
            self.S[p, L.C_BITS + c // self.V] |= 1 << (c % self.V)
            self.S[p, L.C_ARRN] += 1

    def array(self, p: int) -> list:
        return [e * self.V + v for e in range(5) for v in range(self.V)
                if (self.S[p, L.C_BITS + e] >> v) & 1]

    def sizes(self, p: int) -> dict:
        """combo type -> size, for the available types only."""
        combos.combo_sizes(self.S, p, self.buf)
        return {ct: int(self.buf[ct]) for ct in range(5) if self.buf[ct] > 0}

    def hp(self, p: int) -> int:
        return int(self.S[p, L.C_HP])

    def discard(self) -> list:
        return self.pile[1, :self.Z[L.Z_DISC]].tolist()

    def events(self) -> list:
        return [tuple(int(x) for x in r) for r in self.tr[:self.Z[L.Z_TR]]]

    def fire(self, p: int, kind: int, target: int = -1) -> int:
        """Resolve a combo as play_game's combo branch does, with the
        kernel's helpers; returns the amount."""
        size = self.sizes(p)[kind]
        amount = int(combos.combo_amount(kind, size, self.ip))
        if kind == FLUSH:
            q = zones.next_alive(self.S, p, self.P)
            while q != p:
                play.damage(self.S, self.Z, self.tr, True, p, q, amount)
                q = zones.next_alive(self.S, q, self.P)
        elif kind == FOUR:
            h = min(amount, int(combos.heal_room(self.S, p, self.ip)))
            self.S[p, L.C_HP] += h
        else:
            if kind == OVERCOMING:
                zones.array_to_discard(self.S, self.pile, self.Z, target, self.V)
            play.damage(self.S, self.Z, self.tr, True, p, target, amount)
        zones.array_to_discard(self.S, self.pile, self.Z, p, self.V)
        return amount


def ref_table(values: dict, n_players: int, policies="greedy", seed: int = 0) -> R.Game:
    return R.Game(values, n_players, policies, python_rng(seed, 0), log=True)


def ref_place(g: R.Game, p: int, text: str):
    g.seats[p].array += cards(text, g.V)


# --- worked examples ---------------------------------------------------------------
def test_straight_flush_water_345():
    """Combos: 同花顺 straight flush, flush_per_card x count to every other
    player. Worked example: array 水3 水4 水5, every opponent takes 6."""
    for P in (2, 3, 4):
        k = KernelTable(DEFAULTS, P)
        k.place(0, "水3 水4 水5")
        assert k.sizes(0)[FLUSH] == 3
        assert k.fire(0, FLUSH) == 6
        assert [k.hp(q) for q in range(P)] == [20] + [14] * (P - 1)
        assert k.array(0) == [] and sorted(k.discard()) == cards("水3 水4 水5")
        g = ref_table(DEFAULTS, P)
        ref_place(g, 0, "水3 水4 水5")
        g.fire(0, FLUSH)
        assert [s.hp for s in g.seats] == [20] + [14] * (P - 1)


def test_generating_metal1_water2_wood3():
    """Combos: 五行相生 generating (金→水→木→火→土→金), generating_per_card x
    count to one opponent. Worked example: 金1 水2 木3, one opponent takes 9."""
    k = KernelTable(DEFAULTS, 3)
    k.place(0, "金1 水2 木3")
    assert k.sizes(0)[GENERATING] == 3
    assert k.fire(0, GENERATING, 2) == 9
    assert [k.hp(q) for q in range(3)] == [20, 20, 11]
    g = ref_table(DEFAULTS, 3)
    ref_place(g, 0, "金1 水2 木3")
    g.fire(0, GENERATING, 2)
    assert [s.hp for s in g.seats] == [20, 20, 11]


def test_generating_any_placement_order():
    """Combos: generating counts a run along the cycle in any placement order.
    Worked example: 火3 水5 木2 placed in that order, 水→木→火, 9 damage."""
    k = KernelTable(DEFAULTS, 2)
    for name in ("火3", "水5", "木2"):
        k.place(0, name)
    assert k.sizes(0)[GENERATING] == 3
    assert k.fire(0, GENERATING, 1) == 9 and k.hp(1) == 11
    g = ref_table(DEFAULTS, 2)
    g.seats[0].hand = cards("火3 水5 木2")
    for c in cards("火3 水5 木2"):
        g.place(0, c)
    assert g.seats[0].array == cards("火3 水5 木2")
    assert g.combos(0)[GENERATING].size == 3
    g.fire(0, GENERATING, 1)
    assert g.seats[1].hp == 11


def test_metal_wood_only_overcoming():
    """Combos: 金-木 are not adjacent on 金→水→木→火→土, so generating is not
    available; overcoming 金→木 is (2 cards). Worked example: 金1 金5 木2:
    target's array destroyed, 2 damage."""
    k = KernelTable(DEFAULTS, 2)
    k.place(0, "金1 金5 木2")
    k.place(1, "土3 土4 火6")
    assert k.sizes(0) == {OVERCOMING: 2}
    assert k.fire(0, OVERCOMING, 1) == 2
    assert k.hp(1) == 18 and k.array(1) == [] and k.S[1, L.C_ARRN] == 0
    # the target's array goes first, then the firer's, in card-id order
    assert k.discard() == sorted(cards("土3 土4 火6")) + sorted(cards("金1 金5 木2"))
    g = ref_table(DEFAULTS, 2)
    ref_place(g, 0, "金1 金5 木2")
    ref_place(g, 1, "土3 土4 火6")
    assert set(g.combos(0)) == {OVERCOMING}
    g.fire(0, OVERCOMING, 1)
    assert g.seats[1].hp == 18 and g.seats[1].array == [] and g.seats[0].array == []
    assert g.discard == sorted(cards("土3 土4 火6")) + sorted(cards("金1 金5 木2"))


def test_overcoming_metal1_wood2_earth3():
    """Combos: 五行相克 overcoming (金→木→土→水→火→金): destroy the target's
    array and overcoming_per_card x count damage. Worked example: 金1 木2 土3:
    array destroyed, target takes 3."""
    k = KernelTable(DEFAULTS, 3)
    k.place(0, "金1 木2 土3")
    k.place(2, "水7")
    assert k.sizes(0)[OVERCOMING] == 3
    assert k.fire(0, OVERCOMING, 2) == 3
    assert k.hp(2) == 17 and k.array(2) == [] and k.hp(1) == 20
    g = ref_table(DEFAULTS, 3)
    ref_place(g, 0, "金1 木2 土3")
    ref_place(g, 2, "水7")
    g.fire(0, OVERCOMING, 2)
    assert g.seats[2].hp == 17 and g.seats[2].array == []


@pytest.mark.parametrize("hp, cap, healed", [(5, 20, 12), (8, 20, 12), (15, 20, 5),
                                             (20, 20, 0), (15, 0, 12), (25, 20, 0)])
def test_four_symbols_heal(hp, cap, healed):
    """Combos: 四象阵 four symbols heals the sum of the four values x
    four_symbols_heal_factor; healing restores up to hp_cap (0 = no cap).
    Worked example: 金2 木5 水1 火4, heal 12 (from HP low enough)."""
    values = values_with(hp_cap=cap, hp=max(hp, 1))
    k = KernelTable(values, 2)
    k.S[0, L.C_HP] = hp
    k.place(0, "金2 木5 水1 火4")
    assert k.sizes(0)[FOUR] == 12
    assert k.fire(0, FOUR) == 12
    assert k.hp(0) == hp + healed
    g = ref_table(values, 2)
    g.seats[0].hp = hp
    ref_place(g, 0, "金2 木5 水1 火4")
    g.fire(0, FOUR)
    assert g.seats[0].hp == hp + healed and g.seats[0].healed == healed


def test_chaos_strike_three_fours():
    """Combos: 混沌一击 chaos strike, value x count x chaos_factor to one
    opponent. Worked example: three 4s of any elements, 12 damage."""
    for text in ("金4 木4 水4", "火4 土4 木4"):
        k = KernelTable(DEFAULTS, 2)
        k.place(0, text)
        assert k.sizes(0)[CHAOS] == 12
        assert k.fire(0, CHAOS, 1) == 12 and k.hp(1) == 8
        g = ref_table(DEFAULTS, 2)
        ref_place(g, 0, text)
        g.fire(0, CHAOS, 1)
        assert g.seats[1].hp == 8


def test_sample_game_over_consecutive_turns():
    """Worked example, sample game: 小天师 places 火3, takes thunder for 2
    (HP 18), places 水5, then 木2 and fires a 3-card generating combo for 9.

    The seed places 木2 and fires in the same turn; the contract allows at
    most one action per turn (A place, B cast or C combo), so here 小天师
    places 木2 on turn 5 and fires on his next turn (turn 7), while 老道士
    passes on turn 6."""
    # reference: scripted turns, the seed's hands and draws
    g = ref_table(DEFAULTS, 2)
    xiao, lao = 0, 1
    g.seats[xiao].hand = cards("火3 水5") + [special(GUARD)]
    g.seats[lao].hand = cards("木4 土6") + [special(THUNDER)]
    # draws, last first: 金2, 风咒, 水4, 金1, 木2, then 土1 and 土2
    g.deck = cards("土2 土1 木2 金1 水4") + [special(WIND)] + cards("金2")
    g.fix_card_set()
    script = [(R.PLACE, card("火3"), -1), (R.CAST, THUNDER, xiao),
              (R.PLACE, card("水5"), -1), (R.PLACE, card("木4"), -1),
              (R.PLACE, card("木2"), -1), (R.PASS, 0, -1)]
    for action in script:
        g.play_turn(action)
        assert not g.advance()
        if g.turn == 2:
            assert g.seats[xiao].hp == 18
    assert g.seats[xiao].array == cards("火3 水5 木2")
    assert g.combos(xiao)[GENERATING].size == 3
    assert g.current == xiao and len(g.seats[xiao].hand) == 3      # 护身咒 金2 水4
    # greedy, on turn 7, fires exactly this combo at 老道士
    assert R.choose_greedy(g, xiao) == (R.COMBO, GENERATING, lao)
    g.play_turn((R.COMBO, GENERATING, lao))
    assert g.seats[lao].hp == 11 and g.seats[xiao].array == []
    assert g.seats[xiao].hp == 18 and g.turn == 7
    # kernel: the same position, built step by step
    k = KernelTable(DEFAULTS, 2)
    k.place(xiao, "火3")
    play.damage(k.S, k.Z, k.tr, True, lao, xiao, int(k.ip[slots.P_THUNDER]))
    assert k.hp(xiao) == 18
    k.place(xiao, "水5")
    k.place(lao, "木4")
    k.place(xiao, "木2")
    assert k.sizes(xiao)[GENERATING] == 3
    assert k.fire(xiao, GENERATING, lao) == 9
    assert k.hp(lao) == 11 and k.array(xiao) == [] and k.array(lao) == cards("木4")



def test_sample_game_played_by_the_step_machine():
    """Worked example, sample game, played turn by turn by the compiled step
    machine from the seed's hands and draws (as the reference above): 小天师
    (seat 0) places 火3, 老道士's thunder takes 2 (HP 18), 小天师 places 水5,
    then 木2, and on turn 7 greedy fires the 3-card generating combo (水→木→火)
    at 老道士 for 9."""
    t = Table(players=2, policies="greedy")
    t.arrange(hands={0: "火3 水5 guard", 1: "木4 土6 thunder"},
              deck="金2 wind 水4 金1 木2 土1 土2")              # top first
    script = [("place", "火3"), ("cast", "thunder", 0), ("place", "水5"), ("place", "木4"),
              ("place", "木2"), ("pass",)]
    for turn, action in enumerate(script, start=1):
        assert t.Z[L.Z_TURN] == turn and t.seat == (turn - 1) % 2
        t.turn(action)
        if turn == 2:
            assert t.hp(0) == 18
    assert t.array_of(0) == ["木2", "水5", "火3"] and t.hand_of(0) == ["guard", "金2", "水4", "土2"]
    assert t.Z[L.Z_TURN] == 7 and t.seat == 0
    t.set_mark()
    t.turn()                                                   # greedy's own choice
    combo = t.events(etype=L.E_COMBO)
    assert [tuple(r[2:7]) for r in combo] == [(0, GENERATING, 1, 3, 9)]
    assert t.hp() == [18, 11] and t.array_of(0) == [] and t.array_of(1) == ["木4"]
    assert "P0 fires generating on P1 (3 cards): 9 damage" in "\n".join(t.lines())
    assert t.errors == 0

# --- combo detection: 2-, 3-, 4- and 5-card cases ----------------------------------
COMBO_CASES = [
    # (array, {type: size} expected)  F flush, G generating, O overcoming, 4 four, C chaos
    ("金1 水5", {GENERATING: 2}),                               # 金→水
    ("土1 金5", {GENERATING: 2}),                               # 土→金 wraps
    ("金1 木5", {OVERCOMING: 2}),                               # 金→木
    ("火1 金5", {OVERCOMING: 2}),                               # 火→金 wraps
    ("水2 水3", {FLUSH: 2}),
    ("水2 火2", {OVERCOMING: 2, CHAOS: 4}),                     # 水→火
    ("水2 水4", {}),                                            # same element, not a run
    ("金1", {}),
    ("金1 水2 木3", {GENERATING: 3, OVERCOMING: 2}),            # 金→木 on overcoming
    ("金1 木2 土3", {OVERCOMING: 3, GENERATING: 2}),            # 土→金 on generating
    ("木1 火2 土3", {GENERATING: 3, OVERCOMING: 2}),            # 木→火→土; 木→土
    ("金1 水1 木1", {GENERATING: 3, OVERCOMING: 2, CHAOS: 3}),
    ("金1 水2 木3 火4", {GENERATING: 4, OVERCOMING: 4, FOUR: 10}),
    ("木1 土2 水3 火4", {GENERATING: 4, OVERCOMING: 4, FOUR: 10}),
    ("金1 水2 木3 火4 土5", {GENERATING: 5, OVERCOMING: 5, FOUR: 14}),   # drops 金1
    ("金8 水2 木3 火4 土1", {GENERATING: 5, OVERCOMING: 5, FOUR: 17}),   # drops 土1
    ("水1 水2 水3 水4 水5", {FLUSH: 5}),
    ("水1 水2 水4 水5 水6 火7", {FLUSH: 3, OVERCOMING: 2}),     # the longest run
    ("金3 木3 水3 火3 土3", {GENERATING: 5, OVERCOMING: 5, FOUR: 12, CHAOS: 15}),
    ("金2 木2 水2 火3 土3", {GENERATING: 5, OVERCOMING: 5, FOUR: 10, CHAOS: 6}),
    ("金8 木8 水1 水2", {GENERATING: 3, OVERCOMING: 2, FLUSH: 2, CHAOS: 16}),
    ("金2 木2 水2 水4 土4", {GENERATING: 4, OVERCOMING: 4, FOUR: 12, CHAOS: 8}),
    ("金2 水2 水3 土4", {GENERATING: 3, OVERCOMING: 2, FLUSH: 2, CHAOS: 4}),
]


@pytest.mark.parametrize("text, expected", COMBO_CASES)
def test_combo_detection(text, expected):
    """Combos: each type uses the best matching set of 2+ cards in the array
    (four symbols: 4 cards of 4 elements with the largest sum; chaos: the
    value with the largest value x count); any two different elements are
    adjacent on exactly one cycle."""
    k = KernelTable(DEFAULTS, 2)
    k.place(0, text)
    assert k.sizes(0) == expected
    ref = R.find_combos(cards(text), 8)
    assert {ct: c.size for ct, c in ref.items()} == expected
    elements = {c // 8 for c in cards(text)}
    if len(elements) >= 2:
        assert GENERATING in expected or OVERCOMING in expected


def test_chaos_tie_goes_to_the_larger_value():
    """Combos, chaos strike: 2x3 and 3x2 both make 6 (damage 6 either way)."""
    k = KernelTable(DEFAULTS, 2)
    k.place(0, "金2 木2 水2 火3 土3")
    k.sizes(0)
    assert k.buf[CHAOS] == 6 and k.buf[5] == 3
    assert R.find_combos(cards("金2 木2 水2 火3 土3"), 8)[CHAOS].value == 3


# --- damage, guard, elimination ------------------------------------------------------
def test_guard_absorbs_one_damage_instance():
    """Specials, 护身咒 guard: negates the next damage instance; guards stack
    as a count; each damage instance consumes one."""
    k = KernelTable(DEFAULTS, 2)
    k.S[1, L.C_GUARDS] = 2
    for expected_guards in (1, 0):
        play.damage(k.S, k.Z, k.tr, True, 0, 1, 9)
        assert k.hp(1) == 20 and k.S[1, L.C_GUARDS] == expected_guards
    play.damage(k.S, k.Z, k.tr, True, 0, 1, 9)
    assert k.hp(1) == 11
    assert [e[4] for e in k.events() if e[0] == L.E_DAMAGE] == [1, 1, 0]
    g = ref_table(DEFAULTS, 2)
    g.seats[0].hand = [special(GUARD), special(GUARD)]
    g.fix_card_set()
    g.cast(0, GUARD)
    g.cast(0, GUARD)
    assert g.seats[0].guards == 2
    g.hurt(1, 0, 9)
    g.hurt(1, 0, 9)
    assert g.seats[0].hp == 20 and g.seats[0].guards == 0
    g.hurt(1, 0, 9)
    assert g.seats[0].hp == 11


def test_overcoming_destroys_array_even_when_guarded():
    """Combos, overcoming: a guard absorbs the damage, not the destruction."""
    k = KernelTable(DEFAULTS, 2)
    k.S[1, L.C_GUARDS] = 1
    k.place(0, "金1 木2")
    k.place(1, "水3 水4 水5")
    k.fire(0, OVERCOMING, 1)
    assert k.hp(1) == 20 and k.S[1, L.C_GUARDS] == 0 and k.array(1) == []
    g = ref_table(DEFAULTS, 2)
    g.seats[1].guards = 1
    ref_place(g, 0, "金1 木2")
    ref_place(g, 1, "水3 水4 水5")
    g.fire(0, OVERCOMING, 1)
    assert g.seats[1].hp == 20 and g.seats[1].guards == 0 and g.seats[1].array == []


def test_straight_flush_one_instance_per_opponent():
    """Combos, straight flush + guard: each opponent takes a separate damage
    instance, so a guard protects only its holder."""
    k = KernelTable(DEFAULTS, 4)
    k.S[2, L.C_GUARDS] = 1
    k.place(0, "土5 土6 土7 土8")
    k.fire(0, FLUSH)
    assert [k.hp(q) for q in range(4)] == [20, 12, 20, 12]
    # damage in turn order from the next seat
    assert [e[2] for e in k.events() if e[0] == L.E_DAMAGE] == [1, 2, 3]


def test_straight_flush_resolves_on_all_before_removal():
    """Damage and elimination: a straight flush resolves on all opponents
    before anyone is removed; HP <= 0 is out at once, hand and array to the
    discard pile, turn order skips them."""
    g = ref_table(DEFAULTS, 4)
    for q, hp in ((1, 4), (2, 30), (3, 6)):
        g.seats[q].hp = hp
    ref_place(g, 0, "火1 火2 火3")
    ref_place(g, 1, "金7")
    g.seats[1].hand = cards("木8") + [special(STEAL)]
    g.seats[3].hand = cards("土8")
    g.seats[0].hand = cards("金1")
    g.deck = cards("土1")
    g.fix_card_set()
    g.play_turn((R.COMBO, FLUSH, -1))
    kinds = [(e[0], e[2]) for e in g.events if e[0] in (R.E_DAMAGE, R.E_OUT)]
    assert kinds == [(R.E_DAMAGE, 1), (R.E_DAMAGE, 2), (R.E_DAMAGE, 3),
                     (R.E_OUT, 1), (R.E_OUT, 3)]
    assert [s.hp for s in g.seats] == [20, -2, 24, 0]
    assert [s.alive for s in g.seats] == [True, False, True, False]
    assert g.seats[1].hand == [] and g.seats[1].array == [] and g.seats[3].hand == []
    assert sorted(g.discard) == sorted(cards("火1 火2 火3 金7 木8 土8") + [special(STEAL)])
    assert g.seats[1].out_turn == 1 and g.seats[3].out_turn == 1
    assert not g.advance() and g.current == 2          # seat 1 is skipped
    # kernel: all three instances land before any check for elimination
    k = KernelTable(DEFAULTS, 4)
    for q, hp in ((1, 4), (2, 30), (3, 6)):
        k.S[q, L.C_HP] = hp
    k.place(0, "火1 火2 火3")
    k.fire(0, FLUSH)
    assert [k.hp(q) for q in range(4)] == [20, -2, 24, 0]


def test_straight_flush_removal_in_the_step_machine():
    """Damage and elimination, played by the compiled turn from the same
    position: every opponent takes its damage instance (seats 1, 2, 3 in
    turn order) before seats 1 and 3 go out, their hands and arrays go to the
    discard pile, and the turn passes to seat 2 (seat 1 is skipped)."""
    t = Table(players=4, policies="greedy")
    t.arrange(hands={0: "金1", 1: "木8 steal", 3: "土8"}, arrays={0: "火1 火2 火3", 1: "金7"},
              deck="土1 水1", hp={1: 4, 2: 30, 3: 6})
    assert t.hand_of(0) == ["金1", "土1"]                      # the turn's draw
    discard = len(t.discard_pile())
    t.turn(("combo", "straight flush"))
    rows = [(int(r[0]), int(r[2])) for r in t.events() if r[0] in (L.E_DAMAGE, L.E_OUT)]
    assert rows == [(L.E_DAMAGE, 1), (L.E_DAMAGE, 2), (L.E_DAMAGE, 3), (L.E_OUT, 1), (L.E_OUT, 3)]
    assert t.hp() == [20, -2, 24, 0] and t.alive() == [0, 2]
    assert t.hand_of(1) == [] and t.array_of(1) == [] and t.hand_of(3) == []
    assert sorted(t.discard_pile()[discard:]) == sorted(["火1", "火2", "火3", "木8", "steal",
                                                          "金7", "土8"])
    assert t.seat == 2 and t.hand_of(2) == ["水1"] and t.errors == 0


def test_thunder_elimination_ends_two_player_game():
    """Damage and elimination + victory: the last player with HP > 0 wins."""
    g = ref_table(DEFAULTS, 2)
    g.seats[1].hp = 2
    g.seats[0].hand = [special(THUNDER)]
    g.seats[1].array = cards("水1 水2")
    g.deck = cards("金1")
    g.fix_card_set()
    g.play_turn((R.CAST, THUNDER, 1))
    assert g.advance() and g.winner == 0 and g.end_reason == "last_standing"
    assert not g.seats[1].alive and sorted(g.discard) == sorted(cards("水1 水2") + [special(THUNDER)])


def test_thunder_kill_ends_the_game_played_to_the_end():
    """Victory, played to the end by greedy from an arranged position: seat
    0 casts its thunder (2 damage) at seat 1 (HP 2), which goes out, and
    seat 0, the last player with HP > 0, wins on turn 1."""
    t = Table(players=2, policies="greedy")
    t.arrange(hands={0: "thunder", 1: "水8"}, arrays={1: "水1 水2"}, deck="金1", hp={1: 2})
    game = t.play()
    assert game["winner"] == 0 and game["turns"] == 1
    assert game["end_reason"] == SPEC.end_reasons.index("last_standing")
    assert t.seats[1]["out_turn"] == 1 and t.seats[0]["damage_dealt"] == 2
    assert t.lines()[-1] == "== P0 (greedy) wins after 1 turns, 1 rounds" and t.errors == 0


# --- specials ---------------------------------------------------------------------
def test_wind_skips_next_living_player():
    """Specials, 风咒 wind: the next living player in turn order skips their
    next turn; a skipped turn still counts as a turn."""
    g = ref_table(DEFAULTS, 3)
    g.seats[0].hand = [special(WIND)]
    g.deck = cards("金1 金2 金3 金4")
    g.fix_card_set()
    g.play_turn((R.CAST, WIND, -1))
    assert g.seats[1].skips == 1
    g.advance()
    hand_before = list(g.seats[1].hand)
    g.play_turn()                                # seat 1: skipped, no draw
    assert g.seats[1].skips == 0 and g.seats[1].hand == hand_before and g.turn == 2
    g.advance()
    assert g.current == 2
    # with seat 1 out, the wind hits seat 2
    g = ref_table(DEFAULTS, 3)
    g.seats[1].alive = False
    g.seats[0].hand = [special(WIND)]
    g.fix_card_set()
    g.cast(0, WIND)
    assert g.seats[2].skips == 1 and g.seats[1].skips == 0


def test_wind_skip_in_the_step_machine():
    """Specials, wind, played by the compiled turn: seat 0's wind makes seat
    1 skip its next turn: the turn counts (turn 2), seat 1 draws nothing,
    and seat 2 plays turn 3."""
    t = Table(players=3, policies="greedy")
    t.arrange(hands={0: "wind", 1: "金5"}, deck="金1 金2 金3")
    t.turn(("cast", "wind"))
    assert t.events(etype=L.E_WIND)[:, 3].tolist() == [1]
    assert t.events(etype=L.E_SKIP)[:, [1, 2]].tolist() == [[2, 1]]
    assert t.hand_of(1) == ["金5"] and t.S[1, L.C_SKIPS] == 0
    assert t.seat == 2 and t.Z[L.Z_TURN] == 3 and t.hand_of(2) == ["金2"]
    assert "P1 is skipped by wind (0 skips left)" in "\n".join(t.lines()) and t.errors == 0


def test_wind_stacks_as_a_count():
    """Specials, wind: several winds on one player stack as a count (here
    from a constructed position: seat 1 already owes a skip)."""
    g = ref_table(DEFAULTS, 2)
    g.seats[0].hand = [special(WIND)] + cards("金1")
    g.seats[1].skips = 1
    g.deck = cards("木1 木2 木3 木4 木5")
    g.fix_card_set()
    g.play_turn((R.CAST, WIND, -1))
    assert g.seats[1].skips == 2
    order = []
    for _ in range(4):
        g.advance()
        order.append((g.current, g.seats[g.current].skips))
        g.play_turn((R.PASS, 0, -1))
    # seat 1 loses two turns in a row, seat 0 plays in between
    assert order == [(1, 2), (0, 0), (1, 1), (0, 0)]
    assert g.seats[1].skips == 0
    skipped = [e[2] for e in g.events if e[0] == R.E_SKIP]
    assert skipped == [1, 1]


def test_wind_cannot_stack_in_play():
    """Specials, wind (finding): the wind's target is the next living seat,
    which always plays the very next turn (one action per turn, and wind
    deals no damage), so a pending skip is consumed before another wind can
    hit the same seat. The stacking clause never applies in real games; the
    kernel's traces show at most one pending skip."""
    values = values_with(copies_wind=12, value_wind=50.0)
    seen = 0
    for P, pols in ((2, ["greedy", "random"]), (3, ["random", "greedy", "patient"]),
                    (4, ["random"] * 4)):
        for game in range(25):
            _, tr = batch.trace(SPEC, values, 5, game, P, policy_ids(pols))
            winds = tr[tr[:, 0] == L.E_WIND]
            seen += len(winds)
            assert (winds[:, 4] == 1).all()
    assert seen > 100


def test_steal_from_empty_hand_takes_nothing():
    """Specials, 窃灵咒 steal: take one random card from a chosen opponent's
    hand; from an empty hand it takes nothing (and draws no random number)."""
    g = ref_table(DEFAULTS, 2)
    g.seats[0].hand = [special(STEAL)]
    g.fix_card_set()
    state = g.rng.state
    g.cast(0, STEAL, 1)
    assert g.seats[0].hand == [] and g.rng.state == state
    assert g.discard == [special(STEAL)]
    assert g.events[-1][:5] == (R.E_STEAL, 0, 0, 1, -1)
    # from a non-empty hand: one random card moves
    g = ref_table(DEFAULTS, 2)
    g.seats[0].hand = [special(STEAL)]
    g.seats[1].hand = cards("金1 金2 金3")
    g.fix_card_set()
    g.cast(0, STEAL, 1)
    assert len(g.seats[0].hand) == 1 and len(g.seats[1].hand) == 2
    assert set(g.seats[0].hand + g.seats[1].hand) == set(cards("金1 金2 金3"))


def test_gamble_discards_hand_and_redraws_same_count():
    """Specials, 乾坤一掷 gamble: discard the whole hand (the gamble card not
    counted), then draw as many; a reshuffle may bring back the cards just
    discarded."""
    g = ref_table(DEFAULTS, 2)
    hand = cards("金1 木2 水3 火4")
    g.seats[0].hand = [special(GAMBLE)] + hand
    g.deck = cards("土7 土8")                   # only two cards left
    g.fix_card_set()
    g.cast(0, GAMBLE)
    assert len(g.seats[0].hand) == 4
    types = [e[0] for e in g.events]
    assert types == [R.E_CAST, R.E_GAMBLE, R.E_DRAW, R.E_DRAW, R.E_RESHUFFLE, R.E_DRAW, R.E_DRAW]
    assert g.events[1][3] == 4                   # four cards discarded
    assert set(g.seats[0].hand[:2]) == set(cards("土7 土8"))
    assert set(g.seats[0].hand[2:]) <= set(hand) | {special(GAMBLE)}
    g.check_cards()


def test_hand_limit_discard():
    """A turn, step 1: draw 1; above hand_limit, discard down to it (policy's
    choice: greedy drops the card it values least, random a random card)."""
    values = values_with(hand_limit=3)
    g = ref_table(values, 2, policies=["greedy", "random"])
    g.seats[0].hand = cards("金1 金2 金3")
    g.seats[0].array = cards("水1")              # each 金 would make a generating pair
    g.deck = [special(GAMBLE)]                  # value_gamble 0: greedy drops it
    g.fix_card_set()
    g.play_turn((R.PASS, 0, -1))
    assert g.seats[0].hand == cards("金1 金2 金3") and g.discard == [special(GAMBLE)]
    values = values_with(hand_limit=2, start_hand=5)
    g = R.Game(values, 2, "random", python_rng(3, 4), log=True)
    g.setup()
    g.play_turn((R.PASS, 0, -1))
    assert len(g.seats[0].hand) == 2
    assert sum(e[0] == R.E_DISCARD for e in g.events) == 4


def test_kernel_draw_reshuffles_then_skips():
    """A turn, step 1: deck empty, reshuffle the discard pile; both empty,
    no draw."""
    k = KernelTable(DEFAULTS, 2)
    st = np.array([game_state(np.uint64(1), np.int64(2))], np.uint64)
    masks = np.zeros((2, 2, 1), np.uint64)
    counts = np.zeros((2, 45), np.int64)
    k.pile[1, :3] = cards("金1 金2 金3")
    k.Z[L.Z_DISC] = 3
    got = [zones.draw(st, k.S, k.hand, k.pile, k.Z, 0, masks, counts, k.tr, True, False)
           for _ in range(4)]
    assert sorted(got[:3]) == cards("金1 金2 金3") and got[3] == -1
    assert k.S[0, L.C_HN] == 3 and k.Z[L.Z_DECK] == 0 and k.Z[L.Z_DISC] == 0
    assert [e[0] for e in k.events()] == [L.E_RESHUFFLE] + [L.E_DRAW] * 3
    # the reference reshuffles the same way from the same stream
    g = R.Game(DEFAULTS, 2, "random", python_rng(1, 2))
    g.discard = cards("金1 金2 金3")
    assert [g.draw(0) for _ in range(4)] == got[:3] + [None]


# --- policies ------------------------------------------------------------------------
def kernel_policy_choice(k: KernelTable, pol: str, p: int, hand: list, seed: int = 0,
                         game: int = 0):
    """The kernel's greedy/patient choice for seat p in a KernelTable position
    (ties are broken from the stream of game ``game`` of ``seed``): the
    position as the engine's ``State``, the rules, policy parameters, bans
    and special table as its ``Ctx``."""
    from balance.rulesets.talisman.state import Ctx, State
    for i, c in enumerate(hand):
        k.hand[p, i] = c
    k.S[p, L.C_HN] = len(hand)
    for s in range(5):          # the kernel keeps a count of each special kind in hand
        k.S[p, L.C_SPEC + s] = hand.count(5 * k.V + s)
    kinds = len(SPEC.card_kinds(k.values))
    pp = SPEC.kernel_arrays(k.values, np.zeros(kinds, np.int64))[1]   # one row per seat
    ctx = Ctx(policy_ids([pol] * k.P), np.int64(k.P), k.ip, pp, np.zeros(kinds, np.int64),
              np.zeros((pp.shape[0], 32), np.int64), np.zeros(6, np.int64), np.zeros(64, np.int64),
              np.zeros(64, np.int64), np.zeros(L.NC_MAX, np.int64), np.zeros(L.NC_MAX, np.int64),
              np.int64(k.V), np.int64(5 * k.V))
    heuristics.fill_special_table(ctx.ip, ctx.pp, ctx.spbest)
    st = np.array([game_state(np.uint64(seed), np.int64(game))], np.uint64)
    state = State(k.S, k.hand, k.pile, k.Z, st)
    return tuple(int(x) for x in heuristics.choose_greedy(state, ctx, SPEC.policies[pol], p))


def test_patient_holds_a_weak_combo():
    """Heuristics, patient: holds the combo until it is worth at least
    min_combo_value (9); greedy fires it at the lowest-HP opponent."""
    k = KernelTable(DEFAULTS, 3)
    k.place(0, "金1 水2")                                  # generating 2: 6 damage
    k.S[1, L.C_HP], k.S[2, L.C_HP] = 12, 10
    assert kernel_policy_choice(k, "greedy", 0, cards("木5")) == (L.A_COMBO, GENERATING, 2)
    assert kernel_policy_choice(k, "patient", 0, cards("木5"))[0] == L.A_PLACE
    k.S[2, L.C_HP] = 6                                     # now it kills: fire
    assert kernel_policy_choice(k, "patient", 0, cards("木5")) == (L.A_COMBO, GENERATING, 2)


def test_patient_fires_when_any_opponent_can_be_killed():
    """Heuristics, patient: 'holds the combo until it is worth at least
    min_combo_value, unless an opponent can be killed now'. Seat 1 has the
    lowest HP but a guard; seat 2 (HP 5, no guard) dies to the 6-damage
    generating combo now, so patient should fire it at seat 2."""
    k = KernelTable(DEFAULTS, 3)
    k.place(0, "金1 水2")
    k.S[1, L.C_HP], k.S[1, L.C_GUARDS] = 3, 1
    k.S[2, L.C_HP] = 5
    assert kernel_policy_choice(k, "patient", 0, cards("木5")) == (L.A_COMBO, GENERATING, 2)


# Ties in a heuristic (docs/rules/README.md): broken uniformly at random from
# the game's own stream, never by seat or list order. Each position has two
# options the heuristic scores the same; the old kernel always took the first.
TIE_POSITIONS = {
    # seat 0 fires generating (6 damage) at the lowest-HP opponent: seats 1 and 2
    # both have 10 HP (before: always seat 1)
    "target": ("金1 水2", "木5", {1: 10, 2: 10}, [(L.A_COMBO, GENERATING, 1),
                                                 (L.A_COMBO, GENERATING, 2)]),
    # empty array: placing 金1 or 木5 scores 0 either way (before: always hand index 0)
    "placement": ("", "金1 木5", {}, [(L.A_PLACE, 0, -1), (L.A_PLACE, 1, -1)]),
    # wind and guard are both worth 1 (value_wind = value_guard): a tie in the
    # per-batch special table, broken per game (before: always wind)
    "special": ("", "", {}, [(L.A_CAST, WIND, -1), (L.A_CAST, GUARD, -1)]),
    # patient: generating (6 damage) puts seat 1 or seat 2 out (5 HP each, no
    # guard) (before: always the first such seat in seat order, seat 1)
    "victim": ("金1 水2", "木5", {1: 5, 2: 5}, [(L.A_COMBO, GENERATING, 1),
                                               (L.A_COMBO, GENERATING, 2)]),
}


@pytest.mark.parametrize("name", sorted(TIE_POSITIONS))
def test_greedy_ties_are_broken_uniformly(name):
    """Heuristic ties: over 2,000 games (streams) the two tied options of the
    same exact position are each chosen about half the time (binomial,
    |x - n/2| < 4.5 sd), and the reference makes the same choice from the same
    stream."""
    array, hand_text, hps, options = TIE_POSITIONS[name]
    hand = cards(hand_text) if hand_text else []
    pol = "patient" if name == "victim" else "greedy"
    if name == "special":
        hand = [special(WIND), special(GUARD)]
    n = 2000
    counts = dict.fromkeys(options, 0)
    for game in range(n):
        k = KernelTable(DEFAULTS, 3)
        if array:
            k.place(0, array)
        for q, hp in hps.items():
            k.S[q, L.C_HP] = hp
        got = kernel_policy_choice(k, pol, 0, hand, seed=7, game=game)
        assert got in counts, got
        counts[got] += 1
        if game < 200:          # the reference draws the same tie-break
            g = R.Game(DEFAULTS, 3, pol, python_rng(7, game))
            g.seats[0].hand = list(hand)
            if array:
                ref_place(g, 0, array)
            for q, hp in hps.items():
                g.seats[q].hp = hp
            kind, arg, tgt = R.choose_greedy(g, 0, patient=(pol == "patient"))
            if kind == R.PLACE:
                arg = hand.index(arg)
            assert (kind, arg, tgt) == got, (game, got)
    sd = (n * 0.25) ** 0.5
    for o, x in counts.items():
        assert abs(x - n / 2) < 4.5 * sd, (name, counts)


# --- per-seat policy parameters ---------------------------------------------------------
@pytest.mark.parametrize("pols, name, v", [
    (["greedy"] * 3, "value_gamble", 5.0),          # the seat's special table (spbest)
    (["patient"] * 3, "min_combo_value", 0.0),      # patient's combo threshold
])
def test_float_policy_parameters_are_read_per_seat(pols, name, v):
    """The float policy parameters reach the kernel one row per seat: the
    contract of policy variants (``core.engine.contract.check_seat_rows``)
    with the changed value at seat 1."""
    contract.check_seat_rows(SPEC, len(pols), pols[0], {name: v}, 1, seed=5)


# --- invariants over many games -------------------------------------------------------
INVARIANT_RUNS = [
    (2, ["random"] * 2, {}), (2, ["greedy"] * 2, {}), (2, ["patient"] * 2, {}),
    (2, ["greedy", "random"], {}), (3, ["random"] * 3, {}), (3, ["greedy"] * 3, {}),
    (3, ["patient", "greedy", "random"], {}), (4, ["random"] * 4, {}),
    (4, ["patient"] * 4, {}), (4, ["greedy", "random", "patient", "greedy"], {}),
    (3, ["random", "greedy", "patient"], {"hp_cap": 0, "hand_limit": 3}),
    (4, ["random", "greedy", "patient", "random"],
     {"values_per_element": 5, "copies_gamble": 8, "copies_steal": 8}),
]


@pytest.mark.parametrize("P, pols, over", INVARIANT_RUNS)
def test_kernel_invariants_check_mode(P, pols, over):
    """Invariants (rules README: cards conserved, HP in range, every game ends
    by max_turns), in the kernel's check mode and on its records."""
    values = values_with(**over)
    n = 2000
    b = batch.play(SPEC, values, 99, 0, n, P, policy_ids(pols), True)
    assert (b.errors == 0).all(), np.flatnonzero(b.errors)[:10]
    winner, turns, end = b.games[:, 0], b.games[:, 1], b.games[:, 3]
    assert (turns >= 1).all() and (turns <= values["max_turns"]).all()
    assert ((winner == -1) == (end == 1)).all()
    hp, out = b.seats[:, :, 0], b.seats[:, :, 1]
    done = end == 0
    # last standing: the winner alone has HP > 0 and no out turn
    alive = out == -1
    assert (alive.sum(axis=1)[done] == 1).all()
    assert (alive[done, :][np.arange(done.sum()), winner[done]]).all()
    assert (hp[alive] > 0).all() and (hp[~alive] <= 0).all()
    assert (out[~alive] <= np.repeat(turns[:, None], P, axis=1)[~alive]).all()
    if values["hp_cap"]:
        assert (hp <= max(values["hp_cap"], values["hp"])).all()


def test_turn_cap_five():
    """Turns and the cap: at max_turns the game ends as a draw (turn_cap)."""
    values = values_with(max_turns=5)
    for P, pols in ((2, ["random"] * 2), (3, ["greedy"] * 3), (4, ["patient", "random"] * 2)):
        b = batch.play(SPEC, values, 1, 0, 2000, P, policy_ids(pols), True)
        assert (b.errors == 0).all()
        assert (b.games[:, 1] == 5).all() and (b.games[:, 0] == -1).all()
        assert (b.games[:, 3] == SPEC.end_reasons.index("turn_cap")).all()
        for g in range(0, 40, 4):
            _, tr = batch.trace(SPEC, values, 1, g, P, policy_ids(pols))
            replay_trace(tr, values, pols)
            assert tuple(tr[-1][[0, 2, 3, 4]]) == (L.E_END, -1, 1, 5)


# --- an independent check of the kernel's event traces ---------------------------------
def replay_trace(tr, values: dict, policies: list) -> dict:
    """Re-play a kernel trace zone by zone and check the rules on it.

    Checks: cards conserved across deck, discard pile, hands and arrays after
    every event; each reshuffle moves exactly the discard pile; HP changes
    only through damage (lowering it, a guard absorbing whole instances) and
    four symbols (the only rise, never above hp_cap); the turn passes to the
    next living seat and a wind hits the next living seat; a skipped turn has
    no draw; the hand limit is applied after the draw; a steal takes nothing
    only from an empty hand; a gamble redraws what it discarded; each combo's
    size matches the reference's combo finder on the re-played array; a
    straight flush damages every living opponent, in turn order, before any
    elimination; eliminated seats (all with HP <= 0) lose hand and array and
    never play again; the game ends by max_turns with the right winner."""
    V = values["values_per_element"]
    NB = 5 * V
    P = len(policies)
    NC = len(deck_list(values))
    cap, limit = values["hp_cap"], values["hand_limit"]
    hands = [[] for _ in range(P)]
    arrays = [[] for _ in range(P)]
    hp = [values["hp"]] * P
    guards, skips = [0] * P, [0] * P
    alive = [True] * P
    deck, disc = NC, 0
    stats = {"flush_kills": 0, "steal_empty": 0, "gambles": 0, "limit_discards": 0, "outs": 0}
    rows = [tuple(int(x) for x in r) for r in tr]
    turn, cur, rounds = 0, None, 1
    i = 0
    turn_start_hp = None

    def conserve():
        total = deck + disc + sum(map(len, hands)) + sum(map(len, arrays))
        assert total == NC, f"row {i}: {total} cards, expected {NC}"

    def end_of_turn():
        if turn_start_hp is None:
            return
        for q in range(P):
            if alive[q]:
                assert hp[q] > 0, f"turn {turn}: seat {q} has HP {hp[q]} but is not out"

    while i < len(rows):
        t, tn, p, a, b, c, d, e = rows[i]
        if t == L.E_DEAL:
            deck -= 1
            hands[p].append(a)
        elif t == L.E_TURN:
            end_of_turn()
            assert tn == turn + 1, "turns are numbered 1, 2, ..."
            turn = tn
            if cur is not None:
                nxt = (cur + 1) % P
                while not alive[nxt]:
                    nxt = (nxt + 1) % P
                assert p == nxt, f"turn {tn}: seat {p} plays, expected {nxt}"
                if nxt <= cur:
                    rounds += 1
            else:
                assert p == 0, "seat 0 moves first"
            assert alive[p] and a == rounds
            cur = p
            assert (b, c, d) == (hp[p], len(hands[p]), guards[p])
            turn_start_hp = list(hp)
            nxt_t = rows[i + 1][0]
            if skips[p] > 0:
                assert nxt_t == L.E_SKIP
            elif deck + disc > 0:
                assert nxt_t in (L.E_DRAW, L.E_RESHUFFLE), f"turn {tn}: no draw"
            else:
                assert nxt_t not in (L.E_DRAW, L.E_RESHUFFLE, L.E_SKIP)
            if nxt_t != L.E_SKIP:
                # the draw (if any) and the hand-limit discards
                j = i + 1
                if rows[j][0] == L.E_RESHUFFLE:
                    j += 1
                drawn = 1 if rows[j][0] == L.E_DRAW else 0
                n_disc = 0
                while rows[j + drawn + n_disc][0] == L.E_DISCARD:
                    n_disc += 1
                assert n_disc == max(0, len(hands[p]) + drawn - limit)
                stats["limit_discards"] += n_disc
        elif t == L.E_SKIP:
            assert skips[p] > 0
            skips[p] -= 1
            assert a == skips[p]
        elif t == L.E_RESHUFFLE:
            assert deck == 0 and a == disc and a > 0
            deck, disc = disc, 0
        elif t == L.E_DRAW:
            assert deck > 0
            deck -= 1
            hands[p].append(a)
        elif t == L.E_DISCARD:
            hands[p].remove(a)
            disc += 1
        elif t == L.E_PLACE:
            assert a < NB and a not in arrays[p]
            hands[p].remove(a)
            arrays[p].append(a)
            assert b == len(arrays[p])
        elif t == L.E_CAST:
            hands[p].remove(NB + a)
            disc += 1
            if a in (THUNDER, STEAL):
                assert b != p and alive[b]
            else:
                assert b == -1
        elif t == L.E_PASS:
            if policies[p] == "random":
                # random passes only when nothing is legal: no card to place or
                # cast (specials always have a target) and no combo
                assert not hands[p] and not R.find_combos(arrays[p], V)
        elif t == L.E_DAMAGE:
            # HP only falls here: the one place it rises is E_HEAL below
            assert d == cur and p != cur
            if b:
                assert guards[p] > 0
                guards[p] -= 1
            else:
                assert guards[p] == 0 and a > 0
                hp[p] -= a
            assert c == hp[p]
        elif t == L.E_HEAL:
            assert a >= 0
            hp[p] += a
            assert b == hp[p]
            if cap and a > 0:
                assert hp[p] <= cap
        elif t == L.E_STEAL:
            if b < 0:
                assert hands[a] == []
                stats["steal_empty"] += 1
            else:
                hands[a].remove(b)
                hands[p].append(b)
        elif t == L.E_WIND:
            nxt = (p + 1) % P
            while not alive[nxt]:
                nxt = (nxt + 1) % P
            assert a == nxt
            skips[a] += 1
            assert b == skips[a]
        elif t == L.E_GUARD:
            guards[p] += 1
            assert a == guards[p]
        elif t == L.E_GAMBLE:
            assert a == len(hands[p])
            disc += a
            hands[p] = []
            # then exactly as many draws by the gambler (reshuffles between)
            after = [r for r in rows[i + 1:] if r[0] != L.E_RESHUFFLE][:a]
            assert [(r[0], r[2]) for r in after] == [(L.E_DRAW, p)] * a
            stats["gambles"] += 1
        elif t == L.E_COMBO:
            found = R.find_combos(arrays[p], V)
            assert a in found and c == found[a].size
            assert d == R.combo_amount(values, a, c)
            disc += len(arrays[p])
            arrays[p] = []
            if a == FLUSH:
                opp = []
                q = (p + 1) % P
                while q != p:
                    if alive[q]:
                        opp.append(q)
                    q = (q + 1) % P
                hit = []
                j = i + 1
                while j < len(rows) and rows[j][0] == L.E_DAMAGE:
                    hit.append(rows[j][2])
                    j += 1
                assert hit == (opp if d > 0 else [])
                outs = [r[2] for r in rows[j:] if r[0] == L.E_OUT and r[1] == tn]
                if outs and len(hit) >= 2 and outs[0] != hit[-1]:
                    stats["flush_kills"] += 1
            elif a != FOUR:
                assert b != p and alive[b]
        elif t == L.E_DESTROY:
            assert a == len(arrays[p])
            disc += a
            arrays[p] = []
        elif t == L.E_OUT:
            assert alive[p] and hp[p] <= 0
            alive[p] = False
            disc += len(hands[p]) + len(arrays[p])
            hands[p], arrays[p] = [], []
            guards[p] = skips[p] = 0
            stats["outs"] += 1
        elif t == L.E_END:
            end_of_turn()
            living = [q for q in range(P) if alive[q]]
            if a == 0:
                assert living == [p]
            else:
                assert p == -1 and len(living) > 1 and b == values["max_turns"]
            assert b == turn <= values["max_turns"] and c == rounds
            assert i == len(rows) - 1
        else:
            raise AssertionError(f"unknown event {rows[i]}")
        conserve()
        i += 1
    assert rows and rows[-1][0] == L.E_END
    return stats


TRACE_RUNS = [
    (2, ["random", "greedy"], {}), (3, ["random", "greedy", "patient"], {}),
    (4, ["random"] * 4, {}), (4, ["patient", "random", "greedy", "random"], {}),
    (3, ["random"] * 3, {"flush_per_card": 8, "copies_steal": 12, "copies_gamble": 8,
                         "hand_limit": 4}),
    (4, ["random", "greedy"] * 2, {"values_per_element": 4, "copies_steal": 8,
                                    "start_hand": 2, "hand_limit": 2, "flush_per_card": 10}),
]


def test_kernel_traces_obey_the_rules():
    """Invariants on ~300 kernel event traces, re-played independently (see
    replay_trace): HP rises only through four symbols (E_HEAL) and never
    above hp_cap, cards are conserved, every game ends by max_turns."""
    totals = {}
    n = 0
    for P, pols, over in TRACE_RUNS:
        values = values_with(**over)
        for game in range(50):
            _, tr = batch.trace(SPEC, values, 11, game, P, policy_ids(pols))
            for key, v in replay_trace(tr, values, pols).items():
                totals[key] = totals.get(key, 0) + v
            n += 1
    assert n >= 300
    # the checks above were exercised, not vacuous
    for key in ("flush_kills", "steal_empty", "gambles", "limit_discards", "outs"):
        assert totals[key] > 0, key


def test_trace_replay_catches_corruption():
    """The re-play is not vacuous: corrupting one fact of a genuine trace
    (a damage amount, a lost discard, a heal above the cap, a short
    reshuffle, a turn out of order) makes it fail."""
    values = values_with(hand_limit=4, copies_gamble=8, value_gamble=1.0)
    pols = ["random", "greedy", "patient"]
    needed = (L.E_DAMAGE, L.E_DISCARD, L.E_RESHUFFLE, L.E_HEAL)
    for game in range(100):
        _, tr = batch.trace(SPEC, values, 4, game, 3, policy_ids(pols))
        if all((tr[:, 0] == t).any() for t in needed):
            break
    else:
        pytest.fail("no trace with every event needed")
    replay_trace(tr, values, pols)
    first = {t: int(np.flatnonzero(tr[:, 0] == t)[0]) for t in needed}
    second_turn = int(np.flatnonzero(tr[:, 0] == L.E_TURN)[1])

    def bumped(row, col, by):
        m = tr.copy()
        m[row, col] += by
        return m

    corrupted = [
        bumped(first[L.E_DAMAGE], 3, 1),                 # damage amount
        np.delete(tr, first[L.E_DISCARD], axis=0),       # a discard goes missing
        bumped(first[L.E_HEAL], 3, 30),                  # heal past the cap
        bumped(first[L.E_RESHUFFLE], 3, -1),             # reshuffle short of the pile
        bumped(second_turn, 2, 1),                       # the wrong seat plays
    ]
    for m in corrupted:
        with pytest.raises((AssertionError, ValueError)):
            replay_trace(m, values, pols)
