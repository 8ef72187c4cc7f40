"""Demon Faction 魔族阵营 (contract: shared/rules/demon.md)."""
import numpy as np

from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace


USES = ("j_placed", "q_placed", "k_placed", "heart_faces", "q_fired", "k_fired", "slots",
        "pairs", "big_joker", "joker_heals", "joker_effects", "small_joker", "small_replies")


def _summary(result):
    """Per-row attack figures, and for each face-card and joker use: how
    often a seat used it, and the win rate of the seats that did vs did not."""
    g, s = result.games, result.seats
    n = max(len(g), 1)
    rows = {}
    for r in (1, 2, 3):
        rows[f"row{r}"] = {
            "attacks_per_game": float(s[f"attacks_row{r}"].sum() / n),
            "destroyed_per_game": float(s[f"destroyed_row{r}"].sum() / n),
            "direct_damage_per_game": float(s[f"direct_row{r}"].sum() / n)}
    uses = {}
    for c in USES:
        used = s[c] > 0
        uses[c] = {"per_game": float(s[c].sum() / n),
                   "seats_using": float(used.mean()) if len(s) else float("nan"),
                   "win_rate_if_used": float(s.loc[used, "won"].mean()) if used.any() else None,
                   "win_rate_if_not": float(s.loc[~used, "won"].mean()) if (~used).any() else None}
    return {"decisions_per_game": float(g["decisions"].mean()),
            "attacks_per_game": float(g["attacks"].mean()),
            "stalemate_share": float((g["end_reason"] == "stalemate").mean()),
            "rows": rows, "uses": uses}


SPEC = RulesetSpec.from_package(
    rules, layout,
    name="demon",
    title="魔族阵营 Demon Faction",
    version=lambda values: "1",
    players=(2, 2),
    kernel="balance.rulesets.demon.kernel",
    format_trace=format_trace,
    docs="balance/rulesets/demon/README.md",
    ban_modes=("remove", "forbid"),
    summary=_summary,
    check_values=lambda values, n: _check(values),
    compile_time="about 25 s",
    headline=("hp", "passive_damage", "big_joker_heal"),
    bench=({"label": "demon 2p greedy", "players": 2, "policies": ["greedy"]},
           {"label": "demon 2p random", "players": 2, "policies": ["random"]}),
)


def _check(values):
    from ...core.errors import BalanceError
    if values["hand_keep"] >= values["hand_trigger"]:
        raise BalanceError(f"hand_keep ({values['hand_keep']}) must be below hand_trigger "
                           f"({values['hand_trigger']})")


__all__ = ["SPEC", "np"]
