"""``loader.line_of``: the line of a setting named by its path, for problems found after loading
(the engine's) to be shown beside their line like the loader's own."""

from __future__ import annotations

from podium.rules import loader

TEXT = """\
key: demo
stages:
  - key: first
    ranking:
      criteria: [finished, time]
  - key: second
    ranking:
      criteria:
        - key: total
        - key: high-game
"""


def test_a_path_names_the_line_of_its_setting() -> None:
    assert loader.line_of(TEXT, "stages[0].ranking.criteria[1]") == 5  # a flow list: its line
    assert loader.line_of(TEXT, "stages[1].ranking.criteria[1]") == 10
    assert loader.line_of(TEXT, "stages[1]") == 6
    assert loader.line_of(TEXT, "key") == 1


def test_a_path_not_in_the_text_stops_at_the_deepest_setting_found() -> None:
    assert loader.line_of(TEXT, "stages[1].ranking.playoff") == 7
    assert loader.line_of(TEXT, "stages[9]") == 2


def test_text_that_does_not_load_has_no_line() -> None:
    assert loader.line_of("a: [", "a") is None
    assert loader.line_of("a: " + "[" * 100 + "]" * 100, "a") is None  # deeper than allowed
