"""Bowling protests: a player's written protest to the head referee with its deposit, the
organizing committee's decision (a corrected game where it is upheld), and the further appeal
of a rejected protest with its outcome (ČBA § 14.2).

Vocabulary:
- protest: an appeal of kind ``protest`` under the rulebook's appeal rule without question
  kinds, filed on the player's result of a round; see ``podium.web.models.appeals``.
- deposit: the rule's fee where ``fee_is_deposit``: returned if the protest is upheld,
  forfeited with a cash receipt if rejected. Filing, the window, who decides and the fee's
  fate are shared with every appeal: see ``podium.web.disputes.services.hearings``.
- correction: an upheld protest on a recorded result may correct it: a new version of the
  result as it is now (the player may have bowled on since filing).
- further appeal: a rejected protest taken to the body the rule names
  (``further_appeal_to``), recorded with its outcome once known.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.disputes.services.hearings import (
    check_written,
    decision_open,
    decision_record,
    filing_open,
    filing_record,
    rule_of,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_staff
from podium.web.models import Appeal, Entry, Event, FurtherAppeal, Result, Verdict
from podium.web.results.selectors.rows import current_of
from podium.web.results.services.results import result_correct


def protest_file(
    *,
    event: Event,
    rule: str,
    stage: str,
    entry: Entry,
    by: Any,
    round: int = 1,
    statement: str = "",
    result: Result | None = None,
    method: str | None = None,
    now: dt.datetime | None = None,
) -> Appeal:
    """Files a player's protest on ``result`` with its deposit, within the rule's window;
    ``method``: how the deposit was paid (none: not paid, refused where the rule asks for one)."""
    now = now or timezone.now()
    statement = statement.strip()
    kind = Appeal.Kind.PROTEST
    with transaction.atomic():
        filing = filing_open(
            event=event, rule=rule, kind=kind, stage=stage, round=round, entry=entry, by=by,
            now=now,
        )  # fmt: skip
        check_written(filing, statement)
        if result is not None and result.entry_id != entry.pk:
            raise Refused(_("The protested result is not this entrant's."), field="result")
        return filing_record(
            filing, kind=kind, round=round, entry=entry, by=by, now=now, method=method,
            statement=statement, result=result,
        )  # fmt: skip


def protest_decide(
    *,
    appeal: Appeal,
    upheld: bool,
    reasons: str,
    by: Any,
    action: str = "",
    corrected_cells: Mapping[str, Any] | None = None,
    now: dt.datetime | None = None,
) -> Verdict:
    """Records the organizing committee's decision on a protest; an upheld protest may correct
    the protested result (``corrected_cells``, a new version of it). The deposit is returned
    or forfeited by the rule."""
    now = now or timezone.now()
    reasons, action = reasons.strip(), action.strip()
    with transaction.atomic():
        decision = decision_open(appeal=appeal, reasons=reasons, by=by)
        appeal = decision.appeal
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
        return decision_record(
            decision, upheld=upheld, reasons=reasons, action=action, by=by, now=now,
            correction=correction,
        )  # fmt: skip


def further_appeal_record(
    *, appeal: Appeal, by: Any, body: str = "", now: dt.datetime | None = None
) -> FurtherAppeal:
    """Records that a rejected protest was taken further (to the body the rule names)."""
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(appeal.event_id)
        rule = rule_of(event, appeal.rule)
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
