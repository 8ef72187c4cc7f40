"""Talisman Poker (符咒游戏): card ids, constants and parameters.

Contract: ``docs/rules/talisman.md``. Decisions where it is silent are in
``balance/rulesets/talisman/README.md``.

Card ids: basic cards are ``element * V + (value - 1)`` for elements in the
order metal 金, wood 木, water 水, fire 火, earth 土 and values 1..V
(``V = values_per_element``); the five specials follow at ``5V + s`` for
s = thunder, wind, guard, steal, gamble. A card id is also its card kind.
"""
from dataclasses import dataclass, fields

import numpy as np

from ...core import search
from ...core.params import kernel_index, param
from .layout import (END_REASONS, POL_GREEDY, POL_ORACLE, POL_PATIENT,  # noqa: F401  (END_REASONS: the spec's)
                     POL_ISMCTS, POL_RANDOM, POL_SEARCH, POL_SEARCH_FAST, POL_SEARCH_STRONG)

ELEMENTS = ("metal", "wood", "water", "fire", "earth")
ELEMENTS_ZH = ("金", "木", "水", "火", "土")
SPECIALS = ("thunder", "wind", "guard", "steal", "gamble")
SPECIALS_ZH = ("雷咒", "风咒", "护身咒", "窃灵咒", "乾坤一掷")
THUNDER, WIND, GUARD, STEAL, GAMBLE = range(5)
COMBOS = ("straight flush", "generating", "overcoming", "four symbols", "chaos strike")
FLUSH, GENERATING, OVERCOMING, FOUR, CHAOS = range(5)
METAL, WOOD, WATER, FIRE, EARTH = range(5)
# 金→水→木→火→土→金 and 金→木→土→水→火→金
GENERATING_CYCLE = (METAL, WATER, WOOD, FIRE, EARTH)
OVERCOMING_CYCLE = (METAL, WOOD, EARTH, WATER, FIRE)


@dataclass(frozen=True)
class Params:
    hp: int = param(20, doc="starting HP 元气 of each player (Setup: 20点元气)",
                    bounds=(1, 1000), sweep=(10, 15, 20, 25, 30, 40))
    hp_cap: int = param(20, doc="four symbols heals up to this HP; 0 = no cap (恢复 restore)",
                        bounds=(0, 1000), sweep=(0, 20, 25, 30))
    start_hand: int = param(5, doc="cards dealt to each player at setup (抓5张牌)",
                            bounds=(0, 10), sweep=(3, 4, 5, 6, 7))
    hand_limit: int = param(7, doc="after the draw, discard down to this many (手牌上限7张)",
                            bounds=(1, 20), sweep=(5, 6, 7, 8, 10))
    thunder_damage: int = param(2, doc="thunder 雷咒 damage to one opponent",
                                bounds=(0, 100), sweep=(0, 1, 2, 3, 4, 6))
    flush_per_card: int = param(2, doc="straight flush 同花顺: damage per card to every opponent",
                                bounds=(0, 100), sweep=(1, 2, 3, 4))
    generating_per_card: int = param(3, doc="generating 五行相生: damage per card to one opponent",
                                     bounds=(0, 100), sweep=(1, 2, 3, 4, 5))
    overcoming_per_card: int = param(1, doc="overcoming 五行相克: damage per card (and the target's array is destroyed)",
                                     bounds=(0, 100), sweep=(0, 1, 2, 3))
    four_symbols_heal_factor: int = param(1, doc="four symbols 四象阵: heal = sum of the 4 values x this",
                                          bounds=(0, 100), sweep=(0, 1, 2))
    chaos_factor: int = param(1, doc="chaos strike 混沌一击: damage = value x count x this",
                              bounds=(0, 100), sweep=(0, 1, 2))
    copies_thunder: int = param(4, doc="copies of thunder 雷咒 in the deck (4张)", bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    copies_wind: int = param(4, doc="copies of wind 风咒 in the deck (4张)", bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    copies_guard: int = param(4, doc="copies of guard 护身咒 in the deck (4张)", bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    copies_steal: int = param(4, doc="copies of steal 窃灵咒 in the deck (4张)", bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    copies_gamble: int = param(4, doc="copies of gamble 乾坤一掷 in the deck (4张)", bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    values_per_element: int = param(8, doc="basic cards per element, values 1..this (数字1-8)",
                                    bounds=(2, 12), sweep=(6, 7, 8, 9, 10))
    max_turns: int = param(1000, doc="turn cap: the game ends as a draw (rules README: every game ends)",
                           bounds=(1, 100_000), sweep=(100, 300, 1000))


@dataclass(frozen=True)
class PolicyParams:
    min_combo_value: float = param(9.0, doc="patient: hold a combo until its value reaches this, unless it kills now",
                                   bounds=(0.0, 1000.0), sweep=(3.0, 6.0, 9.0, 12.0, 15.0, 20.0))
    value_steal: float = param(1.0, doc="greedy/patient: immediate value of a steal (<= 0: never cast)",
                               bounds=(-100.0, 100.0), sweep=(0.0, 1.0, 3.0))
    value_wind: float = param(1.0, doc="greedy/patient: immediate value of a wind (<= 0: never cast)",
                              bounds=(-100.0, 100.0), sweep=(0.0, 1.0, 3.0))
    value_guard: float = param(1.0, doc="greedy/patient: immediate value of a guard (<= 0: never cast)",
                               bounds=(-100.0, 100.0), sweep=(0.0, 1.0, 3.0))
    value_gamble: float = param(0.0, doc="greedy/patient: immediate value of a gamble (<= 0: never cast)",
                                bounds=(-100.0, 100.0), sweep=(0.0, 1.0))
    destroy_value: float = param(1.0, doc="greedy/patient: value of each card an overcoming combo destroys",
                                 bounds=(0.0, 100.0), sweep=(0.0, 1.0, 2.0))
    heal_value: float = param(1.0, doc="greedy/patient: value of one HP healed (one damage = 1)",
                              bounds=(0.0, 100.0), sweep=(0.0, 0.5, 1.0, 2.0))
    search_top_k: int = param(4, doc="search: evaluate only the k candidate actions greedy scores "
                                     "best (0 = every distinct legal action)",
                              bounds=(0, 64), sweep=(0, 2, 4, 6, 10))
    search_determinizations: int = param(8, doc="search: samples of the hidden cards (opponents' "
                                                "hands, deck order) per decision; search_fast /4, "
                                                "search_strong x4",
                                         bounds=(1, 1024), sweep=(1, 2, 4, 8, 16, 32))
    search_rollouts: int = param(1, doc="search: games played to the end per determinization "
                                        "and candidate",
                                 bounds=(1, 1024), sweep=(1, 2, 4))
    search_rollout_policy: int = param(0, doc="search: policy of every seat in the rollouts "
                                              "(0 = greedy, 1 = random)",
                                       bounds=(0, 1), choices=(0, 1), sweep=(0, 1))
    search_rollout_turns: int = param(200, doc="search: a rollout still running this many turns "
                                               "after the decision stops and counts as no win",
                                      bounds=(1, 100_000), sweep=(20, 50, 200, 1000))
    search_iterations: int = search.iterations_param()


IDX = kernel_index(Params)
PIDX = kernel_index(PolicyParams)
# The kernel's int vector holds the int rule parameters, then the int policy
# parameters (``__init__.kernel_args``): slot of each int policy parameter.
N_INT_RULES = sum(not isinstance(f.default, float) for f in fields(Params))
QIDX = {f.name: N_INT_RULES + PIDX[f.name] for f in fields(PolicyParams)
        if not isinstance(f.default, float)}

POLICIES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "patient": POL_PATIENT,
            "search_fast": POL_SEARCH_FAST, "search": POL_SEARCH,
            "search_strong": POL_SEARCH_STRONG, "oracle": POL_ORACLE, "ismcts": POL_ISMCTS}
SEARCH_POLICIES = ("search_fast", "search", "search_strong", "oracle", "ismcts")   # README "Policies"
POLICY_DOCS = {
    "random": "uniform over the distinct legal actions; random discards; pass only when nothing is legal",
    "greedy": "best combo by immediate value, else best special, else the placement keeping most combos; "
              "targets the lowest-HP opponent",
    "patient": "greedy, but holds a combo until its value >= min_combo_value unless it kills now",
    "search_fast": "search at a quarter of its budget (search_determinizations / 4, at least 1)",
    "search": "determinized flat Monte Carlo: each candidate action (top search_top_k by greedy's "
              "score) is played out search_rollouts times in each of search_determinizations "
              "samples of the hidden cards, with search_rollout_policy at every seat; the most "
              "rollout wins is played (draws and capped rollouts count 0); discards like greedy",
    "search_strong": "search at four times its budget (search_determinizations x 4)",
    "ismcts": "information-set MCTS (core.engine.search): search_iterations descents of one tree "
              "of information sets, each in a new sample of the hidden cards, UCB selection, "
              "search_rollout_policy rollouts",
    "oracle": "search that cheats: its rollouts see the real opponents' hands and deck order "
              "(a yardstick, not a fair player)",
}


def card_kinds(values: dict) -> list[str]:
    V = values["values_per_element"]
    return [f"{e}-{v}" for e in ELEMENTS for v in range(1, V + 1)] + list(SPECIALS)


def card_name(card: int, V: int) -> str:
    if card < 5 * V:
        return f"{ELEMENTS_ZH[card // V]}{card % V + 1}"
    return SPECIALS[card - 5 * V]


def deck_list(values: dict) -> list[int]:
    """The unshuffled deck: basics in id order, then each special's copies."""
    V = values["values_per_element"]
    cards = list(range(5 * V))
    for s, name in enumerate(SPECIALS):
        cards += [5 * V + s] * values[f"copies_{name}"]
    return cards


def _cycle_table(cycle) -> np.ndarray:
    """For each 5-bit set of present elements, the longest run of present
    elements contiguous along ``cycle`` (5 when all are present)."""
    table = np.zeros(32, np.int64)
    for m in range(32):
        present = [(m >> e) & 1 for e in cycle]
        if all(present):
            table[m] = 5
            continue
        best = 0
        for i in range(5):
            n = 0
            while n < 5 and present[(i + n) % 5]:
                n += 1
            best = max(best, n)
        table[m] = best
    return table


GEN_TABLE = _cycle_table(GENERATING_CYCLE)
OVER_TABLE = _cycle_table(OVERCOMING_CYCLE)
