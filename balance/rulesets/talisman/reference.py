"""Talisman Poker 符咒游戏: a readable pure-Python reference implementation.

Written from the simulation contract (``docs/rules/talisman.md``) with plain
classes and lists, independently of ``kernel.py``, so that the two check each
other: the tests play the same games in both and compare every output.

Game ``g`` of seed ``s`` is the same game in both because the reference draws
its random numbers from :class:`balance.core.rng.python_rng` (the kernel's
SplitMix64 stream in pure Python) at the same moments, in the same order:

1. one Fisher-Yates shuffle of the unshuffled deck (basics in id order, then
   each special's copies, as :func:`rules.deck_list`); the top of the deck is
   the end of the list;
2. a Fisher-Yates shuffle of the discard pile, in the order the cards were
   discarded, whenever a draw finds the deck empty;
3. ``random`` policy: ``below(hand size)`` for each hand-limit discard and
   ``below(number of legal actions)`` for the action (none when it must pass);
4. steal: ``below(victim's hand size)`` when the victim holds cards;
5. ``greedy`` and ``patient``: a tie in a heuristic (two targets, combos,
   kill types, victims, specials, placements or discards scoring the same) is
   broken uniformly at random, never by seat or list order: the tied options
   are listed in their scan order (seats, combo types, special kinds, hand
   positions) and ``below(number tied)`` picks one; no draw without a tie
   (:func:`pick_tied`). Within a turn the draws come in this order: each
   hand-limit discard, the target, then only the choices the action needs:
   the combo (patient: the kill type, then its victim), the special, the
   steal target, the placement. See :func:`choose_greedy`.

Where the contract leaves open an order that changes later random draws or
records, the reference makes the kernel's choice; these choices are:

- the deal gives ``start_hand`` cards to seat 0, then to seat 1, ... (the
  seed: 起始玩家抓5张牌，之后按顺时针方向，每位玩家抓5张牌);
- a cast card goes to the discard pile before its effect resolves; gamble then
  discards the hand in hand order;
- an array goes to the discard pile in card-id order (金 木 水 火 土, then
  value); for overcoming, the target's array before the firer's own;
- eliminations are resolved after the action, seat by seat in seat order,
  each discarding hand (in order) then array; an eliminated seat keeps no
  guards and no pending skips;
- a stolen card joins the end of the thief's hand and counts as drawn by the
  thief (per-card "drawn" tables); casts and placements count as played;
- a damage instance of 0 (e.g. ``thunder_damage=0``) is no damage: it does
  not consume a guard;
- ``damage_dealt`` adds the full amount of each unguarded damage instance;
- the target of an action without one (wind, guard, gamble, straight flush,
  four symbols) is logged as -1.

Card bans (interventional per-card power, as the kernel's ``ban``): a
"remove"d kind is left out of the unshuffled deck; a "forbid"den kind stays
in the deck but no policy places or casts it (it can still be drawn, stolen
and discarded).

The three policies are defined exactly as the kernel defines them (same
candidate orders, random tie-breaks, targets and discard choices); see
:func:`choose_random`, :func:`choose_greedy` and :func:`choose_discard`.

While it plays, the reference asserts the invariants of the contract: the
cards are conserved across deck, hands, arrays and discard pile (as a
multiset), an array holds distinct basic cards, HP rises only through four
symbols and never above ``hp_cap``, and every game ends by ``max_turns``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from ...core.rng import python_rng
# The record columns (the kernel's Batch rows) and the event codes, laid out
# like the kernel's trace so that the two logs can be compared row by row,
# are declared once in ``layout``.
from .layout import (E_CAST, E_COMBO, E_DAMAGE, E_DEAL, E_DESTROY, E_DISCARD, E_DRAW, E_END,
                     E_GAMBLE, E_GUARD, E_HEAL, E_OUT, E_PASS, E_PLACE, E_RESHUFFLE, E_SKIP,
                     E_STEAL, E_TURN, E_WIND, END_REASONS, GAME_COLUMNS, SEAT_COLUMNS)
from .rules import (CHAOS, COMBOS, FLUSH, FOUR, GAMBLE, GENERATING, GENERATING_CYCLE, GUARD,
                    OVERCOMING, OVERCOMING_CYCLE, SPECIALS, STEAL, THUNDER, WIND, card_kinds,
                    deck_list)

# Actions: (kind, arg, target). PLACE: arg = card id; CAST: arg = special
# index (THUNDER..GAMBLE); COMBO: arg = combo type (FLUSH..CHAOS); target = an
# opponent's seat or -1.
PASS, PLACE, CAST, COMBO = range(4)

# The search policies (rules.SEARCH_POLICIES) are not implemented here: their
# rollouts are the kernel's own random and greedy turns, which these check.
POLICY_NAMES = ("random", "greedy", "patient")


class InvariantError(AssertionError):
    """A rule invariant was broken while playing."""


# --- combos ---------------------------------------------------------------
@dataclass(frozen=True)
class Combo:
    """One combo type available in an array, with its best matching set.

    ``size`` is what the combo's factor multiplies: the number of cards for
    straight flush, generating and overcoming; the sum of the four values for
    four symbols; value x count for chaos strike (``value`` = that value)."""
    kind: int
    cards: tuple
    size: int
    value: int = 0


@lru_cache(maxsize=None)
def _cycle_run(present: frozenset, cycle: tuple) -> tuple:
    """The longest run of present elements contiguous along ``cycle``."""
    if all(e in present for e in cycle):
        return cycle
    best: list = []
    for start in range(5):
        run = []
        while len(run) < 5 and cycle[(start + len(run)) % 5] in present:
            run.append(cycle[(start + len(run)) % 5])
        if len(run) > len(best):
            best = run
    return tuple(best)


def find_combos(array, V: int) -> dict:
    """The combos available in an array of basic card ids: type -> Combo.

    A combo needs a matching set of at least 2 cards (four symbols: 4)."""
    by_element: dict = {}          # element -> {value: card}
    by_value: dict = {}            # value -> [cards]
    for c in array:
        e, v = c // V, c % V + 1
        by_element.setdefault(e, {})[v] = c
        by_value.setdefault(v, []).append(c)
    out = {}
    # 同花顺 straight flush: the longest run of consecutive values in one element
    best_run: list = []
    for e in sorted(by_element):
        run: list = []
        for v in sorted(by_element[e]):
            run = run + [v] if run and v == run[-1] + 1 else [v]
            if len(run) > len(best_run):
                best_run = [by_element[e][x] for x in run]
    if len(best_run) >= 2:
        out[FLUSH] = Combo(FLUSH, tuple(best_run), len(best_run))
    # 五行相生 generating / 五行相克 overcoming: runs of distinct elements on a cycle
    present = frozenset(by_element)
    for kind, cycle in ((GENERATING, GENERATING_CYCLE), (OVERCOMING, OVERCOMING_CYCLE)):
        run = _cycle_run(present, cycle)
        if len(run) >= 2:
            out[kind] = Combo(kind, tuple(max(by_element[e].values()) for e in run), len(run))
    # 四象阵 four symbols: 4 cards of 4 different elements, the largest sum
    if len(present) >= 4:
        top = {e: max(by_element[e]) for e in present}
        four = max(combinations(sorted(present), 4), key=lambda es: sum(top[e] for e in es))
        out[FOUR] = Combo(FOUR, tuple(by_element[e][top[e]] for e in four),
                          sum(top[e] for e in four))
    # 混沌一击 chaos strike: cards of one value (2+), the largest value x count
    best = None
    for v in sorted(by_value):
        n = len(by_value[v])
        if n >= 2 and (best is None or v * n >= best[0] * len(by_value[best[0]])):
            best = (v, n)
    if best is not None:
        v, n = best
        out[CHAOS] = Combo(CHAOS, tuple(sorted(by_value[v])), v * n, v)
    return out


def combo_amount(values: dict, kind: int, size: int) -> int:
    """Damage (heal for four symbols) of a combo of this size."""
    factor = {FLUSH: "flush_per_card", GENERATING: "generating_per_card",
              OVERCOMING: "overcoming_per_card", FOUR: "four_symbols_heal_factor",
              CHAOS: "chaos_factor"}[kind]
    return size * values[factor]


# --- state ----------------------------------------------------------------
@dataclass
class Seat:
    policy: str
    hp: int
    alive: bool = True
    guards: int = 0
    skips: int = 0
    hand: list = field(default_factory=list)      # card ids, in the order they arrived
    array: list = field(default_factory=list)     # 符阵区, basic card ids in placement order
    out_turn: int = -1
    damage_dealt: int = 0
    healed: int = 0
    combos: int = 0
    casts: int = 0
    drawn: set = field(default_factory=set)       # card kinds drawn (deal, draw, steal)
    played: set = field(default_factory=set)      # card kinds placed or cast


class Game:
    """One game of Talisman Poker.

    ``Game(values, n_players, policies, rng)`` sets up an empty table; call
    :meth:`setup` to build, shuffle and deal the deck, then :meth:`play`.
    Scenario tests may instead fill ``seats``, ``deck`` and ``discard`` by
    hand and call the action methods (:meth:`place`, :meth:`cast`,
    :meth:`fire`, :meth:`play_turn`) directly."""

    def __init__(self, values: dict, n_players: int, policies, rng=None, log: bool = False,
                 ban: dict | None = None):
        self.values = values
        self.V = values["values_per_element"]
        self.NB = 5 * self.V                      # basic cards are ids 0..NB-1
        self.P = n_players
        if isinstance(policies, str):
            policies = [policies] * n_players
        if len(policies) != n_players:
            raise ValueError("one policy per seat")
        for name in policies:
            if name not in POLICY_NAMES:
                raise ValueError(f"unknown policy {name!r}")
        self.seats = [Seat(name, values["hp"]) for name in policies]
        self.rng = rng
        self.deck: list = []                      # top of the deck = last element
        self.discard: list = []
        self.all_cards: list = []                 # the multiset that must be conserved (sorted)
        self.turn = 0
        self.rounds = 1
        self.current = 0
        self.total_combos = 0
        self.total_casts = 0
        kinds = card_kinds(values)
        K = len(kinds)
        # card bans (interventional per-card power): kind -> "remove" (taken
        # out of the deck) or "forbid" (stays in the deck, no policy plays it)
        self.ban = {}
        for kind, mode in (ban or {}).items():
            if mode not in ("remove", "forbid"):
                raise ValueError(f"unknown ban mode {mode!r}")
            self.ban[kinds.index(kind) if isinstance(kind, str) else int(kind)] = mode
        self.draws = [0] * K                      # per card kind, all seats
        self.plays = [0] * K
        self.events = [] if log else None
        self.winner = -1
        self.end_reason = "turn_cap"

    # --- helpers ----------------------------------------------------------
    def log(self, etype, seat, a=0, b=0, c=0, d=0, e=0):
        if self.events is not None:
            self.events.append((etype, self.turn, seat, a, b, c, d, e))

    def is_basic(self, card: int) -> bool:
        return card < self.NB

    def playable(self, card: int) -> bool:
        """Whether policies may place or cast this card (not forbidden)."""
        return self.ban.get(card) != "forbid"

    def opponents(self, p: int) -> list:
        """Living opponents of ``p`` in seat order."""
        return [q for q in range(self.P) if q != p and self.seats[q].alive]

    def next_living(self, p: int) -> int:
        q = (p + 1) % self.P
        while not self.seats[q].alive:
            q = (q + 1) % self.P
        return q

    def living(self) -> list:
        return [q for q in range(self.P) if self.seats[q].alive]

    def combos(self, p: int) -> dict:
        return find_combos(self.seats[p].array, self.V)

    # --- setup ------------------------------------------------------------
    def setup(self):
        """Shuffle the deck once and deal ``start_hand`` cards seat by seat."""
        self.deck = [c for c in deck_list(self.values) if self.ban.get(c) != "remove"]
        self.fix_card_set()
        self.rng.shuffle(self.deck)
        for p in range(self.P):
            for _ in range(self.values["start_hand"]):
                self.draw(p, deal=True)
        self.check_cards()

    # --- zones ------------------------------------------------------------
    def draw(self, p: int, deal: bool = False):
        """Draw one card; an empty deck is refilled by shuffling the discard
        pile; when both are empty the draw is skipped (returns None)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
            self.log(E_RESHUFFLE, -1, len(self.deck))
        card = self.deck.pop()
        self.receive(p, card)
        self.log(E_DEAL if deal else E_DRAW, p, card)
        return card

    def receive(self, p: int, card: int):
        """A card joins the end of p's hand and counts as drawn by p."""
        seat = self.seats[p]
        seat.hand.append(card)
        seat.drawn.add(card)
        self.draws[card] += 1

    def mark_played(self, p: int, card: int):
        self.seats[p].played.add(card)
        self.plays[card] += 1

    def discard_array(self, p: int) -> int:
        """The whole array of p goes to the discard pile (in card-id order)."""
        seat = self.seats[p]
        n = len(seat.array)
        self.discard.extend(sorted(seat.array))
        seat.array = []
        return n

    # --- damage and healing -----------------------------------------------
    def hurt(self, src: int, t: int, amount: int):
        """One damage instance: a guard, if the target holds one, absorbs it whole."""
        if amount <= 0:
            return
        target = self.seats[t]
        if target.guards > 0:
            target.guards -= 1
            self.log(E_DAMAGE, t, amount, 1, target.hp, src)
            return
        target.hp -= amount
        self.seats[src].damage_dealt += amount
        self.log(E_DAMAGE, t, amount, 0, target.hp, src)

    def heal(self, p: int, amount: int):
        """Four symbols: restore up to ``hp_cap`` (0 = no cap)."""
        seat = self.seats[p]
        cap = self.values["hp_cap"]
        room = amount if cap == 0 else max(0, cap - seat.hp)
        h = min(amount, room)
        if h > 0:
            seat.hp += h
            seat.healed += h
            if cap and seat.hp > cap:
                raise InvariantError(f"turn {self.turn}: seat {p} healed above hp_cap")
        self.log(E_HEAL, p, h, seat.hp)

    # --- the three actions ------------------------------------------------
    def place(self, p: int, card: int):
        """A. place one basic card from hand into the array, face up."""
        seat = self.seats[p]
        if not self.is_basic(card):
            raise ValueError("only basic cards are placed")
        seat.hand.remove(card)
        seat.array.append(card)
        self.mark_played(p, card)
        self.log(E_PLACE, p, card, len(seat.array))

    def cast(self, p: int, special: int, target: int = -1):
        """B. cast one special card; its effect resolves at once."""
        seat = self.seats[p]
        card = self.NB + special
        seat.hand.remove(card)
        self.mark_played(p, card)
        seat.casts += 1
        self.total_casts += 1
        self.discard.append(card)
        self.log(E_CAST, p, special, target)
        if special == THUNDER:
            self.hurt(p, target, self.values["thunder_damage"])
        elif special == WIND:
            q = self.next_living(p)
            self.seats[q].skips += 1
            self.log(E_WIND, p, q, self.seats[q].skips)
        elif special == GUARD:
            seat.guards += 1
            self.log(E_GUARD, p, seat.guards)
        elif special == STEAL:
            victim = self.seats[target]
            got = -1
            if victim.hand:
                got = victim.hand.pop(self.rng.below(len(victim.hand)))
                self.receive(p, got)
            self.log(E_STEAL, p, target, got)
        elif special == GAMBLE:
            n = len(seat.hand)
            self.discard.extend(seat.hand)
            seat.hand = []
            self.log(E_GAMBLE, p, n)
            for _ in range(n):
                self.draw(p)
        else:
            raise ValueError(f"unknown special {special}")

    def fire(self, p: int, kind: int, target: int = -1):
        """C. fire a combo from the array; afterwards the whole array is discarded."""
        seat = self.seats[p]
        available = self.combos(p)
        combo = available[kind]
        amount = combo_amount(self.values, kind, combo.size)
        seat.combos += 1
        self.total_combos += 1
        chaos_value = available[CHAOS].value if CHAOS in available else 0
        self.log(E_COMBO, p, kind, target, combo.size, amount, chaos_value)
        if kind == FLUSH:
            # every other player, in turn order; nobody is removed before all are hit
            q = self.next_living(p)
            while q != p:
                self.hurt(p, q, amount)
                q = self.next_living(q)
        elif kind == FOUR:
            self.heal(p, amount)
        else:
            if kind == OVERCOMING:
                # the destruction happens even when a guard absorbs the damage
                n = self.discard_array(target)
                self.log(E_DESTROY, target, n)
            self.hurt(p, target, amount)
        self.discard_array(p)

    def apply(self, p: int, action):
        kind, arg, target = action
        if kind == PASS:
            self.log(E_PASS, p)
        elif kind == PLACE:
            self.place(p, arg)
        elif kind == CAST:
            self.cast(p, arg, target)
        elif kind == COMBO:
            self.fire(p, arg, target)
        else:
            raise ValueError(f"unknown action {action}")

    def remove_fallen(self):
        """HP <= 0: out; hand and array go to the discard pile; turn order skips them."""
        for q, seat in enumerate(self.seats):
            if seat.alive and seat.hp <= 0:
                seat.alive = False
                seat.out_turn = self.turn
                self.discard.extend(seat.hand)
                seat.hand = []
                self.discard_array(q)
                seat.guards = 0
                seat.skips = 0
                self.log(E_OUT, q)

    # --- a turn -----------------------------------------------------------
    def play_turn(self, action=None):
        """One turn of the current seat: a wind skip, or draw, discard down
        to the hand limit and at most one action; then eliminations.

        ``action`` (scenario tests): play this action instead of asking the
        seat's policy; the turn then uses no random numbers for the choice."""
        self.turn += 1
        p = self.current
        seat = self.seats[p]
        self.log(E_TURN, p, self.rounds, seat.hp, len(seat.hand), seat.guards)
        hp_before = [s.hp for s in self.seats]
        if seat.skips > 0:
            action = (PASS, 0, -1)
            seat.skips -= 1
            self.log(E_SKIP, p, seat.skips)
        else:
            self.draw(p)
            while len(seat.hand) > self.values["hand_limit"]:
                card = seat.hand.pop(choose_discard(self, p))
                self.discard.append(card)
                self.log(E_DISCARD, p, card)
            if action is None:
                action = choose_action(self, p)
            self.apply(p, action)
            self.remove_fallen()
        self.check_turn(p, action, hp_before)

    def advance(self) -> bool:
        """After a turn: the game is over when one seat is left (returns
        True); otherwise the turn passes to the next living seat."""
        living = self.living()
        if len(living) <= 1:
            self.winner = living[0] if living else -1
            self.end_reason = "last_standing"
            return True
        nxt = self.next_living(self.current)
        if nxt <= self.current:
            self.rounds += 1
        self.current = nxt
        return False

    def play(self) -> dict:
        """Play to the end: last seat standing, or a draw at ``max_turns``."""
        while self.turn < self.values["max_turns"]:
            self.play_turn()
            if self.advance():
                break
        if self.turn > self.values["max_turns"]:
            raise InvariantError("the game ran past max_turns")
        self.log(E_END, self.winner, END_REASONS.index(self.end_reason), self.turn, self.rounds)
        return self.result()

    # --- invariants -------------------------------------------------------
    def fix_card_set(self):
        """Record the cards now in play as the multiset to conserve (set-up
        does this; scenario tests call it after filling the zones by hand)."""
        zones = list(self.deck) + list(self.discard)
        for seat in self.seats:
            zones += seat.hand + seat.array
        self.all_cards = sorted(zones)

    def check_cards(self):
        zones = list(self.deck) + list(self.discard)
        for seat in self.seats:
            zones += seat.hand + seat.array
            if len(set(seat.array)) != len(seat.array) or \
                    any(not self.is_basic(c) for c in seat.array):
                raise InvariantError(f"turn {self.turn}: an array holds a repeated or special card")
            if not seat.alive and (seat.hand or seat.array):
                raise InvariantError(f"turn {self.turn}: an eliminated seat holds cards")
        if sorted(zones) != self.all_cards:
            raise InvariantError(f"turn {self.turn}: cards not conserved "
                                 f"({len(zones)} cards vs {len(self.all_cards)})")

    def check_turn(self, p: int, action, hp_before: list):
        self.check_cards()
        cap = self.values["hp_cap"]
        for q, seat in enumerate(self.seats):
            if seat.hp > hp_before[q]:
                if not (q == p and action[0] == COMBO and action[1] == FOUR):
                    raise InvariantError(f"turn {self.turn}: seat {q}'s HP rose "
                                         f"without four symbols")
                if cap and seat.hp > cap:
                    raise InvariantError(f"turn {self.turn}: seat {q}'s HP rose above hp_cap")

    # --- outcome ----------------------------------------------------------
    def result(self) -> dict:
        return {
            "winner": self.winner, "turns": self.turn, "rounds": self.rounds,
            "end_reason": self.end_reason, "combos": self.total_combos,
            "casts": self.total_casts,
            "seats": [{"policy": s.policy, "hp": s.hp, "out_turn": s.out_turn,
                       "damage_dealt": s.damage_dealt, "healed": s.healed,
                       "combos": s.combos, "casts": s.casts, "guards_left": s.guards,
                       "drawn": set(s.drawn), "played": set(s.played)}
                      for s in self.seats],
            "draws": list(self.draws), "plays": list(self.plays),
            "events": self.events,
        }


# --- policies ---------------------------------------------------------------
def pick_tied(rng, tied: list):
    """A heuristic's tie-break: one of the options ``tied`` for the best score
    (in scan order), uniformly: ``tied[rng.below(len(tied))]``, drawn only
    when two or more tie; None when the list is empty."""
    if not tied:
        return None
    return tied[rng.below(len(tied))] if len(tied) > 1 else tied[0]


def best_options(options, score, highest: bool = True) -> list:
    """The options (in order) with the highest score (lowest when not
    ``highest``)."""
    scores = [score(o) for o in options]
    if not scores:
        return []
    top = max(scores) if highest else min(scores)
    return [o for o, sc in zip(options, scores) if sc == top]


def lowest_hp_opponent(game: Game, p: int, holding_cards: bool = False) -> int:
    """The living opponent with the lowest HP (``holding_cards``: among those
    with cards in hand), ties broken at random (:func:`pick_tied`); -1 if none."""
    opponents = [q for q in game.opponents(p) if game.seats[q].hand or not holding_cards]
    best = pick_tied(game.rng, best_options(opponents, lambda q: game.seats[q].hp, False))
    return -1 if best is None else best


def special_value(game: Game, s: int) -> float:
    """Greedy's immediate value of casting special ``s``."""
    if s == THUNDER:
        return float(game.values["thunder_damage"])
    return float(game.values[f"value_{SPECIALS[s]}"])


def heal_room(game: Game, p: int):
    cap = game.values["hp_cap"]
    return float("inf") if cap == 0 else max(0, cap - game.seats[p].hp)


def combo_value(game: Game, p: int, kind: int, amount: int, target: int) -> float:
    """Greedy's immediate value of a combo: damage 1 per point (a straight
    flush times the living opponents), healing ``heal_value`` per HP
    actually restored, overcoming ``destroy_value`` per destroyed card."""
    if kind == FLUSH:
        return float(amount * len(game.opponents(p)))
    if kind == FOUR:
        return min(amount, heal_room(game, p)) * game.values["heal_value"]
    if kind == OVERCOMING:
        return amount + game.values["destroy_value"] * len(game.seats[target].array)
    return float(amount)


def victims(game: Game, p: int, kind: int, amount: int) -> list:
    """The opponents this combo would put out now (no guard, HP <= damage),
    in seat order. A straight flush hits them all; a targeted combo would be
    aimed at one of them; four symbols kills nobody."""
    if kind == FOUR or amount <= 0:
        return []
    return [q for q in game.opponents(p)
            if game.seats[q].guards == 0 and game.seats[q].hp <= amount]


def placement_score(game: Game, p: int, card: int) -> int:
    """Combo types available after placing ``card`` (x1000) + the best amount."""
    after = find_combos(game.seats[p].array + [card], game.V)
    best = 0
    for kind, combo in after.items():
        best = max(best, combo_amount(game.values, kind, combo.size))
    return 1000 * len(after) + best


def keep_score(game: Game, p: int, card: int) -> float:
    """Greedy's discard order: the card with the lowest score goes first."""
    if not game.is_basic(card):
        return special_value(game, card - game.NB) * 1000.0
    return float(placement_score(game, p, card))


def choose_discard(game: Game, p: int) -> int:
    """Index in p's hand of the card to discard at the hand limit."""
    hand = game.seats[p].hand
    if game.seats[p].policy == "random":
        return game.rng.below(len(hand))
    return pick_tied(game.rng, best_options(range(len(hand)),
                                            lambda i: keep_score(game, p, hand[i]), False))


def legal_actions(game: Game, p: int) -> list:
    """Every distinct legal action except pass, in a fixed order: place each
    basic card (hand order); cast each special kind held (thunder and steal
    once per living opponent); fire each available combo type (generating,
    overcoming and chaos once per living opponent). Forbidden kinds (a
    ``ban``) are never placed or cast."""
    seat = game.seats[p]
    actions = [(PLACE, c, -1) for c in seat.hand if game.is_basic(c) and game.playable(c)]
    for s in range(5):
        if game.NB + s in seat.hand and game.playable(game.NB + s):
            if s in (THUNDER, STEAL):
                actions += [(CAST, s, q) for q in game.opponents(p)]
            else:
                actions.append((CAST, s, -1))
    available = game.combos(p)
    for kind in range(5):
        if kind in available:
            if kind in (GENERATING, OVERCOMING, CHAOS):
                actions += [(COMBO, kind, q) for q in game.opponents(p)]
            else:
                actions.append((COMBO, kind, -1))
    return actions


def choose_random(game: Game, p: int):
    """random: uniform over the distinct legal actions; pass only when none."""
    actions = legal_actions(game, p)
    if not actions:
        return (PASS, 0, -1)
    return actions[game.rng.below(len(actions))]


def choose_greedy(game: Game, p: int, patient: bool = False):
    """greedy: the best combo by immediate value (> 0), else the special with
    the best immediate value (> 0), else the placement keeping the most combos
    reachable. Target: the lowest-HP opponent (steal: the lowest-HP opponent
    holding cards).

    patient: fires a combo that kills an opponent now at once (aimed at an
    opponent it kills), otherwise only when its value reaches
    ``min_combo_value``.

    Every tie (targets, combos, kill types, victims, specials, placements) is
    broken uniformly at random from the game's stream (:func:`pick_tied`), in
    the order the module docstring lists (item 5)."""
    seat = game.seats[p]
    rng = game.rng
    target = lowest_hp_opponent(game, p)
    combos = sorted(game.combos(p).items())
    amounts = {kind: combo_amount(game.values, kind, combo.size) for kind, combo in combos}
    values = {kind: combo_value(game, p, kind, amounts[kind], target) for kind in amounts}
    best = [k for k in best_options(list(values), values.get) if values[k] > 0]
    best_value = values[best[0]] if best else 0.0
    fire = -1
    if patient:
        kills = [k for k in amounts if victims(game, p, k, amounts[k])]
        if kills:
            fire = pick_tied(rng, kills)
            if fire != FLUSH:                    # a straight flush hits every opponent
                target = pick_tied(rng, victims(game, p, fire, amounts[fire]))
        elif best and best_value >= game.values["min_combo_value"]:
            fire = pick_tied(rng, best)
    elif best:
        fire = pick_tied(rng, best)
    if fire >= 0:
        # straight flush (every opponent) and four symbols (self) take no target
        return (COMBO, fire, -1 if fire in (FLUSH, FOUR) else target)
    castable = [s for s in range(5) if game.NB + s in seat.hand and game.playable(game.NB + s)]
    tied = [s for s in best_options(castable, lambda s: special_value(game, s))
            if special_value(game, s) > 0]
    if tied:
        best_s = pick_tied(rng, tied)
        t = -1                                   # wind, guard and gamble take no target
        if best_s == THUNDER:
            t = target
        elif best_s == STEAL:
            t = lowest_hp_opponent(game, p, holding_cards=True)
            if t < 0:
                t = target
        return (CAST, best_s, t)
    basics = [c for c in seat.hand if game.is_basic(c) and game.playable(c)]
    best_card = pick_tied(rng, best_options(basics, lambda c: placement_score(game, p, c)))
    if best_card is not None:
        return (PLACE, best_card, -1)
    return (PASS, 0, -1)


def choose_action(game: Game, p: int):
    policy = game.seats[p].policy
    if policy == "random":
        return choose_random(game, p)
    return choose_greedy(game, p, patient=(policy == "patient"))


# --- entry points -------------------------------------------------------------
def play(values: dict, seed: int, game: int, n_players: int, policies, log: bool = False,
         ban: dict | None = None) -> dict:
    """Play game ``game`` of run seed ``seed``; the same game as the kernel's.

    ``values``: every rule and policy parameter (``SPEC.space.resolve()``);
    ``policies``: one name for all seats or one per seat. Returns winner (-1 =
    draw), turns, rounds, end_reason, combos, casts, per seat (hp, out_turn,
    damage_dealt, healed, combos, casts, guards_left, drawn and played kind
    sets), per-kind ``draws`` and ``plays`` counts, and ``events`` (the log
    when ``log``). ``ban``: card kind (name or id) -> "remove" | "forbid"."""
    g = Game(values, n_players, policies, python_rng(seed, game), log=log, ban=ban)
    g.setup()
    return g.play()


def record(result: dict, n_kinds: int):
    """A result as the kernel's Batch rows: (game row, seat rows, masks), with
    masks[seat][0 drawn / 1 played][word] = bit k % 64 of word k // 64 for kind k."""
    game_row = [END_REASONS.index(result[c]) if c == "end_reason" else result[c]
                for c in GAME_COLUMNS]
    words = max(1, (n_kinds + 63) // 64)
    seat_rows, masks = [], []
    for s in result["seats"]:
        seat_rows.append([s[c] for c in SEAT_COLUMNS])
        m = [[0] * words, [0] * words]
        for which, kinds in ((0, s["drawn"]), (1, s["played"])):
            for k in kinds:
                m[which][k // 64] |= 1 << (k % 64)
        masks.append(m)
    return game_row, seat_rows, masks


def describe_event(row, V: int) -> str:
    """One event row as short text (for test failure messages)."""
    from .rules import card_name
    t, turn, p, a, b, c, d, e = row
    names = {E_TURN: "turn", E_SKIP: "skip", E_DRAW: "draw", E_RESHUFFLE: "reshuffle",
             E_DISCARD: "discard", E_PLACE: "place", E_CAST: "cast", E_COMBO: "combo",
             E_DAMAGE: "damage", E_HEAL: "heal", E_STEAL: "steal", E_WIND: "wind",
             E_GUARD: "guard", E_GAMBLE: "gamble", E_DESTROY: "destroy", E_OUT: "out",
             E_END: "end", E_PASS: "pass", E_DEAL: "deal"}
    what = names.get(t, str(t))
    if t in (E_DRAW, E_DEAL, E_DISCARD, E_PLACE):
        detail = card_name(a, V)
    elif t == E_CAST:
        detail = f"{SPECIALS[a]} -> {b}"
    elif t == E_COMBO:
        detail = f"{COMBOS[a]} -> {b} size {c} amount {d}"
    else:
        detail = f"{a} {b} {c} {d} {e}"
    return f"turn {turn} seat {p} {what} {detail}"
