"""The rows of a results file, read per format and checked before anything is recorded:
an entry per row (``ENTRY_FORMATS``: the entry by its number, or the rating site's team by its
name) or an item per row (``ITEM_FORMATS``: a battle of two teams, a superfinal question with
a column per team), each against the stage's entries, the results already recorded and the
engine's own reading (see ``podium.web.files.services.imports``).

Vocabulary:
- record: a row of the file as ``{column: cell}``, its columns named as the command line
  names them (``csv_column``).
- action: what the import does with a row: ``record`` it, ``correct`` the current result (only
  with a reason) or leave it ``unchanged``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema.stages import Stage
from podium.web.files.services.imports.common import Issue, engine_issues, extra_cells
from podium.web.kernel.stages import stage_entries
from podium.web.kernel.text import name_key
from podium.web.models import Entry, Event, Result
from podium.web.readers.tables import Sheet, column_letter
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.rows import (
    battle_item,
    current_results,
    format_columns,
    groups_by_number,
    item_row,
    labels_by_number,
    question_item,
    raw_row,
)
from podium.web.results.services.results import shown

# --- the columns and the rows ----------------------------------------------------------------

KNOWN_COLUMNS = {
    "id",
    "name",
    "country",
    "group",
    "gender",
    "average",
    "birth_date",
    "qualified",
    "scored",
    "time",
    "missing",
    "pieces",
    "done",
    "questions",
    "mask",
    "tour",
    "round",
    "team1",
    "team2",
    "score1",
    "score2",
    "discipline",
    "division",
    "compensation",
    "compensation_reason",
}


def csv_column(name: str) -> str:
    """The command line's rule: known column names in any case; others (teams) as written."""
    lowered = name.strip().casefold()
    if lowered in KNOWN_COLUMNS or (lowered.startswith("g") and lowered[1:].isdigit()):
        return lowered
    return name.strip()


@dataclass
class ResultRow:
    row: int
    subject: str = ""
    entry: Entry | None = None
    item: str = ""
    cells: dict[str, str] = field(default_factory=dict)
    action: str = ""  # "record", "correct" or "unchanged"
    before: str = ""  # the current result, shown
    issues: list[Issue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def values(self) -> str:
        return shown(self.cells) if self.cells else ""


def _records(sheet: Sheet) -> tuple[list[tuple[int, dict[str, str]]], list[Issue], list[str]]:
    header = [csv_column(h) for h in sheet.header]
    issues = []
    for index, name in enumerate(header):
        if not name:
            issues.append(
                Issue(None, column_letter(index), _("a column has no name in the header"))
            )
        elif header.index(name) != index:
            issues.append(Issue(None, name, _("the column appears twice in the header")))
    if "id" not in header:
        issues.append(Issue(None, "id", _("missing required column")))
    records = [(n, dict(zip(header, cells, strict=True))) for n, cells in sheet.rows]
    return records, issues, header


# --- what every row meets --------------------------------------------------------------------


def _row(sheet: Sheet, number: int) -> ResultRow:
    """A row of the file, with the problem of its cells beyond the header's last column."""
    row = ResultRow(row=number)
    extra = extra_cells(sheet, number)
    if extra:
        row.issues.append(extra)
    return row


def _action(row: ResultRow, current: Result | None, reason: str) -> None:
    if current is None:
        row.action = "record"
        return
    row.before = shown(current.cells)
    same = {c: current.cells.get(c, "") for c in row.cells} == row.cells
    if same:
        row.action = "unchanged"
    elif reason:
        row.action = "correct"
    else:
        row.action = "correct"
        row.issues.append(
            Issue(
                row.row,
                "",
                _(
                    "%(subject)s already has a result (%(before)s); give the reason "
                    "for the correction on the form to correct it"
                )
                % {"subject": row.subject, "before": row.before},
            )
        )


def _engine_problems(
    event: Event, stage: Stage, raws: list[Any], good: list[ResultRow]
) -> tuple[dict[int, list[Issue]], list[Issue]]:
    """The engine's reading of the rows: its problems laid on the rows of the file, and
    returned by row number and those of no row."""
    try:
        compute_standings(event.rulebook, stage.key, raws)
    except InputError as exc:
        by_row, rest = engine_issues(exc)
        for r in good:
            r.issues += by_row.get(r.row, [])
        return by_row, rest
    return {}, []


# --- an entry per row ------------------------------------------------------------------------


def entry_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    """The rows, the problems of the whole file and its notes, for a stage of an entry per row."""
    records, general, header = _records(sheet)
    columns = format_columns(stage)
    notes = _columns_read(stage, header, columns, general)
    entries = {e.number: e for e in stage_entries(event, stage).prefetch_related(roster())}
    current = {r.entry_id: r for r in current_results(event, stage.key, round)}
    named: dict[str, list[int]] = defaultdict(list)
    for found in entries.values():
        named[name_key(found.name)].append(found.number)
    rows: list[ResultRow] = []
    seen: dict[int, int] = {}
    for number, record in records:
        row = _row(sheet, number)
        rows.append(row)
        row.notes += sheet.cell_notes.get(number, [])
        entry = _entry_of(row, record, stage, entries, named, seen, sheet.by_name)
        if entry is None:
            continue
        seen[entry.number] = number
        _entry_cells(row, record, stage, entry, columns)
        _action(row, current.get(entry.pk), reason)
    good = [r for r in rows if r.entry is not None]
    if good and not general:
        raws = [raw_row(r.entry, stage, r.cells, r.row) for r in good if r.entry is not None]
        general += _engine_problems(event, stage, raws, good)[1]
    return rows, general, notes


def _columns_read(
    stage: Stage, header: list[str], columns: list[str], general: list[Issue]
) -> list[str]:
    """A problem when the file has none of the stage's columns; a note naming those not read."""
    notes = []
    present = [c for c in columns if c in header]
    if not present:
        general.append(
            Issue(
                None,
                "",
                _("The file has none of the columns of %(stage)s (%(columns)s).")
                % {"stage": stage.title, "columns": ", ".join(columns)},
            )
        )
    ignored = [h for h in header if h and h not in columns and h not in KNOWN_COLUMNS]
    if ignored:
        notes.append(_("Columns not read: %(columns)s.") % {"columns": ", ".join(ignored)})
    return notes


def _entry_of(
    row: ResultRow,
    record: dict[str, str],
    stage: Stage,
    entries: dict[int, Entry],
    named: dict[str, list[int]],
    seen: dict[int, int],
    by_name: bool,
) -> Entry | None:
    """The row's entry, by its number (or its name in the rating site's table), or None with
    the row's problem."""
    number = row.row
    text = (record.get("id") or "").strip().removeprefix("#")
    name = (record.get("name") or "").strip()
    if not text and name and by_name:
        # The rating site's table has no entry numbers: its teams are found by name.
        found = named.get(name_key(name), [])
        if len(found) != 1:
            row.issues.append(_unnamed(number, name, found, stage))
            return None
        text = str(found[0])
    if not text:
        row.issues.append(Issue(number, "id", _("every row needs an id (the entry number)")))
        return None
    if not text.isdigit():
        row.issues.append(Issue(number, "id", _("“%(id)s” is not an entry number") % {"id": text}))
        return None
    entry = entries.get(int(text))
    if entry is None:
        row.issues.append(
            Issue(
                number,
                "id",
                _("#%(id)s is not in the entry list of %(stage)s")
                % {"id": text, "stage": stage.title},
            )
        )
        return None
    if entry.number in seen:
        row.issues.append(
            Issue(
                number,
                "id",
                _("#%(id)d is already on row %(row)d")
                % {"id": entry.number, "row": seen[entry.number]},
            )
        )
        return None
    return entry


def _entry_cells(
    row: ResultRow, record: dict[str, str], stage: Stage, entry: Entry, columns: list[str]
) -> None:
    """The row's entry and cells, a note when the file names it otherwise, and a problem when
    the file puts it in another group."""
    row.entry = entry
    row.subject = f"#{entry.number} {entry.name}"
    row.cells = {c: (record.get(c) or "").strip() for c in columns}
    name = (record.get("name") or "").strip()
    if name and name.casefold() != entry.name.casefold():
        row.notes.append(_("the file names it “%(name)s”") % {"name": name})
    group = (record.get("group") or "").strip()
    if stage.groups and group and group != entry.group:
        row.issues.append(
            Issue(
                row.row,
                "group",
                _("the file says group %(file)s; #%(number)d is in group %(group)s")
                % {"file": group, "number": entry.number, "group": entry.group or "—"},
            )
        )


def _unnamed(number: int, name: str, found: list[int], stage: Stage) -> Issue:
    if found:
        numbers = ", ".join(f"#{n}" for n in sorted(found))
        text = _("“%(name)s” names several entries (%(numbers)s)") % {
            "name": name,
            "numbers": numbers,
        }
    else:
        text = _("“%(name)s” is not a team of %(stage)s: register it first") % {
            "name": name,
            "stage": stage.title,
        }
    return Issue(number, "name", text)


# --- an item per row -------------------------------------------------------------------------


def _team_resolver(event: Event, stage: Stage) -> Callable[[str], str | None]:
    """A team as a file names it (its number, label or name) → its entry number."""
    labels = labels_by_number(event, stage)
    names: dict[str, list[str]] = defaultdict(list)
    for number, label in labels.items():
        names[label.casefold()].append(number)
    entries = stage_entries(event, stage)
    for entry in entries:
        if str(entry.number) not in names[entry.name.casefold()]:
            names[entry.name.casefold()].append(str(entry.number))

    def resolve(text: str) -> str | None:
        text = text.strip()
        if text.removeprefix("#").isdigit() and text.removeprefix("#") in labels:
            return text.removeprefix("#")
        found = names.get(text.casefold(), [])
        return found[0] if len(found) == 1 else None

    return resolve


def item_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    """The rows, the problems of the whole file and its notes (none), for a stage of an item
    per row: battles (head-to-head) or questions (superfinal)."""
    records, general, header = _records(sheet)
    resolve = _team_resolver(event, stage)
    labels = labels_by_number(event, stage)
    current = {r.item: r for r in current_results(event, stage.key, round)}
    rows: list[ResultRow] = []
    seen: dict[str, int] = {}
    teams: dict[str, str] = {}  # superfinal: team column → entry number
    if stage.format == "superfinal":
        teams = _superfinal_teams(stage, header, resolve, labels, general)
    for number, record in records:
        row = _row(sheet, number)
        rows.append(row)
        if stage.format == "head-to-head":
            read = _battle(row, record, stage, resolve, labels)
        else:
            read = _question(row, record, teams)
        if not read:
            continue
        if row.item in seen:
            row.issues.append(
                Issue(
                    number,
                    "id",
                    _("%(subject)s is already on row %(row)d")
                    % {"subject": row.subject, "row": seen[row.item]},
                )
            )
            continue
        seen[row.item] = number
        _action(row, current.get(row.item), reason)
    good = [r for r in rows if r.item]
    if good and not general:
        others = [r for item, r in current.items() if item not in seen]
        groups = groups_by_number(event, stage)
        raws = [item_row(stage, r.item, r.cells, labels, r.row, groups) for r in good]
        raws += [
            item_row(stage, r.item, r.cells, labels, 10**6 + n, groups)
            for n, r in enumerate(others)
        ]
        by_row, rest = _engine_problems(event, stage, raws, good)
        # Problems on rows of results already recorded (not in the file) concern the file
        # as a whole: its battles or questions do not fit with those.
        general += rest
        general += [
            Issue(None, "", i.message) for n, found in by_row.items() if n >= 10**6 for i in found
        ]
    return rows, general, []


def _superfinal_teams(
    stage: Stage,
    header: list[str],
    resolve: Callable[[str], str | None],
    labels: dict[str, str],
    general: list[Issue],
) -> dict[str, str]:
    """The superfinal's team columns (column → entry number), a problem for a column that is
    no team and for a team with no column."""
    teams: dict[str, str] = {}
    for column in header:
        if column and column not in ("id", "discipline") and column not in KNOWN_COLUMNS:
            number = resolve(column)
            if number is None:
                general.append(
                    Issue(
                        None,
                        column,
                        _("the column is not a team of %(stage)s") % {"stage": stage.title},
                    )
                )
            else:
                teams[column] = number
    missing = [labels[n] for n in labels if n not in teams.values()]
    for label in missing:
        general.append(Issue(None, "", _("The file has no column for %(team)s.") % {"team": label}))
    return teams


def _battle(
    row: ResultRow,
    record: dict[str, str],
    stage: Stage,
    resolve: Callable[[str], str | None],
    labels: dict[str, str],
) -> bool:
    """Reads a head-to-head row: its two teams, the round and the scores; False (with the
    problems) for a row that names no battle, or one with a problem already."""
    number = row.row
    both = []
    for column in ("team1", "team2"):
        text = (record.get(column) or "").strip()
        found = resolve(text) if text else None
        if found is None:
            row.issues.append(
                Issue(
                    number,
                    column,
                    _("“%(team)s” is not a team of %(stage)s")
                    % {"team": text, "stage": stage.title},
                )
            )
        both.append(found)
    turn = (record.get("round") or "").strip()
    if not turn.isdigit():
        row.issues.append(
            Issue(number, "round", _("“%(round)s” is not a round number") % {"round": turn})
        )
    if row.issues or None in both:
        return False
    first, second = both[0] or "", both[1] or ""
    row.item = battle_item(int(turn), int(first), int(second))
    row.cells = {
        "round": turn,
        "team1": first,
        "team2": second,
        "score1": (record.get("score1") or "").strip(),
        "score2": (record.get("score2") or "").strip(),
    }
    row.subject = f"{_('round')} {turn}: {labels[first]} – {labels[second]}"
    return True


def _question(row: ResultRow, record: dict[str, str], teams: dict[str, str]) -> bool:
    """Reads a superfinal row: the question's number, its discipline and each team's cell;
    False (with the problem) for a row that names no question."""
    text = (record.get("id") or "").strip()
    if not text.isdigit() or int(text) < 1:
        row.issues.append(
            Issue(row.row, "id", _("“%(id)s” is not a question number") % {"id": text})
        )
        return False
    row.item = question_item(int(text))
    row.cells = {"discipline": (record.get("discipline") or "").strip()}
    row.cells |= {n: (record.get(c) or "").strip() for c, n in teams.items()}
    row.subject = _("question %(n)s") % {"n": text}
    return True
