"""The rating site's tournament table (its XLSX workbook or its CSV export), read into masks.

Vocabulary:
- block: a header row ``Team ID, Название, Город, Тур, 1 … n`` and the team rows under it, up
  to the next header. The site writes either every tour as a block on one worksheet, or one
  worksheet per tour; both are read the same way, worksheet by worksheet, block by block.
- tour: the ``Тур`` cell of a team row (the block's order when there is no such column); a
  tour's questions are its block's numbered columns, in their numbers' order.
- mark cell: one question of one team: ``1`` taken, ``0`` or blank not taken, ``X`` withdrawn,
  ``?`` disputed.
- written-in answer: a mark cell holding a text of at least ``MIN_ANSWER`` characters with a
  letter in it (``А. Кристи``, a link): the venue wrote the team's answer instead of a mark,
  so the question is disputed (``?``) and a note names the cell and the answer.
- ``с`` (Cyrillic): the rating site's own mark for a disputed answer, read as ``?`` with a note.
- stray cell: any other value in a mark cell (``BH``, a Cyrillic ``о`` for 0, ``2``, a
  formula's error such as ``#REF!``): nobody can tell which mark was meant. Every one is
  listed (``RatingTable.stray``) by its address (``Sheet1!F12`` in a workbook, ``row 12,
  column F`` in a CSV) with what Podium would read it as (``reading``: a look-alike of a mark
  as that mark, anything else as disputed); its team's mask holds that reading until the
  caller decides (the web preview asks the organizer, the command line refuses them all or
  reads them as disputed).
- note row: a row of a worksheet that is no team: above the first header (a title, a note
  line), or in or under a block with neither a name nor a mark (a legend ``1 - Зачтен АЖ``,
  a tour's title), or with a name but neither a rating number, a tour nor a mark. It is kept
  as a note of the table (``RatingTable.notes``), never taken for a team.
- unrated team: a team whose rating number is ``-1`` or blank: a team without a rating
  number, found by its name.
- unscored team: a team with no row in a tour (or only blank marks there): its marks in that
  tour are ``0`` and a note says so; it stays in the file's order, where the site put it.
- rating team: one team of the file with its mask over all tours (tour by tour), the row where
  it first appears (``line``) and the notes of its cells.
"""

from __future__ import annotations

import itertools
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from podium.web.readers import workbook
from podium.web.readers.workbook import column_letter
from podium.web.readers.workbook_parts import WorkbookRefused

MIN_ANSWER = 3  # "с", "о", "BH": a stray letter or two; "США", "пес": an answer
MAX_ROWS = 5000
MAX_COLUMNS = 200
MARKS = {"1": "1", "0": "0", "": "0", "X": "X", "?": "?"}
DISPUTED = frozenset(("с", "С"))  # Cyrillic es: the rating site's mark for a disputed answer
# A stray cell that looks like a mark (a Cyrillic о typed for 0) would be read as that mark.
LOOKALIKES = {"о": "0", "О": "0", "o": "0", "O": "0", "х": "X", "Х": "X", "l": "1", "I": "1"}
UNRATED = "-1"  # the rating site's number of a team it does not rate
HEADER_ROWS = 20  # how far down a worksheet its first header may stand
# A formula's error shown in a cell: letters, but no answer anybody wrote.
ERRORS = frozenset(
    ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#SPILL!", "#CALC!")
)
_ID = ("team id", "id")
_NAME = "название"
_TOUR = "тур"

Table = Sequence[tuple[int, Sequence[str]]]


class RatingSheetRefused(ValueError):
    """The table is the rating site's but cannot be read; ``message`` names the cell."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass
class RatingTeam:
    line: int  # the row (of its first worksheet) where the team first appears
    rating_id: str
    name: str
    tours: dict[str, str] = field(default_factory=dict)  # tour → its marks
    notes: list[str] = field(default_factory=list)
    mask: str = ""


@dataclass(frozen=True)
class Stray:
    """A stray cell (see the vocabulary): where, what it holds, the team's row (``line``), its
    place in the team's mask and the mark Podium would read it as."""

    where: str
    value: str
    line: int
    position: int
    reading: str

    def message(self) -> str:
        return str(
            _("%(cell)s: “%(value)s” is not a mark; Podium would read it as %(reading)s")
            % {"cell": self.where, "value": self.value, "reading": mark_words(self.reading)}
        )


def mark_words(mark: str) -> str:
    """A mark with its meaning: ``0 (not taken)``."""
    words = {
        "1": _("1 (taken)"),
        "0": _("0 (not taken)"),
        "X": _("X (withdrawn)"),
        "?": _("? (disputed)"),
    }
    return str(words[mark])


@dataclass(frozen=True)
class RatingTable:
    teams: tuple[RatingTeam, ...]
    tours: tuple[tuple[str, int], ...]  # each tour and its number of questions, in order
    notes: tuple[str, ...] = ()  # the note rows, each with its address
    stray: tuple[Stray, ...] = ()

    @property
    def questions(self) -> int:
        return sum(n for _tour, n in self.tours)


@dataclass
class _Block:
    id: int | None
    name: int
    tour: int | None
    questions: list[tuple[int, int]]  # (question number, column), by number
    order: str  # the tour when a row has no Тур cell


def _header(cells: Sequence[str], order: str) -> _Block | None:
    """The block a header row opens, or None when the row is no such header."""
    lowered = [c.strip().lstrip("\ufeff").casefold() for c in cells]
    if _NAME not in lowered:
        return None
    numbered = [(int(c), i) for i, c in enumerate(lowered) if c.isdigit()]
    if not numbered:
        return None
    return _Block(
        id=next((lowered.index(k) for k in _ID if k in lowered), None),
        name=lowered.index(_NAME),
        tour=lowered.index(_TOUR) if _TOUR in lowered else None,
        questions=sorted(numbered),
        order=order,
    )


def is_rating_table(table: Table) -> bool:
    """Whether one of the first ``HEADER_ROWS`` rows with a value is a block's header (the
    site's layout, perhaps under a title or a note line)."""
    filled = (cells for _n, cells in table if any(c.strip() for c in cells))
    return any(
        _header(cells, "1") is not None
        for _i, cells in zip(range(HEADER_ROWS), filled, strict=False)
    )


def _cell(cells: Sequence[str], index: int | None) -> str:
    return cells[index].strip() if index is not None and index < len(cells) else ""


class _Reader:
    def __init__(self, address: str) -> None:
        self.address = address  # "%(sheet)s!%(cell)s" or "row %(row)d, column %(column)s"
        self.teams: dict[str, RatingTeam] = {}
        self.tours: dict[str, int] = {}
        self.notes: list[str] = []
        # (team, tour, index in the tour, address, text, reading): placed once tours are known
        self.stray: list[tuple[RatingTeam, str, int, str, str, str]] = []

    def where(self, sheet: str, row: int, column: int) -> str:
        letter = column_letter(column)
        if self.address == "csv":
            return str(_("row %(row)d, column %(column)s") % {"row": row, "column": letter})
        # As a spreadsheet program writes it: a title with a space or a sign in quotes.
        title = sheet if sheet.isalnum() else "'{}'".format(sheet.replace("'", "''"))
        return f"{title}!{letter}{row}"

    def refuse(self, where: str, text: str) -> RatingSheetRefused:
        return RatingSheetRefused(f"{where}: {text}")

    def sheet(self, title: str, table: Table) -> None:
        block: _Block | None = None
        before: list[tuple[int, Sequence[str]]] = []
        for row, cells in table:
            if not any(c.strip() for c in cells):
                continue
            opened = _header(cells, str(len(self.tours) + 1))
            if opened is not None:
                block = opened
            elif block is None:
                before.append((row, cells))
            elif self.is_note(cells, block):
                self.note(title, row, cells)
            else:
                self.team_row(title, row, cells, block)
            if block is not None and before:
                for seen, text in before:  # a title or a note line above the first header
                    self.note(title, seen, text)
                before = []
        if before:
            raise self.refuse(
                self.where(title, before[0][0], 0),
                _("a team row before any header row (Team ID, Название, Город, Тур, 1 … n)"),
            )

    @staticmethod
    def is_note(cells: Sequence[str], block: _Block) -> bool:
        """A row in a block that is no team (see the vocabulary)."""
        if any(_cell(cells, c) for _n, c in block.questions):
            return False
        if not _cell(cells, block.name):
            return True
        rating_id = _cell(cells, block.id)
        numbered = rating_id.isdigit() or rating_id == UNRATED
        return not numbered and not _cell(cells, block.tour)

    def note(self, title: str, row: int, cells: Sequence[str]) -> None:
        first = next(i for i, c in enumerate(cells) if c.strip())
        text = " ".join(c.strip() for c in cells if c.strip())[:120]
        self.notes.append(
            _("%(cell)s: “%(text)s” is no team: kept as a note")
            % {"cell": self.where(title, row, first), "text": text}
        )

    def team_row(self, title: str, row: int, cells: Sequence[str], block: _Block) -> None:
        name = _cell(cells, block.name)
        if not name:
            raise self.refuse(self.where(title, row, block.name), _("the team has no name"))
        rating_id = _cell(cells, block.id)
        if rating_id == UNRATED:
            rating_id = ""  # the site does not rate the team: found by its name
        if rating_id and not rating_id.isdigit():
            raise self.refuse(
                self.where(title, row, block.id or 0),
                _("“%(value)s” is not a team number of the rating site") % {"value": rating_id},
            )
        tour = _cell(cells, block.tour) or block.order
        known = self.tours.setdefault(tour, len(block.questions))
        if known != len(block.questions):
            raise self.refuse(
                self.where(title, row, block.tour or 0),
                _("tour %(tour)s has %(n)d questions here but %(known)d in an earlier block")
                % {"tour": tour, "n": len(block.questions), "known": known},
            )
        key = rating_id or name.casefold()
        team = self.teams.setdefault(key, RatingTeam(row, rating_id, name))
        if tour in team.tours:
            raise self.refuse(
                self.where(title, row, block.name),
                _("“%(name)s” has a second row for tour %(tour)s") % {"name": name, "tour": tour},
            )
        texts = [(self.where(title, row, c), _cell(cells, c)) for _n, c in block.questions]
        if not any(text for _where, text in texts):
            team.notes.append(self.unscored(name, tour))
        team.tours[tour] = "".join(
            self.mark(team, tour, i, where, text) for i, (where, text) in enumerate(texts)
        )

    @staticmethod
    def unscored(name: str, tour: str) -> str:
        return str(
            _(
                "“%(name)s” has no marks in tour %(tour)s: read as not taken; the team keeps "
                "its place in the list"
            )
            % {"name": name, "tour": tour}
        )

    def mark(self, team: RatingTeam, tour: str, index: int, where: str, text: str) -> str:
        mark = MARKS.get(text.upper() if text in ("x", "X") else text)
        if mark is not None:
            return mark
        if text in DISPUTED:
            team.notes.append(
                _(
                    "%(cell)s: “%(value)s” is the rating site's mark for a disputed answer; "
                    "read as disputed (?)"
                )
                % {"cell": where, "value": text}
            )
            return "?"
        answer = len(text) >= MIN_ANSWER and any(c.isalpha() for c in text)
        if answer and text.upper() not in ERRORS:
            team.notes.append(
                _("%(cell)s: the answer “%(answer)s” is written in; read as disputed (?)")
                % {"cell": where, "answer": text[:60]}
            )
            return "?"
        reading = LOOKALIKES.get(text, "?")
        self.stray.append((team, tour, index, where, text[:60], reading))
        return reading

    def result(self) -> RatingTable:
        if not self.teams:
            raise RatingSheetRefused(_("The rating site's table lists no team."))
        for team in self.teams.values():
            for tour, questions in self.tours.items():
                if tour not in team.tours:
                    team.notes.append(self.unscored(team.name, tour))
                    team.tours[tour] = "0" * questions
            team.mask = "".join(team.tours[tour] for tour in self.tours)
        starts = dict(
            zip(self.tours, itertools.accumulate([0, *self.tours.values()]), strict=False)
        )
        stray = (
            Stray(where, text, team.line, starts[tour] + index, reading)
            for team, tour, index, where, text, reading in self.stray
        )
        return RatingTable(
            tuple(self.teams.values()), tuple(self.tours.items()), tuple(self.notes), tuple(stray)
        )


def read_tables(tables: Sequence[tuple[str, Table]], address: str = "xlsx") -> RatingTable:
    """The teams of the rating site's table, worksheet by worksheet (``address`` ``"csv"``
    names cells by row and column); ``RatingSheetRefused`` naming the cell otherwise."""
    reader = _Reader(address)
    for title, table in tables:
        if len(table) > MAX_ROWS:  # the readers stop one row past the bound
            raise RatingSheetRefused(
                _("The table “%(sheet)s” has more than %(max)d rows; split it.")
                % {"sheet": title or _("CSV"), "max": MAX_ROWS}
            )
        reader.sheet(title, table)
    return reader.result()


def read_workbook(data: bytes) -> list[tuple[str, workbook.Table]]:
    """Every worksheet of a workbook, read by ``podium.web.readers.workbook`` within the
    budgets of ``podium.web.readers.workbook_parts``. ``RatingSheetRefused`` for a broken
    budget or a file that is no workbook."""
    try:
        sheets = workbook.read_all(data, MAX_ROWS, MAX_COLUMNS)
    except WorkbookRefused as refused:
        raise RatingSheetRefused(refused.message) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, ValueError, OSError, EOFError):
        raise RatingSheetRefused(
            _("This file is not an Excel workbook (.xlsx) that Podium can read.")
        ) from None
    return sheets
