"""The rulebook's common pieces: settings that cite their clause, keys, money, classes.

Vocabulary:
- clause: the paragraph of the original document a setting encodes, quoted short in its language, so
  every decision Podium makes can cite it. Any setting (a ``Rule``) may carry one.
- interpretation: where the original is silent or ambiguous and we decided; the rulebook says so.
- key: a setting's name as files and URLs write it (lower case, digits and ``-``); a table key
  (a group or division) may use capitals.
- class: why an entrant is in or outside the official competition (``official``, ``foreign``,
  ``already-qualified``, ``unscored``, ``ineligible``); advancement quotas name classes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Key = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=60)]
TableKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$", max_length=60)]
Fraction01 = Annotated[Decimal, Field(ge=0, le=1)]
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
Country = Annotated[str, Field(pattern=r"^[A-Z]{2}$")]

CLASSES = ("official", "foreign", "already-qualified", "unscored", "ineligible")
EntrantClass = Literal["official", "foreign", "already-qualified", "unscored", "ineligible"]


class Rule(BaseModel):
    """A setting that may cite its clause and say where it is our interpretation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    clause: str | None = None
    interpretation: str | None = None


class Money(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    amount: Annotated[Decimal, Field(ge=0)]
    currency: Currency
