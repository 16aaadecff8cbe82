"""How many questions a ChGK tour has: what its sheet, scorecards, charts, appeals and imports
count to.

Vocabulary:
- tour length: the number of questions of one tour (one calendar round of a ``chgk-tour``
  stage). A rulebook without ``max_questions`` gives every tour ``questions``. One with it lets
  each tour have its own length, 1 to ``max_questions``: the length the organizer set on the
  calendar (``Round.questions``); for a tour added before tours carried one, the length of its
  recorded masks; else the rulebook's ``questions``.
- length problem: a mask whose number of marks is not the tour's length, or a count of questions
  taken above it. The engine only sees that a tour's masks agree with each other; the calendar
  says which length they must agree on, so a 15-mark sheet never lands in a 12-question tour.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.models import Event, Round
from podium.web.results.selectors.rows import current_by_round


def varies(stage: Stage) -> bool:
    """Whether each tour of the stage has its own length (``max_questions``)."""
    return isinstance(stage, ChgkTourStage) and stage.max_questions is not None


def marks_of(text: str) -> str:
    """A mask as counted: without spaces."""
    return "".join((text or "").split())


def recorded_length(event: Event, stage: ChgkTourStage, number: int) -> int | None:
    """The length of the tour's recorded masks (the first current one), if any."""
    for result in current_by_round(event, stage.key, (number,), members=False).get(number, []):
        length = len(marks_of(result.cells.get("mask", "")))
        if length:
            return length
    return None


def tour_questions(
    event: Event, stage: ChgkTourStage, number: int, the_round: Round | None = None
) -> int:
    """The tour's length (see the vocabulary); ``the_round`` saves reading it again."""
    if stage.max_questions is None:
        return stage.questions
    if the_round is None:
        the_round = Round.objects.filter(event=event, stage=stage.key, number=number).first()
    if the_round is not None and the_round.questions:
        return the_round.questions
    return recorded_length(event, stage, number) or stage.questions


def fixed_length(event: Event, stage: ChgkTourStage, number: int) -> int | None:
    """The length a new mask of the tour must have, or ``None`` while nothing fixes it yet (a
    tour added before tours carried a length, without a mask: its first sheet sets it, and
    the engine holds the sheet's masks to one length)."""
    if stage.max_questions is None:
        return stage.questions
    the_round = Round.objects.filter(event=event, stage=stage.key, number=number).first()
    if the_round is not None and the_round.questions:
        return the_round.questions
    return recorded_length(event, stage, number)


def length_of(stage: ChgkTourStage, the_round: Round, masks: Iterable[str]) -> int:
    """``tour_questions`` for a page that has read the tour's masks already."""
    if stage.max_questions is None:
        return stage.questions
    if the_round.questions:
        return the_round.questions
    return next((len(marks_of(m)) for m in masks if marks_of(m)), stage.questions)


def tour_lengths(event: Event, stage: ChgkTourStage, rounds: Iterable[Round]) -> dict[int, int]:
    """Tour number → its length, for a page listing the calendar: one read at most, for the
    tours that carry no length of their own."""
    rounds = list(rounds)
    unset = [r.number for r in rounds if varies(stage) and not r.questions]
    recorded = current_by_round(event, stage.key, unset, members=False) if unset else {}
    return {
        r.number: length_of(stage, r, (x.cells.get("mask", "") for x in recorded.get(r.number, [])))
        for r in rounds
    }


def length_problem(cells: dict[str, str], length: int, number: int) -> str | None:
    """Why a tour's row does not fit the tour's length, or ``None`` (see the vocabulary)."""
    marks = marks_of(cells.get("mask", ""))
    if marks and len(marks) != length:
        return _("%(marks)d marks, but tour %(tour)d has %(n)d questions") % {
            "marks": len(marks),
            "tour": number,
            "n": length,
        }
    taken = (cells.get("questions") or "").strip()
    if not marks and taken.isdigit() and int(taken) > length:
        return _("%(taken)s questions taken, but tour %(tour)d has %(n)d") % {
            "taken": taken,
            "tour": number,
            "n": length,
        }
    return None
