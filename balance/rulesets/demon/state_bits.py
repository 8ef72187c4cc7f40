"""Demon Faction's bit helpers over the state's 54-bit card masks (a hand,
a deck, a row, a graveyard: ``layout.C_*``): one card's bit, a mask's card
count and the index of a mask's single set bit.

They sit below ``state`` (``redeal_hidden`` and ``info_key`` use them) and
every module of the rules, so the state imports nothing above it.
"""
import numpy as np
from balance.core.compiled import inlined

from ...core import jit

jit.kernel_cache_begin(__package__)    # numba's cache folder (core.jit.cache_dir)

# the index of a power of two by de Bruijn multiplication (``ctz``)
_DB = 0x03F79D71B4CB0A89
DEBRUIJN = np.uint64(_DB)
CTZ = np.zeros(64, np.int64)
for _i in range(64):
    CTZ[(((1 << _i) * _DB) & ((1 << 64) - 1)) >> 58] = _i
S58 = np.uint64(58)


@inlined
def bit(k):
    return np.int64(1) << np.int64(k)


@inlined
def popc(x):
    n = 0
    while x != 0:
        x &= x - 1
        n += 1
    return n


@inlined
def ctz(low):
    """The index of the single set bit of ``low`` (a power of two)."""
    return CTZ[(np.uint64(low) * DEBRUIJN) >> S58]


jit.kernel_cache_end()
