"""The named ways to compile a kernel function: each is one combination of
numba's flags, with the reason for it, so a kernel says what a function is
(``@inlined``) instead of spelling flags (``@njit(cache=True, _nrt=False,
forceinline=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)``).

Every one caches its machine code (``cache=True``: a ruleset compiles once
per machine and code fingerprint, ``core.jit``). The rules behind the flags
are in docs/performance.md ("The numba rules, and why"). A function with an
explicit signature, or a flag of its own (``inline=in_batch_loop``,
``nogil``), keeps ``numba.njit`` and says why beside it.

This file is one of ``core.fingerprint.CORE_FILES``: what it decides is
compiled into every kernel.
"""
from numba import njit


def compiled(f):
    """A compiled function, callable from Python and from compiled code;
    no reference counting (``_nrt=False``): kernels allocate nothing while
    they play, and NRT's reference counts were about 40% of elite's run
    time."""
    return njit(cache=True, _nrt=False)(f)


def internal(f):
    """Called from compiled code only: neither the Python nor the C wrapper
    is built (they cost compile time and serve no caller); no reference
    counting, as :func:`compiled`."""
    return njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)(f)


def inlined(f):
    """Inlined by LLVM into every caller (``forceinline``): small hot
    functions, and steps with one call site. LLVM inlines the compiled
    function, so numba types it once; numba's own ``inline="always"``
    re-types it at every call site (elite's compile went from 90 to 211 s
    with it). Called from compiled code only (no wrappers), no reference
    counting."""
    return njit(cache=True, _nrt=False, forceinline=True, no_cpython_wrapper=True,
                no_cfunc_wrapper=True)(f)


def inlined_callable(f):
    """As :func:`inlined`, but callable from Python too (tests and
    scenarios call it)."""
    return njit(cache=True, _nrt=False, forceinline=True)(f)


def ir_inlined(f):
    """Inlined by numba into each caller's IR (``inline="always"``), so it
    is typed at every call site: for a function whose types depend on the
    caller's (a tuple of arrays, a first-class function argument, a
    literal that picks a branch); no reference counting."""
    return njit(cache=True, _nrt=False, inline="always")(f)


def ir_inlined_nrt(f):
    """As :func:`ir_inlined`, with reference counting when compiled on its
    own (inlined, it takes its caller's flags): helpers also called from
    set-up code that allocates."""
    return njit(cache=True, inline="always")(f)


def allocating(f):
    """A compiled function that may allocate (reference counting on):
    set-up code only (a context's scratch, tables), never the loop that
    plays."""
    return njit(cache=True)(f)


__all__ = ["compiled", "internal", "inlined", "inlined_callable", "ir_inlined", "ir_inlined_nrt",
           "allocating"]
