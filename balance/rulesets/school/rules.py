"""Magic School (魔法学校): card ids, parameters, policies.

Contract: ``docs/rules/school.md``. Decisions where it is silent are in
``balance/rulesets/school/README.md``.

Card kinds (54): suit * 13 + (value - 1) for suits in the order spade ♠,
heart ♥, diamond ♦, club ♣ and values A=1 .. K=13, then the small (52) and
the big (53) joker. A physical card id c (0..53, or 0..107 with two decks)
is of kind c % 54.
"""
import sys
from dataclasses import dataclass

from ...core import search
from ...core.errors import BalanceError
from ...core.params import int_count, kernel_index, param
from .layout import (END_REASONS, HOUSES, POL_INFORMED, POL_ISMCTS, POL_RANDOM,  # noqa: F401
                     POL_SEARCH, POL_SEARCH_FAST, POL_SEARCH_STRONG)

SUITS = ("spade", "heart", "diamond", "club")
SUIT_SIGNS = ("♠", "♥", "♦", "♣")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKERS = ("joker-small", "joker-big")
N_KINDS = 54


@dataclass(frozen=True)
class Params:
    n_decks: int = param(0, doc="poker decks: 0 = one for 3-5 players, two for 6-8 (setup takes 7 x players + 8 cards)",
                         bounds=(0, 2), sweep=(0, 2))
    start_hand: int = param(4, doc="hand cards each player draws at setup (每人摸4张手牌)",
                            bounds=(1, 8), sweep=(2, 3, 4, 5, 6))
    fate_cards: int = param(3, doc="fate cards per player (3张命运牌)", bounds=(1, 5), sweep=(1, 2, 3, 4, 5))
    hand_limit: int = param(4, doc="discard down to this many at the end of a turn (弃牌到4张)",
                            bounds=(1, 10), sweep=(2, 3, 4, 5, 6, 8))
    setup_score: int = param(4, doc="cards the first sage turns into the score area (翻4张牌)",
                             bounds=(0, 12), sweep=(0, 2, 4, 6, 8))
    hidden_per_book: int = param(1, doc="face-down cards each book starts with (1明1暗: one)",
                                 bounds=(0, 2), sweep=(0, 1, 2))
    round_draw: int = param(1, doc="cards each non-invisible player draws each round (摸一张手牌)",
                            bounds=(0, 3), sweep=(0, 1, 2))
    steal_draw: int = param(2, doc="cards the black magic 'draw' option draws (摸取2张)",
                            bounds=(1, 4), sweep=(1, 2, 3))
    meeting_cards: int = param(2, doc="cards the sage turns at an add-a-spell meeting (翻开2张)",
                               bounds=(1, 4), sweep=(1, 2, 3, 4))
    max_casts: int = param(30, doc="spells one turn may cast (the rules: any number; a cap keeps every game finite)",
                           bounds=(1, 50), sweep=(1, 2, 5, 30))
    house_of_spade: int = param(0, doc="house of the ♠ pile (0 wizard 巫师, 1 priest, 2 magister, 3 muggle)",
                                bounds=(0, 3))
    house_of_heart: int = param(1, doc="house of the ♥ pile (default 1 priest 牧师)", bounds=(0, 3))
    house_of_diamond: int = param(2, doc="house of the ♦ pile (default 2 magister 魔导士)", bounds=(0, 3))
    house_of_club: int = param(3, doc="house of the ♣ pile (default 3 muggle 麻瓜)", bounds=(0, 3))


@dataclass(frozen=True)
class PolicyParams:
    swap_min_gain: float = param(1.0, doc="informed: swap when it raises its house's margin over the best other house by at least this",
                                 bounds=(-100.0, 100.0), sweep=(0.0, 1.0, 3.0, 6.0, 100.0))
    steal_min_hand: float = param(5.0, doc="informed: steal from a player (not a known ally) holding at least this many cards",
                                  bounds=(0.0, 100.0), sweep=(1.0, 3.0, 5.0, 100.0))
    draw_max_hand: float = param(3.0, doc="informed: cast black magic to draw while holding at most this many cards",
                                 bounds=(-1.0, 100.0), sweep=(-1.0, 2.0, 3.0, 4.0, 6.0))
    peek_fates: float = param(1.0, doc="informed: peek at other players' fate cards (> 0) once no hidden spell is unknown",
                              bounds=(0.0, 1.0), sweep=(0.0, 1.0))
    joker_keep: float = param(6.0, doc="informed: keep value of a joker in hand (a card's keep value is its points)",
                              bounds=(0.0, 20.0), sweep=(0.0, 6.0, 13.0))
    # search (core.engine.search): ints, passed to the kernel after the rule ints
    # (``__init__.kernel_args``); ``state.context`` reads them with ``engine.search_vector``
    search_top_k: int = param(4, doc="search: options kept per decision, the best k by informed's "
                              "priorities (``step.prior``; stop always among them; 0: every option)",
                              bounds=(0, 64), sweep=(0, 2, 4, 8))
    search_determinizations: int = param(64, doc="search: deals of the unseen cards per decision, the same for "
                                         "every candidate (search_fast x1/4, search_strong x4, at least 1)",
                                         bounds=(1, 1024), sweep=(1, 4, 16, 64, 256))
    search_rollouts: int = param(2, doc="search: rollouts to the end of the game per deal and candidate",
                                 bounds=(1, 64), sweep=(1, 2, 4, 8))
    search_rollout_policy: int = param(0, doc="search: the policy every seat plays in rollouts (0 informed, 1 random)",
                                       bounds=(0, 1), sweep=(0, 1))
    search_iterations: int = search.iterations_param()


IDX = kernel_index(Params)
PIDX = kernel_index(PolicyParams)
# the kernel's int vector: the rule ints, then the policy ints (``__init__.kernel_args``)
N_RULE_INTS = int_count(Params)

POLICIES = {"informed": POL_INFORMED, "random": POL_RANDOM, "search_fast": POL_SEARCH_FAST,
            "search": POL_SEARCH, "search_strong": POL_SEARCH_STRONG, "ismcts": POL_ISMCTS}
assert list(POLICIES)[2:5] == list(search.LEVELS)
POLICY_DOCS = {
    "informed": "tracks the books (face-up and peeked hidden spells) and so its own house; peeks hidden "
                "spells first, swaps to raise its house's margin, votes for the option that best places "
                "its house, cloaks its house, names the strongest non-ally invisible",
    "random": "every choice uniform: spell entries (hand card, effect, target) plus stop, votes, names, "
              "cloak, joker house, a uniform discard subset (the contract's yardstick)",
    **search.DOCS,
    "ismcts": "information-set MCTS (core.engine.search): search_iterations descents of one tree "
              "of the seat's information sets, each in a new sample of what it cannot see, UCB "
              "selection, search_rollout_policy rollouts",
}


def card_kinds(values: dict | None = None) -> list[str]:
    return [f"{s}-{r}" for s in SUITS for r in RANKS] + list(JOKERS)


def value_of(kind: int) -> int:
    return 0 if kind >= 52 else kind % 13 + 1


def suit_of(kind: int) -> int:
    return 4 if kind >= 52 else kind // 13


def card_name(card: int) -> str:
    k = int(card) % N_KINDS
    if k >= 52:
        return "jk" if k == 52 else "JK"
    return SUIT_SIGNS[k // 13] + RANKS[k % 13]


def n_decks(values: dict, n_players: int) -> int:
    return values["n_decks"] or (1 if n_players <= 5 else 2)


_WARNED: set = set()       # suit-to-house maps already warned about in this process


def house_warning(values: dict) -> str | None:
    """One line saying what a suit-to-house map that is not one suit per
    house does (the contract makes ``house_of_suit`` a parameter, so such a
    map is a legal variant), or None for a one-to-one map."""
    houses = [values[f"house_of_{s}"] for s in SUITS]
    empty = [HOUSES[h] for h in range(4) if h not in houses]
    if not empty:
        return None
    moved = ", ".join(f"house_of_{s}={h}" for s, h, d in zip(SUITS, houses, range(4)) if h != d)
    shared = "; ".join(f"{_and([SUIT_SIGNS[i] for i in range(4) if houses[i] == h])} score for "
                       f"the {HOUSES[h]}" for h in range(4) if houses.count(h) > 1)
    one = len(empty) == 1
    return (f"Warning: school: {moved}: {shared}; no suit scores for "
            f"{_and(['the ' + h for h in empty], 'or')}, whose {'pile gets' if one else 'piles get'} "
            f"only jokers (0 points) and the hand cards swapped for them, so "
            f"{'it rarely wins' if one else 'they rarely win'}")


def _and(items: list, word: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def check_values(values: dict, n_players: int) -> None:
    w = house_warning(values)
    if w is not None and w not in _WARNED:
        _WARNED.add(w)
        print(w, file=sys.stderr, flush=True)
    d = n_decks(values, n_players)
    need = n_players * (values["start_hand"] + values["fate_cards"]) + 2 * (1 + values["hidden_per_book"]) \
        + values["setup_score"]
    have = 54 * d
    if need > have:
        raise BalanceError(f"school: setup needs {need} cards ({n_players} players x "
                           f"({values['start_hand']} hand + {values['fate_cards']} fate) + books + "
                           f"{values['setup_score']} score cards) but {d} deck(s) hold {have}: "
                           f"use --set n_decks=2 or fewer cards")
