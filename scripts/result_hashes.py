"""Hash the tables of fixed configurations, to show that a refactor or a
speed change leaves every result identical.

    python scripts/result_hashes.py --compare           # check against the committed baseline
    python scripts/result_hashes.py --write             # record a planned change of results
    python scripts/result_hashes.py --out before.json   # or any file: --compare before.json

The configurations are derived from each ruleset's spec (``derived``: its
bench configurations, check mode, bans in each mode, every heuristic at the
fewest and most players, the heuristics mixed, a policy variant, every
search policy at a small budget) plus ``EXTRA``, the rule numbers at their
edges that a spec cannot name. The committed baseline is
``tests/golden/result_hashes.json``; ``tests/test_result_hashes.py`` checks
it in the suite (OpenSpiel's golden playthroughs do the same). Each hash
covers the game and seat tables, the draw/play masks, the card counts and,
in check mode, the error counts.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from balance.core.play import play_range
from balance.core.setup import setup

GAMES = {"elite": 600, "talisman": 3000, "demon": 3000, "school": 2000, "resonance": 2000}
SEARCH_GAMES = {"elite": 40, "talisman": 300, "demon": 200, "school": 60, "resonance": 60}
SMALL_SEARCH = {"search_determinizations": 2, "search_rollouts": 1, "search_top_k": 2,
                "search_rollout_turns": 20, "search_iterations": 16}

# What a derivation from the spec cannot know: each ruleset's own rule
# numbers at the edges (elite's versions, teams and 10**12 multipliers, ...).
# (label, players, policies, params, ban, check)
EXTRA = {
    "elite": [(f"v{v} {P}p {pol}", P, [pol], {"version": v}, None, False)
              for v in (1, 2, 3) for P in (2, 3) for pol in ("greedy", "random")] + [
        ("v2 4p greedy teams check", 4, ["greedy"], {"version": 2, "teams": True}, None, True),
        ("v3 4p greedy x1e12", 4, ["greedy"], {"version": 3, "reflect_multiplier": 10**12,
                                               "rampage_multiplier": 10**12}, None, False),
        ("v1 4p greedy max_exchange=5", 4, ["greedy"], {"version": 1, "max_exchange": 5},
         None, False),
        ("v2 3p greedy six_j_adjacent", 3, ["greedy"], {"version": 2, "six_j_adjacent": True},
         None, False),
        ("v1 2p search_fast greedy", 2, ["search_fast", "greedy"], {"version": 1}, None, False),
        ("v2 4p search_fast random teams", 4, ["search_fast", "random", "greedy", "random"],
         {"version": 2, "teams": True}, None, False),
    ],
    "talisman": [("3p random hp=40 check", 3, ["random"], {"hp": 40}, None, True)],
    "demon": [("2p greedy hp=100 passive=3", 2, ["greedy"], {"hp": 100, "passive_damage": 3},
               None, False),
              ("2p greedy k2=4 draw=3 keep=3", 2, ["greedy"],
               {"k_option2_points": 4, "draw_per_turn": 3, "hand_keep": 3}, None, False)],
    "school": [("5p random hand_limit=6 check", 5, ["random"], {"hand_limit": 6}, None, True)],
    "resonance": [("4p random markers=30 check", 4, ["random"], {"markers": 30}, None, True)],
}


def derived(name: str) -> list:
    """The configurations every ruleset gets from its spec: each bench
    configuration, and the first in check mode and with its last card kind
    banned in each supported mode; every heuristic alone at the fewest and
    the most players; the heuristics mixed; a variant of the main
    heuristic (its first float policy parameter at its last sweep value) at
    seat 0; every search policy against the heuristics at the fewest players
    (a small budget)."""
    from balance.core import registry
    from balance.core.search import is_search
    spec = registry.get(name)
    out = []
    for b in spec.bench:
        label = b["label"][len(name) + 1:] if b["label"].startswith(name + " ") else b["label"]
        out.append((label, b["players"], list(b["policies"]), dict(b.get("params", {})),
                    None, False))
    label, P, pols, params, _, _ = out[0]
    out.append((f"{label} check", P, pols, params, None, True))
    kinds = spec.card_kinds(spec.space.resolve(params))
    for mode in spec.ban_modes:
        out.append((f"{label} {mode} {kinds[-1]}", P, pols, params, {kinds[-1]: mode}, False))
    heur = [p for p in spec.policies if not is_search(p)]
    lo, hi = spec.players
    for n in sorted({lo, hi}):
        out += [(f"{n}p {p}", n, [p], {}, None, False) for p in heur]
    n = max(lo, min(hi, len(heur)))
    out.append((f"{n}p mixed", n, [heur[i % len(heur)] for i in range(n)], {}, None, False))
    main = pols[0]
    floats = [i for i in spec.space.infos.values() if i.group == "policy" and i.kind is float]
    v = floats[0].sweep[-1] if floats[0].sweep else floats[0].bounds[1]
    out.append((f"{P}p {main} variant at seat 0", P,
                [f"{main}[{floats[0].name}={v}]"] + [main] * (P - 1), params, None, False))
    small = {k: v for k, v in SMALL_SEARCH.items() if k in spec.space.infos}
    for p in spec.policies:
        if is_search(p):
            lineup = [p] + [heur[i % len(heur)] for i in range(1, lo)]
            out.append((f"{lo}p {p} {' '.join(lineup[1:])}", lo, lineup, small, None, False))
    return out


def configs(name: str) -> list:
    """``derived`` then ``EXTRA``, each label once."""
    out, seen = [], set()
    for c in derived(name) + EXTRA.get(name, []):
        if c[0] not in seen:
            seen.add(c[0])
            out.append(c)
    return out


RULESETS = ("elite", "talisman", "demon", "school", "resonance")
GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "result_hashes.json"


def digest(b) -> str:
    h = hashlib.sha256()
    for a in (b.games, b.seats, b.masks, b.counts):
        h.update(np.ascontiguousarray(a).tobytes())
    if b.errors is not None:
        h.update(np.ascontiguousarray(b.errors).tobytes())
    return h.hexdigest()[:16]


def hashes(rulesets) -> dict:
    from balance.core.search import is_search
    out = {}
    for name in rulesets:
        for label, P, pols, params, ban, check in configs(name):
            s = setup(name, seed=7, players=P, policies=pols, params=params, ban=ban)
            n = SEARCH_GAMES[name] if any(is_search(p) for p in pols) else GAMES[name]
            b = play_range(s, 0, n, progress=False, check=check)
            out[f"{name} {label}"] = digest(b)
            print(f"{name} {label}: {out[f'{name} {label}']}", flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the hashes to this JSON file")
    ap.add_argument("--write", action="store_true",
                    help=f"write them into the committed baseline ({GOLDEN.name}), merged")
    ap.add_argument("--compare", nargs="?", const=str(GOLDEN),
                    help="compare with hashes recorded in this JSON file (default: the "
                         "committed baseline)")
    ap.add_argument("--ruleset", action="append", choices=RULESETS,
                    help="only these rulesets (default: all five)")
    a = ap.parse_args(argv)
    got = hashes(a.ruleset or RULESETS)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(got, f, indent=1, sort_keys=True)
    if a.write:
        old = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        names = tuple(a.ruleset or RULESETS)
        old = {k: v for k, v in old.items() if k.split(" ", 1)[0] not in names}
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps({**old, **got}, indent=1, sort_keys=True) + "\n")
    if a.compare:
        with open(a.compare) as f:
            want = json.load(f)
        diff = [k for k in got if k in want and want[k] != got[k]]
        missing = [k for k in got if k not in want]
        print(f"{len(got) - len(diff) - len(missing)} identical, {len(diff)} changed"
              + (f", {len(missing)} not recorded" if missing else ""))
        for k in diff:
            print(f"  CHANGED {k}: {want[k]} -> {got[k]}")
        return 1 if diff or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
