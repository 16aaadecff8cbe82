"""Reading entries: waiting lists, a participant's own entries, an organizer's lists.

Vocabulary:
- waiting list: the ``waiting`` entries of one category of an event, by ``waiting_position``.
- active: pending or confirmed entries; these count against a category's (or squad's) cap.
- places left: the cap minus the active entries; ``None`` where the rulebook sets no cap.
- roster: an entry's members with their people, read for any number of entries in one query
  (``roster()``), so a page that lists entries never reads them entry by entry.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from podium.rules.schema.registration import Category
from podium.rules.schema.stages import GamesStage
from podium.web.models import Entry, EntryMember, Event, Squad


def roster() -> Prefetch:
    """The prefetch of ``entry.members`` with each member's person in the same query. (Django's
    ``members__person`` reads the people in a second query, which on SQLite names every person
    in a chain of ORs that fails beyond about a thousand of them.)"""
    return Prefetch("members", queryset=EntryMember.objects.select_related("person"))


def waiting_list(event: Event, category: str) -> list[Entry]:
    """The waiting entries of a category, first in line first."""
    return list(
        event.entries.filter(category=category, status=Entry.Status.WAITING)
        .order_by("waiting_position", "number")
        .prefetch_related(roster())
    )


def category_of(event: Event, key: str) -> Category | None:
    return next((c for c in event.rulebook.categories if c.key == key), None)


def category_cap(event: Event, key: str) -> int | None:
    category = category_of(event, key)
    if category is not None and category.cap is not None:
        return category.cap
    return event.rulebook.registration.cap


def active_count(event: Event, category: str) -> int:
    return Entry.objects.filter(event=event, category=category, status__in=Entry.ACTIVE).count()


def places_left(event: Event, category: str) -> int | None:
    cap = category_cap(event, category)
    return None if cap is None else max(cap - active_count(event, category), 0)


def squad_places_left(squad: Squad) -> int:
    taken = Entry.objects.filter(squad=squad, status__in=Entry.ACTIVE).count()
    return max(squad.capacity - taken, 0)


def entries_of_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Entry]:
    """A participant's own entries: those they registered or are a member of, in events that
    are not drafts (an archive's copy, an event being prepared)."""
    if not user.is_authenticated:
        return Entry.objects.none()
    return (
        Entry.objects.filter(Q(registered_by=user) | Q(members__person__user=user))
        .exclude(event__status=Event.Status.DRAFT)
        .distinct()
        .select_related("event", "squad", "cancellation")
        .order_by("-registered_at", "-id")
    )


def own_entry(user: AbstractBaseUser | AnonymousUser, pk: int) -> Entry | None:
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(pk=pk, registered_by=user).select_related("event", "squad").first()


def entries_by_category(event: Event) -> list[tuple[Category, list[Entry], list[Entry]]]:
    """Per category of the rulebook: its non-waiting entries and its waiting list."""
    rows = []
    for category in event.rulebook.categories:
        entries = list(
            event.entries.filter(category=category.key)  # each knows its event
            .exclude(status=Entry.Status.WAITING)
            .select_related("squad")
            .prefetch_related(roster())
            .order_by("number")
        )
        rows.append((category, entries, waiting_list(event, category.key)))
    return rows


def division_title(entry: Entry) -> str:
    divisions = entry.event.rulebook.divisions
    if not entry.division or divisions is None:
        return ""
    return next((d.title for d in divisions.items if d.key == entry.division), entry.division)


def can_add_players(entry: Entry) -> bool:
    """A roster that may still grow: the rulebook allows it and the entry is not cancelled."""
    category = category_of(entry.event, entry.category)
    return bool(
        category is not None
        and category.entrants.players_added_any_time
        and entry.status != Entry.Status.CANCELLED
    )


def squad_players(event: Event, squad: Squad, stage: GamesStage) -> QuerySet[Entry]:
    return squads_players(event, stage).filter(squad=squad)


def squads_players(event: Event, stage: GamesStage) -> QuerySet[Entry]:
    """The confirmed players of the stage in every squad, by number."""
    entries = Entry.objects.filter(event=event, squad__isnull=False, status=Entry.Status.CONFIRMED)
    if stage.category:
        entries = entries.filter(category=stage.category)
    return entries.order_by("number")
