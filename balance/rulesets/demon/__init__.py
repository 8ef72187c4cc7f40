"""Demon Faction 魔族阵营 (contract: docs/rules/demon.md)."""

from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace


def kernel_args(values, ban):
    """The kernel's arrays after the policy ids: the int rule parameters
    followed by the int policy parameters (the search budgets, at
    ``rules.N_RULE_INTS + rules.PIDX[name]``), the float policy parameters,
    the ban codes."""
    return (*SPEC.space.kernel_vectors(values), ban)


# (label, seat column): each face-card effect, joker option and clash choice
EFFECTS = (
    ("J placed", "j_placed"), ("J fired (a card went)", "j_fired"),
    ("Q placed", "q_placed"), ("Q offered (its attack destroyed)", "q_chances"),
    ("Q option 1 (mean value)", "q_opt1"), ("Q option 2 (lower card)", "q_opt2"),
    ("K placed", "k_placed"), ("K offered (points, an option legal)", "k_chances"),
    ("K option 1 (value = points)", "k_opt1"), ("K option 2 (any card, K goes)", "k_opt2"),
    ("♥ face card", "heart_faces"), ("extra-slot card", "slots"), ("pair placement", "pairs"),
    ("big joker played", "big_joker"), ("big joker heal (empty row)", "joker_heals"),
    ("big joker row: normal attack", "joker_normal"),
    ("big joker effect", "joker_effects"),
    ("small joker, own turn", "small_joker"), ("small joker, reply", "small_replies"),
    ("clash: yielded", "clash_yield"), ("clash: laid down", "clash_lay"),
    ("clash won", "clashes_won"), ("clash lost", "clashes_lost"))


# damage taken by cause, in layout.CAUSES order (heal excluded)
TAKEN = ("attack_taken", "passive_taken", "j_taken", "direct_taken", "clash_taken",
         "reply_taken")


def _rate(a, b):
    return float(a / b) if b else float("nan")


def _summary(result):
    """The ruleset's own tables (report.md "Ruleset figures"): attacks per
    row with their success rate (an attack *hits* when it destroyed a card
    or hit the player), damage by cause with the demon passive's share, how
    the games ended (the cause of the last HP loss), and for each face-card
    effect, joker option and clash choice: uses per game, the share of seats
    using it, and the win rate of seats that did vs did not (observational)."""
    from .layout import CAUSES
    g, s = result.games, result.seats
    n = max(len(g), 1)
    attack_rows = []
    for r in (1, 2, 3):
        a = s[f"attacks_row{r}"].sum()
        attack_rows.append({
            "row": r, "attacks_per_game": float(a / n),
            "success_rate": _rate(s[f"hits_row{r}"].sum(), a),
            "destroyed_per_game": float(s[f"destroyed_row{r}"].sum() / n),
            "direct_hits_per_game": float(s[f"direct_hits_row{r}"].sum() / n),
            "direct_damage_per_game": float(s[f"direct_row{r}"].sum() / n)})
    total = s["damage_taken"].sum()
    damage = [{"cause": c, "per_game": float(s[col].sum() / n),
               "share_of_damage": _rate(s[col].sum(), total)}
              for c, col in zip(CAUSES, TAKEN)]
    ends = []
    for (reason, cause), k in g.groupby(["end_reason", "end_cause"]).size().items():
        ends.append({"end_reason": reason,
                     "last_hp_loss": CAUSES[cause] if cause >= 0 else "none",
                     "share_of_games": float(k / n)})
    effects = []
    for label, c in EFFECTS:
        used = s[c] > 0
        effects.append({
            "effect": label, "per_game": float(s[c].sum() / n),
            "seats_using": float(used.mean()) if len(s) else float("nan"),
            "win_if_used": float(s.loc[used, "won"].mean()) if used.any() else float("nan"),
            "win_if_not": float(s.loc[~used, "won"].mean()) if (~used).any() else float("nan")})
    hits = sum(s[f"hits_row{r}"].sum() for r in (1, 2, 3))
    atts = sum(s[f"attacks_row{r}"].sum() for r in (1, 2, 3))
    return {"decisions_per_game": float(g["decisions"].mean()),
            "attacks_per_game": float(g["attacks"].mean()),
            "attack_success_rate": _rate(hits, atts),
            "passive_share_of_damage": _rate(s["passive_taken"].sum(), total),
            "draw_share": float((g["end_reason"] == "draw").mean()),
            "stalemate_share": float((g["end_reason"] == "stalemate").mean()),
            "attack_rows": attack_rows, "damage_by_cause": damage, "how_games_end": ends,
            "effects": effects}


SPEC = RulesetSpec.from_package(
    rules, layout,
    name="demon",
    title="魔族阵营 Demon Faction",
    version=lambda values: "1",
    players=(2, 2),
    kernel="balance.rulesets.demon.kernel",
    kernel_args=kernel_args,
    format_trace=format_trace,
    docs="balance/rulesets/demon/README.md",
    ban_modes=("remove", "forbid"),
    summary=_summary,
    check_values=lambda values, n: _check(values),
    compile_time="about 20-30 s",
    headline=("hp", "passive_damage", "big_joker_heal"),
    bench=({"label": "demon 2p greedy", "players": 2, "policies": ["greedy"]},
           {"label": "demon 2p random", "players": 2, "policies": ["random"]}),
)


def _check(values):
    from ...core.errors import BalanceError
    if values["hand_keep"] >= values["hand_trigger"]:
        raise BalanceError(f"hand_keep ({values['hand_keep']}) must be below hand_trigger "
                           f"({values['hand_trigger']})")


__all__ = ["SPEC", "kernel_args", "np"]
