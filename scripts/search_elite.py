"""Magic Elite, the search policies against greedy (README "Search"): for
v1 and v3 at 4 players, each search policy's advantage over greedy head to
head (``balance.matchups``: lineups policy,greedy,policy,greedy and its
rotation on the same deals; share of games won minus greedy's, points,
95 % interval), then the time of a game with one search seat against
three greedy ones, on one thread, beside all-greedy games of the same
deals.

    python scripts/search_elite.py [GAMES_PER_LINEUP] [POLICIES] ["{'search_determinizations': 16}"]

POLICIES is a comma list (default search_fast,search,search_strong,ismcts);
GAMES_PER_LINEUP 0 skips the matchups (the times only).
"""
import ast
import sys
import time

import numba

import balance

games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
policies = (sys.argv[2] if len(sys.argv) > 2 else "search_fast,search,search_strong,ismcts").split(",")
extra = ast.literal_eval(sys.argv[3]) if len(sys.argv) > 3 else {}
print(f"elite, 4 players, {games} games a lineup, seed 7, parameters {extra or 'default'}")
for v in (1, 3):
    params = {"version": v, **extra}
    for pol in policies if games > 0 else ():
        t = time.time()
        m = balance.matchups("elite", [pol, "greedy"], games=games, seed=7, players=4,
                             params=params, progress=False, summary_only=True)
        r = m.table[m.table["policy"] == pol].iloc[0]
        print(f"v{v} {pol:>13} vs greedy: {100 * r.advantage:+.1f} [{100 * r.advantage_low:+.1f}, "
              f"{100 * r.advantage_high:+.1f}] points ({time.time() - t:.0f} s)", flush=True)
    n = 100
    numba.set_num_threads(1)
    for pol in policies:
        for pols in ([pol] + ["greedy"] * 3, ["greedy"] * 4):      # load the kernels first
            balance.simulate("elite", games=2, seed=70, players=4, params=params, progress=False,
                             policies=pols, summary_only=True)
        t = time.time()
        balance.simulate("elite", games=n, seed=7, players=4, params=params, progress=False,
                         policies=[pol, "greedy", "greedy", "greedy"], summary_only=True)
        ts = time.time() - t
        t = time.time()
        balance.simulate("elite", games=n, seed=7, players=4, params=params, progress=False,
                         policies=["greedy"] * 4, summary_only=True)
        tg = time.time() - t
        print(f"v{v} one {pol} seat, 3 greedy, one thread: {ts / n * 1000:.1f} ms a game "
              f"(all greedy {tg / n * 1000:.2f} ms)", flush=True)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
