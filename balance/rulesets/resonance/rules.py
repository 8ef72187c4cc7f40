"""Magic Resonance (魔法共振): card kinds, constants and parameters.

Contract: ``docs/rules/resonance.md``. Decisions where it is silent are in
``balance/rulesets/resonance/README.md``.

Card kinds: rune ``colour * 4 + i`` for colours red, green, blue and values
``VALUES[i]`` = 1, 2, -1, -2 (named ``red-1`` ... ``blue--2``), then
``dissolve`` (12). The 18 magic cards are data (``cards.py``).
"""
from dataclasses import dataclass

import numpy as np

from ...core import search
from ...core.params import int_count, kernel_index, param
from .layout import (DISSOLVE, END_REASONS, NK, POL_COUNTER, POL_RANDOM,  # noqa: F401
                     POL_ISMCTS, POL_SABOTEUR, POL_SEARCH, POL_SEARCH_FAST, POL_SEARCH_STRONG,
                     VALUES)

COLOURS = ("red", "green", "blue")
COLOURS_ZH = ("毁灭", "生命", "信仰")


@dataclass(frozen=True)
class Params:
    hand_size: int = param(8, doc="rune-deck cards dealt to each player (8张符文牌作为手牌)",
                           bounds=(1, 20), sweep=(5, 6, 7, 8, 9, 10))
    markers: int = param(40, doc="score markers in the supply (分数指示物40个); gains stop when empty",
                         bounds=(0, 1000), sweep=(10, 20, 40, 80))
    end_total_magic: int = param(5, doc="the game ends when this many magic cards are acquired in all (总和达到5张)",
                                 bounds=(1, 18), sweep=(3, 4, 5, 6, 7))
    end_player_magic: int = param(3, doc="the game ends when one player owns this many magic cards (获得3张)",
                                  bounds=(1, 18), sweep=(2, 3, 4))
    end_players_left: int = param(2, doc="the game ends when only this many players hold cards (只剩下2位玩家留有手牌)",
                                  bounds=(0, 5), sweep=(1, 2))
    fail_discard: int = param(2, doc="cards each participant discards when a resonance fails (弃掉2张手牌)",
                              bounds=(0, 20), sweep=(0, 1, 2, 3, 4))
    copies_1: int = param(18, doc="runes of value 1 per colour (1点x18)", bounds=(0, 40), sweep=(12, 15, 18, 21))
    copies_2: int = param(12, doc="runes of value 2 per colour (2点x12)", bounds=(0, 40), sweep=(8, 10, 12, 14))
    copies_minus1: int = param(6, doc="runes of value -1 per colour (-1点x6)", bounds=(0, 40), sweep=(0, 3, 6, 9))
    copies_minus2: int = param(3, doc="runes of value -2 per colour (-2点x3)", bounds=(0, 40), sweep=(0, 3, 6))
    copies_dissolve: int = param(9, doc="dissolve cards 溶解 in the rune deck (x9)", bounds=(0, 40), sweep=(0, 5, 9, 14))
    max_turns: int = param(1000, doc="turn cap: the game ends as a draw (rules README: every game ends)",
                           bounds=(1, 100_000), sweep=(100, 300, 1000))


@dataclass(frozen=True)
class PolicyParams:
    p_start: float = param(0.3, doc="random: chance of starting a resonance on its turn",
                           bounds=(0.0, 1.0), sweep=(0.1, 0.2, 0.3, 0.5, 0.8))
    p_join: float = param(0.5, doc="random: chance of joining a resonance",
                          bounds=(0.0, 1.0), sweep=(0.2, 0.5, 0.8))
    start_threshold: float = param(0.6, doc="counter/saboteur: start when the estimated chance of success is at least this",
                                   bounds=(0.0, 1.0), sweep=(0.4, 0.5, 0.6, 0.7, 0.8, 0.9))
    join_threshold: float = param(0.6, doc="counter/saboteur: join when the estimated chance of success is at least this "
                                  "(saboteur: below it at placement, it sabotages)",
                                  bounds=(0.0, 1.0), sweep=(0.4, 0.5, 0.6, 0.7, 0.8, 0.9))
    overdraft_risk: float = param(0.3, doc="counter/saboteur: start or join only when the estimated chance of overdraft is at most this",
                                  bounds=(0.0, 1.0), sweep=(0.1, 0.2, 0.3, 0.5, 1.0))
    dissolve_value: float = param(2.0, doc="counter/saboteur: spend a dissolve card from hand on a known field rune "
                                  "of at least this absolute value (3 = never)",
                                  bounds=(1.0, 3.0), sweep=(1.0, 2.0, 3.0))
    hit_value: float = param(0.5, doc="counter/saboteur: value of HIT n to a participant, per card (others discard)",
                             bounds=(0.0, 5.0), sweep=(0.0, 0.5, 1.0))
    # search (core/search.py): ints, passed to the kernel after the rule ints (kernel_args)
    search_top_k: int = param(0, doc="search: candidates per decision, the best by counter's "
                              "score (0 = every distinct legal action)",
                              bounds=(0, 12), sweep=(0, 2, 3, 4, 6))
    search_determinizations: int = param(32, doc="search: determinizations per candidate at "
                                         "level `search` (search_fast x1/4, search_strong x4, "
                                         "at least 1)",
                                         bounds=(1, 1024), sweep=(1, 2, 4, 8, 16, 32))
    search_rollouts: int = param(1, doc="search: rollouts to the end per determinization",
                                 bounds=(1, 64), sweep=(1, 2, 4))
    search_rollout_policy: int = param(0, doc="search: the policy of every seat in the "
                                       "rollouts (0 = counter, 1 = random)",
                                       bounds=(0, 1), sweep=(0, 1))
    search_iterations: int = search.iterations_param()


IDX = kernel_index(Params)
PIDX = kernel_index(PolicyParams)
# the kernel's int vector: the rule ints, then the policy ints (``__init__.kernel_args``)
N_RULE_INTS = int_count(Params)

POLICIES = {"random": POL_RANDOM, "counter": POL_COUNTER, "saboteur": POL_SABOTEUR,
            "search_fast": POL_SEARCH_FAST, "search": POL_SEARCH,
            "search_strong": POL_SEARCH_STRONG, "ismcts": POL_ISMCTS}
assert list(search.LEVELS) == ["search_fast", "search", "search_strong"]
POLICY_DOCS = {
    "random": "the yardstick: uniform placement and peek, starts with p_start (card uniform), "
              "joins with p_join, dissolves only when forced, uniform discards",
    "counter": "estimates each colour's field total from own runes, peeks and the unseen cards; "
               "starts/joins above start/join_threshold with overdraft chance <= overdraft_risk; "
               "places for its best card, peeks at the column it knows least",
    "saboteur": "counter, but when its best card's chance is below join_threshold it places "
                "negative runes in the colours the revealed cards need",
    **search.DOCS,
    "ismcts": "information-set MCTS (core.engine.search): search_iterations descents of one "
              "tree of the seat's information sets, each in a new sample of what it cannot "
              "see, UCB selection, search_rollout_policy rollouts",
}


def card_kinds(values: dict | None = None) -> list[str]:
    return [f"{c}-{v}" for c in COLOURS for v in VALUES] + ["dissolve"]


def card_name(kind: int) -> str:
    if kind == DISSOLVE:
        return "dissolve"
    v = VALUES[kind % 4]
    return f"{COLOURS[kind // 4][0].upper()}{v:+d}"


def deck_counts(values: dict) -> np.ndarray:
    """Copies of each card kind in the rune deck."""
    per = [values["copies_1"], values["copies_2"], values["copies_minus1"], values["copies_minus2"]]
    return np.array(per * 3 + [values["copies_dissolve"]], np.int64)


def deck_list(values: dict) -> list[int]:
    out = []
    for k, n in enumerate(deck_counts(values)):
        out += [k] * int(n)
    return out


KIND_VALUE = np.array([VALUES[k % 4] for k in range(12)] + [0], np.int64)
KIND_COLOUR = np.array([k // 4 for k in range(12)] + [-1], np.int64)
assert NK == 13
