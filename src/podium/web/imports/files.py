"""Reading an uploaded table (CSV or XLSX) into text cells, refusing what cannot be read.

Vocabulary:
- sheet: the header (the first non-empty row) and the rows under it, every cell as text, each
  row with its number in the file (the line of a CSV, the row of a worksheet), so a problem
  names the row a person sees in their spreadsheet program.
- extra cells: values beyond the header's last column; a row that has them is reported.
- encoding: CSV files are UTF-8 (with or without the byte-order mark). A file that is not is
  read as Windows-1250 (Czech) or Windows-1251 (Russian) only where the bytes leave no doubt,
  and the preview says so; any other encoding is refused with its likely name.
- limits: at most ``MAX_BYTES`` and ``MAX_ROWS`` rows, so one upload cannot tie up a server.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from podium.web.services.base import Refused

MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 5000
MAX_COLUMNS = 200

_ZIP = b"PK\x03\x04"
_OLE = b"\xd0\xcf\x11\xe0"  # the old binary .xls
_AMBIGUOUS = frozenset(b"\xe0\xe8\xec\xf2\xf9\xc0\xc8\xcc\xd2\xd9")
_WORD = re.compile(rb"[A-Za-z\x80-\xff]+")
_VALUE = re.compile(r"^(\d+([.,]\d+)?|\d{1,4}[-./]\d{1,2}[-./]\d{1,4}|[^@\s]+@[^@\s]+\.\w+)$")
CZECH = set("áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽäľĺôŕÄĽĹÔŔąćęłńśźżĄĆĘŁŃŚŹŻöüőűÖÜŐŰ")
WESTERN = set("àèéìòùáíóúâêîôûäëïöüçñßÀÈÉÌÒÙÁÍÓÚÂÊÎÔÛÄËÏÖÜÇÑ€«»“”’–—°")


class FileRefused(Refused):
    """A file that cannot be read at all (nothing of it is kept)."""

    def __init__(self, message: str):
        super().__init__(message, field="file")


@dataclass(frozen=True)
class Sheet:
    name: str
    header: tuple[str, ...]
    rows: tuple[tuple[int, tuple[str, ...]], ...]
    note: str = ""  # said in the preview: how the file was read, when that is not obvious
    extra: dict[int, int] = field(default_factory=dict)  # row number → cells beyond the header

    def data(self) -> dict[str, Any]:
        """Plain data to keep between the steps (in the session)."""
        return {
            "name": self.name,
            "header": list(self.header),
            "rows": [[n, list(cells)] for n, cells in self.rows],
            "note": self.note,
            "extra": {str(k): v for k, v in self.extra.items()},
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Sheet:
        return cls(
            name=data["name"],
            header=tuple(data["header"]),
            rows=tuple((int(n), tuple(cells)) for n, cells in data["rows"]),
            note=data.get("note", ""),
            extra={int(k): int(v) for k, v in data.get("extra", {}).items()},
        )


def column_letter(index: int) -> str:
    """The spreadsheet's name of a column: 0 → A, 26 → AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def read_upload(name: str, data: bytes) -> Sheet:
    """The sheet of an uploaded file (CSV or XLSX), or a refusal saying why it cannot be read."""
    if len(data) > MAX_BYTES:
        raise FileRefused(
            _("The file is %(size).1f MB; Podium reads files of up to %(max)d MB. Split it.")
            % {"size": len(data) / 1024 / 1024, "max": MAX_BYTES // 1024 // 1024}
        )
    if not data.strip():
        raise FileRefused(_("The file is empty."))
    lowered = name.lower()
    if data.startswith(_OLE) or lowered.endswith(".xls"):
        raise FileRefused(
            _("This is an old Excel workbook (.xls); save it as .xlsx or as CSV UTF-8.")
        )
    if data.startswith(_ZIP) or lowered.endswith((".xlsx", ".xlsm")):
        table, note = _workbook(data)
    else:
        text, note = decode(data)
        table = _csv(text)
    return _sheet(name, table, note)


# --- text ------------------------------------------------------------------------------------


def _share(chars: str, allowed: set[str]) -> float:
    return sum(c in allowed for c in chars) / len(chars) if chars else 0.0


def _cyrillic(chars: str) -> float:
    return sum("\u0400" <= c <= "\u04ff" for c in chars) / len(chars) if chars else 0.0


def _non_ascii(text: str) -> str:
    return "".join(c for c in text if ord(c) > 127 and c.isprintable())


def _accents_at_word_end(data: bytes) -> float:
    """Of the bytes that are à è ì ò ù in Windows-1252 but ŕ č ě ň ů in Windows-1250, the share
    that end a word: Italian puts its accents last (città, perché), Czech anywhere (Černý)."""
    positions = [i for i, b in enumerate(data) if b in _AMBIGUOUS]
    if not positions:
        return 0.0
    ends = sum(
        i + 1 == len(data) or not (data[i + 1] > 127 or chr(data[i + 1]).isalpha())
        for i in positions
    )
    return ends / len(positions)


def decode(data: bytes) -> tuple[str, str]:
    """The text of a CSV file and a note on how it was read ("" for UTF-8)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Excel's "Unicode text" is UTF-16 with a byte-order mark: nothing to guess.
        return data.decode("utf-16"), _("The file is UTF-16 text; Podium read it as such.")
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        failed_at = exc.start + 1  # counted from 1, as people count
    # In Cyrillic text every letter of a word is a high byte; in Czech text the high bytes
    # (č, ř, ž…) sit inside words of plain letters.
    words = [w for w in _WORD.findall(data) if any(b > 127 for b in w)]
    whole = sum(all(b > 127 for b in w) for w in words)
    guess = ""
    if words and whole / len(words) >= 0.8:
        text = data.decode("cp1251", errors="replace")
        if _cyrillic(_non_ascii(text)) >= 0.95:
            note = _(
                "The file is not UTF-8: it reads as Windows-1251 (Cyrillic), so Podium read it "
                "that way. Check the names below; to be sure, save it as CSV UTF-8."
            )
            return text, note
        guess = "Windows-1251"
    elif _accents_at_word_end(data) < 0.75:
        text = data.decode("cp1250", errors="replace")
        if _share(_non_ascii(text), CZECH) >= 0.95:
            note = _(
                "The file is not UTF-8: it reads as Windows-1250 (Central European), so Podium "
                "read it that way. Check the names below; to be sure, save it as CSV UTF-8."
            )
            return text, note
    if not guess:
        western = data.decode("cp1252", errors="replace")
        if _share(_non_ascii(western), WESTERN) >= 0.9:
            guess = _("Windows-1252 (Western European)")
    if guess:
        text = _(
            "The file is not UTF-8 text (byte %(position)d); it seems to be %(encoding)s. Save "
            "it as CSV UTF-8 and upload it again."
        ) % {"position": failed_at, "encoding": guess}
    else:
        text = _(
            "The file is not UTF-8 text (byte %(position)d), and its encoding is not clear. Save "
            "it as CSV UTF-8 and upload it again."
        ) % {"position": failed_at}
    raise FileRefused(text)


def _csv(text: str) -> list[tuple[int, list[str]]]:
    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    counts = {d: first.count(d) for d in (",", ";", "\t")}
    delimiter = max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    table: list[tuple[int, list[str]]] = []
    try:
        for record in reader:
            table.append((reader.line_num, record))
            if len(table) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        raise FileRefused(
            _("Row %(row)d cannot be read as CSV (%(problem)s).")
            % {"row": reader.line_num, "problem": exc}
        ) from None
    return table


# --- workbooks -------------------------------------------------------------------------------


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


def _rows(sheet: Any) -> list[tuple[int, list[str]]]:
    table: list[tuple[int, list[str]]] = []
    for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
        table.append((number, [_cell_text(v) for v in values[:MAX_COLUMNS]]))
        if len(table) > MAX_ROWS + 1:
            break
    return table


def _has_data(table: list[tuple[int, list[str]]]) -> bool:
    return any(c.strip() for _number, cells in table for c in cells)


def _any_value(sheet: Any) -> bool:
    return any(
        _cell_text(v).strip() for values in sheet.iter_rows(values_only=True) for v in values
    )


def _workbook(data: bytes) -> tuple[list[tuple[int, list[str]]], str]:
    """The rows of the workbook's first worksheet with data, and a note naming it when the
    workbook has others (see ``Sheet.note``)."""
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError, EOFError) as exc:
        raise FileRefused(
            _("This file is not an Excel workbook (.xlsx) that Podium can read (%(problem)s).")
            % {"problem": type(exc).__name__}
        ) from None
    except Exception as exc:  # openpyxl raises its own errors for many kinds of damage
        raise FileRefused(
            _("This file is not an Excel workbook (.xlsx) that Podium can read (%(problem)s).")
            % {"problem": type(exc).__name__}
        ) from None
    try:
        if not book.worksheets:
            raise FileRefused(_("The workbook has no worksheet."))
        sheets = list(book.worksheets)
        read = ((i, sheet, _rows(sheet)) for i, sheet in enumerate(sheets))
        found = next((item for item in read if _has_data(item[2])), None)
        if found is None:
            return [], ""  # refused as an empty file, like a CSV without rows
        index, sheet, table = found
        title = sheet.title
        others = [other.title for other in sheets[index + 1 :] if _any_value(other)]
        if others:
            note = _(
                "Read the worksheet “%(sheet)s”; the workbook's other worksheets with data "
                "(%(others)s) were not read."
            ) % {"sheet": title, "others": ", ".join(f"“{o}”" for o in others)}
        elif index:
            note = _("Read the worksheet “%(sheet)s”, the first one with data.") % {"sheet": title}
        else:
            note = ""
        return table, note
    except FileRefused:
        raise
    except Exception as exc:
        raise FileRefused(
            _("This file is not an Excel workbook (.xlsx) that Podium can read (%(problem)s).")
            % {"problem": type(exc).__name__}
        ) from None
    finally:
        book.close()


# --- the sheet -------------------------------------------------------------------------------


def _sheet(name: str, table: list[tuple[int, list[str]]], note: str) -> Sheet:
    filled = [
        (n, [c.strip() for c in cells]) for n, cells in table if any(c.strip() for c in cells)
    ]
    if not filled:
        raise FileRefused(_("The file is empty."))
    header_number, header = filled[0]
    while header and not header[-1]:
        header.pop()
    looks_like_data = [c for c in header if _VALUE.match(c)]
    if looks_like_data:
        raise FileRefused(
            _(
                "The first row (row %(row)d) holds values such as “%(value)s”, not column "
                "names: the file needs a header row that names its columns."
            )
            % {"row": header_number, "value": looks_like_data[0]}
        )
    if len(header) > MAX_COLUMNS:
        raise FileRefused(_("The file has more than %(max)d columns.") % {"max": MAX_COLUMNS})
    rows = filled[1:]
    if not rows:
        raise FileRefused(_("The file has a header but no rows."))
    if len(rows) > MAX_ROWS:
        raise FileRefused(
            _("The file has more than %(max)d rows; split it into smaller files.")
            % {"max": MAX_ROWS}
        )
    width = len(header)
    extra = {n: sum(1 for c in cells[width:] if c) for n, cells in rows}
    cut = tuple((n, tuple((cells + [""] * width)[:width])) for n, cells in rows)
    return Sheet(
        name=name,
        header=tuple(header),
        rows=cut,
        note=note,
        extra={n: k for n, k in extra.items() if k},
    )
