"""The README and docs/ name only what exists, so they cannot drift from the
code: every relative link and repository path they name exists, every
module of ``balance/core`` has its line in docs/architecture.md, the rules
contracts in docs/rules/ equal their source in ../shared/ (when that folder
is present), and every ``balance ...`` command line they give uses a
command and options the CLI has.

Fast on purpose: nothing here plays a game or compiles a kernel (the
commands are checked against click's declarations, not run).
"""
from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
SHARED = ROOT.parent / "shared"

# the first two commands of the README, exactly (a newcomer copies them;
# .ci/run runs the second)
INSTALL_RUN = ("python3 -m pip install -e . && balance run talisman --games 1000000 --players 2 "
               "--policy greedy --policy random --out out/talisman")
TEST = 'python3 -m pip install -e ".[test]" && python3 -m pytest -q -n 2 --dist loadgroup'

# first segments of a path the docs may name in code spans: repository
# folders, and folders inside balance/ (``core/jit.py``) or balance/rulesets/
# (``elite/engine/``) named short
TOP = ("balance", "docs", "tests", "scripts", "reports", "notebooks", ".ci")
INNER = ("core", "workflow", "cli", "rulesets")


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _prose(text: str) -> str:
    """The text without fenced code blocks (links inside them are code)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    s = re.sub(r"[`*_]", "", heading.strip().lower())
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(h) for h in re.findall(r"^#+\s+(.*)$", _prose(path.read_text()), re.M)}


def _links(path: Path):
    for target in re.findall(r"\]\(([^)\s]+)\)", _prose(path.read_text())):
        if not re.match(r"[a-z]+:", target):        # http:, https:, mailto:
            yield target


def _code_paths(path: Path):
    """Repository paths named in code spans and blocks: words whose first
    segment is a repository folder (or one inside balance/), without
    placeholders (``<slug>``) or globs."""
    text = path.read_text()
    spans = re.findall(r"`([^`]+)`", _prose(text)) + re.findall(r"^```.*?^```", text, re.S | re.M)
    spans += re.findall(r"^    \S.*$", text, re.M)        # indented code
    for span in spans:
        for word in re.split(r"[\s,;()'\"=]+", span):
            word = word.rstrip(".:")
            first = word.split("/", 1)[0]
            if ("/" in word and not re.search(r"[<>*{}$]", word)
                    and (first in TOP or first in INNER or (ROOT / "balance/rulesets" / first).is_dir())):
                yield word


def _exists(word: str, base: Path) -> bool:
    return any(p.exists() for p in (ROOT / word, ROOT / "balance" / word,
                                    ROOT / "balance/rulesets" / word, base / word))


@pytest.mark.parametrize("doc", DOCS, ids=_rel)
def test_links_lead_somewhere(doc):
    """Every relative link of the README and docs/*.md opens a file of the
    repository, and a link to a heading (``#log``) finds it."""
    bad = []
    for target in _links(doc):
        where, _, anchor = target.partition("#")
        dest = (doc.parent / where).resolve() if where else doc
        if not dest.exists():
            bad.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            bad.append(target)
    assert not bad, f"{_rel(doc)} links to what does not exist: {bad}"


@pytest.mark.parametrize("doc", DOCS, ids=_rel)
def test_named_paths_exist(doc):
    """Every repository path the README and docs/*.md name in code
    (``balance/core/jit.py``, ``tests/lazy.py``, ``core/parallel.py``)
    exists."""
    bad = sorted({w for w in _code_paths(doc) if not _exists(w, doc.parent)})
    assert not bad, f"{_rel(doc)} names paths that do not exist: {bad}"


def test_architecture_lists_every_core_module():
    """docs/architecture.md has a line for every module of balance/core (a
    subpackage's as ``engine/loop.py``), and names none that is gone: a new
    core module comes with its line."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    core = ROOT / "balance" / "core"
    files = {p.relative_to(core).as_posix() for p in core.rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(f for f in files if f"`{f}`" not in text)
    assert not missing, f"docs/architecture.md has no line for these modules of balance/core: {missing}"
    listed = set(re.findall(r"^\| `([\w/]+\.py)` \|", text, re.M))
    assert listed - files == set(), f"docs/architecture.md lists modules that are gone: {listed - files}"


def _copies():
    pairs = []
    for sub, pattern, dest in (("rules", "*.md", "docs/rules"), ("seeds", "*", "docs/rules/seeds")):
        src = SHARED / sub
        for f in sorted(src.glob(pattern)) if src.is_dir() else ():
            pairs.append(pytest.param(f, ROOT / dest / f.name, id=f"{sub}/{f.name}"))
    return pairs or [pytest.param(None, None, id="shared-absent")]


@pytest.mark.parametrize("source,copy", _copies())
def test_rules_copies_equal_shared(source, copy):
    """docs/rules/ holds the rules contracts and seed texts the project
    implements; they are still amended in ../shared/, so a copy that differs
    from its source fails (skipped where ../shared/ is absent, as in CI,
    which clones the repository alone)."""
    if source is None:
        pytest.skip("../shared/rules is not present (a clone of the repository alone)")
    assert copy.exists(), f"{_rel(copy)} is missing: copy it from {source}"
    assert copy.read_bytes() == source.read_bytes(), f"{_rel(copy)} differs from {source}"


def test_every_rules_contract_is_copied():
    """Every registered ruleset has its contract in docs/rules/, and every
    ruleset README cites it there (not in ../shared/, outside the
    repository)."""
    from balance.core import registry
    for name in registry.names():
        assert (ROOT / "docs" / "rules" / f"{name}.md").exists(), name
    for readme in sorted((ROOT / "balance" / "rulesets").glob("*/README.md")):
        assert "shared/rules/" not in readme.read_text(), _rel(readme)


def _command_lines(doc: Path):
    """Every ``balance ...`` command of a document, with whether it is a
    whole command to copy (code blocks, continuation lines joined) or a
    mention in prose (a code span, which may leave out the ruleset or write
    ``...``); each ``&&`` part on its own."""
    text = doc.read_text()
    blocks = re.findall(r"^```.*?^```", text, re.S | re.M)
    blocks.append("\n".join(re.findall(r"^    .*$", _prose(text), re.M)))
    lines = [(ln, True) for block in blocks for ln in re.sub(r"\\\n\s*", " ", block).splitlines()]
    lines += [(" ".join(span.split()), False) for span in re.findall(r"`([^`]+)`", _prose(text))]
    for line, whole in lines:
        for part in line.split("&&"):
            part = part.strip()
            if part.startswith("balance "):
                yield part, whole


def _commands():
    return [pytest.param(line, whole, id=f"{_rel(doc)}: {line[:60]}")
            for doc in DOCS for line, whole in _command_lines(doc)]


@pytest.mark.parametrize("line,whole", _commands())
def test_command_lines_use_real_commands_and_options(line, whole):
    """Each ``balance ...`` line names a command of ``balance.cli.cli`` and
    only options that command declares, and a whole command names a
    registered ruleset. The line is parsed, never run."""
    from balance.cli import cli
    from balance.core import registry
    words = shlex.split(line, comments=True)
    ctx = click.Context(cli)
    name = words[1]
    assert name in cli.list_commands(ctx), f"no command `balance {name}`"
    cmd = cli.get_command(ctx, name)
    options = {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)} | {"--help", "-h"}
    unknown = [w for w in words[2:] if w.startswith("-") and w.split("=")[0] not in options]
    assert not unknown, f"`balance {name}` has no option {unknown}"
    if any(p.name == "ruleset" for p in cmd.params):
        first = words[2] if len(words) > 2 else ""
        placeholder = first in ("", "...") or "<" in first or first.isupper()
        if whole or not placeholder:
            assert first in registry.names(), f"{line}: {first!r} is no registered ruleset"


def test_readme_starts_with_the_two_commands_and_ci_runs_the_second():
    """The README's first two commands are the install-and-run line and the
    test line, and .ci/run runs exactly that test command."""
    code = re.findall(r"^    (\S.*)$", README.read_text(), re.M)
    assert code[:2] == [INSTALL_RUN, TEST]
    ci = (ROOT / ".ci" / "run").read_text()
    pytest_line = TEST.split("&& ", 1)[1]
    assert [ln.strip() for ln in ci.splitlines() if "pytest" in ln and not ln.startswith("#")] \
        == [pytest_line]
    assert re.search(r'pip install[^\n]*-e "\.\[test\]"', ci)


def test_readme_fits_a_page():
    assert len(README.read_text().splitlines()) <= 120


def test_python_example_uses_the_public_api():
    """The README's Python example calls only what ``balance`` exports, and
    is valid Python (run by hand: it plays games)."""
    import balance
    code = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.S | re.M)
    assert code
    for block in code:
        tree = ast.parse(block)
        used = {n.attr for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.value.id == "balance"}
        assert used and used <= set(balance.__all__), used - set(balance.__all__)
