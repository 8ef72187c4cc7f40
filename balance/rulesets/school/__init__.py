"""Magic School 魔法学校 (contract: docs/rules/school.md)."""

from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace


def kernel_args(values, ban):
    """The kernel's arrays after the policy ids: the int rule parameters
    followed by the int policy parameters (the search budgets, at
    ``rules.N_RULE_INTS + rules.PIDX[name]``), the float policy parameters,
    the ban codes."""
    return (*SPEC.space.kernel_vectors(values), ban)


def _summary(result):
    from .tables import summary
    return summary(result)


SPEC = RulesetSpec.from_package(
    rules, layout,
    name="school",
    title="魔法学校 Magic School",
    version=lambda values: "1",
    players=(3, 8),
    kernel="balance.rulesets.school.kernel",
    kernel_args=kernel_args,
    format_trace=format_trace,
    docs="balance/rulesets/school/README.md",
    ban_modes=("remove", "forbid"),
    summary=_summary,
    roles=lambda values: dict(enumerate(layout.HOUSES)),
    turn_order="the first sage is random (first_seat); each round's turns go from the sage's "
               "left, the sage last; the round's invisible player is the next sage",
    compile_time="about 20-25 s",
    headline=("hand_limit", "fate_cards", "meeting_cards", "setup_score"),
    bench=({"label": "school 4p informed", "players": 4, "policies": ["informed"]},
           {"label": "school 4p random", "players": 4, "policies": ["random"]}),
)
