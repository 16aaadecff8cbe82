"""Who may do what for one event: the roles a user holds there (never across events).

Vocabulary:
- role: organizer, referee or jury member of ONE event (``EventRole``).
- staff: the organizers and referees of the event (the check-in desk, payments, results).
"""

from __future__ import annotations

from typing import Any

from podium.web.models import Event, EventRole

STAFF = (EventRole.Role.ORGANIZER, EventRole.Role.REFEREE)


def roles_of(user: Any, event: Event) -> set[str]:
    if user is None or not user.is_authenticated:
        return set()
    return set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))


def has_role(user: Any, event: Event, *roles: str) -> bool:
    return bool(roles_of(user, event) & set(roles))


def is_organizer(user: Any, event: Event) -> bool:
    return has_role(user, event, EventRole.Role.ORGANIZER)


def is_staff(user: Any, event: Event) -> bool:
    return has_role(user, event, *STAFF)
