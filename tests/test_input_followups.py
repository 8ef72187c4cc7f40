"""Input a new user tripped on (issue 34, follow-ups): each is refused in one
line with exit code 2, or said in one warning line, never played silently."""
import pytest
from click.testing import CliRunner

from balance.cli import cli


@pytest.fixture
def runner():
    return CliRunner()


def invoke(runner, *args):
    return runner.invoke(cli, [str(a) for a in args])


def error_line(r) -> str:
    """The one ``Error:`` line of a refused command (exit code 2, no traceback)."""
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output, r.output
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error:"), err
    return err


# --- 1. an integer parameter refuses a float spelling ------------------------

@pytest.mark.parametrize("value", ["30.0", "30.", "2.5e1", "1e-1"])
def test_set_refuses_a_float_spelling_of_an_integer(runner, tmp_path, value):
    r = invoke(runner, "run", "talisman", "--games", 10, "--set", f"hp={value}",
               "--out", tmp_path / "o")
    err = error_line(r)
    assert f"'hp': '{value}'" in err and "int in [1, 1000]" in err
    assert "decimal point" in err


def test_config_refuses_a_float_for_an_integer(runner, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[params]\nhp = 30.0\n")
    r = invoke(runner, "run", "talisman", "--games", 10, "--config", cfg, "--out", tmp_path / "o")
    err = error_line(r)
    assert "'hp': 30.0" in err and "int in [1, 1000]" in err


def test_whole_numbers_still_pass():
    from balance.core import registry
    space = registry.get("talisman").space
    v = space.resolve({"hp": "30", "max_turns": "1e3", "min_combo_value": "7.0"})
    assert v["hp"] == 30 and v["max_turns"] == 1000 and v["min_combo_value"] == 7.0
