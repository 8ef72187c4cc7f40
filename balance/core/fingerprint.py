"""The code fingerprint of a ruleset: a hash of the code that decides its
games.

Kernels are cached in a folder named by it (``core.jit.cache_dir``, read
while a kernel module is being imported) and stored results (resumable
chunks, sweep points) carry it, so neither a stale kernel nor a result of
an older one is ever reused. This module imports nothing of the package and
no numba: the registry and the kernel cache both read it, below either.
"""
from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

# core files whose functions, constants or layouts are compiled into a kernel
# (rng, the shared njit helpers, layouts, parameter slots) or that turn a
# kernel's output into a Batch (records, spec: the kernel's arrays; batch: the call)
CORE_FILES = ("compiled.py", "rng.py", "kernel.py", "layout.py", "params.py", "records.py",
              "spec.py", "batch.py", "parallel.py", "search.py", "engine/__init__.py",
              "engine/loop.py", "engine/search.py", "engine/inlining.py")

_known: dict[str, str] = {}


def compute(package: str, core_files: tuple = CORE_FILES) -> str:
    """The hash of ruleset package ``package``'s Python files (by their path
    inside it) plus the files ``core_files`` of ``balance/core``; 16 hex
    digits. Computed each call (:func:`of_package` keeps it)."""
    pkg = Path(importlib.import_module(package).__file__).parent
    core = Path(__file__).parent
    files = [(f.relative_to(pkg).as_posix(), f) for f in sorted(pkg.rglob("*.py"))]
    files += [(f"core/{f}", core / f) for f in core_files]
    h = hashlib.sha256()
    for rel, f in files:
        h.update(rel.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def of_package(package: str) -> str:
    """:func:`compute` of ``package`` with :data:`CORE_FILES`, once per
    process (the files are read once: a run hashes them at its start)."""
    if package not in _known:
        _known[package] = compute(package)
    return _known[package]


def forget(package: str) -> None:
    """Compute ``package``'s fingerprint again on its next use (a throwaway
    ruleset registered again: ``registry.registered``)."""
    _known.pop(package, None)
