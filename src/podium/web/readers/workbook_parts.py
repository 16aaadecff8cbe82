"""The parts of an XLSX workbook's zip, streamed through expat within the workbook's budgets:
the zip's directory, the relations, the workbook, its shared strings and its styles (the
worksheets are read by ``podium.web.readers.workbook``).

Vocabulary:
- part: one file inside the workbook's zip (``xl/workbook.xml``, a worksheet, the shared
  strings, the styles). Each is parsed as a stream by expat, with no document type allowed
  (so no entities to expand), and a refusal or an early stop ends the parse where it is.
- zip budget: checked from the zip's directory before any part is inflated: at most
  ``MAX_PARTS`` parts, ``MAX_UNZIPPED`` bytes inflated in all, and no part that inflates more
  than ``MAX_RATIO`` times (a zip bomb). Python's zip reader never inflates a part past the
  size its directory declares, so the declared sizes hold.
- cell budget: at most ``MAX_CELLS`` cells (written ones, empty or not) and ``MAX_ELEMENTS``
  XML elements in the whole workbook (so that many parts cannot add up),
  ``MAX_CELL_CHARS`` characters in one cell, and ``MAX_TEXT`` characters of shared strings.
- source: the open zip and what is left of its budgets, shared by every part read from it.
"""

from __future__ import annotations

import posixpath
import zipfile
from typing import Any
from xml.parsers import expat

from django.utils.translation import gettext as _
from openpyxl.styles.numbers import BUILTIN_FORMATS

MAX_PARTS = 1000
MAX_UNZIPPED = 40 * 1024 * 1024
MAX_RATIO = 200  # a real worksheet inflates 5–30 times; a zip bomb a thousand
# 5,000 rows of 40 columns: a cell and its value are 2 elements, a shared text 2 more; expat
# with these handlers reads one to two million elements a second, so the budget costs < 1 s.
MAX_CELLS = 200_000
MAX_ELEMENTS = 800_000
MAX_CELL_CHARS = 10_000
MAX_TEXT = 10_000_000
CHUNK = 64 * 1024


class WorkbookRefused(ValueError):
    """The workbook breaks a budget or cannot be read; ``message`` says which, for people."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class Stop(Exception):
    """Ends a parse early: enough was read."""


def _local(name: str) -> str:
    return name.rpartition(":")[2]


class Source:
    """The open zip and what is left of the workbook's budgets, shared by all its parts."""

    def __init__(self, book: zipfile.ZipFile) -> None:
        self.zip = book
        self.elements_left = MAX_ELEMENTS
        self.cells_left = MAX_CELLS


class Part:
    """Streams one part through expat, calling ``start``/``end`` with local names and
    collecting character data only while ``collecting`` (bounded by ``MAX_CELL_CHARS``)."""

    def __init__(self, source: Source, name: str) -> None:
        self.source = source
        self.name = name
        self.collecting = False
        self.text: list[str] = []
        self.chars = 0
        self.overflow = False

    def start(self, name: str, attrs: dict[str, str]) -> None: ...

    def end(self, name: str) -> None: ...

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self.source.elements_left -= 1
        if self.source.elements_left < 0:
            raise WorkbookRefused(
                _("The workbook has more than %(max)s XML elements (in %(part)s).")
                % {"part": self.name, "max": f"{MAX_ELEMENTS:,}"}
            )
        self.start(_local(name) if ":" in name else name, attrs)

    def _end(self, name: str) -> None:
        self.end(_local(name) if ":" in name else name)

    def _data(self, data: str) -> None:
        if self.collecting and not self.overflow:
            self.chars += len(data)
            if self.chars > MAX_CELL_CHARS:
                self.overflow = True  # the cell that gets this text is refused, by name
            else:
                self.text.append(data)

    def _doctype(self, *args: Any) -> None:
        raise WorkbookRefused(
            _("The workbook's part %(part)s declares a document type; workbooks have none.")
            % {"part": self.name}
        )

    def take_text(self) -> tuple[str, bool]:
        text, overflow = "".join(self.text), self.overflow
        self.text, self.chars, self.overflow = [], 0, False
        return text, overflow

    def run(self) -> None:
        parser = expat.ParserCreate()
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._data
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._doctype
        parser.buffer_text = True
        try:
            with self.source.zip.open(self.name) as stream:
                while chunk := stream.read(CHUNK):
                    parser.Parse(chunk, False)
                parser.Parse(b"", True)
        except Stop:
            pass
        except expat.ExpatError as exc:
            raise WorkbookRefused(
                _("The workbook's part %(part)s is damaged (%(problem)s).")
                % {"part": self.name, "problem": expat.ErrorString(exc.code)}
            ) from None


def _attr(attrs: dict[str, str], local: str) -> str | None:
    for key, value in attrs.items():
        if _local(key) == local:
            return value
    return None


class Relations(Part):
    def __init__(self, source: Source, name: str) -> None:
        super().__init__(source, name)
        self.targets: dict[str, str] = {}

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "Relationship" and "Id" in attrs and "Target" in attrs:
            base = posixpath.dirname(posixpath.dirname(self.name))  # xl/_rels/x.rels → xl
            target = attrs["Target"]
            path = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            self.targets[attrs["Id"]] = posixpath.normpath(path)


class Book(Part):
    def __init__(self, source: Source, name: str) -> None:
        super().__init__(source, name)
        self.sheets: list[tuple[str, str]] = []  # (title, relation id)
        self.date1904 = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "sheet":
            self.sheets.append((attrs.get("name", ""), _attr(attrs, "id") or ""))
        elif name == "workbookPr":
            self.date1904 = attrs.get("date1904", "0").lower() in ("1", "true")


class Strings(Part):
    """The shared strings; one over ``MAX_CELL_CHARS`` is kept as None (refused when used)."""

    def __init__(self, source: Source, name: str) -> None:
        super().__init__(source, name)
        self.strings: list[str | None] = []
        self.total = 0
        self.phonetic = 0

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "rPh":
            self.phonetic += 1  # a reading aid of East Asian text, not the cell's text
        elif name == "t" and not self.phonetic:
            self.collecting = True
        if len(self.strings) >= MAX_CELLS:
            raise WorkbookRefused(
                _("The workbook holds more than %(max)s different texts.")
                % {"max": f"{MAX_CELLS:,}"}
            )

    def end(self, name: str) -> None:
        if name == "t":
            self.collecting = False
        elif name == "rPh":
            self.phonetic -= 1
        elif name == "si":
            text, overflow = self.take_text()
            self.total += len(text)
            if self.total > MAX_TEXT:
                raise WorkbookRefused(
                    _("The workbook holds more than %(max)s characters of text.")
                    % {"max": f"{MAX_TEXT:,}"}
                )
            self.strings.append(None if overflow else text)


class Styles(Part):
    """Which cell styles show a date (and which a duration), by their number formats."""

    def __init__(self, source: Source, name: str) -> None:
        super().__init__(source, name)
        self.formats: dict[int, str] = dict(BUILTIN_FORMATS)
        self.styles: list[str] = []
        self.in_cell_xfs = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if name == "numFmt" and attrs.get("numFmtId", "").isdigit():
            self.formats[int(attrs["numFmtId"])] = attrs.get("formatCode", "")
        elif name == "cellXfs":
            self.in_cell_xfs = True
        elif name == "xf" and self.in_cell_xfs:
            number = attrs.get("numFmtId", "0")
            self.styles.append(self.formats.get(int(number), "") if number.isdigit() else "")

    def end(self, name: str) -> None:
        if name == "cellXfs":
            self.in_cell_xfs = False


def check_zip(book: zipfile.ZipFile) -> None:
    parts = book.infolist()
    if len(parts) > MAX_PARTS:
        raise WorkbookRefused(
            _("The workbook holds %(count)d parts; a workbook Podium reads has fewer than %(max)d.")
            % {"count": len(parts), "max": MAX_PARTS}
        )
    inflated = sum(p.file_size for p in parts)
    if inflated > MAX_UNZIPPED:
        raise WorkbookRefused(
            _(
                "The workbook unpacks to %(size)d MB; Podium reads workbooks that unpack to at "
                "most %(max)d MB."
            )
            % {"size": inflated // 1024 // 1024, "max": MAX_UNZIPPED // 1024 // 1024}
        )
    for part in parts:
        if part.file_size > 1024 * 1024 and part.file_size > MAX_RATIO * max(part.compress_size, 1):
            raise WorkbookRefused(
                _(
                    "The workbook's part %(part)s unpacks %(ratio)d times its packed size (a zip "
                    "bomb?); Podium refuses it unread."
                )
                % {"part": part.filename, "ratio": part.file_size // max(part.compress_size, 1)}
            )
