"""Finding what a request names: an event the user may work on, the events anyone may see.

Vocabulary:
- staff page: a page for the organizers (or also the referees) of ONE event; for anyone else,
  the event does not exist (404), so nothing about it leaks.
- public event: any event but a draft, in the order of their start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from podium.web.models import Event


def event_for(request: HttpRequest, slug: str, allowed: Callable[[Any, Event], bool]) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None or not allowed(request.user, event):
        raise Http404
    return event


def public_events() -> QuerySet[Event]:
    return Event.objects.exclude(status=Event.Status.DRAFT).order_by("starts_at", "slug")
