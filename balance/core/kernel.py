"""njit helpers every ruleset's kernel shares: the trace writer, the
per-seat card-kind bitmasks and the card zones kept the same way in several
rulesets (a deck and a discard pile as the two rows of a ``pile`` array,
counted by two slots of the game globals ``Z``; a hand as an ordered row). Imported only by kernel modules (never by the
registry or the CLI), before ``jit.kernel_cache_begin``, so numba caches
these in the core package's own cache folder, keyed on this file. Anything
here is frozen into the rulesets' kernels, so this file is part of every
ruleset's fingerprint (``registry.fingerprint``)."""
import numpy as np
from numba import njit
from balance.core.compiled import ir_inlined_nrt
from numba import types as nt

from .layout import Z_TR, Z_TURN
from .rng import shuffle
from .records import BAN_FORBID, BAN_NONE, BAN_REMOVE  # noqa: F401  (kernels' ban codes)

# An explicit signature: numba would otherwise compile one version of ``ev``
# per combination of constant arguments at its call sites (elite had 91).
SIG_EV = nt.void(nt.int64[:, ::1], nt.int64[::1], nt.int64, nt.int64, nt.int64, nt.int64,
                 nt.int64, nt.int64, nt.int64)


@njit(SIG_EV, cache=True, _nrt=False)
def ev(tr, Z, etype, seat, a, b, c, d, e):
    """Append the trace row [etype, turn, seat, a, b, c, d, e] while ``tr``
    has room. Call sites test their trace flag first, so batch runs neither
    call this nor build its arguments (not inlined: dozens of call sites
    would each copy it, which only costs compile time)."""
    k = Z[Z_TR]
    if k < tr.shape[0]:
        tr[k, 0] = etype
        tr[k, 1] = Z[Z_TURN]
        tr[k, 2] = seat
        tr[k, 3] = a
        tr[k, 4] = b
        tr[k, 5] = c
        tr[k, 6] = d
        tr[k, 7] = e
        Z[Z_TR] = k + 1


@ir_inlined_nrt
def setbit(masks, p, which, kind):
    """Mark card kind ``kind`` as drawn (which=0) or played (1) by seat p."""
    masks[p, which, kind >> 6] |= np.uint64(1) << np.uint64(kind & 63)


@ir_inlined_nrt
def drawn(masks, counts, p, kind):
    """Seat p drew a card of kind ``kind``: its draw mask and the batch's
    drawn count (the per-card tables: ``records``)."""
    setbit(masks, p, 0, kind)
    counts[0, kind] += 1


@ir_inlined_nrt
def refill_deck(st, pile, Z, deck, disc, tr, on, code):
    """An empty deck (``pile[0]``, ``Z[deck]`` cards) takes the discard pile
    (``pile[1]``, ``Z[disc]`` cards), shuffled from the game's stream
    ``st`` and logged as event ``code`` (when ``on``). Returns the cards in
    the deck afterwards: 0 when both were empty."""
    if Z[deck] == 0:
        n = Z[disc]
        if n == 0:
            return 0
        for i in range(n):
            pile[0, i] = pile[1, i]
        Z[deck] = n
        Z[disc] = 0
        shuffle(st, pile[0], n)
        if on:
            ev(tr, Z, code, -1, n, 0, 0, 0, 0)
    return Z[deck]


@ir_inlined_nrt
def remove_at(row, i, n):
    """Take ``row[i]`` out of the first ``n`` entries of ``row``, keeping the
    others in order (a hand); returns it. The caller lowers its count."""
    c = row[i]
    for j in range(i, n - 1):
        row[j] = row[j + 1]
    return c


@ir_inlined_nrt
def copy_piles(src, dst, Z, deck, disc):
    """A state copy's deck and discard pile (rows 0 and 1 of ``pile``, as
    :func:`refill_deck` keeps them), as far as they hold cards."""
    copy_head(src[0], dst[0], Z[deck])
    copy_head(src[1], dst[1], Z[disc])


@ir_inlined_nrt
def copy_head(src, dst, n):
    """``dst[:n] = src[:n]`` as a loop (a state copy copies only the part of
    a zone in use)."""
    for i in range(n):
        dst[i] = src[i]
