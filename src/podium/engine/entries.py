"""What the engine ranks: one entrant's performance in one stage, reduced to numbers.

Vocabulary:
- entry: one entrant (person, pair or team) in one table of a stage, with its metrics.
- metric: a number a format computed from the raw result (``time_ms``, ``pieces``, ``total``…);
  ``None`` where it does not apply (a non-finisher has no time). Criteria read metrics.
- class: ``official`` or the reason the entrant competes outside the official order.
- versus: points an entry earned against each opponent, for head-to-head criteria.
- reason: one line of explanation, with the clause of the rulebook it rests on.
- score: the result in the sport's own terms, for people (``1:23:45 (+20 s)``, ``487 pcs``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

Number = int | Decimal | Fraction


@dataclass(frozen=True, slots=True)
class Reason:
    clause: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Entry:
    id: str
    name: str
    metrics: Mapping[str, Number | None]
    score: str = ""
    table: str = "all"
    klass: str = "official"
    outside: Reason | None = None
    notes: tuple[Reason, ...] = ()
    versus: Mapping[str, Number] = field(default_factory=dict)

    @property
    def official(self) -> bool:
        return self.klass == "official"
