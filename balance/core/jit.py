"""Where kernels are cached, and telling the user when one is compiled.

A ruleset's kernels are compiled by numba on their first use on a machine
(elite: about two minutes) and loaded from numba's on-disk cache afterwards.
Without a word, that first run looks hung. A ruleset's kernel module lists
its kernels in ``KERNELS``, {use: dispatcher} ("run" for batches, "replay"
for traced games, "search" for the search policies' entry, compiled only
for a table with a searching seat; a dispatcher or a function returning
one; read through ``spec.kernels()``, so that the registry
never imports a kernel module), and the spec gives the rough compile time
(``spec.compile_time``); :func:`notice` prints one line to standard error
when a kernel has neither been compiled in this process nor cached on disk
for this machine.

Whether the cache holds a kernel is read from numba's cache index through
its internal API (``numba.core.caching``, stable since numba 0.49); should
that API change, :func:`on_disk` answers None and no notice is printed.
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

from .fingerprint import of_package

_told: set[tuple] = set()
compiles = 0        # kernel compiles announced in this process (a run compares before/after)
_saved: list = []


def cache_dir(package: str) -> Path:
    """numba's cache folder for the kernels of ruleset ``package``: under
    NUMBA_CACHE_DIR (else the package's ``__pycache__``), named by the
    ruleset's fingerprint (``core.fingerprint``: all its Python files).

    numba keys its cache on the kernel's own file: constants a kernel takes
    from ``rules.py`` (parameter slots, tables) are frozen into the cached
    code, so after a change of ``rules.py`` alone numba would load a kernel
    that reads the wrong slots. A folder per fingerprint cannot be stale."""
    name = package.rsplit(".", 1)[-1]
    base = os.environ.get("NUMBA_CACHE_DIR") or str(
        Path(sys.modules[package].__file__).parent / "__pycache__")
    return Path(base) / f"balance-{name}-{of_package(package)}"


def kernel_cache_begin(package: str, variant: str | None = None) -> None:
    """First statement of a kernel module, before its ``njit(cache=True)``
    functions: numba caches them in :func:`cache_dir` (it reads the folder
    when a function is decorated), in its subfolder ``variant`` for a
    module of a :func:`variant_package`. Folders of older fingerprints of
    the same ruleset are removed. :func:`kernel_cache_end` restores numba's
    setting at the end of the module."""
    from numba.core import config
    d = cache_dir(package)
    for old in d.parent.glob(d.name.rsplit("-", 1)[0] + "-*"):
        if old != d and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    _saved.append(config.CACHE_DIR)
    config.CACHE_DIR = str(d / variant if variant else d)


def kernel_cache_end() -> None:
    from numba.core import config
    config.CACHE_DIR = _saved.pop()


_variant_lock = threading.Lock()


def variant_package(package: str, variant: str, **constants) -> str:
    """The name of ``package`` imported again as ``<package>_<variant>``, a
    package over the same files whose module carries ``constants`` (and
    ``package``'s own public names): its modules, imported through it
    (``importlib.import_module(name + ".game")``), are new modules with
    their own numba functions, and read the constants as globals, which
    numba freezes at compile time, so a branch on one (``if VARIANT ==
    3:``) is removed before typing. Magic Elite compiles one variant for
    versions 1-2 and one for version 3 this way (``elite.kernel``): a v3
    run compiles no v1/v2-only code. The modules must cache into a folder
    of their own (``kernel_cache_begin(ruleset, variant)``): numba keys its
    cache on the source file and the function, not on the globals."""
    import importlib
    import importlib.machinery
    import importlib.util
    name = f"{package}_{variant}"
    with _variant_lock:
        if name not in sys.modules:
            base = importlib.import_module(package)
            spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
            spec.submodule_search_locations = list(base.__path__)
            mod = importlib.util.module_from_spec(spec)
            mod.__dict__.update({k: v for k, v in vars(base).items() if not k.startswith("__")})
            mod.__dict__.update(constants)
            mod.__doc__ = base.__doc__
            sys.modules[name] = mod
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, mod)
    return name


def skip_blas_probe() -> None:
    """Let numba start without importing scipy.linalg (0.15-0.25 s of a
    run's start, measured on talisman's cached kernel load: 0.61 -> 0.42 s).

    When numba loads its first kernel it imports ``numba.np.arraymath``,
    whose ``_HAVE_BLAS = _check_blas()`` imports ``scipy.linalg.cython_blas``
    only to learn whether BLAS is there. No kernel here uses linear algebra,
    and nothing is lost if one does: numba's ``np.dot`` and ``np.linalg``
    import scipy again when they are compiled (``ensure_blas``); the flag
    itself only picks a fallback inner product in ``np.cov``. The module is
    hidden for that one import and restored at once, so scipy imports
    normally afterwards (``core.stats`` uses it). Called before a kernel
    module is first imported (:func:`notice`) and by ``core.tally``; does
    nothing once numba has loaded ``arraymath``."""
    if "numba.np.arraymath" in sys.modules:
        return
    name = "scipy.linalg.cython_blas"
    missing = object()
    saved = sys.modules.get(name, missing)
    sys.modules[name] = None            # `import` of it raises ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if saved is missing:
            del sys.modules[name]
        else:
            sys.modules[name] = saved


def on_disk(dispatcher) -> bool | None:
    """Does numba's cache hold ``dispatcher`` compiled from its current
    source for this machine? None when that cannot be told."""
    try:
        cache = dispatcher._cache
        index = cache._cache_file._load_index()     # {} when missing or stale
        here = cache._index_key((), dispatcher.targetctx.codegen())[1:]
        return any(key[1:] == here for key in index)
    except Exception:
        return None


def needs_compile(dispatcher) -> bool:
    """True only when ``dispatcher`` is certainly compiled on its next call."""
    return not dispatcher.overloads and on_disk(dispatcher) is False


def kernel_table(spec, values: dict | None = None) -> dict:
    """``spec``'s kernels by use (``KERNELS``), or, given the run's
    parameters ``values``, those its kernel module picks for them
    (``kernels_for(values)``: elite's version variants)."""
    K = spec.kernel_module()
    return K.kernels_for(values) if values is not None and hasattr(K, "kernels_for") \
        else K.KERNELS


def dispatcher_of(entry):
    """The dispatcher of a kernel table entry: the entry itself, or what
    calling it returns (a module loaded on demand: demon's search)."""
    return entry if entry is None or hasattr(entry, "overloads") else entry()


def notice(spec, use: str, stream=None, values: dict | None = None) -> bool:
    """Print, once per process and kernel, that ``spec``'s kernel for
    ``use`` is being compiled; returns whether it printed. ``values``: the
    run's parameters, for a kernel module whose kernels depend on them
    (``kernels_for(values)``: elite's version variants)."""
    skip_blas_probe()
    table = kernel_table(spec, values)
    key = (spec.name, use, id(table))
    if key in _told:
        return False
    d = dispatcher_of(table.get(use))
    if d is None or not needs_compile(d):
        return False
    global compiles
    _told.add(key)
    compiles += 1
    what = (f"kernel for this machine ({spec.compile_time}, first use only" if use != "search"
            else "search policies for this machine (first table with a searching seat only; "
                 "it can take several minutes")
    print(f"balance: compiling the {spec.name} {what}; later runs load it from numba's cache)",
          file=stream or sys.stderr, flush=True)
    return True
