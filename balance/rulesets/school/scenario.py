"""Set up an exact Magic School position and run one step of it through the
compiled kernel (scenario tests, notebooks).

>>> t = Table(players=4)                       # dealt normally, then edited
>>> t.arrange(hands={0: ["S7", "HK"]}, fates={0: ["H9", "C2", "D4"]},
...           white=["C9"], white_hidden=["D6"], black=["D7"], black_hidden=["SQ"],
...           piles={"priest": ["H3"]}, deck=["H5", "S3"])
>>> t.entries(0)                               # the spells seat 0 may cast now
>>> t.script((0, "spell", "swap", "S7", "HK", ("priest", 0)))
>>> t.turn(0); t.finish(); print("\\n".join(t.lines()))

Cards are suit letter + rank (``S5``, ``H10``, ``DK``, ``CA``; S H D C = ♠ ♥
♦ ♣, the kind order), ``jk`` / ``JK`` the small / big joker. Every card not
placed by ``arrange`` goes to the discard pile, so cards stay conserved.
"""
from __future__ import annotations

import numpy as np

from . import layout as L
from ...core.scenario import Table as BaseTable
from .rules import RANKS, SUITS

LETTERS = "SHDC"
DTYPES = {"name": L.D_NAME, "cloak": L.D_CLOAK, "joker": L.D_JOKER, "spell": L.D_SPELL,
          "vote": L.D_VOTE, "tie": L.D_TIE, "discard": L.D_DISCARD}
EFFECTS = {n.replace(" ", "_"): i for i, n in enumerate(L.EFFECTS)}


def kind(card: str) -> int:
    if card == "jk":
        return 52
    if card == "JK":
        return 53
    return LETTERS.index(card[0].upper()) * 13 + RANKS.index(card[1:].upper())


def house(h) -> int:
    return h if isinstance(h, (int, np.integer)) else L.HOUSES.index(h)


class Table(BaseTable):
    """One game's arrays, dealt by the kernel's ``init_game`` and then edited
    (``core.scenario.Table`` holds the values, the seats' policies, the
    record buffers and the trace since a mark). The state's arrays are
    attributes (``S``, ``hand``, ``fate``, ``B``, ``Z``, ``pile``,
    ``cards``, ``KN``, ``KF``, ``st``, ``pst``: a copy of the table with
    copied arrays plays on its own); ``s`` is the engine's ``State`` over
    them, ``c`` the table's ``Ctx``. ``spol`` holds the seats' policy ids
    (``"script"``: ``layout.POL_SCRIPT``), ``pol`` what each seat plays
    where it does not search (``Ctx.bpol``: informed for a search seat)."""

    def __init__(self, players: int = 4, params: dict | None = None, policies="random",
                 seed: int = 0, game: int = 0, trace: int = 100_000):
        from . import SPEC
        super().__init__(SPEC, players, params, policies, kinds=L.NK,
                         ids={"script": L.POL_SCRIPT}, seed=seed, game=game, trace=trace)
        from . import kernel as K                     # compiled: loaded on first use
        self.K = K
        self.spol = self.pol
        self.ip, self.pp, self.ban = SPEC.kernel_arrays(self.values, np.zeros(L.NK, np.int64))
        self.script_rows = np.full((256, 6), -1, np.int64)
        self.n_script = 0
        self.c = K.context(self.P, self.spol, self.ip, self.pp, self.ban, self.script_rows)
        self.pol = self.c.bpol                      # a search seat's own choices: informed
        (self.out, self.tally, self.tied, self.fs, self.ix,
         self.buf) = self.c.out, self.c.tally, self.c.tied, self.c.fs, self.c.ix, self.c.buf
        (self.S, self.hand, self.fate, self.B, self.Z, self.pile, self.cards, self.KN, self.KF,
         self.st, self.pst) = K.new_state(self.P)
        self.F = self.values["fate_cards"]
        K.E.R.prepare(self.s, self.c)
        K.init_game(self.s, self.c, self.seed, self.game, self.masks, self.counts, self.tr, True)

    @property
    def s(self):
        """The engine's State over the table's arrays."""
        return self.K.State(self.S, self.hand, self.fate, self.B, self.Z, self.pile, self.cards,
                            self.KN, self.KF, self.st, self.pst)

    # --- setting up -------------------------------------------------------
    def card(self, name: str) -> int:
        """The id of a free copy of the named card (two decks: the first not yet placed)."""
        k = kind(name)
        every = set(int(x) for x in self.cards[2, :self.Z[L.Z_NC]])
        for c in (k, k + 54):
            if c in every and c not in self._used:
                self._used.add(c)
                return c
        raise ValueError(f"no free copy of {name}")

    def arrange(self, hands=None, fates=None, white=(), white_hidden=(), black=(),
                black_hidden=(), piles=None, deck=(), sage=None, invisible=-1, cloak=-1,
                round=1):
        """Place exactly these cards (deck: bottom first, the top last); every
        other card goes to the discard pile. Seats not named get no hand, and
        keep their dealt fate cards where those are free (else free cards)."""
        self._used = set()
        hands = hands or {}
        fates = fates or {}
        piles = piles or {}
        from .cards import CVAL
        Z, S = self.Z, self.S
        for p in range(self.P):
            names = hands.get(p, [])
            S[p, L.C_HN] = len(names)
            for i, n in enumerate(names):
                self.hand[p, i] = self.card(n)
            if p in fates:
                for i, n in enumerate(fates[p]):
                    self.fate[p, i] = self.card(n)
                    self.KF[p, p, i] = 1
        for b, (up, hid) in enumerate(((white, white_hidden), (black, black_hidden))):
            j = 0
            for n in up:
                self.B[b, 0, j], self.B[b, 1, j] = self.card(n), 1
                j += 1
            for n in hid:
                self.B[b, 0, j], self.B[b, 1, j] = self.card(n), 0
                j += 1
            Z[L.Z_BN + b] = j
            self.K.update_up(self.B, Z, np.int64(b))
        for h in range(4):
            Z[L.Z_PN + h] = 0
            Z[L.Z_PT + h] = 0
        for h, names in piles.items():
            h = house(h)
            for i, n in enumerate(names):
                self.pile[h, i] = self.card(n)
            Z[L.Z_PN + h] = len(names)
            Z[L.Z_PT + h] = sum(int(CVAL[c]) for c in self.pile[h, :len(names)])
        Z[L.Z_DECK] = len(deck)
        for i, n in enumerate(deck):
            self.cards[0, i] = self.card(n)
        for p in range(self.P):          # seats without given fate cards: free cards
            if p not in fates:
                free = [int(c) for c in self.fate[p, :self.F] if int(c) not in self._used]
                free += [int(c) for c in self.cards[2, :Z[L.Z_NC]]
                         if int(c) not in self._used and int(c) not in free]
                for i in range(self.F):
                    self.fate[p, i] = free[i]
                    self._used.add(free[i])
        self.fates_changed()
        rest = [int(c) for c in self.cards[2, :Z[L.Z_NC]] if int(c) not in self._used]
        self.cards[1, :len(rest)] = rest
        Z[L.Z_DISC] = len(rest)
        if sage is not None:
            Z[L.Z_SAGE] = sage
        Z[L.Z_INV] = invisible
        Z[L.Z_CLOAK] = house(cloak) if cloak != -1 else -1
        Z[L.Z_ROUND] = round

    def script(self, *rows):
        """Queue scripted choices for seats whose policy is 'script': (seat,
        'name'|'cloak'|'joker'|'vote'|'tie', value), (seat, 'discard', card),
        (seat, 'spell', effect, card cast, a, b) with effect a name of
        ``layout.EFFECTS`` ('peek_book', 'swap', ..., 'stop'); a swap's a is
        the given card and b (house, pile index)."""
        for r in rows:
            p, d = r[0], DTYPES[r[1]]
            v = [-1, -1, -1, -1]
            if d == L.D_SPELL:
                v[0] = EFFECTS[r[2]]
                if len(r) > 3:
                    v[1] = self.id_in_hand(p, r[3])
                a = r[4] if len(r) > 4 else -1
                b = r[5] if len(r) > 5 else -1
                if v[0] == L.EF_SWAP:
                    a = self.id_in_hand(p, a)
                    b = house(b[0]) * L.PCAP + b[1]
                v[2], v[3] = a, b
            elif d == L.D_DISCARD:
                v[0] = self.id_in_hand(p, r[2])
            elif d in (L.D_CLOAK, L.D_JOKER):
                v[0] = house(r[2])
            else:
                v[0] = r[2]
            self.script_rows[self.n_script] = [p, d, *v]
            self.n_script += 1

    def id_in_hand(self, p, name) -> int:
        k = kind(name)
        for i in range(self.S[p, L.C_HN]):
            if self.hand[p, i] % 54 == k:
                return int(self.hand[p, i])
        raise ValueError(f"P{p} holds no {name}")

    # --- one step through the kernel ---------------------------------------------
    def fates_changed(self) -> None:
        """After editing ``fate`` directly: each seat's fate value mask (the
        kernel keeps it in KN[p, KN_FATE], set at the deal)."""
        from .cards import CBIT
        for p in range(self.P):
            self.KN[p, L.KN_FATE] = 0
            for c in self.fate[p, :self.F]:
                self.KN[p, L.KN_FATE] |= int(CBIT[c])

    def peeked(self, p: int, b: int, j: int) -> None:
        """Seat p has seen the hidden card in place j of book b (as a peek does)."""
        from .cards import CBIT
        c = int(self.B[b, 0, j])
        self.KN[p, c] = 1
        self.KN[p, L.KN_MASK + b] |= int(CBIT[c])

    @property
    def _script(self):
        return self.script_rows[:self.n_script]

    def entries(self, p: int) -> list[tuple]:
        """The random policy's spell list for seat p now: (effect, card, a, b)."""
        K, out = self.K, self.out
        args = (np.int64(p), np.int64(self.P), self.S, self.hand, self.B, self.Z, self.pile,
                self.ip, self.ban, np.int64(self.F))
        n = K.spell_list(*args, np.int64(-1), out)
        res = []
        for e in range(n):
            K.spell_list(*args, np.int64(e), out)
            res.append((L.EFFECTS[out[0]], self.name(self.hand[p, out[1]]),
                        self.name(self.hand[p, out[2]]) if out[0] == L.EF_SWAP else int(out[2]),
                        (L.HOUSES[out[3] // L.PCAP], int(out[3] % L.PCAP)) if out[0] == L.EF_SWAP
                        else int(out[3])))
        return res

    def _stages(self, stage, halt, check=False):
        self.K.play_stages(self.s, self.c, np.int64(stage),
                           np.int64(sum(1 << h for h in halt)), self.masks, self.counts,
                           self.tr, True, check)

    def turn(self, p: int):
        """Seat p's spells (the meeting and discards are separate steps), by
        the step machine from its turn's trace row to its stop."""
        self.Z[L.Z_CUR] = p
        self._stages(L.G_TURNEV, (L.G_MEET, L.G_DISCARD))

    def meeting(self, r: int):
        """The sage's meeting of round r: options, votes, tie break, result."""
        self.Z[L.Z_ROUND] = r
        self.Z[L.Z_CUR] = self.Z[L.Z_SAGE]
        self._stages(L.G_MEET, (L.G_DISCARD,))

    def discard_down(self, p: int):
        self.K.discard_down(self.s, self.c, np.int64(p), self.tr, True)

    def round(self, r: int, check: bool = True) -> int:
        """Play round r whole (the step machine); returns the broken
        invariants counted (check)."""
        e0 = int(self.Z[L.Z_ERR])
        self.Z[L.Z_ROUND] = r
        self._stages(L.G_ROUND, (L.G_NEXT, L.G_END), check)
        return int(self.Z[L.Z_ERR]) - e0

    def draw(self) -> int:
        return int(self.K.draw_card(self.st, self.cards, self.Z, self.tr, True))

    def finish(self) -> dict:
        """Score the game now; returns the game record as a dict and sets ``seats``."""
        self.K.records(self.s, self.c, self.grow, self.srow, self.tr, True)
        self.seats = [dict(zip(L.SEAT_COLUMNS, (int(x) for x in row))) for row in self.srow]
        return dict(zip(L.GAME_COLUMNS, (int(x) for x in self.grow)))

    def invariants(self) -> int:
        return int(self.K.broken_invariants(self.s, self.c, np.int64(0)))

    # --- reading -------------------------------------------------------------------
    @staticmethod
    def name(c) -> str:
        k = int(c) % 54
        if k >= 52:
            return "jk" if k == 52 else "JK"
        return LETTERS[k // 13] + RANKS[k % 13]

    def hand_of(self, p: int) -> list[str]:
        return [self.name(c) for c in self.hand[p, :self.S[p, L.C_HN]]]

    def pile_of(self, h) -> list[str]:
        h = house(h)
        return [self.name(c) for c in self.pile[h, :self.Z[L.Z_PN + h]]]

    def book(self, b: int) -> list[tuple[str, bool]]:
        return [(self.name(self.B[b, 0, j]), bool(self.B[b, 1, j]))
                for j in range(self.Z[L.Z_BN + b])]

    def discard_pile(self) -> list[str]:
        return [self.name(c) for c in self.cards[1, :self.Z[L.Z_DISC]]]


__all__ = ["Table", "kind", "house", "SUITS"]
