"""Talisman Poker 符咒游戏 (contract: docs/rules/talisman.md)."""

from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace


def kernel_args(values, ban):
    """The kernel's arrays after the policy ids: the int rule parameters
    followed by the int policy parameters (the search budget; slots
    ``rules.QIDX``), the float policy parameters, the ban code of each card
    kind."""
    return (*SPEC.space.kernel_vectors(values), ban)


def _summary(result):
    g = result.games
    return {"combos_per_game": float(g["combos"].mean()),
            "casts_per_game": float(g["casts"].mean())}


SPEC = RulesetSpec.from_package(
    rules, layout,
    name="talisman",
    title="符咒游戏 Talisman Poker",
    version=lambda values: "1",
    players=(2, 4),
    kernel="balance.rulesets.talisman.kernel",
    kernel_args=kernel_args,
    format_trace=format_trace,
    docs="balance/rulesets/talisman/README.md",
    ban_modes=("remove", "forbid"),
    summary=_summary,
    compile_time="about 10-15 s",
    card_groups=("element", "value"),
    headline=("hp", "thunder_damage", "generating_per_card"),
    bench=({"label": "talisman 2p greedy", "players": 2, "policies": ["greedy"]},
           {"label": "talisman 2p random", "players": 2, "policies": ["random"]}),
)
