from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from podium.engine.errors import InputError
from podium.engine.tenpin import Game, parse_rolls, score_game, score_tokens

DATA = Path(__file__).resolve().parents[1] / "data" / "bowling"
CANONICAL = DATA / "exercism-canonical-data.json"
SCORESHEET = DATA / "worldbowling-scoresheet.json"


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def canonical_cases() -> list[Any]:
    if not CANONICAL.is_file():
        # One failing case instead of an empty parameter set, which pytest would skip.
        return [pytest.param(None, id="canonical-data-missing")]
    return [pytest.param(case, id=case["description"]) for case in load(CANONICAL)["cases"]]


def marks(text: str) -> list[str]:
    return text.split()


def refusal(rolls: list[int]) -> tuple[str, str]:
    with pytest.raises(InputError) as caught:
        score_game(rolls)
    [problem] = caught.value.problems
    return problem.where, problem.text


# What each of Exercism's error messages looks like in ours.
CANONICAL_ERRORS = {
    "Negative roll is invalid": r"^-1 is negative",
    "Pin count exceeds pins on the lane": r"more than (the )?10 pins",
    "Score cannot be taken until the end of the game": r"^the game is not finished",
    "Cannot roll after game is over": r"^the game already ended at roll (20|21)$",
}


def test_canonical_data_has_16_totals_and_15_refusals() -> None:
    cases = load(CANONICAL)["cases"]
    totals = [case for case in cases if isinstance(case["expected"], int)]
    assert (len(cases), len(totals)) == (31, 16)


@pytest.mark.parametrize("case", canonical_cases())
def test_canonical_case(case: dict[str, Any] | None) -> None:
    assert case is not None, f"missing test data: {CANONICAL}"
    given_rolls = case["input"]
    rolls = given_rolls["previousRolls"] + ([given_rolls["roll"]] if "roll" in given_rolls else [])
    expected = case["expected"]
    if isinstance(expected, int):
        assert score_game(rolls).total == expected
        return
    where, message = refusal(rolls)
    # Either the extra roll is refused, or the score is wanted one roll after the last.
    assert where == f"roll {len(given_rolls['previousRolls']) + 1}"
    assert re.search(CANONICAL_ERRORS[expected["error"]], message)


WORLD_FRAMES = (30, 57, 76, 85, 95, 104, 124, 143, 152, 180)


def test_world_bowling_scoresheet_rolls() -> None:
    sheet = load(SCORESHEET)
    game = score_game(sheet["rolls"])
    assert game.frames == tuple(sheet["cumulative_frame_scores"]) == WORLD_FRAMES
    assert game.total == 180


def test_world_bowling_scoresheet_marks() -> None:
    sheet = load(SCORESHEET)
    # The sheet separates frames with | and circles a split leave as (8); neither is a roll.
    tokens = sheet["scoresheet_marks"].replace("|", " ").replace("(", "").replace(")", "").split()
    assert tokens == marks("X X X 7 2 8 / F 9 X 7 / 9 - X X 8")
    assert parse_rolls(tokens) == sheet["rolls"]
    assert score_tokens(tokens).frames == WORLD_FRAMES


@pytest.mark.parametrize(
    ("written", "frames"),
    [
        pytest.param("X " * 12, (30, 60, 90, 120, 150, 180, 210, 240, 270, 300), id="perfect"),
        pytest.param("5 / " * 10 + "5", tuple(range(15, 151, 15)), id="all-spares"),
        pytest.param("9 - " * 10, tuple(range(9, 91, 9)), id="nine-miss"),
        pytest.param("- " * 20, (0,) * 10, id="gutter"),
        pytest.param("F 0 " * 10, (0,) * 10, id="fouls"),
        pytest.param("x " * 9 + "x 0 /", (30, 60, 90, 120, 150, 180, 210, 240, 260, 280), id="x0/"),
        pytest.param("- / " * 9 + "X 6 /", (*range(10, 81, 10), 100, 120), id="0-spares"),
        pytest.param(
            "X 7 / 9 - X - 8 8 / F 6 X X X 8 1",
            (20, 39, 48, 66, 74, 84, 90, 120, 148, 167),
            id="mixed",
        ),
    ],
)
def test_hand_worked_game(written: str, frames: tuple[int, ...]) -> None:
    game = score_tokens(marks(written))
    assert game.frames == frames
    assert game.total == frames[-1]


def test_game_keeps_its_rolls() -> None:
    assert score_tokens(["X"] * 12) == Game(
        rolls=(10,) * 12, frames=tuple(range(30, 301, 30)), total=300
    )


def test_marks_become_pins() -> None:
    assert parse_rolls(["x", "7", "/", "f", "-", "10"]) == [10, 7, 3, 0, 0, 10]


def test_parse_reads_an_unfinished_game() -> None:
    assert parse_rolls(["X", "3"]) == [10, 3]
    assert parse_rolls([]) == []


TEN_ZERO_FRAMES = "- - " * 9


@pytest.mark.parametrize(
    ("written", "where", "message"),
    [
        ("3 Q", "roll 2", "'Q' is not a roll: use 0–10, X, /, - or F"),
        ("3 4 Q", "roll 3", "'Q' is not a roll: use 0–10, X, /, - or F"),
        ("1.5", "roll 1", "'1.5' is not a roll: use 0–10, X, /, - or F"),
        ("/", "roll 1", "'/' is a spare, so it must follow a roll that left pins standing"),
        ("X /", "roll 2", "'/' is a spare, so it must follow a roll that left pins standing"),
        ("3 X", "roll 2", "'X' is a strike, only possible with the first roll at a full rack"),
        ("- X", "roll 2", "write '/' for a spare"),
        ("-1", "roll 1", "-1 is negative: a roll knocks down 0 to 10 pins"),
        ("11", "roll 1", "11 is more than the 10 pins on the lane"),
        ("7 5", "roll 2", "two rolls in a frame cannot score more than 10 pins (7 + 5)"),
        (TEN_ZERO_FRAMES + "X 6 5", "roll 21", "bonus rolls in the 10th frame cannot score"),
        (TEN_ZERO_FRAMES + "X 6 10", "roll 21", "more than 10 pins (6 + 10)"),
        (TEN_ZERO_FRAMES + "X 6 X", "roll 21", "'X' is a strike"),
        (TEN_ZERO_FRAMES + "X X /", "roll 21", "'/' is a spare"),
        (TEN_ZERO_FRAMES + "7 / /", "roll 21", "'/' is a spare"),
        (TEN_ZERO_FRAMES + "- - /", "roll 21", "the game already ended at roll 20"),
        (TEN_ZERO_FRAMES + "- - Q", "roll 21", "the game already ended at roll 20"),
    ],
)
def test_impossible_marks(written: str, where: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_rolls(marks(written))
    [problem] = caught.value.problems
    assert problem.where == where
    assert message in problem.text


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("", "roll 1: the game is not finished: frames 1–10 have not been rolled"),
        (
            "3",
            "roll 2: the game is not finished: frame 1 needs 1 more roll, "
            "and frames 2–10 have not been rolled",
        ),
        ("X " * 9, "roll 10: the game is not finished: frame 10 has not been rolled"),
        ("X " * 10, "roll 11: the game is not finished: frame 10 needs 2 more rolls"),
        ("X " * 11, "roll 12: the game is not finished: frame 10 needs 1 more roll"),
        (TEN_ZERO_FRAMES + "7 /", "roll 21: the game is not finished: frame 10 needs 1 more roll"),
    ],
)
def test_unfinished_game(written: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        score_tokens(marks(written))
    assert str(caught.value) == message
    assert len(caught.value.problems) == 1


def test_tenth_frame_bonus_after_two_strikes_may_be_anything() -> None:
    assert score_tokens(marks(TEN_ZERO_FRAMES + "X X 6")).total == 26


@st.composite
def games(draw: st.DrawFn) -> list[int]:
    """A complete valid game, built frame by frame."""
    pins = st.integers(0, 10)
    rolls: list[int] = []
    for _ in range(9):
        first = draw(pins)
        rolls += [first] if first == 10 else [first, draw(st.integers(0, 10 - first))]
    first = draw(pins)
    second = draw(st.integers(0, 10 - first) if first < 10 else pins)
    rolls += [first, second]
    if first == 10:
        rolls.append(draw(pins if second == 10 else st.integers(0, 10 - second)))
    elif first + second == 10:
        rolls.append(draw(pins))
    return rolls


@given(games())
def test_any_valid_game_scores_sensibly(rolls: list[int]) -> None:
    game = score_game(rolls)
    assert game.total == game.frames[-1]
    assert len(game.frames) == 10
    steps = [b - a for a, b in pairwise((0, *game.frames))]
    assert all(0 <= step <= 30 for step in steps)
    assert 0 <= game.total <= 300
    assert game.rolls == tuple(rolls)


@given(games(), st.data())
def test_any_cut_short_game_is_unfinished(rolls: list[int], data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(rolls) - 1))
    where, message = refusal(rolls[:cut])
    assert where == f"roll {cut + 1}"
    assert message.startswith("the game is not finished")


@given(games(), st.integers(0, 10))
def test_no_roll_after_a_valid_game(rolls: list[int], extra: int) -> None:
    assert refusal([*rolls, extra]) == (
        f"roll {len(rolls) + 1}",
        f"the game already ended at roll {len(rolls)}",
    )


@given(games())
def test_numbers_as_marks_score_the_same(rolls: list[int]) -> None:
    assert score_tokens([str(pins) for pins in rolls]) == score_game(rolls)
