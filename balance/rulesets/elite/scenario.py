"""Set up an exact Magic Elite position and play from it (rulebook scenario
tests, notebooks).

>>> t = Table(players=2, params={"version": 1}, policies="script")
>>> t.identity(0, "S10"); t.identity(1, "H7")
>>> t.arrange(hands={0: ["DK"], 1: ["S2"]}, deck=["C3"] * 10)
>>> t.script((0, "DK", 1))          # seat 0 plays ♦K at seat 1
>>> t.turn(0); print("\\n".join(t.lines()))

Cards are written suit letter + rank (``SA``, ``H5``, ``DK``; S H C D = ♠ ♥ ♣ ♦),
runs as one suit letter and its ranks (``HA23``), identities as suit letter
+ rank (``S10``, ``H9``).
"""
from __future__ import annotations

import numpy as np

from ...core import scenario
from . import layout as L
from . import rules

SUIT_LETTERS = "SHCD"


def kind(card: str) -> int:
    card = card.strip().upper()
    return SUIT_LETTERS.index(card[0]) * 9 + rules.RANKS.index(card[1:])


def ident(card: str) -> int:
    card = card.strip().upper()
    return (int(card[1:]) - 7) * 4 + SUIT_LETTERS.index(card[0])


OPTIONS = {"": L.O_NONE, "judgment": L.O_JUDG, "frame": L.O_FRAME, "shield": L.O_SHIELD,
           "control": L.O_CONTROL,
           # v3
           "reflect": L.O_REFLECT, "rampage": L.O_RAMP, "devour": L.O_DEVOUR,
           "freeze_skill": L.O_FRZSK, "freeze_shield": L.O_FRZSH, "bloodthirst": L.O_BLOOD}


class Table(scenario.Table):
    """One game's arrays, dealt normally by ``init_game`` and then edited
    (``balance.core.scenario.Table``: values, policies and their ids, the
    record buffers, the trace since a mark). Seats may play the tests'
    ``script`` policy (their rows: :meth:`script`)."""

    def __init__(self, players: int = 2, params: dict | None = None, policies="greedy",
                 seed: int = 0, game: int = 0, trace: int = 200_000, ban: dict | None = None):
        from ...core.records import ban_vector
        from . import SPEC
        from .kernel import engine      # compiled: loaded on first use
        super().__init__(SPEC, players, params, policies, kinds=rules.N_KINDS,
                         ids={"script": rules.POLICY_SCRIPT}, seed=seed, game=game, trace=trace)
        version = self.values["version"]
        self._kernel, self._cards = engine(version, "step_game"), engine(version, "cards")
        self._run, self._step = engine(version, "kernel"), engine(version, "step")
        banv = None
        if ban:
            from ...core.records import BAN_CODES
            banv = np.zeros(rules.N_KINDS, np.int64)
            for k, mode in ban.items():
                banv[rules.card_kinds().index(k)] = BAN_CODES[mode]
        # pp: the float policy parameters, one row per seat (SPEC.kernel_arrays)
        self.ip, self.pp, self.PT, self.PID = SPEC.kernel_arrays(self.values,
                                                                 ban_vector(banv, rules.N_KINDS))
        self.script_rows = np.full((256, 4), -1, np.int64)
        # the game (state.State) and its context (state.Ctx: seats, rules, scratch, script rows)
        self.s = self._run.new_state(self.P)
        self.c = self._run.context(self.P, self.pol, self.ip, self.pp, self.PT, self.PID,
                                   self.script_rows)
        self.st, self.S, self.pile, self.Z = self.s.st, self.s.S, self.s.pile, self.s.Z
        self.n_script = 0
        self._call(L.M_INIT, 1)

    # --- setting up -------------------------------------------------------
    def identity(self, p: int, *cards: str, hp: int | None = None, max_hp: int | None = None):
        """Give seat p these identity cards (v2: its generals in order) and
        make the first its active character at full HP."""
        S = self.S
        for j, c in enumerate(cards):
            S[p, L.C_G + j] = ident(c)
        self._call(L.M_GENERAL, p, 0)
        S[p, L.C_ROLE] = S[p, L.C_RANK]
        S[p, L.C_ROLESUIT] = S[p, L.C_SUIT]
        if max_hp is not None:
            S[p, L.C_MAXHP] = max_hp
            S[p, L.C_HP] = max_hp
        if hp is not None:
            S[p, L.C_HP] = hp

    def arrange(self, hands: dict[int, list[str]], deck: list[str] | None = None,
                rest: str = "deck"):
        """Set every hand exactly and the top of the deck (``deck[-1]`` is
        drawn first); every other card goes below, in a fixed order, or with
        ``rest="discard"`` to the discard pile (the deck then holds exactly
        ``deck``)."""
        nd = self.values["n_decks"]
        pool = np.full(36, nd, np.int64)
        for cards in hands.values():
            for c in cards:
                pool[kind(c)] -= 1
        top = [kind(c) for c in (deck or [])]
        for k in top:
            pool[k] -= 1
        if (pool < 0).any():
            raise ValueError("more copies of a card than the decks hold")
        if rest not in ("deck", "discard"):
            raise ValueError(f"rest must be 'deck' or 'discard', not {rest!r}")
        others = [k for k in range(36) for _ in range(pool[k])]
        S = self.S
        for p in range(self.P):
            for k in range(36):
                S[p, L.C_H + k] = 0
            for s in range(4):
                S[p, L.C_M + s] = 0
            S[p, L.C_HN] = 0
            for c in hands.get(p, []):
                self._cards.add_card(S, p, kind(c))
        if rest == "discard":
            self.pile[0, :len(top)] = top
            self.pile[1, :len(others)] = others
            self.Z[L.Z_DECK] = len(top)
            self.Z[L.Z_DISC] = len(others)
        else:
            order = others + top
            self.pile[0, :len(order)] = order
            self.Z[L.Z_DECK] = len(order)
            self.Z[L.Z_DISC] = 0
        self.set_mark()

    def script(self, *rows):
        """Script rows for seats with the ``script`` policy, in decision order:
        ``(seat, play, target)`` for a turn or revive, ``(seat, play, None,
        option, option_target)`` for a response; the seat is only for
        readability. ``play`` is a run like ``"HA23"``."""
        for row in rows:
            _, play, target, option, ot = tuple(row) + (None,) * (5 - len(row))
            opt = OPTIONS[option or ""]
            ot = -1 if ot is None else ot
            r = self.script_rows[self.n_script]
            r[0] = self.play(play)
            r[1] = -1 if target is None else target
            r[2] = opt
            r[3] = ot
            self.n_script += 1

    def play(self, run: str) -> int:
        run = run.strip().upper()
        s = SUIT_LETTERS.index(run[0])
        ranks, i = [], 1
        while i < len(run):
            for r in sorted(rules.RANKS, key=len, reverse=True):
                if run[i:].startswith(r):
                    ranks.append(rules.RANKS.index(r))
                    i += len(r)
                    break
            else:
                raise ValueError(f"bad run {run!r}")
        k = int(self.PID[s, ranks[0], ranks[-1]])
        if k < 0 or len(ranks) != ranks[-1] - ranks[0] + 1:
            raise ValueError(f"{run!r} is not a legal run")
        return k

    # --- playing --------------------------------------------------------------
    def _call(self, mode, a=0, b=0, dmg=0) -> int:
        return int(self._kernel.entry(mode, self.s, self.c, self.seed, self.game, self.masks,
                                      self.counts, self.tr, self.grow, np.int64(a), np.int64(b),
                                      np.int64(dmg)))

    def turn(self, p: int):
        """One turn of seat p (the turn counter moves on by one)."""
        self.Z[L.Z_TURN] += 1
        self._call(L.M_TURN, p)
        return self

    def exchange(self, a: int, d: int, incoming: int) -> int:
        """a sends ``incoming`` damage at d; returns the number of responses."""
        return self._call(L.M_EXCHANGE, a, d, incoming)

    # --- v3 -----------------------------------------------------------------------
    def hit(self, t: int, src: int, amount: int):
        """v3: one damage instance of ``amount`` from src at t (the passive
        defences apply), then the duel queue."""
        self._call(L.M_HIT, t, src, amount)
        return self

    def duel(self, x: int, y: int) -> int:
        """v3: x (in play) duels y (waiting after its death); returns the winner."""
        self.S[y, L.C_PEND] = 1
        self.S[y, L.C_ALIVE] = 0
        self.S[y, L.C_KLR] = x
        return self._call(L.M_DUEL, x, y)

    def draw(self, p: int, n: int):
        """v3: seat p draws n cards (mines and the gift pack apply)."""
        self._call(L.M_DRAW, p, n)
        return self

    def turn_start(self, p: int):
        """v3: only the start-of-turn effects of seat p (birds, bloodthirst,
        thaw, mine, shop)."""
        self._call(L.M_START, p)
        return self

    def judgment(self, p: int) -> int:
        """Seat p calls Judgment; returns the bitmask of seats whose general died."""
        return self._call(L.M_JUDGMENT, p)

    def _state(self):
        """The table's game and context, for the step machine."""
        return self.s, self.c

    def search_play(self, p: int) -> tuple[int, tuple[int, int, int, int]]:
        """The turn play seat p's search policy chooses from this state, taken
        as its decision point at the start of game decision 0 (nothing is
        played): (number of options, the option (play, target, option,
        option target); a pass is (-1, -1, 0, -1))."""
        E = self._run.E
        pid = int(self.pol[p])
        if E.KIND[pid] == 0:
            raise ValueError(f"seat {p} plays {self.policies[p]!r}, not a search policy")
        s, c = self._state()
        self.Z[L.Z_CUR], self.Z[L.Z_PHASE], self.Z[L.Z_END], self.Z[L.Z_XD] = p, L.PH_TURN, -1, -1
        rows = np.zeros(1024, np.int64)
        n = int(self._step.options(s, c, rows))
        sw = E.search_work(lambda: self._run.new_state(self.P), self.masks.shape,
                           self.counts.shape)
        code = int(E.decide(self.seed, self.game, c, s, pid, np.int64(0), sw))
        k, t, o, ot = (int(x) for x in self._step.parts(np.int64(code)))
        return (0 if code == 0 else n), (k, t, o, ot)

    def next_turn(self, p: int) -> tuple[int, bool]:
        """Seat after p in turn order, and whether a new round starts."""
        r = self._call(L.M_NEXT, self.S[p, L.C_KEY])
        return r // 2, bool(r % 2)

    def run(self, cur: int, turns: int = 0):
        """Play on from turn ``turns`` with seat ``cur`` to move to the end of
        the game (check mode), every seat by its heuristic (a search seat
        by greedy), through the step machine; returns (game row, seat rows,
        broken invariants)."""
        R = self._step
        s, c = self._state()
        self.Z[L.Z_CUR], self.Z[L.Z_TURN], self.Z[L.Z_END], self.Z[L.Z_XD] = cur, turns, -1, -1
        on = bool(self.Z[L.Z_ON])
        err = int(R.begin(s, c, self.masks, self.counts, self.tr, True))
        while not R.done(s, c):
            err += int(R.apply(s, c, R.heuristic(s, c, self.pol[R.seat(s, c)]), self.masks,
                               self.counts, self.tr, on, True))
        R.finish(s, c, self.tr, on, self.grow, self.srow)
        return self.grow.copy(), self.srow.copy(), err

    # --- reading ----------------------------------------------------------------
    def hp(self, p: int) -> int:
        return int(self.S[p, L.C_HP])

    def max_hp(self, p: int) -> int:
        return int(self.S[p, L.C_MAXHP])

    def hand(self, p: int) -> int:
        return int(self.S[p, L.C_HN])

    def col(self, p: int, c: int) -> int:
        return int(self.S[p, c])

    def script_errors(self) -> int:
        return int(self.Z[L.Z_SERR])

    def check(self) -> int:
        return self._call(L.M_CHECK)

    def saturating(self, a: int, b: int) -> tuple[int, int]:
        """(a x b, a + b), saturating at 2**62."""
        self._call(L.M_SAT, a, b)
        return int(self.grow[0]), int(self.grow[1])
