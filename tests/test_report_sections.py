"""The report's sections that depend on what a ruleset declares: its own
figures (``spec.summary``: scalars, lists of rows, dicts, dicts of dicts)
and the capped-games finding for rulesets with and without a turn cap."""
from pathlib import Path

from click.testing import CliRunner

from balance.cli import cli
from balance.core import registry
from balance.workflow.report import Doc, cap_finding, ruleset_figures


def test_ruleset_figures_render_scalars_rows_dicts_and_dicts_of_dicts(tmp_path):
    doc = Doc(Path(tmp_path))
    ruleset_figures(doc, {
        "casts_per_game": 9.726545, "note": "a sentence", "interval": [0.18, 0.19],
        "houses": [{"house": "wizard", "share": 0.23456}, {"house": "muggle", "share": 0.357}],
        "outcomes": {"games": 20000, "no_winner_share": 0.18575, "no_winner_ci": [0.1804, 0.1912]},
        "by_character": {"7 glutton": {"n": 10, "win_rate": 0.51402, "firer": {"n": 3}},
                         "8 devil": {"n": 12, "win_rate": 0.4}},
    })
    md = doc.markdown()
    # scalars, sentences and short lists of numbers: one bullet each
    assert "- casts per game: 9.727" in md
    assert "- note: a sentence" in md
    assert "- interval: [0.18, 0.19]" in md
    # a list of rows: a table with its columns
    assert "| house | share |" in md and "| wizard | 0.235 |" in md
    # a dict: figure / value rows (lists as intervals)
    assert "Outcomes:" in md and "| figure | value |" in md
    assert "| no winner share | 0.1857 |" in md and "| no winner ci | [0.1804, 0.1912] |" in md
    # a dict of dicts: one row per key, nested keys joined, missing cells empty
    assert "|  | n | win_rate | firer n |" in md
    assert "| 7 glutton | 10 | 0.514 | 3 |" in md and "| 8 devil | 12 | 0.4 |  |" in md
    assert "<table" in doc.html("t")


def test_the_capped_games_finding_with_and_without_a_turn_cap():
    games = {"rounds": (6, 6), "turns": (18, 18)}         # shortest and longest game
    school = registry.get("school")
    line = cap_finding("school", school, {"hand_limit": 4}, {"games": 3, "end_reasons": {}}, games)
    assert "?" not in line
    assert line.startswith("No turn cap: school has no `max_turns` parameter")
    assert "every game lasts 6 rounds (18 turns)" in line
    varied = {"rounds": (3, 5), "turns": (9, 15)}
    line = cap_finding("school", school, {}, {"games": 2, "end_reasons": {}}, varied)
    assert "games last 3 to 5 rounds (9 to 15 turns)" in line
    talisman = registry.get("talisman")
    line = cap_finding("talisman", talisman, {"max_turns": 200},
                       {"games": 400, "end_reasons": {"turn_cap": 4}}, games)
    assert line.startswith("Capped games (turn cap 200 reached, a draw): 4 of 400 = 1.00% [")


def test_the_school_report_carries_the_games_own_tables(tmp_path):
    out = tmp_path / "r"
    lineup = ["--policy", "informed", "--policy", "random"] * 2
    r = CliRunner().invoke(cli, ["report", "school", "--games", "300", "--seed", "1",
                                 "--players", "4", *lineup, "--sweep-games", "40",
                                 "--cards-games", "40", "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    assert "turn cap ?" not in md and "No turn cap: school has no `max_turns` parameter" in md
    assert "every game lasts 6 rounds" in md
    section = md[md.index("## Ruleset figures"):md.index("## Per-card power")]
    for text in ("- no winner: ", "- house ties: ", "- sage advantage: the first sage wins",
                 "- round6 invisible cost: the round-6 invisible player", "Houses:",
                 "| house | seat_share | house_wins |", "Sage and invisible:",
                 "| invisible in round 6 |", "Spells:", "| who | casts_white | casts_black |",
                 "| steals | draws | swaps |", "Card values:",
                 "| value | in_white_book | in_black_book | casts_per_game | wr_cast |",
                 "| wr_fate |", "| pile_win_with |", "| K |", "Outcomes:", "Advantages:"):
        assert text in section, text


def test_a_first_report_says_nothing_resumed_and_a_rerun_says_what_it_reused(tmp_path):
    from click.testing import CliRunner
    from balance.cli import cli
    out = tmp_path / "rep"
    args = ["report", "talisman", "--games", "60", "--policy", "greedy", "--out", str(out)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert "resumed" not in first.output        # the sweeps' shared point is not a resume
    again = CliRunner().invoke(cli, args + ["--force"])
    assert again.exit_code == 0, again.output
    lines = [ln for ln in again.output.splitlines() if "resumed" in ln]
    assert len(lines) == 1 and "reused from" in lines[0], again.output


def test_the_report_has_the_advantage_table_and_a_moving_fair_share(tmp_path):
    from click.testing import CliRunner
    from balance.cli import cli
    out = tmp_path / "school"
    r = CliRunner().invoke(cli, ["report", "school", "--games", "300", "--players", "4",
                                 "--policy", "informed", "--policy", "random", "--policy",
                                 "informed", "--policy", "random", "--sweep-games", "100", "--cards-games", "60", "--out", str(out)])
    assert r.exit_code == 0, r.output
    md = (out / "report.md").read_text()
    assert "Advantage of the first policy over the second" in md and "0 is even, not 50%" in md
    sweeps = [ln for ln in md.splitlines() if ln.startswith("- Sweeping")]
    assert sweeps and all("the fair share (the mean of these rates" in ln for ln in sweeps), sweeps
