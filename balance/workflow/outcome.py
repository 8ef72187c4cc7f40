"""Compact per-game outcomes: the stored form of a workflow's games.

Workflows that play many configurations (sweep points, card bans, matchup
lineups) keep only what their tables need: per game the winner, who won,
the number of turns and rounds, the end reason and the first mover where
the rules decide it, and per seat the role when the ruleset has roles.
:class:`Outcome` is that storage only (``from_batch``, ``arrays``,
``from_arrays``, ``merge``): every figure is computed from its columns by
``core.summary`` (a piece's sums, the win-rate groups and their per-game
columns) and ``core.paired`` (two runs of the same games).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


from ..core.records import Batch
from ..core.play import play_range
from ..core.results import Result
from ..core.summary import first_seats, seat_roles, won_matrix
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
        role = seat_roles(s.spec, b)
        role = None if role is None else role.astype(np.int64)
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
        if self.first is not None:
            d["first"] = self.first.astype(np.int16)
        return d

    @staticmethod
    def from_arrays(s: Setup, d: dict) -> "Outcome":
        return Outcome(s, int(d["start"]), d["winner"].astype(np.int64),
                       d["turns"].astype(np.int64), d["rounds"].astype(np.int64),
                       d["end_reason"].astype(np.int64),
                       d["role"].astype(np.int64) if "role" in d else None,
                       d["won"].astype(bool) if "won" in d else None,
                       d["first"].astype(np.int64) if "first" in d else None)

    @staticmethod
    def merge(parts: list["Outcome"]) -> "Outcome":
        parts = sorted(parts, key=lambda o: o.start)
        for a, b in zip(parts, parts[1:]):
            if a.start + a.n != b.start:
                raise ValueError("outcomes are not contiguous")
        cat = lambda name: np.concatenate([getattr(p, name) for p in parts])  # noqa: E731
        return Outcome(parts[0].setup, parts[0].start, cat("winner"), cat("turns"),
                       cat("rounds"), cat("end_reason"),
                       None if parts[0].role is None else cat("role"), cat("won"),
                       None if parts[0].first is None else cat("first"))


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
    # "outcome-first": named apart from the outcomes stored before they kept the first mover
    d = store.fetch(point_desc(s, start, stop, "outcome-first"),
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
