"""``loader.lines_of``: the line of a setting named by its path, for problems found after loading
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
    paths = ["stages[0].ranking.criteria[1]", "stages[1].ranking.criteria[1]", "stages[1]", "key"]
    assert loader.lines_of(TEXT, paths) == [5, 10, 6, 1]  # a flow list: the list's line


def test_a_path_not_in_the_text_stops_at_the_deepest_setting_found() -> None:
    assert loader.lines_of(TEXT, ["stages[1].ranking.playoff", "stages[9]"]) == [7, 2]


def test_text_that_does_not_load_has_no_line() -> None:
    assert loader.lines_of("a: [", ["a"]) == [None]
    assert loader.lines_of("a: " + "[" * 100 + "]" * 100, ["a", "b"]) == [None, None]
