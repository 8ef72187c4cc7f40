"""One heuristic's ns per decision (one policy choice) in one ruleset, one
thread, best of 3 runs: the figure an A/B of two trees compares. Run it
once per tree, alternating, on the same machine, with the tree to measure
first on PYTHONPATH (this script uses only ``balance.simulate``, so an
older tree runs it too; each tree keeps its numba cache in its own
``__pycache__``, so leave NUMBA_CACHE_DIR unset):

    PYTHONPATH=/tmp/old python scripts/ab.py elite greedy --set version=3
    PYTHONPATH=. python scripts/ab.py elite greedy --set version=3
    python scripts/ab.py resonance counter --players 4

A decision is counted as ``scripts/bench.py`` counts it: the ruleset's
``decisions`` game column where it has one, else a turn plus each exchange
response (elite).
"""
import argparse
import time

import numba

import balance


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("policy")
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    a = ap.parse_args()
    bad = [kv for kv in a.set if "=" not in kv]
    if bad:
        ap.error(f"--set {bad[0]!r}: expected NAME=VALUE")
    params = {k: int(v) if v.lstrip("-").isdigit() else v
              for k, v in (kv.split("=", 1) for kv in a.set)}
    numba.set_num_threads(1)

    def play(n):
        return balance.simulate(a.ruleset, games=n, seed=3, players=a.players, params=params,
                                policies=[a.policy] * a.players, progress=False)
    play(200)                                   # compile / load the kernel
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        r = play(a.games)
        best = min(best, time.perf_counter() - t)
    g = r.games
    if "decisions" in g:
        n = float(g["decisions"].sum())
    else:
        n = float(g["turns"].sum() + (g["responses"].sum() if "responses" in g else 0))
    label = " ".join([a.ruleset, *a.set, f"{a.players}p", a.policy])
    print(f"{label}: {best / n * 1e9:.1f} ns per decision ({a.games} games, one thread, "
          f"{n / a.games:.1f} decisions a game)")


if __name__ == "__main__":
    main()
