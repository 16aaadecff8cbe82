"""Where a signed-in person works: "my places", for the top bar, its phone menu and the desk index.

Vocabulary:
- place: a page that one of the person's roles opens for one event — the check-in desk and the
  results console (any staff), the desks of the formats the rulebook records (the ChGK grid,
  bowling lane sheets, battles), the checks (head referees and organizers), the jury desk (jury
  members) and the organizer's dashboard.
- landing: the page a log-in leads to when it names none: the person's own work.
- my places: every event where the person holds a role, newest first, each with its places;
  read in one query whatever the number of events and roles (rulebooks are parsed once per
  process, see ``podium.web.models.events``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from podium.web.kernel.roles import HEAD, STAFF
from podium.web.models import Event, EventRole

# The format → (the desk's URL name, its label) of the desks a referee records on.
_FORMAT_DESKS = {
    "chgk-tour": ("chgk:index", gettext_noop("ChGK grid")),
    "games": ("bowling:index", gettext_noop("Bowling desk")),
    "head-to-head": ("battles:stages", gettext_noop("Battles")),
    "superfinal": ("battles:stages", "Battles"),
}


@dataclass(frozen=True)
class Place:
    label: str
    url: str


@dataclass(frozen=True)
class EventPlaces:
    event: Event
    roles: frozenset[str]
    places: tuple[Place, ...]

    @property
    def is_staff(self) -> bool:
        return bool(self.roles & set(STAFF))

    @property
    def roles_shown(self) -> list[str]:
        return [str(EventRole.Role(r).label) for r in sorted(self.roles)]


def _places(event: Event, roles: frozenset[str]) -> tuple[Place, ...]:
    slug = event.slug
    found: list[Place] = []
    if roles & set(STAFF):
        found.append(Place(_("Check-in desk"), reverse("desk:desk", args=[slug])))
        found.append(Place(_("Results console"), reverse("results:index", args=[slug])))
        seen = set()
        for stage in event.rulebook.stages:
            desk = _FORMAT_DESKS.get(stage.format)
            if desk is not None and desk[0] not in seen:
                seen.add(desk[0])
                found.append(Place(_(desk[1]), reverse(desk[0], args=[slug])))
    if roles & set(HEAD):
        found.append(Place(_("Checks"), reverse("checks:index", args=[slug])))
    if EventRole.Role.JURY in roles:
        found.append(Place(_("Jury desk"), reverse("jury:index", args=[slug])))
    if EventRole.Role.ORGANIZER in roles:
        found.append(Place(_("Organize"), reverse("organizer:dashboard", args=[slug])))
    return tuple(found)


@dataclass(frozen=True)
class MyPlaces:
    events: list[EventPlaces]

    @property
    def staff(self) -> bool:
        """Whether any event has the person at its desks (the desk index is theirs)."""
        return any(e.is_staff for e in self.events)

    @property
    def organizes(self) -> bool:
        """Whether the person organizes any event (the top bar then shows *Organize*)."""
        return any(EventRole.Role.ORGANIZER in e.roles for e in self.events)

    def landing(self) -> str:
        """Where a log-in leads (without a ``next``): the person's own work — the events they
        organize, else their desks, else the jury desk, else their entries."""
        if self.organizes:
            return reverse("organizer:events")
        if self.staff:
            return reverse("desk:index")
        for event in self.events:
            if EventRole.Role.JURY in event.roles:
                return reverse("jury:index", args=[event.event.slug])
        return reverse("participant:entries")

    @property
    def elsewhere(self) -> list[EventPlaces]:
        """The events the person staffs or judges without organizing them."""
        return [e for e in self.events if EventRole.Role.ORGANIZER not in e.roles]

    def __iter__(self) -> Iterator[EventPlaces]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)


def my_places(user: Any) -> MyPlaces:
    """The events where ``user`` holds a role, newest first, each with the pages it opens."""
    if user is None or not user.is_authenticated:
        return MyPlaces([])
    roles: dict[int, set[str]] = {}
    events: dict[int, Event] = {}
    rows = EventRole.objects.filter(user=user).select_related("event")
    for row in rows.order_by("-event__starts_at", "event__title", "role"):
        events.setdefault(row.event_id, row.event)
        roles.setdefault(row.event_id, set()).add(row.role)
    return MyPlaces(
        [
            EventPlaces(event, frozenset(roles[pk]), _places(event, frozenset(roles[pk])))
            for pk, event in events.items()
        ]
    )
