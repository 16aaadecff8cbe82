"""Reading a results CSV: UTF-8, ``,`` or ``;`` detected, header names matter, order does not.

The rating site's ChGK table (its XLSX workbook, or its CSV export) is read too: each team
becomes a row ``id`` (its rating number), ``name`` and ``mask`` (see
``podium.web.readers.ratingsheet``), and the notes on its cells are handed back to be shown.
"""

from __future__ import annotations

import csv
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from podium.engine.errors import InputError, Problem, Problems
from podium.engine.inputs import RawRow

KNOWN = {
    "id", "name", "country", "group", "gender", "average", "birth_date", "qualified", "scored",
    "time", "missing", "pieces", "done", "questions", "mask", "tour", "round", "team1", "team2",
    "score1", "score2", "discipline", "division",
}  # fmt: skip


def _column(name: str) -> str:
    """Known column names match in any case; others (team names) keep theirs."""
    stripped = name.strip().lstrip("\ufeff").strip()
    lowered = stripped.casefold()
    if lowered in KNOWN or (lowered.startswith("g") and lowered[1:].isdigit()):
        return lowered
    return stripped


_VISIBLE = re.compile(r"\S")
_LINE_END = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")  # as str.splitlines ends a line


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, each with its ``\n``, as a text stream reads them: one at a time,
    so that a large file is not copied whole a second time."""
    start, find = 0, text.find
    while (end := find("\n", start)) >= 0:
        yield text[start : end + 1]
        start = end + 1
    if start < len(text):
        yield text[start:]


_ZIP = b"PK\x03\x04"
# A workbook is read within the budgets of podium.web.readers.workbook_parts; its file is never
# larger than what it unpacks to, so a larger one is refused unread.
MAX_WORKBOOK_BYTES = 40 * 1024 * 1024


def _plain_django() -> None:
    """The rating reader's messages go through Django's gettext, which needs settings: the
    command line has none, and speaks English."""
    from django.conf import settings

    if not settings.configured:
        settings.configure(USE_I18N=False)


Tables = list[tuple[str, list[tuple[int, list[str]]]]]  # worksheet titles and their rows


def _rating_rows(
    name: str, tables: Tables, address: str, notes: list[str] | None, disputed: bool
) -> list[RawRow]:
    """The teams as rows. Stray cells are refused all in one message, or with ``disputed``
    (``--read-as-disputed``) read as ``?``, each said in a note."""
    from podium.web.readers import ratingsheet

    try:
        found = ratingsheet.read_tables(tables, address)
    except ratingsheet.RatingSheetRefused as refused:
        raise InputError([Problem(name, refused.message)]) from None
    if found.stray and not disputed:
        cells = "; ".join(s.message() for s in found.stray)
        raise InputError(
            [
                Problem(
                    name,
                    f"{len(found.stray)} cell(s) are neither marks nor answers: {cells}. "
                    "Correct them, or give --read-as-disputed to read them all as disputed (?)",
                )
            ]
        )
    masks = {team.line: list(team.mask) for team in found.teams}
    for stray in found.stray:
        masks[stray.line][stray.position] = "?"
    if notes is not None:
        notes.extend(found.notes)
        notes.extend(note for team in found.teams for note in team.notes)
        notes.extend(
            f"{s.where}: “{s.value}” read as disputed (?) (--read-as-disputed)" for s in found.stray
        )
    return [
        RawRow(
            team.line,
            {
                "id": team.rating_id or str(index),
                "name": team.name,
                "mask": "".join(masks[team.line]),
            },
        )
        for index, team in enumerate(found.teams, start=1)
    ]


def _workbook_rows(path: Path, notes: list[str] | None, disputed: bool) -> list[RawRow]:
    name = str(path)
    _plain_django()
    from podium.web.readers import ratingsheet

    try:
        if path.stat().st_size > MAX_WORKBOOK_BYTES:
            raise InputError(
                [Problem(name, f"the workbook is larger than {MAX_WORKBOOK_BYTES // 2**20} MB")]
            )
        data = path.read_bytes()
    except OSError as exc:
        raise InputError([Problem(name, f"cannot read the file ({exc.strerror})")]) from None
    try:
        sheets = ratingsheet.read_workbook(data)
    except ratingsheet.RatingSheetRefused as refused:
        raise InputError([Problem(name, refused.message)]) from None
    if not ratingsheet.is_rating_table(sheets[0][1] if sheets else []):
        raise InputError(
            [
                Problem(
                    name,
                    "Podium reads a workbook only as the rating site's ChGK table (Team ID, "
                    "Название, Город, Тур, 1 … n); save any other table as CSV UTF-8",
                )
            ]
        )
    return _rating_rows(name, sheets, "xlsx", notes, disputed)


def _is_workbook(path: Path) -> bool:
    if path.suffix.casefold() in (".xlsx", ".xlsm"):
        return True
    try:
        with path.open("rb") as stream:
            return stream.read(4) == _ZIP
    except OSError:
        return False  # read_rows names the error


def read_rows(
    path: Path, notes: list[str] | None = None, *, read_as_disputed: bool = False
) -> list[RawRow]:
    """The rows of a results file; ``notes`` receives what was read in a way worth saying (a
    written-in answer of the rating site's table read as disputed, …); ``read_as_disputed``
    reads the rating table's stray cells as disputed instead of refusing them."""
    name = str(path)
    if _is_workbook(path):
        return _workbook_rows(path, notes, read_as_disputed)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError([Problem(name, f"cannot read the file ({exc.strerror})")]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            [Problem(name, f"not UTF-8 text (byte {exc.start}); save the file as UTF-8")]
        ) from None
    del data  # the text holds it now; a large file is not kept twice
    first = _VISIBLE.search(text)
    if first is None:
        raise InputError([Problem(name, "the file is empty: a header and rows are needed")])
    # The header is the first line with anything on it; what stands before it is blank.
    end = _LINE_END.search(text, first.start())
    header_line = text[first.start() : end.start() if end else len(text)]
    head = text[: 64 * 1024]
    named = head.casefold().find("название")
    if named >= 0:  # the rating site's header, perhaps under a title or a note line
        start = head.rfind("\n", 0, named) + 1
        stop = _LINE_END.search(head, named)
        header_line = head[start : stop.start() if stop else len(head)]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    reader = csv.reader(_lines(text), delimiter=delimiter)
    if named >= 0:
        _plain_django()
        from podium.web.readers import ratingsheet

        table = [(reader.line_num, record) for record in reader]
        if ratingsheet.is_rating_table(table):
            return _rating_rows(name, [("", table)], "csv", notes, read_as_disputed)
        reader = csv.reader(_lines(text), delimiter=delimiter)
    problems = Problems()
    header: list[str] | None = None
    rows: list[RawRow] = []
    for record in reader:
        line = reader.line_num
        if not "".join(record).strip():  # a blank line, or only blank cells
            continue
        if header is None:
            header = [_column(c) for c in record]
            seen: set[str] = set()
            for column in header:
                if not column:
                    problems.add(f"line {line}", "a column has no name in the header")
                elif column in seen:
                    problems.add(f"line {line}", f"column '{column}' appears twice in the header")
                seen.add(column)
            continue
        if len(record) != len(header):
            problems.add(
                f"row {line}", f"{len(record)} cells, but the header has {len(header)} columns"
            )
            continue
        # A results file repeats its values (games, genders, groups, yes and no): each is kept
        # once, not once per cell, which a file of 100,000 rows feels (a sixth of the memory).
        rows.append(RawRow(line, dict(zip(header, map(sys.intern, record), strict=True))))
    problems.raise_if_any()
    if not rows:
        raise InputError([Problem(name, "the file has a header but no rows")])
    return rows
