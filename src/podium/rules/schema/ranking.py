"""Ranking and advancement: the criteria of a stage, its points, quotas and prizes.

Vocabulary (see ``podium.rules.schema`` for the rulebook, ``podium.rules.schema.common`` for
clauses):
- criterion: a named way to order entrants (``time``, ``pieces``, ``total``…); a stage lists them.
- play-off: an extra match for a tie at a prize place still equal after a given criterion.
- pool: one advancement quota, e.g. "50 fastest Czechs per group".
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from podium.rules.schema.common import EntrantClass, Key, Rule, TableKey


class CriterionRef(Rule):
    key: Key


class Playoff(Rule):
    """Ties for these places, still equal after ``after``, are settled by a play-off (an extra
    match of ``questions`` questions, where it is one)."""

    places: tuple[Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1)]]
    after: Key
    method: str
    questions: Annotated[int, Field(ge=1)] | None = None


class Ranking(Rule):
    criteria: tuple[CriterionRef, ...] = Field(min_length=1)
    playoff: Playoff | None = None

    @field_validator("criteria", mode="before")
    @classmethod
    def _keys_as_refs(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            return [{"key": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _playoff_after_known(self) -> Ranking:
        keys = [c.key for c in self.criteria]
        if len(set(keys)) != len(keys):
            raise ValueError("a criterion is listed twice")
        if self.playoff and self.playoff.after not in keys:
            raise ValueError(f"playoff.after '{self.playoff.after}' is not among the criteria")
        return self


class Points(Rule):
    """Points per official place; places shared by a tie share their points."""

    per_place: tuple[Decimal, ...] = Field(min_length=1)
    decimals: Annotated[int, Field(ge=0, le=6)] = 3


class Pool(Rule):
    """One advancement quota: the best ``count`` entrants of these classes in each table."""

    key: Key
    label: str
    classes: tuple[EntrantClass, ...] = Field(min_length=1)
    count: Annotated[int, Field(ge=0)]


class Advancement(Rule):
    to: str | None = None
    pools: tuple[Pool, ...] = ()
    # Pydantic copies a field's default for each model (ruff sees no BaseModel behind Rule).
    pools_by_table: dict[TableKey, tuple[Pool, ...]] = {}  # noqa: RUF012
    ties_at_cut: Literal["all-advance", "organizer-decides"] = "all-advance"
    ties_clause: str | None = None

    def pools_for(self, table: str) -> tuple[Pool, ...]:
        return self.pools_by_table.get(table, self.pools)


class Prizes(Rule):
    places: Annotated[int, Field(ge=1)]
    official_only: bool = True
