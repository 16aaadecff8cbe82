"""Reading an uploaded table (CSV or XLSX) into text cells, refusing what cannot be read.

Vocabulary:
- sheet: the header (the first non-empty row) and the rows under it, every cell as text, each
  row with its number in the file (the line of a CSV, the row of a worksheet), so a problem
  names the row a person sees in their spreadsheet program.
- extra cells: values beyond the header's last column; a row that has them is reported.
- encoding: CSV files are UTF-8 (with or without the byte-order mark) or UTF-16. A file that
  is not is read as Windows-1250 (Czech) or Windows-1251 (Russian) only where the bytes leave
  no doubt, and the preview says so; any other encoding is refused with its likely name.
- limits: at most ``MAX_BYTES``, ``MAX_ROWS`` rows, ``MAX_COLUMNS`` columns read and
  ``MAX_CELL_CHARS`` characters in a cell, so one upload cannot tie up a server; a workbook
  is read within the budgets of ``podium.web.readers.workbook_parts``.
- rating table: the rating site's ChGK table (its workbook, every worksheet, or its CSV
  export), recognized by its header ``Team ID, Название, Город, Тур, 1 … n`` when the caller
  asks (``rating=True``, the results import) and read as the sheet ``id`` (blank: the team is
  found by its name), ``name``, ``mask``, with the notes on its cells per row
  (``podium.web.readers.ratingsheet``).
- UTF-16 without a byte-order mark is recognized by its NUL bytes (see ``utf16_text``); a file
  with control bytes (NUL among them) that is not UTF-16 is binary and refused as such; a
  stray one is left for the row checks to name.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.web.kernel.refusals import Refused
from podium.web.readers import ratingsheet, workbook
from podium.web.readers.workbook import column_letter
from podium.web.readers.workbook_parts import MAX_CELL_CHARS, WorkbookRefused

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
    cell_notes: dict[int, list[str]] = field(default_factory=dict)  # row number → its notes
    by_name: bool = False  # rows name their teams without entry numbers (a rating table)
    table_notes: tuple[str, ...] = ()  # a rating table's rows that are no team
    # A rating table's stray cells: {"row", "position" (in the mask), "cell", "value",
    # "reading" (the mark Podium would read), "message"}; the organizer decides each.
    stray: tuple[dict[str, Any], ...] = ()

    def data(self) -> dict[str, Any]:
        """Plain data to keep between the steps (in the session)."""
        return {
            "name": self.name,
            "header": list(self.header),
            "rows": [[n, list(cells)] for n, cells in self.rows],
            "note": self.note,
            "extra": {str(k): v for k, v in self.extra.items()},
            "cell_notes": {str(k): v for k, v in self.cell_notes.items()},
            "by_name": self.by_name,
            "table_notes": list(self.table_notes),
            "stray": [dict(s) for s in self.stray],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Sheet:
        return cls(
            name=data["name"],
            header=tuple(data["header"]),
            rows=tuple((int(n), tuple(cells)) for n, cells in data["rows"]),
            note=data.get("note", ""),
            extra={int(k): int(v) for k, v in data.get("extra", {}).items()},
            cell_notes={int(k): list(v) for k, v in data.get("cell_notes", {}).items()},
            by_name=bool(data.get("by_name")),
            table_notes=tuple(data.get("table_notes", ())),
            stray=tuple(dict(s) for s in data.get("stray", ())),
        )


def too_large(size: int) -> str:
    return _("The file is %(size).1f MB; Podium reads files of up to %(max)d MB. Split it.") % {
        "size": size / 1024 / 1024,
        "max": MAX_BYTES // 1024 // 1024,
    }


def read_upload(name: str, data: bytes, *, rating: bool = False) -> Sheet:
    """The sheet of an uploaded file (CSV or XLSX), or a refusal saying why it cannot be read;
    with ``rating``, the rating site's ChGK table is recognized (see the vocabulary)."""
    if len(data) > MAX_BYTES:
        raise FileRefused(too_large(len(data)))
    if not data.strip():
        raise FileRefused(_("The file is empty."))
    lowered = name.lower()
    if data.startswith(_OLE) or lowered.endswith(".xls"):
        raise FileRefused(
            _("This is an old Excel workbook (.xls); save it as .xlsx or as CSV UTF-8.")
        )
    if data.startswith(_ZIP) or lowered.endswith((".xlsx", ".xlsm")):
        table, note = _workbook(data)
        if rating and ratingsheet.is_rating_table(table):
            return _rating(name, lambda: ratingsheet.read_workbook(data), "xlsx")
    else:
        text, note = decode(data)
        table = _csv(text)
        if rating and ratingsheet.is_rating_table(table):
            return _rating(name, lambda: [("", table)], "csv")
    return _sheet(name, table, note)


def _rating(
    name: str, tables: Callable[[], list[tuple[str, list[tuple[int, list[str]]]]]], address: str
) -> Sheet:
    """The rating site's table as a sheet: one row per team, found by its name."""
    try:
        found = ratingsheet.read_tables(tables(), address)
    except ratingsheet.RatingSheetRefused as refused:
        raise FileRefused(refused.message) from None
    note = ngettext(
        "Read as the rating site's ChGK table: %(teams)d teams, %(tours)d tour, %(questions)d "
        "questions; teams are found by their names.",
        "Read as the rating site's ChGK table: %(teams)d teams, %(tours)d tours, %(questions)d "
        "questions; teams are found by their names.",
        len(found.tours),
    ) % {"teams": len(found.teams), "tours": len(found.tours), "questions": found.questions}
    notes: dict[int, list[str]] = {}
    for team in found.teams:  # a team first seen on a later worksheet may share a row number
        if team.notes:
            notes.setdefault(team.line, []).extend(team.notes)
    return Sheet(
        name=name,
        header=("id", "name", "mask"),
        rows=tuple((t.line, ("", t.name, t.mask)) for t in found.teams),
        note=note,
        cell_notes=notes,
        by_name=True,
        table_notes=found.notes,
        stray=tuple(_stray(s) for s in found.stray),
    )


def _stray(cell: ratingsheet.Stray) -> dict[str, Any]:
    return {
        "row": cell.line,
        "position": cell.position,
        "cell": cell.where,
        "value": cell.value,
        "reading": cell.reading,
        "message": cell.message(),
    }


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


def utf16_text(data: bytes) -> str | None:
    """The text of UTF-16 without a byte-order mark, or None when ``data`` is not that.

    A table's delimiters, digits and line ends are ASCII: in UTF-16 each is one ASCII byte and
    one NUL, so the right byte order reads them as ASCII characters, the wrong one as CJK.
    """
    best: tuple[float, str] | None = None
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        sample = text[:4096]
        if "\x00" in sample or not sample:
            continue
        ascii_share = sum(c < "\x80" for c in sample) / len(sample)
        control = sum(not c.isprintable() and c not in "\t\r\n" for c in sample)
        table_like = "\n" in text or "," in text or ";" in text
        fits = ascii_share >= 0.1 and control <= len(sample) // 100 and table_like
        if fits and (best is None or ascii_share > best[0]):
            best = (ascii_share, text)
    return best[1] if best else None


def _binary(data: bytes) -> bool:
    """More than 1 % of control bytes (NUL among them) in the first 4 KB: no table's text. A
    stray one is forgiven, so the row and column holding it can be named."""
    sample = data[:4096]
    control = sum(b < 32 and b not in b"\t\r\n\x0c" for b in sample)
    return control > max(1, len(sample) // 100)


def decode(data: bytes) -> tuple[str, str]:
    """The text of a CSV file and a note on how it was read ("" for UTF-8)."""
    data = data.removesuffix(b"\x1a")  # the end-of-file mark of old DOS editors: not a value
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Excel's "Unicode text" is UTF-16 with a byte-order mark: nothing to guess.
        try:
            return data.decode("utf-16"), _("The file is UTF-16 text; Podium read it as such.")
        except UnicodeDecodeError as exc:
            raise FileRefused(
                _("The file starts as UTF-16 text but is damaged at byte %(position)d.")
                % {"position": exc.start + 2}
            ) from None
    if b"\x00" in data[:4096]:
        # Checked before UTF-8: ASCII in UTF-16 is valid UTF-8 (with NULs), and Cyrillic or
        # Czech letters in UTF-16 read as one-byte Windows code pages.
        utf16 = utf16_text(data)
        if utf16 is not None:
            note = _("The file is UTF-16 text without a byte-order mark; Podium read it as such.")
            return utf16, note
    if _binary(data):
        raise FileRefused(
            _(
                "This is not a text table (CSV) or an Excel workbook: the file holds binary "
                "data. Save it as CSV UTF-8 or .xlsx."
            )
        )
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
            long = next((i for i, cell in enumerate(record) if len(cell) > MAX_CELL_CHARS), None)
            if long is not None:
                raise FileRefused(
                    _(
                        "Row %(row)d, column %(column)s holds more than %(max)s characters; "
                        "Podium reads at most that many in one cell."
                    )
                    % {
                        "row": reader.line_num,
                        "column": column_letter(long),
                        "max": f"{MAX_CELL_CHARS:,}",
                    }
                )
            if len(table) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):  # csv's own cap, 131,072 characters
            raise FileRefused(
                _(
                    "Row %(row)d holds a cell of more than %(max)s characters; Podium reads at "
                    "most that many in one cell."
                )
                % {"row": reader.line_num, "max": f"{MAX_CELL_CHARS:,}"}
            ) from None
        raise FileRefused(
            _("Row %(row)d cannot be read as CSV (%(problem)s).")
            % {"row": reader.line_num, "problem": exc}
        ) from None
    return table


# --- workbooks -------------------------------------------------------------------------------


def _workbook(data: bytes) -> tuple[list[tuple[int, list[str]]], str]:
    """The rows of the workbook's first worksheet with data, and a note naming it when the
    workbook has others (see ``Sheet.note``). Read by ``podium.web.readers.workbook`` within
    the budgets of ``podium.web.readers.workbook_parts``: openpyxl's reader fills every cell
    of a worksheet's declared dimension and builds a whole row in memory, so a 2 KB file
    could hold a server for hours."""
    try:
        title, table, others, index = workbook.read(data, MAX_ROWS + 1, MAX_COLUMNS)
    except WorkbookRefused as refused:
        raise FileRefused(refused.message) from None
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        KeyError,
        ValueError,
        OSError,
        EOFError,
    ) as exc:
        raise FileRefused(
            _("This file is not an Excel workbook (.xlsx) that Podium can read (%(problem)s).")
            % {"problem": type(exc).__name__}
        ) from None
    if index < 0:
        return [], ""  # refused as an empty file, like a CSV without rows
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
