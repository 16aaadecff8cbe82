"""Who owes and paid what: the fees an entry owes and the payments made for them.

Vocabulary:
- applicable fee: a rulebook fee that an entry owes. Our decision (the rulebooks do not say it
  in a setting): a fee whose key starts with ``unscored`` is owed by entries outside the
  competition only (ChGK "K × 20 RUB"); every other fee by the scored entries.
- fee line: one applicable fee of one entry, with its amount (per player: × the roster size) and
  the payments made for it."""

from __future__ import annotations

from dataclasses import dataclass, field

from podium.engine.money import fee_amount
from podium.rules.schema.common import Money
from podium.rules.schema.registration import Fee
from podium.web.models import Entry, Event, Payment


def fees_for(entry: Entry) -> list[Fee]:
    unscored = [f for f in entry.event.rulebook.fees if f.key.startswith("unscored")]
    if not entry.scored and unscored:
        return unscored
    return [f for f in entry.event.rulebook.fees if not f.key.startswith("unscored")]


def players_of(entry: Entry) -> int:
    return max(entry.members.count(), 1)


def fee_due(entry: Entry, fee: Fee) -> Money:
    return fee_amount(fee, players=players_of(entry))


@dataclass
class FeeLine:
    entry: Entry
    fee: Fee
    amount: Money
    payments: list[Payment] = field(default_factory=list)

    @property
    def paid(self) -> bool:
        return bool(self.payments)


def fee_lines(entry: Entry) -> list[FeeLine]:
    payments = list(entry.payments.all())
    return [
        FeeLine(entry, fee, fee_due(entry, fee), [p for p in payments if p.fee_key == fee.key])
        for fee in fees_for(entry)
    ]


def payments_table(event: Event) -> list[tuple[Entry, list[FeeLine]]]:
    entries = (
        event.entries.exclude(status=Entry.Status.WAITING)
        .prefetch_related("payments", "members")
        .order_by("number")
    )
    return [(entry, fee_lines(entry)) for entry in entries]


def receipt(event: Event, number: int) -> Payment | None:
    return (
        Payment.objects.select_related("entry", "received_by")
        .filter(entry__event=event, receipt_number=number)
        .first()
    )
