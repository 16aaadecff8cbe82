"""Ten-pin bowling: from the rolls of one game to its frame-by-frame running total.

Vocabulary:
- roll: one ball, recorded as the number of pins it knocked down (0 to 10).
- frame: one turn at a rack of ten pins; a game has ten. Frames 1-9 take two rolls, or one
  if it is a strike. Frame 10 takes two rolls, or three if it holds a strike or a spare.
- strike: all ten pins down with the first roll at a full rack. Scores 10 plus the next two
  rolls.
- spare: the pins left standing by a frame's first roll all down with its second. Scores 10
  plus the next roll.
- bonus ball: a roll in frame 10 after a strike or spare there; it only pays that bonus. After
  a strike or spare the pins are reset, otherwise a bonus ball aims at the pins left standing.
- foul: a roll that crosses the foul line; it is recorded and counts 0 pins.
- mark: how a scoresheet writes a roll: a number, X (strike), / (spare), - (no pins) or
  F (foul).
- running total: the game's score so far, written after each frame; after frame 10 it is the
  total.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from podium.engine.errors import InputError, Problem
from podium.engine.messages import Message, Value, _, ngettext

__all__ = ["FRAMES", "PINS", "Game", "parse_rolls", "score_game", "score_tokens"]

FRAMES = 10
PINS = 10

_INTEGER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class Game:
    """A complete game: its rolls, the running total after each frame, and the total."""

    rolls: tuple[int, ...]
    frames: tuple[int, ...]
    total: int


class _Impossible(Exception):
    """A roll that cannot happen; the caller knows which roll it was."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


class _Lane:
    """Follows a game roll by roll, refusing any roll the pins on the lane do not allow."""

    def __init__(self) -> None:
        self.frame = 1
        self.balls: list[int] = []  # rolls so far in the current frame
        self.standing = PINS
        self.fresh = True  # no roll yet at this rack: only here can a strike happen
        self.rolled = 0

    @property
    def over(self) -> bool:
        return self.frame > FRAMES

    def check_open(self) -> None:
        if self.over:
            raise _Impossible(_("the game already ended at roll %(n)s", n=self.rolled))

    def roll(self, pins: int) -> None:
        self.check_open()
        if pins < 0:
            raise _Impossible(_("%(pins)s is negative: a roll knocks down 0 to %(all)s pins",
                                pins=pins, all=PINS))  # fmt: skip
        if pins > PINS:
            raise _Impossible(_("%(pins)s is more than the %(all)s pins on the lane", pins=pins,
                                all=PINS))  # fmt: skip
        if pins > self.standing:
            raise _Impossible(self._too_many(pins))
        self.rolled += 1
        self.balls.append(pins)
        self.standing -= pins
        self.fresh = False
        if self._frame_done():
            self.frame += 1
            self.balls = []
        elif self.standing > 0:
            return
        # A new frame, or in frame 10 a strike or spare earning bonus balls at a new rack.
        self.standing = PINS
        self.fresh = True

    def _frame_done(self) -> bool:
        if self.frame < FRAMES:
            return self.standing == 0 or len(self.balls) == 2
        return len(self.balls) == 3 or (len(self.balls) == 2 and sum(self.balls) < PINS)

    def _too_many(self, pins: int) -> Message:
        known: dict[str, Value] = {"all": PINS, "previous": self.balls[-1], "pins": pins}
        if self.frame == FRAMES and self.balls[0] == PINS:
            return _(
                "bonus rolls in the 10th frame cannot score more than %(all)s pins "
                "(%(previous)s + %(pins)s)",
                **known,
            )
        return _(
            "two rolls in a frame cannot score more than %(all)s pins (%(previous)s + %(pins)s)",
            **known,
        )

    def unfinished(self) -> Message:
        if not self.balls:
            if self.frame == FRAMES:
                return _("the game is not finished: frame 10 has not been rolled")
            return _("the game is not finished: frames %(first)s–%(last)s have not been rolled",
                     first=self.frame, last=FRAMES)  # fmt: skip
        # Only frame 10 after a strike can need two more; every other open frame needs one.
        needed = 2 if self.balls == [PINS] else 1
        if self.frame < FRAMES:
            return ngettext(
                "the game is not finished: frame %(frame)s needs %(n)s more roll, and frames "
                "%(next)s–%(last)s have not been rolled",
                "the game is not finished: frame %(frame)s needs %(n)s more rolls, and frames "
                "%(next)s–%(last)s have not been rolled",
                needed,
                frame=self.frame,
                next=self.frame + 1,
                last=FRAMES,
            )
        return ngettext(
            "the game is not finished: frame %(frame)s needs %(n)s more roll",
            "the game is not finished: frame %(frame)s needs %(n)s more rolls",
            needed,
            frame=self.frame,
        )


def _pins(token: str, lane: _Lane) -> int:
    mark = token.strip().upper()
    if mark in ("-", "F"):
        return 0
    if mark == "X":
        if not lane.fresh:
            raise _Impossible(
                _(
                    "'X' is a strike, only possible with the first roll at a full rack; "
                    "write '/' for a spare"
                )
            )
        return PINS
    if mark == "/":
        if lane.fresh:
            raise _Impossible(_("'/' is a spare, so it must follow a roll that left pins standing"))
        return lane.standing
    if _INTEGER.fullmatch(mark):
        return int(mark)
    raise _Impossible(
        _("%(token)s is not a roll: use 0–%(all)s, X, /, - or F", token=repr(token), all=PINS)
    )


def _refuse(position: int, error: _Impossible) -> InputError:
    return InputError([Problem(f"roll {position}", error.message)])


def parse_rolls(tokens: Sequence[str]) -> list[int]:
    """Pins knocked down by each mark, refusing the first roll that cannot happen.

    An unfinished game is not refused here, so a game in progress can be read.
    """
    lane = _Lane()
    rolls: list[int] = []
    for position, token in enumerate(tokens, start=1):
        try:
            # A roll after the end is the real problem, whatever mark it uses.
            lane.check_open()
            pins = _pins(token, lane)
            lane.roll(pins)
        except _Impossible as error:
            raise _refuse(position, error) from None
        rolls.append(pins)
    return rolls


def score_game(rolls: Sequence[int]) -> Game:
    """Score one complete game, refusing the first roll that cannot happen or an unfinished game."""
    lane = _Lane()
    for position, pins in enumerate(rolls, start=1):
        try:
            lane.roll(pins)
        except _Impossible as error:
            raise _refuse(position, error) from None
    if not lane.over:
        raise InputError([Problem(f"roll {len(rolls) + 1}", lane.unfinished())])

    frames: list[int] = []
    total = 0
    first = 0  # index of the frame's first roll
    for _frame in range(FRAMES):
        if rolls[first] == PINS:
            total += PINS + rolls[first + 1] + rolls[first + 2]
            first += 1
        elif rolls[first] + rolls[first + 1] == PINS:
            total += PINS + rolls[first + 2]
            first += 2
        else:
            total += rolls[first] + rolls[first + 1]
            first += 2
        frames.append(total)
    return Game(rolls=tuple(rolls), frames=tuple(frames), total=total)


def score_tokens(tokens: Sequence[str]) -> Game:
    """Score one complete game written as marks (see parse_rolls)."""
    return score_game(parse_rolls(tokens))
