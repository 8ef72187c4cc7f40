"""Play many games of a registered ruleset and build the result tables.

:func:`simulate` is the Python API behind ``balance run``. It validates its
input (raising :class:`BalanceError` with a one-line message), splits the
game range into chunks (for the progress bar and so that no chunk's work is
lost to a crash), calls the ruleset's parallel kernel on each chunk and
returns a :class:`Result`. Game ``i`` of seed ``s`` is the same game whatever
the chunking or thread count, so ``simulate(start=a, stop=b)`` pieces merge
(:meth:`Result.merge`) into exactly the tables of one whole run.
"""
from __future__ import annotations

import contextlib
import json
import os
import platform
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from . import cluster, jit, registry, stats, summary, variants
from .cluster import use as use_cluster
from .errors import BalanceError, did_you_mean, interrupt
from .io import json_default, json_rows, version
from .outdir import publish, require_complete
from .records import BAN_CODES, Batch, alloc, mask_counts, mask_words
from .results import first_mover_figure, first_seats, shares_wins, sole_wins, won_matrix
from .search import is_search
from .store import PointStore
from .summary import Summary, policy_table, seat_table

MAX_SEED = 2**63 - 1
CHUNK = 1 << 16


def resolve_policies(spec, policies, n_players: int) -> list[str]:
    if policies is None or len(policies) == 0:
        policies = [next(iter(spec.policies))]
    if isinstance(policies, str):
        policies = [policies]
    policies = [variants.canonical(spec, p) for p in policies]
    if len(policies) == 1:
        return policies * n_players
    if len(policies) != n_players:
        raise BalanceError(f"give one policy for all seats or one per seat: got "
                           f"{len(policies)} policies for {n_players} players")
    return policies


def check_players(spec, players) -> int:
    lo, hi = spec.players
    try:
        n = whole("players", players)
    except BalanceError:
        raise BalanceError(f"players: {players!r} is not a whole number "
                           f"(allowed: {lo}-{hi})") from None
    if not lo <= n <= hi:
        raise BalanceError(f"players: {n} is outside {lo}-{hi} for {spec.name}")
    return n


MAX_INT64 = 2**63 - 1


def whole(name: str, value) -> int:
    """An integer from an int or a string of ASCII digits; never a float,
    a bool or non-ASCII digits (which int() would accept silently)."""
    if isinstance(value, (bool, float)) or (isinstance(value, str) and not (
            value.strip().lstrip("+-").isascii() and value.strip().lstrip("+-").isdigit())):
        raise BalanceError(f"{name}: {value!r} is not a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise BalanceError(f"{name}: {value!r} is not a whole number") from None


def check_count(name: str, value, minimum: int = 1) -> int:
    v = whole(name, value)
    if v < minimum:
        raise BalanceError(f"{name}: {v} must be at least {minimum}")
    if v > MAX_INT64:
        raise BalanceError(f"{name}: {v} is beyond 2**63-1")
    return v


def check_seed(seed) -> int:
    s = whole("seed", seed)
    if not 0 <= s <= MAX_SEED:
        raise BalanceError(f"seed: {s} is outside [0, 2**63-1]")
    return s


@dataclass
class Setup:
    """A validated run configuration."""
    spec: object
    values: dict
    n_players: int
    policies: list[str]
    seed: int
    ban: dict = field(default_factory=dict)    # card kind -> "remove" | "forbid"
    data: dict = field(default_factory=dict)   # data file name -> spec.DataTable

    @property
    def ban_vector(self) -> np.ndarray | None:
        if not self.ban:
            return None
        kinds = self.spec.card_kinds(self.values)
        v = np.zeros(len(kinds), np.int64)
        for k, mode in self.ban.items():
            v[kinds.index(k)] = BAN_CODES[mode]
        return v

    @property
    def policy_ids(self) -> np.ndarray:
        return np.array([self.spec.policies[variants.base(p)] for p in self.policies],
                        dtype=np.int64)

    @property
    def seat_values(self) -> list | None:
        """Each seat's values where a seat plays a policy variant, else None."""
        return variants.seat_values(self.spec, self.values, self.policies)

    def describe(self) -> dict:
        d = {"ruleset": self.spec.name, "version": self.spec.version(self.values),
             "players": self.n_players, "policies": self.policies, "seed": self.seed,
             "params": self.values}
        if self.ban:
            d["ban"] = dict(self.ban)
        if self.data:
            d["data"] = {k: {"source": t.source, "sha256": t.digest} for k, t in self.data.items()}
        return d


# data files chosen for the whole process (the CLI's --cards FILE): ruleset -> {name: path}
DATA: dict[str, dict] = {}


def use_data(ruleset: str, **files) -> None:
    """Play ``ruleset`` with these data files (e.g. ``cards="my_table.csv"``)
    in every later setup of this process, workflows included; ``None``
    restores the package's own."""
    spec = registry.get(ruleset)
    spec.data({k: v for k, v in files.items() if v is not None})      # checks the names
    DATA.setdefault(ruleset, {}).update(files)
    DATA[ruleset] = {k: v for k, v in DATA[ruleset].items() if v is not None}


def setup(ruleset: str, *, seed: int = 0, players: int | None = None, policies=None,
          params: dict | None = None, ban: dict | None = None, data: dict | None = None) -> Setup:
    """Validate a run configuration. ``ban`` maps card kinds to "remove"
    (taken out of the deck) or "forbid" (never played), for interventional
    per-card power; a ruleset lists the modes it supports in
    ``spec.ban_modes``."""
    spec = registry.get(ruleset)
    n = check_players(spec, players if players is not None else spec.players[0])
    pols = resolve_policies(spec, policies, n)
    values = spec.space.resolve(params)
    spec.check_values(values, n)
    ban = dict(ban or {})
    if ban:
        kinds = spec.card_kinds(values)
        for k, mode in ban.items():
            if k not in kinds:
                raise BalanceError(f"unknown card kind {k!r} for {spec.name}"
                                   f"{did_you_mean(k, kinds)}")
            if mode not in spec.ban_modes:
                raise BalanceError(f"card kind {k!r}: ban mode {mode!r} is not supported by "
                                   f"{spec.name} (supported: {', '.join(spec.ban_modes) or 'none'})")
    files = data if data is not None else DATA.get(ruleset, {})
    loaded = _loaded_data(spec, tuple(sorted(files.items())))
    return Setup(spec, values, n, pols, check_seed(seed), ban, loaded)


_data_cache: dict = {}


def _loaded_data(spec, files: tuple) -> dict:
    """The ruleset's data files, loaded once per process and file."""
    if not spec.data_files:
        if files:
            spec.data(dict(files))          # raises: this ruleset has no data files
        return {}
    key = (spec.name, files)
    if key not in _data_cache:
        _data_cache[key] = spec.data(dict(files))
    return _data_cache[key]


def setup_key(s: Setup) -> str:
    """A short hash of everything that determines a run's games."""
    import hashlib
    text = json.dumps({**s.describe(), "balance_version": version(),
                       "code": registry.fingerprint(s.spec.name)}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def chunk_desc(s: Setup, a: int, b: int) -> dict:
    """What a stored chunk holds: the full run description, the code
    fingerprint and the game range; a chunk whose stored description differs
    (another seed, ruleset, parameter, code) is refused and played again."""
    return {"what": "chunk", **s.describe(), "start": int(a), "stop": int(b),
            "balance_version": version(), "code": registry.fingerprint(s.spec.name)}


def play_range(s: Setup, start: int, stop: int, *, progress: bool | None = None,
               check: bool = False, chunk: int = CHUNK, label: str = "",
               checkpoint: str | os.PathLike | None = None, summary_only: bool = False):
    """Play games [start, stop) of a setup, in chunks, with a progress bar
    that appears when the run lasts more than two seconds.

    With ``checkpoint`` (a folder), finished chunks are saved there
    (compressed, with its full description: ``core.store``), and a re-run of
    the same setup after an interruption loads the chunks already played
    and says how many games it reused before it plays any (its bar and rate
    count the games played in this process); a chunk of another setup, or a
    torn one, is refused and played again. The caller removes the folder
    once the run's results are saved. Chunks are written once the run has
    played for :func:`checkpoint_seconds` (5 s; ``BALANCE_CHECKPOINT_SECONDS``;
    the clock starts when the first chunk is in, so loading or compiling the
    kernel does not count), and on Ctrl-C or SIGTERM: a shorter run writes
    none, and a killed one loses at most that much work. With a Dask engine
    in use (``core.cluster``), the chunks not in the store are played on its
    workers.

    ``summary_only``: no table is kept; each chunk is reduced to its integer
    aggregates as soon as it is played (``core.summary``: memory does not
    grow with the games) and the merged aggregates are returned."""
    nk = s.spec.n_kinds(s.values)
    if summary_only:
        G = S = M = None
        agg = {}                   # the running sums: constant size
    else:
        check_memory(s, stop - start)         # every command, before any game
        say_big(s, stop - start)
        # the run's tables, allocated once: each chunk is played into (or
        # loaded into) its rows, so no chunk list is joined at the end
        G, S, M, _ = alloc(stop - start, s.n_players, len(s.spec.game_columns),
                           len(s.spec.seat_columns), nk)
    counts = np.zeros((2, nk), np.int64)
    errors = {}
    store = None
    if checkpoint is not None and not check:
        store = PointStore(Path(checkpoint) / setup_key(s))
    want_bar = False
    bar = None
    done = {"reused": 0, "taken": 0, "now": 0}     # games reused, in the tables, played now
    preloaded = set()                    # starts of the chunks loaded before any game
    after, t_start = checkpoint_seconds(), None
    unsaved = []                         # (a, b, arrays) played here, not yet stored

    def keep(a, b, d):
        nonlocal t_start
        if store is not None:
            unsaved.append((a, b, d))
            if t_start is None:          # the clock starts once the first chunk is in:
                t_start = time.perf_counter()    # loading or compiling the kernel is no work lost
            if time.perf_counter() - t_start >= after:
                flush()

    def flush():
        while unsaved:
            a, b, d = unsaved[0]
            store.save(desc(a, b), d)
            unsaved.pop(0)

    def desc(a, b):
        d = chunk_desc(s, a, b)
        return {**d, "what": "summary"} if summary_only else d

    def take(a, b, d, loaded, reused=False):
        nonlocal bar
        rows = slice(a - start, b - start)
        if summary_only:
            agg.update(summary.merge([agg, d]) if agg else d)
        elif loaded:        # read from the store, or sent by a worker: into its rows
            for arr, name in ((G, "games"), (S, "seats"), (M, "masks")):
                if d[name].shape != arr[rows].shape:
                    raise BalanceError(f"the piece of games {a}-{b} holds {name} of shape "
                                       f"{d[name].shape}, expected {arr[rows].shape}")
                arr[rows] = d[name]
        if not summary_only:
            counts[...] += d["counts"]
            errors[a] = d.get("errors")
        done["taken"] += b - a
        if reused:          # the bar counts the games played now only
            done["reused"] += b - a
            if bar is not None:
                bar.total -= b - a
                bar.refresh()
            return
        done["now"] += b - a
        if bar is None and want_bar:
            # started after the first chunk: its clock and rate leave out
            # the kernel's first compile (a first ETA of minutes otherwise)
            from tqdm import tqdm
            bar = tqdm(total=stop - start - done["reused"], initial=done["now"], unit="game",
                       unit_scale=True, delay=2.0, desc=label or s.spec.name, leave=False)
        elif bar is not None:
            bar.update(b - a)

    def preload():
        """Load the chunks already stored, before any game, and say so: the
        chunk ranges are matched to the store's files in order, up to
        :data:`RESUME_SCAN` chunks (chunks past that are found by
        :func:`todo` on the way)."""
        names = {p.name for p in store.root.glob("*.npz")}
        found = 0
        for i, a in enumerate(range(start, stop, chunk)):
            if found == len(names) or i >= RESUME_SCAN:
                break
            b = min(stop, a + chunk)
            if store.path(desc(a, b)).name in names:
                found += 1
                d = store.load(desc(a, b))
                if d is not None:
                    preloaded.add(a)
                    take(a, b, d, True, reused=True)
        if done["reused"]:
            import sys
            refused = f"; {store.refused} stored chunk(s) refused and played again" \
                if store.refused else ""
            print(f"resumed: {done['reused']:,} of {stop - start:,} games reused from "
                  f"{store.root}{refused}", file=sys.stderr, flush=True)

    def todo():
        """The chunks to play, lazily (a summary-only run of 10**12 games
        lists none in memory); stored ones are loaded on the way."""
        for a in range(start, stop, chunk):
            if a in preloaded:
                continue
            b = min(stop, a + chunk)
            d = store.load(desc(a, b)) if store is not None else None
            if d is not None:
                take(a, b, d, True, reused=True)
            else:
                yield a, b
    stack = contextlib.ExitStack()
    if store is not None:
        preload()
    want_bar = progress is not False and stop - start - done["reused"] > chunk
    ban = s.ban_vector
    searching = any(is_search(p) for p in s.policies)
    seat_values = s.seat_values
    engine = cluster.current()
    try:
        if store is not None:            # SIGTERM as Ctrl-C: the finished chunks are saved
            stack.enter_context(sigterm_interrupts())
        if engine is None:
            for a, b in todo():
                jit.notice(s.spec, "run", values=s.values)
                if searching:
                    jit.notice(s.spec, "search", values=s.values)
                rows = slice(a - start, b - start)
                kw = {} if ban is None else {"ban": ban}
                if s.data:
                    kw["data"] = s.data
                if seat_values is not None:
                    kw["seat_values"] = seat_values
                if not summary_only:
                    kw["out"] = (G[rows], S[rows], M[rows])
                part = s.spec.simulate_range(s.values, s.seed, a, b, s.n_players,
                                             s.policy_ids, check, **kw)
                if summary_only:
                    d = summary.reduce(s.spec, s.values, part)
                else:
                    d = {"games": part.games, "seats": part.seats, "masks": part.masks,
                         "counts": part.counts, **({} if part.errors is None or not check
                                                   else {"errors": part.errors})}
                keep(a, b, d)
                take(a, b, d, False)
        else:
            args = (s.spec.name, s.values, s.seed, s.n_players, s.policy_ids, check, ban,
                    s.data, summary_only, seat_values)
            for a, b, d in engine.play(args, todo()):
                take(a, b, d, True)
                keep(a, b, d)
    except KeyboardInterrupt:
        if bar is not None:              # first: the line below stands alone
            bar.close()
            bar = None
        if store is not None:
            import sys
            flush()
            print(f"interrupted: {done['taken']:,} games are saved in {store.root}; run the "
                  f"same command again to resume", file=sys.stderr, flush=True)
        raise
    finally:
        stack.close()
        if bar is not None:
            bar.close()
    if summary_only:
        return agg
    errs = [errors[a] for a in range(start, stop, chunk)]
    return Batch(start, G, S, M, counts,
                 None if not errs or any(e is None for e in errs) else np.concatenate(errs))


@contextlib.contextmanager
def sigterm_interrupts():
    """While the block runs in the main thread, SIGTERM raises
    KeyboardInterrupt there, as Ctrl-C does: a run that is terminated saves
    its finished chunks and says so (the previous handler comes back after)."""
    import signal
    import threading
    main = threading.current_thread() is threading.main_thread()
    if main:
        old = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGTERM, old if old is not None else signal.SIG_DFL)


CHECKPOINT_SECONDS = 5.0
RESUME_SCAN = 1 << 20       # chunk ranges a resumed run matches to its stored files at the start


def checkpoint_seconds() -> float:
    """How long a run plays before it stores its finished chunks:
    ``BALANCE_CHECKPOINT_SECONDS`` or :data:`CHECKPOINT_SECONDS` (0: from
    the first chunk)."""
    v = os.environ.get("BALANCE_CHECKPOINT_SECONDS")
    if v is None:
        return CHECKPOINT_SECONDS
    try:
        x = float(v)
    except ValueError:
        x = -1.0
    if not x >= 0:
        raise BalanceError(f"BALANCE_CHECKPOINT_SECONDS={v!r}: a number of seconds >= 0")
    return x


@dataclass
class Result:
    """Tables of one run: ``games``, ``seats``, ``cards`` and ``summary``."""
    setup: Setup
    batch: Batch
    elapsed: float = 0.0
    _cache: dict = field(default_factory=dict, repr=False)
    compiled: bool = False        # this run compiled its kernel (its time is mostly that)

    # --- tables ---------------------------------------------------------
    @property
    def spec(self):
        return self.setup.spec

    def _game_cols(self) -> dict:
        """The games table's columns by name, in order: 1-D arrays (views of
        the record block where they can be) and categoricals. The DataFrame
        (:attr:`games`) and the Parquet file (:meth:`save`) are both built
        from them, so neither goes through the other."""
        b, spec = self.batch, self.spec
        cols = {"game": np.arange(b.start, b.start + b.n, dtype=np.int64)}
        for j, c in enumerate(spec.game_columns):
            cols[c] = b.games[:, j]
        cols["end_reason"] = pd.Categorical.from_codes(
            b.games[:, list(spec.game_columns).index("end_reason")],
            categories=list(spec.end_reasons))
        return cols

    def _seat_cols(self) -> dict:
        """The seats table's columns by name, in order (as :meth:`_game_cols`):
        ``game``, ``seat``, ``policy``, the ruleset's seat columns (``role``
        labelled), ``won`` (bool; and ``sole_win`` where wins can be shared),
        then the drawn/played card masks per 64-kind word."""
        b, spec = self.batch, self.spec
        n, P = b.n, self.setup.n_players
        block = b.seats.reshape(n * P, -1)
        cols = {"game": np.repeat(np.arange(b.start, b.start + n, dtype=np.int64), P),
                "seat": np.tile(np.arange(P, dtype=np.int64), n),
                "policy": _tile_labels(self.setup.policies, n)}
        for j, c in enumerate(spec.seat_columns):
            cols[c] = block[:, j]
        if "role" in cols:
            cols["role"] = self._roles(cols["role"])
        cols.update(self._won_cols())       # a ruleset's own 'won' column: same values, bool
        for w in range(b.masks.shape[3]):
            cols[f"drawn_mask{w}"] = b.masks[:, :, 0, w].reshape(-1)
            cols[f"played_mask{w}"] = b.masks[:, :, 1, w].reshape(-1)
        return cols

    def _won_cols(self) -> dict:
        """``won`` per game and seat, flattened (bool), and ``sole_win`` where
        wins can be shared."""
        won = won_matrix(self.spec, self.batch)
        cols = {"won": won.reshape(-1)}
        if shares_wins(self.spec):
            cols["sole_win"] = sole_wins(won).reshape(-1)
        return cols

    def _roles(self, codes):
        """The role column: labelled by the ruleset's role names (where it has roles)."""
        if self.spec.roles is None:
            return codes
        return _label(codes, self.spec.role_names(self.setup.values))

    @property
    def games(self) -> pd.DataFrame:
        if "games" not in self._cache:
            # one column per array, no copy (a 2-D block split by inserts
            # copied 0.2 s per 1,000,000 talisman games)
            self._cache["games"] = pd.DataFrame(self._game_cols(), copy=False)
        return self._cache["games"]

    @property
    def seats(self) -> pd.DataFrame:
        if "seats" not in self._cache:
            self._cache["seats"] = pd.DataFrame(self._seat_cols(), copy=False)
        return self._cache["seats"]

    @property
    def cards(self) -> pd.DataFrame:
        if "cards" not in self._cache:
            kinds = self.spec.card_kinds(self.setup.values)
            won = won_matrix(self.spec, self.batch)
            n1, k1 = mask_counts(self.batch.masks, won, len(kinds))
            seats = {name: (n1[which], k1[which]) for which, name in ((0, "drawn"), (1, "played"))}
            self._cache["cards"] = stats.card_power(kinds, seats, int(won.size),
                                                    int(won.sum()), self.batch.counts)
        return self._cache["cards"]

    def _seat_counts(self):
        """(wins, sole wins or None) per seat: what the seat and policy tables
        count, from the won matrix (no grouping of the per-seat frame)."""
        if "seat_counts" not in self._cache:
            won = won_matrix(self.spec, self.batch)
            sole = None
            if shares_wins(self.spec):
                sole = sole_wins(won).sum(axis=0)
            self._cache["seat_counts"] = (won.sum(axis=0), sole)
        return self._cache["seat_counts"]

    def by_seat(self) -> pd.DataFrame:
        return seat_table(self.setup.n_players, *self._seat_counts(), self.batch.n)

    def by_policy(self) -> pd.DataFrame:
        return policy_table(self.setup.policies, *self._seat_counts(), self.batch.n)

    def by_role(self) -> pd.DataFrame | None:
        spec = self.spec
        if "role" not in spec.seat_columns:
            return None
        # the columns it reads, not the whole seats table
        role = self.batch.seats[:, :, spec.seat_columns.index("role")].reshape(-1)
        cols = {"role": self._roles(role), **self._won_cols()}
        return stats.rate_table(pd.DataFrame(cols, copy=False), "role")

    def first_mover(self) -> dict:
        """Win rate of the seat that moved first, with its 95% Wilson interval."""
        won = won_matrix(self.spec, self.batch)
        first = first_seats(self.spec, self.batch)
        return first_mover_figure(self.spec, int(won[np.arange(self.batch.n), first].sum()),
                                  self.batch.n)

    def shared_wins(self) -> dict | None:
        """Where wins can be shared: how often they were, and what the seat
        win rates add to (the fair share is their mean, not 1/players)."""
        if not shares_wins(self.spec):
            return None
        won = won_matrix(self.spec, self.batch)
        n = self.batch.n
        winners = won.sum(axis=1)
        return {"games_with_shared_win": int((winners > 1).sum()),
                "share": float((winners > 1).mean()) if n else float("nan"),
                "seat_win_rates_sum": float(won.mean(axis=0).sum()) if n else float("nan"),
                # one division of two integers, as in Summary: the same float on both paths
                "fair_share": int(won.sum()) / won.size if n else float("nan")}

    def end_reasons(self) -> pd.Series:
        return self.games["end_reason"].value_counts(sort=False)

    # --- summary --------------------------------------------------------
    @property
    def summary(self) -> dict:
        if "summary" not in self._cache:
            g = self.games
            n = len(g)
            # a draw: no seat won (a tie whose win is shared is not one)
            draws = int((~won_matrix(self.spec, self.batch).any(axis=1)).sum())
            dlo, dhi = stats.wilson(draws, n)

            table = json_rows
            out = {**self.setup.describe(),
                   "games": n, "first_game": self.batch.start,
                   "balance_version": version(),
                   "draws": {"count": draws, "share": draws / n if n else float("nan"),
                             "ci_low": float(dlo), "ci_high": float(dhi)},
                   "by_seat": table(self.by_seat()),
                   "by_policy": table(self.by_policy()),
                   "length_turns": stats.length_stats(g["turns"]),
                   "end_reasons": {str(k): int(v) for k, v in self.end_reasons().items()}}
            role = self.by_role()
            if role is not None:
                out["by_role"] = table(role)
            out["first_mover"] = self.first_mover()
            shared = self.shared_wins()
            if shared is not None:
                out["shared_wins"] = shared
            if self.spec.summary is not None:
                out.update(self.spec.summary(self))
            self._cache["summary"] = out
        return self._cache["summary"]

    def save(self, out: str | os.PathLike) -> Path:
        """Write games.parquet, seats.parquet, cards.csv and summary.json,
        whole (``core.outdir.publish``: the COMPLETE marker is written last).

        Each Parquet file also carries the run description (ruleset, version,
        parameters, seed) in its schema metadata."""
        meta = json.dumps(self.setup.describe(), default=str)

        def write(d):
            from concurrent.futures import ThreadPoolExecutor
            # pyarrow encodes without the GIL: each file is written on a
            # thread (seats.parquet, the longer, first), while this one
            # tallies the cards and the summary
            with ThreadPoolExecutor(2) as pool:
                writing = [pool.submit(write_parquet, d / f"{name}.parquet", cols(), meta)
                           for name, cols in (("seats", self._seat_cols),
                                              ("games", self._game_cols))]
                self.cards.to_csv(d / "cards.csv", index=False)
                (d / "summary.json").write_text(json.dumps(self.summary, indent=2,
                                                           default=json_default))
                for f in writing:
                    f.result()
        publish(out, write, keep=(".partial",))
        return Path(out)

    @staticmethod
    def merge(parts: list["Result"]) -> "Result":
        """Join results of disjoint game ranges of one setup."""
        first = parts[0].setup
        for p in parts[1:]:
            if p.setup.describe() != first.describe():
                raise BalanceError("cannot merge results of different setups")
        return Result(first, Batch.concat([p.batch for p in parts]),
                      sum(p.elapsed for p in parts))


ROW_GROUP = 1 << 18      # rows per Parquet row group (save)


def arrow_table(cols: dict, meta: str):
    """A pyarrow Table of the columns ``cols`` ({name: 1-D array or
    pd.Categorical}; categoricals become dictionary columns, which pandas
    reads back as categoricals), with the run description ``meta`` (JSON)
    under the schema metadata key ``balance``. Each column is one contiguous
    copy of its array (a strided view of the record block is gathered)."""
    import pyarrow as pa
    arrays = {}
    for name, v in cols.items():
        if isinstance(v, pd.Categorical):
            arrays[name] = pa.DictionaryArray.from_arrays(
                pa.array(np.asarray(v.codes)), pa.array(list(map(str, v.categories))))
        else:
            arrays[name] = pa.array(np.ascontiguousarray(v))
    table = pa.table(arrays)
    return table.replace_schema_metadata({b"balance": meta.encode()})


def write_parquet(path, cols: dict, meta: str, rows: int = ROW_GROUP) -> None:
    """Write the table of columns ``cols`` (as :func:`arrow_table`) to the
    Parquet file ``path``, one row group of ``rows`` rows at a time: the
    columns are gathered and encoded a row group at a time, into buffers
    that each next group reuses, instead of one copy of the whole table.
    On a machine whose fresh memory is slow to touch (this project's: about
    3 ms per MiB of pages the process has not touched before), the copy of
    a 1,000,000-game talisman seats table cost more than its encoding."""
    import pyarrow.parquet as pq
    n = len(next(iter(cols.values())))
    writer = None
    try:
        for a in range(0, max(n, 1), rows):
            t = arrow_table({k: v[a:a + rows] for k, v in cols.items()}, meta)
            if writer is None:
                writer = pq.ParquetWriter(path, t.schema, **encodings(cols))
            writer.write_table(t, row_group_size=rows)
    finally:
        if writer is not None:
            writer.close()


DICT_SAMPLE, DICT_MAX = 1 << 14, 1 << 10    # a dictionary column: at most 1,024 distinct
                                            # values in a file's first 16,384 rows (encodings)


def encodings(cols: dict) -> dict:
    """The Parquet writer's per-column encodings for the table of columns
    ``cols`` (as :func:`arrow_table` takes): the ``game`` column
    (consecutive game numbers) delta-encoded; a dictionary for a
    categorical and for a column with at most :data:`DICT_MAX` distinct
    values in its first :data:`DICT_SAMPLE` rows; plain (snappy) for the
    rest, such as the kind bitmasks.
    pyarrow's default tries a dictionary for every column and drops it for
    a column once the dictionary passes 1 MB, after the hashing is spent:
    a 1,000,000-game talisman seats file took 0.45 s to write, 0.27 s with
    these (36 MB against 49 MB). The values read back are the same."""
    dictionary = [k for k, v in cols.items()
                  if k != "game" and (isinstance(v, pd.Categorical)
                                      or len(np.unique(v[:DICT_SAMPLE])) <= DICT_MAX)]
    out = {"use_dictionary": dictionary}
    if "game" in cols:
        out["column_encoding"] = {"game": "DELTA_BINARY_PACKED"}
    return out


def _label(codes, labels: dict) -> pd.Categorical:
    codes = np.asarray(codes)
    keys = np.array(sorted(set(np.unique(codes).tolist()) | set(labels)), dtype=np.int64)
    cats = [labels.get(int(k), str(int(k))) for k in keys]
    return pd.Categorical.from_codes(np.searchsorted(keys, codes), categories=cats)


def _tile_labels(per_seat, n: int) -> pd.Categorical:
    """The seats' labels repeated for ``n`` games, as a categorical with
    sorted categories (built from codes: no per-row string)."""
    cats = sorted(set(per_seat))
    return pd.Categorical.from_codes(np.tile([cats.index(x) for x in per_seat], n),
                                     categories=cats)


# the old private name, still read by workflow/tune.py: use core.io.version
_version = version


def simulate(ruleset: str, games: int = 10_000, seed: int = 0, players: int | None = None,
             policies=None, params: dict | None = None, *, start: int = 0,
             stop: int | None = None, threads: int | None = None,
             progress: bool | None = None, ban: dict | None = None,
             checkpoint: str | os.PathLike | None = None, scheduler: str | None = None,
             cluster: str | None = None, summary_only: bool = False):
    """Play ``games`` games (or the range [start, stop)) and return a Result.
    ``scheduler`` (``tcp://HOST:PORT``) or ``cluster`` (``"local:N"``) plays
    the chunks on a Dask cluster (``core.cluster``), with identical tables.
    ``summary_only`` keeps no per-game table and returns a
    :class:`core.summary.Summary` (memory constant in the number of games).

    >>> r = simulate("talisman", games=10_000, seed=1, players=2,
    ...              policies=["greedy", "random"], params={"hp": 30})
    >>> r.by_policy()          # win rate per policy with 95% Wilson intervals
    """
    if scheduler is not None or cluster is not None:
        with use_cluster(scheduler, cluster):
            return simulate(ruleset, games, seed, players, policies, params, start=start,
                            stop=stop, threads=threads, progress=progress, ban=ban,
                            checkpoint=checkpoint, summary_only=summary_only)
    s = setup(ruleset, seed=seed, players=players, policies=policies, params=params, ban=ban)
    start = check_count("start", start, 0)
    if stop is None:
        n = check_count("games", games)
        if start + n > MAX_INT64:
            raise BalanceError(f"games: {n:,} games from start {start:,} pass game index "
                               f"2**63-1; from this start at most {MAX_INT64 - start:,} games "
                               f"are allowed")
        stop = start + n
    else:
        stop = check_count("stop", stop, start + 1)
    if threads is not None:
        set_threads(threads)
    t0, c0 = time.perf_counter(), jit.compiles
    if summary_only:
        agg = play_range(s, start, stop, progress=progress, checkpoint=checkpoint,
                         summary_only=True)
        return Summary(s, agg, start, time.perf_counter() - t0, compiled=jit.compiles > c0)
    batch = play_range(s, start, stop, progress=progress, checkpoint=checkpoint)
    return Result(s, batch, time.perf_counter() - t0, compiled=jit.compiles > c0)


def record_bytes(s: Setup, n_games: int) -> int:
    """Bytes of the int64 records and card masks of ``n_games`` games (264
    a talisman 2-player game; a ``balance run talisman`` process peaked 493
    MiB higher at 2,000,000 games than at 100,000, 259 MB per million)."""
    spec, P = s.spec, s.n_players
    per_game = 8 * (len(spec.game_columns) + 1 + P * (len(spec.seat_columns) + 4)
                    + P * 2 * mask_words(spec.n_kinds(s.values)))
    return per_game * n_games


def table_bytes(s: Setup, n_games: int) -> int:
    """Rough peak memory of the tables of ``n_games`` games: the records
    (:func:`record_bytes`) twice over, the margin :func:`check_memory`
    refuses by."""
    return 2 * record_bytes(s, n_games)


BIG_TABLES = 10**9        # bytes of records past which a run says so first (say_big)
_said_big: set = set()


def say_big(s: Setup, n_games: int) -> None:
    """One line on stderr, before the first game, when the tables of a run
    will pass :data:`BIG_TABLES`: their estimated size and the alternative
    (once per process for a ruleset and number of games: a sweep's points)."""
    need = record_bytes(s, n_games)
    key = (s.spec.name, n_games)
    if need <= BIG_TABLES or key in _said_big:
        return
    _said_big.add(key)
    import sys
    print(f"note: {n_games:,} games keep about {need / 1e9:.1f} GB of per-game tables in "
          f"memory, then written to disk; --summary-only (summary_only=True) keeps none "
          f"(memory does not grow with the games)", file=sys.stderr, flush=True)


# a cgroup's memory files (limit, usage, stat) and the stat's reclaimable-cache key, v2 and v1
_CGROUP_NAMES = {2: ("memory.max", "memory.current", "memory.stat", "inactive_file"),
                 1: ("memory.limit_in_bytes", "memory.usage_in_bytes", "memory.stat",
                     "total_inactive_file")}


def _cgroup(folder: str, version: int) -> tuple:
    """(limit, usage, stat paths, cache key) of the cgroup in ``folder``."""
    names = _CGROUP_NAMES[version]
    return (*(f"{folder}/{n}" for n in names[:3]), names[3])


# the root cgroup's files, v2 then v1
CGROUP_FILES = (_cgroup("/sys/fs/cgroup", 2), _cgroup("/sys/fs/cgroup/memory", 1))


def _read_int(path) -> int | None:
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):      # absent, or "max" (no limit)
        return None


def cgroup_files(proc: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup") -> list:
    """The memory files (as :data:`CGROUP_FILES`) of this process's cgroup
    and of each cgroup above it, v2 and v1, then :data:`CGROUP_FILES`: a
    limit set on any of them applies."""
    from pathlib import PurePosixPath
    out = []
    try:
        with open(proc) as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[1] == "":
            base, version = root, 2
        elif "memory" in parts[1].split(","):
            base, version = f"{root}/memory", 1
        else:
            continue
        path = PurePosixPath(parts[2])
        for d in (path, *path.parents):
            out.append(_cgroup(base if str(d) == "/" else base + str(d), version))
    return list(dict.fromkeys(out + [tuple(f) for f in CGROUP_FILES]))


def cgroup_available(files=None) -> int | None:
    """Bytes the memory cgroups still allow (the least over ``files``,
    default :func:`cgroup_files`): a limit less its usage (without the
    inactive file cache the kernel reclaims first); None where no cgroup
    limit is readable."""
    least = None
    for limit_path, usage_path, stat_path, cache_key in (files or cgroup_files()):
        limit = _read_int(limit_path)
        if limit is None:
            continue
        usage = _read_int(usage_path) or 0
        try:
            with open(stat_path) as f:
                cache = next((int(line.split()[1]) for line in f
                              if line.split()[:1] == [cache_key]), 0)
        except (OSError, ValueError, IndexError):
            cache = 0
        left = max(limit - max(usage - cache, 0), 0)
        least = left if least is None else min(least, left)
    return least


def available_memory(meminfo: str = "/proc/meminfo", cgroup=None) -> int | None:
    """Bytes of memory available now: the smaller of MemAvailable and what
    the memory cgroup allows (:func:`cgroup_available`); None when unknown."""
    have = None
    try:
        with open(meminfo) as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    have = int(line.split()[1]) * 1024
                    break
    except OSError:
        pass
    if have is None:
        try:
            have = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            have = None
    limit = cgroup_available(cgroup)
    if limit is not None:
        have = limit if have is None else min(have, limit)
    return have


def check_memory(s: Setup, n_games: int) -> None:
    """Refuse, before any game is played, a run whose tables cannot fit."""
    need, have = table_bytes(s, n_games), available_memory()
    if have is not None and need > have:
        per = have // max(table_bytes(s, 1), 1)
        raise BalanceError(
            f"{n_games:,} games need about {need / 2**30:.1f} GiB for their tables, and "
            f"{have / 2**30:.1f} GiB are available: play at most about {per:,} games at once "
            f"(--games), or keep no per-game table (run --summary-only: memory does not grow "
            f"with the games), or ranges of games with the Python API (simulate(start=, "
            f"stop=), Result.merge)")


def set_threads(threads: int) -> None:
    import numba
    t = check_count("threads", threads)
    if t > numba.config.NUMBA_NUM_THREADS:
        raise BalanceError(f"threads: {t} is more than the {numba.config.NUMBA_NUM_THREADS} "
                           f"available")
    numba.set_num_threads(t)


def load(out: str | os.PathLike) -> dict:
    """The tables a run saved into ``out``: {"games", "seats", "cards"
    (DataFrames), "summary" (dict)}. A folder without its COMPLETE marker (an
    interrupted save, or not a run's folder) is refused."""
    out = require_complete(out)
    return {"games": pd.read_parquet(out / "games.parquet"),
            "seats": pd.read_parquet(out / "seats.parquet"),
            "cards": pd.read_csv(out / "cards.csv"),
            "summary": json.loads((out / "summary.json").read_text())}


def machine() -> dict:
    return {"python": platform.python_version(), "cpus": os.cpu_count()}
