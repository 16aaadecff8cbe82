"""Who may do what for one event: the roles a user holds there (never across events).

Vocabulary:
- role: organizer, head referee, referee or jury member of ONE event (``EventRole``).
- staff: the organizers, head referees and referees of the event (the check-in desk, payments,
  results).
- head referee: confirms results, resolves mismatches between two entries, corrects a result
  the competitor agreed with; an organizer may do all of it too.
- confirmer of a stage: whoever its rulebook lets confirm a result (``recording.confirmed_by``:
  head referees and organizers unless it says otherwise, jury members where it names them).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from podium.rules.schema.stages import Recording
from podium.web.models import Event, EventRole

STAFF = (EventRole.Role.ORGANIZER, EventRole.Role.HEAD_REFEREE, EventRole.Role.REFEREE)
HEAD = (EventRole.Role.ORGANIZER, EventRole.Role.HEAD_REFEREE)


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


def is_head_referee(user: Any, event: Event) -> bool:
    """A head referee of the event, or an organizer (who may do everything)."""
    return has_role(user, event, *HEAD)


def organized_by(user: Any) -> QuerySet[Event]:
    return Event.objects.filter(roles__user=user, roles__role=EventRole.Role.ORGANIZER).distinct()


def staffed_by(user: Any) -> QuerySet[Event]:
    return Event.objects.filter(roles__user=user, roles__role__in=STAFF).distinct()


def event_roles(event: Event) -> QuerySet[EventRole]:
    return event.roles.select_related("user").order_by("role", "user__username")


def confirmer_roles(recording: Recording) -> tuple[str, ...]:
    """The event roles that may confirm a result of a stage recorded under ``recording``."""
    return tuple(str(EventRole.Role(r)) for r in recording.confirmed_by)


def may_confirm(user: Any, event: Event, recording: Recording) -> bool:
    return has_role(user, event, *confirmer_roles(recording))


def may_confirm_any(user: Any, event: Event) -> bool:
    """Whether ``user`` confirms the results of at least one stage of the event."""
    held = roles_of(user, event)
    return any(held & set(confirmer_roles(s.recording)) for s in event.rulebook.stages)


def confirmers_text(recording: Recording) -> str:
    """Who confirms, in words: "head referee, organizer or jury member"."""
    names = [str(EventRole.Role(r).label) for r in recording.confirmed_by]
    if len(names) == 1:
        return names[0]
    return _("%(first)s or %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
