"""What the engine ranks: one entrant's performance in one stage, reduced to numbers.

Vocabulary:
- entry: one entrant (person, pair or team) in one table of a stage, with its metrics.
- metric: a number a format computed from the raw result (``time_ms``, ``pieces``, ``total``…);
  ``None`` where it does not apply (a non-finisher has no time). Criteria read metrics.
- class: ``official`` or the reason the entrant competes outside the official order.
- versus: points an entry earned against each opponent, for head-to-head criteria.
- points: the points an entry stands on when its format sums them (a season, a league).
- reason: one line of explanation (a message, see ``podium.engine.messages``), with the clause
  of the rulebook it rests on; its text is the English sentence.
- score: the result in the sport's own terms, for people (``1:23:45 (+20 s)``, ``487 pcs``):
  a message where it has words, a text where it is only numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import NamedTuple

from podium.engine.messages import Message, Value, render

Number = int | Decimal | Fraction


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Reason:
    """Two reasons are the same when they say the same under the same clause."""

    clause: str | None
    message: Message | str
    # The English text, kept once written: one reason can stand on many rows (a division's).
    _text: str | None = field(default=None, init=False)

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            message = self.message
            text = message if isinstance(message, str) else message.render()
            object.__setattr__(self, "_text", text)
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reason):
            return NotImplemented
        return (self.clause, self.text) == (other.clause, other.text)

    def __hash__(self) -> int:
        return hash((self.clause, self.text))

    def __repr__(self) -> str:
        return f"Reason(clause={self.clause!r}, text={self.text!r})"


_NO_OPPONENTS: Mapping[str, Number] = MappingProxyType({})


class Entry(NamedTuple):
    """A named tuple, like the other records a table makes one of per row (``Row``,
    ``Placed``): a tuple is made in a quarter of the time of a frozen dataclass, and in half
    that again when its fields are given by position, as the formats do."""

    id: str
    name: str
    metrics: Mapping[str, Number | None]
    score: Value = ""
    table: str = "all"
    klass: str = "official"
    outside: Reason | None = None
    notes: tuple[Reason, ...] = ()
    versus: Mapping[str, Number] = _NO_OPPONENTS
    # The points the row stands on where the format sums them itself (a season's tour points,
    # match points); a stage with points per place gives its rows those instead.
    points: Decimal | None = None

    @property
    def score_text(self) -> str:
        """The score in English."""
        return render(self.score)

    @property
    def official(self) -> bool:
        return self.klass == "official"
