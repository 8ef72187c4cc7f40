"""Set up an exact Demon Faction position and run one step of it through
the compiled kernel (rulebook scenario tests, notebooks).

>>> t = Table()                       # both seats scripted (greedy where the script is silent)
>>> t.row(0, 1, "D8"); t.row(1, 1, "D3", "D4")
>>> t.script(attack(1, 1))            # seat 0 attacks from row 1 at row 1 (8 > 7)
>>> t.attack(0); t.hp(1)              # ♦3 goes: 3 damage + 1 passive
46

Cards are written suit letter + rank (``D3``, ``S10``, ``HQ``; D S C H =
♦ ♠ ♣ ♥), ``BIG`` and ``SMALL`` for the jokers. Rows are numbered 1-3 as in
the rules (1 ♦, 2 ♠, 3 ♣); seats 0 and 1.
"""
from __future__ import annotations

import numpy as np

from ...core import scenario as core_scenario
from . import layout as L
from .rules import BIG, N_KINDS, RANKS, SMALL, card_name

W = L.WILD      # script wildcard: matches any value


def kind(card: str) -> int:
    c = card.strip().upper()
    if c in ("BIG", "BJ"):
        return BIG
    if c == "SMALL":
        return SMALL
    return "DSCH".index(c[0]) * 13 + RANKS.index(c[1:])


# --- script rows ------------------------------------------------------------------
def place(card, r):
    """Place a normal card into row r (1-3)."""
    return (L.D_PLACE, L.A_ROW, kind(card), r - 1, W, W)


def slot(card):
    return (L.D_PLACE, L.A_SLOT, kind(card), W, W, W)


def pair(c1, c2):
    a, b = sorted((kind(c1), kind(c2)))
    return (L.D_PLACE, L.A_PAIR, a, W, b, W)


def face(card, replace=None):
    """A ♦♠♣ face card into its row; ``replace`` = 0 or 1, the old face card
    it replaces at 2 face cards."""
    return (L.D_PLACE, L.A_FACE, kind(card), W, -1 if replace is None else replace, W)


def heart(card, seat, r, which):
    """A ♥ face card on seat's row r: which = 0 first, 1 second, 2 both."""
    return (L.D_PLACE, L.A_HEART, kind(card), seat * 3 + r - 1, which, W)


def big(r):
    return (L.D_PLACE, L.A_BIG, BIG, r - 1, W, W)


def small():
    return (L.D_PLACE, L.A_SMALL, SMALL, W, W, W)


def end():
    return (L.D_PLACE, L.A_END, W, W, W, W)


def attack(r, target, mode=0):
    """Attack from row r at row ``target`` (0 or None: the player directly);
    mode 1 = with the big joker's effect."""
    return (L.D_ATTACK, r - 1, -1 if not target else target - 1, mode, W, W)


def no_attack():
    return (L.D_ATTACK, -1, W, W, W, W)


def option(n, b=W, c=W, d=W, e=W):
    """An effect option: K (n, card), Q (n, destroyed card, own lowest card,
    card placed, row), clash (0 yield, 1 fight), reply (0, 1), and ties (0,
    card)."""
    conv = [kind(x) if isinstance(x, str) else x for x in (b, c, d, e)]
    return (L.D_OPT, n, *conv)


def choice(card):
    """Pick this card where equal cards tie (defender, J, joker effect)."""
    return (L.D_OPT, kind(card), W, W, W, W)


class Table(core_scenario.Table):
    """One game's arrays (``core.scenario.Table``: the values, the policies
    and their ids, the records, the trace since a mark); ``clear`` empties
    the board (every card in its owner's deck, in id order), then the
    setters build a position. Two seats always (demon's state is sized by
    its two sides); ``"script"`` (``layout.POL_SCRIPT``) is a policy here:
    the seat plays its script's rows, greedy where the script is silent."""

    def __init__(self, params: dict | None = None, policies="script", seed: int = 0,
                 game: int = 0, trace: int = 50_000):
        from ...core.records import ban_vector
        from . import SPEC
        from . import kernel as K          # compiled: loaded on first use
        from .state import context, new_state
        super().__init__(SPEC, 2, params, policies, kinds=N_KINDS,
                         ids={"script": L.POL_SCRIPT}, seed=seed, game=game, trace=trace)
        self.K = K
        ip, pp, ban = SPEC.kernel_arrays(self.values, ban_vector(None, N_KINDS))
        # the State and the Ctx the kernel takes; one row buffer for both
        self.s = new_state(2)
        self.c = context(2, self.pol, ip, pp, ban, L.NSCRIPT)._replace(rows=self.s.rows,
                                                                        sc=self.s.sc)
        self.S, self.Z, self.pile, self.st, self.rows, self.sc = self.s
        self.pol, self.ip, self.pp, self.ban = self.c.pol, self.c.ip, self.c.pp, self.c.ban
        self.scr, self.tmp = self.c.script, self.c.tmp
        self._call(K.M_FILL)
        self._call(K.M_DEAL)
        self.clear()

    def _call(self, mode, a=0, b=0) -> int:
        return int(self.K.entry(mode, np.int64(a), np.int64(b), self.seed, self.game, self.s,
                                self.c, self.masks, self.counts, self.tr, self.grow, self.srow))

    # --- setting up -------------------------------------------------------
    def clear(self, hp: int | None = None):
        S, Z = self.S, self.Z
        for p in range(2):
            S[p, :] = 0
            S[p, L.C_HP] = self.values["hp"] if hp is None else hp
            self.pile[p, :N_KINDS] = np.arange(N_KINDS)
            S[p, L.C_DECKN] = N_KINDS
            S[p, L.C_DECKM] = (1 << N_KINDS) - 1
            S[p, L.C_BJ] = -1
            S[p, L.C_FACE:L.C_FACE + 6] = -1
        for s in range(3):
            Z[L.Z_SOWN + s] = -1
            Z[L.Z_SCARD + s] = -1
            Z[L.Z_SACT + s] = 0
        for z in (L.Z_DONE, L.Z_FLAGS, L.Z_NOATK, L.Z_STALE, L.Z_FIRST, L.Z_SPOS, L.Z_SERR):
            Z[z] = 0
        Z[L.Z_TURN] = 10
        self.scr[:] = 0
        self.set_mark()
        return self

    def _take(self, p, card) -> int:
        """Take seat p's card out of its deck (where ``clear`` put it)."""
        k = kind(card) if isinstance(card, str) else card
        S = self.S
        if not (int(S[p, L.C_DECKM]) >> k) & 1:
            raise ValueError(f"P{p}'s {card_name(k)} is not in its deck any more")
        n = int(S[p, L.C_DECKN])
        d = [c for c in self.pile[p, :n] if c != k]
        self.pile[p, :n - 1] = d
        S[p, L.C_DECKN] = n - 1
        S[p, L.C_DECKM] = int(S[p, L.C_DECKM]) & ~(1 << k)
        return k

    def hand(self, p, *cards):
        for c in cards:
            k = self._take(p, c)
            self.S[p, L.C_HAND] = int(self.S[p, L.C_HAND]) | (1 << k)
        return self

    def row(self, p, r, *cards):
        for c in cards:
            k = self._take(p, c)
            self.S[p, L.C_ROW + r - 1] = int(self.S[p, L.C_ROW + r - 1]) | (1 << k)
            self.S[p, L.C_POW + r - 1] += k % 13 + 1
        return self

    def face(self, p, r, *cards, active=True):
        for c in cards:
            k = self._take(p, c)
            j = 0 if self.S[p, L.C_FACE + 2 * (r - 1)] < 0 else 1
            self.S[p, L.C_FACE + 2 * (r - 1) + j] = k
            self.S[p, L.C_FACT + 2 * (r - 1) + j] = int(active)
        return self

    def slot(self, p, card, active=True):
        k = self._take(p, card)
        s = k // 13
        self.Z[L.Z_SOWN + s] = p
        self.Z[L.Z_SCARD + s] = k
        self.Z[L.Z_SACT + s] = int(active)
        return self

    def big(self, p, r):
        self._take(p, BIG)
        self.S[p, L.C_BJ] = r - 1
        return self

    def grave(self, p, *cards):
        for c in cards:
            k = self._take(p, c)
            self.S[p, L.C_GRAVE] = int(self.S[p, L.C_GRAVE]) | (1 << k)
        return self

    def deck_top(self, p, *cards):
        """These cards on top of p's deck, the first drawn first."""
        ks = [kind(c) for c in cards]
        n = int(self.S[p, L.C_DECKN])
        rest = [c for c in self.pile[p, :n] if c not in ks]
        self.pile[p, :n] = rest + ks[::-1]
        return self

    def empty_deck(self, p):
        """p's whole deck goes to its graveyard."""
        n = int(self.S[p, L.C_DECKN])
        for k in list(self.pile[p, :n]):
            self.grave(p, int(k))
        return self

    def set_hp(self, p, hp):
        self.S[p, L.C_HP] = hp
        return self

    def points(self, p, r, n):
        self.S[p, L.C_KPTS + r - 1] = n
        return self

    def script(self, *rows):
        for i, row in enumerate(rows):
            self.scr[i] = row
        self.Z[L.Z_SPOS] = 0
        return self

    # --- one step -------------------------------------------------------------
    def turn(self, p):
        """One whole turn of seat p (start effects, preparation, draw,
        placement, attack)."""
        self.Z[L.Z_TURN] += 1
        self.Z[L.Z_FIRST] = 0
        return self._call(self.K.M_TURN, p)

    def begin(self, p):
        """The start of p's turn: activation, J effects, K options."""
        return self._call(self.K.M_BEGIN, p)

    def place(self, p):
        """p's placement phase."""
        return self._call(self.K.M_PLACE, p)

    def attack(self, p):
        """p's attack phase."""
        return self._call(self.K.M_ATTACK, p)

    def new_turn_flags(self):
        self.Z[L.Z_FLAGS] = 0
        self.Z[L.Z_NOATK] = 0
        return self

    def targets(self, p, r) -> list:
        """Opposing rows (1-3; 0 = the player) p's row r may target."""
        n = self._call(self.K.M_TARGETS, p, r - 1)
        return [int(t) + 1 for t in self.tmp[:n]]

    def place_list(self, p) -> list[tuple]:
        """p's legal placement rows now (type, card, arg, arg2), "end" last."""
        n = self._call(self.K.M_LIST, p)
        return [tuple(int(x) for x in self.rows[i, 1:5]) for i in range(n)]

    def attack_list(self, p) -> list[tuple]:
        """p's legal attacks now (row, target, mode; 0-based, -1 direct), no attack last."""
        n = self._call(self.K.M_ALIST, p)
        return [tuple(int(x) for x in self.rows[i, 1:4]) for i in range(n)]

    def pick(self, p) -> int:
        """The index p's policy picks among ``place_list`` (nothing applied)."""
        return self._call(self.K.M_PICK, p)

    def attack_pick(self, p) -> int:
        """The index p's policy picks among ``attack_list`` (nothing applied)."""
        return self._call(self.K.M_APICK, p)

    def play(self, cur, turns=10):
        """Play on from cur's turn to the end (check mode); returns (game row,
        broken invariants)."""
        err = self._call(self.K.M_PLAY, cur, turns)
        return dict(zip(L.GAME_COLUMNS, self.grow.tolist())), err

    def check(self) -> int:
        return self._call(self.K.M_CHECK)

    # --- reading ----------------------------------------------------------------
    def hp(self, p) -> int:
        return int(self.S[p, L.C_HP])

    def power(self, p, r) -> int:
        return int(self.S[p, L.C_POW + r - 1])

    def _names(self, m) -> list[str]:
        m = int(m)
        return [card_name(k) for k in range(N_KINDS) if (m >> k) & 1]

    def row_cards(self, p, r) -> list[str]:
        return self._names(self.S[p, L.C_ROW + r - 1])

    def hand_cards(self, p) -> list[str]:
        return self._names(self.S[p, L.C_HAND])

    def graveyard(self, p) -> list[str]:
        return self._names(self.S[p, L.C_GRAVE])

    def faces(self, p, r) -> list[str]:
        return [card_name(int(k)) for k in self.S[p, L.C_FACE + 2 * (r - 1):
                                                  L.C_FACE + 2 * r] if k >= 0]

    def joker_row(self, p) -> int:
        return int(self.S[p, L.C_BJ]) + 1

    def slot_of(self, s: str):
        """(owner, card) of the extra slot of suit s ('D', 'S', 'C'), or None."""
        i = "DSC".index(s.upper())
        o = int(self.Z[L.Z_SOWN + i])
        return None if o < 0 else (o, card_name(int(self.Z[L.Z_SCARD + i])))

    def stat(self, p, name) -> int:
        return int(self.S[p, L.ST[name]])

    def done(self) -> bool:
        return bool(self.Z[L.Z_DONE])

    def script_errors(self) -> int:
        return int(self.Z[L.Z_SERR])
