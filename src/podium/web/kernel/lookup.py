"""Finding what a request names — an event the user may work on, the events anyone may see, a
stage and a round of an event — and locking an event for a write.

Vocabulary:
- staff page: a page for the organizers (or also the referees) of ONE event; for anyone else,
  the event does not exist (404), so nothing about it leaks.
- public event: any event but a draft, in the order of their start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from podium.rules.schema.stages import Stage
from podium.web.kernel.stages import has_calendar, rounds_of
from podium.web.models import Event

S = TypeVar("S")


def event_for(request: HttpRequest, slug: str, allowed: Callable[[Any, Event], bool]) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None or not allowed(request.user, event):
        raise Http404
    return event


def public_events() -> QuerySet[Event]:
    return Event.objects.exclude(status=Event.Status.DRAFT).order_by("starts_at", "slug")


def locked_event(pk: int) -> Event:
    """The event's row, locked until the transaction ends. Every write that checks a rule of
    the event against what is stored takes this lock first, so two writes of one event (two
    referees' taps, a registration and a cancellation) run one after the other and each sees
    what the other wrote."""
    return Event.objects.select_for_update().get(pk=pk)


@overload
def stage_or_404(event: Event, key: str) -> Stage: ...


@overload
def stage_or_404(event: Event, key: str, kind: type[S]) -> S: ...


def stage_or_404(event: Event, key: str, kind: type[Any] | None = None) -> Any:
    """The stage ``key`` of the event's rulebook, of the ``kind`` a page works on where it says
    one; an unknown key, or a stage of another kind, is a page that does not exist (404)."""
    try:
        stage = event.rulebook.stage(key)
    except KeyError:
        raise Http404 from None
    if kind is not None and not isinstance(stage, kind):
        raise Http404
    return stage


def round_or_404(event: Event, stage: Stage, round: int) -> None:
    """A round the stage has: one on the calendar (ChGK tours), else round 1 only."""
    known = [r.number for r in rounds_of(event, stage)] if has_calendar(stage) else [1]
    if round not in known:
        raise Http404
