"""Entrants from a spreadsheet, through the registration rules (see
``podium.web.files.services.imports``)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.engine import eligibility
from podium.rules.schema.registration import Category
from podium.web.files import fields as F
from podium.web.files.services.imports.common import (
    Checked,
    ImportRefused,
    Issue,
    column,
    dry_run,
    extra_cells,
    guard,
    once,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.text import limit, text_problem
from podium.web.kernel.texts import shown
from podium.web.models import Entry, EntryMember, Event, Person, Squad
from podium.web.readers.tables import Sheet
from podium.web.registration.selectors.entries import category_cap, category_of, division_title
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register

# The cells saved as they are typed, each with the model whose column holds it; the others
# are read into a category, a date, a country… (their characters are checked all the same).
SAVED_AS_TYPED = {
    "first_name": Person,
    "last_name": Person,
    "email": Person,
    "name": Entry,
    "accompanying_adult": Entry,
}

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
class EntrantsPlan(Checked):
    sheet: Sheet
    rows: list[EntrantRow]
    general: list[Issue]

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
                    column(sheet, index),
                    _("“%(field)s” is already the field of column “%(other)s”.")
                    % {"field": F.label(field_key), "other": column(sheet, seen[field_key])},
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
        return column(self.sheet, index) if index is not None else ""


def _text_issues(number: int, cell: _Cells) -> list[Issue]:
    """The cells whose text cannot be saved as typed: a control or text-direction character,
    or longer than the database column (``podium.web.kernel.text``)."""
    issues = []
    for field_key in cell.index:
        name = F.split_key(field_key)[1]
        model = SAVED_AS_TYPED.get(name)
        problem = text_problem(cell(field_key), most=limit(model, name) if model else None)
        if problem is not None:
            issues.append(Issue(number, cell.column(field_key), problem))
    return issues


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
                "reason": shown(failure),
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
        extra = extra_cells(sheet, number)
        if extra:
            row.issues.append(extra)
        row.issues += _text_issues(number, cell)
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
    messages = {refusal_text(r) for _row, r in refused if not r.field}
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
        row.issues.append(Issue(row.row, column, refusal_text(exc)))
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
    guard(event, by)
    now = now or timezone.now()
    return dry_run(lambda: _entrants_plan(event, sheet, mapping, category, by, now))


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
    guard(event, by)
    now = now or timezone.now()
    with transaction.atomic():
        event = locked_event(event.pk)
        once(event, "entries.import", token)
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
            mapping={column(sheet, i): k for i, k in mapping.items() if k},
        )
    return entries
