"""Magic Elite, search vs greedy (README "Search"): per-seat win rates with
95 % Wilson intervals (4 players, search and greedy alternating over the
seats, both seatings), ms per game with one search seat against three
greedy ones, searched turn plays per second.

    python scripts/search_elite.py [GAMES] ["{'search_determinizations': 16}"]
"""
import ast
import sys
import time

import numpy as np

import balance
from balance.core import registry, stats
from balance.rulesets.elite import layout as L

games = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
params_extra = ast.literal_eval(sys.argv[2]) if len(sys.argv) > 2 else {}
for v in (1, 3):
    params = {"version": v, **params_extra}
    wins = {"search": 0, "greedy": 0}
    seats = {"search": 0, "greedy": 0}
    t = time.time()
    for pols in (["search", "greedy"] * 2, ["greedy", "search"] * 2):
        r = balance.simulate("elite", games=games // 2, seed=101, players=4, policies=pols,
                             params=params, progress=False)
        won = r.batch.seats[:, :, L.SI["won"]]
        for q, pol in enumerate(pols):
            wins[pol] += int(won[:, q].sum())
            seats[pol] += won.shape[0]
    el = time.time() - t
    out = []
    for pol in ("search", "greedy"):
        lo, hi = stats.wilson(wins[pol], seats[pol])
        out.append(f"{pol} {wins[pol] / seats[pol]:.3f} [{float(lo):.3f}, {float(hi):.3f}]")
    print(f"v{v} {params_extra} {games} games (seats alternating): " + "; ".join(out),
          f"({el:.0f} s)", flush=True)
    # speed: one search seat against three greedy ones, and all greedy, same games
    n = 400
    one_search = ["search", "greedy", "greedy", "greedy"]
    t = time.time()
    rs = balance.simulate("elite", games=n, seed=7, players=4, params=params,
                          policies=one_search, progress=False)
    ts = time.time() - t
    t = time.time()
    balance.simulate("elite", games=n, seed=7, players=4, params=params,
                     policies=["greedy"] * 4, progress=False)
    tg = time.time() - t
    # searched turn plays: seat 0's turns, from the traces of the first 100 games
    spec = registry.get("elite")
    pol = np.array([spec.policies[p] for p in one_search])
    turns0 = 0
    for g in range(100):
        _, ev = spec.trace_game(rs.setup.values, 7, g, 4, pol)
        turns0 += int((ev[ev[:, 0] == L.E_TURN][:, 2] == 0).sum())
    per_game = turns0 / 100
    print(f"  one search seat: {ts / n * 1000:.2f} ms/game (all greedy {tg / n * 1000:.3f}); "
          f"{per_game:.1f} searched turns/game, {(ts - tg) / n / per_game * 1000:.2f} ms each, "
          f"{n * per_game / (ts - tg):.0f} searched decisions/s", flush=True)
