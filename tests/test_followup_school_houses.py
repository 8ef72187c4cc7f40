"""Issue 34 item 4: a suit-to-house map that leaves a house without a suit
(``--set house_of_heart=2``: ♥ and ♦ both magister, no priest suit) is a
legal variant (the contract makes ``house_of_suit`` a parameter; the README
lets two suits share a house), so it plays, with one warning line on
standard error that says what it does; a one-to-one map prints nothing."""
import pytest
from click.testing import CliRunner

from balance.cli import cli
from balance.core.setup import setup
from balance.rulesets.school import rules


@pytest.fixture(autouse=True)
def _fresh(monkeypatch):
    monkeypatch.setattr(rules, "_WARNED", set())


def test_two_suits_in_one_house_warn_once_with_what_it_does(capsys):
    setup("school", players=4, params={"house_of_heart": 2})
    setup("school", players=4, params={"house_of_heart": 2})   # once per process
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("Warning: school: house_of_heart=2: ♥ and ♦ score for the "
                               "magister; no suit scores for the priest")


def test_a_one_to_one_map_is_silent(capsys):
    setup("school", players=4)
    setup("school", players=4, params={"house_of_spade": 1, "house_of_heart": 0})
    assert capsys.readouterr().err == ""


def test_the_cli_plays_the_variant_and_prints_one_warning_line(tmp_path):
    r = CliRunner().invoke(cli, ["run", "school", "--players", "4", "--games", "20",
                                 "--threads", "1", "--set", "house_of_heart=2",
                                 "--out", str(tmp_path / "o")])
    assert r.exit_code == 0, r.output
    warn = [x for x in r.stderr.splitlines() if x.startswith("Warning:")]
    assert len(warn) == 1 and "house_of_heart=2" in warn[0] and "priest" in warn[0]
