"""Who is official, and the divisions that split a stage into tables of its own.

Vocabulary (see ``podium.rules.schema`` for the rulebook, ``podium.rules.schema.common`` for
clauses):
- class: see ``podium.rules.schema.common``; a rulebook says which conditions put an entrant in
  a class other than ``official``.
- domestic: an entrant registered at an address in the rulebook's country; only those compete
  for the title.
- group / division: the independent tables of one stage (qualification groups A and B; bowling
  divisions such as ``master-men``).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import model_validator

from podium.rules.schema.common import Country, Rule, TableKey


class Domestic(Rule):
    """Only entrants registered at an address in ``country`` compete for the title."""

    country: Country
    team_rule: Literal["all", "any", "majority"] = "all"
    team_rule_clause: str | None = None


class Classification(Rule):
    """Who competes officially; everyone else is shown with an overall position only."""

    domestic: Domestic | None = None
    already_qualified: Rule | None = None
    unscored: Rule | None = None
    ineligible: Rule | None = None


class Division(Rule):
    key: TableKey
    title: str
    gender: Literal["M", "F"] | None = None
    average_min: Decimal | None = None
    average_max: Decimal | None = None
    fallback: bool = False


class Divisions(Rule):
    """Independent tables by gender and by ladder average as of a reference date."""

    reference_date: dt.date | None = None
    items: tuple[Division, ...]
    fallback_clause: str | None = None

    @model_validator(mode="after")
    def _fallbacks(self) -> Divisions:
        keys = [d.key for d in self.items]
        if len(set(keys)) != len(keys):
            raise ValueError("division keys repeat")
        for gender in {d.gender for d in self.items}:
            # An entrant not on the ladder goes to the fallback: each gender needs exactly one.
            if sum(d.fallback for d in self.items if d.gender == gender) != 1:
                raise ValueError(f"gender {gender} needs exactly one fallback division")
        return self
