"""Set up an exact Magic Resonance position and run one step of it through
the compiled kernel (rulebook scenario tests, hidden-information tests).

>>> t = Table(players=3, policies="counter")
>>> t.arrange(hands={0: "R+2 G+1", 1: "B+1", 2: "R-1 D"}, deck="G+1 " * 20,
...           field=[(0, "R+2"), (1, "G+2"), (2, "B-1")], revealed=(1, 2))
>>> t.resonate(0, slot=0, joiners=[1])      # 0 fail, 1 normal, 2 overdraft
>>> print("\\n".join(t.lines()))

Runes are written colour letter + signed value (``R+1``, ``G-2``, ``B+2``),
the dissolve card ``D``; magic cards by their id in the table (1..18).

``Table`` is ``core.scenario.Table`` (the values, the seats' policies, the
record buffers, the trace since a mark) with this ruleset's state, its
``arrange`` and the rule parts a test calls one by one; its replay lines
name the table's magic cards, and reading them moves the mark past them.
"""
from __future__ import annotations

import numpy as np

from ...core import scenario
from . import layout as L
from .replay import format_trace
from .rules import COLOURS, VALUES, card_name


def kind(text: str) -> int:
    t = text.strip().upper()
    if t in ("D", "DISSOLVE"):
        return L.DISSOLVE
    return "RGB".index(t[0]) * 4 + VALUES.index(int(t[1:]))


def kinds(text) -> list[int]:
    if isinstance(text, str):
        return [kind(x) for x in text.split()]
    return [kind(x) if isinstance(x, str) else int(x) for x in text]


class Table(scenario.Table):
    """One game's arrays, dealt normally (game ``game`` of ``seed``) and
    then edited with :meth:`arrange`."""

    def __init__(self, players: int = 4, params: dict | None = None, policies="counter",
                 seed: int = 0, game: int = 0, cards=None, ban: dict | None = None):
        from ...core.records import BAN_CODES, ban_vector
        from . import SPEC
        from . import kernel as K            # compiled: loaded on first use
        from .cards import load_cards
        super().__init__(SPEC, players, params, policies, kinds=L.NK, seed=seed, game=game)
        self.K = K
        self.cards = cards if cards is not None else load_cards()
        banv = np.zeros(L.NK, np.int64)
        for k, mode in (ban or {}).items():
            banv[SPEC.card_kinds(self.values).index(k)] = BAN_CODES[mode]
        # pp: the float policy parameters, one row per seat (seat p reads pp[p])
        self.ip, self.pp, self.ban, self.M = SPEC.kernel_arrays(
            self.values, ban_vector(banv, L.NK), {"cards": self.cards})
        self.s = K.new_state(players)           # the game's arrays, named below
        self.S, self.F, self.pile, self.Z, self.MD, self.st, self.ST = self.s
        self.c = K.context(players, self.pol, self.ip, self.pp, self.ban, self.M)
        self.W = self.c.W
        K.fill_deck(self.ip, self.ban, self.pile, self.Z)
        K.start(self.s, self.c, self.seed, self.game, self.masks, self.counts, self.tr, True)

    # --- setting up ---------------------------------------------------------
    def arrange(self, hands: dict | None = None, deck=None, field=None, revealed=None,
                magic_deck=None, markers: dict | None = None, owned: dict | None = None,
                discard=None, supply: int | None = None):
        """Replace parts of the position. ``hands`` {seat: cards}; ``deck``
        cards, top first; ``field`` [(column, card), ...] in placement order,
        known to their owner only; ``revealed`` two magic ids (None = none);
        ``magic_deck`` ids, top first; ``markers`` {seat: n} (taken from the
        supply); ``owned`` {seat: [magic ids]}. The rune total becomes what
        the position holds (conservation is then checked against it)."""
        S, Z, F = self.S, self.Z, self.F
        if hands is not None:
            for p, cards in hands.items():
                S[p, L.C_H:L.C_H + L.NK] = 0
                for k in kinds(cards):
                    S[p, L.C_H + k] += 1
                S[p, L.C_HN] = S[p, L.C_H:L.C_H + L.NK].sum()
                S[p, L.C_IN] = 1 if S[p, L.C_HN] > 0 else 0
        if deck is not None:
            d = kinds(deck)
            self.pile[0, :len(d)] = d[::-1]
            Z[L.Z_DECK] = len(d)
        if discard is not None:
            Z[L.Z_DISC:L.Z_DISC + L.NK] = 0
            for k in kinds(discard):
                Z[L.Z_DISC + k] += 1
        if field is not None:
            for i, (q, c) in enumerate(field):
                F[L.F_KIND, i] = kind(c) if isinstance(c, str) else int(c)
                F[L.F_OWNER, i] = q
                F[L.F_KNOW, i] = 1 << q
            Z[L.Z_FN] = len(field)
        if magic_deck is not None:
            md = [int(x) - 1 for x in magic_deck][::-1]
            self.MD[:len(md)] = md
            Z[L.Z_MD] = len(md)
        if revealed is not None:
            for j, c in enumerate(revealed):
                Z[L.Z_REV + j] = -1 if c is None else int(c) - 1
        if supply is not None:
            Z[L.Z_SUPPLY] = supply
        if markers is not None:
            for p, n in markers.items():
                Z[L.Z_SUPPLY] += S[p, L.C_MARK] - n
                S[p, L.C_MARK] = n
        if owned is not None:
            for p, ids in owned.items():
                S[p, L.C_OWN] = sum(1 << (int(i) - 1) for i in ids)
                S[p, L.C_MN] = len(ids)
                S[p, L.C_MPTS] = sum(int(self.M[int(i) - 1, L.M_PTS]) for i in ids)
            Z[L.Z_ACQ] = S[:, L.C_MN].sum()
        self._recount()

    def _recount(self):
        S, Z, F = self.S, self.Z, self.F
        alive = sum(1 for i in range(Z[L.Z_FN]) if F[L.F_KIND, i] >= 0)
        Z[L.Z_NTOT] = (Z[L.Z_DECK] + Z[L.Z_DISC:L.Z_DISC + L.NK].sum() + S[:, L.C_HN].sum()
                       + alive)
        rev = sum(1 for j in range(2) if Z[L.Z_REV + j] >= 0)
        Z[L.Z_MDISC] = L.N_MAGIC - Z[L.Z_MD] - rev - S[:, L.C_MN].sum()

    def know(self, p: int, slot: int):
        """Seat p knows field slot ``slot`` (as if it had peeked)."""
        self.F[L.F_KNOW, slot] |= 1 << p

    # --- running one step ---------------------------------------------------------
    def resonate(self, p: int, slot: int = 0, joiners=None) -> int:
        """Seat p starts a resonance on revealed slot ``slot``; ``joiners``
        the seats that join (None: they decide by their policies). Returns
        0 fail, 1 normal, 2 overdraft."""
        force = -1 if joiners is None else sum(1 << q for q in joiners)
        return int(self.K.resonate(self.s, self.c, p, slot, force, self.masks, self.counts,
                                   self.tr, True))

    def turn(self, p: int) -> int:
        """Seat p's whole turn by its policy; returns the end reason or -1."""
        return int(self.K.turn(self.s, self.c, p, self.masks, self.counts, self.tr, True))

    def use(self, p: int, card: int):
        """Seat p spends magic card ``card`` (id 1..18)'s use effect."""
        self.S[p, L.C_OWN] |= 1 << (card - 1)
        self.K.use_magic(self.s, self.c, p, card - 1, self.masks, self.counts, self.tr, True)

    def dissolve(self, p: int, slot: int | None = None):
        """Seat p uses a dissolve card from hand: on field slot ``slot``, or
        (None) discarded to draw 1."""
        if slot is None:
            self.K.dissolve_redraw(self.S, self.pile, self.Z, p, self.masks, self.counts,
                                   self.tr, True)
        else:
            self.K.dissolve_remove(self.S, self.F, self.Z, p, slot, 0, self.masks, self.counts,
                                   self.tr, True)

    def end(self) -> int:
        """The end reason that holds now (seats without cards put out), or -1."""
        return int(self.K.check_end(self.S, self.Z, self.ip, self.P, self.tr, True))

    def play(self, cur: int = 0, turns: int = 0) -> int:
        """Play from seat ``cur``'s turn to the end; returns the end reason
        (records in ``grow`` and ``srow``)."""
        self.errors = int(self.K.play_from(self.s, self.c, self.masks, self.counts, self.tr,
                                           True, True, cur, turns, self.grow, self.srow))
        return int(self.grow[L.GAME_COLUMNS.index("end_reason")])

    def broken(self) -> int:
        return int(self.K.broken_invariants(self.S, self.F, self.Z, self.MD, self.ip, self.P))

    # --- reading -----------------------------------------------------------------
    def hand(self, p: int) -> list[str]:
        return [card_name(k) for k in range(L.NK) for _ in range(self.S[p, L.C_H + k])]

    def hand_size(self, p: int) -> int:
        return int(self.S[p, L.C_HN])

    def markers(self, p: int) -> int:
        return int(self.S[p, L.C_MARK])

    def field(self) -> list[tuple[int, str]]:
        return [(int(self.F[L.F_OWNER, i]), card_name(self.F[L.F_KIND, i]))
                for i in range(self.Z[L.Z_FN]) if self.F[L.F_KIND, i] >= 0]

    def format(self, events) -> list[str]:
        """The replay's lines for trace rows, naming the table's magic cards."""
        names = [str(n) for n in self.cards.rows["name"]]
        return format_trace(events, self.values, self.P, self.policies, names)

    def lines(self, all: bool = False) -> list[str]:
        """The replay's lines of :meth:`events`; the mark then moves past
        them (the next lines start where these end)."""
        out = super().lines(all)
        self.set_mark()
        return out


__all__ = ["Table", "kind", "kinds", "COLOURS"]
