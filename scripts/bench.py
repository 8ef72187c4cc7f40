"""Benchmarks: print speed figures for every registered ruleset.

    python scripts/bench.py                 # everything (about two minutes)
    python scripts/bench.py --quick         # kernel speeds only
    python scripts/bench.py --games 200000  # games per kernel measurement
    python scripts/bench.py --ruleset elite # kernel speeds of one ruleset only
    python scripts/bench.py --checkpoint    # checkpoint cost (3,000,000 games, 3 rounds)
    python scripts/bench.py --quick --log   # and add the figures to the performance log

With ``--log`` the kernel and search figures are also written to the dated
performance log: ``reports/bench/<date>-<commit>.json`` (the machine, its
load, numba's version, every figure) and the table of all entries,
``reports/bench/README.md``, written again from them.

Figures printed:
- games/s, ns per player-turn (one turn of one seat) and ns per decision
  (one policy choice, the unit all rulesets compare in; the best of five
  timed repeats, since the machines are shared) for each benchmark
  configuration a ruleset declares in ``spec.bench``, on 1 thread and
  on all threads, and the scaling between them;
- talisman: 1,000,000 greedy 2-player games, wall time after compilation;
- cold compile (empty numba cache) and cached start of a whole
  ``balance run talisman --games 1000`` process; with ``--compile`` only,
  that of every ruleset (elite per version) and the commands that must
  compile nothing (``rulesets``, ``params``, ``--help``);
- elite v1-v3 (4 players, greedy, one thread) against talisman 2p greedy
  in ns per decision (target: at most 2.5x), with the options a seat had
  per decision (elite's ``options`` column) and ns per option, and
  talisman's legal actions per greedy decision (the pure-Python reference);
- peak memory (max RSS) of a ``balance run talisman --games 1000000`` process;
- the whole ``balance run`` process against its kernel's time (``--whole``: only that);
- with ``--ci`` only: the clean-clone CI run (``bash .ci/run`` in a fresh
  clone, empty numba cache; target under 5 minutes);
- a LocalCluster run against the embedded path (Dask), and
  ``--summary-only``: games/s against full tables, peak memory at 100M games;
- search, for every ruleset with a `search` policy: ms per game with one
  search seat against the main heuristic on one thread, against a game of
  the heuristic alone, search decisions per second, and from the engine's
  search counters ns per rollout decision against the heuristic's ns per
  decision in whole games (target: within 1.5x);
- talisman's search in detail (with --quick and --ruleset talisman too): ms
  per 2-player game of search against greedy on one thread (and of
  search_fast and search_strong), search decisions per second, and ns per
  rollout decision against greedy's ns per decision (target: within 1.5x);
- speed-up of the kernel over the pure-Python reference implementation;
- with ``--checkpoint`` only: what checkpoints cost a long run (target:
  at most 10 %): one talisman run played with checkpoints off, on by
  default (stored after 5 s) and on from the first chunk, alternating over
  several rounds, with the times, their medians and ratios.

The machines are shared and noisy: compare figures as ratios within one run.
"""
from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

import balance
from balance.core import registry
from balance.core.play import play_range
from balance.core.setup import setup


def kernel_speed(name, cfg, games, threads, repeats=5):
    numba.set_num_threads(threads)
    s = setup(name, seed=12345, players=cfg["players"], policies=cfg["policies"],
              params=cfg.get("params"))
    play_range(s, 0, 2000, progress=False)          # compile / warm up
    best = None
    for r in range(repeats):
        t0 = time.perf_counter()
        b = play_range(s, 0, games, progress=False)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    turns = int(b.games[:, 1].sum())
    return (games / best, best / turns * 1e9, best, turns / games,
            best / decisions(name, b) * 1e9, options_per_decision(name, b))


def options_per_decision(name, batch):
    """Options the deciding seat had per decision, where the ruleset counts
    them (elite's ``options`` column), else None."""
    cols = list(registry.get(name).game_columns)
    if "options" not in cols:
        return None
    return int(batch.games[:, cols.index("options")].sum()) / decisions(name, batch)


def talisman_legal_actions(games=500):
    """Legal actions per greedy decision in 2-player talisman, counted in the
    pure-Python reference (the kernel's greedy does not list them all)."""
    try:
        from balance.rulesets.talisman import reference as R
    except ImportError:
        return None
    values = setup("talisman", seed=1, players=2, policies=["greedy"]).values
    seen = []
    choose = R.choose_greedy

    def counting(game, p, patient=False):
        seen.append(len(R.legal_actions(game, p)))
        return choose(game, p, patient)
    R.choose_greedy = counting
    try:
        for g in range(games):
            R.play(values, 1, g, 2, ["greedy", "greedy"])
    finally:
        R.choose_greedy = choose
    return sum(seen) / len(seen)


def decisions(name, batch) -> int:
    """Policy choices made in a batch, the unit every ruleset compares in: a
    ``decisions`` game column where the ruleset counts them; elite: a turn's
    play plus each exchange response; else one per turn."""
    cols = list(registry.get(name).game_columns)
    if "decisions" in cols:
        return int(batch.games[:, cols.index("decisions")].sum())
    turns = int(batch.games[:, 1].sum())
    return turns + (int(batch.games[:, cols.index("responses")].sum())
                    if "responses" in cols else 0)


def heuristic(spec) -> str:
    """The ruleset's main heuristic: its first policy that is neither random
    nor a search level."""
    from balance.core.search import LEVELS
    return next(p for p in spec.policies if p != "random" and p not in LEVELS)


def engine_of(name, values):
    """The ruleset's bound game engine (``core.engine.bind``'s loop module):
    elite's for the version in ``values``."""
    if name == "elite":
        from balance.rulesets.elite.kernel import engine
        return engine(values["version"], "kernel").E
    return importlib.import_module(f"balance.rulesets.{name}.kernel").E


def search_speed(name, games=200):
    """One thread, the smallest table with one ``search`` seat (default
    budget) against the main heuristic: ms per game, against a game of the
    heuristic alone; the search seat's decisions per second (decisions /
    players: the seats decide about equally often); and from the engine's
    search counters (``core.engine.search``'s ``stats``, read from the
    scratch each block was given) the decisions searched, the rollouts and
    rollout decisions per searched decision, and ns per rollout decision
    (the whole search game's time over the decisions played in rollouts, so
    it carries the copies, re-deals and the real game too) against the
    heuristic's ns per decision in whole games (target: within 1.5x)."""
    spec = registry.get(name)
    if "search" not in spec.policies:
        return None
    h = heuristic(spec)
    P = spec.players[0]
    numba.set_num_threads(1)
    out = {}
    kept = []
    for label, pols in (("search", ["search"] + [h] * (P - 1)), ("plain", [h] * P)):
        s = setup(name, seed=7, players=P, policies=pols)
        play_range(s, 0, 4, progress=False)           # compile / warm up
        n = games if label == "search" else games * 100
        E = engine_of(name, s.values)
        scratch = E.scratch

        def keep(*a, scratch=scratch):
            w = scratch(*a)
            kept.append(w)
            return w
        E.scratch = keep
        try:
            dt = None
            for _ in range(1 if label == "search" else 3):      # the heuristic: best of 3
                t0 = time.perf_counter()
                b = play_range(s, 0, n, progress=False)
                t = time.perf_counter() - t0
                dt = t if dt is None else min(dt, t)
        finally:
            E.scratch = scratch
        out[label] = (dt / n, decisions(name, b) / n, dt / max(1, decisions(name, b)))
        if label == "search":
            st = sum(w.stats for w in kept if w is not None)
    (ts, ds, _), (tp, _, nsd) = out["search"], out["plain"]
    searched = max(1, int(st[0]))
    return {"heuristic": h, "players": P, "ms_per_game": ts * 1e3, "plain_ms": tp * 1e3,
            "search_decisions_per_s": ds / P / ts, "searched": searched / games,
            "rollouts": st[1] / searched, "rollout_decisions": st[2] / searched,
            "ns_rollout": ts * games / max(1, int(st[2])) * 1e9, "ns_plain": nsd * 1e9}


def talisman_search(repeats=5, games=400):
    """talisman's search policy at its default budget, on one thread.

    - ms per 2-player game, search against greedy (seat 0 searching), and
      of search_fast and search_strong likewise;
    - the same games through the engine's batch entry with a scratch of
      our own (``core.engine.search.search_work``), whose counters give
      the decisions searched and the decisions played in rollouts: search
      decisions per second, and ns per rollout decision, the games' time
      over those (so it carries the copies, the sampling, the candidates'
      own moves and the real game too);
    - greedy's ns per decision in whole games (as the table above).
    The greedy games and the search decisions alternate, best of ``repeats``
    each, so their ratio is taken under the same load."""
    from balance.rulesets.talisman import SPEC
    from balance.core.records import alloc
    from balance.rulesets.talisman import kernel as K
    numba.set_num_threads(1)
    values = SPEC.space.resolve({})
    nk = SPEC.n_kinds(values)
    ip, pp, ban = SPEC.kernel_arrays(values, np.zeros(nk, np.int64))
    pol = np.array([SPEC.policies["search"], SPEC.policies["greedy"]], np.int64)
    c = K.context(2, pol, ip, pp, ban)
    games_, seats_, masks_, counts_ = alloc(games, 2, len(SPEC.game_columns),
                                            len(SPEC.seat_columns), nk)
    errors_ = np.zeros(games, np.int64)
    ws = K.E.search_work(lambda: K.new_state(2), masks_.shape[1:], counts_.shape[1:])
    tr = np.zeros((1, 8), np.int64)

    def searched_games():
        """``games`` games of search (seat 0) against greedy through the
        engine's batch entry with this scratch, whose counters then hold
        the search's decisions and rollout decisions."""
        K.E.play_blocks(0, len(counts_), np.uint64(12345), np.int64(0), np.int64(games), c,
                        False, games_, seats_, masks_, counts_, errors_, K.new_state(2), tr, ws)

    sg = setup("talisman", seed=12345, players=2, policies=["greedy"])
    runs = {p: setup("talisman", seed=12345, players=2, policies=[p, "greedy"])
            for p in ("search_fast", "search", "search_strong")}
    play_range(sg, 0, 2000, progress=False)
    play_range(runs["search"], 0, 20, progress=False)          # compile / warm up
    searched_games()
    best = {}

    def keep(key, value):
        best[key] = min(best.get(key, value), value)

    for _ in range(repeats):
        t0 = time.perf_counter()
        b = play_range(sg, 0, 20_000, progress=False)
        keep("greedy", (time.perf_counter() - t0) / decisions("talisman", b) * 1e9)
        t0 = time.perf_counter()
        play_range(runs["search"], 0, games, progress=False)
        keep("search", (time.perf_counter() - t0) / games * 1e3)
        ws.stats[:] = 0
        t0 = time.perf_counter()
        searched_games()
        dt = time.perf_counter() - t0
        keep("decision", dt / max(1, ws.stats[0]))
        keep("rollout", dt / max(1, ws.stats[2]) * 1e9)
    searched, rollouts, turns, cands = ws.stats
    other = {}
    for p, n in (("search_fast", games), ("search_strong", games // 4)):
        t0 = time.perf_counter()
        play_range(runs[p], 0, n, progress=False)
        other[p] = (time.perf_counter() - t0) / n * 1e3
    q = {k: values[k] for k in ("search_top_k", "search_determinizations", "search_rollouts",
                                "search_rollout_policy")}
    print(f"talisman search, default budget {q}, 1 thread, best of {repeats}:")
    print(f"  2-player game against greedy: search {best['search']:.2f} ms "
          f"({games} games; target: under 5 ms), search_fast {other['search_fast']:.2f} ms, "
          f"search_strong {other['search_strong']:.2f} ms (once)")
    print(f"  search decisions: {1 / best['decision']:,.0f}/s in {games} games against greedy "
          f"({searched:,} searched; per searched decision {cands / searched:.1f} candidates, "
          f"{rollouts / searched:.0f} rollouts, {turns / searched:.0f} rollout decisions)")
    print(f"  rollout decision: {best['rollout']:.1f} ns (the whole search time over its "
          f"rollout decisions) vs greedy {best['greedy']:.1f} ns per decision in whole games: "
          f"{best['rollout'] / best['greedy']:.2f}x (target: within 1.5x)")


def run_process(args, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{p.stderr}")
    return dt


def peak_rss_mb(args):
    """Max RSS of a child process in MiB (ru_maxrss is KiB on Linux)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=True).stdout
    return int(out.strip()) / 1024


def summary_only(s, games):
    """``--summary-only`` against the full-table path (games/s, the
    aim: at least as fast) and the peak memory of a ``games``-game
    summary-only process (aim: under 1 GB at 100,000,000)."""
    n = 2_000_000
    t0 = time.perf_counter()
    play_range(s, 0, n, progress=False)
    full = n / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    play_range(s, 0, n, progress=False, sink="sums")
    summ = n / (time.perf_counter() - t0)
    print(f"talisman {n:,} greedy 2-player games: full tables {full:,.0f} games/s, "
          f"--summary-only {summ:,.0f} games/s ({summ / full:.2f}x)")
    with tempfile.TemporaryDirectory() as tmp:
        mb = peak_rss_mb(["balance", "run", "talisman", "--games", str(games), "--players", "2",
                          "--policy", "greedy", "--summary-only", "--out",
                          os.path.join(tmp, "s")])
    print(f"peak memory of `balance run talisman --games {games:,} --summary-only`: "
          f"{mb:,.0f} MiB (aim: under 1 GB at 100,000,000)")


def cluster_overhead(s, nthreads, games):
    """A talisman run on a LocalCluster of ``nthreads`` one-thread workers
    against the embedded path on ``nthreads`` threads (the overhead's
    aim under 10 %); the same games, tables checked equal."""
    try:
        from balance.core import cluster
        from balance.core.cluster import DaskEngine
        eng = DaskEngine(local=nthreads)
    except Exception as e:          # the extra is optional
        print(f"cluster overhead: not measured ({e})")
        return
    try:
        numba.set_num_threads(nthreads)
        t0 = time.perf_counter()
        here = play_range(s, 0, games, progress=False)
        t_here = time.perf_counter() - t0
        cluster._engine = eng
        play_range(s, 0, 2 * 65536, progress=False)      # workers load the kernel
        t0 = time.perf_counter()
        far = play_range(s, 0, games, progress=False)
        t_far = time.perf_counter() - t0
    finally:
        cluster._engine = None
        eng.close()
    same = all(np.array_equal(getattr(here, k), getattr(far, k))
               for k in ("games", "seats", "masks", "counts"))
    print(f"talisman {games:,} greedy 2-player games: embedded {nthreads} threads {t_here:.2f} s, "
          f"LocalCluster of {nthreads} workers {t_far:.2f} s: overhead "
          f"{(t_far / t_here - 1) * 100:+.1f} % (aim: under 10 %); tables identical: {same}")


def whole_process(nthreads, repeats=3):
    """The whole ``balance run talisman --games 1000000 --players 2 --policy
    greedy --out DIR`` process (cached kernel, every table written) against
    its kernel's time in this process on the same threads, best of
    ``repeats`` each, the two alternating so that both see the same load.
    Returns the setup (the measurements after it reuse it)."""
    numba.set_num_threads(nthreads)
    s = setup("talisman", seed=1, players=2, policies=["greedy"])
    play_range(s, 0, 1000, progress=False)
    kernel, whole = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            t0 = time.perf_counter()
            play_range(s, 0, 1_000_000, progress=False)
            kernel.append(time.perf_counter() - t0)
            whole.append(run_process(["balance", "run", "talisman", "--games", "1000000",
                                      "--players", "2", "--policy", "greedy", "--out",
                                      os.path.join(tmp, str(i))]))
    print(f"talisman 1,000,000 greedy 2-player games: {min(kernel):.2f} s wall "
          f"({nthreads} threads, after compilation; best of {repeats}: "
          f"{', '.join(f'{k:.2f}' for k in kernel)})")
    print(f"whole process `balance run talisman --games 1000000 --players 2 --policy greedy "
          f"--out DIR` (cached kernel, writes every table; best of {repeats}: "
          f"{', '.join(f'{w:.2f}' for w in whole)}): {min(whole):.2f} s = "
          f"{min(whole) / min(kernel):.2f}x the kernel's time (target: at most 1.5x)")
    return s


def checkpoint_cost(games, rounds):
    """A ``games``-game talisman run (the command line's default: 2 players,
    random; all threads) with checkpoints off (``checkpoint=None``), on by
    default (chunks stored once the run has lasted
    ``BALANCE_CHECKPOINT_SECONDS``, 5 s) and on from the first chunk (0),
    the three alternating for ``rounds`` rounds so that all see the same
    load; the folder is removed after each run, as ``balance run`` does.
    Prints every time, the medians and the ratios to the run without, the
    median of the per-round ratios (steadier when the machine's load drifts)
    and the time spent in ``PointStore.save`` itself (the cost without the
    noise of the kernel's time)."""
    import shutil
    import statistics

    from balance.core import store
    saving = [0.0]
    real_save = store.PointStore.save

    def timed_save(self, *a, **k):
        t0 = time.perf_counter()
        try:
            return real_save(self, *a, **k)
        finally:
            saving[0] += time.perf_counter() - t0
    store.PointStore.save = timed_save
    s = setup("talisman", seed=1, players=2, policies=["random"])
    play_range(s, 0, 2000, progress=False)             # compile / load the kernel
    env = os.environ.get("BALANCE_CHECKPOINT_SECONDS")
    modes = (("off", None), ("default (after 5 s)", None), ("every chunk", "0"))
    times = {m: [] for m, _ in modes}
    saved = {m: [] for m, _ in modes}
    tables = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for r in range(rounds):
                for i, (mode, secs) in enumerate(modes):
                    if secs is None:
                        os.environ.pop("BALANCE_CHECKPOINT_SECONDS", None)
                    else:
                        os.environ["BALANCE_CHECKPOINT_SECONDS"] = secs
                    ck = None if i == 0 else os.path.join(tmp, f"ck{r}{i}")
                    saving[0] = 0.0
                    t0 = time.perf_counter()
                    b = play_range(s, 0, games, progress=False, checkpoint=ck)
                    if ck is not None:
                        shutil.rmtree(ck, ignore_errors=True)
                    times[mode].append(time.perf_counter() - t0)
                    saved[mode].append(saving[0])
                    if r == 0:
                        tables[mode] = (b.games[::997].copy(), b.seats[::997].copy())
                    del b
    finally:
        store.PointStore.save = real_save
        if env is None:
            os.environ.pop("BALANCE_CHECKPOINT_SECONDS", None)
        else:
            os.environ["BALANCE_CHECKPOINT_SECONDS"] = env
    base = statistics.median(times["off"])
    print(f"checkpoint cost, talisman {games:,} random 2-player games, "
          f"{numba.get_num_threads()} threads, {rounds} rounds alternating:")
    for mode, _ in modes:
        m = statistics.median(times[mode])
        print(f"  {mode:<20} {', '.join(f'{x:.2f}' for x in times[mode])} s; median {m:.2f} s"
              + ("" if mode == "off" else f" = {m / base:.3f}x off ({(m / base - 1) * 100:+.1f} %; "
                                           f"target: at most +10 %)"))
        if mode != "off":
            per = statistics.median(x / y for x, y in zip(times[mode], times["off"]))
            sv = statistics.median(saved[mode])
            print(f"  {'':<20} median of the rounds' ratios {per:.3f}x; saving the chunks "
                  f"(PointStore.save) {sv:.2f} s a run = {sv / base * 100:.1f} % of the run off")
    same = all(np.array_equal(tables["off"][j], tables[m][j]) for m in tables for j in (0, 1))
    print(f"  tables identical with and without checkpoints (every 997th game): {same}")


def ci_figure():
    """The clean-clone CI run: ``bash .ci/run`` in a fresh clone of this
    repository's HEAD (so an empty numba cache: the clone's own
    ``__pycache__``), in a virtual environment over this machine's site
    packages (CI's machine has the dependencies installed too; the install
    step then only installs the project). Prints its wall time and the test
    runner's closing line."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        clone, venv = os.path.join(tmp, "clone"), os.path.join(tmp, "venv")
        subprocess.run(["git", "clone", "--quiet", root, clone], check=True)
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        env = {k: v for k, v in os.environ.items()
               if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
        env["PATH"] = os.path.join(venv, "bin") + os.pathsep + env.get("PATH", "")
        env["CI"] = "true"
        t0 = time.perf_counter()
        p = subprocess.run(["bash", ".ci/run"], cwd=clone, env=env, capture_output=True,
                           text=True, stdin=subprocess.DEVNULL)
        dt = time.perf_counter() - t0
    last = (p.stdout.strip().splitlines() or ["(no output)"])[-1]
    print(f"clean-clone CI run (`bash .ci/run`, fresh clone of HEAD, empty numba cache): "
          f"{dt:.0f} s, exit {p.returncode}, \"{last}\" (target: under 5 minutes)")


def cache_files(d) -> int:
    return sum(len(f) for _, _, f in os.walk(d))


def compiled_too(d, name, version) -> str:
    """Which of the ruleset's ``replay`` and ``search`` kernels a cold run
    left in the cache folder ``d`` (a greedy ``balance run`` needs neither;
    a replay kernel that is the run's own, elite's, is not counted):
    numba names a function's cache files ``<file stem>.<qualname>-<line>``."""
    from balance.core import jit
    kernels = jit.kernel_table(registry.get(name), {"version": version})
    files = [f for _, _, fs in os.walk(d) for f in fs]
    found = []
    run = jit.dispatcher_of(kernels["run"])
    for use in ("replay", "search"):
        f = jit.dispatcher_of(kernels[use])
        if f is run:            # elite's replay plays the run's own kernel
            continue
        stem = os.path.splitext(os.path.basename(f.py_func.__code__.co_filename))[0]
        if any(x.startswith(f"{stem}.{f.py_func.__qualname__}-") for x in files):
            found.append(use)
    return ", ".join(found) or "neither"


def compile_figures():
    """Cold compile as a whole process, for every ruleset (elite: per
    version), each with an empty numba cache of its own:
    ``balance run RULESET --games 1000 --policy <heuristic>``; and the
    commands that must compile nothing (``rulesets``, ``params``, ``--help``:
    no file in the cache afterwards)."""
    runs = []
    for name in registry.names():
        if name == "elite":
            runs += [(f"elite v{v}", ["elite", "--players", "4", "--set", f"version={v}"])
                     for v in (1, 2, 3)]
        else:
            runs.append((name, [name]))
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "none"))
        for args in (["rulesets"], ["params", "elite"], ["--help"], ["run", "--help"]):
            t = run_process(["balance", *args], env)
            print(f"`balance {' '.join(args)}`: {t:.2f} s, "
                  f"{cache_files(os.path.join(tmp, 'none'))} files compiled into the cache "
                  f"(target: 0)")
        for i, (label, args) in enumerate(runs):
            env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, f"c{i}"))
            h = heuristic(registry.get(args[0]))
            out = os.path.join(tmp, f"o{i}")
            cold = run_process(["balance", "run", *args, "--games", "1000", "--policy", h,
                                "--out", out], env)
            warm = run_process(["balance", "run", *args, "--games", "1000", "--policy", h,
                                "--out", out + "w"], env)
            target = {"talisman": " (target: under 12 s)"}.get(label, " (target: under 45 s)"
                                                               if label.startswith("elite") else "")
            version = int(args[-1].split("=")[1]) if label.startswith("elite") else None
            print(f"cold compile `balance run {' '.join(args)} --games 1000 --policy {h}`: "
                  f"{cold:.1f} s as a whole process (cached start {warm:.1f} s){target}; "
                  f"replay/search kernels compiled too: "
                  f"{compiled_too(os.path.join(tmp, f'c{i}'), args[0], version)} "
                  f"(target: neither)")


LOG_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "reports", "bench")


def write_log(rows: list, nthreads: int) -> str:
    """One dated JSON entry of the performance log, and its table again."""
    import datetime
    import json
    import platform
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=os.path.dirname(LOG_DIR)).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True,
                           cwd=os.path.dirname(LOG_DIR)).stdout.strip() != ""
    now = datetime.datetime.now(datetime.timezone.utc)
    entry = {"date": now.isoformat(timespec="seconds"), "commit": commit + ("+" if dirty else ""),
             "balance": balance.__version__, "numba": numba.__version__,
             "python": platform.python_version(), "cpus": os.cpu_count(),
             "numba_threads": nthreads, "load_1min": os.getloadavg()[0], "figures": rows}
    os.makedirs(LOG_DIR, exist_ok=True)
    path = os.path.join(LOG_DIR, f"{now:%Y-%m-%d-%H%M}-{commit}.json")
    with open(path, "w") as f:
        json.dump(entry, f, indent=1)
    entries = []
    for fn in sorted(os.listdir(LOG_DIR)):
        if fn.endswith(".json"):
            with open(os.path.join(LOG_DIR, fn)) as f:
                entries.append(json.load(f))
    lines = ["# Performance log", "",
             "Written by `python scripts/bench.py --quick --log` (one JSON file per run: the "
             "machine, its load and every figure); ns per decision on one thread, the unit "
             "every ruleset compares in. The machines are shared: compare within one run.", "",
             "| date | commit | load | configuration | ns/decision (1 thread) | games/s (1 thread) |",
             "|---|---|---|---|---|---|"]
    for e in entries:
        for r in e["figures"]:
            if r.get("kind") == "kernel":
                lines.append(f"| {e['date'][:16]} | {e['commit']} | {e['load_1min']:.1f} | "
                             f"{r['label']} | {r['ns_per_decision']:.1f} | "
                             f"{r['games_per_s']:,.0f} |")
            elif r.get("kind") == "search":
                lines.append(f"| {e['date'][:16]} | {e['commit']} | {e['load_1min']:.1f} | "
                             f"{r['label']} (rollout decision, x heuristic's) | "
                             f"{r['ns_per_rollout_decision']:.0f} "
                             f"({r['ratio_to_heuristic']:.2f}x) | - |")
    with open(os.path.join(LOG_DIR, "README.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000, help="games per kernel measurement")
    ap.add_argument("--quick", action="store_true", help="kernel speeds only")
    ap.add_argument("--ruleset", action="append", choices=registry.names(),
                    help="kernel speeds of this ruleset only (repeatable; implies --quick)")
    ap.add_argument("--compile", action="store_true",
                    help="only the cold-compile figures (every ruleset; elite per version)")
    ap.add_argument("--ci", action="store_true",
                    help="only the clean-clone CI run's time (bash .ci/run; 20 minutes or more)")
    ap.add_argument("--whole", action="store_true",
                    help="only the whole-process figure (balance run against its kernel's time)")
    ap.add_argument("--no-search", action="store_true",
                    help="leave out the search figures (each ruleset's search compiles apart)")
    ap.add_argument("--summary-games", type=int, default=100_000_000,
                    help="games of the --summary-only peak-memory measurement")
    ap.add_argument("--cluster-games", type=int, default=10_000_000,
                    help="games of the LocalCluster-vs-embedded measurement")
    ap.add_argument("--checkpoint", action="store_true",
                    help="only the checkpoint cost (a talisman run with checkpoints on and off)")
    ap.add_argument("--checkpoint-games", type=int, default=3_000_000,
                    help="games of the --checkpoint run")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the --checkpoint runs")
    ap.add_argument("--log", action="store_true",
                    help="add the kernel and search figures to reports/bench/ (the dated "
                         "performance log and its table)")
    args = ap.parse_args()
    nthreads = numba.config.NUMBA_NUM_THREADS
    print(f"balance {balance.__version__}, numba {numba.__version__}, {os.cpu_count()} cpus, "
          f"{nthreads} numba threads")
    print(f"{'configuration':<28} {'threads':>7} {'games/s':>12} {'ns/turn':>9} {'turns/game':>10}"
          f" {'ns/dec':>9} {'dec/turn':>10}")
    print("(ns/dec: ns per decision, one policy choice: a ruleset's `decisions` column, or "
          "elite's plays and exchange responses, or one per turn)")
    if args.compile:
        compile_figures()
        return
    if args.whole:
        whole_process(nthreads, repeats=5)
        return
    if args.ci:
        ci_figure()
        return
    if args.checkpoint:
        checkpoint_cost(args.checkpoint_games, args.rounds)
        return
    per_decision, options, log = {}, {}, []
    for name in args.ruleset or registry.names():
        spec = registry.get(name)
        for cfg in spec.bench:
            g = min(args.games, cfg.get("games", args.games))
            r1 = kernel_speed(name, cfg, g, 1)
            per_decision[cfg["label"]] = r1[4]
            options[cfg["label"]] = r1[5]
            rn = kernel_speed(name, cfg, g, nthreads)
            for t, r in ((1, r1), (nthreads, rn)):
                print(f"{cfg['label']:<28} {t:>7} {r[0]:>12,.0f} {r[1]:>9.1f} {r[3]:>10.1f}"
                      f" {r[4]:>9.1f} {r[1] / r[4]:>10.2f}")
            print(f"{'':<28} scaling 1 -> {nthreads} threads: {rn[0] / r1[0]:.2f}x")
            log.append({"kind": "kernel", "label": cfg["label"], "games": g,
                        "games_per_s": r1[0], "ns_per_turn": r1[1], "ns_per_decision": r1[4],
                        "games_per_s_all_threads": rn[0]})
        sp = None if args.no_search else search_speed(name)
        if sp is not None:
            print(f"{name} search (default budget), {sp['players']} players, one search seat "
                  f"against {sp['heuristic']}, 1 thread: {sp['ms_per_game']:.2f} ms per game "
                  f"({sp['ms_per_game'] / sp['plain_ms']:,.0f}x a game of {sp['heuristic']} "
                  f"alone, {sp['plain_ms']:.3f} ms); {sp['search_decisions_per_s']:,.0f} search "
                  f"decisions/s")
            print(f"  {sp['searched']:.1f} searched decisions a game, {sp['rollouts']:.0f} "
                  f"rollouts and {sp['rollout_decisions']:.0f} rollout decisions each; "
                  f"{sp['ns_rollout']:.0f} ns per rollout decision vs {sp['ns_plain']:.0f} ns per "
                  f"{sp['heuristic']} decision in whole games: "
                  f"{sp['ns_rollout'] / sp['ns_plain']:.2f}x (target: within 1.5x)")
            log.append({"kind": "search", "label": f"{name} search vs {sp['heuristic']}",
                        "ms_per_game": sp["ms_per_game"],
                        "ns_per_rollout_decision": sp["ns_rollout"],
                        "ns_per_heuristic_decision": sp["ns_plain"],
                        "ratio_to_heuristic": sp["ns_rollout"] / sp["ns_plain"]})
    base = per_decision.get("talisman 2p greedy")
    if base:
        legal = talisman_legal_actions()
        if legal is not None:
            print(f"talisman 2p greedy: {legal:.1f} legal actions per decision (pure-Python "
                  f"reference, 500 games), {base / legal:.1f} ns per legal action")
        for label, ns in per_decision.items():
            if label.startswith("elite") and "4p greedy" in label:
                opt = "" if options[label] is None else (
                    f"; {options[label]:.1f} options per decision, "
                    f"{ns / options[label]:.1f} ns per option")
                print(f"{label}: {ns / base:.2f}x talisman 2p greedy's ns per decision on 1 "
                      f"thread (target: at most 2.5x){opt}")
    if "talisman" in (args.ruleset or registry.names()) and not args.no_search:
        talisman_search()
    if args.log:
        print(f"performance log: {write_log(log, nthreads)} and {LOG_DIR}/README.md")
    if args.quick or args.ruleset:
        return

    s = whole_process(nthreads)

    cluster_overhead(s, nthreads, args.cluster_games)
    summary_only(s, args.summary_games)

    exe = ["balance"]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cache"))
        cold = run_process(exe + ["run", "talisman", "--games", "1000", "--out",
                                  os.path.join(tmp, "a")], env)
        warm = min(run_process(exe + ["run", "talisman", "--games", "1000", "--out",
                                      os.path.join(tmp, "b")], env) for _ in range(3))
        print(f"`balance run talisman --games 1000` process: cold (empty numba cache) "
              f"{cold:.2f} s, cached start {warm:.2f} s; compile time ~{cold - warm:.2f} s")
        mb = peak_rss_mb(exe + ["run", "talisman", "--games", "1000000", "--out",
                                os.path.join(tmp, "c")])
        print(f"peak memory of `balance run talisman --games 1000000` (writes all tables): "
              f"{mb:,.0f} MiB")

    try:
        from balance.rulesets.talisman import reference
    except ImportError:
        print("reference implementation not available")
        return
    numba.set_num_threads(1)
    values = s.values
    n_ref = 2000
    t0 = time.perf_counter()
    for g in range(n_ref):
        reference.play(values, 1, g, 2, ["greedy", "greedy"])
    t_ref = (time.perf_counter() - t0) / n_ref
    r1 = kernel_speed("talisman", {"players": 2, "policies": ["greedy"]}, args.games, 1)
    print(f"pure-Python reference: {1 / t_ref:,.0f} games/s; kernel on 1 thread "
          f"{r1[0]:,.0f} games/s: {r1[0] * t_ref:,.0f}x faster")


if __name__ == "__main__":
    main()
