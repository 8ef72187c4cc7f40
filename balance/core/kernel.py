"""njit helpers every ruleset's kernel shares: the trace writer and the
per-seat card-kind bitmasks. Imported only by kernel modules (never by the
registry or the CLI), before ``jit.kernel_cache_begin``, so numba caches
these in the core package's own cache folder, keyed on this file. Anything
here is frozen into the rulesets' kernels, so this file is part of every
ruleset's fingerprint (``registry.fingerprint``)."""
import numpy as np
from numba import njit
from balance.core.compiled import ir_inlined_nrt
from numba import types as nt

from .layout import Z_TR, Z_TURN
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
