"""Play pieces of a run on a Dask cluster instead of this machine's threads.

Every command plays its games through :func:`play.play_range`, which
splits a game range into chunks (pieces) of one configuration. With an
engine in use (:func:`use`), the chunks not already in the command's store
are submitted to a Dask scheduler; each worker plays its piece with one
numba thread (``batch.play``: game i of seed s is the same game on any
machine) and sends back what the run's sink keeps: the piece's record
arrays, or only its sums, made by the sink's class, which ``play`` sends
with the piece (pickled by reference: this module imports no sink). The
client writes them into the store (``.partial`` / ``.points``, exactly as
on one machine) and into the run's tables or sums. So the results are
bit-identical to a one-machine run, an interrupted command resumes from
the stored pieces, and a piece whose worker was killed is computed again
by the scheduler (nothing is counted twice: a piece is taken in once).

Dask is optional (``pip install -e ".[distributed]"``); without it a cluster
option is one ``Error:`` line. Workers must import the same ``balance`` code:
each piece carries the code fingerprint of the worker that played it, and a
piece played by other code is refused.
"""
from __future__ import annotations

import contextlib
import os
import re

from . import batch, registry
from .errors import BalanceError
from .setup import kernel_keywords
from .store import narrow

_engine = None

_ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx|ws|wss)://[^\s/:]+(:\d+)?$")
_LOCAL = re.compile(r"^local(?::(\d+))?$")
INSTALL = 'Dask is not installed: pip install -e ".[distributed]" (or pip install "dask[distributed]")'


def current():
    """The engine in use, or None (this machine's threads)."""
    return _engine


def _distributed():
    try:
        import distributed
    except ImportError:
        raise BalanceError(INSTALL) from None
    return distributed


class DaskEngine:
    """A connection to a Dask scheduler (``scheduler``) or a LocalCluster of
    ``workers`` processes started here (``local``), one thread each."""

    def __init__(self, scheduler: str | None = None, local: int | None = None,
                 timeout: float = 10.0):
        dist = _distributed()
        import logging
        self.cluster = None
        try:
            if local is not None:
                self.cluster = dist.LocalCluster(n_workers=local, threads_per_worker=1,
                                                 processes=True, dashboard_address=None,
                                                 silence_logs=logging.ERROR)
                self.client = dist.Client(self.cluster, timeout=timeout)
            else:
                self.client = dist.Client(scheduler, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as e:
            self.close()
            where = f"--scheduler {scheduler}" if local is None else f"--cluster local:{local}"
            raise BalanceError(f"{where}: no Dask scheduler answered within {timeout:g} s "
                               f"({type(e).__name__}: {' '.join(str(e).split())[:160]})") from None
        self.address = self.client.scheduler.address

    def workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def play(self, args: tuple, ranges):
        """Yield ``(a, b, arrays)`` for each range (an iterable, read lazily)
        as its piece finishes; at most two pieces a worker are in flight, so
        a run of any length holds few futures and results."""
        dist = _distributed()
        ranges = iter(ranges)
        futs = []

        def submit():
            for a, b in ranges:
                futs.append(self.client.submit(_piece, args, a, b, pure=False))
                return futs[-1]
            return None
        window = max(4, 2 * self.workers())
        first = [f for f in (submit() for _ in range(window)) if f is not None]
        mine = registry.fingerprint(args[0])
        done = dist.as_completed(first)
        try:
            for fut in done:
                try:
                    a, b, code, arrays = fut.result()
                except dist.KilledWorker as e:
                    raise BalanceError(f"a piece of games killed its worker again and again "
                                       f"({e}); the finished pieces are kept") from None
                if code != mine:
                    raise BalanceError(f"a worker runs other balance code (fingerprint {code}, "
                                       f"here {mine}): install the same version on every "
                                       f"worker")
                fut.release()
                futs.remove(fut)
                nxt = submit()
                if nxt is not None:
                    done.add(nxt)
                yield a, b, {k: v.astype(dt, copy=False) for k, (dt, v) in arrays.items()}
        finally:
            with contextlib.suppress(Exception):
                self.client.cancel([f for f in futs if not f.done()])

    def close(self):
        import logging
        # a worker's heartbeat racing the shutdown logs a closed stream: not news
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        for x in (getattr(self, "client", None), self.cluster):
            if x is not None:
                with contextlib.suppress(Exception):
                    x.close()


def _piece(args: tuple, a: int, b: int):
    """On a worker: games [a, b) of one configuration, on one numba thread."""
    import numba
    name, values, seed, n_players, policy_ids, check, ban, data, kind, seat_values = args
    numba.set_num_threads(1)
    spec = registry.get(name)
    part = batch.play(spec, values, seed, a, b, n_players, policy_ids, check,
                      **kernel_keywords(ban, data, seat_values))
    # what the run's sink keeps, made here (the sums sink's: only the sums
    # travel); ``kind`` is the sink's class, sent by reference by ``play``
    arrays = kind.arrays(spec, values, part, check)
    # record arrays are sent narrowed (most record columns fit in 1-2 bytes:
    # about a quarter of the bytes over the network), widened by the client
    shrink = narrow if kind.narrowed else (lambda v: v)
    return a, b, registry.fingerprint(name), {k: (v.dtype.str, shrink(v))
                                              for k, v in arrays.items()}


def parse(scheduler: str | None, cluster: str | None) -> dict | None:
    """The engine options as given on the command line, checked: None when
    neither is given."""
    if scheduler is not None and cluster is not None:
        raise BalanceError("give --scheduler or --cluster, not both")
    if scheduler is not None:
        if not _ADDRESS.match(scheduler.strip()):
            raise BalanceError(f"--scheduler {scheduler!r}: not a scheduler address "
                               f"(allowed: tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786)")
        return {"scheduler": scheduler.strip()}
    if cluster is not None:
        m = _LOCAL.match(cluster.strip())
        if not m:
            raise BalanceError(f"--cluster {cluster!r}: allowed is local or local:N "
                               f"(N worker processes)")
        n = int(m.group(1)) if m.group(1) else (os.cpu_count() or 1)
        if not 1 <= n <= 256:
            raise BalanceError(f"--cluster local:{n}: N must be 1-256")
        return {"local": n}
    return None


@contextlib.contextmanager
def use(scheduler: str | None = None, cluster: str | None = None):
    """Play every run inside the block on a Dask cluster: ``scheduler`` a
    running scheduler's address (``tcp://HOST:PORT``) or ``cluster`` ``"local"``
    / ``"local:N"`` for a LocalCluster of N worker processes started for the
    block. With neither, runs stay on this machine's threads.

    >>> with balance.cluster(cluster="local:2"):
    ...     balance.simulate("talisman", games=1_000_000)
    """
    global _engine
    opts = parse(scheduler, cluster)
    if opts is None:
        yield None
        return
    prev = _engine
    eng = DaskEngine(**opts)
    _engine = eng
    try:
        yield eng
    finally:
        _engine = prev
        eng.close()
