"""Filing appeals and protests, the jury, and verdicts.

Vocabulary:
- appeal, kind, fee, verdict, further appeal: see ``podium.web.models.appeals``.
- appeal rule: an entry of the rulebook's ``appeals``; a ChGK question appeal has ``kinds``, a
  bowling protest none (its kind is ``protest``).
- filing window: ``file_within_days`` after the round ended (the end of its clock, else by its
  scheduled day; see ``podium.web.results.selectors.clock``); an appeal decided on site is filed
  before the round's results are final.
- verdict due: ``verdict_within_days`` after the round ended; a verdict after it is still
  recorded (results wait for it), and the appeals page warns the organizer before.
- who decides: where the rule has a jury (``jury_size``), a jury member of the event, never one
  who plays in it when ``jury_may_play`` is false; otherwise (a protest decided on site by the
  organizing committee) the head referee or an organizer records the committee's decision.
- disputed answer: a ``?`` in a team's mask, decided by the jury like an appeal but filed by
  nobody and free; its verdict makes the mark ``1`` or ``0``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.disputes.selectors.appeals import (
    appeal_rule,
    filing_closes,
    jury_members,
    member_of,
    plays_in,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import has_role, is_head_referee, is_organizer, is_staff
from podium.web.models import (
    Appeal,
    Entry,
    Event,
    EventRole,
    FurtherAppeal,
    Payment,
    Result,
    Verdict,
)
from podium.web.models.money import APPEAL_FEE_PREFIX
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import current_of, current_results
from podium.web.results.selectors.tours import tour_questions
from podium.web.results.services.results import result_correct

METHODS = Payment.Method.values


def _rule(event: Event, key: str) -> AppealRule:
    rule = appeal_rule(event, key)
    if rule is None:
        raise Refused(_("This rulebook has no appeal “%(key)s”.") % {"key": key}, field="rule")
    return rule


def _stage(event: Event, key: str) -> Stage:
    try:
        return event.rulebook.stage(key)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None


def _local(event: Event, moment: dt.datetime) -> str:
    return formats.date_format(moment.astimezone(event.zone), "DATETIME_FORMAT")


def _next_receipt(event: Event) -> int:
    """The next receipt number of the event: after every payment's and every forfeit's, so a
    cash receipt for a forfeited deposit never shares its number with a payment."""
    last = Payment.objects.filter(entry__event=event).aggregate(n=Max("receipt_number"))["n"]
    forfeits = Verdict.objects.filter(appeal__event=event).aggregate(n=Max("forfeit_receipt"))
    return max(last or 0, forfeits["n"] or 0) + 1


def _next_number(event: Event) -> int:
    last = Appeal.objects.filter(event=event).aggregate(n=Max("number"))["n"]
    return (last or 0) + 1


def _fee(
    event: Event, rule: AppealRule, entry: Entry, method: str | None, by: Any
) -> Payment | None:
    """The fee or deposit paid with the appeal, or the refusal when it is missing."""
    if rule.fee is None:
        return None
    if not method:
        what = _("deposit") if rule.fee_is_deposit else _("fee")
        raise Refused(
            _("%(title)s needs the %(what)s of %(amount)s %(currency)s, paid when filed.")
            % {
                "title": rule.title,
                "what": what,
                "amount": rule.fee.amount,
                "currency": rule.fee.currency,
            },
            field="method",
            clause=rule.clause,
        )
    if method not in METHODS:
        raise Refused(_("Unknown payment method."), field="method")
    return Payment.objects.create(
        entry=entry,
        fee_key=APPEAL_FEE_PREFIX + rule.key,
        amount=Decimal(rule.fee.amount),
        currency=rule.fee.currency,
        method=method,
        receipt_number=_next_receipt(event),
        received_by=by,
        note=rule.title[:200],
    )


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
    result: Result | None = None,
    method: str | None = None,
    now: dt.datetime | None = None,
) -> Appeal:
    """Files an appeal (or a protest) with its fee, within the rule's window; ``method``: how
    the fee or deposit was paid (none: not paid, refused where the rule asks for one)."""
    now = now or timezone.now()
    answer, statement = answer.strip(), statement.strip()
    with transaction.atomic():
        event = locked_event(event.pk)
        the_rule = _rule(event, rule)
        if entry.event_id != event.pk:
            raise Refused(_("This entry is not part of this event."), field="entry")
        if not (is_staff(by, event) or member_of(by, entry)):
            raise Refused(_("An appeal is filed by the team itself or recorded by the staff."))
        kinds = the_rule.kinds or (Appeal.Kind.PROTEST,)
        if kind not in kinds:
            raise Refused(
                _("An appeal of this kind is not heard here; the kinds are: %(kinds)s.")
                % {"kinds": ", ".join(str(Appeal.Kind(k).label) for k in kinds)},
                field="kind",
            )
        the_stage = _stage(event, stage)
        played = current_results(event, the_stage.key, round, now)
        if not any(r.entry_id == entry.pk for r in played):
            raise Refused(
                _("#%(number)d %(name)s has no result in this round to appeal.")
                % {"number": entry.number, "name": entry.name},
                field="entry",
            )
        if publication_state(event, the_stage.key, round) == "final":
            raise Refused(_("These results are final: the time for appeals is over."))
        closes = filing_closes(event, the_stage, round, the_rule, now)
        if closes is not None and now > closes:
            raise Refused(
                _("The time for appeals on this round is over: it closed %(when)s.")
                % {"when": _local(event, closes)},
                clause=the_rule.clause,
            )
        if kind == Appeal.Kind.ACCEPT and not answer:
            raise Refused(_("Write the answer the team asks to be accepted."), field="answer")
        if the_rule.form == "written" and not (statement or answer):
            raise Refused(_("An appeal is made in writing: enter its text."), field="statement")
        if kind in Appeal.QUESTION_KINDS:
            _check_question(event, the_stage, round, entry, kind, question, the_rule)
        else:
            question = None
        if result is not None and result.entry_id != entry.pk:
            raise Refused(_("The protested result is not this entrant's."), field="result")
        fee = _fee(event, the_rule, entry, method, by)
        appeal = Appeal.objects.create(
            event=event, rule=the_rule.key, number=_next_number(event), kind=kind,
            stage=the_stage.key, round=round, question=question, answer=answer,
            statement=statement, entry=entry, result=result, fee=fee, filed_by=by,
            filed_at=now,
        )  # fmt: skip
        audit(
            event=event, actor=by, action="appeal.file", target=appeal, kind=kind,
            stage=the_stage.key, round=round, question=question, entry=entry.number,
            receipt=fee.receipt_number if fee else None,
        )  # fmt: skip
    return appeal


def _may_decide(event: Event, rule: AppealRule, by: Any) -> None:
    if rule.jury_size:
        if not has_role(by, event, EventRole.Role.JURY):
            raise Refused(
                _("Only a member of the appeal jury records its verdict."), clause=rule.clause
            )
        if not rule.jury_may_play and plays_in(by, event):
            raise Refused(
                _("A jury member who plays in this championship may not decide appeals."),
                clause=rule.clause,
            )
    elif not (is_head_referee(by, event) or is_organizer(by, event)):
        raise Refused(
            _("The head referee records the organizing committee's decision."),
            clause=rule.clause,
        )


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
    corrected_cells: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Verdict:
    """Records the verdict on an appeal; an upheld protest may correct the protested result
    (``corrected_cells``, a new version of it). The fee is refunded or forfeited by the rule."""
    now = now or timezone.now()
    reasons, action = reasons.strip(), action.strip()
    with transaction.atomic():
        event = locked_event(appeal.event_id)
        appeal = Appeal.objects.select_related("entry", "result", "fee").get(pk=appeal.pk)
        rule = _rule(event, appeal.rule)
        _may_decide(event, rule, by)
        if Verdict.objects.filter(appeal=appeal).exists():
            raise Refused(_("Appeal %(number)d is already decided.") % {"number": appeal.number})
        if not reasons:
            raise Refused(_("A verdict gives its reasons."), field="reasons")
        if publication_state(event, appeal.stage, appeal.round) == "final":
            raise Refused(_("These results are final; reopen them with a reason before a verdict."))
        teams = _credited(appeal, credited, upheld)
        correction = None
        if corrected_cells is not None:
            if not upheld or appeal.result is None:
                raise Refused(
                    _("Only an upheld protest on a recorded result corrects it."),
                    field="corrected_cells",
                )
            # The player may have bowled on since filing: correct the result as it is now.
            correction = result_correct(
                result=current_of(appeal.result), cells=corrected_cells, by=by,
                reason=_("Protest %(number)d upheld: %(reasons)s")
                % {"number": appeal.number, "reasons": reasons},
                idempotency_key=f"verdict-{appeal.pk}", now=now,
            )  # fmt: skip
        fee = Verdict.Fee.NONE
        receipt = None
        if appeal.fee is not None:
            if upheld and rule.refunded_if_upheld:
                fee = Verdict.Fee.REFUNDED
            elif not upheld and rule.forfeited_if_rejected:
                fee = Verdict.Fee.FORFEITED
                receipt = _next_receipt(event) if rule.fee_is_deposit else None
        verdict = Verdict.objects.create(
            appeal=appeal, upheld=upheld, reasons=reasons, action=action, correction=correction,
            fee=fee, forfeit_receipt=receipt, decided_by=by, decided_at=now,
        )  # fmt: skip
        verdict.credited.set(teams)
        audit(
            event=event, actor=by, action="appeal.verdict", target=appeal, upheld=upheld,
            credited=[e.number for e in teams], fee=fee, correction=correction.pk
            if correction else None,
        )  # fmt: skip
    return verdict


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
        _may_decide(event, rule, by)
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
            event=event, rule=rule.key, number=_next_number(event), kind=Appeal.Kind.DISPUTED,
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


def further_appeal_record(
    *, appeal: Appeal, by: Any, body: str = "", now: dt.datetime | None = None
) -> FurtherAppeal:
    """Records that a rejected protest was taken further (to the body the rule names)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(appeal.event_id)
        rule = _rule(event, appeal.rule)
        if not is_staff(by, event):
            raise Refused(_("Only the organizers and referees of this event record appeals."))
        if rule.further_appeal_to is None:
            raise Refused(_("The rulebook names no body for a further appeal."))
        verdict = Verdict.objects.filter(appeal=appeal).first()
        if verdict is None or verdict.upheld:
            raise Refused(_("Only a rejected protest is taken further."))
        if FurtherAppeal.objects.filter(appeal=appeal).exists():
            raise Refused(_("This protest was already taken further."))
        further = FurtherAppeal.objects.create(
            appeal=appeal, body=(body.strip() or rule.further_appeal_to)[:200], filed_at=now,
            recorded_by=by,
        )  # fmt: skip
        audit(event=event, actor=by, action="appeal.further", target=appeal, body=further.body)
    return further


def further_appeal_outcome(
    *, further: FurtherAppeal, outcome: str, by: Any, now: dt.datetime | None = None
) -> FurtherAppeal:
    now = now or timezone.now()
    outcome = outcome.strip()
    with transaction.atomic():
        further = FurtherAppeal.objects.select_for_update().get(pk=further.pk)
        event = further.appeal.event
        if not is_staff(by, event):
            raise Refused(_("Only the organizers and referees of this event record appeals."))
        if not outcome:
            raise Refused(_("Write the outcome."), field="outcome")
        if further.decided_at is not None:
            raise Refused(_("The outcome is already recorded."))
        further.outcome, further.decided_at = outcome, now
        further.save(update_fields=["outcome", "decided_at"])
        audit(event=event, actor=by, action="appeal.further_outcome", target=further.appeal)
    return further
