"""Magic Elite: greedy against random head to head, per version.

    python scripts/elite_skill.py                          # v1, v2, v3; 4 players; 20,000 games a lineup
    python scripts/elite_skill.py --versions 3 --games 5000 --set hand_damage_value=4

For each version, greedy and random play the 4-player lineups
greedy,random,greedy,random and random,greedy,random,greedy on the same
deals (``balance matchups``: seats rotated, paired by deal), and the script
prints each side's share of games won and greedy's advantage (its share
minus random's) in points with a 95% interval. Policy parameters set with
``--set`` apply to every seat (random ignores all but ``duel_first``).
"""
from __future__ import annotations

import argparse
import sys
import time

import balance
from balance.core.errors import BalanceError
from balance.core.params import parse_assignments


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per lineup")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--versions", default="1,2,3")
    ap.add_argument("--policies", default="greedy,random",
                    help="the two policies, the first one's advantage is printed")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args(argv)
    try:
        params = parse_assignments(a.set)
    except BalanceError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    pols = [p.strip() for p in a.policies.split(",")]
    print(f"elite, {a.players} players, {a.games:,} games a lineup, seed {a.seed}, "
          f"params {params or 'default'}")
    for v in (int(x) for x in a.versions.split(",")):
        t0 = time.perf_counter()
        try:
            m = balance.matchups("elite", pols, games=a.games, seed=a.seed, players=a.players,
                                 params={**params, "version": v}, progress=False,
                                 summary_only=True)
        except BalanceError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        r = m.table[(m.table["policy"] == pols[0]) & (m.table["opponent"] == pols[1])].iloc[0]
        print(f"v{v}: {pols[0]} {r.win_rate:.1%} vs {pols[1]} {r.opponent_win_rate:.1%}; "
              f"advantage {100 * r.advantage:+.1f} [{100 * r.advantage_low:+.1f}, "
              f"{100 * r.advantage_high:+.1f}] points ({time.perf_counter() - t0:.0f} s)",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
