"""Raw result rows and the columns every stage shares.

Vocabulary:
- raw row: one line of a results file as text cells by column name, with its line number.
- cell: one column's text in a raw row; empty means "not given".
- common columns: ``id``, ``name``, ``country``, ``group``, ``gender``, ``average``,
  ``birth_date``, ``qualified``, ``scored`` (see DESIGN §3).
- competitor: the common columns of one row, checked and typed.

Every check adds a problem naming the row (its line in the file) and the column, so a whole file
is reported at once; a row with a problem is never used.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TypeVar

from podium.engine.errors import Problems

T = TypeVar("T")

YES_NO = {
    "yes": True, "no": False, "y": True, "n": False, "true": True, "false": False,
    "1": True, "0": False, "": None,
}  # fmt: skip
_COUNTRY = re.compile(r"^[A-Z]{2}$")
_SIGNED = re.compile(r"[+-]?\d+")


@dataclass(frozen=True, slots=True)
class RawRow:
    line: int
    cells: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Competitor:
    id: str
    name: str
    line: int
    group: str | None = None
    countries: tuple[str, ...] = ()
    gender: str | None = None
    average: Decimal | None = None
    birth_date: dt.date | None = None
    qualified: bool = False
    scored: bool = True


class Reader:
    """Reads typed cells from raw rows, recording every problem instead of stopping."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def where(self, row: RawRow, column: str) -> str:
        return f"row {row.line}, column {column}"

    def text(self, row: RawRow, column: str) -> str:
        return (row.cells.get(column) or "").strip()

    def typed(
        self, row: RawRow, column: str, convert: Callable[[str], T], *, required: bool = False
    ) -> T | None:
        text = self.text(row, column)
        if not text:
            if required:
                self.problems.add(self.where(row, column), "a value is required")
            return None
        try:
            return convert(text)
        except ValueError as exc:
            self.problems.add(self.where(row, column), str(exc))
            return None

    def count(
        self, row: RawRow, column: str, *, maximum: int | None = None, what: str = "count"
    ) -> int | None:
        text = self.text(row, column)
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) and not _SIGNED.fullmatch(text):
            self.problems.add(self.where(row, column), f"'{text}' is not a whole number")
            return None
        value = int(text)
        if value < 0:
            message = f"{value} is negative: a {what} cannot be below 0"
        elif maximum is not None and value > maximum:
            message = f"{value} is more than the {maximum} this allows"
        else:
            return value
        self.problems.add(self.where(row, column), message)
        return None

    def choice(self, row: RawRow, column: str, allowed: Mapping[str, T]) -> T | None:
        text = self.text(row, column)
        key = text.casefold()
        if key in allowed:
            return allowed[key]
        shown = ", ".join(repr(k) for k in allowed if k)
        self.problems.add(self.where(row, column), f"'{text}' is not one of {shown}")
        return None


def require_columns(
    columns: Sequence[str], required: Sequence[str], problems: Problems, why: str = ""
) -> bool:
    missing = [c for c in required if c not in columns]
    for column in missing:
        problems.add(f"column {column}", f"missing required column{why}")
    return not missing


def read_competitors(
    rows: Sequence[RawRow],
    problems: Problems,
    *,
    groups: Sequence[str] = (),
    unique_per: str | None = None,
) -> list[Competitor | None]:
    """The common columns of every row (``None`` for a row with a problem in them)."""
    reader = Reader(problems)
    seen: dict[tuple[str, str], int] = {}
    out: list[Competitor | None] = []
    for row in rows:
        before = len(problems)
        entrant_id = reader.text(row, "id")
        if not entrant_id:
            problems.add(reader.where(row, "id"), "every row needs an id")
        else:
            scope = reader.text(row, unique_per) if unique_per else ""
            key = (scope, entrant_id)
            if key in seen:
                also = f" in {unique_per} {scope}" if unique_per else ""
                problems.add(
                    reader.where(row, "id"),
                    f"duplicate id '{entrant_id}'{also} (also on row {seen[key]})",
                )
            else:
                seen[key] = row.line
        group = reader.text(row, "group") or None
        if groups:
            if group is None:
                shown = ", ".join(groups)
                problems.add(reader.where(row, "group"), f"a group is required ({shown})")
            elif group not in groups:
                shown = ", ".join(groups)
                problems.add(reader.where(row, "group"), f"unknown group '{group}' ({shown})")
        elif group is not None:
            problems.add(reader.where(row, "group"), f"this stage has no groups, got '{group}'")
        countries = _countries(reader, row)
        gender = None
        if reader.text(row, "gender"):
            gender = reader.choice(row, "gender", {"m": "M", "f": "F"})
        average = reader.typed(row, "average", _average)
        birth_date = reader.typed(row, "birth_date", _date)
        qualified = reader.choice(row, "qualified", YES_NO) if "qualified" in row.cells else None
        scored = reader.choice(row, "scored", YES_NO) if "scored" in row.cells else None
        if len(problems) > before:
            out.append(None)
            continue
        out.append(
            Competitor(
                id=entrant_id,
                name=reader.text(row, "name") or entrant_id,
                line=row.line,
                group=group,
                countries=countries,
                gender=gender,
                average=average,
                birth_date=birth_date,
                qualified=bool(qualified),
                scored=scored is not False,
            )
        )
    return out


def _countries(reader: Reader, row: RawRow) -> tuple[str, ...]:
    text = reader.text(row, "country")
    if not text:
        return ()
    parts = tuple(p.strip().upper() for p in text.split("/"))
    bad = [p for p in parts if not _COUNTRY.match(p)]
    if bad:
        reader.problems.add(
            reader.where(row, "country"),
            f"'{text}' is not an ISO 3166 alpha-2 code (like CZ, or CZ/SK for a pair)",
        )
        return ()
    return parts


def _average(text: str) -> Decimal:
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"'{text}' is not a number") from None
    if not value.is_finite() or value < 0 or value > 300:
        raise ValueError(f"'{text}' is not a bowling average (0–300)")
    return value


def _date(text: str) -> dt.date:
    for pattern in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ValueError(f"'{text}' is not a date: write YYYY-MM-DD")
