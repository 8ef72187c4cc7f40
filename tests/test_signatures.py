"""No compiled function of a ruleset takes more than 12 arguments: a game
step takes the ruleset's ``State`` and ``Ctx`` (and the records it writes),
not the loose arrays they hold (the game-engine contract,
``balance/core/engine/__init__.py``).

The functions are read from the source with ``ast`` (a function counts as
compiled when one of its decorators names ``njit`` or one of the named
decorators of ``balance/core/compiled.py``), so the test is fast and
compiles nothing. ``python3 tests/test_signatures.py`` prints every
compiled function over the limit.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "balance" / "rulesets"
LIMIT = 12
# the named ways to compile (core/compiled.py's __all__), read from its source
COMPILED = ROOT / "balance" / "core" / "compiled.py"
NAMED = tuple(n.name for n in ast.parse(COMPILED.read_text(encoding="utf-8")).body
              if isinstance(n, ast.FunctionDef))

# Functions allowed over the limit (path under balance/rulesets, name), each
# with what is left to do: none. The list may only shrink: an entry that is
# no longer over the limit fails the test, so it is removed when fixed.
ALLOWED: dict[tuple[str, str], str] = {}


def is_compiling(decorator: ast.expr) -> bool:
    """A decorator that compiles: ``njit(...)``/``numba.njit`` or a name of
    ``core/compiled.py`` (``@compiled``, ``@inlined``, ...)."""
    text = ast.unparse(decorator)
    return "njit" in text or text in NAMED


def test_the_named_decorators_are_seen():
    """The check reads the named decorators, so a function decorated with
    ``@compiled`` counts (it could not fail otherwise)."""
    assert {"compiled", "internal", "inlined", "ir_inlined"} <= set(NAMED)
    fn = ast.parse("@compiled\ndef f(a):\n    pass\n").body[0]
    assert is_compiling(fn.decorator_list[0])


def over(root: Path = RULESETS, limit: int = LIMIT) -> dict[tuple[str, str], int]:
    """(path under ``root``, function name) -> parameter count (positional
    and keyword-only) of every njit function over ``limit``."""
    found = {}
    for f in sorted(root.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            if not isinstance(n, ast.FunctionDef):
                continue
            if not any(is_compiling(d) for d in n.decorator_list):
                continue
            k = len(n.args.posonlyargs) + len(n.args.args) + len(n.args.kwonlyargs)
            if k > limit:
                found[(f.relative_to(root).as_posix(), n.name)] = k
    return found


def test_no_compiled_function_of_a_ruleset_takes_more_than_12_arguments():
    found = {k: v for k, v in over().items() if k not in ALLOWED}
    assert not found, "njit functions over 12 arguments (pass State/Ctx instead):\n" + \
        "\n".join(f"  {p}: {name} ({k})" for (p, name), k in sorted(found.items()))


def test_allowed_only_shrinks():
    fixed = [k for k in ALLOWED if k not in over()]
    assert not fixed, f"no longer over the limit, remove from ALLOWED: {fixed}"


def test_the_walker_counts_compiled_functions_only(tmp_path):
    args = ", ".join(f"a{i}" for i in range(13))
    (tmp_path / "m.py").write_text(
        "from numba import njit\n\n"
        f"@njit(cache=True)\ndef wide({args}):\n    return a0\n\n"
        f"@njit\ndef bare({args}, *, k=1):\n    return a0\n\n"
        f"def plain({args}):\n    return a0\n\n"
        "@njit(cache=True)\ndef narrow(a, b):\n    return a\n")
    assert over(tmp_path) == {("m.py", "wide"): 13, ("m.py", "bare"): 14}


if __name__ == "__main__":
    for (p, name), k in sorted(over().items()):
        print(f"{p}: {name} ({k})")
