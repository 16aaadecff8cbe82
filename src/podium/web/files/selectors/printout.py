"""The compact standings printout: a round's tables as the venue's notice board wants them —
place, name, country, score and marks, thirty rows a page and more — with every row's reasons
gathered into numbered notes after the tables.

Vocabulary:
- printed row: one standings row reduced to its place, number, name, country, score, points,
  marks and the numbers of its notes.
- note: one reason a row carries (its text in the active language); rows carrying identical
  reasons share the note's number, so "Outside the competition: registered in SK, not CZ" is
  printed once however many rows it explains.
- quoted clause: the rulebook's words a note rests on, printed once and labelled ``A``, ``B``,
  … (``AA`` after ``Z``); a note ends with the label of its clause.
- absent row: an entrant without a result (``podium.engine.absence``), printed after the
  ranked rows of its table without a place, its status for a score, its reason as a note.
- country: the ISO codes of the entry's members' registered countries, distinct and sorted,
  joined by ``/`` (a Czech-Slovak pair is ``CZ/SK``); empty where none is recorded.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from string import ascii_uppercase
from typing import Any

from django.utils.translation import gettext as _

from podium.rules.schema.stages import Stage
from podium.web.kernel.texts import reason_text, score_text, status_text, table_title
from podium.web.models import EntryMember, Event


@dataclass(frozen=True)
class Note:
    number: int
    text: str
    clause: str  # the label of its quoted clause, or ""


@dataclass(frozen=True)
class Clause:
    label: str
    text: str


@dataclass(frozen=True)
class PrintedRow:
    key: str  # the row's number, as the page's row id
    place: str
    name: str
    country: str
    score: str
    points: float | int | None
    marks: str  # plain words, as in the CSV: styled marks cost WeasyPrint a third more
    official: bool
    notes: str  # "1–3, 7"


@dataclass
class PrintedTable:
    key: str
    title: str
    rows: list[PrintedRow] = field(default_factory=list)


@dataclass
class Printout:
    tables: list[PrintedTable]
    notes: list[Note]
    clauses: list[Clause]


def clause_label(index: int) -> str:
    """0 → ``A``, 25 → ``Z``, 26 → ``AA``: spreadsheet column letters."""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = ascii_uppercase[rest] + label
    return label


def marks_text(row: dict[str, Any]) -> str:
    """A row's marks as plain words (CSV, XLSX and the printout)."""
    marks = []
    if row.get("advances"):
        marks.append(_("advances"))
    if row.get("next"):
        marks.append(_("next by quota"))
    if not row.get("official", True):
        marks.append(_("outside the competition"))
    if row.get("playoff"):
        marks.append(_("play-off"))
    if row.get("prize"):
        marks.append(_("prize"))
    if row.get("unverified"):
        marks.append(_("unverified"))
    return ", ".join(marks)


def countries_by_number(event: Event) -> dict[str, str]:
    """Entry number (as text) → its members' countries (see the vocabulary), in one query."""
    found: dict[str, set[str]] = defaultdict(set)
    pairs = EntryMember.objects.filter(entry__event=event).values_list(
        "entry__number", "person__country"
    )
    for number, country in pairs:
        if country:
            found[str(number)].add(country.upper())
    return {number: "/".join(sorted(codes)) for number, codes in found.items()}


def _place(row: dict[str, Any]) -> str:
    first, last = row.get("official_rank"), row.get("official_rank_to")
    if not first:
        return "—"
    return f"{first}–{last}." if last not in (None, first) else f"{first}."


class _Numbering:
    """Hands out note numbers and clause labels in order of first appearance."""

    def __init__(self) -> None:
        self.notes: dict[tuple[str, str], Note] = {}
        self.clauses: dict[str, Clause] = {}

    def note(self, reason: dict[str, Any]) -> int:
        quoted = str(reason.get("clause") or "")
        label = ""
        if quoted:
            if quoted not in self.clauses:
                self.clauses[quoted] = Clause(clause_label(len(self.clauses)), quoted)
            label = self.clauses[quoted].label
        text = reason_text(reason)
        key = (text, quoted)
        if key not in self.notes:
            self.notes[key] = Note(len(self.notes) + 1, text, label)
        return self.notes[key].number


def note_runs(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` → ``1–3, 7``: a row's notes are mostly numbered one after another."""
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(
        f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)) for run in runs
    )


def _absent_row(
    absent: dict[str, Any], countries: dict[str, str], numbering: _Numbering
) -> PrintedRow:
    """An entrant without a result, after the ranked rows: no place; its status for a score."""
    key = str(absent["id"])
    numbers = sorted({numbering.note(r) for r in absent.get("reasons", [])})
    return PrintedRow(
        key=key,
        place="—",
        name=str(absent["name"]),
        country=countries.get(key, ""),
        score=status_text(absent["status"]),
        points=None,
        marks="",
        official=True,
        notes=note_runs(numbers),
    )


def printout(event: Event, stage: Stage, tables: list[dict[str, Any]]) -> Printout:
    """The round's tables (page rows, live or frozen) as the compact printout."""
    countries = countries_by_number(event)
    numbering = _Numbering()
    printed = []
    for table in tables:
        rows = []
        for row in table["rows"]:
            key = str(row.get("number") or row["id"])
            numbers = sorted({numbering.note(r) for r in row.get("reasons", [])})
            rows.append(
                PrintedRow(
                    key=key,
                    place=_place(row),
                    name=str(row["name"]),
                    country=countries.get(key, ""),
                    score=score_text(row),
                    points=row.get("points"),
                    marks=marks_text(row),
                    official=bool(row.get("official", True)),
                    notes=note_runs(numbers),
                )
            )
        rows += [_absent_row(a, countries, numbering) for a in table.get("absent", [])]
        printed.append(PrintedTable(table["key"], table_title(table, stage), rows))
    return Printout(printed, list(numbering.notes.values()), list(numbering.clauses.values()))
