"""What every appeal and protest goes through, whatever its kind: filed under its rule within
the window with its fee, numbered, then decided with reasons by whoever the rule names, and
the fee refunded or forfeited. The ChGK question appeals (``services.appeals``) and the
bowling protests (``services.protests``) add their own checks around these steps.

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
- receipt series: one per event, shared by payments and the cash receipts of forfeited
  deposits, so the two never share a number.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Max
from django.utils.translation import gettext as _

from podium.rules.schema.discipline import Appeal as AppealRule
from podium.rules.schema.stages import Stage
from podium.web.disputes.selectors.appeals import appeal_rule, filing_closes, member_of, plays_in
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import has_role, is_head_referee, is_organizer, is_staff
from podium.web.models import Appeal, Entry, Event, EventRole, Payment, Result, Verdict
from podium.web.models.money import APPEAL_FEE_PREFIX
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import current_results

METHODS = Payment.Method.values


def rule_of(event: Event, key: str) -> AppealRule:
    rule = appeal_rule(event, key)
    if rule is None:
        raise Refused(_("This rulebook has no appeal “%(key)s”.") % {"key": key}, field="rule")
    return rule


def _stage(event: Event, key: str) -> Stage:
    try:
        return event.rulebook.stage(key)
    except KeyError:
        raise Refused(_("This event has no such stage."), field="stage") from None


def _next_receipt(event: Event) -> int:
    """The next receipt number of the event: after every payment's and every forfeit's, so a
    cash receipt for a forfeited deposit never shares its number with a payment."""
    last = Payment.objects.filter(entry__event=event).aggregate(n=Max("receipt_number"))["n"]
    forfeits = Verdict.objects.filter(appeal__event=event).aggregate(n=Max("forfeit_receipt"))
    return max(last or 0, forfeits["n"] or 0) + 1


def next_number(event: Event) -> int:
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


# --- Filing -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Filing:
    """An appeal being filed: its event (locked until the transaction ends), rule and stage."""

    event: Event
    rule: AppealRule
    stage: Stage


def filing_open(
    *, event: Event, rule: str, kind: str, stage: str, round: int, entry: Entry, by: Any,
    now: dt.datetime,
) -> Filing:  # fmt: skip
    """Locks the event and checks what every filing needs: the rule, the entry, who files, the
    kind, a result to appeal, results not yet final and the window still open. Called inside
    the caller's transaction."""
    event = locked_event(event.pk)
    the_rule = rule_of(event, rule)
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
            % {"when": moment_text(closes, event)},
            clause=the_rule.clause,
        )
    return Filing(event, the_rule, the_stage)


def check_written(filing: Filing, *texts: str) -> None:
    """Refuses an appeal without text where the rule has it made in writing."""
    if filing.rule.form == "written" and not any(texts):
        raise Refused(_("An appeal is made in writing: enter its text."), field="statement")


def filing_record(
    filing: Filing, *, kind: str, round: int, entry: Entry, by: Any, now: dt.datetime,
    method: str | None, question: int | None = None, answer: str = "", statement: str = "",
    result: Result | None = None,
) -> Appeal:  # fmt: skip
    """Takes the fee and stores the appeal, numbered, with its audit entry (every check done)."""
    event = filing.event
    fee = _fee(event, filing.rule, entry, method, by)
    appeal = Appeal.objects.create(
        event=event, rule=filing.rule.key, number=next_number(event), kind=kind,
        stage=filing.stage.key, round=round, question=question, answer=answer,
        statement=statement, entry=entry, result=result, fee=fee, filed_by=by, filed_at=now,
    )  # fmt: skip
    audit(
        event=event, actor=by, action="appeal.file", target=appeal, kind=kind,
        stage=filing.stage.key, round=round, question=question, entry=entry.number,
        receipt=fee.receipt_number if fee else None,
    )  # fmt: skip
    return appeal


# --- Deciding ---------------------------------------------------------------------------------


def may_decide(event: Event, rule: AppealRule, by: Any) -> None:
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


@dataclass(frozen=True)
class Decision:
    """An appeal being decided: its event (locked), the appeal as stored, and its rule."""

    event: Event
    appeal: Appeal
    rule: AppealRule


def decision_open(*, appeal: Appeal, reasons: str, by: Any) -> Decision:
    """Locks the event and checks what every verdict needs: who decides, no verdict yet, its
    reasons, results not final. Called inside the caller's transaction."""
    event = locked_event(appeal.event_id)
    appeal = Appeal.objects.select_related("entry", "result", "fee").get(pk=appeal.pk)
    rule = rule_of(event, appeal.rule)
    may_decide(event, rule, by)
    if Verdict.objects.filter(appeal=appeal).exists():
        raise Refused(_("Appeal %(number)d is already decided.") % {"number": appeal.number})
    if not reasons:
        raise Refused(_("A verdict gives its reasons."), field="reasons")
    if publication_state(event, appeal.stage, appeal.round) == "final":
        raise Refused(_("These results are final; reopen them with a reason before a verdict."))
    return Decision(event, appeal, rule)


def decision_record(
    decision: Decision, *, upheld: bool, reasons: str, action: str, by: Any, now: dt.datetime,
    credited: Sequence[Entry] = (), correction: Result | None = None,
) -> Verdict:  # fmt: skip
    """Stores the verdict (every check done): the fee refunded or forfeited by the rule, a
    forfeited deposit with the next cash receipt number."""
    event, appeal, rule = decision.event, decision.appeal, decision.rule
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
    verdict.credited.set(credited)
    audit(
        event=event, actor=by, action="appeal.verdict", target=appeal, upheld=upheld,
        credited=[e.number for e in credited], fee=fee, correction=correction.pk
        if correction else None,
    )  # fmt: skip
    return verdict
