"""The referee console (phone first): a stage's round, one card per entrant, and the actions on
a recorded result — record or correct by hand, the competitor's agreement, missing pieces found
at the check, the head referee's confirmation.

Only the organizers and referees of the event; anyone else gets 404. The clock, the one-tap
finish, pieces at the limit and the team table are in ``podium.web.results.views.timing``; what the
pages share is in ``podium.web.results.views.console``. ChGK tours, bowling, Brainball and the
superfinal have desks of their own, linked from the index.

Vocabulary:
- card, phase, my tables: see ``podium.web.results.selectors.console``.
- stale correction: see ``podium.web.results.services.results``; the form carries the id of the
  result the referee saw, so the service can refuse it with both values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import Stage
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee
from podium.web.kernel.stages import has_calendar, has_scorecards, round_numbers
from podium.web.models import Event
from podium.web.results.forms import ChoiceOfTables, MissingForm, ResultForm
from podium.web.results.selectors.console import counts, parse_numbers
from podium.web.results.selectors.rows import ENTRY_FORMATS, RECORDED_FORMATS
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import (
    result_agree,
    result_correct,
    result_progress,
    result_record,
    shown,
)
from podium.web.results.views import taps, timing
from podium.web.results.views.console import (
    back,
    console_stage,
    entry_of,
    prefix_of,
    refused,
    render_console,
    result_of,
    staff_event,
)

app_name = "results"

# Stages with a desk of their own: the index links there instead of to the console.
DESKS = {
    "chgk-tour": "chgk:grid",
    "head-to-head": "battles:index",
    "superfinal": "battles:superfinal",
}


def desk_url(event: Event, stage: Stage, round: int) -> str | None:
    name = DESKS.get(stage.format)
    if name is None:
        return None
    kwargs: dict[str, Any] = {"slug": event.slug, "stage": stage.key}
    if has_calendar(stage):
        kwargs["round"] = round
    try:
        return reverse(name, kwargs=kwargs)
    except Exception:  # a desk not installed: the index lists the stage without a link
        return None


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = staff_event(request, slug)
    stages = []
    for stage in event.rulebook.stages:
        if stage.format not in RECORDED_FORMATS:
            continue
        numbers = round_numbers(event, stage)
        progress = counts(event, stage, numbers)
        for number in numbers:
            url = desk_url(event, stage, number)
            if url is None and stage.format in ENTRY_FORMATS:
                url = reverse(
                    "results:round", kwargs={"slug": slug, "stage": stage.key, "round": number}
                )
            stages.append(
                {
                    "stage": stage,
                    "round": number if has_calendar(stage) else None,
                    "url": url,
                    "lanes": reverse("bowling:index", kwargs={"slug": slug})
                    if stage.format == "games"
                    else None,
                    "scorecards": reverse("exports:scorecards", args=[slug, stage.key, "pdf"])
                    if has_scorecards(stage) and number == numbers[0]  # once a stage
                    else None,
                    **progress[number],
                }
            )
    context = {"event": event, "stages": stages, "head": is_head_referee(request.user, event)}
    return render(request, "podium/results/index.html", context)


@login_required
def console(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    numbers = round_numbers(event, the_stage)
    if not numbers:
        raise Http404
    return redirect("results:round", slug=slug, stage=stage, round=numbers[-1])


@login_required
def round_page(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    if round not in round_numbers(event, the_stage):
        raise Http404
    return render_console(request, event, the_stage, round)


@login_required
@require_POST
def record(request: HttpRequest, slug: str, stage: str, round: int, entry_id: int) -> HttpResponse:
    """Records a result typed in by hand, or corrects the current one with a reason."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    entry = entry_of(event, entry_id)
    form = ResultForm(the_stage, request.POST, prefix=prefix_of(entry))
    if not form.is_valid():
        return refused(request, event, the_stage, round, entry, form)
    data = form.cleaned_data
    try:
        if data.get("result"):
            seen = result_of(event, stage, round, data["result"])
            if seen.entry_id != entry.pk:
                raise Http404
            done = result_correct(
                result=seen, cells=form.cells(), by=request.user, reason=data.get("reason", ""),
                idempotency_key=data["idempotency_key"],
            )  # fmt: skip
        else:
            done = result_record(
                event=event, stage=stage, entry=entry, round=round, cells=form.cells(),
                by=request.user, idempotency_key=data["idempotency_key"],
            )  # fmt: skip
    except Refused as refusal:
        return refused(request, event, the_stage, round, entry, form, refusal)
    values = {"number": entry.number, "name": entry.name, "cells": shown(done.cells)}
    if done.corrects_id:
        messages.success(request, _("#%(number)d %(name)s corrected to: %(cells)s") % values)
    else:
        messages.success(request, _("#%(number)d %(name)s recorded: %(cells)s") % values)
    return redirect(back(request, slug, stage, round, entry))


@login_required
@require_POST
def missing(
    request: HttpRequest, slug: str, stage: str, round: int, result_id: int
) -> HttpResponse:
    """Adds the missing pieces found at the check to a recorded finish (a next step)."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    result = result_of(event, stage, round, result_id)
    form = MissingForm(request.POST, prefix=f"{prefix_of(result.entry)}-missing")
    if not form.is_valid():
        return refused(request, event, the_stage, round, result.entry, form)
    try:
        result_progress(
            result=result, cells={**result.cells, "missing": str(form.cleaned_data["missing"])},
            by=request.user, idempotency_key=form.cleaned_data["idempotency_key"],
        )  # fmt: skip
    except Refused as refusal:
        return refused(request, event, the_stage, round, result.entry, form, refusal)
    count = form.cleaned_data["missing"]
    messages.success(
        request,
        ngettext(
            "#%(number)d: %(missing)d missing piece added.",
            "#%(number)d: %(missing)d missing pieces added.",
            count,
        )
        % {"number": result.entry.number, "missing": count},
    )
    return redirect(back(request, slug, stage, round, result.entry))


def _on_result(
    request: HttpRequest,
    slug: str,
    stage: str,
    round: int,
    result_id: int,
    act: Callable[..., object],
    done: str,
) -> HttpResponse:
    """Runs ``act`` on a result of the round and says how it went; back to its card."""
    event = staff_event(request, slug)
    console_stage(event, stage)
    result = result_of(event, stage, round, result_id)
    try:
        act(result=result, by=request.user)
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        entry = result.entry
        values = {"number": entry.number, "name": entry.name, "cells": shown(result.cells)}
        messages.success(request, done % values)
    return redirect(back(request, slug, stage, round, result.entry))


@login_required
@require_POST
def agree(request: HttpRequest, slug: str, stage: str, round: int, result_id: int) -> HttpResponse:
    """The competitor agrees with the result shown on the referee's phone."""
    done = _("#%(number)d %(name)s agreed: %(cells)s")
    return _on_result(request, slug, stage, round, result_id, result_agree, done)


@login_required
@require_POST
def confirm(
    request: HttpRequest, slug: str, stage: str, round: int, result_id: int
) -> HttpResponse:
    """The head referee confirms a result: it is official."""
    done = _("#%(number)d %(name)s confirmed: %(cells)s")
    return _on_result(request, slug, stage, round, result_id, result_confirm, done)


@login_required
@require_POST
def my_tables(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    """Remembers which tables this referee watches (for this event, on this device)."""
    event = staff_event(request, slug)
    console_stage(event, stage)
    form = ChoiceOfTables(request.POST)
    text = form.data.get("tables", "").strip() if form.is_valid() else ""
    if text and parse_numbers(text) is None:
        messages.error(request, _("Write table numbers as 1-10, 15."))
    else:
        request.session[f"tables:{event.pk}"] = text
    return redirect(back(request, slug, stage, round, None))


urlpatterns = [
    path("", index, name="index"),
    path("<str:stage>/", console, name="console"),
    path("<str:stage>/<int:round>/", round_page, name="round"),
    path("<str:stage>/<int:round>/tables/", my_tables, name="tables"),
    path("<str:stage>/<int:round>/record/<int:entry_id>/", record, name="record"),
    path("<str:stage>/<int:round>/missing/<int:result_id>/", missing, name="missing"),
    path("<str:stage>/<int:round>/agree/<int:result_id>/", agree, name="agree"),
    path("<str:stage>/<int:round>/confirm/<int:result_id>/", confirm, name="confirm"),
    *timing.urlpatterns,
    *taps.urlpatterns,
]
