"""The tour calendar: the organizer lists each ChGK tour stage's rounds and adds the next tour.

Organizers only; anyone else gets 404.

Vocabulary:
- calendar stage: a stage that sits in several rounds set on the calendar (``has_calendar``).
- round, host: see ``podium.web.models.rounds``; dates and times are shown and typed in the
  event's time zone.
- drawn host: the host team a ``tour-hosts`` draw of the stage gives the next tour; it is the
  form's default, and the organizer may choose another.
- tour length: where the rulebook lets tours vary, each tour's number of questions, given when
  it is added (the last tour's by default) and changed on its row
  (``podium.web.chgk.services.rounds.round_questions_set``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.chgk.forms.tours import TourForm, TourLengthForm
from podium.web.chgk.services.rounds import round_add, round_questions_set
from podium.web.draws.selectors import event_draws
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.moments import moment_text
from podium.web.kernel.refusals import Refused, refuse_on
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.stages import has_calendar, rounds_of, stage_entries
from podium.web.models import Draw, Entry, Event, Round
from podium.web.results.selectors.tours import tour_lengths, varies

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


def _longest(stage: Stage) -> int | None:
    """``max_questions`` where each tour has its own length (``results.selectors.tours``), else
    None."""
    return stage.max_questions if isinstance(stage, ChgkTourStage) and varies(stage) else None


def _block(
    event: Event, stage: Stage, bound: TourForm | None, length: Bound | None
) -> dict[str, Any]:
    rounds = rounds_of(event, stage)
    entries = stage_entries(event, stage)
    number = (rounds[-1].number if rounds else 0) + 1
    drawn = _drawn_host(event, stage, number, entries)
    # The next tour's default: a week after the last one, else the event's start.
    start = (rounds[-1].starts_at + WEEK if rounds else event.starts_at).astimezone(event.zone)
    longest = _longest(stage)
    initial: dict[str, Any] = {
        "date": start.date(),
        "time": start.time(),
        "host": drawn[0] if drawn else None,
    }
    if longest is not None:
        # The next tour's length: the last tour's, else the rulebook's.
        last = rounds[-1].questions if rounds else None
        initial["questions"] = last or getattr(stage, "questions", None)
    form = bound or TourForm(entries, prefix=stage.key, initial=initial, max_questions=longest)
    lengths = []
    if longest is not None and isinstance(stage, ChgkTourStage):
        known = tour_lengths(event, stage, rounds)
        for r in rounds:
            given = length.form if length is not None and length.number == r.number else None
            lengths.append(
                given
                or TourLengthForm(
                    prefix=f"{stage.key}-{r.number}",
                    number=r.number,
                    initial={"questions": known[r.number]},
                    max_questions=longest,
                )
            )
    return {
        "stage": stage,
        "rounds": list(zip(rounds, lengths or [None] * len(rounds), strict=True)),
        "varies": longest is not None,
        "next": number,
        "drawn": drawn,
        "form": form,
    }


@dataclass(frozen=True)
class Bound:
    """A tour length form sent back with its errors."""

    number: int
    form: TourLengthForm


def _page(
    request: HttpRequest,
    event: Event,
    bound: TourForm | None = None,
    bound_stage: str = "",
    status: int = 200,
    length: Bound | None = None,
) -> HttpResponse:
    blocks = [
        _block(
            event,
            s,
            bound if s.key == bound_stage else None,
            length if s.key == bound_stage else None,
        )
        for s in event.rulebook.stages
        if has_calendar(s)
    ]
    context = {"event": event, "blocks": blocks}
    return render(request, "podium/calendar/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, event_for(request, slug, is_organizer))


@login_required
@require_POST
def add(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    the_stage = stage_or_404(event, stage)
    if not has_calendar(the_stage):
        raise Http404
    form = TourForm(
        stage_entries(event, the_stage),
        request.POST,
        prefix=stage,
        max_questions=_longest(the_stage),
    )
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
            questions=form.cleaned_data.get("questions"),
        )
    except Refused as refused:
        refuse_on(form, refused)
        return _page(request, event, form, stage, status=400)
    messages.success(
        request,
        _("Tour %(number)d is on the calendar: %(when)s.")
        % {
            "number": made.number,
            "when": moment_text(made.starts_at, event),
        },
    )
    return redirect("calendar:index", slug=slug)


@login_required
@require_POST
def length(request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponse:
    """Changes a tour's number of questions (``round_questions_set``)."""
    event = event_for(request, slug, is_organizer)
    the_stage = stage_or_404(event, stage)
    longest = _longest(the_stage)
    the_round = Round.objects.filter(event=event, stage=stage, number=number).first()
    if longest is None or the_round is None:
        raise Http404
    form = TourLengthForm(
        request.POST, prefix=f"{stage}-{number}", number=number, max_questions=longest
    )
    if form.is_valid():
        try:
            round_questions_set(
                round=the_round, questions=form.cleaned_data["questions"], by=request.user
            )
        except Refused as refused:
            refuse_on(form, refused)
    if form.errors:
        return _page(request, event, None, stage, status=400, length=Bound(number, form))
    messages.success(
        request,
        _("Tour %(number)d has %(n)d questions.")
        % {"number": number, "n": form.cleaned_data["questions"]},
    )
    return redirect(f"{reverse('calendar:index', kwargs={'slug': slug})}#round-{number}")


urlpatterns = [
    path("", index, name="index"),
    path("<str:stage>/add/", add, name="add"),
    path("<str:stage>/<int:number>/questions/", length, name="questions"),
]
