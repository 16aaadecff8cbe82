"""The tour calendar: the organizer lists each ChGK tour stage's rounds and adds the next tour.

Organizers only; anyone else gets 404.

Vocabulary:
- calendar stage: a stage that sits in several rounds set on the calendar (``has_calendar``).
- round, host: see ``podium.web.models.rounds``; dates and times are shown and typed in the
  event's time zone.
- drawn host: the host team a ``tour-hosts`` draw of the stage gives the next tour; it is the
  form's default, and the organizer may choose another.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema import Stage
from podium.web.forms.chgk import TourForm
from podium.web.models import Draw, Entry, Event, Round
from podium.web.selectors.draws import event_draws
from podium.web.selectors.roles import is_organizer
from podium.web.selectors.stages import has_calendar, rounds_of, stage_entries
from podium.web.services.base import Refused
from podium.web.services.rounds import round_add
from podium.web.views.common import event_for, refuse_on

app_name = "calendar"

WEEK = dt.timedelta(days=7)


def _drawn_host(
    event: Event, stage: Stage, number: int, entries: QuerySet[Entry]
) -> tuple[Entry, Draw] | None:
    """The host of tour ``number`` by the stage's current host draw, if it has one."""
    draw = event_draws(event).filter(kind="tour-hosts", stage=stage.key).first()
    if draw is None:
        return None
    hosts = {str(tour): team for tour, team in draw.result.get("outcome", {}).get("hosts", [])}
    host = entries.filter(pk=hosts.get(str(number))).first()
    return (host, draw) if host is not None else None


def _block(event: Event, stage: Stage, bound: TourForm | None) -> dict[str, Any]:
    rounds = rounds_of(event, stage)
    entries = stage_entries(event, stage)
    number = (rounds[-1].number if rounds else 0) + 1
    drawn = _drawn_host(event, stage, number, entries)
    # The next tour's default: a week after the last one, else the event's start.
    start = (rounds[-1].starts_at + WEEK if rounds else event.starts_at).astimezone(event.zone)
    form = bound or TourForm(
        entries,
        prefix=stage.key,
        initial={"date": start.date(), "time": start.time(), "host": drawn[0] if drawn else None},
    )
    return {"stage": stage, "rounds": rounds, "next": number, "drawn": drawn, "form": form}


def _page(
    request: HttpRequest,
    event: Event,
    bound: TourForm | None = None,
    bound_stage: str = "",
    status: int = 200,
) -> HttpResponse:
    blocks = [
        _block(event, s, bound if s.key == bound_stage else None)
        for s in event.rulebook.stages
        if has_calendar(s)
    ]
    context = {"event": event, "blocks": blocks}
    return render(request, "podium/calendar/index.html", context, status=status)


def _event(request: HttpRequest, slug: str) -> Event:
    return event_for(request, slug, is_organizer)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, _event(request, slug))


@login_required
@require_POST
def add(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = _event(request, slug)
    try:
        the_stage = event.rulebook.stage(stage)
    except KeyError:
        raise Http404 from None
    if not has_calendar(the_stage):
        raise Http404
    form = TourForm(stage_entries(event, the_stage), request.POST, prefix=stage)
    if not form.is_valid():
        return _page(request, event, form, stage, status=400)
    try:
        made: Round = round_add(
            event=event,
            stage=stage,
            starts_at=form.starts_at(event.zone),
            by=request.user,
            title=form.cleaned_data["title"],
            host=form.cleaned_data["host"],
        )
    except Refused as refused:
        refuse_on(form, refused)
        return _page(request, event, form, stage, status=400)
    messages.success(
        request,
        _("Tour %(number)d is on the calendar: %(when)s.")
        % {
            "number": made.number,
            "when": date_format(made.starts_at.astimezone(event.zone), "DATETIME_FORMAT"),
        },
    )
    return redirect("calendar:index", slug=slug)


urlpatterns = [
    path("", index, name="index"),
    path("<str:stage>/add/", add, name="add"),
]
