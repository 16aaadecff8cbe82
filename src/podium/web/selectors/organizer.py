"""Reads for organizers: who holds which role, what a rulebook implies, and who paid what.

Vocabulary:
- staff: the organizers and referees of ONE event; roles never cross events.
- applicable fee: a rulebook fee that an entry owes. Our decision (the rulebooks do not say it
  in a setting): a fee whose key starts with ``unscored`` is owed by entries outside the
  competition only (ChGK "K × 20 RUB"); every other fee by the scored entries.
- fee line: one applicable fee of one entry, with its amount (per player: × the roster size) and
  the payments made for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy

from podium.engine.money import fee_amount
from podium.rules.schema import Fee, Money
from podium.web.models import Entry, Event, Payment

# What a rulebook's keys mean, for the organizer's outline (the keys stay in the rulebook).
FORMAT_LABELS = {
    "timed-solve": gettext_lazy("timed solve (time, else pieces)"),
    "team-solve": gettext_lazy("team solve of several puzzles"),
    "games": gettext_lazy("games (total pinfall)"),
    "chgk-tour": gettext_lazy("ChGK tour (questions taken)"),
    "chgk-season": gettext_lazy("ChGK season (sum of tour points)"),
    "head-to-head": gettext_lazy("head-to-head battles"),
    "superfinal": gettext_lazy("superfinal"),
}
KIND_LABELS = {
    "individual": gettext_lazy("individuals"),
    "pair": gettext_lazy("pairs"),
    "team": gettext_lazy("teams"),
}


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


@dataclass
class Outline:
    """What the rulebook implies for the organizer's dashboard."""

    categories: list[dict[str, Any]]
    stages: list[dict[str, Any]]
    divisions: list[dict[str, Any]]
    uses_squads: bool


def outline(event: Event) -> Outline:
    book = event.rulebook
    categories = [
        {
            "key": c.key,
            "title": c.title,
            "kind": KIND_LABELS.get(c.entrants.kind, c.entrants.kind),
            "cap": c.cap or book.registration.cap,
            "clause": c.clause,
        }
        for c in book.categories
    ]
    titles = {c.key: c.title for c in book.categories}
    stages = [
        {
            "key": s.key,
            "title": s.title,
            "format": FORMAT_LABELS.get(s.format, s.format),
            "category": titles.get(s.category or "", s.category or ""),
            "groups": list(s.groups),
            "clause": s.clause,
        }
        for s in book.stages
    ]
    divisions = (
        [
            {
                "key": d.key,
                "title": d.title,
                "gender": d.gender or "",
                "min": d.average_min,
                "max": d.average_max,
                "clause": d.clause,
            }
            for d in book.divisions.items
        ]
        if book.divisions
        else []
    )
    uses_squads = (
        book.cancellation is not None and book.cancellation.reference == "squad"
    ) or event.squads.exists()
    return Outline(categories, stages, divisions, uses_squads)
