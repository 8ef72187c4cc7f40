"""Set up an exact Talisman Poker position and play it through the compiled
step machine (rulebook scenario tests, notebooks).

>>> t = Table(players=4, policies="greedy")     # dealt normally, then edited
>>> t.arrange(hands={0: "金1", 1: "木8 steal", 3: "土8"}, arrays={0: "火1 火2 火3", 1: "金7"},
...           deck="土1", hp={1: 4, 2: 30, 3: 6})   # seat 0's turn begins: it draws 土1
>>> t.turn(("combo", "straight flush"))         # seat 0 fires; seats 1 and 3 go out
>>> print("\\n".join(t.lines()))              # the trace since the arrangement
>>> t.play()                                    # on to the end by the heuristics

Cards are written as in the rulebook: element + value for a basic card
(``水3``: elements 金 木 水 火 土), a special by its name (``thunder``,
``wind``, ``guard``, ``steal``, ``gamble``) or its Chinese name (``雷咒``,
...). A position is arranged on a dealt game (``step.deal``), so the
table holds the engine's own ``State`` and ``Ctx`` (``s``, ``c``) and
every step is the compiled one the batch runs; ``arrange`` places exactly
the cards it is given and puts every other card on the discard pile, so
the cards stay conserved (check mode counts them).

A search seat plays here as its heuristic id plays (``step.heuristic``:
greedy's choice); the search itself is the engine's
(``core.engine.loop.decide``).
"""
from __future__ import annotations

import numpy as np

from ...core import scenario
from ...core.records import BAN_CODES, mask_words
from . import layout as L
from .rules import COMBOS, ELEMENTS_ZH, SPECIALS, SPECIALS_ZH, card_name

ACTIONS = {"pass": L.A_PASS, "place": L.A_PLACE, "cast": L.A_CAST, "combo": L.A_COMBO}


def card(name, V: int = 8) -> int:
    """The card id of ``name`` (``水3``, ``thunder``, ``雷咒``) when there are
    ``V`` values per element; an int is an id already."""
    if not isinstance(name, str):
        return int(name)
    n = name.strip()
    if n in SPECIALS:
        return 5 * V + SPECIALS.index(n)
    if n in SPECIALS_ZH:
        return 5 * V + SPECIALS_ZH.index(n)
    v = int(n[1:])
    if n[0] not in ELEMENTS_ZH or not 1 <= v <= V:
        raise ValueError(f"not a card: {name!r} (element 金木水火土 + value 1..{V}, or a special)")
    return ELEMENTS_ZH.index(n[0]) * V + v - 1


def cards(text, V: int = 8) -> list[int]:
    """Card ids of a space-separated string or a list of names / ids."""
    if isinstance(text, str):
        return [card(x, V) for x in text.split()]
    return [card(x, V) for x in text]


class Table(scenario.Table):
    """One game of Talisman Poker, dealt normally (game ``game`` of
    ``seed``: seat 0's first turn has begun, its draw made) and then edited
    with :meth:`arrange`. The state's arrays are attributes (``S``,
    ``hand``, ``pile``, ``Z``, ``st``); ``s`` is the engine's ``State`` over
    them and ``c`` the table's ``Ctx``. Every step runs in check mode; the
    broken invariants found add up in ``errors``."""

    def __init__(self, players: int = 2, params: dict | None = None, policies="greedy",
                 seed: int = 0, game: int = 0, ban: dict | None = None, trace: int = 100_000):
        from . import SPEC
        from . import state, step                 # compiled: loaded on first use
        self.step = step
        values = SPEC.space.resolve(params)
        kinds = SPEC.card_kinds(values)
        super().__init__(SPEC, players, params, policies, kinds=len(kinds), seed=seed,
                         game=game, trace=trace)
        self.masks = np.zeros((self.P, 2, mask_words(len(kinds))), np.uint64)
        self.V = int(self.values["values_per_element"])
        self.NB = 5 * self.V
        codes = np.zeros(len(kinds), np.int64)
        for k, mode in (ban or {}).items():
            codes[kinds.index(k)] = BAN_CODES[mode]
        self.ip, self.pp, self.ban = SPEC.kernel_arrays(self.values, codes)
        self.s = state.new_state(self.P)
        self.S, self.hand, self.pile, self.Z, self.st = self.s
        self.c = state.context(self.P, self.pol, self.ip, self.pp, self.ban)
        step.prepare(self.s, self.c)
        self.errors = int(step.deal(self.s, self.c, self.seed, self.game, self.masks,
                                    self.counts, self.tr, True, True))

    # --- setting up ---------------------------------------------------------------
    def arrange(self, hands: dict | None = None, arrays: dict | None = None, deck=(),
                hp: dict | None = None, guards: dict | None = None, skips: dict | None = None,
                out=(), seat: int = 0, turn: int = 0, round: int = 1) -> int:
        """The position at the start of seat ``seat``'s turn (turn ``turn`` + 1
        of the game, in round ``round``), then that turn begun.

        ``hands`` and ``arrays`` {seat: cards}: every seat's hand and array
        (seats not named hold none); ``deck`` the deck, top first; every
        other card goes to the discard pile in card-id order. ``hp``,
        ``guards``, ``skips`` {seat: n} (HP unnamed: as dealt; guards and
        skips unnamed: 0); ``out`` the seats already out. The trace mark is
        set, then the turn begins (``step.begin``: a pending wind skip, else
        the draw from ``deck`` and the hand limit), so :meth:`events` and
        :meth:`lines` read from the turn's start. Returns the broken
        invariants found (the cards are checked in each step)."""
        S, Z, V = self.S, self.Z, self.V
        free = list(self.pile[2, :Z[L.Z_NC]])          # the batch's cards, as a multiset

        def take(c):
            if c not in free:
                raise ValueError(f"no free copy of {card_name(c, V)} in the deck")
            free.remove(c)
            return c

        hands = {p: cards(h, V) for p, h in (hands or {}).items()}
        arrays = {p: cards(a, V) for p, a in (arrays or {}).items()}
        for p in range(self.P):
            hand = [take(c) for c in hands.get(p, [])]
            self.hand[p, :len(hand)] = hand
            S[p, L.C_HN] = len(hand)
            for k in range(5):
                S[p, L.C_SPEC + k] = hand.count(self.NB + k)
            S[p, L.C_BITS:L.C_BITS + 5] = 0
            arr = [take(c) for c in arrays.get(p, [])]
            if len(set(arr)) != len(arr) or any(c >= self.NB for c in arr):
                raise ValueError(f"seat {p}'s array must hold distinct basic cards")
            for c in arr:
                S[p, L.C_BITS + c // V] |= 1 << (c % V)
            S[p, L.C_ARRN] = len(arr)
            S[p, L.C_HP] = (hp or {}).get(p, S[p, L.C_HP])
            S[p, L.C_GUARDS] = (guards or {}).get(p, 0)
            S[p, L.C_SKIPS] = (skips or {}).get(p, 0)
            S[p, L.C_ALIVE] = 0 if p in out else 1
            S[p, L.C_OUT] = turn if p in out else -1
        d = [take(c) for c in cards(deck, V)]
        self.pile[0, :len(d)] = d[::-1]                 # the top is the last
        Z[L.Z_DECK] = len(d)
        rest = sorted(free)
        self.pile[1, :len(rest)] = rest
        Z[L.Z_DISC] = len(rest)
        Z[L.Z_CUR] = seat
        Z[L.Z_TURN] = turn
        Z[L.Z_ROUNDS] = round
        Z[L.Z_ALIVE] = self.P - len(set(out))
        Z[L.Z_END] = -1
        Z[L.Z_PHASE] = L.PH_ACTION
        self.set_mark()
        return self._count(self.step.begin(self.s, self.c, self.masks, self.counts, self.tr,
                                           True, True))

    def _count(self, errors) -> int:
        self.errors += int(errors)
        return int(errors)

    # --- playing ------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat to decide."""
        return int(self.Z[L.Z_CUR])

    @property
    def over(self) -> bool:
        return bool(self.Z[L.Z_END] >= 0)

    def code(self, action) -> int:
        """The option code of ``action`` for the seat to decide: ``("pass",)``,
        ``("place", card)`` (a name, or the hand index as an int),
        ``("cast", special, target)``, ``("combo", type, target)`` (a name
        of ``rules.COMBOS`` or the type; the target of thunder, steal,
        generating, overcoming and chaos); or a hand index to discard when a
        discard is pending."""
        if self.Z[L.Z_PHASE] == L.PH_DISCARD:
            return int(action)
        a = tuple(action)
        kind, arg, tgt = a[0], a[1] if len(a) > 1 else 0, a[2] if len(a) > 2 else -1
        kind = ACTIONS[kind] if isinstance(kind, str) else int(kind)
        if kind == L.A_PLACE and isinstance(arg, str):
            held = list(self.hand[self.seat, :self.S[self.seat, L.C_HN]])
            arg = held.index(card(arg, self.V))
        elif kind == L.A_CAST and isinstance(arg, str):
            arg = card(arg, self.V) - self.NB
        elif kind == L.A_COMBO and isinstance(arg, str):
            arg = COMBOS.index(arg)
        if kind == L.A_PASS:
            return 0
        return int(self.step.code_of(np.int64(kind), np.int64(arg), np.int64(tgt)))

    def options(self) -> list[int]:
        """The option codes of the pending decision (``step.options``)."""
        rows = np.zeros(1024, np.int64)
        n = self.step.options(self.s, self.c, rows)
        return [int(x) for x in rows[:n]]

    def choice(self) -> int:
        """The option code the seat's heuristic chooses (``step.heuristic``;
        it draws its ties from the game's stream)."""
        return int(self.step.heuristic(self.s, self.c, self.pol[self.seat]))

    def apply(self, code: int) -> int:
        """The seat to decide plays option ``code`` (it must be legal), and
        the game goes on to the next decision; returns broken invariants."""
        if int(code) not in self.options():
            raise ValueError(f"option {code} is not legal for seat {self.seat} now")
        return self._count(self.step.apply(self.s, self.c, np.int64(code), self.masks,
                                           self.counts, self.tr, True, True))

    def turn(self, action=None) -> int:
        """The rest of the current seat's turn: its hand-limit discards by
        its heuristic, then ``action`` (see :meth:`code`; None: its
        heuristic's). Returns the broken invariants found."""
        p = self.seat
        errors = 0
        while not self.over and self.seat == p and self.Z[L.Z_PHASE] == L.PH_DISCARD:
            errors += self.apply(self.choice())
        if not self.over and self.seat == p:
            errors += self.apply(self.choice() if action is None else self.code(action))
        return errors

    def play(self) -> dict:
        """Play on to the end by the seats' heuristics; returns :meth:`finish`."""
        while not self.over:
            self.apply(self.choice())
        return self.finish()

    def finish(self) -> dict:
        """The game's records now (``step.finish``: the end event too) as a
        dict of the game columns; ``seats``: one dict per seat."""
        self.step.finish(self.s, self.c, self.tr, True, self.grow, self.srow)
        self.seats = [dict(zip(self.spec.seat_columns, (int(x) for x in row)))
                      for row in self.srow]
        return dict(zip(self.spec.game_columns, (int(x) for x in self.grow)))

    # --- reading ------------------------------------------------------------------
    def names(self, ids) -> list[str]:
        return [card_name(int(c), self.V) for c in ids]

    def hand_of(self, p: int) -> list[str]:
        return self.names(self.hand[p, :self.S[p, L.C_HN]])

    def array_of(self, p: int) -> list[str]:
        """p's array in card-id order."""
        return self.names(e * self.V + v for e in range(5) for v in range(self.V)
                          if (self.S[p, L.C_BITS + e] >> v) & 1)

    def deck(self) -> list[str]:
        """The deck, top first."""
        return self.names(self.pile[0, :self.Z[L.Z_DECK]][::-1])

    def discard_pile(self) -> list[str]:
        return self.names(self.pile[1, :self.Z[L.Z_DISC]])

    def hp(self, p: int | None = None):
        """Seat p's HP, or every seat's as a list."""
        if p is None:
            return [int(x) for x in self.S[:, L.C_HP]]
        return int(self.S[p, L.C_HP])

    def alive(self) -> list[int]:
        return [q for q in range(self.P) if self.S[q, L.C_ALIVE]]


__all__ = ["Table", "card", "cards", "ACTIONS"]
