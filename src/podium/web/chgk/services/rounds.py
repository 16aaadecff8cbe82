"""The calendar of a stage that sits in several rounds (ChGK tours): dates, host teams and, where
the rulebook lets tours vary, each tour's number of questions.

Vocabulary:
- round, host: see ``podium.web.models.rounds``. Rounds are numbered 1, 2, … in the order the
  organizer adds them; a tour's host must be a team of the stage's category.
- tour length: see ``podium.web.results.selectors.tours``. It is set when the tour is added (the
  rulebook's ``questions`` unless the organizer gives another) and may change while the tour has
  no mask of another length; a tour that already has results keeps the length they have.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.stages import has_calendar
from podium.web.models import Entry, Event, Round
from podium.web.results.selectors.rows import current_results
from podium.web.results.selectors.tours import marks_of, recorded_length, tour_questions, varies
from podium.web.results.services.results import result_correct

# Marks that can be dropped when a tour is shortened: nothing taken or disputed.
_DROPPABLE = frozenset("0X.")


def _length(stage: Stage, questions: int | None) -> int | None:
    """The tour length to store: ``None`` where the rulebook fixes it (a differing one refused)."""
    if not isinstance(stage, ChgkTourStage):
        if questions is not None:
            raise Refused(_("Only a ChGK tour has questions."), field="questions")
        return None
    if stage.max_questions is None:
        if questions is not None and questions != stage.questions:
            raise Refused(
                _("This rulebook gives every tour %(n)d questions.") % {"n": stage.questions},
                field="questions",
            )
        return None
    length = stage.questions if questions is None else questions
    if not 1 <= length <= stage.max_questions:
        raise Refused(
            _("A tour has 1 to %(max)d questions.") % {"max": stage.max_questions},
            field="questions",
        )
    return length


def round_add(
    *,
    event: Event,
    stage: str,
    starts_at: dt.datetime,
    by: Any,
    title: str = "",
    host: Entry | None = None,
    number: int | None = None,
    questions: int | None = None,
) -> Round:
    """Adds a round to the stage's calendar (the next number unless one is given); a tour of a
    rulebook that lets tours vary gets ``questions`` (the rulebook's by default)."""
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event sets its calendar."))
        try:
            the_stage = event.rulebook.stage(stage)
        except KeyError:
            raise Refused(_("This event has no such stage."), field="stage") from None
        if not has_calendar(the_stage):
            raise Refused(
                _("%(stage)s sits once: it has no calendar.") % {"stage": the_stage.title}
            )
        if host is not None and (
            host.event_id != event.pk
            or (the_stage.category and host.category != the_stage.category)
        ):
            raise Refused(_("The host must be a team of this stage."), field="host")
        if starts_at.tzinfo is None:
            raise Refused(_("A round starts at a time with its time zone."), field="starts_at")
        length = _length(the_stage, questions)
        taken = Round.objects.filter(event=event, stage=stage)
        number = number or (max(taken.values_list("number", flat=True), default=0) + 1)
        try:
            with transaction.atomic():
                made = Round.objects.create(
                    event=event, stage=stage, number=number, starts_at=starts_at,
                    title=title.strip(), host=host, questions=length,
                )  # fmt: skip
        except IntegrityError:
            raise Refused(
                _("Round %(number)d is already on the calendar.") % {"number": number},
                field="number",
            ) from None
        audit(
            event=event, actor=by, action="round.add", target=made, stage=stage, number=number,
            starts_at=starts_at.isoformat(), host=host.number if host else None, questions=length,
        )  # fmt: skip
    return made


def round_questions_set(*, round: Round, questions: int, by: Any) -> Round:
    """Sets a tour's number of questions (see the vocabulary). Refused where the rulebook fixes
    it and outside 1 to ``max_questions``. A tour with masks of another length is shortened only
    when no mask has a question taken or disputed past the new length: each mask is then
    corrected, with the reason, to the new length (nothing a team took is lost); a longer tour
    would need marks nobody typed, so it is refused."""
    with transaction.atomic():
        event = locked_event(round.event_id)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer of this event sets its calendar."))
        the_round = Round.objects.select_for_update().get(pk=round.pk)
        try:
            stage = event.rulebook.stage(the_round.stage)
        except KeyError:
            raise Refused(_("This event has no such stage."), field="stage") from None
        if not isinstance(stage, ChgkTourStage) or not varies(stage):
            raise Refused(
                _("This rulebook gives every tour the same number of questions."),
                field="questions",
            )
        length = _length(stage, questions)
        before = tour_questions(event, stage, the_round.number, the_round)
        if the_round.questions == length:
            return the_round
        masked = [
            r for r in current_results(event, stage.key, the_round.number)
            if marks_of(r.cells.get("mask", ""))
        ]  # fmt: skip
        if length is None or (masked and length > before):
            raise Refused(
                _(
                    "Tour %(tour)d already has masks of %(n)d questions; a longer tour needs "
                    "marks nobody typed. Correct the masks first."
                )
                % {"tour": the_round.number, "n": before},
                field="questions",
            )
        taken = [
            r.entry for r in masked if set(marks_of(r.cells["mask"])[length:]) - _DROPPABLE
        ]  # fmt: skip
        if taken:
            raise Refused(
                _(
                    "Tour %(tour)d cannot have %(n)d questions: a question after question "
                    "%(n)d is taken or disputed by %(teams)s."
                )
                % {
                    "tour": the_round.number,
                    "n": length,
                    "teams": ", ".join(f"#{e.number}" for e in taken if e is not None),
                },
                field="questions",
            )
        the_round.questions = length
        the_round.save(update_fields=["questions"])
        reason = _("Tour %(tour)d has %(n)d questions, not %(before)d.") % {
            "tour": the_round.number,
            "n": length,
            "before": before,
        }
        corrected = []
        for result in masked:
            mask = marks_of(result.cells["mask"])
            if len(mask) == length:
                continue
            corrected.append(result.entry.number if result.entry else result.item)
            result_correct(
                result=result, cells={**result.cells, "mask": mask[:length]}, by=by,
                reason=reason, idempotency_key=f"tour-length-{the_round.pk}-{length}-{result.pk}",
                detail={"entered": "tour length"},
            )  # fmt: skip
        audit(
            event=event, actor=by, action="round.questions", target=the_round,
            stage=the_round.stage, number=the_round.number, before=before, questions=length,
            corrected=corrected,
        )  # fmt: skip
    return the_round


def round_questions_follow(
    *, event: Event, stage: Stage, round: int, masks: Iterable[str], by: Any
) -> str | None:
    """An imported tour takes the length of the file's first mask (as the engine reads a tour)
    where each tour has its own length and the tour has no mask yet; returns the note that says
    so, or ``None`` when the tour keeps its length (a mask of another length is then refused
    on its row)."""
    if not isinstance(stage, ChgkTourStage) or stage.max_questions is None:
        return None
    first = next((len(marks_of(m)) for m in masks if marks_of(m)), None)
    if first is None or not 1 <= first <= stage.max_questions:
        return None
    the_round = Round.objects.filter(event=event, stage=stage.key, number=round).first()
    if the_round is None or the_round.questions == first:
        return None
    if recorded_length(event, stage, round) is not None:
        return None
    before = tour_questions(event, stage, round, the_round)
    round_questions_set(round=the_round, questions=first, by=by)
    if before == first:
        return None
    return _(
        "Tour %(tour)d gets %(n)d questions, as the file gives (the calendar said %(before)d)."
    ) % {
        "tour": round,
        "n": first,
        "before": before,
    }
