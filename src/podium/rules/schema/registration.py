"""Registration: who enters, on what terms (fees, cancellation), and checking in.

Vocabulary (see ``podium.rules.schema`` for the rulebook, ``podium.rules.schema.common`` for
clauses):
- category: a competition of its own within the event (individuals, pairs, teams), with its own
  entrants and cap.
- eligibility: a condition on who may enter (an age on a day, a birth date, an accompanying adult).
- cancellation tier: what a cancellation so many days before the start refunds and leaves owed.
- no-show: an entrant absent at the start, whose seat may go to someone else.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from podium.rules.schema.common import Fraction01, Key, Money, Rule
from podium.rules.schema.ranking import Prizes


class Entrants(Rule):
    """Who one entry is: a person, a pair or a team, and its roster limits."""

    kind: Literal["individual", "pair", "team"]
    min_size: Annotated[int, Field(ge=1)] = 1
    max_size: Annotated[int, Field(ge=1)] = 1
    roster_max: Annotated[int, Field(ge=1)] | None = None
    at_table_max: Annotated[int, Field(ge=1)] | None = None
    players_added_any_time: bool = False
    players_removed: bool = True
    one_team_per_person: bool = False
    substitutions: Literal["none", "between-tours", "any-time"] = "none"

    @model_validator(mode="after")
    def _sizes(self) -> Entrants:
        if self.min_size > self.max_size:
            raise ValueError("min_size is larger than max_size")
        if self.kind == "individual" and self.max_size != 1:
            raise ValueError("an individual entry has exactly one member")
        if self.kind == "pair" and (self.min_size, self.max_size) != (2, 2):
            raise ValueError("a pair has exactly two members (min_size: 2, max_size: 2)")
        return self


class MinAge(Rule):
    kind: Literal["min-age"]
    age: Annotated[int, Field(ge=0, le=120)]
    on: Literal["event-day"] | dt.date = "event-day"


class BornOnOrBefore(Rule):
    kind: Literal["born-on-or-before"]
    date: dt.date


class AccompaniedUnder(Rule):
    """Entrants younger than ``age`` may take part only with an accompanying adult."""

    kind: Literal["accompanied-under"]
    age: Annotated[int, Field(ge=1, le=120)]
    on: Literal["event-day"] | dt.date = "event-day"


Eligibility = Annotated[MinAge | BornOnOrBefore | AccompaniedUnder, Field(discriminator="kind")]


class Registration(Rule):
    cap: Annotated[int, Field(ge=1)] | None = None
    opens: dt.date | None = None
    closes: dt.date | None = None
    late_entries: Literal["no", "while-room"] = "no"
    approval_required: bool = False
    approval_assigns_table: bool = False
    waiting_list: bool = True
    channels: tuple[str, ...] = ()
    eligibility: tuple[Eligibility, ...] = ()

    @model_validator(mode="after")
    def _window(self) -> Registration:
        if self.opens and self.closes and self.opens > self.closes:
            raise ValueError("registration closes before it opens")
        return self


class Category(Rule):
    """A competition of its own within the event, with its own entrants and cap."""

    key: Key
    title: str
    entrants: Entrants
    cap: Annotated[int, Field(ge=1)] | None = None
    prizes: Prizes | None = None


# --- Money, dates and desks -----------------------------------------------------------------


class Fee(Rule):
    key: Key
    title: str
    price: Money
    per: Literal["entry", "player"] = "entry"
    due: str
    payment: Literal["cash-at-check-in", "before-tour", "online", "any"] = "any"
    unpaid: Literal["not-admitted", "owed"] = "owed"


class CancellationTier(Rule):
    """Cancelling at least ``days_before`` days before the start refunds and owes these shares."""

    days_before: Annotated[int, Field(ge=0)]
    refund: Fraction01 = Decimal(0)
    owed: Fraction01 = Decimal(0)


class Cancellation(Rule):
    reference: Literal["event", "squad"] = "event"
    tiers: tuple[CancellationTier, ...]

    @field_validator("tiers")
    @classmethod
    def _tiers(cls, tiers: tuple[CancellationTier, ...]) -> tuple[CancellationTier, ...]:
        days = [t.days_before for t in tiers]
        if days != sorted(days, reverse=True) or len(set(days)) != len(days):
            raise ValueError("tiers must be listed from the most days before to the fewest")
        if not days or days[-1] != 0:
            raise ValueError("the last tier must have days_before: 0 (a cancellation at any time)")
        return tiers


class CheckIn(Rule):
    opens_before_min: Annotated[int, Field(ge=0)] | None = None
    closes_before_min: Annotated[int, Field(ge=0)] | None = None


class NoShow(Rule):
    after_start_min: Annotated[int, Field(ge=0)]
    seat_to: Literal["waiting-list", "organizer"] = "waiting-list"
    refund: bool = False
