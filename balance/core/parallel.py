"""Run a kernel's blocks of games on several threads.

A kernel's batch function has the signature ``fn(b0, b1, *args)`` and plays
blocks ``b0 <= b < b1`` of ``BLOCK`` games each, writing every game's rows
and the block's card counts into its own slots of the output arrays. It is
compiled with ``nogil=True``, so plain Python threads run blocks truly in
parallel; which thread plays a block never changes what is written, so
results do not depend on the thread count.

Why threads instead of numba's ``parallel=True`` / ``prange``: the same
speed-up (the work items are whole blocks of games, milliseconds each), and
a parallel loop costs about 4 s more to compile cold (measured on Talisman:
``balance run talisman --games 1000`` cold process), which counts against
every fresh install and CI run.

The thread count is ``numba.get_num_threads()``, so ``numba.set_num_threads``
and ``NUMBA_NUM_THREADS`` keep working as for numba's own parallel loops.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba

from .records import BLOCK


def n_blocks(n_games: int) -> int:
    return (n_games + BLOCK - 1) // BLOCK


def run_blocks(fn, n_games: int, *args, threads: int | None = None) -> None:
    """Call ``fn(b0, b1, *args)`` over block ranges covering ``n_games`` games."""
    nb = n_blocks(n_games)
    if nb == 0:
        return
    nt = min(threads or numba.get_num_threads(), nb)
    if nt <= 1:
        fn(0, nb, *args)
        return
    # a few tasks per thread, so that threads finishing early take more work
    step = max(1, min(8, nb // (4 * nt)))
    tasks = [(b, min(b + step, nb)) for b in range(0, nb, step)]
    ex = ThreadPoolExecutor(nt)
    try:
        for f in [ex.submit(fn, b0, b1, *args) for b0, b1 in tasks]:
            f.result()
    finally:
        # on an error or Ctrl-C, tasks not yet started are dropped (the ones
        # running finish their few blocks: compiled code cannot be interrupted)
        ex.shutdown(wait=True, cancel_futures=True)
