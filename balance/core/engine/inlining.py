"""numba inlining cost models the rulesets' step modules share.

``inline=in_batch_loop`` on a step function (``step.apply``) has numba
inline it into the engine's batch loop only (``core.engine.loop``'s
``play_blocks``, with its inlined ``play_game``), where a plain call would
pass the State, Ctx and records (some 150 machine words) at every
decision; everywhere else (the traced game, every search call site) it
stays a plain call, since inlined at each search site the whole turn would
be compiled once per site. Only speed depends on it: if the engine renames
``play_blocks``, games are the same, only slower. It is one of
``core.fingerprint.CORE_FILES``: what it decides is compiled into the
kernels.
"""


def in_batch_loop(expr, caller_ir, callee_ir) -> bool:
    return caller_ir.func_id.func_name == "play_blocks"
