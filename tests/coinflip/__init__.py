"""A throwaway ruleset (tests only): seats flip coins in turn, first to
``target`` heads wins. It proves the contract (core.spec) is enough: it is
registered under a temporary entry and runs through run, replay and report."""
from dataclasses import dataclass

from balance.core.params import ParamSpace, param
from balance.core.spec import RulesetSpec


@dataclass(frozen=True)
class Params:
    target: int = param(3, doc="heads to win", bounds=(1, 50), sweep=(2, 4))
    max_turns: int = param(1000, doc="turn cap", bounds=(1, 10_000))
    # tests/test_sensitivity.py: a parameter of known effect and one of none
    bias: int = param(0, doc="seat 0's coin lands heads with probability (50 + this)% "
                             "(0: the fair coin, and the same flips as without it)",
                      bounds=(-40, 40), sweep=(-10, 10, 20))
    inert: int = param(0, doc="read by no rule: a parameter with no effect", bounds=(0, 100),
                       sweep=(1, 50))


@dataclass(frozen=True)
class PolicyParams:
    # tests/test_variants.py: a policy "skill" of known effect, read per seat
    luck: float = param(0.0, doc="the seat's coin lands heads with probability (50 + this)% "
                                 "(0: the fair coin, and the same flips as without it)",
                        bounds=(0.0, 40.0), sweep=(0.0, 10.0, 20.0))


SPEC = RulesetSpec(
    name="coin", title="Coin flip", version=lambda v: "1", players=(2, 3),
    space=ParamSpace(Params, PolicyParams), policies={"steady": 0, "bold": 1},
    policy_docs={"steady": "flips once", "bold": "flips twice, scores only on two heads"},
    card_kinds=lambda v: ["tails", "heads"], game_columns=("winner", "turns", "rounds", "end_reason"),
    seat_columns=("heads",), end_reasons=("target", "turn_cap"),
    kernel=__name__ + ".kernel", kernel_args=lambda v, ban: SPEC.space.vectors(v),
    format_trace=lambda ev, v, P, pol: [f"turn {t}: P{p} flips {'heads' if c else 'tails'}, {h} heads"
                                        for _, t, p, c, h, *_ in ev.tolist()],
    compile_time="a few seconds", headline=("target",), docs="tests/coinflip/__init__.py",
    bench=({"label": "coin 2p", "players": 2, "policies": ["steady"]},))
