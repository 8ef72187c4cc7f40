"""Magic Elite v3: the Glutton's (7) win rate against the reflect shield's
multiplier (反射盾, contract: shared/rules/elite.md "v3 三代").

    python scripts/sweep_reflect.py                      # 100,000 games a point
    python scripts/sweep_reflect.py --games 20000 --players 3 --policy random
    python scripts/sweep_reflect.py --set hand_damage_value=4   # greedy keeps damage cards

Every point plays the same games (same seed: paired comparison) of
4-player greedy v3 and prints the Glutton's win rate with its 95 % Wilson
interval, next to the other characters' rates and how often reflects fire
and kill. A zombie's wins count for its own character too (see the ruleset
README), so the rates by character may sum above 1.
"""
from __future__ import annotations

import argparse
import sys
import time

import balance
from balance.core.errors import BalanceError
from balance.core.runner import setup

VALUES = (1, 10, 100, 1_000, 10_000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="any other parameter, e.g. hand_damage_value=4 (repeatable)")
    a = ap.parse_args(argv)
    bad = [kv for kv in a.set if "=" not in kv]
    if bad:
        ap.error(f"--set {bad[0]!r}: expected NAME=VALUE")
    extra = dict(kv.split("=", 1) for kv in a.set)
    setup("elite", players=a.players, policies=[a.policy], params={**extra, "version": 3})  # checks
    print(f"elite v3, {a.players} players ({a.policy}), {a.games:,} games per point, seed {a.seed}"
          + "".join(f", {k}={v}" for k, v in extra.items()))
    print(f"{'reflect_x':>10} {'7 win rate':>10} {'95% CI':>17}   {'8':>5} {'9':>5} {'10':>5}"
          f"   {'reflects/g':>10} {'reflect deaths/g':>16} {'s':>5}")
    for v in VALUES:
        t0 = time.perf_counter()
        r = balance.simulate("elite", games=a.games, seed=a.seed, players=a.players,
                             policies=[a.policy],
                             params={**extra, "version": 3, "reflect_multiplier": v},
                             progress=False)
        by = r.summary["win_rate_by_character"]
        g7 = by["7 glutton"]
        others = " ".join(f"{by[k]['win_rate']:5.3f}" for k in
                          ("8 bloodthirsty devil", "9 rampage", "10 king kong"))
        print(f"{v:>10,} {g7['win_rate']:>10.4f} [{g7['ci_low']:.4f}, {g7['ci_high']:.4f}]   "
              f"{others}   {r.games['reflects'].mean():>10.3f} "
              f"{r.games['deaths_reflect'].mean():>16.3f} {time.perf_counter() - t0:>5.1f}")


if __name__ == "__main__":
    try:
        main()
    except BalanceError as e:            # a bad --set, --players or --policy: one line, code 2
        print(f"Error: {e}", file=sys.stderr)
        sys.exit(2)
