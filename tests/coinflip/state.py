"""The coin flip's state for the game engine (``core.engine``): the
``State`` and ``Ctx`` NamedTuples, built in Python, and the njit functions
over them that do not play: ``copy``, ``reseed``, ``redeal_hidden`` and
``info_key``.

- ``State``: ``S`` int64[P, 1] each seat's heads, ``Z`` int64[NZ] the
  globals and the phase machine (slots below), ``st`` uint64[1] the game's
  stream.
- ``Ctx``: the seats' policy ids ``pol``, ``P``, the int rule vector ``ip``
  (target, max_turns, bias, inert), the float policy parameters ``pp``
  float64[seats, 1] (row p: seat p's luck), the search parameters ``sp``
  (the engine's defaults: the coin has no search policy).

Nothing is hidden: every seat sees every seat's heads, and the coin's
future flips are the game stream, which no seat sees and the search
reseeds anyway (``reseed``); ``redeal_hidden`` changes nothing.
"""
from collections import namedtuple

import numpy as np
from balance.core.compiled import compiled

from balance.core import engine, jit
from balance.core.layout import Z_TR, Z_TURN  # noqa: F401  (the turn, the trace length)
from balance.core.kernel import copy_head  # before kernel_cache_begin
from balance.core.rng import mix_into  # before kernel_cache_begin

Z_CUR = 0           # Z[Z_CUR]: the seat whose turn it is
Z_END = 1           # Z[Z_END]: -1 playing, else the end reason (END_*)
NZ = 4
END_TARGET, END_CAP = 0, 1      # SPEC.end_reasons
I_TARGET, I_MAXT, I_BIAS = 0, 1, 2      # ip slots (Params' declaration order)

State = namedtuple("State", "S Z st")
Ctx = namedtuple("Ctx", "pol P ip pp sp")


def new_state(P: int) -> State:
    return State(np.zeros((P, 1), np.int64), np.zeros(NZ, np.int64), np.zeros(1, np.uint64))


def context(P, pol, ip, pp) -> Ctx:
    """A batch's context; ``pp`` holds one row of float policy parameters per seat."""
    P = int(P)
    if np.ndim(pp) != 2 or pp.shape[0] < P:
        raise ValueError("coin context: pp must be float64[seats >= P, 1] "
                         "(RulesetSpec.kernel_arrays), got shape %s" % (np.shape(pp),))
    return Ctx(np.ascontiguousarray(pol[:P], np.int64), np.int64(P), ip, pp,
               engine.search_vector(lambda n, d: d))


jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)


@compiled
def copy(a, b):
    """State ``a`` into ``b``."""
    for q in range(a.S.shape[0]):
        b.S[q, 0] = a.S[q, 0]
    copy_head(a.Z, b.Z, NZ)
    b.st[0] = a.st[0]


@compiled
def reseed(s, x):
    """A new game stream from ``x`` (a rollout's)."""
    s.st[0] = x


@compiled
def redeal_hidden(s, c, p, rng):
    """Nothing is hidden from seat p: nothing is dealt again."""
    return


@compiled
def info_key(s, c, p):
    """A hash of what seat p sees: the phase machine and every seat's heads
    (all of the state but the stream and the trace length)."""
    h = np.uint64(p + 1)
    for j in range(NZ):
        if j != Z_TR:
            h = mix_into(h, s.Z[j])
    for q in range(s.S.shape[0]):
        h = mix_into(h, s.S[q, 0])
    return h


jit.kernel_cache_end()
