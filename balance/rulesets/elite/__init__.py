"""Magic Elite 魔法精英, versions 1, 2 and 3 (contract: docs/rules/elite.md)."""
import numpy as np

from ...core.params import ParamSpace
from ...core.spec import RulesetSpec
from . import rules
from .layout import GAME_COLUMNS, SEAT_COLUMNS
from .replay import format_trace


def kernel_args(values, ban):
    """The kernel's arrays after the policy ids: int parameters + the ban
    code of each card kind + the int policy parameters (the search's), float
    policy parameters + greedy's value of each run itself, the play table
    and the play ids (``rules.play_table``)."""
    from ...core.params import to_kernel
    ip, pp = SPEC.space.vectors(values)
    pint = to_kernel(SPEC.space.policy(values))[0]      # the search's int parameters
    PT, PID = rules.play_table(values)
    return (np.concatenate([ip, ban, pint]), np.concatenate([pp, rules.run_values(pp, PT)]),
            PT, PID)


def _summary(result):
    """Headline figures: v2 scores, points per kill, team results, Judgment
    self-kills; v1 revives and frames; exchange lengths for both."""
    from ...core import stats
    g, s = result.games, result.seats
    values = result.setup.values
    n = len(g)
    out = {"exchanges_per_game": float(g["exchanges"].mean()),
           "max_chain_mean": float(g["max_chain"].mean()),
           "capped_exchanges_per_game": float(g["capped_exchanges"].mean())}
    # the first mover's win rate is the core's ``first_mover`` (read from
    # first_seat, shared wins counted, with its interval), not a figure here
    if values["version"] == 3:
        out.update(_summary_v3(result))
        return out
    if values["version"] == 1:
        out["revives_per_game"] = float(g["revives"].mean())
        out["frames_per_game"] = float(g["frames"].mean())
        return out
    sc = s["score"].to_numpy()
    q = np.quantile(sc, [0.1, 0.25, 0.5, 0.75, 0.9]) if sc.size else [float("nan")] * 5
    kills = int(g["scoring_kills"].sum())
    jk = int(g["judgment_kills"].sum())
    out.update({
        "score": {"mean": float(sc.mean()) if sc.size else float("nan"),
                  "q10": float(q[0]), "q25": float(q[1]), "median": float(q[2]),
                  "q75": float(q[3]), "q90": float(q[4])},
        "points_per_kill": float(g["kill_points"].sum() / kills) if kills else float("nan"),
        "scoring_kills_per_game": kills / n if n else float("nan"),
        "judgments_per_game": float(g["judgments"].mean()),
        "judgment_kills": jk,
        "judgment_self_kill_share": float(g["judgment_self_kills"].sum() / jk) if jk else float("nan"),
        "last_standing_is_winner": float((g["last_standing"] == g["winner"]).mean()),
        "shields_per_game": float(g["shields"].mean()),
        "controls_per_game": float(g["controls"].mean()),
        "decoy_hits_per_game": float(g["decoy_hits"].mean()),
    })
    if values["teams"] and result.setup.n_players == 4:
        tw = g["team_winner"].to_numpy()
        teams = {}
        for t, label in ((0, "seats 0+2"), (1, "seats 1+3")):
            k = int((tw == t).sum())
            lo, hi = stats.wilson(k, n)
            teams[label] = {"wins": k, "win_rate": k / n if n else float("nan"),
                            "ci_low": float(lo), "ci_high": float(hi)}
        d = int((tw < 0).sum())
        teams["draws"] = {"count": d, "share": d / n if n else float("nan")}
        out["teams"] = teams
    return out


V3_FIRED = (("reflect shield (7)", "reflects"), ("rampage shield (9)", "rampages"),
            ("devouring shield (10)", "devours"), ("freezing shield (8)", "freezes"),
            ("bloodthirst (8)", "bloodthirsts"), ("glutton ignore (7)", "ignores"),
            ("glutton HP extension (7)", "extensions"), ("glutton mine (7)", "mines"),
            ("devour steals a skill (10)", "steals"))


def _summary_v3(result):
    """v3 figures: win rate per character (95 % Wilson intervals), each
    shield and skill (how often fired, win rate of the seats that fired it),
    deaths by cause, revives, duels and their winners, diamonds, shop."""
    from ...core import stats
    g, s = result.games, result.seats
    n = len(g)
    roles = rules.roles(result.setup.values)
    slugs = SPEC.role_names(result.setup.values)    # the seats table's role names

    def rate(k, m):
        lo, hi = stats.wilson(int(k), int(m)) if m else (float("nan"), float("nan"))
        return {"n": int(m), "wins": int(k), "win_rate": k / m if m else float("nan"),
                "ci_low": float(lo), "ci_high": float(hi)}

    role = s["role"].astype(str)
    out = {"win_rate_by_character": {roles[r]: rate(s.loc[role == slugs[r], "won"].sum(),
                                                    (role == slugs[r]).sum())
                                     for r in (7, 8, 9, 10)}}
    # the rules let a zombie share its master's win; without those wins:
    own = s["won"].astype(bool) & (s["zombie"] == 0)
    out["win_rate_by_character_excluding_zombie_wins"] = {
        roles[r]: rate(own[role == slugs[r]].sum(), (role == slugs[r]).sum()) for r in (7, 8, 9, 10)}
    fired = {}
    for label, col in V3_FIRED:
        by = s[s[col] > 0]
        fired[label] = {"per_game": float(s[col].sum() / n) if n else float("nan"),
                        "games_fired": float((s.groupby("game")[col].sum() > 0).mean()),
                        "firer": rate(by["won"].sum(), len(by))}
    out["shields_and_skills"] = fired
    out["deaths_per_game"] = {c: float(g[f"deaths_{c}"].mean())
                              for c in ("exchange", "reflect", "bloodthirst", "mine", "duel")}
    out["revives_per_game"] = {"storm_god": float(g["storm_gods"].mean()),
                               "pouch": float(g["pouches"].mean()),
                               "leopard_dodges": float(g["leopard_dodges"].mean())}
    won = s.groupby(role)["duels_won"].sum()
    lost = s.groupby(role)["duels_lost"].sum()
    out["duels"] = {"per_game": float(g["duels"].mean()),
                    "games_with_a_duel": float((g["duels"] > 0).mean()),
                    "capped_share": float(g["capped_duels"].sum() / max(g["duels"].sum(), 1)),
                    "won_by_character": {roles[r]: int(won.get(slugs[r], 0)) for r in (7, 8, 9, 10)},
                    "lost_by_character": {roles[r]: int(lost.get(slugs[r], 0))
                                          for r in (7, 8, 9, 10)},
                    "zombies_per_game": float(g["zombies"].mean()),
                    "kit_saves_per_game": float(g["kit_saves"].mean())}
    d = s["diamonds"].to_numpy()
    q = np.quantile(d, [0.1, 0.25, 0.5, 0.75, 0.9]) if d.size else [float("nan")] * 5
    out["diamonds_at_end"] = {"mean": float(d.mean()) if d.size else float("nan"),
                              "q10": float(q[0]), "q25": float(q[1]), "median": float(q[2]),
                              "q75": float(q[3]), "q90": float(q[4]),
                              "max": int(d.max()) if d.size else 0,
                              "negative_share": float((d < 0).mean()) if d.size else float("nan"),
                              "gift_packs_per_game": float(g["gift_packs"].mean()),
                              "mines_hit_per_game": float(g["mines_hit"].mean())}
    out["shop_per_game"] = {"leopard": float(g["buy_leopard"].mean()),
                            "dragon": float(g["buy_dragon"].mean()),
                            "birds": float(g["buy_birds"].mean()),
                            "medical_kit": float(g["buy_kit"].mean()),
                            "games_with_a_purchase": float(
                                ((g["buy_leopard"] + g["buy_dragon"] + g["buy_birds"]
                                  + g["buy_kit"]) > 0).mean())}
    out["reflects_per_game"] = float(g["reflects"].mean())
    out["reflect_blocks_per_game"] = float(g["reflect_blocks"].mean())
    return out


BENCH = (   # "games": per measurement in scripts/bench.py (elite games are long)
    {"label": "elite v1 4p greedy", "players": 4, "policies": ["greedy"], "params": {"version": 1},
     "games": 40_000},
    {"label": "elite v2 4p greedy", "players": 4, "policies": ["greedy"], "params": {"version": 2},
     "games": 5_000},
    {"label": "elite v2 4p greedy teams", "players": 4, "policies": ["greedy"],
     "params": {"version": 2, "teams": True}, "games": 5_000},
    {"label": "elite v1 2p random", "players": 2, "policies": ["random"], "params": {"version": 1},
     "games": 40_000},
    {"label": "elite v3 4p greedy", "players": 4, "policies": ["greedy"], "params": {"version": 3},
     "games": 20_000},
    # random scores no option: the cost of a play without greedy's scoring (README, Speed)
    {"label": "elite v1 4p random", "players": 4, "policies": ["random"], "params": {"version": 1},
     "games": 40_000},
    {"label": "elite v2 4p random", "players": 4, "policies": ["random"], "params": {"version": 2},
     "games": 10_000},
    {"label": "elite v3 4p random", "players": 4, "policies": ["random"], "params": {"version": 3},
     "games": 20_000},
)

SPEC = RulesetSpec(
    name="elite",
    title="魔法精英 Magic Elite",
    version=lambda values: str(values["version"]),
    players=(2, 4),
    space=ParamSpace(rules.Params, rules.PolicyParams),
    policies=rules.POLICIES,
    policy_docs=rules.POLICY_DOCS,
    card_kinds=rules.card_kinds,
    game_columns=GAME_COLUMNS,
    seat_columns=SEAT_COLUMNS,
    end_reasons=rules.END_REASONS,
    kernel="balance.rulesets.elite.kernel",     # per version: engine_v12 or engine_v3
    kernel_args=kernel_args,
    trace_rows=1 << 16,
    format_trace=format_trace,
    check_values=rules.check_values,
    roles=rules.roles,
    ban_modes=("remove", "forbid"),
    docs="balance/rulesets/elite/README.md",
    summary=_summary,
    bench=BENCH,
    compile_time="about 40-50 s",
    turn_order="by identity: rank 10>9>8>7, then suit; ties at random (first_seat records it)",
    card_groups=("suit", "rank"),
    headline=("reflect_multiplier", "rampage_multiplier", "kingkong_multiplier",
              "dragon_multiplier"),
    # the character each headline multiplier belongs to: the report's skill
    # section follows its win rate at the sweep's end points (the reflect
    # question: is the Glutton overpowered at x10000?)
    headline_roles={"reflect_multiplier": "glutton", "rampage_multiplier": "rampage",
                    "kingkong_multiplier": "king_kong"},
)


def _by_version() -> dict:
    """The rule parameters by the section of rules.Params they are declared
    in: ``general`` (every version), then one group per version (their doc
    lines start with it: "v3 ...")."""
    groups = {"general": [], "v1": [], "v2": [], "v3": []}
    for name, info in SPEC.space.infos.items():
        if info.group != "rule":
            continue
        tag = info.doc.split()[0].rstrip(":,")
        groups[tag if tag in groups else "general"].append(name)
    return {k: tuple(v) for k, v in groups.items()}


# `balance sensitivity elite --params v3`: the parameters of one rules version
PARAM_GROUPS = _by_version()

# game columns printed beside a parameter's effect in `balance sensitivity`
# (the mechanism: a multiplier that moves no win rate, and what it changed)
PARAM_DIAGNOSTICS = {
    "reflect_multiplier": ("reflects", "deaths_reflect", "reflect_blocks"),
    "storm_gods": ("storm_gods",), "pouches": ("pouches",),
    "duel_base": ("duels",), "duel_penalty": ("duels",),
    "max_duel_plays": ("duels", "capped_duels"),
    "gift_pack": ("gift_packs",),
    "leopard_price": ("buy_leopard", "leopard_dodges"),
    "dragon_price": ("buy_dragon",), "dragon_multiplier": ("buy_dragon",),
    "dragon_rounds": ("buy_dragon",),
    "birds_price": ("buy_birds",), "birds_yield": ("buy_birds",), "birds_rounds": ("buy_birds",),
    "kit_price": ("buy_kit", "kit_saves"),
    "glutton_mines": ("mines_hit", "deaths_mine"), "mine_diamonds": ("mines_hit",),
    "bloodthirst_uses": ("deaths_bloodthirst",), "bloodthirst_rounds": ("deaths_bloodthirst",),
    "bloodthirst_damage": ("deaths_bloodthirst",),
    "kingkong_divisor": ("deaths_exchange",), "kingkong_multiplier": ("deaths_exchange",),
    "rampage_multiplier": ("deaths_exchange",), "glutton_ignore": ("deaths_exchange",),
}
