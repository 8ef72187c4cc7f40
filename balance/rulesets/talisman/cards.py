"""Talisman Poker's card ids read through lookup tables.

A basic card's id is ``element * V + (value - 1)`` (``rules``: elements in
the order 金 木 水 火 土, ``V = values_per_element``), and a seat's array is
one bitmask of values per element (``layout.C_BITS``). The compiled rules
read both through these tables instead of dividing or looping in their hot
paths; numba freezes them into the compiled code as constants.

- ``ELEM[V, c]``, ``VAL0[V, c]``: the element and value - 1 of basic card
  ``c`` when there are ``V`` values per element;
- ``RUN[b]``, ``TOP[b]``: the longest run of set bits of a value mask ``b``
  and its highest set bit (1-based), for ``V <= 12``.

Plain numpy, no compiled code.
"""
import numpy as np


def _bit_tables():
    run = np.zeros(1 << 12, np.int64)
    top = np.zeros(1 << 12, np.int64)
    for b in range(1, 1 << 12):
        x, n = b, 0
        while x:
            x &= x << 1
            n += 1
        run[b] = n
        top[b] = b.bit_length()
    return run, top


RUN, TOP = _bit_tables()
ELEM = np.array([[c // max(V, 1) for c in range(64)] for V in range(13)], np.int64)
VAL0 = np.array([[c % max(V, 1) for c in range(64)] for V in range(13)], np.int64)
