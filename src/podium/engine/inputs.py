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
from typing import NamedTuple, TypeVar

from podium.engine.errors import Problems
from podium.engine.messages import Line, Message, MessageError, Value, _, reason_of

T = TypeVar("T")

YES_NO = {
    "yes": True, "no": False, "y": True, "n": False, "true": True, "false": False,
    "1": True, "0": False, "": None,
}  # fmt: skip
_GENDERS = {"m": "M", "f": "F"}
_COUNTRY = re.compile(r"^[A-Z]{2}$")
_SIGNED = re.compile(r"[+-]?\d+")
# A count written with a thousands separator (1.991, 1 991, 1,991): one separator throughout,
# groups of three; a count has no decimals, so the reading is unambiguous.
_THOUSANDS = re.compile(r"\d{1,3}(?P<sep>[., \u00a0\u202f'])\d{3}(?:(?P=sep)\d{3})*")
# More digits than any count holds; Python refuses int() of over 4,300 digits with a ValueError,
# so longer ones are named as the cell's problem before conversion.
_MOST_DIGITS = 30
COUNT = _("count")


@dataclass(frozen=True, slots=True)
class RawRow:
    line: int
    cells: Mapping[str, str]


class Competitor(NamedTuple):
    """A named tuple, not a dataclass: one is made per row, and a tuple is made fastest."""

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
        # Cells read otherwise than written (a thousands separator), said by row: line → notes.
        self.normalised: dict[int, list[Message]] = {}

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
                self.problems.add(self.where(row, column), _("a value is required"))
            return None
        try:
            return convert(text)
        except ValueError as exc:
            self.problems.add(self.where(row, column), reason_of(exc))
            return None

    def count(
        self, row: RawRow, column: str, *, maximum: int | None = None, what: Value = COUNT
    ) -> int | None:
        plain = row.cells.get(column)
        # Nearly every count is plain digits within bounds: taken without stripping or matching.
        if plain and plain.isascii() and plain.isdigit() and len(plain) <= _MOST_DIGITS:
            value = int(plain)
            if maximum is None or value <= maximum:
                return value
        text = self.text(row, column)
        if not text:
            return None
        if _THOUSANDS.fullmatch(text):
            plain = re.sub(r"\D", "", text)
            self.normalised.setdefault(row.line, []).append(
                _(
                    "%(column)s '%(text)s' read as %(value)s (a thousands separator)",
                    column=column,
                    text=text,
                    value=plain,
                )
            )
            text = plain
        if not (text.isascii() and text.isdigit()) and not _SIGNED.fullmatch(text):
            self.problems.add(
                self.where(row, column), _("'%(text)s' is not a whole number", text=text)
            )
            return None
        if len(text) > _MOST_DIGITS:
            self.problems.add(
                self.where(row, column),
                _("%(n)s digits are too many for a %(what)s", n=len(text), what=what),
            )
            return None
        value = int(text)
        message: Value
        if value < 0:
            message = _(
                "%(value)s is negative: a %(what)s cannot be below 0", value=value, what=what
            )
        elif maximum is not None and value > maximum:
            message = _("%(value)s is more than the %(maximum)s this allows", value=value,
                        maximum=maximum)  # fmt: skip
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
        self.problems.add(self.where(row, column), _("'%(text)s' is not one of %(allowed)s",
                                                     text=text, allowed=shown))  # fmt: skip
        return None


def columns_of(rows: Sequence[RawRow]) -> list[str]:
    """Every column that any of the rows has, sorted."""
    return sorted(set().union(*[row.cells for row in rows]))


def require_columns(columns: Sequence[str], required: Sequence[str], problems: Problems) -> bool:
    missing = [c for c in required if c not in columns]
    for column in missing:
        problems.add(f"column {column}", _("missing required column"))
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
        # The cells are read directly: a file of a season or a championship has many rows, and
        # an optional column that is empty or absent is passed by without a reader's call.
        cell = row.cells.get
        before = len(problems)
        entrant_id = (cell("id") or "").strip()
        if not entrant_id:
            problems.add(reader.where(row, "id"), _("every row needs an id"))
        else:
            scope = (cell(unique_per) or "").strip() if unique_per else ""
            key = (scope, entrant_id)
            if key in seen:
                known: dict[str, Value] = {"id": entrant_id, "row": Line(seen[key])}
                problems.add(
                    reader.where(row, "id"),
                    _("duplicate id '%(id)s' in %(per)s %(scope)s (also on %(row)s)",
                      per=unique_per, scope=scope, **known)
                    if unique_per
                    else _("duplicate id '%(id)s' (also on %(row)s)", **known),
                )  # fmt: skip
            else:
                seen[key] = row.line
        group = (cell("group") or "").strip() or None
        if groups:
            if group is None:
                shown = ", ".join(groups)
                problems.add(reader.where(row, "group"), _("a group is required (%(groups)s)",
                                                            groups=shown))  # fmt: skip
            elif group not in groups:
                shown = ", ".join(groups)
                problems.add(reader.where(row, "group"), _("unknown group '%(group)s' (%(groups)s)",
                                                            group=group, groups=shown))  # fmt: skip
        elif group is not None:
            problems.add(reader.where(row, "group"), _("this stage has no groups, got '%(group)s'",
                                                        group=group))  # fmt: skip
        countries = _countries(reader, row) if cell("country") else ()
        gender = None
        if (cell("gender") or "").strip():
            gender = reader.choice(row, "gender", _GENDERS)
        average = reader.typed(row, "average", _average) if cell("average") else None
        birth_date = reader.typed(row, "birth_date", _date) if cell("birth_date") else None
        qualified = reader.choice(row, "qualified", YES_NO) if "qualified" in row.cells else None
        scored = reader.choice(row, "scored", YES_NO) if "scored" in row.cells else None
        if len(problems) > before:
            out.append(None)
            continue
        out.append(
            Competitor(  # by position, in the order of its fields: three times faster per row
                entrant_id,
                (cell("name") or "").strip() or entrant_id,
                row.line,
                group,
                countries,
                gender,
                average,
                birth_date,
                bool(qualified),
                scored is not False,
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
            _(
                "'%(text)s' is not an ISO 3166 alpha-2 code (like CZ, or CZ/SK for a pair)",
                text=text,
            ),
        )
        return ()
    return parts


def _average(text: str) -> Decimal:
    try:
        value = Decimal(text.replace(",", "."))
    except InvalidOperation:
        raise MessageError(_("'%(text)s' is not a number", text=text)) from None
    if not value.is_finite() or value < 0 or value > 300:
        raise MessageError(_("'%(text)s' is not a bowling average (0–300)", text=text))
    return value


def _date(text: str) -> dt.date:
    # Nearly every date is written YYYY-MM-DD: read as such, at a tenth of strptime's cost.
    if len(text) == 10 and text[4] == text[7] == "-" and text.isascii():
        digits = text[:4] + text[5:7] + text[8:]
        if digits.isdigit():
            try:
                return dt.date.fromisoformat(text)
            except ValueError:
                pass  # no such day: strptime says so below, as for any other text
    for pattern in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return dt.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise MessageError(_("'%(text)s' is not a date: write YYYY-MM-DD", text=text))
