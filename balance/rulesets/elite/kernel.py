"""Magic Elite's kernel entry points (``SPEC.kernel``), one compiled
variant per group of versions.

The engine (``engine/``) is compiled twice, as two packages over the same
files (``core.jit.variant_package``): ``engine_v12`` for versions 1 and 2
and ``engine_v3`` for version 3, each with its constant ``VARIANT`` (12 or
3). numba removes every branch on ``VARIANT`` before typing, so a v3 run
compiles none of v1/v2's turn, exchange, deaths or Judgment, and a v1/v2
run none of v3's shields, passives, duels, shop and start of turn. Each
variant caches in its own subfolder of the ruleset's cache folder (``v12``,
``v3``). Versions 1 and 2 share a variant: they differ in a few branches on
the runtime version (``Z[Z_V]``), and one compile serves both.

This module is plain Python: ``engine(version, module)`` imports a module
of the version's variant (``engine(version)``: its ``kernel``, the game
engine bound to its ``step``); ``run_batch`` and ``trace_one`` pick the
variant from the version in the parameter vector, ``kernels_for(values)``
gives ``core.jit.notice`` the variant's kernels, and ``KERNELS`` (no
parameters known) is version 3's, the default.
"""
from __future__ import annotations

from ...core import jit
from .layout import NG, NSEAT, P_VERSION  # noqa: F401  (record widths: the ruleset contract)

ENGINE = __package__ + ".engine"
VARIANTS = {1: "v12", 2: "v12", 3: "v3"}


def variant(version) -> str:
    try:
        return VARIANTS[int(version)]
    except (KeyError, ValueError, TypeError):
        raise ValueError(f"elite has no version {version!r} (it has 1, 2, 3)") from None


def engine(version, module: str = "kernel"):
    """Module ``module`` of the engine variant compiled for ``version``
    (imported, so compiled or loaded from numba's cache, on first use)."""
    import importlib
    v = variant(version)
    return importlib.import_module(f"{jit.variant_package(ENGINE, v, VARIANT=int(v[1:]))}.{module}")


def run_batch(b0, b1, seed, start, n_games, P, pol, ip, *rest):
    return engine(ip[P_VERSION]).run_batch(b0, b1, seed, start, n_games, P, pol, ip, *rest)


def trace_one(seed, game, P, pol, ip, *rest):
    return engine(ip[P_VERSION]).trace_one(seed, game, P, pol, ip, *rest)


def kernels_for(values: dict) -> dict:
    return engine(values["version"]).KERNELS


# no parameters known: version 3's (the default), as functions returning the
# dispatcher (core.jit), so that importing this module compiles nothing
KERNELS = {use: (lambda use=use: engine(3).KERNELS[use]) for use in ("run", "replay", "search")}
