"""Resumable on-disk points.

A long sweep, ``cards`` run or report is a list of independent pieces of
work (one parameter point, one card ban, one game range). Each finished
piece is written to ``DIR/<hash>.npz`` together with the JSON description of
exactly what was played (ruleset, version, parameters, players, policies,
seed, bans, game range): the file name is a SHA-256 of that description, and
the description stored inside is compared again on load, so a piece is
reused only for the very same configuration, never silently for another.
Writes are atomic (temporary file, then rename): an interrupted run leaves
finished pieces and no half-written file. The directory holds a
``.gitignore`` of ``*`` so that caches inside a committed report folder are
never committed.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable

import numpy as np

FORMAT = 1


def describe_key(desc: dict) -> str:
    text = json.dumps({"format": FORMAT, **desc}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _canon(desc: dict) -> str:
    return json.dumps({"format": FORMAT, **desc}, sort_keys=True, default=str)


class PointStore:
    """Directory of finished pieces; ``PointStore(None)`` keeps nothing."""

    def __init__(self, root: str | os.PathLike | None):
        self.root = Path(root) if root is not None else None
        self.hits = 0
        self.misses = 0
        if self.root is not None:
            self.root.mkdir(parents=True, exist_ok=True)
            gi = self.root / ".gitignore"
            if not gi.exists():
                gi.write_text("*\n")

    def path(self, desc: dict) -> Path | None:
        return None if self.root is None else self.root / f"{describe_key(desc)[:24]}.npz"

    def load(self, desc: dict) -> dict | None:
        p = self.path(desc)
        if p is None or not p.exists():
            return None
        try:
            with np.load(p, allow_pickle=False) as z:
                if str(z["__desc__"]) != _canon(desc):
                    return None
                return {k: z[k] for k in z.files if k != "__desc__"}
        except Exception:          # unreadable or foreign file: play again
            return None

    def save(self, desc: dict, arrays: dict) -> None:
        p = self.path(desc)
        if p is None:
            return
        tmp = p.with_name(p.name + f".tmp{os.getpid()}")
        try:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, __desc__=np.array(_canon(desc)), **arrays)
            os.replace(tmp, p)
        except BaseException:         # a full disk or an interruption: no torn file left
            tmp.unlink(missing_ok=True)
            raise

    def fetch(self, desc: dict, compute: Callable[[], dict]) -> dict:
        """The stored arrays for ``desc``, or ``compute()`` saved for next time."""
        got = self.load(desc)
        if got is not None:
            self.hits += 1
            return got
        self.misses += 1
        arrays = compute()
        self.save(desc, arrays)
        return arrays
