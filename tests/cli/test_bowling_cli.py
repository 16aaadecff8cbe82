from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner, Result

from podium.cli import bowling

# Wired as podium.cli.main wires it, so the command is reached as `podium bowling score`.
root = typer.Typer()
root.add_typer(bowling.app, name="bowling")


def score(*args: str) -> Result:
    return CliRunner().invoke(root, ["bowling", "score", *args])


def marks(text: str) -> list[str]:
    return text.split()


WORLD_BOWLING = marks("X X X 7 2 8 / F 9 X 7 / 9 - X X 8")


def test_prints_the_total() -> None:
    result = score(*WORLD_BOWLING)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "180\n", "")


def test_frames_prints_running_totals_then_the_total() -> None:
    result = score("--frames", *WORLD_BOWLING)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "frame   1   2   3   4   5   6   7   8   9  10",
        "score  30  57  76  85  95 104 124 143 152 180",
        "180",
    ]
    assert result.stderr == ""


def test_frames_option_may_come_after_the_rolls() -> None:
    result = score(*["X"] * 12, "--frames")
    assert result.stdout.splitlines()[1:] == [
        "score  30  60  90 120 150 180 210 240 270 300",
        "300",
    ]


def test_dash_is_a_roll_not_an_option() -> None:
    result = score(*["9", "-"] * 10)
    assert (result.exit_code, result.stdout) == (0, "90\n")


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        (
            "X X X X X X X X X X X",
            "error: roll 12: the game is not finished: frame 10 needs 1 more roll",
        ),
        ("5 6", "error: roll 2: two rolls in a frame cannot score more than 10 pins (5 + 6)"),
        ("11", "error: roll 1: 11 is more than the 10 pins on the lane"),
        ("X X -1", "error: roll 3: -1 is negative: a roll knocks down 0 to 10 pins"),
        ("--frames -1", "error: roll 1: -1 is negative: a roll knocks down 0 to 10 pins"),
        ("3 Q", "error: roll 2: 'Q' is not a roll: use 0–10, X, /, - or F"),
        ("- - " * 10 + "5", "error: roll 21: the game already ended at roll 20"),
        ("", "error: roll 1: the game is not finished: frames 1–10 have not been rolled"),
    ],
)
def test_refuses_with_one_line_on_stderr(rolls: str, message: str) -> None:
    result = score(*marks(rolls))
    assert result.exit_code == 2
    assert result.stderr == message + "\n"
    assert result.stdout == ""
