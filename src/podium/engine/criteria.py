"""The ranking criteria a rulebook can list, by key.

Vocabulary: see ``podium.engine.ranking``. Each class here is one criterion: its key is what a
rulebook writes, its docstring is what it means, its direction says which way is better, and its
metric is the number the stage's format computes for each entry. Bowling's tie-breaks compare the
games from the outside in: the highest game, then the lowest, then the next highest, the next
lowest, and so on (ČBA §9 a–c).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from podium.engine.entries import Entry, Number
from podium.engine.messages import Message, Value, _
from podium.engine.ranking import Direction, GroupCriterion, RowCriterion, register
from podium.engine.timing import format_clock

HIGHER, LOWER = Direction.HIGHER, Direction.LOWER


class _WholePoints:
    """Match points are whole or half numbers: print 3 or 1.5, not 3.000."""

    def describe(self, value: Number | None) -> Value:
        if value is None:
            return _("none")
        return Decimal(value).normalize()  # type: ignore[arg-type]


@register
class Finished(RowCriterion):
    """Entrants who completed the puzzle rank before those who did not."""

    key = "finished"
    direction = HIGHER
    label = _("finish")
    metric = "finished"

    def describe(self, value: Number | None) -> Message:
        return _("finished") if value else _("not finished")

    def phrase(self, value: Number | None) -> Message:
        return self.describe(value)


@register
class Time(RowCriterion):
    """Recorded finish time plus penalties (e.g. 10 s per missing piece); faster is better."""

    key = "time"
    direction = LOWER
    label = _("time")
    metric = "time_ms"

    def describe(self, value: Number | None) -> Value:
        return _("no time") if value is None else format_clock(int(value))


@register
class Pieces(RowCriterion):
    """Correctly placed pieces counted on an unfinished puzzle; more is better."""

    key = "pieces"
    direction = HIGHER
    label = _("pieces placed")
    metric = "pieces"

    def describe(self, value: Number | None) -> Message:
        return _("no count") if value is None else _("%(n)s pcs", n=str(value))

    def phrase(self, value: Number | None) -> Message:
        return _("%(pieces)s placed", pieces=self.describe(value))


@register
class PuzzlesDone(RowCriterion):
    """Number of puzzles finished (several-puzzle team stage); more is better."""

    key = "puzzles-done"
    direction = HIGHER
    label = _("puzzles finished")
    metric = "done"


@register
class Total(RowCriterion):
    """Total pinfall of all games; higher is better."""

    key = "total"
    direction = HIGHER
    label = _("total pinfall")
    metric = "total"


GAME_LABELS = {
    ("high", 1): _("highest game"),
    ("low", 1): _("lowest game"),
    ("high", 2): _("second highest game"),
    ("low", 2): _("second lowest game"),
    ("high", 3): _("third highest game"),
    ("low", 3): _("third lowest game"),
}


def _games_criterion(n: int, end: str) -> type[RowCriterion]:
    ordinal = {1: "", 2: "second ", 3: "third "}[n]
    suffix = "" if n == 1 else f"-{n}"
    word = "highest" if end == "high" else "lowest"

    class GameCriterion(RowCriterion):
        key = f"{end}-game{suffix}"
        direction = HIGHER
        label = GAME_LABELS[end, n]
        metric = f"{end}-game{suffix}"

    GameCriterion.__doc__ = f"The {ordinal}{word} single game; higher is better."
    GameCriterion.__name__ = GameCriterion.__qualname__ = f"{end.title()}Game{n}"
    return register(GameCriterion)


GAME_CRITERIA = tuple(_games_criterion(n, end) for n in (1, 2, 3) for end in ("high", "low"))


@register
class Questions(RowCriterion):
    """Questions taken in the tour (ChGK); more is better."""

    key = "questions"
    direction = HIGHER
    label = _("questions taken")
    metric = "questions"


@register
class QuestionRating(RowCriterion):
    """Question rating of the tour (ChGK): a question taken by k of the N official teams is
    worth N − k + 1, and a team's rating is the sum over the questions it took; higher is better.
    It needs every team's mask."""

    key = "question-rating"
    direction = HIGHER
    label = _("question rating")
    metric = "question_rating"


@register
class Points(RowCriterion):
    """Points collected over the season's tours; more is better."""

    key = "points"
    direction = HIGHER
    label = _("points")
    metric = "points"


@register
class SeasonQuestions(RowCriterion):
    """Questions taken over all tours of the season; more is better."""

    key = "season-questions"
    direction = HIGHER
    label = _("questions taken in the season")
    metric = "season_questions"


@register
class SeasonPlaceSum(RowCriterion):
    """Sum of places over all tours, a shared place counting as its mean; lower is better."""

    key = "season-place-sum"
    direction = LOWER
    label = _("sum of tour places")
    metric = "place_sum"

    def describe(self, value: Number | None) -> Value:
        return _("none") if value is None else Decimal(value).quantize(Decimal("0.1"))  # type: ignore[arg-type]


@register
class MatchPoints(_WholePoints, RowCriterion):
    """Points for battles won, drawn and lost (head-to-head league); more is better."""

    key = "match-points"
    direction = HIGHER
    label = _("match points")
    metric = "match_points"


@register
class HeadToHead(_WholePoints, GroupCriterion):
    """Match points earned in the battles among the entrants still tied; more is better."""

    key = "head-to-head"
    direction = HIGHER
    label = _("match points between the tied teams")

    def column(self, entries: Sequence[Entry]) -> list[Number | None]:
        ids = {e.id for e in entries}
        return [sum((v for k, v in e.versus.items() if k in ids), Decimal(0)) for e in entries]


@register
class QuestionDifference(RowCriterion):
    """Questions won minus questions lost over all battles; more is better."""

    key = "question-difference"
    direction = HIGHER
    label = _("question difference")
    metric = "question_difference"
