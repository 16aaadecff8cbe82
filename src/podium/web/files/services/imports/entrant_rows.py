"""Entrants' rows: the column mapping checked, then each row of a sheet read into an entrant
and checked against the rulebook's rules a row meets by itself — its size, names, texts,
eligibility and group (see ``podium.web.files.services.imports``). What needs the whole file or
the event's entries is checked in ``entrants``, and the registration service has the last word.

Vocabulary:
- member slot: the member a group of columns describes (``m0_…`` the first, ``m1_…`` the
  second…); a row's members are its slots with any cell filled.
- cells: the mapped cells of one row, each with the header of its column to name in a problem.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.rules.schema.registration import Category
from podium.web.files import fields as F
from podium.web.files.services.imports.common import Issue, column, extra_cells
from podium.web.kernel.texts import shown
from podium.web.models import Entry, Event, Squad
from podium.web.readers.tables import Sheet
from podium.web.registration.selectors.entries import category_of
from podium.web.registration.services.members import PersonData, member_verdict, typed_problem


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


class Cells:
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


def _text_issues(number: int, cell: Cells) -> list[Issue]:
    """The cells whose text cannot be saved as typed: a control or text-direction character,
    or longer than the database column (``podium.web.kernel.text``)."""
    issues = []
    for field_key in cell.index:
        problem = typed_problem(F.split_key(field_key)[1], cell(field_key))
        if problem is not None:
            issues.append(Issue(number, cell.column(field_key), problem))
    return issues


def _read_member(row: EntrantRow, cell: Cells, slot: int) -> None:
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


def _check_entrant(event: Event, row: EntrantRow, cell: Cells, category: Category) -> None:
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
    for member, slot in zip(row.members, row.slots, strict=True):
        birth_column = cell.column(F.key(slot, "birth_date"))
        if any(i.column == birth_column and birth_column for i in row.issues):
            continue  # the date itself is wrong; said already
        verdict = member_verdict(event, member.birth_date, accompanied=bool(row.adult))
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


def read_entrants(
    event: Event, sheet: Sheet, mapping: Mapping[int, str], category: str
) -> list[EntrantRow]:
    slots = member_slots(event)
    squads = {s.name.casefold(): s for s in Squad.objects.filter(event=event)}
    categories = _category_keys(event)
    rows = []
    for number, cells in sheet.rows:
        row = EntrantRow(row=number)
        cell = Cells(sheet, mapping, cells)
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
