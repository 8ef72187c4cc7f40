"""The trials of a tune, shared by ``tune`` (rule parameters) and
``policy_tune`` (a policy's own): the box of varied parameters, the rungs of
games of successive halving, and the player of game ranges through the
workflow's store."""
from __future__ import annotations

import json
from dataclasses import dataclass

from ..core import plots
from ..core.errors import BalanceError
from ..core.params import coerce, unknown_key_error
from ..core.setup import check_count
from .outcome import Pieces
from .sums import Sink, mover_sums

ETA = 3                 # successive halving: a third of a rung goes on, with 3x the games
RUNGS = 4               # rungs of a trial by default: trial_games / 27, / 9, / 3, trial_games
MIN_GAMES = 1_000       # ... but a first rung of at least this many games (a rate +/-3 points)
REPEATS = 5             # the sampler is asked at most this many times --trials


# --- the box ------------------------------------------------------------------

@dataclass(frozen=True)
class Axis:
    """One varied parameter: its type, range and scale ('linear', 'log', or
    'log1p' for a log axis whose range starts at 0: searched as log(x + 1))."""
    name: str
    kind: type
    low: object
    high: object
    scale: str

    def suggest(self, trial):
        if self.kind is bool:
            return trial.suggest_categorical(self.name, [False, True])
        if self.scale == "log1p":
            if self.kind is int:
                return trial.suggest_int(self.name + "+1", self.low + 1, self.high + 1,
                                         log=True) - 1
            return trial.suggest_float(self.name + "+1", self.low + 1, self.high + 1,
                                       log=True) - 1
        suggest = trial.suggest_int if self.kind is int else trial.suggest_float
        return suggest(self.name, self.low, self.high, log=self.scale == "log")

    def text(self) -> str:
        if self.kind is bool:
            return f"{self.name} in {{false, true}}"
        scale = {"linear": "", "log": ", log axis", "log1p": ", log axis (of value + 1)"}
        kind = "whole numbers" if self.kind is int else "real"
        return f"{self.name}={self.low}..{self.high} ({kind}{scale[self.scale]})"

    @property
    def log(self) -> bool:
        return self.scale != "linear"


def parse_vary(text: str) -> tuple[str, str | None, str | None]:
    """``NAME=LO..HI`` -> (name, lo, hi); ``NAME`` -> (name, None, None)."""
    text = text.strip()
    if "=" not in text:
        if not text:
            raise BalanceError("--vary needs NAME=LO..HI or NAME")
        return text, None, None
    name, rng = (x.strip() for x in text.split("=", 1))
    if not name or ".." not in rng:
        raise BalanceError(f"--vary {text!r}: expected NAME=LO..HI (e.g. hp=10..40) or NAME "
                           f"alone for its declared sweep range")
    lo, hi = (x.strip() for x in rng.split("..", 1))
    if not lo or not hi:
        raise BalanceError(f"--vary {text!r}: expected NAME=LO..HI with both ends")
    return name, lo, hi


def declared_log(info) -> bool:
    """Does the parameter declare a log axis: sweep values spanning two
    decades or more (``plots.axis_scale``, the sweeps' own rule)?"""
    return len(info.sweep) >= 2 and plots.axis_scale(info.sweep) != "linear"


def resolve_axes(spec, vary, group: str = "rule") -> list[Axis]:
    """Validate ``vary`` ([``NAME=LO..HI``, ...], or {name: (lo, hi) | None})
    against the declared rule parameters (``group='policy'``: the float
    policy parameters, which ``policy_tune`` varies)."""
    if not vary:
        raise BalanceError("tune needs at least one --vary NAME=LO..HI (or NAME)")
    if isinstance(vary, dict):
        items = [(k, *(v if v is not None else (None, None))) for k, v in vary.items()]
    else:
        items = [parse_vary(v) if isinstance(v, str) else tuple(v) for v in vary]
    axes, seen = [], set()
    for name, lo, hi in items:
        if name not in spec.space.infos:
            raise unknown_key_error(name, spec.space.infos)
        info = spec.space.infos[name]
        if info.group != group:
            raise BalanceError(
                f"--vary {name}: a policy parameter; tune varies rule parameters, or a "
                f"policy's own with --objective policy:NAME=max" if group == "rule" else
                f"--vary {name}: a rule parameter; --objective policy:NAME=max varies "
                f"the policy's float parameters only")
        if group == "policy" and info.kind is not float:
            raise BalanceError(f"--vary {name}: an integer policy parameter (one per run); "
                               f"a policy's tune varies its float parameters")
        if name in seen:
            raise BalanceError(f"--vary {name} is given twice; give it once")
        seen.add(name)
        if info.kind is bool or info.choices is not None:
            if lo is not None:
                raise BalanceError(f"--vary {name}={lo}..{hi}: {name} is "
                                   f"{info.describe_range()}; give --vary {name} alone")
            if info.choices is not None:
                raise BalanceError(f"--vary {name}: a parameter of listed choices is not "
                                   f"tuned (sweep it instead)")
            axes.append(Axis(name, bool, False, True, "linear"))
            continue
        if lo is None:
            vals = list(info.sweep) + [info.default]
            if len(info.sweep) < 2:
                if info.bounds is None or None in info.bounds:
                    raise BalanceError(f"--vary {name}: it declares no sweep range; give "
                                       f"--vary {name}=LO..HI")
                vals = list(info.bounds)
            lo, hi = min(vals), max(vals)
        try:
            lo, hi = coerce(info, lo), coerce(info, hi)
        except BalanceError as e:
            raise BalanceError(f"--vary {name}={lo}..{hi}: {e}") from None
        if not lo < hi:
            raise BalanceError(f"--vary {name}={lo}..{hi}: LO must be below HI")
        scale = "linear"
        if declared_log(info) and lo >= 0:
            scale = "log" if lo > 0 else "log1p"
        axes.append(Axis(name, info.kind, lo, hi, scale))
    return axes


# --- playing ------------------------------------------------------------------

def budget(games, trials, trial_games, min_games) -> tuple[int, int, int, int]:
    """(games, trials, trial_games, min_games), checked: whole numbers of at
    least 1, ``trial_games`` default ``games``, ``min_games`` default
    trial_games / 27 and at least 1,000 (or all of them), at most
    ``trial_games``."""
    games = check_count("games", games)
    trials = check_count("--trials", trials)
    trial_games = check_count("--trial-games", trial_games if trial_games is not None else games)
    if min_games is None:
        min_games = max(trial_games // ETA ** (RUNGS - 1), min(MIN_GAMES, trial_games))
    min_games = check_count("--min-games", min_games)
    if min_games > trial_games:
        raise BalanceError(f"--min-games {min_games:,} is above --trial-games {trial_games:,}")
    return games, trials, trial_games, min_games


def drive(study, trials: int, run_trial) -> int:
    """Ask ``study`` for trials until ``trials`` distinct settings are
    played: ``run_trial(trial) -> (value, pruned, repeat)``; a repeat (a
    setting proposed again) is told its known value, so the sampler learns
    from it, and costs no game; at most ``REPEATS`` x ``trials`` asks.
    Returns the number of repeats."""
    import optuna
    asked = repeats = 0
    while asked - repeats < trials and asked < trials * REPEATS:
        trial = study.ask()
        asked += 1
        value, pruned, repeat = run_trial(trial)
        repeats += repeat
        if pruned:
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
        else:
            study.tell(trial, value)
    return repeats


def rungs_of(trial_games: int, min_games: int) -> list[int]:
    """The game counts a trial is judged at: trial_games / 3^k for k = K..0,
    the smallest at least min_games (27,000 and 1,000: 1,000, 3,000, 9,000,
    27,000)."""
    out = [trial_games]
    while out[0] // ETA >= min_games:
        out.insert(0, out[0] // ETA)
    return out


class Player:
    """Plays game ranges of a setup through the workflow's store exactly as
    a sweep point (``sweep-sums`` of the ``sink``'s pieces: one of stored
    outcomes with the tables), and counts what it played on a ``Pieces`` bar."""

    def __init__(self, store, pieces: Pieces, sink: Sink):
        self.store, self.pieces, self.sink = store, pieces, sink
        self.memo: dict = {}            # pieces already played in this process
        self.fresh = 0                  # pieces not from the memo (played or from the store)

    @property
    def played(self) -> int:
        """Games played here (not from the store or memo)."""
        return self.sink.played

    def sums(self, s, a: int, b: int, label: str, bar: bool = False) -> dict:
        """The sums of games [a, b) of ``s``; ``bar``: a bar of its own for a
        long piece (the answer's and the re-check's runs), beside the tune's."""
        key = (json.dumps(s.describe(), sort_keys=True, default=str), a, b)
        if key in self.memo:
            return self.memo[key]
        self.fresh += 1
        agg = self.sink.sums(self.store, "sweep-sums", [s], a, b,
                             lambda view: mover_sums(view(0)), self.pieces, label,
                             progress=None if bar and self.pieces.progress is not False
                             else False, amount=b - a)
        self.memo[key] = agg            # a trial the sampler proposes again plays nothing
        return agg


def plain(v):
    """A numpy scalar as the Python value a --set takes."""
    return v.item() if hasattr(v, "item") else v
