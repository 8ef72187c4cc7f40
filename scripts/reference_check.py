"""Compare the talisman kernel with the pure-Python reference, game by game.

    python scripts/reference_check.py                  # >= 100,000 games
    python scripts/reference_check.py --games 20000    # fewer (spread over the configs)

Both implementations draw from the same per-game random stream in the same
order, so every game must agree exactly: the game row, every seat row, the
drawn/played masks and the per-kind draw/play totals. Printed per
configuration: games compared, mismatches, and speed in games/second on one
thread (numba set to 1 thread; the reference is single-threaded Python), and
the kernel-vs-reference speed ratio. For the first mismatches the first
differing trace event is shown. Exit code 1 when any game differs.
"""
from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np

from balance.core import batch
from balance.core.play import play_range
from balance.core.setup import setup
from balance.rulesets.talisman import SPEC
from balance.rulesets.talisman import reference as R

# name, param overrides, players, policies, share of the games
CONFIGS = [
    ("2p random", {}, 2, ["random", "random"], 1),
    ("2p greedy", {}, 2, ["greedy", "greedy"], 1),
    ("2p patient", {}, 2, ["patient", "patient"], 1),
    ("2p greedy-random", {}, 2, ["greedy", "random"], 1),
    ("3p random", {}, 3, ["random"] * 3, 1),
    ("3p greedy", {}, 3, ["greedy"] * 3, 1),
    ("3p mixed", {}, 3, ["random", "greedy", "patient"], 1),
    ("4p random", {}, 4, ["random"] * 4, 1),
    ("4p patient", {}, 4, ["patient"] * 4, 1),
    ("4p mixed", {}, 4, ["patient", "random", "greedy", "random"], 1),
    ("values_per_element=5", {"values_per_element": 5}, 3, ["random", "greedy", "patient"], 1),
    ("copies_gamble=8", {"copies_gamble": 8, "value_gamble": 1.0}, 2, ["random", "greedy"], 1),
    ("hp_cap=0", {"hp_cap": 0}, 4, ["greedy", "patient", "random", "random"], 1),
    ("hand_limit=3", {"hand_limit": 3}, 3, ["patient", "random", "greedy"], 1),
    ("specials x12", {"copies_thunder": 12, "copies_wind": 12, "copies_guard": 12,
                      "copies_steal": 12, "copies_gamble": 12, "overcoming_per_card": 0,
                      "start_hand": 10, "hand_limit": 12, "value_steal": 2.0},
     4, ["random", "greedy", "patient", "random"], 1),
    ("hp=40 hp_cap=25 V=12", {"hp": 40, "hp_cap": 25, "values_per_element": 12,
                              "chaos_factor": 2, "min_combo_value": 3.0},
     3, ["greedy", "patient", "random"], 1),
]
# card bans (interventional per-card power) for some configs
BANS = {"3p mixed": {"thunder": "remove", "water-3": "remove"},
        "4p patient": {"guard": "forbid", "metal-1": "forbid"}}


def ids(policies) -> np.ndarray:
    return np.array([SPEC.policies[p] for p in policies], dtype=np.int64)


def first_divergence(s, game) -> str:
    values, seed, P, policies = s.values, s.seed, s.n_players, s.policies
    V = values["values_per_element"]
    _, tr = batch.trace(SPEC, values, seed, game, P, ids(policies), s.ban_vector)
    kernel = [tuple(int(x) for x in row) for row in tr]
    try:
        ref = R.play(values, seed, game, P, policies, log=True, ban=s.ban)["events"]
    except AssertionError as e:
        return f"reference invariant broken: {e}"
    for i, (a, b) in enumerate(zip(kernel, ref)):
        if a != b:
            return (f"event {i}: kernel {a} ({R.describe_event(a, V)}) vs "
                    f"reference {b} ({R.describe_event(b, V)})")
    return (f"traces agree for {min(len(kernel), len(ref))} events "
            f"(lengths {len(kernel)}, {len(ref)})")


def check(name, over, P, policies, n, seed):
    s = setup("talisman", seed=seed, players=P, policies=policies, params=over,
                     ban=BANS.get(name))
    values = s.values
    K = len(SPEC.card_kinds(values))
    play_range(s, 0, min(n, 1000), progress=False)          # warm up
    t0 = time.perf_counter()
    batch = play_range(s, 0, n, progress=False)
    t_kernel = time.perf_counter() - t0
    errors = play_range(s, 0, n, progress=False, check=True).errors
    mismatches = []
    draws = np.zeros(K, np.int64)
    plays = np.zeros(K, np.int64)
    t_ref = 0.0
    for g in range(n):
        t0 = time.perf_counter()
        res = R.play(values, seed, g, P, policies, ban=s.ban)
        t_ref += time.perf_counter() - t0
        draws += res["draws"]
        plays += res["plays"]
        game_row, seat_rows, masks = R.record(res, K)
        if (batch.games[g].tolist() != game_row or batch.seats[g].tolist() != seat_rows
                or batch.masks[g].tolist() != masks):
            mismatches.append(g)
    counts_ok = bool((batch.counts[0] == draws).all() and (batch.counts[1] == plays).all())
    return {"name": name, "games": n, "mismatches": mismatches, "counts_ok": counts_ok,
            "check_errors": int(errors.sum()), "kernel_gps": n / t_kernel,
            "ref_gps": n / t_ref, "setup": s,
            "turns": float(batch.games[:, 1].mean())}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="total games (default 100000)")
    ap.add_argument("--seed", type=int, default=2024, help="run seed (default 2024)")
    args = ap.parse_args(argv)
    numba.set_num_threads(1)
    share = sum(c[-1] for c in CONFIGS)
    per = -(-args.games // share)
    print(f"talisman kernel vs reference: seed {args.seed}, {per} games per config, "
          f"{len(CONFIGS)} configs, 1 thread")
    print(f"{'config':24s} {'P':>2s} {'games':>7s} {'mism.':>6s} {'turns':>6s} "
          f"{'kernel g/s':>11s} {'ref g/s':>8s} {'ratio':>6s}")
    total = bad = 0
    t_k = t_r = 0.0
    ok = True
    for name, over, P, policies, w in CONFIGS:
        n = per * w
        r = check(name, over, P, policies, n, args.seed)
        total += n
        bad += len(r["mismatches"])
        t_k += n / r["kernel_gps"]
        t_r += n / r["ref_gps"]
        label = name + (" +ban" if name in BANS else "")
        print(f"{label:24s} {P:2d} {n:7d} {len(r['mismatches']):6d} {r['turns']:6.1f} "
              f"{r['kernel_gps']:11,.0f} {r['ref_gps']:8,.0f} "
              f"{r['kernel_gps'] / r['ref_gps']:6.0f}", flush=True)
        if not r["counts_ok"]:
            print("    per-kind draw/play totals differ")
            ok = False
        if r["check_errors"]:
            print(f"    kernel check mode: {r['check_errors']} broken invariants")
            ok = False
        for g in r["mismatches"][:3]:
            print(f"    game {g}: {first_divergence(r['setup'], g)}")
    print(f"total: {total} games compared, {bad} mismatches; kernel {total / t_k:,.0f} games/s, "
          f"reference {total / t_r:,.0f} games/s on one thread: kernel {t_r / t_k:,.0f}x faster")
    return 0 if ok and bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
