"""Handing in questions, the coordinator's packet, the question database, and п. 23.

Vocabulary:
- submission, question, status, replacement, public: see ``podium.web.models.questions``;
  packet notation: see ``podium.web.chgk.packets``; duty, deadline, late, count: see
  ``podium.web.chgk.selectors.duty``; normalized text, database, public: see
  ``podium.web.chgk.selectors.database``.
- coordinator: п. 19 names one person; Podium lets the event's organizers act as the
  coordinator (select the packet, ask for replacements, import packets, apply п. 23).
- packet: the questions the coordinator selected for the tour in one discipline (a ChGK
  packet has the tour stage's number of questions, 15); read in the order they were handed in.
- played: after the tour's start the coordinator moves its packets into the database
  (``packet_play``): each selected question becomes ``archive``, numbered as read, with the
  tour's date as ``played_on``, public a year later (п. 24). It is a step of its own, not a
  side effect of publishing results, so a late replacement or a withdrawn question is settled
  first; after it the tour's questions no longer change.
- import: a file of earlier packets in the packet notation, with its source and the day it
  was played, all or nothing: one error anywhere and nothing is stored.
- host disqualified (п. 23): the tour has started and its host had handed in no ChGK question
  before the start; the rulebook's ``host-without-questions`` sanction bans the team and every
  player it registered before the tour until the end of the next season.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.chgk.packets import AUTHORS_MAX, PacketError, ParsedQuestion, parse_packet
from podium.web.chgk.selectors.database import normalize, public_from
from podium.web.chgk.selectors.duty import (
    HOST_SANCTION,
    deadline,
    disciplines,
    duty_of,
    host_sanction,
    may_submit,
    packet_of,
    packet_size,
    played,
    sanction_rule,
)
from podium.web.disputes.services.discipline import sanction_impose
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Event, Question, QuestionSubmission, Round, Sanction
from podium.web.models.questions import Discipline


class PacketRefused(Refused):
    """A packet with errors: ``errors`` names each by line and question."""

    def __init__(self, errors: list[PacketError], field: str = "packet") -> None:
        self.errors = errors
        message = " ".join(e.message for e in errors)
        super().__init__(message, field=field)


def _parsed(packet: str) -> list[ParsedQuestion]:
    questions, errors = parse_packet(packet)
    if errors:
        raise PacketRefused(errors)
    return questions


def _question(
    parsed: ParsedQuestion, discipline: str, **fields: Any
) -> Question:  # fmt: skip
    return Question(
        discipline=discipline, number=parsed.number, text=parsed.text, answer=parsed.answer,
        accepted=parsed.accepted, comment=parsed.comment, authors=parsed.authors,
        normalized=normalize(parsed.text), **fields,
    )  # fmt: skip


def _locked(tour: Round) -> tuple[Round, Event]:
    tour = (
        Round.objects.select_for_update(of=("self",))
        .select_related("event", "host")
        .get(pk=tour.pk)
    )
    return tour, tour.event


def _not_played(tour: Round) -> None:
    if played(tour):
        raise Refused(
            _("Tour %(number)d was played: its questions are in the database and no longer change.")
            % {"number": tour.number}
        )


def _discipline(event: Event, discipline: str) -> None:
    if discipline not in disciplines(event):
        raise Refused(_("This event takes no such questions."), field="discipline")


def questions_submit(
    *,
    tour: Round,
    discipline: str,
    packet: str,
    by: Any,
    note: str = "",
    consent: bool = False,
    now: dt.datetime | None = None,
) -> QuestionSubmission:
    """The host team hands in questions for its tour (a player of it, or staff for it)."""
    now = now or timezone.now()
    with transaction.atomic():
        tour, event = _locked(tour)
        if tour.host is None:
            raise Refused(_("Tour %(number)d has no host team.") % {"number": tour.number})
        if not may_submit(by, event, tour):
            raise Refused(_("Only the host team, or the event's staff for it, hands in questions."))
        _discipline(event, discipline)
        _not_played(tour)
        parsed = _parsed(packet)
        submission = QuestionSubmission.objects.create(
            event=event, round=tour, entry=tour.host, discipline=discipline, submitted_by=by,
            submitted_at=now, note=note.strip(),
        )  # fmt: skip
        Question.objects.bulk_create(
            [_question(p, discipline, submission=submission, consent=consent) for p in parsed]
        )
        due = deadline(event, tour, duty_of(event, discipline))
        audit(
            event=event, actor=by, action="questions.submit", target=submission,
            round=tour.number, discipline=discipline, questions=len(parsed),
            late=due is not None and now > due,
        )  # fmt: skip
    return submission


def replacement_submit(
    *, question: Question, packet: str, by: Any, now: dt.datetime | None = None
) -> Question:
    """The host hands in one question instead of one the coordinator asked to replace."""
    now = now or timezone.now()
    with transaction.atomic():
        question = Question.objects.select_for_update().get(pk=question.pk)
        if question.submission_id is None:
            raise Refused(_("This question was imported; it has no host."))
        tour, event = _locked(question.submission.round)
        if not may_submit(by, event, tour):
            raise Refused(_("Only the host team, or the event's staff for it, hands in questions."))
        if question.status != Question.Status.REPLACE or question.replaced_by_id is not None:
            raise Refused(_("No replacement is asked for this question."))
        _not_played(tour)
        parsed = _parsed(packet)
        if len(parsed) != 1:
            raise Refused(
                _("Hand in one question as the replacement; this packet has %(n)d.")
                % {"n": len(parsed)},
                field="packet",
            )
        submission = QuestionSubmission.objects.create(
            event=event, round=tour, entry=question.submission.entry,
            discipline=question.discipline, submitted_by=by, submitted_at=now,
            note=_("Replacement for question %(number)d") % {"number": question.number},
        )  # fmt: skip
        made = _question(
            parsed[0], question.discipline, submission=submission, consent=question.consent
        )
        made.number = question.number
        made.save()
        question.replaced_by = made
        question.save(update_fields=["replaced_by"])
        audit(
            event=event, actor=by, action="questions.replacement", target=made,
            round=tour.number, replaces=question.pk,
        )  # fmt: skip
    return made


def replacement_ask(*, question: Question, note: str, by: Any) -> Question:
    """The coordinator asks the host for another question instead of this one."""
    note = note.strip()
    with transaction.atomic():
        question = Question.objects.select_for_update().get(pk=question.pk)
        if question.submission_id is None:
            raise Refused(_("This question was imported; it has no host."))
        tour, event = _locked(question.submission.round)
        if not is_organizer(by, event):
            raise Refused(_("Only the coordinator (an organizer) asks for replacements."))
        _not_played(tour)
        if question.status not in (Question.Status.SUBMITTED, Question.Status.SELECTED):
            raise Refused(_("A replacement is already asked for this question."))
        if not note:
            raise Refused(
                _("Say why: published before (where), or what is wrong with it."), field="note"
            )
        question.status, question.note = Question.Status.REPLACE, note
        question.save(update_fields=["status", "note"])
        audit(
            event=event, actor=by, action="questions.ask_replacement", target=question,
            round=tour.number, note=note,
        )  # fmt: skip
    return question


def packet_select(
    *, tour: Round, discipline: str, questions: Iterable[int], by: Any
) -> list[Question]:
    """The coordinator selects the tour's packet in the discipline from what was handed in;
    the questions not chosen go back to handed in."""
    chosen = list(dict.fromkeys(int(q) for q in questions))
    with transaction.atomic():
        tour, event = _locked(tour)
        if not is_organizer(by, event):
            raise Refused(_("Only the coordinator (an organizer) selects the packet."))
        _discipline(event, discipline)
        _not_played(tour)
        pool = Question.objects.select_for_update().filter(
            submission__round=tour, discipline=discipline
        )
        found = {q.pk: q for q in pool.filter(pk__in=chosen)}
        if len(found) != len(chosen):
            raise Refused(
                _("Choose among the questions handed in for this tour."), field="questions"
            )
        if any(q.status == Question.Status.REPLACE for q in found.values()):
            raise Refused(
                _("A question asked to be replaced is not in the packet; choose its replacement."),
                field="questions",
            )
        size = packet_size(event, discipline)
        if size is not None and len(chosen) != size:
            raise Refused(
                _("The packet has %(size)d questions; %(n)d are chosen.")
                % {"size": size, "n": len(chosen)},
                field="questions",
            )
        if not chosen:
            raise Refused(_("Tick the questions of the packet."), field="questions")
        pool.filter(status=Question.Status.SELECTED).exclude(pk__in=chosen).update(
            status=Question.Status.SUBMITTED
        )
        pool.filter(pk__in=chosen).update(status=Question.Status.SELECTED)
        audit(
            event=event, actor=by, action="questions.select", target=tour, round=tour.number,
            discipline=discipline, questions=chosen,
        )  # fmt: skip
    return packet_of(tour, discipline)


def packet_play(*, tour: Round, by: Any, now: dt.datetime | None = None) -> list[Question]:
    """After the tour: its packets go into the database (see the vocabulary)."""
    now = now or timezone.now()
    with transaction.atomic():
        tour, event = _locked(tour)
        if not is_organizer(by, event):
            raise Refused(
                _("Only the coordinator (an organizer) moves a packet into the database.")
            )
        if now < tour.starts_at:
            raise Refused(
                _("Tour %(number)d starts %(when)s; its packet goes into the database after it.")
                % {"number": tour.number, "when": moment_text(tour.starts_at, event)}
            )
        _not_played(tour)
        day = tour.starts_at.astimezone(event.zone).date()
        source = _("%(event)s, tour %(number)d") % {"event": event.title, "number": tour.number}
        if tour.title:
            source = f"{event.title}, {tour.title}"
        moved: list[Question] = []
        for discipline in disciplines(event):
            for position, question in enumerate(packet_of(tour, discipline), 1):
                question.status, question.number = Question.Status.ARCHIVE, position
                question.played_on, question.public_from = day, public_from(day)
                question.source = source[:300]
                moved.append(question)
        if not moved:
            raise Refused(_("Tour %(number)d has no packet selected.") % {"number": tour.number})
        Question.objects.bulk_update(
            moved, ["status", "number", "played_on", "public_from", "source"]
        )
        audit(
            event=event, actor=by, action="questions.play", target=tour, round=tour.number,
            questions=len(moved), played_on=day.isoformat(),
        )  # fmt: skip
    return moved


def questions_import(
    *,
    event: Event,
    discipline: str,
    packet: str,
    source: str,
    played_on: dt.date | None,
    by: Any,
    consent: bool = False,
    now: dt.datetime | None = None,
) -> list[Question]:
    """Imports an earlier packet into the database, all or nothing (see the vocabulary)."""
    now = now or timezone.now()
    source = " ".join(source.split())
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only the coordinator (an organizer) imports packets."))
        if discipline not in Discipline.values:
            raise Refused(_("Choose ChGK or Brainball."), field="discipline")
        if not source:
            raise Refused(
                _("Name the source: the tournament or site the packet is from."), field="source"
            )
        if len(source) > AUTHORS_MAX:
            raise Refused(
                _("The source is longer than %(max)d characters.") % {"max": AUTHORS_MAX},
                field="source",
            )
        if played_on is None:
            raise Refused(_("Give the day the packet was played."), field="played_on")
        if played_on > now.astimezone(event.zone).date():
            raise Refused(_("A packet cannot have been played in the future."), field="played_on")
        parsed = _parsed(packet)
        known = set(
            Question.objects.filter(status=Question.Status.ARCHIVE, source=source).values_list(
                "normalized", flat=True
            )
        )
        again = [
            PacketError(
                p.line,
                p.number,
                _(
                    "Question %(number)d (line %(line)d) is already in the database from "
                    "“%(source)s”."
                )
                % {"number": p.number, "line": p.line, "source": source},
            )
            for p in parsed
            if normalize(p.text) in known
        ]
        if again:
            raise PacketRefused(again)
        made = Question.objects.bulk_create(
            [
                _question(
                    p,
                    discipline,
                    status=Question.Status.ARCHIVE,
                    source=source,
                    played_on=played_on,
                    public_from=public_from(played_on),
                    consent=consent,
                )
                for p in parsed
            ]
        )
        audit(
            event=event, actor=by, action="questions.import", target=source,
            discipline=discipline, questions=len(made), played_on=played_on.isoformat(),
        )  # fmt: skip
    return made


def consent_record(*, event: Event, question: Question, consent: bool, by: Any) -> Question:
    """The coordinator records that the authors agree (or no longer agree) to publication
    before the year is out (п. 24)."""
    with transaction.atomic():
        question = Question.objects.select_for_update().get(pk=question.pk)
        if not is_organizer(by, event) or (
            question.submission_id is not None and question.submission.event_id != event.pk
        ):
            raise Refused(_("Only the coordinator (an organizer) records the authors' consent."))
        question.consent = consent
        question.save(update_fields=["consent"])
        audit(event=event, actor=by, action="questions.consent", target=question, consent=consent)
    return question


def host_disqualify(
    *, tour: Round, by: Any, reason: str = "", now: dt.datetime | None = None
) -> Sanction:
    """п. 23: the host of a started tour that had handed in no ChGK question is disqualified
    (the sanction bans the team and its players registered before the tour)."""
    now = now or timezone.now()
    with transaction.atomic():
        tour, event = _locked(tour)
        if not is_organizer(by, event):
            raise Refused(_("Only the coordinator (an organizer) applies п. 23."))
        rule = sanction_rule(event)
        if rule is None:
            raise Refused(_("This rulebook has no sanction for a host without questions."))
        if tour.host is None:
            raise Refused(_("Tour %(number)d has no host team.") % {"number": tour.number})
        if now < tour.starts_at:
            raise Refused(
                _("Tour %(number)d has not started (%(when)s): the host may still hand in.")
                % {"number": tour.number, "when": moment_text(tour.starts_at, event)},
                clause=rule.clause,
            )
        handed = Question.objects.filter(
            submission__round=tour, submission__discipline=Discipline.CHGK,
            submission__submitted_at__lt=tour.starts_at,
        ).count()  # fmt: skip
        if handed:
            raise Refused(
                _("The host handed in %(n)d ChGK questions before the tour: п. 23 does not apply.")
                % {"n": handed},
                clause=rule.clause,
            )
        if host_sanction(event, tour) is not None:
            raise Refused(_("The host of this tour is already disqualified."))
        why = _(
            "Host of tour %(number)d: no ChGK questions handed in to the coordinator before "
            "the tour started"
        ) % {"number": tour.number}
        if reason.strip():
            why = f"{why}. {reason.strip()}"
        return sanction_impose(
            event=event, key=HOST_SANCTION, by=by, reason=why, entry=tour.host,
            stage=tour.stage, round=tour.number, now=now,
        )  # fmt: skip
