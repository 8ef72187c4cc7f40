"""What this machine allows a run: the bytes of a run's tables
(:func:`record_bytes`, :func:`table_bytes`), the memory available (MemAvailable
and every memory cgroup above this process), the check that refuses a run
whose tables cannot fit (:func:`check_memory`) and the note before a big one
(:func:`say_big`), the kernel's thread count (:func:`set_threads`).
"""
from __future__ import annotations

import os
import platform

from .errors import BalanceError
from .records import mask_words
from .setup import Setup, check_count


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
          f"memory, then written to disk; --summary-only (sink='sums') keeps none "
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


def machine() -> dict:
    return {"python": platform.python_version(), "cpus": os.cpu_count()}
