"""Hash the tables of fixed configurations, to show that a refactor or a
speed change leaves every result identical.

    python scripts/result_hashes.py --out before.json          # record
    python scripts/result_hashes.py --compare before.json      # check (exit 1 on a change)

Covers elite v1/v2/v3 at 2-4 players, greedy/random/mixed seats, teams,
10**12 multipliers, ``six_j_adjacent``, bans in both modes, ``max_exchange=5``
check mode on and off, and the search in each version (36 configurations), talisman at 2-4 players
with every policy, bans and the search levels (17), and demon with every policy, mixed seats,
check mode, bans in both modes and changed rule numbers (12), school (13) and
resonance (16) with every heuristic, mixed seats, check mode, bans and a
search level; every ruleset's ISMCTS once. Each hash
covers the game and seat tables, the draw/play masks, the card counts and,
in check mode, the error counts.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys

import numpy as np

from balance.core import runner

GAMES = {"elite": 600, "talisman": 3000, "demon": 3000, "school": 2000, "resonance": 2000}

ELITE = []
for v in (1, 2, 3):
    for P in (2, 3, 4):
        for pol in ("greedy", "random"):
            ELITE.append((f"v{v} {P}p {pol}", P, [pol], {"version": v}, None, False))
    ELITE.append((f"v{v} 4p mixed", 4, ["greedy", "random", "greedy", "random"],
                  {"version": v}, None, False))
    ELITE.append((f"v{v} 3p greedy check", 3, ["greedy"], {"version": v}, None, True))
ELITE += [
    ("v2 4p greedy teams", 4, ["greedy"], {"version": 2, "teams": True}, None, False),
    ("v2 4p random teams check", 4, ["random"], {"version": 2, "teams": True}, None, True),
    ("v3 4p greedy x1e12", 4, ["greedy"], {"version": 3, "reflect_multiplier": 10**12,
                                           "rampage_multiplier": 10**12}, None, False),
    ("v1 4p greedy max_exchange=5", 4, ["greedy"], {"version": 1, "max_exchange": 5}, None, False),
    ("v1 4p greedy forbid", 4, ["greedy"], {"version": 1},
     {"spade-A": "forbid", "heart-6": "forbid"}, False),
    ("v3 4p greedy remove", 4, ["greedy"], {"version": 3}, {"diamond-4": "remove"}, False),
    ("v3 4p greedy forbid", 4, ["greedy"], {"version": 3}, {"club-5": "forbid"}, False),
    ("v2 3p greedy six_j_adjacent", 3, ["greedy"], {"version": 2, "six_j_adjacent": True},
     None, False),
    # the search (SEARCH_GAMES games each): every version, teams, check mode
    ("v1 2p search_fast greedy", 2, ["search_fast", "greedy"], {"version": 1}, None, False),
    ("v2 4p search_fast random teams", 4, ["search_fast", "random", "greedy", "random"],
     {"version": 2, "teams": True, "search_determinizations": 4}, None, False),
    ("v3 4p search greedy check", 4, ["search", "greedy", "random", "greedy"],
     {"version": 3, "search_determinizations": 2}, None, True),
    ("v3 4p ismcts greedy", 4, ["ismcts", "greedy", "random", "greedy"],
     {"version": 3, "search_iterations": 16}, None, False),
]
TALISMAN = []
for P in (2, 3, 4):
    for pol in ("greedy", "patient", "random"):
        TALISMAN.append((f"{P}p {pol}", P, [pol], {}, None, False))
TALISMAN += [
    ("3p mixed", 3, ["greedy", "patient", "random"], {}, None, False),
    ("2p greedy check", 2, ["greedy"], {}, None, True),
    ("3p random hp=40 check", 3, ["random"], {"hp": 40}, None, True),
    ("2p greedy forbid", 2, ["greedy"], {}, {"thunder": "forbid"}, False),
    ("2p greedy remove", 2, ["greedy"], {}, {"steal": "remove"}, False),
    ("2p search greedy", 2, ["search", "greedy"], {}, None, False),
    ("3p search_fast oracle random check", 3, ["search_fast", "oracle", "random"],
     {"search_determinizations": 2}, None, True),
    ("2p ismcts greedy", 2, ["ismcts", "greedy"], {"search_iterations": 16}, None, False),
]
DEMON = [(f"2p {pol}", 2, [pol], {}, None, False) for pol in ("greedy", "defensive", "random")]
DEMON += [
    ("2p greedy random", 2, ["greedy", "random"], {}, None, False),
    ("2p defensive greedy", 2, ["defensive", "greedy"], {}, None, False),
    ("2p greedy check", 2, ["greedy"], {}, None, True),
    ("2p random check", 2, ["random"], {}, None, True),
    ("2p greedy hp=100 passive=3", 2, ["greedy"], {"hp": 100, "passive_damage": 3}, None, False),
    ("2p greedy k2=4 draw=3 keep=3", 2, ["greedy"],
     {"k_option2_points": 4, "draw_per_turn": 3, "hand_keep": 3}, None, False),
    ("2p greedy forbid", 2, ["greedy"], {}, {"big-joker": "forbid", "diamond-Q": "forbid"}, False),
    ("2p random remove", 2, ["random"], {}, {"small-joker": "remove", "club-K": "remove"}, False),
    ("2p ismcts greedy", 2, ["ismcts", "greedy"], {"search_iterations": 16}, None, False),
]
SCHOOL = [(f"{P}p {pol}", P, [pol], {}, None, False) for P in (3, 5, 8)
          for pol in ("informed", "random")]
SCHOOL += [
    ("4p informed random", 4, ["informed", "random", "random", "informed"], {}, None, False),
    ("3p informed check", 3, ["informed"], {}, None, True),
    ("5p random hand_limit=6 check", 5, ["random"], {"hand_limit": 6}, None, True),
    ("4p informed forbid", 4, ["informed"], {}, {"spade-A": "forbid", "heart-Q": "forbid"}, False),
    ("4p informed remove", 4, ["informed"], {}, {"club-7": "remove"}, False),
    ("3p search_fast informed", 3, ["search_fast", "informed", "informed"],
     {"search_determinizations": 4}, None, False),
    ("3p ismcts informed", 3, ["ismcts", "informed", "random"], {"search_iterations": 16},
     None, False),
]
RESONANCE = [(f"{P}p {pol}", P, [pol], {}, None, False) for P in (3, 4, 6)
             for pol in ("counter", "saboteur", "random")]
RESONANCE += [
    ("4p counter saboteur random", 4, ["counter", "saboteur", "random", "counter"], {},
     None, False),
    ("3p counter check", 3, ["counter"], {}, None, True),
    ("4p random markers=30 check", 4, ["random"], {"markers": 30}, None, True),
    ("4p counter forbid", 4, ["counter"], {}, {"red-2": "forbid"}, False),
    ("4p counter remove", 4, ["counter"], {}, {"blue--2": "remove"}, False),
    ("3p search_fast counter", 3, ["search_fast", "counter", "saboteur"],
     {"search_determinizations": 4}, None, False),
    ("3p ismcts counter", 3, ["ismcts", "counter", "random"], {"search_iterations": 16},
     None, False),
]
RULESETS = ("elite", "talisman", "demon", "school", "resonance")
SEARCH_GAMES = {"elite": 40, "school": 60, "resonance": 60}
ISMCTS_GAMES = 40               # every ruleset's ISMCTS configuration


def digest(b) -> str:
    h = hashlib.sha256()
    for a in (b.games, b.seats, b.masks, b.counts):
        h.update(np.ascontiguousarray(a).tobytes())
    if b.errors is not None:
        h.update(np.ascontiguousarray(b.errors).tobytes())
    return h.hexdigest()[:16]


def hashes(rulesets) -> dict:
    out = {}
    for name, configs in (("elite", ELITE), ("talisman", TALISMAN), ("demon", DEMON),
                          ("school", SCHOOL), ("resonance", RESONANCE)):
        if name not in rulesets:
            continue
        for label, P, pols, params, ban, check in configs:
            if ban:
                from balance.core import registry
                kinds = registry.get(name).card_kinds(registry.get(name).space.resolve(params))
                ban = {k: m for k, m in ban.items() if k in kinds}
            s = runner.setup(name, seed=7, players=P, policies=pols, params=params, ban=ban)
            n = GAMES[name]
            if name in SEARCH_GAMES and any(p.startswith("search") for p in pols):
                n = SEARCH_GAMES[name]
            if "ismcts" in pols:
                n = ISMCTS_GAMES
            b = runner.play_range(s, 0, n, progress=False, check=check)
            out[f"{name} {label}"] = digest(b)
            print(f"{name} {label}: {out[f'{name} {label}']}", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the hashes to this JSON file")
    ap.add_argument("--compare", help="compare with hashes recorded in this JSON file")
    ap.add_argument("--ruleset", action="append", choices=RULESETS,
                    help="only these rulesets (default: all five)")
    a = ap.parse_args(argv)
    got = hashes(a.ruleset or RULESETS)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
    if a.compare:
        with open(a.compare) as f:
            want = json.load(f)
        diff = [k for k in got if k in want and want[k] != got[k]]
        missing = [k for k in got if k not in want]
        print(f"{len(got) - len(diff) - len(missing)} identical, {len(diff)} changed"
              + (f", {len(missing)} not recorded" if missing else ""))
        for k in diff:
            print(f"  CHANGED {k}: {want[k]} -> {got[k]}")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
