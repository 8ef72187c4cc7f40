"""Demon Faction (魔族阵营): card ids, constants and parameters.

Contract: ``docs/rules/demon.md``. Decisions where it is silent are in
``balance/rulesets/demon/README.md``.

Card ids (= card kinds): ``suit * 13 + rank - 1`` for the suits in row order
♦ (row 1), ♠ (row 2), ♣ (row 3), ♥ (magic weapons, rows 1-2) and ranks
A=1 .. 10, J=11, Q=12, K=13; then the big joker (52) and the small joker
(53). Each player has its own 54-card deck, so a card id names one card of
a seat: every zone of a seat is a 54-bit mask.
"""
from dataclasses import dataclass

from ...core import search
from ...core.params import int_count, kernel_index, param
from .layout import (END_REASONS, POL_DEFENSIVE, POL_GREEDY, POL_ISMCTS,  # noqa: F401
                     POL_RANDOM, POL_SEARCH_FAST, POL_SEARCH, POL_SEARCH_STRONG)

SUITS = ("diamond", "spade", "club", "heart")
SUIT_SYM = ("♦", "♠", "♣", "♥")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BIG, SMALL, N_KINDS = 52, 53, 54
ROW_NAMES = ("row 1 ♦", "row 2 ♠", "row 3 ♣")


@dataclass(frozen=True)
class Params:
    hp: int = param(50, doc="starting HP of each player (双方设置生命点数30-100)",
                    bounds=(30, 100), sweep=(30, 40, 50, 60, 70, 80, 90, 100))
    passive_damage: int = param(1, doc="demon passive: extra damage per own normal card leaving "
                                "the field (每一张，额外受到一点伤害)",
                                bounds=(0, 10), sweep=(0, 1, 2, 3))
    big_joker_heal: int = param(10, doc="big joker into an empty row: heal (自己回复十点生命值), "
                                "never above hp", bounds=(0, 50), sweep=(0, 5, 10, 15, 20))
    joker_direct_bonus: int = param(10, doc="big joker effect on a direct attack: row power + "
                                    "this (再加十点)", bounds=(0, 50), sweep=(0, 5, 10, 20))
    clash_damage: int = param(10, doc="joker clash: the side that yields or loses takes this "
                              "(收到十点伤害)", bounds=(0, 50), sweep=(0, 5, 10, 20))
    small_joker_reply_cost: int = param(5, doc="small joker played in reply on the opponent's "
                                        "turn costs its user this (受到五点伤害)",
                                        bounds=(0, 50), sweep=(0, 3, 5, 10))
    row3_multiplier: int = param(2, doc="row 1 attacking row 3: card value x this "
                                 "(伤害加倍; the passive is not multiplied)",
                                 bounds=(1, 5), sweep=(1, 2, 3))
    k_option2_points: int = param(6, doc="K revival option 2 needs this many regeneration "
                                  "points (大于等于6)", bounds=(1, 20), sweep=(4, 6, 8))
    start_hand: int = param(5, doc="cards each player draws at the opening (各抽五张)",
                            bounds=(0, 20), sweep=(3, 5, 7))
    draw_per_turn: int = param(2, doc="cards drawn every turn (抽两张牌)", bounds=(0, 10),
                               sweep=(1, 2, 3))
    hand_trigger: int = param(7, doc="preparation: with this many cards or more in hand, "
                              "discard (七张或以上)", bounds=(1, 30), sweep=(6, 7, 8, 10))
    hand_keep: int = param(5, doc="preparation: discard down to this many (弃掉手牌直到五张)",
                           bounds=(0, 29), sweep=(3, 4, 5, 6))
    stalemate_rounds: int = param(10, doc="a draw (end reason stalemate) after this many full "
                                  "rounds without an HP change", bounds=(1, 1000),
                                  sweep=(5, 10, 20))
    max_turns: int = param(1000, doc="turn cap: the game ends as a draw (rules README: every "
                           "game ends)", bounds=(2, 100_000), sweep=(200, 1000))


@dataclass(frozen=True)
class PolicyParams:
    win_bonus: float = param(2.0, doc="greedy/defensive: placement bonus when the row starts "
                             "to out-power a row it may attack", bounds=(0.0, 100.0),
                             sweep=(0.0, 2.0, 5.0))
    slot_value: float = param(2.0, doc="greedy/defensive: value of taking an empty extra-zone "
                              "slot", bounds=(-100.0, 100.0), sweep=(0.0, 2.0, 4.0))
    q_value: float = param(1.5, doc="greedy/defensive: value of a Q on the board",
                           bounds=(-100.0, 100.0), sweep=(0.0, 1.5, 3.0))
    k_value: float = param(1.5, doc="greedy/defensive: value of a K on the board",
                           bounds=(-100.0, 100.0), sweep=(0.0, 1.5, 3.0))
    joker_value: float = param(3.0, doc="greedy/defensive: value of a big joker kept in an "
                               "occupied row", bounds=(-100.0, 100.0), sweep=(0.0, 3.0, 6.0))
    heal_min: float = param(5.0, doc="greedy/defensive: a big joker heals only when it restores "
                            "more than this", bounds=(0.0, 100.0), sweep=(0.0, 5.0, 8.0))
    joker_spend: float = param(2.0, doc="greedy/defensive: cost of spending the big joker's "
                               "effect in an attack", bounds=(0.0, 100.0), sweep=(0.0, 2.0, 5.0))
    small_value: float = param(5.0, doc="greedy/defensive: value of destroying the opponent's "
                               "big joker on one's own turn", bounds=(-100.0, 100.0),
                               sweep=(-1.0, 5.0))
    reply_margin: float = param(5.0, doc="greedy/defensive: reply with the small joker only "
                                "with HP above the reply cost + this", bounds=(0.0, 100.0),
                                sweep=(0.0, 5.0, 20.0))
    k_revive_min: float = param(7.0, doc="greedy/defensive: K option 2 only for a card of at "
                                "least this value", bounds=(0.0, 11.0), sweep=(1.0, 7.0, 10.0))
    guard_bonus: float = param(10.0, doc="defensive: placement bonus for filling an empty "
                               "row 1", bounds=(0.0, 100.0), sweep=(0.0, 5.0, 10.0))
    # search (core/search.py): ints, passed to the kernel after the rule ints (kernel_args)
    search_top_k: int = param(4, doc="search: candidates per decision, the best by greedy's "
                              "score (0: every distinct legal action)", bounds=(0, 64),
                              sweep=(0, 2, 4, 8))
    search_determinizations: int = param(16, doc="search: determinizations per candidate (the "
                                         "opponent's hand and both deck orders dealt again); "
                                         "search_fast x1/4, search_strong x4, at least 1",
                                         bounds=(1, 4096), sweep=(4, 8, 16, 32, 64))
    search_rollouts: int = param(1, doc="search: rollouts to the end per determinization and "
                                 "candidate", bounds=(1, 1024), sweep=(1, 2, 4))
    search_rollout_policy: int = param(0, doc="search: the policy of every seat in a rollout "
                                       "(0 greedy, 1 random)", bounds=(0, 1), sweep=(0, 1))
    search_iterations: int = search.iterations_param()


IDX = kernel_index(Params)
PIDX = kernel_index(PolicyParams)
# the kernel's int vector: the rule ints, then the policy ints (``__init__.kernel_args``)
N_RULE_INTS = int_count(Params)

SEARCH_POLICIES = {"search_fast": POL_SEARCH_FAST, "search": POL_SEARCH,
                   "search_strong": POL_SEARCH_STRONG, "ismcts": POL_ISMCTS}
assert list(search.LEVELS) == ["search_fast", "search", "search_strong"]

POLICIES = {"random": POL_RANDOM, "greedy": POL_GREEDY, "defensive": POL_DEFENSIVE,
            **SEARCH_POLICIES}
POLICY_DOCS = {
    "random": "uniform over the distinct legal actions at every choice, exactly as the rules "
              "file defines it (the yardstick)",
    "greedy": "best immediate value: places to maximise row power where it wins fights, "
              "attacks the target that deals most damage, uses jokers and face cards when "
              "their immediate value is positive",
    "defensive": "greedy, plus a bonus (guard_bonus) for keeping row 1 occupied",
    **search.DOCS,
    "ismcts": "information-set MCTS (core.engine.search): search_iterations descents of one "
              "tree of the seat's information sets, each in a new sample of what it cannot "
              "see, UCB selection, search_rollout_policy rollouts",
}


def card_kinds(values: dict | None = None) -> list[str]:
    return [f"{s}-{r}" for s in SUITS for r in RANKS] + ["big-joker", "small-joker"]


def card_name(card: int) -> str:
    card = int(card)
    if card == BIG:
        return "big joker"
    if card == SMALL:
        return "small joker"
    if card < 0:
        return "-"
    return SUIT_SYM[card // 13] + RANKS[card % 13]


def value(card: int) -> int:
    return card % 13 + 1
