"""Compact per-game outcomes and the win-rate groups built from them.

Workflows that play many configurations (sweep points, card bans, matchup
lineups) keep only what their tables need: per game the winner, the number
of turns and rounds and the end reason, and per seat the role when the
ruleset has roles. Everything else a workflow reports is computed from these.

Win-rate groups are ``seat`` (seat index), ``policy`` (all seats playing a
policy) and ``role`` (all seats holding a role). For each group and game,
``w`` counts the group's seats that won and ``c`` the group's seats, so a
win rate is sum(w)/sum(c) and a paired difference between two runs of the
same seed uses the per-game pairs (see ``stats.paired_ratio_diff``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


from ..core.records import Batch
from ..core.play import play_range
from ..core.results import Result
from ..core.summary import (Sums, first_seats, outcome_sums, shares_wins, sole_wins,
                             won_matrix)
from ..core.setup import Setup
from ..core.store import PointStore


@dataclass
class Outcome:
    setup: Setup
    start: int
    winner: np.ndarray          # int64[n], -1 = draw
    turns: np.ndarray           # int64[n]
    rounds: np.ndarray          # int64[n]
    end_reason: np.ndarray      # int64[n], index into spec.end_reasons
    role: np.ndarray | None     # int64[n, P] role ids, when the ruleset has roles
    won: np.ndarray | None = None   # bool[n, P]; None: seat == winner
    first: np.ndarray | None = None  # int64[n], the first mover where the rules decide it

    def __post_init__(self):
        if self.won is None:
            P = self.setup.n_players
            self.won = self.winner[:, None] == np.arange(P)[None, :]

    @property
    def n(self) -> int:
        return int(self.winner.size)

    @staticmethod
    def from_batch(s: Setup, b: Batch) -> "Outcome":
        role = None
        if s.spec.roles is not None and "role" in s.spec.seat_columns:
            role = b.seats[:, :, s.spec.seat_columns.index("role")].astype(np.int64)
        g = b.games
        first = first_seats(s.spec, b) if "first_seat" in s.spec.game_columns else None
        return Outcome(s, b.start, g[:, 0].astype(np.int64), g[:, 1].astype(np.int64),
                       g[:, 2].astype(np.int64), g[:, 3].astype(np.int64), role,
                       won_matrix(s.spec, b), first)

    def arrays(self) -> dict:
        d = {"start": np.array(self.start), "winner": self.winner.astype(np.int16),
             "turns": self.turns.astype(np.int32), "rounds": self.rounds.astype(np.int32),
             "end_reason": self.end_reason.astype(np.int8)}
        if self.role is not None:
            d["role"] = self.role.astype(np.int16)
        d["won"] = self.won.astype(np.uint8)
        return d

    @staticmethod
    def from_arrays(s: Setup, d: dict) -> "Outcome":
        return Outcome(s, int(d["start"]), d["winner"].astype(np.int64),
                       d["turns"].astype(np.int64), d["rounds"].astype(np.int64),
                       d["end_reason"].astype(np.int64),
                       d["role"].astype(np.int64) if "role" in d else None,
                       d["won"].astype(bool) if "won" in d else None)

    @staticmethod
    def merge(parts: list["Outcome"]) -> "Outcome":
        parts = sorted(parts, key=lambda o: o.start)
        for a, b in zip(parts, parts[1:]):
            if a.start + a.n != b.start:
                raise ValueError("outcomes are not contiguous")
        cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
        return Outcome(parts[0].setup, parts[0].start, cat("winner"), cat("turns"),
                       cat("rounds"), cat("end_reason"),
                       None if parts[0].role is None else cat("role"), cat("won"))

    # --- derived ----------------------------------------------------------
    def role_labels(self) -> dict:
        spec = self.setup.spec
        return spec.role_names(self.setup.values)

    @property
    def shares_wins(self) -> bool:
        """Can several seats win one game in this ruleset (teams, zombies,
        houses, ties)? Then rates count a shared win fully and the tables
        show the sole-win rate beside them."""
        return shares_wins(self.setup.spec)

    @property
    def sole(self) -> np.ndarray:
        """bool[n, P]: the seat won and no other seat did."""
        return sole_wins(self.won)

    def shared_share(self) -> float:
        """Share of games with several winning seats."""
        return float((self.won.sum(axis=1) > 1).mean()) if self.n else float("nan")

    def groups(self, won: np.ndarray | None = None, all_roles: bool = False) -> dict:
        """{(group, key): (w, c)} per-game wins and seat counts of each group
        (``won``: another bool[n, P] to count instead, e.g. ``self.sole``;
        ``all_roles``: also the ruleset's roles no seat held in these games,
        so that pieces of games have the same groups)."""
        s = self.setup
        won = self.won if won is None else won
        P = s.n_players
        out = {}
        for j in range(P):
            out[("seat", str(j))] = (won[:, j].astype(np.int64),
                                     np.ones(self.n, np.int64))
        pol = np.array(s.policies)
        for p in dict.fromkeys(s.policies):
            seats = np.flatnonzero(pol == p)
            out[("policy", p)] = (won[:, seats].sum(axis=1).astype(np.int64),
                                  np.full(self.n, seats.size, np.int64))
        if self.role is not None:
            labels = self.role_labels()
            for r in sorted(set(np.unique(self.role).tolist()) | set(labels)):
                has = self.role == r
                c = has.sum(axis=1)
                if c.sum() == 0 and not (all_roles and r in labels):
                    continue
                out[("role", labels.get(r, str(r)))] = ((has & won).sum(axis=1).astype(np.int64), c)
        return out

    def capped(self) -> np.ndarray:
        reasons = list(self.setup.spec.end_reasons)
        if "turn_cap" not in reasons:
            return np.zeros(self.n, bool)
        return self.end_reason == reasons.index("turn_cap")

    def first_wins(self) -> int:
        """Games the first mover won (seat 0 unless ``first`` says otherwise)."""
        first = np.zeros(self.n, np.int64) if self.first is None else self.first
        return int(self.won[np.arange(self.n), first].sum())

    def sums(self) -> Sums:
        """These games' :class:`core.summary.Sums` (no card masks: the sums
        of outcomes only), the model every figure is read from."""
        s = self.setup
        return Sums(s, outcome_sums(s.spec, s.values, self.won, self.turns, self.end_reason,
                                    self.role, self.rounds), self.start)

    def rates(self) -> pd.DataFrame:
        """Tidy win rates per seat, policy and role (group, key, games
        (seat-games), wins, win_rate, 95% Wilson; where wins can be shared
        also sole_win_rate with its own interval), followed by the length
        figures (``Sums.lengths``): the table of one sweep point."""
        return self.sums().rates()


def main_group(s: Setup) -> str:
    """The grouping a designer reads first: role when the ruleset has roles,
    policy with mixed policies, else seat."""
    if s.spec.roles is not None and "role" in s.spec.seat_columns:
        return "role"
    if len(set(s.policies)) > 1:
        return "policy"
    return "seat"


def point_desc(s: Setup, start: int, stop: int, what: str) -> dict:
    from ..core.registry import fingerprint
    return {"what": what, **s.describe(), "start": int(start), "stop": int(stop),
            "code": fingerprint(s.spec.name)}


def play_outcome(s: Setup, start: int, stop: int, store: PointStore | None = None,
                 progress=None, label: str = "") -> Outcome:
    """Games [start, stop) of a setup as an Outcome, reused from ``store``
    when that exact configuration and range was played before."""
    store = store or PointStore(None)
    d = store.fetch(point_desc(s, start, stop, "outcome"),
                    lambda: Outcome.from_batch(s, _play(s, start, stop, store, progress,
                                                        label)).arrays())
    _drop_chunks(s, store)
    return Outcome.from_arrays(s, d)


def _play(s: Setup, start: int, stop: int, store: PointStore, progress, label):
    """Games [start, stop), their finished chunks kept in the store's
    ``chunks`` folder so that an interrupted point resumes where it stopped."""
    ck = None if store.root is None else store.root / "chunks"
    return play_range(s, start, stop, progress=progress, label=label, checkpoint=ck)


def _drop_chunks(s: Setup, store: PointStore) -> None:
    """Once a point is stored whole, its chunks are no longer needed."""
    if store.root is not None:
        import shutil
        from ..core.setup import setup_key
        shutil.rmtree(store.root / "chunks" / setup_key(s), ignore_errors=True)


def play_result(s: Setup, start: int, stop: int, store: PointStore | None = None,
                progress=None, label: str = "") -> Result:
    """Games [start, stop) as a full Result (with card masks), stored whole."""
    store = store or PointStore(None)

    def compute():
        b = _play(s, start, stop, store, progress, label)
        # int64 as played: elite's saturating damage totals do not fit in int32
        return {"start": np.array(b.start), "games": b.games, "seats": b.seats,
                "masks": b.masks, "counts": b.counts}
    d = store.fetch(point_desc(s, start, stop, "batch"), compute)
    _drop_chunks(s, store)
    b = Batch(int(d["start"]), d["games"].astype(np.int64), d["seats"].astype(np.int64),
              d["masks"], d["counts"].astype(np.int64))
    return Result(s, b)


def say(text: str) -> None:
    """One line for the user on standard error (as ``play.play_range``'s resume and
    interrupt lines), apart from the tables on standard output."""
    import sys
    print(text, file=sys.stderr, flush=True)


def open_store(store, out) -> tuple[PointStore, bool]:
    """The workflow's store: ``store`` itself when it is a PointStore (a
    caller that runs several workflows, such as the report, shares one and
    says once what it reused: the second value is then False), else a store
    in the folder ``store`` or ``out/.points`` (None: nothing kept)."""
    if isinstance(store, PointStore):
        return store, False
    from pathlib import Path
    root = store if store is not None else (Path(out) / ".points" if out is not None else None)
    return PointStore(root), True


class Pieces:
    """The progress bar and the resume and interrupt lines of a workflow
    that plays a list of pieces (sweep points, card bans, matchup lineups)
    into a :class:`PointStore`.

    The bar starts after the first piece played, as ``play.play_range``'s
    does: its clock and rate leave out the kernel's first compile (a first
    ETA of minutes for a run of seconds otherwise), and it counts the pieces
    played in this process only. How many pieces were reused from the store
    is said as the first piece to play begins (the store's ``on_compute``),
    or at the end (:meth:`done`) when none is played or more were reused
    after; an interruption says how many are finished and saved, and that
    the same command resumes."""

    def __init__(self, store: PointStore, total: int, unit: str, desc: str, progress=None,
                 say_resumed: bool = True):
        self.store, self.total, self.unit, self.desc = store, total, unit, desc
        self.say_resumed = say_resumed
        self.progress = progress
        self.bar = None
        self.finished = 0
        self.reused = 0
        self.said = 0                   # the reused count the resume line gave
        self._hits = store.hits
        self._label = ""

    def start(self, label: str) -> None:
        """A piece begins (``label`` shown beside the bar)."""
        self._label = label
        self._hits = self.store.hits
        if self.say_resumed:
            self.store.on_compute = self._playing
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)

    def _playing(self) -> None:
        """The piece begun is not in the store: say what was reused so far."""
        if self.reused and not self.said:
            self._say_resumed()

    def _say_resumed(self) -> None:
        self.said = self.reused
        say(f"resumed: {self.reused} of {self.total} {self.unit}s reused from "
            f"{self.store.root}")

    def update(self, amount: int = 1) -> None:
        """The piece begun by :meth:`start` is finished (played or reused);
        ``amount``: how many units it was (``--summary-only`` counts games)."""
        self.finished += amount
        reused = self.store.hits > self._hits
        self.reused += amount if reused else 0
        if self.finished > self.total:          # --precision played more than planned
            self.add(self.finished - self.total)
        if self.progress is False:
            return
        if reused:                              # the bar counts pieces played now
            if self.bar is not None:
                self.bar.total -= amount
                self.bar.refresh()
        elif self.bar is None:
            from tqdm import tqdm
            self.bar = tqdm(total=self.total - self.reused, initial=amount, unit=self.unit,
                            desc=self.desc, delay=1.0 if self.progress is None else 0,
                            unit_scale=self.unit == "game")
        else:
            self.bar.update(amount)

    def add(self, n: int) -> None:
        """``n`` more pieces than planned (a sweep's refinement)."""
        self.total += n
        if self.bar is not None:
            self.bar.total += n

    def close(self) -> None:
        if self.store.on_compute == self._playing:
            self.store.on_compute = None
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def interrupted(self) -> None:
        self.close()
        if self.store.root is not None:
            say(f"interrupted: {self.finished} of {self.total} {self.unit}s finished and saved "
                f"in {self.store.root}; run the same command again to resume")

    def done(self) -> None:
        self.close()
        if self.reused and self.say_resumed and self.reused != self.said:
            self._say_resumed()


def text_table(header: list[str], rows: list[list[str]], right=(), indent: str = "  "
               ) -> list[str]:
    """Rows of text cells in columns sized to their content (a long role
    slug never pushes a row out of line); columns whose index is in
    ``right`` are right-aligned."""
    cols = list(zip(*([header] + rows))) if rows else [[h] for h in header]
    widths = [max(len(str(c)) for c in col) for col in cols]

    def fmt(cells):
        return indent + "  ".join(str(c).rjust(w) if i in right else str(c).ljust(w)
                                  for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [fmt(header)] + [fmt(r) for r in rows]
