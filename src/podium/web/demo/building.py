"""What every demo event is built with: the event from its preset, its staff's roles, its
entries numbered in order, and the summary of a run for the command to print."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

from podium.rules.loader import preset_text
from podium.web.models import Entry, EntryMember, Event, EventRole, Person


@dataclass
class Summary:
    """What one run created, for the command to print."""

    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Builder:
    """Adds entries to one event, numbering them in order."""

    def __init__(self, event: Event, by: Any) -> None:
        self.event = event
        self.by = by
        self.number = 0

    def entry(
        self, category: str, name: str, members: list[Person], status: str, **fields: Any
    ) -> Entry:
        self.number += 1
        entry = Entry.objects.create(
            event=self.event,
            category=category,
            name=name,
            number=self.number,
            status=status,
            registered_by=fields.pop("registered_by", self.by),
            **fields,
        )
        EntryMember.objects.bulk_create(
            EntryMember(entry=entry, person=p, captain=(i == 0)) for i, p in enumerate(members)
        )
        return entry


def at(day: dt.date, hour: int, minute: int, zone: str) -> dt.datetime:
    """The moment ``hour:minute`` of ``day`` in the time zone ``zone``."""
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zoneinfo.ZoneInfo(zone))


def new_event(
    slug: str,
    preset: str,
    title: str,
    starts_at: dt.datetime,
    venue: str,
    language: str,
    status: str,
    rulebook_text: str | None = None,
) -> Event:
    """The event of ``preset`` (its rulebook text, or ``rulebook_text`` when given)."""
    rulebook_text = rulebook_text or preset_text(preset)
    event = Event.objects.create(
        slug=slug,
        title=title,
        rulebook_key=preset,
        rulebook_text=rulebook_text,
        starts_at=starts_at,
        timezone=str(starts_at.tzinfo),
        venue=venue,
        language=language,
        status=status,
    )
    event.rulebook  # noqa: B018 — parse now: a demo rulebook that does not load is a bug
    return event


def give_roles(event: Event, accounts: dict[str, Any]) -> None:
    """The demo's organizer, head referee and two referees are the event's."""
    EventRole.objects.create(event=event, user=accounts["organizer"], role=EventRole.Role.ORGANIZER)
    EventRole.objects.create(event=event, user=accounts["head"], role=EventRole.Role.HEAD_REFEREE)
    for who in ("referee", "scorer"):
        EventRole.objects.create(event=event, user=accounts[who], role=EventRole.Role.REFEREE)


def pair_name(a: Person, b: Person) -> str:
    return f"{a.last_name} / {b.last_name}"
