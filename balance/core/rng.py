"""Counter-based random numbers for kernels.

Every game has its own SplitMix64 stream, seeded by ``game_state(seed, game)``,
so a result never depends on thread count, chunking or machine, and game
``i`` of seed ``s`` can be replayed on its own. The state is a one-element
``uint64`` array owned by the game.

SplitMix64 (Steele, Lea & Flood 2014; the seeder of xoshiro) passes BigCrush,
needs one 64-bit word of state and is trivially reproducible in pure Python,
which is what lets the reference implementation share the kernel's stream
(see ``python_rng``).

Integers below ``n`` use Lemire's multiply-shift on the top 32 bits
(bias below n / 2**32, irrelevant for card games).
"""
import numpy as np
from balance.core.compiled import allocating, internal, ir_inlined_nrt

GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@ir_inlined_nrt
def mix64(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@ir_inlined_nrt
def mix_into(h, x):
    """Hash the int ``x`` into the uint64 hash ``h`` (the rulesets'
    information-set keys, ``info_key`` of the step interface)."""
    return mix64(h ^ (np.uint64(x) + GAMMA))


@allocating
def game_state(seed, game):
    """Initial stream state of game ``game`` of run seed ``seed``."""
    return mix64(mix64(np.uint64(seed) + GAMMA) + np.uint64(game) * GAMMA)


@ir_inlined_nrt
def next_u64(st):
    s = st[0] + GAMMA
    st[0] = s
    return mix64(s)


@ir_inlined_nrt
def below(st, n):
    """Uniform integer in [0, n), n >= 1 and < 2**32."""
    r = next_u64(st) >> _S32
    return np.int64((r * np.uint64(n)) >> _S32)


# a seat's own policy stream is drawn from the game's by this odd constant
SEAT_MIX = np.uint64(0xD1B54A32D192ED03)


@ir_inlined_nrt
def seat_streams(streams, x):
    """Each seat's own policy stream (school, resonance), seeded from the
    game stream's state ``x``: ``streams[p] = mix64(x ^ (p + 1) * SEAT_MIX)``,
    at the deal and when a rollout reseeds."""
    for p in range(streams.shape[0]):
        streams[p] = mix64(x ^ (np.uint64(p + 1) * SEAT_MIX))


@internal
def below_at(streams, i, n):
    """:func:`below` on stream ``i`` of an array of streams: a seat's own
    policy stream (school, resonance), so one seat's draws never move
    another's."""
    s = streams[i] + GAMMA
    streams[i] = s
    return np.int64(((mix64(s) >> _S32) * np.uint64(n)) >> _S32)


@allocating
def shuffle(st, a, n):
    """Fisher-Yates shuffle of a[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = below(st, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


MASK64 = (1 << 64) - 1
_G = 0x9E3779B97F4A7C15


def _pmix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class python_rng:
    """The same stream in pure Python, for reference implementations."""

    def __init__(self, seed: int, game: int):
        self.state = _pmix((_pmix((seed + _G) & MASK64) + game * _G) & MASK64)

    def next_u64(self) -> int:
        self.state = (self.state + _G) & MASK64
        return _pmix(self.state)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32

    def shuffle(self, a: list) -> None:
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]
