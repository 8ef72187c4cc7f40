"""The imports of ``balance/`` run one way: no module imports one that
imports it back, directly or through others, no module imports a private
name (``_x``) of another, no part imports a part above it, and inside
``balance/core`` no module imports one of a later layer (``CORE_LAYERS``).

The imports are read from the source with ``ast``, not by importing
anything, so the test is fast and sees every import: those at module level
and those inside functions (an import deferred into a function still makes
the two modules depend on each other; it only hides a circle from Python).
Relative imports are resolved; ``from pkg import name`` is an import of the
submodule ``pkg.name`` when that is a module, else of ``pkg``;
``importlib.import_module("balance...")`` with a literal name counts too.
Importing ``a.b`` also runs ``a/__init__.py``, but a package's
``__init__`` is not counted as imported by its own submodules (every module
would then import ``balance/__init__.py``): only a written import of it is.

``python3 tests/test_layers.py`` prints every edge, module-level and
deferred (inside a function) listed separately, then the circles and
core's layers.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "balance"

# Import edges (importer, imported) that still close a circle, each with the
# issue it belongs to. The list may only shrink: an entry whose edge no
# longer exists or no longer lies on a circle fails the test, and no entry
# may start in balance/core (core holds no circle, with nothing allowed).
ALLOWED_CIRCLES: dict[tuple[str, str], str] = {
}

# Imports of another module's private name (importer, module, name), each
# with its issue; may only shrink, like ALLOWED_CIRCLES (empty: none left).
ALLOWED_PRIVATE: dict[tuple[str, str, str], str] = {
}


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str
    line: int
    deferred: bool      # inside a function: runs when called, not on import

    def __str__(self):
        where = "in a function" if self.deferred else "module level"
        return f"{self.importer} -> {self.imported} (line {self.line}, {where})"


def modules() -> dict[str, Path]:
    """Every module under balance/, by dotted name (a package by its own)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_package(name: str, mods: dict[str, Path]) -> bool:
    return mods[name].name == "__init__.py"


def _walk(tree: ast.AST):
    """(node, inside a function) for every node of ``tree``."""
    stack = [(tree, False)]
    while stack:
        node, deferred = stack.pop()
        yield node, deferred
        inner = deferred or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _target(dotted: str, mods: dict[str, Path]) -> str | None:
    """The module of ``balance`` that importing ``dotted`` names: itself, or
    the nearest enclosing module (``import balance.core.x.y`` of a name y)."""
    while dotted:
        if dotted in mods:
            return dotted
        dotted = dotted.rpartition(".")[0]
    return None


def _base(importer: str, level: int, mods: dict[str, Path]) -> str:
    """The package a relative import of ``level`` dots starts from."""
    pkg = importer if _is_package(importer, mods) else importer.rpartition(".")[0]
    for _ in range(level - 1):
        pkg = pkg.rpartition(".")[0]
    return pkg


def imports(mods: dict[str, Path] | None = None):
    """Every import of one balance module by another: ``(edges, private)``,
    the :class:`Edge` list and the ``(importer, imported, name)`` triples of
    private names taken from another module (imported, or read as an
    attribute of an imported module)."""
    mods = mods or modules()
    edges: list[Edge] = []
    private: list[tuple[str, str, str]] = []
    for name, path in mods.items():
        tree = ast.parse(path.read_text(), str(path))
        bound: dict[str, str] = {}          # local name -> balance module it is
        for node, deferred in _walk(tree):
            found: list[tuple[str, str | None]] = []       # (module, name taken from it)
            if isinstance(node, ast.Import):
                for alias in node.names:
                    t = _target(alias.name, mods)
                    if t:
                        found.append((t, None))
                        if alias.asname:
                            bound[alias.asname] = t
            elif isinstance(node, ast.ImportFrom):
                src = node.module or ""
                if node.level:
                    base = _base(name, node.level, mods)
                    src = f"{base}.{src}" if src else base
                if _target(src, mods) is None:
                    continue
                for alias in node.names:
                    sub = f"{src}.{alias.name}"
                    if sub in mods:
                        found.append((sub, None))
                        bound[alias.asname or alias.name] = sub
                    else:
                        found.append((_target(src, mods), alias.name))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "import_module" and node.args
                  and isinstance(node.args[0], ast.Constant)
                  and isinstance(node.args[0].value, str)):
                t = _target(node.args[0].value, mods)
                if t:
                    found.append((t, None))
            for target, taken in found:
                if target != name:
                    edges.append(Edge(name, target, node.lineno, deferred))
                if taken and _private(taken) and target != name:
                    private.append((name, target, taken))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in bound and _private(node.attr)
                    and bound[node.value.id] != name):
                private.append((name, bound[node.value.id], node.attr))
    return edges, sorted(set(private))


@functools.lru_cache(maxsize=1)
def package_imports():
    """:func:`imports` of balance/, read once for all the tests here."""
    return imports()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def graph(edges) -> dict[str, set[str]]:
    g: dict[str, set[str]] = {}
    for e in edges:
        g.setdefault(e.importer, set()).add(e.imported)
        g.setdefault(e.imported, set())
    return g


def components(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``g`` with more than one module
    (Tarjan, iterative): each is one or more circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out = []
    counter = 0
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def circle(g: dict[str, set[str]], comp: list[str]) -> list[str]:
    """One shortest circle through the first module of ``comp``."""
    start, inside = comp[0], set(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(g[v] & inside):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return [*reversed(path), start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    raise AssertionError(f"no circle in {comp}")


def describe(edges, path: list[str]) -> str:
    first = {}
    for e in edges:
        first.setdefault((e.importer, e.imported), e)
    return "\n".join(f"    {first[a, b]}" for a, b in zip(path, path[1:]))


def test_no_import_circle():
    edges, _ = package_imports()
    kept = [e for e in edges if (e.importer, e.imported) not in ALLOWED_CIRCLES]
    g = graph(kept)
    found = [circle(g, c) for c in components(g)]
    assert not found, "import circles in balance/ (break them; see docs/architecture.md):\n" + \
        "\n".join(f"  {' -> '.join(p)}:\n{describe(kept, p)}" for p in found)


def test_allowed_circles_only_shrink():
    edges, _ = package_imports()
    g = graph(edges)
    on_circle = {(a, b) for comp in components(g) for a in comp for b in g[a] if b in comp}
    for (a, b), why in ALLOWED_CIRCLES.items():
        assert why.strip(), f"allowed circle edge {a} -> {b} says no issue"
        assert not a.startswith("balance.core"), \
            f"{a} -> {b}: balance/core holds no circle, none may be allowed there"
        assert (a, b) in on_circle, \
            f"{a} -> {b} no longer closes a circle: remove it from ALLOWED_CIRCLES"


# What each part of balance/ may not import: the layers above it. core knows
# no ruleset by name (the registry imports them from its table of names, which
# is no import statement) and nothing above; a ruleset builds on core alone;
# the workflow reaches rulesets through the registry and knows no command line.
FORBIDDEN = {
    "core": ("balance", "balance.rulesets", "balance.workflow", "balance.cli"),
    "rulesets": ("balance", "balance.workflow", "balance.cli"),
    "workflow": ("balance.rulesets", "balance.cli"),
}

# Imports of a layer above, each with its issue; may only shrink.
ALLOWED_UP: dict[tuple[str, str], str] = {}


def _part(module: str) -> str:
    return module.split(".")[1] if module.count(".") else "top"


def _within(module: str, prefix: str) -> bool:
    return module == prefix or (prefix != "balance" and module.startswith(prefix + "."))


def test_no_layer_imports_one_above_it():
    """core imports no ruleset, nor the package top (``balance/__init__``,
    which reaches the workflow), the workflow or the command line; a ruleset
    imports none of the last three; the workflow no ruleset and no command."""
    edges, _ = package_imports()
    up = {(e.importer, e.imported): e for e in edges
          if any(_within(e.imported, f) for f in FORBIDDEN.get(_part(e.importer), ()))}
    left = [e for k, e in up.items() if k not in ALLOWED_UP]
    assert not left, "imports of a layer above:\n" + "\n".join(f"  {e}" for e in left)
    for (a, b), why in ALLOWED_UP.items():
        assert why.strip() and (a, b) in up, f"{a} -> {b}: remove it from ALLOWED_UP"
        assert not a.startswith("balance.core"), f"{a} -> {b}: core may import no layer above"


def test_no_private_name_across_modules():
    _, private = package_imports()
    left = [p for p in private if p not in ALLOWED_PRIVATE]
    assert not left, "private names imported from another module (make them public where " \
        "they are shared):\n" + "\n".join(f"  {a} takes {n} from {b}" for a, b, n in left)
    for key, why in ALLOWED_PRIVATE.items():
        assert why.strip() and key in private, f"{key}: remove it from ALLOWED_PRIVATE"


# The layers of balance/core, lowest first: every module of core is in one,
# and none imports (at its top or inside a function) a module of a later
# layer. A new core module fails test_every_core_module_has_a_layer until it
# is placed here (and in the picture of docs/architecture.md). Names are
# relative to balance.core; "__init__" is the package marker itself.
CORE_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("plain helpers: import nothing of the package but each other",
     ("__init__", "errors", "fingerprint", "outdir", "io", "stats")),
    ("declarations: what a ruleset and its records are; no numba",
     ("params", "layout", "records", "variants", "search", "spec", "registry", "package",
      "replay")),
    ("compiled engine: numba, the kernel cache and the kernels every ruleset shares",
     ("compiled", "jit", "rng", "kernel", "tally", "engine", "engine.inlining", "engine.loop",
      "engine.search")),
    ("a run's configuration: its inputs checked, what the machine allows",
     ("config", "setup", "machine")),
    ("execution: the kernel called on threads or on Dask workers, the checkpoint store, "
     "one game played from Python",
     ("parallel", "batch", "cluster", "store", "scenario", "engine.contract")),
    ("sinks and results: a chunk kept as tables or as sums, and the run read from them",
     ("sinks", "summary", "paired", "results", "plots")),
    ("a run played: chunk source -> executor -> sink; simulate, replay",
     ("play",)),
)


def core_layer() -> dict[str, int]:
    """balance.core module -> the index of its layer in CORE_LAYERS."""
    out = {}
    for i, (_, names) in enumerate(CORE_LAYERS):
        for n in names:
            full = "balance.core" if n == "__init__" else f"balance.core.{n}"
            assert full not in out, f"{full} is in two layers of CORE_LAYERS"
            out[full] = i
    return out


def test_every_core_module_has_a_layer():
    """CORE_LAYERS places every module of balance/core, and no module that
    is gone."""
    core = {m for m in modules() if _within(m, "balance.core")}
    placed = set(core_layer())
    assert not core - placed, f"core modules in no layer of CORE_LAYERS: {sorted(core - placed)}"
    assert not placed - core, f"CORE_LAYERS places modules that are gone: {sorted(placed - core)}"


def test_no_core_module_imports_a_later_layer():
    """No module of balance/core imports one of a later layer of
    CORE_LAYERS, at its top or inside a function."""
    edges, _ = package_imports()
    layer = core_layer()
    back = sorted({str(e) + f": layer {layer[e.importer]} imports layer {layer[e.imported]}"
                   for e in edges if e.importer in layer and e.imported in layer
                   and layer[e.imported] > layer[e.importer]})
    assert not back, "core modules importing a later layer (CORE_LAYERS):\n" + \
        "\n".join(f"  {b}" for b in back)


def test_walker_sees_every_kind_of_import(tmp_path):
    """The walker itself: relative imports at every depth, submodules taken
    by ``from pkg import mod``, deferred imports, private names, circles."""
    pkg = tmp_path / "balance"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .core.a import f\n")
    (pkg / "core" / "__init__.py").write_text("")
    (pkg / "core" / "a.py").write_text("from . import b\n\ndef f():\n    from .c import _g\n")
    (pkg / "core" / "b.py").write_text("import balance.core.c as c\nx = c._h\n")
    (pkg / "core" / "c.py").write_text("def g():\n    from .. import core\n    from ..core.a import f\n")
    mods = {}
    for path in sorted(pkg.rglob("*.py")):
        parts = list(path.relative_to(tmp_path).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    edges, private = imports(mods)
    got = {(e.importer, e.imported, e.deferred) for e in edges}
    assert got == {("balance", "balance.core.a", False),
                   ("balance.core.a", "balance.core.b", False),
                   ("balance.core.a", "balance.core.c", True),
                   ("balance.core.b", "balance.core.c", False),
                   ("balance.core.c", "balance.core", True),
                   ("balance.core.c", "balance.core.a", True)}
    assert private == [("balance.core.a", "balance.core.c", "_g"),
                       ("balance.core.b", "balance.core.c", "_h")]
    g = graph(edges)
    assert components(g) == [["balance.core.a", "balance.core.b", "balance.core.c"]]
    assert circle(g, components(g)[0]) == ["balance.core.a", "balance.core.c", "balance.core.a"]


if __name__ == "__main__":
    edges, private = imports()
    for deferred, title in ((False, "module-level imports"), (True, "imports inside functions")):
        chosen = sorted({(e.importer, e.imported) for e in edges if e.deferred == deferred})
        print(f"{title} ({len(chosen)}):")
        for a, b in chosen:
            print(f"  {a} -> {b}")
    g = graph(edges)
    print("circles:")
    for comp in components(g):
        print(f"  {len(comp)} modules: {' '.join(comp)}")
        print(describe(edges, circle(g, comp)))
    print("core layers, lowest first:")
    for i, (what, names) in enumerate(CORE_LAYERS):
        print(f"  {i} {what}: {' '.join(names)}")
    print("private names taken from another module:")
    for a, b, n in private:
        print(f"  {a} takes {n} from {b}")
