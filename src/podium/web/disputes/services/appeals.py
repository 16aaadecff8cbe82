"""ChGK question appeals: filed by a team on a question of a tour (withdraw it, accept an
answer), heard by the appeal jury, and the disputed answers the jury decides; the jury itself.

Vocabulary:
- appeal, kind, fee, verdict: see ``podium.web.models.appeals``; the filing window, the verdict
  due and who decides: see ``podium.web.disputes.services.hearings``.
- one kind per question: where the rule says so, a team may not file both kinds on one
  question.
- credited: other teams whose same answer an upheld ``accept-answer`` verdict also accepts.
- disputed answer: a ``?`` in a team's mask, decided by the jury like an appeal but filed by
  nobody and free; its verdict makes the mark ``1`` or ``0``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.disputes.selectors.appeals import jury_members, plays_in
from podium.web.disputes.services.hearings import (
    check_written,
    decision_open,
    decision_record,
    filing_open,
    filing_record,
    may_decide,
    next_number,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_organizer
from podium.web.models import Appeal, Entry, Event, EventRole, Verdict
from podium.web.results.selectors.rows import current_results
from podium.web.results.selectors.tours import tour_questions


def _check_question(
    event: Event, stage: Stage, round: int, entry: Entry, kind: str, question: int | None,
    rule: AppealRule,
) -> None:  # fmt: skip
    if not isinstance(stage, ChgkTourStage):
        raise Refused(_("Appeals on questions are filed on a ChGK tour."), field="stage")
    questions = tour_questions(event, stage, round)
    if question is None or not 1 <= question <= questions:
        raise Refused(_("Name the question: 1 to %(n)d.") % {"n": questions}, field="question")
    earlier = Appeal.objects.filter(
        event=event, stage=stage.key, round=round, entry=entry, question=question
    ).exclude(kind=Appeal.Kind.DISPUTED)
    same = earlier.filter(kind=kind).first()
    if same is not None:
        raise Refused(
            _("This team already filed appeal %(number)d of this kind on question %(q)d.")
            % {"number": same.number, "q": question},
            field="kind",
        )
    other = earlier.exclude(kind=kind).first()
    if other is not None and rule.one_kind_per_question:
        raise Refused(
            _(
                "This team already filed appeal %(number)d on question %(q)d to %(other)s; "
                "a team may not file both kinds on one question."
            )
            % {"number": other.number, "q": question, "other": Appeal.Kind(other.kind).label},
            field="kind",
            clause=rule.clause,
        )


def appeal_file(
    *,
    event: Event,
    rule: str,
    kind: str,
    stage: str,
    entry: Entry,
    by: Any,
    round: int = 1,
    question: int | None = None,
    answer: str = "",
    statement: str = "",
    method: str | None = None,
    now: dt.datetime | None = None,
) -> Appeal:
    """Files a team's appeal on a question with its fee, within the rule's window; ``method``:
    how the fee was paid (none: not paid, refused where the rule asks for one)."""
    now = now or timezone.now()
    answer, statement = answer.strip(), statement.strip()
    with transaction.atomic():
        filing = filing_open(
            event=event, rule=rule, kind=kind, stage=stage, round=round, entry=entry, by=by,
            now=now,
        )  # fmt: skip
        if kind == Appeal.Kind.ACCEPT and not answer:
            raise Refused(_("Write the answer the team asks to be accepted."), field="answer")
        check_written(filing, statement, answer)
        _check_question(filing.event, filing.stage, round, entry, kind, question, filing.rule)
        return filing_record(
            filing, kind=kind, round=round, entry=entry, by=by, now=now, method=method,
            question=question, answer=answer, statement=statement,
        )  # fmt: skip


def _credited(appeal: Appeal, entries: Iterable[Entry], upheld: bool) -> list[Entry]:
    credited = list({e.pk: e for e in entries}.values())
    if not credited:
        return []
    if appeal.kind != Appeal.Kind.ACCEPT or not upheld:
        raise Refused(
            _("Other teams are credited only when an answer is accepted."), field="credited"
        )
    played = {
        r.entry_id
        for r in current_results(appeal.event, appeal.stage, appeal.round)
        if r.entry_id is not None
    }
    for entry in credited:
        if entry.pk == appeal.entry_id:
            raise Refused(_("The appealing team is credited anyway."), field="credited")
        if entry.pk not in played:
            raise Refused(
                _("#%(number)d %(name)s did not play this tour.")
                % {"number": entry.number, "name": entry.name},
                field="credited",
            )
    return credited


def verdict_record(
    *,
    appeal: Appeal,
    upheld: bool,
    reasons: str,
    by: Any,
    credited: Iterable[Entry] = (),
    action: str = "",
    now: dt.datetime | None = None,
) -> Verdict:
    """Records the jury's verdict on an appeal; an upheld accepted answer may be credited to
    other teams that gave it. The fee is refunded or forfeited by the rule."""
    now = now or timezone.now()
    reasons, action = reasons.strip(), action.strip()
    with transaction.atomic():
        decision = decision_open(appeal=appeal, reasons=reasons, by=by)
        teams = _credited(decision.appeal, credited, upheld)
        return decision_record(
            decision, upheld=upheld, reasons=reasons, action=action, by=by, now=now,
            credited=teams,
        )  # fmt: skip


def dispute_decide(
    *,
    event: Event,
    stage: str,
    round: int,
    entry: Entry,
    question: int,
    upheld: bool,
    reasons: str,
    by: Any,
    now: dt.datetime | None = None,
) -> Verdict:
    """The jury's decision on a disputed answer (``?`` at ``question`` of the team's mask)."""
    now = now or timezone.now()
    rule = next((a for a in event.rulebook.appeals if a.kinds), None)
    if rule is None:
        raise Refused(_("This rulebook hears no appeals on questions."))
    with transaction.atomic():
        event = locked_event(event.pk)
        may_decide(event, rule, by)
        current = next(
            (r for r in current_results(event, stage, round, now) if r.entry_id == entry.pk), None
        )
        mask = (current.cells.get("mask") or "") if current else ""
        if not (0 < question <= len(mask)) or mask[question - 1] != "?":
            raise Refused(
                _("#%(number)d has no disputed answer (?) at question %(q)d.")
                % {"number": entry.number, "q": question},
                field="question",
            )
        if Appeal.objects.filter(
            event=event, stage=stage, round=round, entry=entry, question=question,
            kind=Appeal.Kind.DISPUTED,
        ).exists():  # fmt: skip
            raise Refused(_("This disputed answer is already decided."), field="question")
        appeal = Appeal.objects.create(
            event=event, rule=rule.key, number=next_number(event), kind=Appeal.Kind.DISPUTED,
            stage=stage, round=round, question=question, entry=entry, filed_by=by, filed_at=now,
        )  # fmt: skip
        audit(event=event, actor=by, action="appeal.dispute", target=appeal, question=question)
        # In the same transaction: a refused verdict (no reasons) must not leave the appeal
        # behind, or the dispute would count as decided and could never be decided again.
        return verdict_record(appeal=appeal, upheld=upheld, reasons=reasons, by=by, now=now)


def jury_appoint(*, event: Event, user: Any, by: Any) -> EventRole:
    """Appoints a jury member (organizer only): never one who plays where the rule forbids it,
    and no more members than the rule names."""
    with transaction.atomic():
        event = locked_event(event.pk)
        if not is_organizer(by, event):
            raise Refused(_("Only an organizer appoints the appeal jury."))
        rule = next((a for a in event.rulebook.appeals if a.jury_size), None)
        if rule is None:
            raise Refused(_("This rulebook has no appeal jury."))
        if not rule.jury_may_play and plays_in(user, event):
            raise Refused(
                _("%(user)s plays in this championship and may not sit on the jury.")
                % {"user": user},
                field="user",
                clause=rule.clause,
            )
        members = jury_members(event)
        if any(m.pk == user.pk for m in members):
            raise Refused(_("%(user)s is already on the jury.") % {"user": user}, field="user")
        if rule.jury_size and len(members) >= rule.jury_size:
            raise Refused(
                _("The jury has %(n)d members already.") % {"n": rule.jury_size},
                field="user",
                clause=rule.clause,
            )
        role = EventRole.objects.create(event=event, user=user, role=EventRole.Role.JURY)
        audit(event=event, actor=by, action="jury.appoint", target=user)
    return role
