"""What the views share: finding an event the user may work on, and showing a refusal.

Vocabulary:
- staff page: a page for the organizers (or also the referees) of ONE event; for anyone else,
  the event does not exist (404), so nothing about it leaks.
- refusal: a service's ``Refused``, shown with the rulebook clause behind it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest

from podium.web.models import Event
from podium.web.services.base import Refused, refusal_text

__all__ = ["event_for", "refusal_text", "refuse_on"]


def event_for(request: HttpRequest, slug: str, allowed: Callable[[Any, Event], bool]) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None or not allowed(request.user, event):
        raise Http404
    return event


def refuse_on(form: Any, refused: Refused) -> None:
    """Shows a refusal on the form: next to the field it names, else above the form."""
    field = refused.field if refused.field in form.fields else None
    form.add_error(field, refusal_text(refused))
