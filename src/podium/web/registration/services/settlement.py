"""What cancelling an entry settles: the refund and what is still owed, by the rulebook's
cancellation terms, and the last day a cancellation is free.

Vocabulary:
- terms: the rulebook's cancellation tiers; each says, so many days before the start, what share
  of the fee is refunded and what is owed. Without terms, a cancellation refunds what was paid.
- start: when the terms count from — the event's start, or the entry's squad's where the
  rulebook says so (ČBA).
- fee: the entry's own fee (appeal fees are not an entry's); a team outside the competition
  pays the per-player fee.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.engine import money
from podium.rules.schema.registration import Fee
from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import shown
from podium.web.models import Entry
from podium.web.models.money import APPEAL_FEE_PREFIX


@dataclass(frozen=True, slots=True)
class Terms:
    """What a cancellation would settle: refund and owed amounts, the reason and clause."""

    refund: Decimal
    owed: Decimal
    currency: str
    reason: str
    clause: str


def _fee_for(entry: Entry) -> Fee | None:
    fees = entry.event.rulebook.fees
    if not entry.scored:
        unscored = [f for f in fees if f.per == "player"]
        return unscored[0] if unscored else None
    scored = [f for f in fees if not (f.per == "player" and "unscored" in f.key)]
    return scored[0] if scored else None


def start_of(entry: Entry) -> dt.datetime:
    rule = entry.event.rulebook.cancellation
    if rule is not None and rule.reference == "squad" and entry.squad is not None:
        return entry.squad.starts_at
    return entry.event.starts_at


def free_until(entry: Entry, now: dt.datetime) -> dt.date | None:
    """The last day a cancellation of ``entry`` is refunded in full, if one is left; ``None``
    also when the rulebook has no terms (then it is free until the start)."""
    rule = entry.event.rulebook.cancellation
    if rule is None:
        return None
    free = [t.days_before for t in rule.tiers if t.refund == 1 and t.owed == 0]
    if not free:
        return None
    zone = entry.event.zone
    day = start_of(entry).astimezone(zone).date() - dt.timedelta(days=min(free))
    return day if day >= now.astimezone(zone).date() else None


def settlement_preview(*, entry: Entry, now: dt.datetime | None = None) -> Terms:
    """The terms of cancelling this entry at ``now``, per the rulebook; nothing is written."""
    now = now or timezone.now()
    event = entry.event
    fee_rule = _fee_for(entry)
    own = entry.payments.exclude(fee_key__startswith=APPEAL_FEE_PREFIX)
    paid_total = own.aggregate(s=Sum("amount"))["s"] or Decimal(0)
    currency = fee_rule.price.currency if fee_rule else ""
    if fee_rule is None:
        paid_total = Decimal(0)
    start = start_of(entry)
    zone = event.zone
    cancelled_on, starts_on = now.astimezone(zone).date(), start.astimezone(zone).date()
    if cancelled_on > starts_on or now >= start:
        raise Refused(
            _("The competition has started; a cancellation now is a no-show."),
        )
    if entry.status == Entry.Status.WAITING:
        # A waiting entry never had a place: whatever was paid goes back.
        return Terms(paid_total, Decimal(0), currency, _("Leaves the waiting list."), "")
    rule = event.rulebook.cancellation
    if rule is None:
        return Terms(paid_total, Decimal(0), currency, _("No cancellation terms apply."), "")
    members = entry.members.count() or 1
    # ``XXX`` is ISO 4217's "no currency": the terms still say what share is refunded or owed.
    fee = (
        money.fee_amount(fee_rule, players=members) if fee_rule else money.money(Decimal(0), "XXX")
    )
    paid = money.money(paid_total, fee.currency)
    settled = money.cancellation(
        rule, fee=fee, paid=paid, cancelled_on=cancelled_on, starts_on=starts_on
    )
    return Terms(
        settled.refund.amount,
        settled.owed.amount,
        currency,
        shown(settled.reason),
        settled.reason.clause or rule.clause or "",
    )
