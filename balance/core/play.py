"""Play many games of a run: a chunk source, an executor and a sink.

:func:`play_range` plays games [start, stop) of a :class:`setup.Setup` in
chunks (for the progress bar, and so that no chunk's work is lost to a
crash). Its parts, each small:

- the source: the chunk ranges (:func:`chunk_ranges`), less those already in
  the run's checkpoint store (:class:`Checkpoints`: loaded before any game
  when they match, and on the way otherwise);
- the executor: this machine's threads (:func:`play_here`, the ruleset's
  parallel kernel, played by ``core.batch``) or a Dask engine
  (``core.cluster``);
- the sink, chosen by the command (``core.sinks``): the run's per-game
  tables (``"tables"``: allocated once, each chunk played or loaded into its
  rows) or its mergeable sums (``"sums"``: memory does not grow with the
  games);
- :class:`Progress`: the bar and the resume and interrupt lines.

:func:`simulate` is the Python API behind ``balance run``. Game ``i`` of
seed ``s`` is the same game whatever the chunking or thread count, so
``simulate(start=a, stop=b)`` pieces merge (:meth:`results.Result.merge`)
into exactly the tables of one whole run. :func:`replay_game` and
:func:`replay_text` play one game traced (``balance replay``).
"""
from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

from . import batch, cluster, jit
from .cluster import use as use_cluster
from .errors import BalanceError, interrupt
from .machine import set_threads
from .search import is_search
from .setup import MAX_INT64, Setup, check_count, chunk_desc, seconds_from_env, setup, setup_key
from .sinks import sink_class
from .store import PointStore

CHUNK = 1 << 16
CHECKPOINT_SECONDS = 5.0
RESUME_SCAN = 1 << 20       # chunk ranges a resumed run matches to its stored files at the start


def chunk_ranges(start: int, stop: int, chunk: int):
    """[start, stop) in ranges of ``chunk`` games, lazily (a summary-only
    run of 10**12 games lists none in memory)."""
    for a in range(start, stop, chunk):
        yield a, min(stop, a + chunk)


class Checkpoints:
    """A run's finished chunks in a store (``core.store``), written once the
    run has played for :func:`checkpoint_seconds` (the clock starts when the
    first chunk is in) and on :meth:`flush`."""

    def __init__(self, s: Setup, root, what: str):
        self.s, self.what = s, what
        self.store = PointStore(Path(root) / setup_key(s))
        self.after, self.t_start = checkpoint_seconds(), None
        self.unsaved = []                # (a, b, arrays) played here, not yet stored

    @property
    def root(self):
        return self.store.root

    def desc(self, a: int, b: int) -> dict:
        return {**chunk_desc(self.s, a, b), "what": self.what}

    def load(self, a: int, b: int) -> dict | None:
        return self.store.load(self.desc(a, b))

    def keep(self, a: int, b: int, d: dict) -> None:
        self.unsaved.append((a, b, d))
        if self.t_start is None:         # the clock starts once the first chunk is in:
            self.t_start = time.perf_counter()   # loading or compiling the kernel is no work lost
        if time.perf_counter() - self.t_start >= self.after:
            self.flush()

    def flush(self) -> None:
        while self.unsaved:
            a, b, d = self.unsaved[0]
            self.store.save(self.desc(a, b), d)
            self.unsaved.pop(0)

    def preload(self, ranges, take) -> set:
        """Load the chunks already stored, before any game (``take(a, b, d)``
        each): the ranges are matched to the store's files in order, up to
        :data:`RESUME_SCAN` chunks (chunks past that are found by
        :meth:`missing` on the way). Returns the starts loaded."""
        names = {p.name for p in self.root.glob("*.npz")}
        found, loaded = 0, set()
        for i, (a, b) in enumerate(ranges):
            if found == len(names) or i >= RESUME_SCAN:
                break
            if self.store.path(self.desc(a, b)).name in names:
                found += 1
                d = self.load(a, b)
                if d is not None:
                    loaded.add(a)
                    take(a, b, d)
        return loaded

    def missing(self, ranges, skip: set, take):
        """The ranges to play: those not in ``skip`` and not stored (a
        stored one is loaded on the way, ``take(a, b, d)``)."""
        for a, b in ranges:
            if a in skip:
                continue
            d = self.load(a, b)
            if d is not None:
                take(a, b, d)
            else:
                yield a, b


class Progress:
    """The games reused, taken and played now; the bar (started after the
    first chunk played: its clock and rate leave out the kernel's first
    compile, a first ETA of minutes otherwise) counts those played now."""

    def __init__(self, total: int, desc: str):
        self.total, self.desc = total, desc
        self.reused = self.taken = self.now = 0
        self.want_bar = False
        self.bar = None

    def took(self, n: int, reused: bool) -> None:
        self.taken += n
        if reused:
            self.reused += n
            if self.bar is not None:
                self.bar.total -= n
                self.bar.refresh()
            return
        self.now += n
        if self.bar is None and self.want_bar:
            from tqdm import tqdm
            self.bar = tqdm(total=self.total - self.reused, initial=self.now, unit="game",
                            unit_scale=True, delay=2.0, desc=self.desc, leave=False)
        elif self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def play_here(s: Setup, ranges, sink, check: bool):
    """The executor of this machine's threads: yield ``(a, b, arrays)`` for
    each range, played by the ruleset's parallel kernel (into the sink's
    rows, where it keeps tables)."""
    keywords = s.kernel_keywords
    searching = any(is_search(p) for p in s.policies)
    for a, b in ranges:
        jit.notice(s.spec, "run", values=s.values)
        if searching:
            jit.notice(s.spec, "search", values=s.values)
        kw = {**keywords, **sink.out(a, b)}
        part = batch.play(s.spec, s.values, s.seed, a, b, s.n_players, s.policy_ids, check,
                          **kw)
        yield a, b, sink.arrays(s.spec, s.values, part, check)


def play_range(s: Setup, start: int, stop: int, *, progress: bool | None = None,
               check: bool = False, chunk: int = CHUNK, label: str = "",
               checkpoint: str | os.PathLike | None = None, sink: str = "tables"):
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

    ``sink`` (``core.sinks``): ``"tables"`` returns the tables as a Batch,
    ``"sums"`` the merged sums (no table is kept)."""
    kind = sink_class(sink)
    sink = kind(s, start, stop)
    store = None
    if checkpoint is not None and not check:
        store = Checkpoints(s, checkpoint, sink.what)
    prog = Progress(stop - start, label or s.spec.name)

    def take(a, b, d, loaded=True, reused=False):
        sink.take(a, b, d, loaded)
        prog.took(b - a, reused)

    def reuse(a, b, d):
        take(a, b, d, reused=True)

    ranges = chunk_ranges(start, stop, chunk)
    preloaded = set()
    if store is not None:
        preloaded = store.preload(chunk_ranges(start, stop, chunk), reuse)
        if prog.reused:
            refused = f"; {store.store.refused} stored chunk(s) refused and played again" \
                if store.store.refused else ""
            print(f"resumed: {prog.reused:,} of {stop - start:,} games reused from "
                  f"{store.root}{refused}", file=sys.stderr, flush=True)
        ranges = store.missing(ranges, preloaded, reuse)
    prog.want_bar = progress is not False and stop - start - prog.reused > chunk
    engine = cluster.current()
    stack = contextlib.ExitStack()
    try:
        if store is not None:            # SIGTERM as Ctrl-C: the finished chunks are saved
            stack.enter_context(sigterm_interrupts())
        if engine is None:
            played, loaded = play_here(s, ranges, sink, check), False
        else:
            args = (s.spec.name, s.values, s.seed, s.n_players, s.policy_ids, check,
                    s.ban_vector, s.data, kind, s.seat_values)
            played, loaded = engine.play(args, ranges), True
        for a, b, d in played:
            take(a, b, d, loaded)
            if store is not None:
                store.keep(a, b, d)
    except KeyboardInterrupt:
        prog.close()                     # first: the line below stands alone
        if store is not None:
            store.flush()
            print(f"interrupted: {prog.taken:,} games are saved in {store.root}; run the "
                  f"same command again to resume", file=sys.stderr, flush=True)
        raise
    finally:
        stack.close()
        prog.close()
    return sink.result(start, stop, chunk)


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


def checkpoint_seconds() -> float:
    """How long a run plays before it stores its finished chunks:
    ``BALANCE_CHECKPOINT_SECONDS`` or :data:`CHECKPOINT_SECONDS` (0: from
    the first chunk)."""
    return seconds_from_env("BALANCE_CHECKPOINT_SECONDS", CHECKPOINT_SECONDS)


def simulate(ruleset: str, games: int = 10_000, seed: int = 0, players: int | None = None,
             policies=None, params: dict | None = None, *, start: int = 0,
             stop: int | None = None, threads: int | None = None,
             progress: bool | None = None, ban: dict | None = None,
             checkpoint: str | os.PathLike | None = None, scheduler: str | None = None,
             cluster: str | None = None, sink: str = "tables"):
    """Play ``games`` games (or the range [start, stop)) into ``sink``, one
    of ``core.sinks.SINKS``: ``"tables"`` returns a :class:`results.Result`
    of the per-game tables, ``"sums"`` keeps no per-game table and returns a
    :class:`core.summary.Summary` (memory constant in the number of games).
    ``scheduler`` (``tcp://HOST:PORT``) or ``cluster`` (``"local:N"``) plays
    the chunks on a Dask cluster (``core.cluster``), with identical tables.

    >>> r = simulate("talisman", games=10_000, seed=1, players=2,
    ...              policies=["greedy", "random"], params={"hp": 30})
    >>> r.by_policy()          # win rate per policy with 95% Wilson intervals
    """
    kind = sink_class(sink)
    if scheduler is not None or cluster is not None:
        with use_cluster(scheduler, cluster):
            return simulate(ruleset, games, seed, players, policies, params, start=start,
                            stop=stop, threads=threads, progress=progress, ban=ban,
                            checkpoint=checkpoint, sink=sink)
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
    got = play_range(s, start, stop, progress=progress, checkpoint=checkpoint, sink=sink)
    return kind.view(s, got, start, elapsed=time.perf_counter() - t0,
                     compiled=jit.compiles > c0)


def replay_game(ruleset: str, *, game: int, seed: int = 0, players=None, policies=None,
                params=None, ban=None):
    """(setup, Batch of the one game, event array) for game ``game`` of ``seed``."""
    s = setup(ruleset, seed=seed, players=players, policies=policies, params=params, ban=ban)
    game = check_count("game", game, 0)
    jit.notice(s.spec, "replay", values=s.values)
    one, events = batch.trace(s.spec, s.values, s.seed, game, s.n_players, s.policy_ids,
                              **s.kernel_keywords)
    return s, one, events


def replay_text(ruleset: str, *, game: int, seed: int = 0, players=None, policies=None,
                params=None) -> str:
    s, batch, events = replay_game(ruleset, game=game, seed=seed, players=players,
                                   policies=policies, params=params)
    head = (f"{s.spec.title}: game {game} of seed {s.seed}, {s.n_players} players "
            f"({', '.join(s.policies)}), ruleset version {s.spec.version(s.values)}")
    body = s.spec.format_trace(events, s.values, s.n_players, s.policies)
    return "\n".join([head] + body)
