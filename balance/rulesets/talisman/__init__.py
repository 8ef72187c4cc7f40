"""Talisman Poker 符咒游戏 (contract: shared/rules/talisman.md)."""
import numpy as np

from ...core.parallel import run_blocks
from ...core.params import ParamSpace, to_kernel
from ...core.records import Batch, alloc, ban_vector
from ...core.registry import RulesetSpec
from . import rules
from .replay import format_trace


def _vectors(values):
    space = SPEC.space
    ip, _ = to_kernel(space.rules(values))
    _, pp = to_kernel(space.policy(values))
    return ip, pp


def simulate_range(values, seed, start, stop, n_players, policy_ids, check=False, ban=None):
    from . import kernel
    ip, pp = _vectors(values)
    n = stop - start
    K = len(rules.card_kinds(values))
    games, seats, masks, counts = alloc(n, n_players, kernel.NG, kernel.NSEAT, K)
    errors = np.zeros(n, np.int64)
    run_blocks(kernel.run_batch, n, np.uint64(seed), np.int64(start), np.int64(n),
               np.int64(n_players), np.ascontiguousarray(policy_ids, dtype=np.int64), ip, pp,
               ban_vector(ban, K), bool(check), games, seats, masks, counts, errors)
    return Batch(start, games, seats, masks, counts.sum(axis=0), errors)


def trace_game(values, seed, game, n_players, policy_ids, ban=None):
    from . import kernel
    ip, pp = _vectors(values)
    K = len(rules.card_kinds(values))
    games, seats, masks, counts = alloc(1, n_players, kernel.NG, kernel.NSEAT, K)
    tr = np.zeros((values["max_turns"] * 24 + 256, 8), np.int64)
    n = kernel.trace_one(np.uint64(seed), np.int64(game), np.int64(n_players),
                         np.ascontiguousarray(policy_ids, dtype=np.int64), ip, pp,
                         ban_vector(ban, K), games, seats, masks, counts, tr)
    return Batch(game, games, seats, masks, counts.sum(axis=0)), tr[:n]


def _kernels():
    """The compiled entry points (``core.jit``): batches, and traced games."""
    from . import kernel
    return {"run": kernel.play_blocks, "replay": kernel._trace_one}


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
    game_columns=("winner", "turns", "rounds", "end_reason", "combos", "casts"),
    seat_columns=("hp", "out_turn", "damage_dealt", "healed", "combos", "casts", "guards_left"),
    end_reasons=rules.END_REASONS,
    simulate_range=simulate_range,
    trace_game=trace_game,
    format_trace=format_trace,
    docs="balance/rulesets/talisman/README.md",
    ban_modes=("remove", "forbid"),
    extra={"summary": _summary, "kernels": _kernels, "compile_time": "about 20 s",
           "headline": ("hp", "thunder_damage", "generating_per_card"),
           "bench": [
               {"label": "talisman 2p greedy", "players": 2, "policies": ["greedy"]},
               {"label": "talisman 2p random", "players": 2, "policies": ["random"]},
           ]},
)
