"""The README's commands run as written, on fewer games.

``tests/test_docs.py`` parses every command line of the docs against the
CLI's declarations; this runs the README's: the first command and each
designer command, as they are printed, with only the number of games (and
the report's and the tuner's own budgets) made small and the output folder
moved into the test's temporary folder, and the Python example with its
game counts divided by 100. A command that no longer runs as the README
shows it fails here.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

# what each command adds (or replaces) to run small: option -> value
SMALL = {"--games": "300"}
SMALL_BY_COMMAND = {
    "report": {"--sweep-games": "200", "--cards-games": "200", "--skill-games": "20",
               "--skill-seconds": "0"},
    "tune": {"--trials": "2", "--trial-games": "300", "--min-games": "300",
             "--recheck-games": "200"},
}


def _readme_commands() -> list[str]:
    """The README's whole ``balance ...`` commands (its indented lines), the
    ``&&`` parts apart, comments dropped."""
    out = []
    for line in re.findall(r"^    (\S.*)$", README.read_text(), re.M):
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            if words and words[0] == "balance":
                out.append(shlex.join(words))
    return out


def small(words: list[str], out: Path) -> list[str]:
    """``words`` (after ``balance``) with the games, budgets and output folder
    replaced or added."""
    want = {**SMALL, **SMALL_BY_COMMAND.get(words[0], {}), "--out": str(out)}
    words = list(words)
    for opt, value in want.items():
        if opt in words:
            words[words.index(opt) + 1] = value
        else:
            words += [opt, value]
    return words


def test_readme_has_the_designer_commands():
    names = [shlex.split(c)[1] for c in _readme_commands()]
    assert {"run", "sweep", "compare", "cards", "matchups", "report", "tune"} <= set(names), names


def test_small_replaces_and_adds():
    got = small(["run", "talisman", "--games", "1000000", "--out", "out/t"], Path("/x"))
    assert got == ["run", "talisman", "--games", "300", "--out", "/x"]
    got = small(["tune", "elite", "--vary", "hand_damage_value"], Path("/y"))
    assert got[:4] == ["tune", "elite", "--vary", "hand_damage_value"]
    assert dict(zip(got[4::2], got[5::2])) == {"--games": "300", "--trials": "2",
                                               "--trial-games": "300", "--min-games": "300",
                                               "--recheck-games": "200", "--out": "/y"}


@pytest.mark.parametrize("line", _readme_commands(), ids=lambda c: c[:70])
def test_readme_command_runs(line, tmp_path, monkeypatch):
    from balance.cli import cli
    monkeypatch.chdir(tmp_path)
    words = small(shlex.split(line)[1:], tmp_path / "out")
    res = CliRunner().invoke(cli, words, catch_exceptions=False)
    assert res.exit_code == 0, f"balance {shlex.join(words)}\n{res.output}"
    assert res.output.strip(), f"balance {shlex.join(words)} printed nothing"
    assert any((tmp_path / "out").iterdir()), f"balance {shlex.join(words)} wrote nothing"


def test_readme_python_example_runs(tmp_path, monkeypatch):
    """The Python example, its game counts (numbers of 10,000 and more)
    divided by 100, run in a temporary folder."""
    code = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.S | re.M)
    assert len(code) == 1
    shrunk, n = re.subn(r"\b(\d{1,3})_000\b",
                        lambda m: str(int(m.group(1)) * 10) if int(m.group(1)) >= 10
                        else m.group(0), code[0])
    assert n >= 3, "the example's game counts were not found"
    monkeypatch.chdir(tmp_path)
    exec(compile(shrunk, "README.md (python example)", "exec"), {})
    assert (tmp_path / "out" / "x" / "summary.json").exists()
