"""Entrants from a spreadsheet, through the registration rules (see
``podium.web.files.services.imports``): the rows read and checked one by one
(``entrant_rows``), then the checks that need the whole file — the same person or team twice,
or already registered, and the categories' caps — and the registration service itself, row by
row in file order.

Vocabulary:
- plan: what the import makes (in a preview: would make) of each row, with every problem.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from podium.web.files import fields as F
from podium.web.files.services.imports.common import (
    Checked,
    ImportRefused,
    Issue,
    column,
    dry_run,
    guard,
    once,
)
from podium.web.files.services.imports.entrant_rows import (
    Cells,
    EntrantRow,
    mapping_issues,
    read_entrants,
)
from podium.web.kernel.audit import audit
from podium.web.kernel.lookup import locked_event
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.models import Entry, EntryMember, Event
from podium.web.readers.tables import Sheet
from podium.web.registration.selectors.entries import (
    active_count,
    category_cap,
    category_of,
    division_title,
)
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register


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


# --- the whole file ---------------------------------------------------------------------------


def _person_key(data: PersonData) -> tuple[str, str]:
    return data.first_name.strip().casefold(), data.last_name.strip().casefold()


def _same_birth(a: dt.date | None, b: dt.date | None) -> bool:
    return a is None or b is None or a == b


def _check_file(
    event: Event, sheet: Sheet, mapping: Mapping[int, str], rows: list[EntrantRow]
) -> None:
    """Duplicates within the file and against the event's entries, and the categories' caps;
    each row's problems in that order."""
    cell = Cells(sheet, mapping, ())
    placed = [row for row in rows if row.category]
    _check_people(event, cell, placed)
    _check_team_names(event, cell, placed)
    _check_caps(event, cell, placed)


def _check_people(event: Event, cell: Cells, rows: list[EntrantRow]) -> None:
    """A member on an earlier row of the file, or registered in the category before (by name;
    a birth date tells two people apart only where both have one)."""
    registered: dict[tuple[str, str, str], list[tuple[dt.date | None, Entry]]] = defaultdict(list)
    members = EntryMember.objects.filter(entry__event=event).exclude(
        entry__status=Entry.Status.CANCELLED
    )
    for m in members.select_related("entry", "person"):
        first, last = m.person.first_name.casefold(), m.person.last_name.casefold()
        registered[(m.entry.category, first, last)].append((m.person.birth_date, m.entry))
    seen: dict[tuple[str, str, str], list[tuple[dt.date | None, int]]] = defaultdict(list)
    for row in rows:
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


def _check_team_names(event: Event, cell: Cells, rows: list[EntrantRow]) -> None:
    """A team's name on an earlier row of the file, or of a team registered in the category."""
    team_names = {
        (e.category, e.name.casefold()): e
        for e in Entry.objects.filter(event=event).exclude(status=Entry.Status.CANCELLED)
    }
    names_seen: dict[tuple[str, str], int] = {}
    for row in rows:
        category = category_of(event, row.category)
        if not row.name or category is None or category.entrants.kind == "individual":
            continue
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


def _check_caps(event: Event, cell: Cells, rows: list[EntrantRow]) -> None:
    """The rows beyond a category's cap, counting its active entries and the file's rows before
    (an import takes places only: it puts no one on the waiting list)."""
    taken = {c.key: active_count(event, c.key) for c in event.rulebook.categories}
    in_file: dict[str, int] = defaultdict(int)
    for row in rows:
        cap = category_cap(event, row.category)
        if cap is None:
            continue
        in_file[row.category] += 1
        if taken[row.category] + in_file[row.category] > cap:
            category = category_of(event, row.category)
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


# --- registering -----------------------------------------------------------------------------


# The field a refusal of the registration service names → the mapped field whose column shows it.
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
    cell = Cells(sheet, mapping, ())
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
    rows = read_entrants(event, sheet, mapping, category)
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
