"""Reads of the question duty of a tour's host: the duty's count and deadline, who may hand
questions in, the tour's questions and packet, and the sanction of a host without questions.

Vocabulary:
- duty: the rulebook's ``host-chgk-questions`` / ``host-brainball-questions``: a minimum number
  of questions, ``days_before`` the tour. The host of a tour on the calendar owes the ChGK duty
  (the calendar holds ChGK tours; it does not say who hosts Brainball, so Brainball questions
  are counted against their minimum when a host hands them in, but п. 23 is offered on ChGK).
- deadline: the tour's start on the wall clock of the event's time zone, ``days_before`` days
  earlier (19:00 on the 12th → 19:00 on the 5th, whatever the UTC offset did in between);
  handed in at the deadline is on time. A late submission (п. 22) is checked by its own team;
  a replacement the coordinator asked for is never late.
- count: the questions handed in for the tour in the discipline, less those replaced (their
  replacement counts instead); short: fewer than the duty's minimum.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from podium.rules.schema.discipline import Duty
from podium.rules.schema.stages import Stage
from podium.web.disputes.selectors.appeals import member_of
from podium.web.kernel.roles import is_staff
from podium.web.kernel.stages import has_calendar
from podium.web.models import Event, Question, QuestionSubmission, Round, Sanction
from podium.web.models.questions import Discipline

DUTY_KEYS = {
    Discipline.CHGK: "host-chgk-questions",
    Discipline.BRAINBALL: "host-brainball-questions",
}
HOST_SANCTION = "host-without-questions"


def tour_stage(event: Event) -> Stage | None:
    """The event's stage of tours on the calendar (the one the question pages serve)."""
    return next((s for s in event.rulebook.stages if has_calendar(s)), None)


def duty_of(event: Event, discipline: str) -> Duty | None:
    key = DUTY_KEYS.get(discipline)  # type: ignore[call-overload]
    return next((d for d in event.rulebook.duties if d.key == key), None)


def disciplines(event: Event) -> list[str]:
    """The disciplines the event's hosts hand questions in for: those with a duty (ChGK when
    the rulebook sets none)."""
    found = [d for d in Discipline.values if duty_of(event, d) is not None]
    return found or [Discipline.CHGK]


def deadline(event: Event, tour: Round, duty: Duty | None) -> dt.datetime | None:
    """When the host's questions are due (see the vocabulary; ``None``: no deadline)."""
    if duty is None or duty.days_before is None:
        return None
    wall = tour.starts_at.astimezone(event.zone).replace(tzinfo=None)
    return (wall - dt.timedelta(days=duty.days_before)).replace(tzinfo=event.zone)


@dataclass(frozen=True)
class SubmissionRow:
    submission: QuestionSubmission
    questions: list[Question]
    late: bool
    replacement: bool


@dataclass(frozen=True)
class DutyState:
    """What the host of a tour handed in in one discipline, against its duty."""

    discipline: str
    duty: Duty | None
    deadline: dt.datetime | None
    submissions: list[SubmissionRow]
    count: int
    on_time: int
    asked: list[Question]

    @property
    def minimum(self) -> int:
        return (self.duty.minimum or 0) if self.duty else 0

    @property
    def short(self) -> bool:
        return self.count < self.minimum

    @property
    def late(self) -> bool:
        return any(row.late for row in self.submissions)

    @property
    def missing(self) -> int:
        return max(self.minimum - self.count, 0)

    @property
    def title(self) -> str:
        return Discipline(self.discipline).label


def _submissions(**where: Any) -> QuerySet[QuestionSubmission]:
    return (
        QuestionSubmission.objects.filter(**where)
        .select_related("submitted_by")
        .prefetch_related("questions")
    )


def duty_state(event: Event, tour: Round, discipline: str) -> DutyState:
    found = _submissions(round=tour, discipline=discipline)
    return _duty_state(event, tour, discipline, list(found))


def _duty_state(
    event: Event, tour: Round, discipline: str, submissions: list[QuestionSubmission]
) -> DutyState:
    """The duty's state from the tour's submissions in the discipline (questions read)."""
    duty = duty_of(event, discipline)
    due = deadline(event, tour, duty)
    rows = []
    count = on_time = 0
    asked: list[Question] = []
    replacements = {
        q.replaced_by_id for sub in submissions for q in sub.questions.all() if q.replaced_by_id
    }
    for sub in submissions:
        questions = sorted(sub.questions.all(), key=lambda q: (q.number, q.pk))
        replacement = any(q.pk in replacements for q in questions)
        late = not replacement and due is not None and sub.submitted_at > due
        rows.append(SubmissionRow(sub, questions, late, replacement))
        kept = [q for q in questions if q.replaced_by_id is None]
        count += len(kept)
        if not late:
            on_time += len(kept)
        asked += [
            q for q in questions if q.status == Question.Status.REPLACE and not q.replaced_by_id
        ]
    return DutyState(discipline, duty, due, rows, count, on_time, asked)


def duty_states(event: Event, tour: Round) -> list[DutyState]:
    return tours_duty_states(event, [tour])[tour.pk]


def tours_duty_states(event: Event, tours: Sequence[Round]) -> dict[int, list[DutyState]]:
    """Tour id → ``duty_states`` of it, for all of ``tours`` in two reads."""
    kinds = disciplines(event)
    by_tour: dict[tuple[int, str], list[QuestionSubmission]] = defaultdict(list)
    for sub in _submissions(round__in=list(tours), discipline__in=kinds):
        by_tour[sub.round_id, sub.discipline].append(sub)
    return {t.pk: [_duty_state(event, t, d, by_tour[t.pk, d]) for d in kinds] for t in tours}


def may_submit(user: Any, event: Event, tour: Round) -> bool:
    """A player of the tour's host team, or the event's staff on its behalf."""
    if tour.host is not None and member_of(user, tour.host):
        return True
    return is_staff(user, event)


def hosts_of(user: Any, event: Event) -> list[Round]:
    """The tours on the calendar the user's team hosts."""
    stage = tour_stage(event)
    if stage is None or user is None or not user.is_authenticated:
        return []
    tours = Round.objects.filter(event=event, stage=stage.key, host__isnull=False)
    return [t for t in tours.select_related("host").order_by("number") if member_of(user, t.host)]


def tour_questions(tour: Round, discipline: str | None = None) -> QuerySet[Question]:
    found = Question.objects.filter(submission__round=tour)
    if discipline is not None:
        found = found.filter(discipline=discipline)
    return found.select_related("submission", "replaced_by", "replaces").order_by(
        "discipline", "submission__submitted_at", "submission_id", "number", "id"
    )


def packet_of(tour: Round, discipline: str) -> list[Question]:
    """The tour's packet in the discipline, in the order it is read."""
    selected = (Question.Status.SELECTED, Question.Status.ARCHIVE)
    return list(tour_questions(tour, discipline).filter(status__in=selected))


def packet_size(event: Event, discipline: str) -> int | None:
    """How many questions a packet has (``None``: as many as the coordinator picks)."""
    stage = tour_stage(event)
    if discipline == Discipline.CHGK and stage is not None:
        return getattr(stage, "questions", None)
    return None


def played(tour: Round) -> bool:
    """Whether the tour's packet went into the database (played)."""
    return tour_questions(tour).filter(status=Question.Status.ARCHIVE).exists()


def host_sanction(event: Event, tour: Round) -> Sanction | None:
    if tour.host is None:
        return None
    return Sanction.objects.filter(
        event=event, key=HOST_SANCTION, entry=tour.host, stage=tour.stage, round=tour.number,
        lifted_at__isnull=True,
    ).first()  # fmt: skip


def host_missed(event: Event, tour: Round, now: dt.datetime) -> bool:
    """Whether п. 23 applies: the tour has started and its host had handed in no ChGK question
    before the start (and is not sanctioned for it yet)."""
    if tour.host is None or now < tour.starts_at:
        return False
    if not any(s.key == HOST_SANCTION for s in event.rulebook.sanctions):
        return False
    handed = Question.objects.filter(
        submission__round=tour, submission__entry=tour.host,
        submission__discipline=Discipline.CHGK, submission__submitted_at__lt=tour.starts_at,
    )  # fmt: skip
    return not handed.exists() and host_sanction(event, tour) is None


def sanction_rule(event: Event, key: str = HOST_SANCTION) -> Any:
    return next((s for s in event.rulebook.sanctions if s.key == key), None)
