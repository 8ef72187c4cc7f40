"""Output folders: one writer at a time, results moved in whole.

Every command that writes into ``--out`` holds :func:`lock` on it: a lock
file ``.lock`` naming the process. A second command into the same folder
stops at once with one line naming that process (exit code 2); a lock left
by a killed process (its pid no longer runs) is taken over.

Results are written by :func:`publish`: the files go to a temporary folder
inside ``--out``, the completion marker ``COMPLETE`` is removed, the files
of the previous result listed in the old marker are removed, the new files
are moved into place (each an atomic rename) and the new ``COMPLETE``,
listing them, is written last. A folder without the marker holds no
finished result, and readers (``runner.load``, the report) refuse it; a
folder never holds files of two different results.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Callable

from .errors import BalanceError

MARKER = "COMPLETE"
LOCK = ".lock"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def lock(out: str | os.PathLike):
    """Hold the folder ``out`` for this process (see the module doc)."""
    out = Path(out)
    created = [p for p in (out, *out.parents) if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BalanceError(f"--out {out}: cannot create the folder ({e.strerror})") from None
    path = out / LOCK
    me = os.getpid()
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(path.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                pid = -1
            if pid > 0 and pid != me and _alive(pid):
                raise BalanceError(f"{out} is in use by another balance command (process "
                                   f"{pid}); wait for it or choose another --out") from None
            path.unlink(missing_ok=True)          # stale: its process is gone
            continue
        except OSError as e:
            raise BalanceError(f"--out {out}: cannot write there ({e.strerror})") from None
        with os.fdopen(fd, "w") as f:
            f.write(f"{me}\n")
        break
    else:
        raise BalanceError(f"{out}: could not take the folder's lock")
    _sweep_dead(out)
    try:
        yield out
    finally:
        with contextlib.suppress(OSError):
            if path.read_text().split()[0] == str(me):
                path.unlink()
        for p in created:             # folders made for a command that wrote nothing
            with contextlib.suppress(OSError):
                p.rmdir()


_LEFTOVER = re.compile(r"^(?:\.writing-|\.building-|.+\.tmp)(\d+)$")


def _sweep_dead(out: Path) -> None:
    """Remove what a killed command left in ``out``: its temporary result
    folders (``.writing-PID``, ``.building-PID``) and half-written stored
    pieces (``*.tmpPID``), each only when process PID no longer runs."""
    for p in [*out.iterdir(), *out.glob(".points/**/*.tmp*"), *out.glob(".partial/**/*.tmp*")]:
        m = _LEFTOVER.match(p.name)
        if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                shutil.rmtree(p) if p.is_dir() else p.unlink()


def publish(out: str | os.PathLike, write: Callable[[Path], object], *,
            keep: tuple = ()) -> list[Path]:
    """Write a result into ``out`` whole (see the module doc): ``write(tmp)``
    writes the files into the temporary folder ``tmp``; subfolders are moved
    as a whole. ``keep`` names entries of ``out`` that are never removed
    (stores of finished pieces such as ``.points``). Returns the new paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".writing-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        write(tmp)
        names = sorted(p.name for p in tmp.iterdir())
        marker = out / MARKER
        old = []
        if marker.exists():
            with contextlib.suppress(OSError, ValueError):
                old = json.loads(marker.read_text()).get("files", [])
            marker.unlink()
        for name in old:
            if name not in names and name not in keep and name != LOCK:
                p = out / name
                shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
        for name in names:
            dest = out / name
            if dest.is_dir() and not (tmp / name).is_dir():
                shutil.rmtree(dest)
            elif dest.is_dir():
                shutil.rmtree(dest)
            os.replace(tmp / name, dest)
        (out / f"{MARKER}.tmp").write_text(json.dumps({"files": names}, indent=1) + "\n")
        os.replace(out / f"{MARKER}.tmp", marker)
    except OSError as e:
        raise BalanceError(f"could not write the results to {out}: {e.strerror}; the finished "
                           f"pieces are kept, run the same command again") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [out / n for n in names]


def is_complete(out: str | os.PathLike) -> bool:
    return (Path(out) / MARKER).exists()


def require_complete(out: str | os.PathLike) -> Path:
    out = Path(out)
    if not is_complete(out):
        raise BalanceError(f"{out} holds no finished result (no {MARKER} marker: the run that "
                           f"wrote it was interrupted, or it is not a balance output folder)")
    return out


class Published:
    """Mixin of the workflow results: ``write(folder)`` writes the files
    (used inside a report), ``save(out)`` publishes them whole into ``out``,
    keeping its store of finished pieces (``.points``)."""

    def save(self, out) -> list[Path]:
        self.files = publish(out, self.write, keep=(".points",))
        return self.files
