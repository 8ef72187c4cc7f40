"""Ruleset registry: name -> :class:`RulesetSpec`.

Commands reach a ruleset only through this registry, so adding a ruleset is
one new package under ``balance/rulesets/`` plus one line in ``_MODULES``
(the contract a package meets: ``core.spec``).
Ruleset packages are imported lazily (their numba kernels load on first use).
"""
from __future__ import annotations

import contextlib
import importlib

from .errors import BalanceError, did_you_mean
from .fingerprint import CORE_FILES, forget, of_package  # noqa: F401  (CORE_FILES: re-exported)
from .spec import RulesetSpec, SpecError
from .variants import parse as parse_label

# name -> module that defines SPEC
_MODULES = {
    "talisman": "balance.rulesets.talisman",
    "school": "balance.rulesets.school",
    "elite": "balance.rulesets.elite",
    "resonance": "balance.rulesets.resonance",
    "demon": "balance.rulesets.demon",
}


_cache: dict[str, RulesetSpec] = {}


def names() -> list[str]:
    return list(_MODULES)


def get(name: str) -> RulesetSpec:
    if name not in _MODULES:
        raise BalanceError(f"unknown ruleset {name!r}{did_you_mean(name, _MODULES)} "
                           f"(known: {', '.join(_MODULES)})")
    if name not in _cache:
        spec = getattr(importlib.import_module(_MODULES[name]), "SPEC", None)
        if not isinstance(spec, RulesetSpec):
            raise SpecError(f"ruleset {name!r}: {_MODULES[name]} defines no SPEC = RulesetSpec(...)")
        if spec.name != name:
            raise SpecError(f"ruleset {name!r}: its SPEC is named {spec.name!r}")
        _cache[name] = spec
    return _cache[name]


@contextlib.contextmanager
def registered(name: str, module: str):
    """Register ruleset ``name`` (package ``module``) for the duration of a
    ``with`` block: a throwaway ruleset in a test, or a designer's ruleset
    outside this package."""
    if name in _MODULES:
        raise ValueError(f"ruleset {name!r} is already registered")
    _MODULES[name] = module
    try:
        yield get(name)
    finally:
        del _MODULES[name]
        _cache.pop(name, None)
        forget(module)


def policy_id(spec: RulesetSpec, name: str) -> int:
    """The kernel's id of a policy label (a variant ``greedy[...]`` plays
    greedy's id; ``core.variants`` checks its parameters)."""
    return spec.policies[parse_label(spec, name)[0]]


def package(name: str) -> str:
    """The dotted name of ruleset ``name``'s package (its ``PARAM_GROUPS``,
    files, README)."""
    get(name)                   # an unknown name: one clear error
    return _MODULES[name]


def fingerprint(name: str) -> str:
    """A hash of the code that decides ruleset ``name``'s games: its
    package's Python files plus every core file compiled into its kernel or
    used to build its tables (:data:`CORE_FILES`); ``core.fingerprint``,
    which the kernel cache reads without the registry."""
    return of_package(_MODULES[name])
