"""Payments: money an organizer or referee received for an entry's fee, with a receipt.

Vocabulary:
- payment: one fee of one entry paid, in the amount and currency the rulebook sets (per player:
  the price × the players of the entry, ChGK "K × 20 RUB").
- receipt number: 1, 2, 3… in the order payments were recorded in ONE event; never reused.
- repeatable fee: a per-player fee is paid before each tour played, so it may be paid again;
  any other fee is paid once.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from podium.engine.money import fmt, money
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused
from podium.web.kernel.roles import is_staff
from podium.web.models import Entry, Payment, Verdict
from podium.web.registration.selectors.payments import fee_due, fees_for


def payment_record(
    *,
    entry: Entry,
    fee_key: str,
    amount: Decimal | str,
    method: str,
    by: Any,
    currency: str | None = None,
    note: str = "",
) -> Payment:
    with transaction.atomic():
        # Lock the event row: receipt numbers are handed out one at a time.
        event = locked_event(entry.event_id)
        entry = Entry.objects.select_related("event").get(pk=entry.pk)
        if not is_staff(by, event):
            raise Refused(_("Only an organizer or referee of this event may record payments."))
        if entry.status == Entry.Status.WAITING:
            raise Refused(_("An entry on the waiting list pays once it has a place."))
        fees = {f.key: f for f in fees_for(entry)}
        fee = fees.get(fee_key)
        if fee is None:
            raise Refused(
                _("This entry owes no fee “%(fee)s”.") % {"fee": fee_key}, field="fee_key"
            )
        if method not in Payment.Method.values:
            raise Refused(_("Unknown payment method."), field="method")
        if fee.payment == "cash-at-check-in" and method != Payment.Method.CASH:
            raise Refused(
                _("This fee is paid in cash at check-in."), field="method", clause=fee.clause
            )
        try:
            paid = money(Decimal(str(amount)), currency or fee.price.currency)
        except (InvalidOperation, ValueError):
            raise Refused(_("Enter an amount such as 600 or 600.00."), field="amount") from None
        due = fee_due(entry, fee)
        if paid.currency != due.currency or paid.amount != due.amount:
            raise Refused(
                _("The fee “%(fee)s” is %(due)s, not %(paid)s.")
                % {"fee": fee.title, "due": fmt(due), "paid": fmt(paid)},
                field="amount",
                clause=fee.clause,
            )
        earlier = entry.payments.filter(fee_key=fee.key).first()
        if earlier is not None and fee.per != "player":
            raise Refused(
                _("This fee is already paid (receipt %(number)d).")
                % {"number": earlier.receipt_number},
                field="fee_key",
            )
        last = Payment.objects.filter(entry__event=event).aggregate(n=Max("receipt_number"))["n"]
        # A forfeited appeal deposit's cash receipt takes a number from the same series.
        forfeit = Verdict.objects.filter(appeal__event=event).aggregate(n=Max("forfeit_receipt"))
        last = max(last or 0, forfeit["n"] or 0)
        payment = Payment.objects.create(
            entry=entry,
            fee_key=fee.key,
            amount=paid.amount,
            currency=paid.currency,
            method=method,
            receipt_number=(last or 0) + 1,
            received_by=by,
            note=note.strip()[:200],
        )
        audit(
            event=event,
            actor=by,
            action="payment.record",
            target=entry,
            fee=fee.key,
            amount=str(paid.amount),
            currency=paid.currency,
            method=method,
            receipt=payment.receipt_number,
        )
    return payment
