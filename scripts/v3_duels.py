"""Why greedy loses to random in Magic Elite v3 (and only there): the duel.

    python scripts/v3_duels.py                  # 20,000 games a line, 1,500 traced
    python scripts/v3_duels.py --games 5000 --traced 300

Prints, for mixed 4-player games (seats greedy, random, greedy, random):
- the win rate of each policy's seats in v1, v2 and v3;
- v3 with some of greedy's parameters changed (``hand_damage_value`` > 0
  makes greedy keep its damage cards, and then it beats random);
- the win rate of each character in all-greedy v3 games, with and without
  ``hand_damage_value``;
- from traced v3 games: in duels between a greedy and a random seat, who
  was the killer, who won, and the damage of each side's duel plays.
"""
from __future__ import annotations

import argparse
import collections

import numpy as np

import balance
from balance.core.replay import replay_game
from balance.rulesets.elite import layout as L

POLS = ["greedy", "random", "greedy", "random"]


def win_rates(games, seed, params):
    r = balance.simulate("elite", games=games, seed=seed, players=4, policies=POLS,
                         params=params, progress=False)
    return r.by_policy()["win_rate"]


def duels(traced, seed):
    """Greedy-vs-random duels of ``traced`` v3 games: counts by (greedy's
    part, winner), and the damage of each policy's duel plays."""
    n = collections.Counter()
    dmg = collections.defaultdict(list)
    for g in range(traced):
        _, _, ev = replay_game("elite", game=g, seed=seed, players=4, policies=POLS,
                               params={"version": 3})
        i = 0
        while i < len(ev):
            if ev[i, 0] != L.E_DUEL:
                i += 1
                continue
            x, y = ev[i, 2], ev[i, 3]           # x: the killer, in play; y: its victim
            plays = {x: [], y: []}
            j = i + 1
            while ev[j, 0] != L.E_DUELEND:
                if ev[j, 0] == L.E_DPLAY:
                    plays[ev[j, 2]].append(ev[j, 4])
                j += 1
            if POLS[x] != POLS[y]:
                greedy = x if POLS[x] == "greedy" else y
                part = "killer" if greedy == x else "victim"
                n[(part, "greedy" if ev[j, 2] == greedy else "random")] += 1
                for q in (x, y):
                    dmg[POLS[q]] += plays[q]
            i = j + 1
    return n, dmg


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--traced", type=int, default=1_500)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    print(f"mixed 4-player games (seats {', '.join(POLS)}), {a.games:,} games, seed {a.seed}")
    for v in (1, 2, 3):
        w = win_rates(a.games, a.seed, {"version": v})
        print(f"  v{v}: greedy {w['greedy']:.3f}  random {w['random']:.3f}")
    for extra in ({"card_value": 1.0}, {"card_value": 100.0}, {"four_value": 10.0},
                  {"kill_bonus": 0.0}, {"overkill_value": 0.0}, {"hand_damage_value": 1.0},
                  {"hand_damage_value": 4.0}, {"hand_damage_value": 16.0}):
        w = win_rates(a.games, a.seed, {"version": 3, **extra})
        print(f"  v3 {extra}: greedy {w['greedy']:.3f}  random {w['random']:.3f}")
    print(f"all-greedy 4-player v3 games, {a.games:,} games, seed {a.seed}: win rate by character")
    for hv in (0.0, 4.0):
        r = balance.simulate("elite", games=a.games, seed=a.seed, players=4, policies=["greedy"],
                             params={"version": 3, "hand_damage_value": hv}, progress=False)
        w = r.by_role()
        print(f"  hand_damage_value {hv:g}: " + ", ".join(
            f"{role.split()[0]} {x:.3f} [{lo:.3f}, {hi:.3f}]"
            for role, x, lo, hi in zip(w.index, w["win_rate"], w["ci_low"], w["ci_high"])))
    n, dmg = duels(a.traced, a.seed)
    tot = sum(n.values())
    won = n[("killer", "greedy")] + n[("victim", "greedy")]
    print(f"{a.traced:,} traced v3 games: {tot:,} greedy-random duels, greedy won {won:,} "
          f"({won / max(tot, 1):.1%})")
    for part in ("killer", "victim"):
        k = n[(part, "greedy")] + n[(part, "random")]
        print(f"  greedy the {part} in {k:,}: greedy won {n[(part, 'greedy')]:,}, "
              f"random won {n[(part, 'random')]:,}")
    for p in ("greedy", "random"):
        print(f"  {p}: damage per duel play {np.mean(dmg[p]):.2f} ({len(dmg[p]):,} plays)")


if __name__ == "__main__":
    main()
