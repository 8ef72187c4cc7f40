"""Where a ruleset's cold compile goes: numba's compile time per function.

    python scripts/compile_profile.py talisman 2 greedy
    python scripts/compile_profile.py elite 4 greedy version=1
    python scripts/compile_profile.py talisman 2 search --top 20

Plays a few games in a fresh numba cache folder (a temporary one unless
NUMBA_CACHE_DIR is set) and prints, from numba's ``numba:compile`` events,
each function's compile time exclusive of the functions it compiled on the
way (and inclusive), the number of versions numba compiled of it (one per
combination of argument types it met), and the total time inside LLVM
(``numba:llvm_lock``). numba links every callee into each function it
compiles on its own and optimises the whole closure again, so a large
exclusive time on a function with little code of its own is that pass;
on a function with many inlined callees (``inline="always"``) it is numba
typing each inlined copy. Issue 19's closing note reads these figures.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("players", type=int)
    ap.add_argument("policy")
    ap.add_argument("params", nargs="*", help="NAME=INT rule parameters, e.g. version=3")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--top", type=int, default=30, help="functions to print")
    args = ap.parse_args()
    try:
        params = {k: int(v) for k, v in (kv.split("=", 1) for kv in args.params)}
    except ValueError:
        sys.exit(f"error: parameters are NAME=INT, got {args.params}")
    os.environ.setdefault("NUMBA_CACHE_DIR", tempfile.mkdtemp(prefix="compile-profile-"))

    from numba.core import event

    class Nested(event.Listener):
        """Inclusive and exclusive time of nested events."""

        def __init__(self):
            self.stack, self.rows = [], []

        def on_start(self, ev):
            self.stack.append([time.perf_counter(), 0.0])

        def on_end(self, ev):
            t0, inner = self.stack.pop()
            dt = time.perf_counter() - t0
            if self.stack:
                self.stack[-1][1] += dt
            self.rows.append((ev.data, dt, dt - inner))

    compiles, llvm = Nested(), Nested()
    event.register("numba:compile", compiles)
    event.register("numba:llvm_lock", llvm)

    from balance.core.play import play_range

    from balance.core.setup import setup
    t0 = time.perf_counter()
    s = setup(args.ruleset, seed=1, players=args.players, policies=[args.policy],
              params=params or None)
    play_range(s, 0, args.games, progress=False)
    total = time.perf_counter() - t0

    by = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for data, inc, exc in compiles.rows:
        d = data.get("dispatcher") if isinstance(data, dict) else None
        f = getattr(d, "py_func", None)
        key = (f"{f.__module__.rsplit('.', 1)[-1]}.{f.__qualname__}" if f is not None
               else str(d))
        row = by[key]
        row[0] += 1
        row[1] += inc
        row[2] += exc
    print(f"{args.ruleset} {args.players}p {args.policy} {params or ''}: {total:.1f} s from "
          f"setup to {args.games} games played; {len(compiles.rows)} compiles; "
          f"{sum(r[2] for r in llvm.rows):.1f} s inside LLVM")
    print(f"{'exclusive':>9} {'inclusive':>9} {'versions':>8}  function")
    for key, (n, inc, exc) in sorted(by.items(), key=lambda kv: -kv[1][2])[:args.top]:
        print(f"{exc:8.2f}s {inc:8.2f}s {n:8d}  {key}")


if __name__ == "__main__":
    main()
