"""A document as an Excel workbook: a worksheet per sheet, the header row bold and frozen,
column widths from the content, numbers as numbers and times as Excel times.

Vocabulary:
- Excel time: a duration stored as a fraction of a day (1:02:03 → 0.043090…) with the number
  format ``[h]:mm:ss``, so it sums and sorts; a moment is stored in the event's time zone
  (Excel has no time zones) as ``yyyy-mm-dd hh:mm`` followed by the zone's label (``CET``).
- sheet name: Excel allows 31 characters and none of ``[]:*?/\\``; longer titles are cut and
  repeated ones numbered.
- text cell: every ``str`` value is written with the string data type, so text that begins with
  ``=`` (a team named ``=HYPERLINK(…)``) or reads as an error code (``#N/A``) stays text: openpyxl
  would otherwise store it as a formula or an error. The control characters XML cannot hold
  are written as U+FFFD, so an old value with one still exports.
"""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from podium.web.files.formats.cells import as_of_text, cell_text, local
from podium.web.files.selectors.exports import Column, Document, Sheet
from podium.web.kernel.moments import zone_label

NAME_LIMIT = 31
WIDTH_MIN, WIDTH_MAX, WIDTH_LONG = 6, 50, 80
DURATION = "[h]:mm:ss"
DURATION_MS = "[h]:mm:ss.000"
MOMENT = "yyyy-mm-dd hh:mm"


def sheet_name(title: str, used: set[str]) -> str:
    base = re.sub(r"[\[\]:*?/\\]", "-", title).strip("' ") or "-"
    name = base[:NAME_LIMIT]
    n = 2
    while name.lower() in used:
        suffix = f" ({n})"
        name = base[: NAME_LIMIT - len(suffix)] + suffix
        n += 1
    used.add(name.lower())
    return name


def _number_format(value: Any, column: Column, zone: Any) -> str | None:
    if isinstance(value, dt.timedelta):
        return DURATION_MS if value.microseconds else DURATION
    if isinstance(value, dt.datetime):
        # The zone's label as literal text: the cell stays a date Excel sorts, and says its zone.
        return f'{MOMENT} "{zone_label(local(value, zone))}"'
    if isinstance(value, float):
        return "0." + "0" * column.decimals if column.decimals else "0"
    return None


def _excel_value(value: Any, zone: Any) -> Any:
    if isinstance(value, dt.datetime):
        return local(value, zone).replace(tzinfo=None)
    return value


def _put(ws: Any, row: int, col: int, value: Any) -> Cell:
    """Writes a cell; text as a text cell (see the vocabulary)."""
    cell = ws.cell(row=row, column=col)
    if isinstance(value, str):
        cell.value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
        cell.data_type = "s"
    else:
        cell.value = value
    return cell  # type: ignore[no-any-return]


def _width(sheet: Sheet, column: Column, zone: Any) -> float:
    texts = [column.title] + [cell_text(r.get(column.key), column, zone) for r in sheet.rows]
    longest = max((len(line) for text in texts for line in text.split("\n")), default=0)
    limit = WIDTH_LONG if column.kind == "long" else WIDTH_MAX
    return max(WIDTH_MIN, min(longest + 2, limit))


def _write_sheet(book: Workbook, sheet: Sheet, used: set[str], zone: Any) -> None:
    ws = book.create_sheet(sheet_name(sheet.name or sheet.title, used))
    bold = Font(bold=True)
    for col, column in enumerate(sheet.columns, start=1):
        header = _put(ws, 1, col, column.title)
        header.font = bold
        ws.column_dimensions[get_column_letter(col)].width = _width(sheet, column, zone)
    wrap = Alignment(wrap_text=True, vertical="top")
    for r, row in enumerate(sheet.rows, start=2):
        for col, column in enumerate(sheet.columns, start=1):
            value = row.get(column.key)
            if value == "":
                continue
            cell = _put(ws, r, col, _excel_value(value, zone))
            number_format = _number_format(value, column, zone)
            if number_format:
                cell.number_format = number_format
            if column.kind == "long":
                cell.alignment = wrap
    ws.freeze_panes = "A2"
    if sheet.rows:
        ws.auto_filter.ref = f"A1:{get_column_letter(len(sheet.columns))}{len(sheet.rows) + 1}"


def write_xlsx(document: Document) -> bytes:
    book = Workbook()
    book.remove(book.active)
    used: set[str] = set()
    sheets = document.sheets or [Sheet(document.title, [])]
    for sheet in sheets:
        _write_sheet(book, sheet, used, document.zone)
    book.properties.title = document.title
    book.properties.subject = document.state or None
    book.properties.description = as_of_text(document)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
