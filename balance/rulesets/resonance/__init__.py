"""Magic Resonance 魔法共振 (contract: docs/rules/resonance.md)."""

from ...core.errors import BalanceError
from ...core.spec import RulesetSpec
from . import layout, rules
from .replay import format_trace
from .cards import load_cards


def kernel_args(values, ban, cards=None):
    """The kernel's arrays after the policy ids: the int rule parameters
    followed by the int policy parameters (the search budgets, at
    ``rules.N_RULE_INTS + rules.PIDX[name]``), the float policy parameters,
    the ban code of each card kind, the magic-card table."""
    cards = cards if cards is not None else load_cards()
    return (*SPEC.space.kernel_vectors(values), ban, cards.arrays[0])


def check_values(values, n_players):
    deck = int(rules.deck_counts(values).sum())
    if deck < n_players * values["hand_size"]:
        raise BalanceError(f"hand_size={values['hand_size']}: {n_players} players need "
                           f"{n_players * values['hand_size']} cards, the rune deck holds {deck}")
    if values["end_players_left"] >= n_players:
        raise BalanceError(f"end_players_left={values['end_players_left']} must be below the "
                           f"number of players ({n_players})")


def _summary(result):
    from .tables import summary
    return summary(result)


SPEC = RulesetSpec.from_package(
    rules, layout,
    name="resonance",
    title="魔法共振 Magic Resonance",
    version=lambda values: "1",
    players=(3, 6),
    kernel="balance.rulesets.resonance.kernel",
    kernel_args=kernel_args,
    format_trace=format_trace,
    docs="balance/rulesets/resonance/README.md",
    ban_modes=("remove", "forbid"),
    card_groups=("colour", "value"),
    data_files={"cards": load_cards},
    check_values=check_values,
    summary=_summary,
    compile_time="about 15-20 s",
    headline=("end_total_magic", "fail_discard", "hand_size"),
    bench=({"label": "resonance 4p counter", "players": 4, "policies": ["counter"]},
           {"label": "resonance 4p random", "players": 4, "policies": ["random"]}),
)

__all__ = ["SPEC", "kernel_args", "np"]
