"""The shape of a ruleset package: every file is named by its role.

A reader who knows one ruleset finds the same thing at the same place in
every other: the parameters in ``rules.py``, the state in ``state.py``, the
rules as steps in ``step.py``, the heuristics in ``policies.py``. The
contract test (``tests/test_ruleset_contract.py``) runs
:func:`check_package` over every registered ruleset and the coin flip.

Roles (``docs/ruleset.md`` says what each provides):

- required: ``__init__`` (``SPEC``), ``rules``, ``layout``, ``state``,
  ``step``, ``policies``, ``replay``, ``scenario``, ``kernel`` and
  ``README.md``;
- optional: ``cards`` (card data and its loaders), ``tables`` (the
  ruleset's own result tables, ``SPEC.summary``: pure pandas) and
  ``reference`` (a plain-Python implementation the checks compare the
  kernel with).

A role too long for one file continues in modules named ``<role>_<part>``
(``step_fight.py``, ``step_turn.py``): the name still says the role, and a
flat package keeps imports one-way with no package ``__init__`` running
first. Data files (``.csv``, ``.json``) may sit beside the modules.

A ruleset compiled once per version group (Magic Elite: versions 1-2 and 3,
``core.jit.variant_package``) keeps its compiled roles in one sub-package
``engine/``: ``state``, ``step``, ``policies``, ``kernel`` (the engine bound
to that ``step``) with their ``<role>_<part>`` modules and an optional
``cards``; the package's own top level then holds the other roles and a
``kernel`` that picks the version's engine.

Pure Python, no imports of the package: the check reads file names only.
"""
from __future__ import annotations

from pathlib import Path

REQUIRED = ("__init__", "rules", "layout", "state", "step", "policies", "replay", "scenario",
            "kernel")
OPTIONAL = ("cards", "tables", "reference")
# roles that may continue in <role>_<part> modules
SPLIT = ("state", "step", "policies", "cards")
# the roles a per-version ``engine/`` sub-package holds instead of the top level
COMPILED = ("state", "step", "policies")
ENGINE_REQUIRED = ("__init__", "state", "step", "policies", "kernel")
DATA = (".csv", ".json")


def _role(stem: str) -> str | None:
    """The role a module stem names (``step_fight`` -> ``step``), or None."""
    if stem in REQUIRED or stem in OPTIONAL:
        return stem
    head, _, part = stem.partition("_")
    return head if head in SPLIT and part else None


def _check_files(where: Path, required, allowed_roles, problems: list[str], label: str):
    stems = set()
    for f in sorted(where.iterdir()):
        if f.name in ("__pycache__", "README.md") or f.name.startswith("."):
            continue
        if f.is_dir():
            if f.name == "engine" and label == "" and (f / "__init__.py").exists():
                continue
            problems.append(f"{label}{f.name}/: a folder that is not a role (only a per-version "
                            "engine/ may be one)")
            continue
        if f.suffix in DATA:
            continue
        if f.suffix != ".py":
            problems.append(f"{label}{f.name}: not a module, README.md or data")
            continue
        role = _role(f.stem)
        if role is None or role not in allowed_roles:
            problems.append(f"{label}{f.name}: not a role ({', '.join(allowed_roles)}) or "
                            f"<role>_<part> of {', '.join(SPLIT)}")
        stems.add(f.stem)
    for r in required:
        if r not in stems:
            problems.append(f"{label}{r}.py: missing")


def check_package(path) -> list[str]:
    """The ways the ruleset package at ``path`` departs from the shape
    (empty: it has it); one line each, naming the file."""
    path = Path(path)
    problems: list[str] = []
    if not (path / "README.md").exists():
        problems.append("README.md: missing")
    engine = path / "engine"
    if (engine / "__init__.py").exists():
        top = tuple(r for r in REQUIRED if r not in COMPILED)
        _check_files(path, top, tuple(r for r in REQUIRED + OPTIONAL if r not in COMPILED),
                     problems, "")
        _check_files(engine, ENGINE_REQUIRED, ENGINE_REQUIRED + ("cards",), problems, "engine/")
    else:
        _check_files(path, REQUIRED, REQUIRED + OPTIONAL, problems, "")
    return problems
