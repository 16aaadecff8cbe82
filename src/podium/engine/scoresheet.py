"""A ten-pin game as a scoresheet shows it: the marks and the running total of each frame, also
while the game is still being rolled.

Vocabulary:
- roll, frame, strike, spare, bonus ball, foul, mark, running total: see
  ``podium.engine.tenpin``, which judges every roll; this module only lays the rolls out.
- typed rolls: what a referee types for one game — marks separated by spaces (``X 7 / 9 -``),
  or run together (``X 7/ 9- XX8``). A number is one roll (``10``, ``7``); ``-8`` is a miss then
  8, as a scoresheet writes a frame that starts with a miss (never a negative roll); any other
  chunk is read mark by mark. A count in brackets, ``(8)``, is a scoresheet's split mark: 8.
- scorable frame: a frame whose bonus rolls have been rolled, so its running total is known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from podium.engine.errors import InputError
from podium.engine.tenpin import FRAMES, PINS, parse_rolls, score_game

__all__ = ["Frame", "Sheet", "marks_of", "read_sheet"]

_SEPARATORS = re.compile(r"[\s|,;]+")
_NUMBER = re.compile(r"[0-9]+")
_MISS_THEN = re.compile(r"-([0-9]+)")


@dataclass(frozen=True, slots=True)
class Frame:
    number: int
    marks: tuple[str, ...]  # as a scoresheet writes them: X, /, -, F or a pin count
    total: int | None  # the running total after this frame, once it is scorable


@dataclass(frozen=True, slots=True)
class Sheet:
    """The frames rolled so far; ``total`` once the game is complete."""

    marks: tuple[str, ...]  # one per roll, as typed (upper case)
    rolls: tuple[int, ...]
    frames: tuple[Frame, ...]
    total: int | None

    @property
    def complete(self) -> bool:
        return self.total is not None

    @property
    def text(self) -> str:
        """The rolls written back in one canonical line, e.g. ``X 7 / 9 -``."""
        return " ".join(self.marks)


def marks_of(text: str) -> list[str]:
    """The typed rolls of one game, one mark per roll (see the vocabulary)."""
    marks: list[str] = []
    for chunk in _SEPARATORS.split(text.replace("(", " ").replace(")", " ").strip()):
        if not chunk:
            continue
        if _NUMBER.fullmatch(chunk):
            marks.append(chunk)
        elif then := _MISS_THEN.fullmatch(chunk):
            marks.extend(("-", then.group(1)))
        else:
            marks.extend(chunk.upper())
    return marks


def read_sheet(marks: Sequence[str]) -> Sheet:
    """The scoresheet of a game so far; raises ``InputError`` naming the first impossible roll."""
    typed = tuple(m.strip().upper() for m in marks)
    rolls = parse_rolls(typed)
    try:
        total: int | None = score_game(rolls).total
    except InputError:  # the rolls are possible (parse_rolls said so): the game is unfinished
        total = None
    return Sheet(typed, tuple(rolls), _frames(typed, rolls), total)


def _frames(typed: Sequence[str], rolls: Sequence[int]) -> tuple[Frame, ...]:
    frames: list[Frame] = []
    running: int | None = 0
    first = 0
    for number in range(1, FRAMES + 1):
        if first >= len(rolls):
            break
        if number == FRAMES:
            balls = list(rolls[first:])
            shown = _tenth_marks(typed[first:], balls)
            done = len(balls) == 3 or (len(balls) == 2 and sum(balls) < PINS)
            score = sum(balls) if done else None
            size = len(balls)
        elif rolls[first] == PINS:
            shown, size = ("X",), 1
            score = _with_bonus(rolls, first, 1, 2)
        else:
            balls = list(rolls[first : first + 2])
            shown = _open_marks(typed[first : first + 2], balls)
            size = len(balls)
            if len(balls) < 2:
                score = None
            elif sum(balls) == PINS:
                score = _with_bonus(rolls, first, 2, 1)
            else:
                score = sum(balls)
        running = running + score if running is not None and score is not None else None
        frames.append(Frame(number, shown, running))
        first += size
    return tuple(frames)


def _with_bonus(rolls: Sequence[int], first: int, size: int, bonus: int) -> int | None:
    """A strike's or spare's score: ten plus the next ``bonus`` rolls, once they are rolled."""
    after = rolls[first + size : first + size + bonus]
    return PINS + sum(after) if len(after) == bonus else None


def _count(mark: str, pins: int) -> str:
    if mark == "F":
        return "F"
    return "-" if pins == 0 else str(pins)


def _open_marks(typed: Sequence[str], balls: Sequence[int]) -> tuple[str, ...]:
    shown = [_count(typed[0], balls[0])]
    if len(balls) == 2:
        shown.append("/" if sum(balls) == PINS else _count(typed[1], balls[1]))
    return tuple(shown)


def _tenth_marks(typed: Sequence[str], balls: Sequence[int]) -> tuple[str, ...]:
    """Frame 10: a new rack after every strike or spare, so a mark reads against its rack."""
    shown: list[str] = []
    standing, fresh = PINS, True
    for mark, pins in zip(typed, balls, strict=True):
        if pins == PINS and fresh:
            shown.append("X")
        elif pins == standing and not fresh:
            shown.append("/")
        else:
            shown.append(_count(mark, pins))
        standing -= pins
        fresh = standing == 0
        if fresh:
            standing = PINS
    return tuple(shown)
