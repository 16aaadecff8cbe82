"""Reading an XLSX workbook's cells with budgets, by the cells it holds, never its declared size.

Vocabulary:
- part, zip budget, cell budget: see ``podium.web.readers.workbook_parts``. A worksheet's
  ``<dimension>`` is never read: a row holds only the cells it writes, so an empty sheet that
  declares A1:XFD1048576 costs nothing.
- rows: ``(row number, cells as text)`` for the rows that hold a value, cells from column A to
  the row's last value (at most ``max_columns``); reading stops after ``max_rows`` such rows.
- probe: reading a later worksheet only until its first value, to name it in the preview.
"""

from __future__ import annotations

import datetime as dt
import io
import posixpath
import zipfile
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from openpyxl.styles.numbers import is_date_format, is_timedelta_format
from openpyxl.utils.datetime import MAC_EPOCH, WINDOWS_EPOCH, from_excel

from podium.web.readers.workbook_parts import (
    MAX_CELL_CHARS,
    MAX_CELLS,
    Book,
    Part,
    Relations,
    Source,
    Stop,
    Strings,
    Styles,
    WorkbookRefused,
    check_zip,
)

Table = list[tuple[int, list[str]]]


def column_index(letters: str) -> int:
    """``A`` → 0, ``AA`` → 26."""
    index = 0
    for ch in letters:
        index = index * 26 + (ord(ch.upper()) - 64)
    return index - 1


def _split_ref(ref: str) -> tuple[int, int] | None:
    """``B12`` → (row 12, column 1); None for anything else."""
    letters = ref.rstrip("0123456789")
    digits = ref[len(letters) :]
    if not letters or not digits or not letters.isalpha() or len(letters) > 3:
        return None
    return int(digits), column_index(letters)


class _Sheet(Part):
    """The rows of one worksheet with values (see the vocabulary), within the budgets."""

    def __init__(
        self,
        source: Source,
        name: str,
        title: str,
        value: Callable[[str, str | None, str | None, str], str],
        max_rows: int,
        max_columns: int,
        probe: bool,
    ) -> None:
        super().__init__(source, name)
        self.title = title
        self.value = value
        self.max_rows = max_rows
        self.max_columns = max_columns
        self.probe = probe
        self.table: Table = []
        self.row_number = 0
        self.row: dict[int, str] = {}
        self.column = -1
        self.cell: dict[str, str] = {}
        self.inline = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "row":
            given = attrs.get("r", "")
            self.row_number = int(given) if given.isdigit() else self.row_number + 1
            self.row, self.column = {}, -1
        elif name == "c":
            self.source.cells_left -= 1
            if self.source.cells_left < 0:
                raise WorkbookRefused(
                    _(
                        "The worksheet “%(sheet)s” has more than %(max)s cells (row %(row)d); "
                        "Podium reads smaller tables. Delete the empty or unused cells."
                    )
                    % {"sheet": self.title, "max": f"{MAX_CELLS:,}", "row": self.row_number}
                )
            ref = _split_ref(attrs.get("r", ""))
            if ref is not None:
                self.row_number, self.column = ref
            else:
                self.column += 1
            self.cell = attrs
            self.inline = False
        elif name == "v" or (name == "t" and self.inline):
            self.collecting = True
        elif name == "is":
            self.inline = True

    def end(self, name: str) -> None:
        if name in ("v", "t"):
            self.collecting = False
        elif name == "c":
            if not self.text and not self.overflow:
                return  # an empty cell (most of a padded sheet): nothing to convert
            raw, overflow = self.take_text()
            where = f"{column_letter(self.column)}{self.row_number}"
            if overflow:
                raise self.too_long(where)
            text = self.value(raw, self.cell.get("t"), self.cell.get("s"), where)
            if text.strip() and self.probe:
                self.row[self.column] = text
                raise Stop  # a value anywhere names the worksheet; no need to read on
            if text.strip() and self.column < self.max_columns:
                self.row[self.column] = text
        elif name == "row" and self.row:
            last = max(self.row)
            self.table.append((self.row_number, [self.row.get(i, "") for i in range(last + 1)]))
            if len(self.table) > self.max_rows:
                raise Stop  # the caller refuses the count; no need to read further

    def too_long(self, where: str) -> WorkbookRefused:
        return WorkbookRefused(
            _(
                "Cell %(cell)s of the worksheet “%(sheet)s” holds more than %(max)s characters; "
                "Podium reads at most that many in one cell."
            )
            % {"cell": where, "sheet": self.title, "max": f"{MAX_CELL_CHARS:,}"}
        )


def column_letter(index: int) -> str:
    """The spreadsheet's name of a column: 0 → A, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _sheets(
    data: bytes, max_rows: int, max_columns: int, every: bool
) -> tuple[list[tuple[str, Table]], list[str], int]:
    """The worksheets read (all of them with ``every``, else the first with a value), the
    titles of the later ones that hold a value, and the index of the first one read."""
    with zipfile.ZipFile(io.BytesIO(data)) as book:
        check_zip(book)
        source = Source(book)
        names = set(book.namelist())
        root = Relations(source, "_rels/.rels")
        if root.name in names:
            root.run()
        book_name = next(
            (t for t in root.targets.values() if t.endswith("workbook.xml")), "xl/workbook.xml"
        )
        workbook = Book(source, book_name)
        workbook.run()
        base = posixpath.dirname(book_name)
        relations = Relations(
            source, posixpath.join(base, "_rels", posixpath.basename(book_name) + ".rels")
        )
        relations.run()
        strings = Strings(source, posixpath.join(base, "sharedStrings.xml"))
        if strings.name in names:
            strings.run()
        styles = Styles(source, posixpath.join(base, "styles.xml"))
        if styles.name in names:
            styles.run()
        if not workbook.sheets:
            raise WorkbookRefused(_("The workbook has no worksheet."))
        calendar = MAC_EPOCH if workbook.date1904 else WINDOWS_EPOCH
        converter = _Values(strings.strings, styles.styles, calendar)
        found: list[tuple[str, Table]] = []
        first = -1
        others: list[str] = []
        for index, (title, rid) in enumerate(workbook.sheets):
            path = relations.targets.get(rid)
            if path is None or path not in names:
                continue  # a chart sheet or a dangling reference: no cells to read
            sheet = _Sheet(
                source, path, title, converter.text, max_rows, max_columns,
                probe=bool(found) and not every,
            )  # fmt: skip
            sheet.run()
            if sheet.probe:
                if sheet.row:
                    others.append(title)
            elif sheet.table:
                found.append((title, sheet.table))
                first = index if first < 0 else first
        return found, others, first


def read(data: bytes, max_rows: int, max_columns: int) -> tuple[str, Table, list[str], int]:
    """The first worksheet with a value: its title, its rows (at most ``max_rows`` + 1), the
    titles of the later worksheets that hold a value, and the index of the one read (-1 and no
    rows when none has a value). ``WorkbookRefused`` for a budget broken, ``zipfile`` or
    ``KeyError`` errors for a file that is no workbook."""
    found, others, index = _sheets(data, max_rows, max_columns, every=False)
    if not found:
        return "", [], [], -1
    return found[0][0], found[0][1], others, index


def read_all(data: bytes, max_rows: int, max_columns: int) -> list[tuple[str, Table]]:
    """Every worksheet with a value, in the workbook's order: its title and its rows (at most
    ``max_rows`` + 1 each), within the same budgets as ``read`` (shared by all worksheets)."""
    return _sheets(data, max_rows, max_columns, every=True)[0]


class _Values:
    """A cell's text from its raw value, type and style, as openpyxl's values would show."""

    def __init__(self, strings: list[str | None], styles: list[str], calendar: Any) -> None:
        self.strings = strings
        self.styles = styles
        self.calendar = calendar

    def text(self, raw: str, kind: str | None, style: str | None, where: str) -> str:
        if kind == "s":
            index = int(raw) if raw.strip().isdigit() else -1
            if not 0 <= index < len(self.strings):
                return ""
            found = self.strings[index]
            if found is None:
                raise WorkbookRefused(
                    _(
                        "Cell %(cell)s holds more than %(max)s characters; Podium reads at most "
                        "that many in one cell."
                    )
                    % {"cell": where, "max": f"{MAX_CELL_CHARS:,}"}
                )
            return found
        if kind in ("inlineStr", "str", "e"):
            return raw
        if kind == "b":
            return str(raw.strip() in ("1", "true"))
        if kind == "d":
            return _cell_text(_iso(raw))
        if not raw.strip():
            return ""
        try:
            number: float | int = (
                float(raw) if any(c in raw for c in ".eE") or raw.strip() in ("inf", "nan")
                else int(raw)
            )  # fmt: skip
        except ValueError:
            return raw
        fmt = (
            self.styles[int(style)]
            if style and style.isdigit() and int(style) < len(self.styles)
            else ""
        )
        if fmt and is_date_format(fmt):
            try:
                return _cell_text(
                    from_excel(number, self.calendar, timedelta=is_timedelta_format(fmt))
                )
            except (ValueError, OverflowError):
                return raw
        return _cell_text(number)


def _iso(raw: str) -> Any:
    try:
        return dt.datetime.fromisoformat(raw.strip())
    except ValueError:
        return raw


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dt.time):
        return f"{value.hour}:{value.minute:02}:{value.second:02}"
    if isinstance(value, dt.timedelta):  # a duration cell ([h]:mm:ss)
        hours, rest = divmod(int(value.total_seconds()), 3600)
        return f"{hours}:{rest // 60:02}:{rest % 60:02}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
