"""The scoresheet of a ten-pin game: marks and running totals per frame, also mid-game.

Hand-worked: the World Bowling scoresheet (rule 2.1.2) ``X X X 7 2 (8)/ F9 X 7/ 9- XX8`` runs
30, 57, 76, 85, 95, 104, 124, 143, 152, 180. Mid-game, ``X 7 /`` shows 20 after frame 1 (the
strike's bonus is 7 + 3) and nothing after frame 2 (the spare waits for its bonus roll).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from podium.engine.errors import InputError
from podium.engine.scoresheet import marks_of, read_sheet

SHEET = json.loads(
    (Path(__file__).resolve().parents[1] / "data/bowling/worldbowling-scoresheet.json").read_text()
)


def test_the_world_bowling_scoresheet() -> None:
    sheet = read_sheet(marks_of(SHEET["scoresheet_marks"]))
    assert list(sheet.rolls) == SHEET["rolls"]
    assert [f.total for f in sheet.frames] == SHEET["cumulative_frame_scores"]
    assert sheet.total == 180
    assert sheet.complete
    assert [" ".join(f.marks) for f in sheet.frames] == [
        "X", "X", "X", "7 2", "8 /", "F 9", "X", "7 /", "9 -", "X X 8",
    ]  # fmt: skip
    assert sheet.text == "X X X 7 2 8 / F 9 X 7 / 9 - X X 8"


@pytest.mark.parametrize(
    ("typed", "marks"),
    [
        ("X 7/ 9- XX8", ["X", "7", "/", "9", "-", "X", "X", "8"]),
        ("10 10 -1", ["10", "10", "-", "1"]),
        # A frame that starts with a miss, as the scoresheet writes it: "-8" is 0 then 8.
        ("-8 X", ["-", "8", "X"]),
        ("X -8 -10", ["X", "-", "8", "-", "10"]),
        ("x | 7 / | f9", ["X", "7", "/", "F", "9"]),
        ("", []),
    ],
)
def test_typed_rolls(typed: str, marks: list[str]) -> None:
    assert marks_of(typed) == marks


def test_a_game_in_progress_shows_the_frames_it_can_score() -> None:
    sheet = read_sheet(marks_of("X 7 /"))
    assert [(f.marks, f.total) for f in sheet.frames] == [(("X",), 20), (("7", "/"), None)]
    assert sheet.total is None
    assert not sheet.complete
    tenth = read_sheet(marks_of("0 " * 18 + "0 10 5"))  # a spare in frame 10, not a strike
    assert tenth.frames[-1].marks == ("-", "/", "5")
    assert tenth.total == 15


def test_a_miss_then_pins_is_one_frame_of_0_and_8() -> None:
    sheet = read_sheet(marks_of("-8 " + "0 0 " * 9))
    assert sheet.frames[0].marks == ("-", "8")
    assert sheet.total == 8
    spare = read_sheet(marks_of("-10 5 0 " + "0 0 " * 8))  # a miss then all ten: a spare
    assert spare.frames[0].marks == ("-", "/")
    assert spare.total == 20


def test_an_impossible_roll_is_refused_by_its_number() -> None:
    with pytest.raises(InputError) as caught:
        read_sheet(marks_of("X 7 5"))
    assert [(p.where, p.text) for p in caught.value.problems] == [
        ("roll 3", "two rolls in a frame cannot score more than 10 pins (7 + 5)")
    ]
