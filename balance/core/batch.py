"""Play games of one ruleset configuration: allocate the records, call the
ruleset's parallel kernel, build the :class:`~balance.core.records.Batch`
(:func:`play`); trace one game (:func:`trace`).

The execution a :class:`~balance.core.spec.RulesetSpec` only declares: the
spec names the kernel module (``spec.kernel``) and builds the arrays it
takes after the policy ids (``spec.kernel_arrays``); this module runs it.
It imports ``parallel`` (and with it numba) only when it plays, so that
importing it loads no numba either.
"""
from __future__ import annotations

import numpy as np

from .records import Batch, alloc, ban_vector


def _arrays(spec, values, ban, data, seat_values=None):
    nk = spec.n_kinds(values)
    return nk, spec.kernel_arrays(values, ban_vector(ban, nk), data, seat_values)


def _policy_ids(policy_ids) -> np.ndarray:
    return np.ascontiguousarray(policy_ids, dtype=np.int64)


def play(spec, values, seed, start, stop, n_players, policy_ids, check=False, ban=None,
         data=None, out=None, seat_values=None) -> Batch:
    """Play games [start, stop) of ``seed`` of ruleset ``spec`` on all
    threads; ``check`` counts broken invariants per game; ``ban`` is None or
    int64[K] of ``records.BAN_*`` codes per card kind; ``data`` the loaded
    data files ({name: DataTable}, default: the package's own); ``out``, if
    given, the zero-filled (games, seats, masks) arrays of ``stop - start``
    rows to fill (views of a whole run's tables: no copy afterwards);
    ``seat_values`` each seat's values where policy variants differ
    (``spec.kernel_arrays``)."""
    # the threads that run a kernel import numba: here, not at the top
    from .parallel import run_blocks
    K = spec.kernel_module()
    nk, args = _arrays(spec, values, ban, data, seat_values)
    n = stop - start
    if out is None:
        games, seats, masks, counts = alloc(n, n_players, len(spec.game_columns),
                                            len(spec.seat_columns), nk)
    else:                       # zero-filled by the caller (records.alloc)
        games, seats, masks = out
        counts = alloc(n, n_players, 0, 0, nk)[3]
    errors = np.zeros(n, np.int64)
    run_blocks(K.run_batch, n, np.uint64(seed), np.int64(start), np.int64(n),
               np.int64(n_players), _policy_ids(policy_ids), *args, bool(check),
               games, seats, masks, counts, errors)
    return Batch(start, games, seats, masks, counts.sum(axis=0), errors)


def trace(spec, values, seed, game, n_players, policy_ids, ban=None, data=None,
          seat_values=None):
    """(Batch of game ``game`` of ``seed`` alone, its events int64[n, 8]),
    played by ruleset ``spec``'s tracing kernel; the trace buffer starts at
    ``spec.trace_rows`` rows and grows until the whole game fits."""
    K = spec.kernel_module()
    nk, args = _arrays(spec, values, ban, data, seat_values)
    size = spec.trace_rows
    while True:
        games, seats, masks, counts = alloc(1, n_players, len(spec.game_columns),
                                            len(spec.seat_columns), nk)
        tr = np.zeros((size, 8), np.int64)
        n = int(K.trace_one(np.uint64(seed), np.int64(game), np.int64(n_players),
                            _policy_ids(policy_ids), *args, games, seats, masks, counts, tr))
        if n < size:
            return Batch(game, games, seats, masks, counts.sum(axis=0)), tr[:n]
        size *= 4
