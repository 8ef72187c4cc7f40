"""Magic Elite's ns per decision (turns + exchange responses) of one
heuristic at 4 players, one thread, best of 3 runs: the figure an A/B of
two trees compares, each run in its own process, alternating, on the same
machine (the old tree first on PYTHONPATH; each tree keeps its numba cache
in its own ``__pycache__``, so leave NUMBA_CACHE_DIR unset):

    PYTHONPATH=/tmp/old python /tmp/old/scripts/ab_elite.py 3 greedy
    python scripts/ab_elite.py 3 greedy

Arguments: VERSION POLICY [GAMES=20000].
"""
import sys
import time

import numba

import balance

v, pol = int(sys.argv[1]), sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
numba.set_num_threads(1)
params = {"version": v}
balance.simulate("elite", games=200, seed=3, players=4, params=params, policies=[pol] * 4,
                 progress=False)
best = float("inf")
for _ in range(3):
    t = time.perf_counter()
    r = balance.simulate("elite", games=n, seed=3, players=4, params=params, policies=[pol] * 4,
                         progress=False)
    best = min(best, time.perf_counter() - t)
decisions = float(r.games["turns"].sum() + r.games["responses"].sum())
print(f"elite v{v} {pol}: {best / decisions * 1e9:.1f} ns per decision ({n} games, one thread)")
