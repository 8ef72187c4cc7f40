"""Talisman Poker 符咒游戏 (contract: shared/rules/talisman.md)."""
from ...core.params import ParamSpace
from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace


def kernel_args(values, ban):
    """The kernel's arrays after the policy ids: int and float parameters,
    the ban code of each card kind."""
    ip, pp = SPEC.space.vectors(values)
    return ip, pp, ban


def _summary(result):
    g = result.games
    return {"combos_per_game": float(g["combos"].mean()),
            "casts_per_game": float(g["casts"].mean())}


SPEC = RulesetSpec(
    name="talisman",
    title="符咒游戏 Talisman Poker",
    version=lambda values: "1",
    players=(2, 4),
    space=ParamSpace(rules.Params, rules.PolicyParams),
    policies=rules.POLICIES,
    policy_docs=rules.POLICY_DOCS,
    card_kinds=rules.card_kinds,
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    end_reasons=layout.END_REASONS,
    kernel="balance.rulesets.talisman.kernel",
    kernel_args=kernel_args,
    format_trace=format_trace,
    docs="balance/rulesets/talisman/README.md",
    ban_modes=("remove", "forbid"),
    summary=_summary,
    compile_time="about 20 s",
    card_groups=("element", "value"),
    headline=("hp", "thunder_damage", "generating_per_card"),
    bench=({"label": "talisman 2p greedy", "players": 2, "policies": ["greedy"]},
           {"label": "talisman 2p random", "players": 2, "policies": ["random"]}),
)
