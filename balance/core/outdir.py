"""Output folders: one writer at a time, results replaced whole.

Every command that writes into ``--out`` holds :func:`lock` on it: an OS
lock (``fcntl.flock``) on the file ``.lock``, which names the process. A
second command into the same folder stops at once with one line naming
that process (exit code 2). The kernel releases the lock when its holder
ends, however it ends, so a killed command's lock is free at once, and a
``.lock`` file that no process holds is taken over whatever pid it names.

Results are written by :func:`publish`. The files go to a temporary folder
``.writing-PID`` inside ``--out``, which gets its own ``COMPLETE`` marker
once they are all there. Only then is the folder's marker removed, the new
files linked into place (each an atomic rename), the new marker written and
the old result's other files and the temporary folder removed. At every
instant one complete result is readable, as :func:`require_complete` finds
it: the old one in ``--out`` (its marker there), or the new one in the
temporary folder (while the files move) or in ``--out``. A command killed
while the files move leaves the new result whole in its temporary folder;
the next command into the folder finishes the move (:func:`lock`).
"""
from __future__ import annotations

import contextlib
import fcntl
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


def _take(path: Path, out: Path) -> int:
    """An open descriptor of ``path`` holding its flock; one line naming
    the holder when another process holds it."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise BalanceError(f"--out {out}: cannot write there ({e.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            with contextlib.suppress(OSError):
                holder = os.read(fd, 64).decode(errors="replace").split()
            os.close(fd)
            who = f" (process {holder[0]})" if holder else ""
            raise BalanceError(f"{out} is in use by another balance command{who}; wait for "
                               f"it or choose another --out") from None
        try:           # the file we locked is still the one at the path (a holder that
            same = os.fstat(fd).st_ino == os.stat(path).st_ino    # ends removes it)
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)


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
    fd = _take(path, out)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        _sweep_dead(out)
        yield out
    finally:
        with contextlib.suppress(OSError):
            path.unlink()             # still holding it: no other process has it now
        os.close(fd)
        for p in created:             # folders made for a command that wrote nothing
            with contextlib.suppress(OSError):
                p.rmdir()


_LEFTOVER = re.compile(r"^(?:\.writing-|\.building-|.+\.tmp)(\d+)$")


def _sweep_dead(out: Path) -> None:
    """Finish or remove what a killed command left in ``out``: a result
    whole in its ``.writing-PID`` folder is moved into place (:func:`_swap`);
    other temporary folders (``.writing-PID``, ``.building-PID``) and
    half-written files (``*.tmpPID``) are removed; each only when process
    PID no longer runs."""
    for p in [*out.iterdir(), *out.glob(".points/**/*.tmp*"), *out.glob(".partial/**/*.tmp*")]:
        m = _LEFTOVER.match(p.name)
        if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            with contextlib.suppress(OSError):
                if p.name.startswith(".writing-") and (p / MARKER).exists():
                    _swap(out, p)
                elif p.exists():
                    _remove(p)


def _write_marker(folder: Path, content: dict) -> None:
    tmp = folder / f"{MARKER}.tmp{os.getpid()}"
    tmp.write_text(json.dumps(content, indent=1) + "\n")
    os.replace(tmp, folder / MARKER)


def _listed(folder: Path) -> dict:
    try:
        return json.loads((folder / MARKER).read_text())
    except (OSError, ValueError):
        return {}


def _link(src: Path, dest: Path) -> None:
    """``src`` at ``dest`` too (a hard link; a copy where links are not
    supported); ``src`` stays whole."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


def _remove(p: Path) -> None:
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    else:
        p.unlink(missing_ok=True)


def _swap(out: Path, tmp: Path) -> None:
    """Move the result whole in ``tmp`` (its marker written) into ``out``,
    each file by an atomic rename; ``tmp`` stays whole until the new marker
    is in ``out``, so doing it again after a kill finishes it."""
    new = _listed(tmp)
    names, keep = new["files"], set(new.get("keep", ())) | {LOCK}
    (out / MARKER).unlink(missing_ok=True)
    me = os.getpid()
    for name in names:
        src, dest, part = tmp / name, out / name, out / f"{name}.tmp{me}"
        _remove(part)
        if src.is_file() and dest.is_file() and os.path.samefile(src, dest):
            continue                   # in place already (rename would leave ``part``)
        if src.is_dir():
            shutil.copytree(src, part, copy_function=_link)
        else:
            _link(src, part)
        if dest.is_dir() and not dest.is_symlink():
            aside = out / f"{name}.old.tmp{me}"
            _remove(aside)
            os.replace(dest, aside)
            os.replace(part, dest)
            shutil.rmtree(aside)
        else:
            if src.is_dir() and (dest.exists() or dest.is_symlink()):
                dest.unlink()             # a file where the new result has a folder
            os.replace(part, dest)
    _write_marker(out, {"files": names})
    for name in new.get("replaces", ()):
        if name not in names and name not in keep and name != MARKER:
            _remove(out / name)
    (tmp / MARKER).unlink()           # first: a tmp partly removed is never taken as whole
    shutil.rmtree(tmp)


def publish(out: str | os.PathLike, write: Callable[[Path], object], *,
            keep: tuple = ()) -> list[Path]:
    """Write a result into ``out`` whole (see the module doc): ``write(tmp)``
    writes the files into the temporary folder ``tmp``; subfolders are
    replaced as a whole. ``keep`` names entries of ``out`` that are never
    removed (stores of finished pieces such as ``.points``). Returns the
    new paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / f".writing-{os.getpid()}"
    whole = False                # the new result is whole in tmp: never remove it then
    try:
        if (tmp / MARKER).exists():        # this process's move that failed: finish it
            _swap(out, tmp)
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        write(tmp)
        names = sorted(p.name for p in tmp.iterdir())
        old = _listed(out).get("files", [])
        _write_marker(tmp, {"files": names, "replaces": old, "keep": list(keep)})
        whole = True
        _swap(out, tmp)
    except OSError as e:
        raise BalanceError(f"could not write the results to {out}: {e.strerror}; the finished "
                           f"pieces are kept, run the same command again") from None
    finally:
        if not whole:
            shutil.rmtree(tmp, ignore_errors=True)
    return [out / n for n in names]


def is_complete(out: str | os.PathLike) -> bool:
    return complete_folder(out) is not None


def complete_folder(out: str | os.PathLike) -> Path | None:
    """The folder holding ``out``'s complete result: ``out`` itself when its
    marker is there, else a result whole in a ``.writing-PID`` folder whose
    move into ``out`` was interrupted or is under way; None when there is
    none."""
    out = Path(out)
    if (out / MARKER).exists():
        return out
    with contextlib.suppress(OSError):
        for p in sorted(out.glob(".writing-*")):
            if (p / MARKER).exists():
                return p
    return None


def require_complete(out: str | os.PathLike) -> Path:
    """The folder to read ``out``'s result from (:func:`complete_folder`);
    one line when ``out`` holds no finished result."""
    where = complete_folder(out)
    if where is None:
        raise BalanceError(f"{out} holds no finished result (no {MARKER} marker: the run that "
                           f"wrote it was interrupted, or it is not a balance output folder)")
    return where


class Published:
    """Mixin of the workflow results: ``write(folder)`` writes the files
    (used inside a report), ``save(out)`` publishes them whole into ``out``,
    keeping its store of finished pieces (``.points``)."""

    def save(self, out) -> list[Path]:
        self.files = publish(out, self.write, keep=(".points",))
        return self.files
