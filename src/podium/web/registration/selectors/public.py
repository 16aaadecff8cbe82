"""Reading what anyone may see of an event: places left and entry lists.

Vocabulary:
- places left: a category's cap (or the squads' capacity) minus its active entries.
- table of entries: the confirmed entries of one category in one group, division or squad.
- outside mark: why an entry is shown outside the official order (a foreign entrant in a
  rulebook with a home country, a team playing outside the scored competition).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from podium.engine.classification import is_domestic
from podium.rules import schema as s
from podium.web.kernel.texts import money, rt
from podium.web.models import Entry, Event
from podium.web.registration.selectors.entries import roster


@dataclass
class CategoryState:
    key: str
    title: str
    kind: str
    cap: int | None
    active: int
    confirmed: int
    pending: int
    waiting: int
    register_url: str

    @property
    def places_left(self) -> int | None:
        return None if self.cap is None else max(self.cap - self.active, 0)


def register_url(event: Event, category: str) -> str:
    try:
        return reverse("participant:register", kwargs={"slug": event.slug, "category": category})
    except NoReverseMatch:
        return f"/me/register/{event.slug}/{category}/"


def category_states(event: Event) -> list[CategoryState]:
    """Per category of the rulebook: the cap, the active, confirmed and waiting entries."""
    rulebook = event.rulebook
    counts = {
        row["category"]: row
        for row in event.entries.values("category").annotate(
            active=Count("id", filter=Q(status__in=Entry.ACTIVE)),
            confirmed=Count("id", filter=Q(status=Entry.Status.CONFIRMED)),
            pending=Count("id", filter=Q(status=Entry.Status.PENDING)),
            waiting=Count("id", filter=Q(status=Entry.Status.WAITING)),
        )
    }
    squads_capacity = sum(event.squads.values_list("capacity", flat=True))
    states = []
    for category in rulebook.categories:
        row = counts.get(category.key, {})
        cap = category.cap or rulebook.registration.cap
        if cap is None and squads_capacity:
            cap = squads_capacity
        states.append(
            CategoryState(
                key=category.key,
                title=rt(category.title),
                kind=category.entrants.kind,
                cap=cap,
                active=row.get("active", 0),
                confirmed=row.get("confirmed", 0),
                pending=row.get("pending", 0),
                waiting=row.get("waiting", 0),
                register_url=register_url(event, category.key),
            )
        )
    return states


@dataclass
class SquadState:
    name: str
    starts_at: dt.datetime
    capacity: int
    active: int

    @property
    def places_left(self) -> int:
        return max(self.capacity - self.active, 0)


def squad_states(event: Event) -> list[SquadState]:
    squads = event.squads.annotate(
        active=Count("entry", filter=Q(entry__status__in=Entry.ACTIVE))
    ).order_by("starts_at", "name")
    return [SquadState(q.name, q.starts_at, q.capacity, q.active) for q in squads]


# --- Entry lists -----------------------------------------------------------------------------


@dataclass
class ListedEntry:
    entry: Entry
    members: list[str]
    countries: list[str]
    outside: str = ""
    division: str = ""


@dataclass
class EntryTable:
    title: str
    rows: list[ListedEntry] = field(default_factory=list)


@dataclass
class CategoryLists:
    key: str
    title: str
    tables: list[EntryTable]
    waiting: list[ListedEntry]
    pending: int
    official: int
    outside: int
    division_column: bool = False


def _outside_mark(event: Event, entry: Entry, countries: list[str]) -> str:
    rulebook = event.rulebook
    if not entry.scored:
        return _("outside the competition (unscored team)")
    domestic = rulebook.classification.domestic
    if (
        domestic is not None
        and countries
        and not is_domestic(countries, domestic.country, domestic.team_rule)
    ):
        return _("outside the official order (foreign)")
    return ""


def _listed(event: Event, entry: Entry) -> ListedEntry:
    members = [m.person for m in entry.members.all()]
    countries = [p.country for p in members if p.country]
    listed = ListedEntry(entry, [str(p) for p in members], countries)
    listed.outside = _outside_mark(
        event, entry, countries if len(countries) == len(members) else []
    )
    return listed


def _table_title(entry: Entry, division_titles: dict[str, str]) -> str:
    """A squad's entries make one table (their divisions in a column); else group, division."""
    parts = []
    if entry.squad_id:
        parts.append(str(entry.squad))
    if entry.group:
        parts.append(_("Group %(group)s") % {"group": entry.group})
    if entry.division and not entry.squad_id:
        title = division_titles.get(entry.division, entry.division)
        parts.append(_("Division %(division)s") % {"division": title})
    return " · ".join(parts)


def entry_lists(event: Event) -> list[CategoryLists]:
    """Confirmed entries per category and table (group, division, squad); the waiting list."""
    rulebook = event.rulebook
    division_titles = (
        {d.key: rt(d.title) for d in rulebook.divisions.items} if rulebook.divisions else {}
    )
    division_order = {key: i for i, key in enumerate(division_titles)}
    entries = (
        event.entries.filter(status__in=[Entry.Status.CONFIRMED, Entry.Status.WAITING])
        .select_related("squad")
        .prefetch_related(roster())
    )
    pending = Counter(
        event.entries.filter(status=Entry.Status.PENDING).values_list("category", flat=True)
    )
    by_category: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_category[entry.category].append(entry)
    result = []
    for category in rulebook.categories:
        confirmed = [e for e in by_category[category.key] if e.status == Entry.Status.CONFIRMED]
        confirmed.sort(
            key=lambda e: (
                e.squad.starts_at if e.squad else dt.datetime.min.replace(tzinfo=dt.UTC),
                e.group,
                division_order.get(e.division, 99),
                e.table_number or 0,
                e.number,
            )
        )
        tables: dict[str, EntryTable] = {}
        for entry in confirmed:
            title = _table_title(entry, division_titles)
            listed = _listed(event, entry)
            listed.division = division_titles.get(entry.division, entry.division)
            tables.setdefault(title, EntryTable(title)).rows.append(listed)
        waiting = sorted(
            (e for e in by_category[category.key] if e.status == Entry.Status.WAITING),
            key=lambda e: (e.waiting_position or 0, e.number),
        )
        rows = [row for table in tables.values() for row in table.rows]
        outside = sum(1 for row in rows if row.outside)
        result.append(
            CategoryLists(
                key=category.key,
                title=rt(category.title),
                tables=list(tables.values()),
                waiting=[_listed(event, e) for e in waiting],
                pending=pending.get(category.key, 0),
                official=len(rows) - outside,
                outside=outside,
                division_column=any(e.division and e.squad_id for e in confirmed),
            )
        )
    return result


# --- The rules in words ----------------------------------------------------------------------


def fee_lines(rulebook: s.Rulebook) -> list[dict[str, Any]]:
    return [
        {
            "title": rt(fee.title),
            "price": money(fee.price.amount, fee.price.currency),
            "due": rt(fee.due),
        }
        for fee in rulebook.fees
    ]
