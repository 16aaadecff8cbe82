"""Imports: entrants from a spreadsheet, results from the command line's CSV, ChGK tours from
the rating site's JSON — each previewed with every problem first, then saved all or nothing.

Vocabulary:
- sheet, mapping, field key, rating file: see ``podium.web.imports``.
- issue: one problem of an import, with the row of the file and the header of the column it is
  in (either may be missing: a problem of the whole file, or of a whole row).
- preview: the import run through the very services that save it (registration, results, tour
  sheets) inside a transaction that is then rolled back, so it meets every refusal the real
  import would meet and shows what would be made; nothing is kept.
- import: the same in one transaction, committed only when no row has a problem, with one
  audit entry for the whole import (besides those the services write for each entry or result).
- token: the random key of one upload. The results it records carry it in their idempotency
  keys, and its audit entry names it, so one upload is never imported twice.
- correction: a result in the file for a subject that already has a different one. It is
  refused unless the form gives a reason; with one, the current result is corrected
  (``result_correct``), so nothing recorded is ever overwritten without a trace. A row equal
  to the current result is left alone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine import eligibility
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema import Category, ChgkTourStage, Stage
from podium.web.imports import fields as F
from podium.web.imports.files import Sheet, column_letter
from podium.web.imports.rating import RatingFile, RatingTeam, position
from podium.web.models import AuditEntry, Entry, EntryMember, Event, Result, Squad
from podium.web.selectors.entries import category_cap, category_of, division_title
from podium.web.selectors.results import (
    ENTRY_FORMATS,
    ITEM_FORMATS,
    battle_item,
    current_results,
    format_columns,
    item_row,
    labels_by_number,
    question_item,
    raw_row,
    standings_as_of,
)
from podium.web.selectors.roles import is_organizer
from podium.web.selectors.stages import stage_entries
from podium.web.selectors.standings import live_tables
from podium.web.services.base import Refused, audit
from podium.web.services.registration import PersonData, entry_register
from podium.web.services.results import (
    check_not_final,
    check_round,
    recorded_stage,
    result_correct,
    result_record,
    shown,
)
from podium.web.services.sheets import SheetRefused, tour_sheet_record

T = TypeVar("T")
ACTIONS = ("record", "correct", "unchanged", "recorded", "corrected", "skipped")
_WHERE = re.compile(r"^row (\d+)(?:, column (.+))?$")


@dataclass(frozen=True)
class Issue:
    row: int | None
    column: str
    message: str

    def __str__(self) -> str:
        where = []
        if self.row is not None:
            where.append(_("row %(row)d") % {"row": self.row})
        if self.column:
            where.append(_("column “%(column)s”") % {"column": self.column})
        return f"{', '.join(where)}: {self.message}" if where else self.message


class ImportRefused(Refused):
    """An import refused as a whole: ``issues`` lists every problem, nothing was saved."""

    def __init__(self, issues: Sequence[Issue]):
        self.issues = tuple(sorted(issues, key=lambda i: (i.row is not None, i.row or 0)))
        n = len(self.issues)
        message = ngettext(
            "Nothing was imported: the file has %(n)d problem.",
            "Nothing was imported: the file has %(n)d problems.",
            n,
        ) % {"n": n}
        super().__init__(message, field="file")


class _Rollback(Exception):
    """Ends a preview's transaction, so nothing it wrote is kept."""


def _dry_run(work: Callable[[], T]) -> T:
    done: list[T] = []
    try:
        with transaction.atomic():
            done.append(work())
            raise _Rollback
    except _Rollback:
        pass
    return done[0]


def _refusal(refused: Refused) -> str:
    if refused.clause:
        return f"{refused.message} ({_('rulebook')}: {refused.clause})"
    return refused.message


def _guard(event: Event, by: Any) -> None:
    if not is_organizer(by, event):
        raise Refused(_("Only an organizer of this event may import."))


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _once(event: Event, action: str, token: str) -> None:
    """Refuses an upload imported before (a second click, or the page sent again)."""
    if not token:
        raise Refused(_("This upload has no token; upload the file again."))
    if AuditEntry.objects.filter(event=event, action=action, data__token=token).exists():
        raise Refused(_("This file was already imported."))


def _column(sheet: Sheet, index: int) -> str:
    return sheet.header[index] or _("column %(letter)s") % {"letter": column_letter(index)}


def _extra_cells(sheet: Sheet, row: int) -> Issue | None:
    count = sheet.extra.get(row, 0)
    if not count:
        return None
    return Issue(
        row,
        "",
        ngettext(
            "%(n)d cell is filled beyond the header's last column.",
            "%(n)d cells are filled beyond the header's last column.",
            count,
        )
        % {"n": count},
    )


def _engine_issues(exc: InputError) -> tuple[dict[int, list[Issue]], list[Issue]]:
    """The engine's problems by row (the file's row numbers), and those of no row."""
    by_row: dict[int, list[Issue]] = defaultdict(list)
    general: list[Issue] = []
    for problem in exc.problems:
        where = _WHERE.match(problem.where)
        if where:
            row = int(where.group(1))
            by_row[row].append(Issue(row, where.group(2) or "", problem.message))
        else:
            general.append(Issue(None, "", str(problem)))
    return by_row, general


# --- entrants ---------------------------------------------------------------------------------


@dataclass
class EntrantRow:
    row: int
    category: str = ""
    members: list[PersonData] = field(default_factory=list)
    slots: list[int] = field(default_factory=list)  # the member slot of each member
    name: str = ""
    group: str = ""
    squad: Squad | None = None
    adult: str = ""
    scored: bool = True
    issues: list[Issue] = field(default_factory=list)
    # What the registration made of it (in a preview: would make).
    entry: Entry | None = None
    status: str = ""
    status_label: str = ""
    division: str = ""

    category_title: str = ""
    division_title: str = ""

    @property
    def member_names(self) -> str:
        return ", ".join(m.full_name for m in self.members)


@dataclass
class EntrantsPlan:
    sheet: Sheet
    rows: list[EntrantRow]
    general: list[Issue]

    @property
    def issues(self) -> list[Issue]:
        return self.general + [i for r in self.rows for i in r.issues]

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def statuses(self) -> dict[str, int]:
        counts: dict[str, int] = defaultdict(int)
        for row in self.rows:
            if row.status_label:
                counts[row.status_label] += 1
        return dict(counts)


def member_slots(event: Event) -> int:
    """How many members an entry of this rulebook may have (the mapping's member columns)."""
    sizes = [c.entrants.roster_max or c.entrants.max_size for c in event.rulebook.categories]
    return F.members_needed(sizes)


def _category_keys(event: Event) -> dict[str, str]:
    """A category as a file may name it (its key, or its title in any of the four languages)
    → its key."""
    keys: dict[str, str] = {}
    for category in event.rulebook.categories:
        names = {category.key, category.title}
        for language in ("en", "cs", "it", "ru"):
            with translation.override(language):
                names.add(_(category.title))
        keys.update({name.casefold(): category.key for name in names})
    return keys


def _groups(event: Event, category: str) -> tuple[str, ...]:
    groups: list[str] = []
    for stage in event.rulebook.stages:
        if stage.category == category:
            groups += [g for g in stage.groups if g not in groups]
    return tuple(groups)


def mapping_issues(
    event: Event, sheet: Sheet, mapping: Mapping[int, str], category: str
) -> list[Issue]:
    """What is wrong with a column mapping itself (before any row is read)."""
    issues = []
    allowed = {k for k, _label in F.choices(member_slots(event)) if k}
    seen: dict[str, int] = {}
    for index, field_key in sorted(mapping.items()):
        if not field_key:
            continue
        if field_key not in allowed or not 0 <= index < len(sheet.header):
            issues.append(Issue(None, "", _("The mapping names an unknown field or column.")))
            continue
        if field_key in seen:
            issues.append(
                Issue(
                    None,
                    _column(sheet, index),
                    _("“%(field)s” is already the field of column “%(other)s”.")
                    % {"field": F.label(field_key), "other": _column(sheet, seen[field_key])},
                )
            )
        seen[field_key] = index
    for needed in ("m0_first_name", "m0_last_name"):
        if needed not in seen:
            issues.append(
                Issue(
                    None,
                    "",
                    _("Choose the column of the %(field)s.") % {"field": F.label(needed).lower()},
                )
            )
    if "category" not in seen and not category:
        issues.append(
            Issue(None, "", _("Choose the category of every row, or the column that holds it."))
        )
    if category and category_of(event, category) is None:
        issues.append(Issue(None, "", _("This event has no category “%s”.") % category))
    return issues


class _Cells:
    """The mapped cells of one row, with the header of each field's column."""

    def __init__(self, sheet: Sheet, mapping: Mapping[int, str], cells: Sequence[str]):
        self.index = {k: i for i, k in mapping.items() if k}
        self.sheet = sheet
        self.cells = cells

    def __call__(self, field_key: str) -> str:
        index = self.index.get(field_key)
        return self.cells[index].strip() if index is not None else ""

    def column(self, field_key: str) -> str:
        index = self.index.get(field_key)
        return _column(self.sheet, index) if index is not None else ""


def _read_member(row: EntrantRow, cell: _Cells, slot: int) -> None:
    values = {name: cell(F.key(slot, name)) for name in F.MEMBER_FIELDS}
    if not any(values.values()):
        return
    parsed: dict[str, Any] = {}
    for name, text in values.items():
        reader = F.READERS.get(name)
        if text and reader is not None:
            try:
                parsed[name] = reader(text)
            except ValueError as exc:
                row.issues.append(Issue(row.row, cell.column(F.key(slot, name)), str(exc)))
    for name in ("first_name", "last_name"):
        if not values[name]:
            column = cell.column(F.key(slot, name)) or cell.column(F.key(slot, "last_name"))
            row.issues.append(
                Issue(
                    row.row,
                    column,
                    _("member %(n)d has no %(field)s")
                    % {"n": slot + 1, "field": F.MEMBER_LABELS[name]},
                )
            )
    row.members.append(
        PersonData(
            first_name=values["first_name"],
            last_name=values["last_name"],
            birth_date=parsed.get("birth_date"),
            country=parsed.get("country", ""),
            gender=parsed.get("gender", ""),
            ladder_average=parsed.get("ladder_average"),
            email=parsed.get("email", ""),
        )
    )
    row.slots.append(slot)


def _check_entrant(event: Event, row: EntrantRow, cell: _Cells, category: Category) -> None:
    """The rulebook's rules a row can be checked against by itself."""
    kind = category.entrants
    size = len(row.members)
    if row.scored and row.members:
        low, high = kind.min_size, kind.roster_max or kind.max_size
        if not low <= size <= high:
            if low == high:
                text = ngettext(
                    "An entry of %(category)s has exactly %(n)d member; this row has %(size)d.",
                    "An entry of %(category)s has exactly %(n)d members; this row has %(size)d.",
                    low,
                ) % {"category": category.title, "n": low, "size": size}
            else:
                text = _(
                    "An entry of %(category)s has %(low)d to %(high)d members; this row has "
                    "%(size)d."
                ) % {"category": category.title, "low": low, "high": high, "size": size}
            slot = size if size < low else high
            column = cell.column(F.key(slot, "last_name")) or cell.column(F.key(slot, "first_name"))
            row.issues.append(Issue(row.row, column, text))
    if kind.kind == "team" and not row.name:
        row.issues.append(Issue(row.row, cell.column("name"), _("a team needs a name")))
    rules = event.rulebook.registration.eligibility
    day = event.local_start.date()
    for member, slot in zip(row.members, row.slots, strict=True):
        birth_column = cell.column(F.key(slot, "birth_date"))
        if any(i.column == birth_column and birth_column for i in row.issues):
            continue  # the date itself is wrong; said already
        verdict = eligibility.check(
            rules, birth_date=member.birth_date, event_date=day, accompanied=bool(row.adult)
        )
        if "birth_date" in verdict.unknown:
            row.issues.append(
                Issue(
                    row.row,
                    birth_column,
                    _("the birth date of %(name)s is needed: the rules depend on it")
                    % {"name": member.full_name},
                )
            )
        for failure in verdict.failures:
            column = cell.column("accompanying_adult") if verdict.needs_adult else ""
            text = _("%(name)s may not enter: %(reason)s") % {
                "name": member.full_name,
                "reason": failure.text,
            }
            if failure.clause:
                text += f" ({_('rulebook')}: {failure.clause})"
            row.issues.append(Issue(row.row, column or birth_column, text))
    groups = _groups(event, category.key)
    if row.group and row.group not in groups:
        text = (
            _("“%(group)s” is not a group of %(category)s (%(groups)s)")
            % {"group": row.group, "category": category.title, "groups": ", ".join(groups)}
            if groups
            else _("%(category)s has no groups") % {"category": category.title}
        )
        row.issues.append(Issue(row.row, cell.column("group"), text))


def _read_entrants(
    event: Event, sheet: Sheet, mapping: Mapping[int, str], category: str
) -> list[EntrantRow]:
    slots = member_slots(event)
    squads = {s.name.casefold(): s for s in Squad.objects.filter(event=event)}
    categories = _category_keys(event)
    rows = []
    for number, cells in sheet.rows:
        row = EntrantRow(row=number)
        cell = _Cells(sheet, mapping, cells)
        extra = _extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        text = cell("category")
        if text:
            found = categories.get(text.casefold())
            if found is None:
                titles = ", ".join(c.title for c in event.rulebook.categories)
                row.issues.append(
                    Issue(
                        number,
                        cell.column("category"),
                        _("“%(text)s” is not a category of this event (%(categories)s)")
                        % {"text": text, "categories": titles},
                    )
                )
            row.category = found or ""
        else:
            row.category = category
            if not category:
                row.issues.append(Issue(number, cell.column("category"), _("a category is needed")))
        for slot in range(slots):
            _read_member(row, cell, slot)
        if not row.members:
            row.issues.append(Issue(number, cell.column("m0_last_name"), _("the row names nobody")))
        row.name = cell("name")
        row.group = cell("group")
        row.adult = cell("accompanying_adult")
        if cell("scored"):
            try:
                row.scored = F.read_yes_no(cell("scored"))
            except ValueError as exc:
                row.issues.append(Issue(number, cell.column("scored"), str(exc)))
        if cell("squad"):
            row.squad = squads.get(cell("squad").casefold())
            if row.squad is None:
                known = ", ".join(s.name for s in squads.values()) or "—"
                row.issues.append(
                    Issue(
                        number,
                        cell.column("squad"),
                        _("“%(text)s” is not a squad of this event (%(squads)s)")
                        % {"text": cell("squad"), "squads": known},
                    )
                )
        the_category = category_of(event, row.category) if row.category else None
        if the_category is not None:
            row.category_title = the_category.title
            _check_entrant(event, row, cell, the_category)
        rows.append(row)
    return rows


def _person_key(data: PersonData) -> tuple[str, str]:
    return data.first_name.strip().casefold(), data.last_name.strip().casefold()


def _same_birth(a: dt.date | None, b: dt.date | None) -> bool:
    return a is None or b is None or a == b


def _check_file(
    event: Event, sheet: Sheet, mapping: Mapping[int, str], rows: list[EntrantRow]
) -> None:
    """Duplicates within the file and against the event's entries, and the categories' caps."""
    registered: dict[tuple[str, str, str], list[tuple[dt.date | None, Entry]]] = defaultdict(list)
    members = EntryMember.objects.filter(entry__event=event).exclude(
        entry__status=Entry.Status.CANCELLED
    )
    for m in members.select_related("entry", "person"):
        first, last = m.person.first_name.casefold(), m.person.last_name.casefold()
        registered[(m.entry.category, first, last)].append((m.person.birth_date, m.entry))
    team_names = {
        (e.category, e.name.casefold()): e
        for e in Entry.objects.filter(event=event).exclude(status=Entry.Status.CANCELLED)
    }
    seen: dict[tuple[str, str, str], list[tuple[dt.date | None, int]]] = defaultdict(list)
    names_seen: dict[tuple[str, str], int] = {}
    taken = {
        c.key: Entry.objects.filter(event=event, category=c.key, status__in=Entry.ACTIVE).count()
        for c in event.rulebook.categories
    }
    in_file: dict[str, int] = defaultdict(int)
    for row in rows:
        if not row.category:
            continue
        cell = _Cells(sheet, mapping, ())
        for member, slot in zip(row.members, row.slots, strict=True):
            column = cell.column(F.key(slot, "last_name"))
            person = (row.category, *_person_key(member))
            earlier = next((r for b, r in seen[person] if _same_birth(b, member.birth_date)), None)
            if earlier is not None:
                row.issues.append(
                    Issue(
                        row.row,
                        column,
                        _("%(name)s is already on row %(row)d")
                        % {"name": member.full_name, "row": earlier},
                    )
                )
            seen[person].append((member.birth_date, row.row))
            entry = next(
                (e for b, e in registered[person] if _same_birth(b, member.birth_date)), None
            )
            if entry is not None:
                row.issues.append(
                    Issue(
                        row.row,
                        column,
                        _("%(name)s is already registered in this category (#%(number)d %(entry)s)")
                        % {"name": member.full_name, "number": entry.number, "entry": entry.name},
                    )
                )
        category = category_of(event, row.category)
        if row.name and category is not None and category.entrants.kind != "individual":
            key = (row.category, row.name.casefold())
            if key in names_seen:
                row.issues.append(
                    Issue(
                        row.row,
                        cell.column("name"),
                        _("“%(name)s” is already on row %(row)d")
                        % {"name": row.name, "row": names_seen[key]},
                    )
                )
            elif key in team_names:
                other = team_names[key]
                row.issues.append(
                    Issue(
                        row.row,
                        cell.column("name"),
                        _("“%(name)s” is already registered (#%(number)d)")
                        % {"name": row.name, "number": other.number},
                    )
                )
            names_seen.setdefault(key, row.row)
        cap = category_cap(event, row.category)
        if cap is not None:
            in_file[row.category] += 1
            if taken[row.category] + in_file[row.category] > cap:
                row.issues.append(
                    Issue(
                        row.row,
                        cell.column("category"),
                        _(
                            "over the cap: %(category)s has %(cap)d places, %(taken)d are "
                            "taken, and this is entry %(n)d of the file"
                        )
                        % {
                            "category": category.title if category else row.category,
                            "cap": cap,
                            "taken": taken[row.category],
                            "n": in_file[row.category],
                        },
                    )
                )


_SERVICE_FIELDS = {
    "category": "category",
    "waiting": "category",
    "squad": "squad",
    "accompanying_adult": "accompanying_adult",
    "name": "name",
}


def _register(
    event: Event,
    sheet: Sheet,
    mapping: Mapping[int, str],
    rows: list[EntrantRow],
    by: Any,
    now: dt.datetime,
) -> list[Issue]:
    """Registers every row without a problem through the registration service, in file order;
    returns the problems of the whole file (a refusal every row met)."""
    refused: list[tuple[EntrantRow, Refused]] = []
    tried = 0
    for row in rows:
        if row.issues:
            continue
        tried += 1
        category = category_of(event, row.category)
        assert category is not None
        try:
            with transaction.atomic():
                entry = entry_register(
                    event=event,
                    category=row.category,
                    by=by,
                    members=row.members,
                    name=row.name if category.entrants.kind != "individual" else None,
                    accompanying_adult=row.adult,
                    squad=row.squad,
                    scored=row.scored,
                    waiting=False,
                    now=now,
                )
                if row.group:
                    Entry.objects.filter(pk=entry.pk).update(group=row.group)
                    entry.group = row.group
        except Refused as exc:
            refused.append((row, exc))
            continue
        row.entry = entry
        row.status = entry.status
        row.status_label = str(Entry.Status(entry.status).label)
        row.division = entry.division
        row.division_title = division_title(entry)
    messages = {_refusal(r) for _row, r in refused if not r.field}
    if (
        tried > 1
        and len(refused) == tried
        and not any(r.field for _row, r in refused)
        and len(messages) == 1
    ):
        # Every row met the same refusal (registration closed…): say it once.
        return [Issue(None, "", messages.pop())]
    cell = _Cells(sheet, mapping, ())
    for row, exc in refused:
        member, name = F.split_key(exc.field or "")
        if member is not None and member < len(row.slots):
            column = cell.column(F.key(row.slots[member], name))
        else:
            column = cell.column(_SERVICE_FIELDS.get(exc.field or "", ""))
        row.issues.append(Issue(row.row, column, _refusal(exc)))
    return []


def _entrants_plan(
    event: Event,
    sheet: Sheet,
    mapping: Mapping[int, str],
    category: str,
    by: Any,
    now: dt.datetime,
) -> EntrantsPlan:
    general = mapping_issues(event, sheet, mapping, category)
    if general:
        return EntrantsPlan(sheet, [], general)
    rows = _read_entrants(event, sheet, mapping, category)
    _check_file(event, sheet, mapping, rows)
    general = _register(event, sheet, mapping, rows, by, now)
    return EntrantsPlan(sheet, rows, general)


def entrants_preview(
    *,
    event: Event,
    sheet: Sheet,
    mapping: Mapping[int, str],
    by: Any,
    category: str = "",
    now: dt.datetime | None = None,
) -> EntrantsPlan:
    """What importing the sheet would make, with every problem per row and column; nothing is
    saved. ``category``: the category of rows without one (or of every row)."""
    _guard(event, by)
    now = now or timezone.now()
    return _dry_run(lambda: _entrants_plan(event, sheet, mapping, category, by, now))


def entrants_import(
    *,
    event: Event,
    sheet: Sheet,
    mapping: Mapping[int, str],
    by: Any,
    token: str,
    category: str = "",
    now: dt.datetime | None = None,
) -> list[Entry]:
    """Registers every row of the sheet, all or nothing, through the registration service (an
    organizer registering on behalf of the entrants: confirmed, or pending where the rulebook
    requires approval); any problem refuses the whole import (``ImportRefused``)."""
    _guard(event, by)
    now = now or timezone.now()
    with transaction.atomic():
        event = _locked(event)
        _once(event, "entries.import", token)
        plan = _entrants_plan(event, sheet, mapping, category, by, now)
        if not plan.ok:
            raise ImportRefused(plan.issues)
        entries = [row.entry for row in plan.rows if row.entry is not None]
        audit(
            event=event,
            actor=by,
            action="entries.import",
            target=sheet.name,
            token=token,
            file=sheet.name,
            rows=len(plan.rows),
            entries=[e.number for e in entries],
            statuses=plan.statuses,
            mapping={_column(sheet, i): k for i, k in mapping.items() if k},
        )
    return entries


# --- results from the command line's CSV --------------------------------------------------------

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


@dataclass
class ResultsPlan:
    stage: Stage
    round: int
    rows: list[ResultRow]
    general: list[Issue]
    notes: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    @property
    def issues(self) -> list[Issue]:
        return self.general + [i for r in self.rows for i in r.issues]

    @property
    def ok(self) -> bool:
        return not self.issues

    def count(self, action: str) -> int:
        return sum(r.action == action for r in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        return {a: self.count(a) for a in ACTIONS}


def _results_stage(event: Event, stage: str, round: int) -> Stage:
    the_stage = recorded_stage(event, stage)
    check_round(event, the_stage, round)
    check_not_final(event, the_stage, round)
    return the_stage


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


def _entry_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    records, general, header = _records(sheet)
    columns = format_columns(stage)
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
    entries = {e.number: e for e in stage_entries(event, stage).prefetch_related("members__person")}
    current = {r.entry_id: r for r in current_results(event, stage.key, round)}
    rows: list[ResultRow] = []
    seen: dict[int, int] = {}
    for number, record in records:
        row = ResultRow(row=number)
        rows.append(row)
        extra = _extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        text = (record.get("id") or "").strip().removeprefix("#")
        if not text:
            row.issues.append(Issue(number, "id", _("every row needs an id (the entry number)")))
            continue
        if not text.isdigit():
            row.issues.append(
                Issue(number, "id", _("“%(id)s” is not an entry number") % {"id": text})
            )
            continue
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
            continue
        if entry.number in seen:
            row.issues.append(
                Issue(
                    number,
                    "id",
                    _("#%(id)d is already on row %(row)d")
                    % {"id": entry.number, "row": seen[entry.number]},
                )
            )
            continue
        seen[entry.number] = number
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
                    number,
                    "group",
                    _("the file says group %(file)s; #%(number)d is in group %(group)s")
                    % {"file": group, "number": entry.number, "group": entry.group or "—"},
                )
            )
        _action(row, current.get(entry.pk), reason)
    good = [r for r in rows if r.entry is not None]
    if good and not general:
        raws = [raw_row(r.entry, stage, r.cells, r.row) for r in good if r.entry is not None]
        try:
            compute_standings(event.rulebook, stage.key, raws)
        except InputError as exc:
            by_row, rest = _engine_issues(exc)
            for r in good:
                r.issues += by_row.get(r.row, [])
            general += rest
    return rows, general, notes


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


def _item_rows(
    event: Event, stage: Stage, round: int, sheet: Sheet, reason: str
) -> tuple[list[ResultRow], list[Issue], list[str]]:
    records, general, header = _records(sheet)
    resolve = _team_resolver(event, stage)
    labels = labels_by_number(event, stage)
    current = {r.item: r for r in current_results(event, stage.key, round)}
    rows: list[ResultRow] = []
    seen: dict[str, int] = {}
    teams: dict[str, str] = {}  # superfinal: team column → entry number
    if stage.format == "superfinal":
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
            general.append(
                Issue(None, "", _("The file has no column for %(team)s.") % {"team": label})
            )
    for number, record in records:
        row = ResultRow(row=number)
        rows.append(row)
        extra = _extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        if stage.format == "head-to-head":
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
                continue
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
        else:
            text = (record.get("id") or "").strip()
            if not text.isdigit() or int(text) < 1:
                row.issues.append(
                    Issue(number, "id", _("“%(id)s” is not a question number") % {"id": text})
                )
                continue
            row.item = question_item(int(text))
            row.cells = {"discipline": (record.get("discipline") or "").strip()}
            row.cells |= {n: (record.get(c) or "").strip() for c, n in teams.items()}
            row.subject = _("question %(n)s") % {"n": text}
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
        raws = [item_row(stage, r.item, r.cells, labels, r.row) for r in good]
        raws += [item_row(stage, r.item, r.cells, labels, 10**6 + n) for n, r in enumerate(others)]
        try:
            compute_standings(event.rulebook, stage.key, raws)
        except InputError as exc:
            by_row, rest = _engine_issues(exc)
            for r in good:
                r.issues += by_row.get(r.row, [])
            # Problems on rows of results already recorded (not in the file) concern the file
            # as a whole: its battles or questions do not fit with those.
            general += rest
            general += [
                Issue(None, "", i.message)
                for n, found in by_row.items()
                if n >= 10**6
                for i in found
            ]
    return rows, general, []


def _record_rows(
    event: Event,
    stage: Stage,
    round: int,
    rows: list[ResultRow],
    by: Any,
    token: str,
    reason: str,
    sheet: Sheet,
    now: dt.datetime,
) -> list[Result]:
    """Records or corrects every row through the results service, in file order."""
    current = {(r.entry_id or r.item): r for r in current_results(event, stage.key, round)}
    made = []
    detail = {"entered": "import", "file": sheet.name}
    for row in rows:
        if row.issues or row.action not in ("record", "correct"):
            continue
        key = f"import-{token}/{row.row}"
        try:
            with transaction.atomic():
                if row.action == "record":
                    result = result_record(
                        event=event,
                        stage=stage.key,
                        cells=row.cells,
                        by=by,
                        idempotency_key=key,
                        entry=row.entry,
                        item=row.item,
                        round=round,
                        detail=detail,
                        now=now,
                    )
                else:
                    seen = current[row.entry.pk if row.entry is not None else row.item]
                    result = result_correct(
                        result=seen,
                        cells=row.cells,
                        by=by,
                        reason=reason,
                        idempotency_key=key,
                        detail=detail,
                        now=now,
                    )
        except Refused as exc:
            column = "id" if exc.field == "entry" else (exc.field or "")
            row.issues.append(Issue(row.row, column, _refusal(exc)))
            continue
        made.append(result)
    return made


def _results_plan(
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    token: str,
    reason: str,
    now: dt.datetime,
) -> tuple[ResultsPlan, list[Result]]:
    the_stage = _results_stage(event, stage, round)
    if the_stage.format in ENTRY_FORMATS:
        rows, general, notes = _entry_rows(event, the_stage, round, sheet, reason)
    elif the_stage.format in ITEM_FORMATS:
        rows, general, notes = _item_rows(event, the_stage, round, sheet, reason)
    else:  # pragma: no cover - recorded_stage lets only these through
        raise Refused(_("Results of this stage are not imported."))
    if sheet.note:
        notes.insert(0, sheet.note)
    plan = ResultsPlan(the_stage, round, rows, general, notes)
    made: list[Result] = []
    if not general:
        made = _record_rows(event, the_stage, round, rows, by, token, reason, sheet, now)
    if plan.ok:
        plan.tables, problems = live_tables(event, the_stage, round)
        plan.notes += problems
    return plan, made


def results_preview(
    *,
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    reason: str = "",
    now: dt.datetime | None = None,
) -> ResultsPlan:
    """What importing the results file into the round would record or correct, every problem
    per row and column (the engine's too), and the round's table after it; nothing is saved."""
    _guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    return _dry_run(
        lambda: _results_plan(event, stage, round, sheet, by, "preview", reason, now)[0]
    )


def results_import(
    *,
    event: Event,
    stage: str,
    round: int,
    sheet: Sheet,
    by: Any,
    token: str,
    reason: str = "",
    now: dt.datetime | None = None,
) -> list[Result]:
    """Records every row of the results file through ``result_record`` (or corrects a current
    result, given a reason), all or nothing (``ImportRefused``)."""
    _guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        event = _locked(event)
        _once(event, "results.import", token)
        plan, made = _results_plan(event, stage, round, sheet, by, token, reason, now)
        if not plan.ok:
            raise ImportRefused(plan.issues)
        audit(
            event=event,
            actor=by,
            action="results.import",
            target=f"{stage} {round}",
            token=token,
            file=sheet.name,
            stage=stage,
            round=round,
            reason=reason,
            recorded=plan.count("record"),
            corrected=plan.count("correct"),
            unchanged=plan.count("unchanged"),
        )
    return made


# --- ChGK tours in the rating site's shape ---------------------------------------------------


@dataclass
class TourRow:
    team: RatingTeam
    entry: Entry | None = None
    issues: list[Issue] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    action: str = ""  # "recorded", "corrected", "unchanged" (or "skipped": no such team)
    taken: int | None = None
    place: str = ""
    unmatched: bool = False  # no entry of the stage has this name


@dataclass
class TourPlan:
    stage: Stage
    round: int
    rows: list[TourRow]
    general: list[Issue]
    notes: list[str] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)

    @property
    def issues(self) -> list[Issue]:
        return self.general + [i for r in self.rows for i in r.issues]

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def unmatched(self) -> list[TourRow]:
        return [r for r in self.rows if r.unmatched]

    def count(self, action: str) -> int:
        return sum(r.action == action for r in self.rows)

    @property
    def counts(self) -> dict[str, int]:
        return {a: self.count(a) for a in ACTIONS}


def team_key(name: str) -> str:
    """A team name as matched: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


def _tour_rows(event: Event, stage: ChgkTourStage, rating: RatingFile, skip: bool) -> list[TourRow]:
    entries: dict[str, list[Entry]] = defaultdict(list)
    for entry in stage_entries(event, stage):
        entries[team_key(entry.name)].append(entry)
    rows = []
    seen: dict[int, int] = {}
    for team in rating.teams:
        row = TourRow(team)
        rows.append(row)
        label = _("team %(n)d") % {"n": team.index}
        for problem in team.problems:
            row.issues.append(Issue(team.index, "", problem))
        if not team.name:
            continue
        found = entries.get(team_key(team.name), [])
        if len(found) > 1:
            numbers = ", ".join(f"#{e.number}" for e in found)
            row.issues.append(
                Issue(
                    team.index,
                    "name",
                    _("“%(name)s” names several entries (%(numbers)s)")
                    % {"name": team.name, "numbers": numbers},
                )
            )
            continue
        if not found:
            row.unmatched = True
            if skip:
                row.action = "skipped"
            else:
                row.issues.append(
                    Issue(
                        team.index,
                        "name",
                        _(
                            "“%(name)s” is not a team of %(stage)s: register it first, or import "
                            "without the teams that are not entries"
                        )
                        % {"name": team.name, "stage": stage.title},
                    )
                )
            continue
        entry = found[0]
        if entry.pk in seen:
            row.issues.append(
                Issue(
                    team.index,
                    "name",
                    _("“%(name)s” is already %(label)s")
                    % {"name": team.name, "label": _("team %(n)d") % {"n": seen[entry.pk]}},
                )
            )
            continue
        seen[entry.pk] = team.index
        row.entry = entry
        if team.mask is None and not team.problems:
            row.issues.append(
                Issue(
                    team.index,
                    "mask",
                    _("%(label)s has no mask: Podium records a tour question by question")
                    % {"label": label},
                )
            )
    return rows


def _sheet_issues(rows: list[TourRow], refused: SheetRefused) -> list[Issue]:
    """The tour sheet's problems (each led by the team's label) on the rows of their teams."""
    general = []
    for text in refused.problems:
        row = next(
            (r for r in rows if r.entry is not None and text.startswith(f"#{r.entry.number} ")),
            None,
        )
        if row is None:
            general.append(Issue(None, "", text))
        else:
            row.issues.append(Issue(row.team.index, "mask", text))
    return general


def _tour_plan(
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    key: str,
    reason: str,
    skip: bool,
    now: dt.datetime,
) -> TourPlan:
    the_stage = _results_stage(event, stage, round)
    if not isinstance(the_stage, ChgkTourStage):
        raise Refused(_("ChGK results are imported into a ChGK tour stage."), field="stage")
    rows = _tour_rows(event, the_stage, rating, skip)
    plan = TourPlan(the_stage, round, rows, [], list(rating.notes))
    if rating.questions is not None and rating.questions != the_stage.questions:
        plan.general.append(
            Issue(
                None,
                "",
                _("The sheet has %(file)d questions; a tour of %(stage)s has %(n)d.")
                % {"file": rating.questions, "stage": the_stage.title, "n": the_stage.questions},
            )
        )
    masks = {r.entry: r.team.mask or "" for r in rows if r.entry is not None and not r.issues}
    if plan.issues or not masks:
        if not masks and not plan.issues:
            plan.general.append(
                Issue(None, "", _("No team of the file is an entry of this stage."))
            )
        return plan
    try:
        done = tour_sheet_record(
            event=event,
            stage=stage,
            round=round,
            masks=masks,
            by=by,
            idempotency_key=key,
            reason=reason,
            now=now,
        )
    except SheetRefused as refused:
        plan.general += _sheet_issues(rows, refused)
        return plan
    actions = {d.entry.pk: d.action for d in done}
    for row in rows:
        if row.entry is not None:
            row.action = actions.get(row.entry.pk, "unchanged")
    standings = standings_as_of(event, stage, round)
    places = {row.entry.id: row for table in standings.tables for row in table.rows}
    for row in rows:
        if row.entry is None:
            continue
        ranked = places.get(str(row.entry.number))
        if ranked is None:
            continue
        taken = ranked.entry.metrics.get("questions")
        row.taken = None if taken is None else int(taken)
        row.place = (
            f"{ranked.rank}–{ranked.rank_to}" if ranked.rank_to != ranked.rank else str(ranked.rank)
        )
        team = row.team
        if team.questions_total is not None and team.questions_total != row.taken:
            row.notes.append(
                _("the file says %(file)d taken; the mask has %(taken)s")
                % {"file": team.questions_total, "taken": row.taken}
            )
        if team.position is not None and float(team.position) != float(
            position(ranked.rank, ranked.rank_to)
        ):
            row.notes.append(
                _("the file gives position %(file)s; Podium places it %(place)s")
                % {"file": team.position, "place": position(ranked.rank, ranked.rank_to)}
            )
    plan.tables, problems = live_tables(event, the_stage, round)
    plan.notes += problems
    return plan


def chgk_preview(
    *,
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    reason: str = "",
    skip_unmatched: bool = False,
    now: dt.datetime | None = None,
) -> TourPlan:
    """What importing the teams' masks into the tour would record (teams matched to entries
    by name, case-insensitively), every problem, and the tour's table after it; nothing is
    saved."""
    _guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    return _dry_run(
        lambda: _tour_plan(
            event, stage, round, rating, by, "import-preview", reason, skip_unmatched, now
        )
    )


def chgk_import(
    *,
    event: Event,
    stage: str,
    round: int,
    rating: RatingFile,
    by: Any,
    token: str,
    reason: str = "",
    skip_unmatched: bool = False,
    now: dt.datetime | None = None,
) -> TourPlan:
    """Records the masks as the tour's sheet (``tour_sheet_record``: all or nothing); a team
    that is not an entry refuses the import unless ``skip_unmatched``."""
    _guard(event, by)
    now = now or timezone.now()
    reason = reason.strip()
    with transaction.atomic():
        event = _locked(event)
        _once(event, "chgk.import", token)
        plan = _tour_plan(
            event, stage, round, rating, by, f"import-{token}"[:90], reason, skip_unmatched, now
        )
        if not plan.ok:
            raise ImportRefused(plan.issues)
        audit(
            event=event,
            actor=by,
            action="chgk.import",
            target=f"{stage} {round}",
            token=token,
            stage=stage,
            round=round,
            kind=rating.kind,
            reason=reason,
            teams={
                a: sorted(r.entry.number for r in plan.rows if r.action == a and r.entry)
                for a in ("recorded", "corrected", "unchanged")
            },
            skipped=[r.team.name for r in plan.rows if r.action == "skipped"],
        )
    return plan
