"""The referee console for the single-result formats (phone first): pick a stage, find an entry,
record its result, correct the current one with a reason, verify someone else's.

Only the organizers and referees of the event; anyone else gets 404.

Vocabulary:
- card: one confirmed entry of the stage's category with its current result, whether that is
  verified, and the form to record or correct it.
- stale correction: see ``podium.web.services.results``; the form carries the id of the result
  the referee saw, so the service can refuse it with both values.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema import Stage
from podium.web.forms.results import ResultForm
from podium.web.models import Entry, Event, Result, Verification
from podium.web.selectors.desk import search
from podium.web.selectors.results import SINGLE_RESULT_FORMATS, current_results
from podium.web.selectors.roles import is_staff
from podium.web.services.base import Refused
from podium.web.services.checks import result_confirm
from podium.web.services.results import result_correct, result_record, shown
from podium.web.views.common import event_for, refusal_text

app_name = "results"


def _event(request: HttpRequest, slug: str) -> Event:
    return event_for(request, slug, is_staff)


def _stage(event: Event, key: str) -> Stage:
    try:
        stage = event.rulebook.stage(key)
    except KeyError:
        raise Http404 from None
    if stage.format not in SINGLE_RESULT_FORMATS:
        raise Http404
    return stage


def _prefix(entry: Entry) -> str:
    return f"e{entry.pk}"


def _entries(event: Event, stage: Stage, query: str = "") -> Any:
    entries = search(event, query).filter(status=Entry.Status.CONFIRMED)
    if stage.category:
        entries = entries.filter(category=stage.category)
    return entries


def _back(slug: str, stage: str, query: str = "", entry: Entry | None = None) -> str:
    url = reverse("results:console", kwargs={"slug": slug, "stage": stage})
    if query:
        url += "?" + urlencode({"q": query})
    return url + (f"#entry-{entry.number}" if entry else "")


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    stages = []
    for stage in event.rulebook.stages:
        if stage.format not in SINGLE_RESULT_FORMATS:
            continue
        results = current_results(event, stage.key)
        checked = Verification.objects.filter(result__in=[r.pk for r in results]).count()
        stages.append(
            {
                "stage": stage,
                "entries": _entries(event, stage).count(),
                "recorded": len(results),
                "unverified": len(results) - checked,
            }
        )
    return render(request, "podium/results/index.html", {"event": event, "stages": stages})


def _console(
    request: HttpRequest,
    event: Event,
    stage: Stage,
    *,
    bound: ResultForm | None = None,
    bound_entry: Entry | None = None,
    status: int = 200,
) -> HttpResponse:
    query = request.GET.get("q", "") if bound is None else request.POST.get("q", "")
    results = {r.entry_id: r for r in current_results(event, stage.key)}
    verified = {
        v.result_id: v
        for v in Verification.objects.filter(
            result__in=[r.pk for r in results.values()]
        ).select_related("verified_by")
    }
    cards = []
    for entry in _entries(event, stage, query):
        current = results.get(entry.pk)
        if bound is not None and bound_entry is not None and bound_entry.pk == entry.pk:
            form = bound
        else:
            form = ResultForm(stage, current=current, prefix=_prefix(entry))
        cards.append(
            {
                "entry": entry,
                "current": current,
                "shown": shown(current.cells) if current else "",
                "verification": verified.get(current.pk) if current else None,
                "may_verify": current is not None
                and current.pk not in verified
                and current.recorded_by_id != request.user.pk,
                "form": form,
            }
        )
    context = {"event": event, "stage": stage, "query": query, "cards": cards}
    return render(request, "podium/results/console.html", context, status=status)


@login_required
def console(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = _event(request, slug)
    return _console(request, event, _stage(event, stage))


@login_required
@require_POST
def record(request: HttpRequest, slug: str, stage: str, entry_id: int) -> HttpResponse:
    event = _event(request, slug)
    the_stage = _stage(event, stage)
    entry = get_object_or_404(event.entries, pk=entry_id)
    form = ResultForm(the_stage, request.POST, prefix=_prefix(entry))
    query = request.POST.get("q", "")
    if not form.is_valid():
        return _console(request, event, the_stage, bound=form, bound_entry=entry, status=400)
    data = form.cleaned_data
    try:
        if data.get("result"):
            seen = get_object_or_404(Result, pk=data["result"], event=event, entry=entry)
            if seen.stage != stage:
                raise Http404
            done = result_correct(
                result=seen,
                cells=form.cells(),
                by=request.user,
                reason=data.get("reason", ""),
                idempotency_key=data["idempotency_key"],
            )
        else:
            done = result_record(
                event=event,
                stage=stage,
                entry=entry,
                cells=form.cells(),
                by=request.user,
                idempotency_key=data["idempotency_key"],
            )
    except Refused as refused:
        field = refused.field if refused.field in form.fields else None
        form.add_error(field, refusal_text(refused))
        return _console(request, event, the_stage, bound=form, bound_entry=entry, status=400)
    values = {"number": entry.number, "name": entry.name, "cells": shown(done.cells)}
    if done.corrects_id:
        text = _("#%(number)d %(name)s corrected to: %(cells)s") % values
    else:
        text = _("#%(number)d %(name)s recorded: %(cells)s") % values
    messages.success(request, text)
    return redirect(_back(slug, stage, query, entry))


@login_required
@require_POST
def verify(request: HttpRequest, slug: str, stage: str, result_id: int) -> HttpResponse:
    event = _event(request, slug)
    _stage(event, stage)
    result = get_object_or_404(
        Result.objects.select_related("entry"), pk=result_id, event=event, stage=stage
    )
    try:
        result_confirm(result=result, by=request.user)
    except Refused as refused:
        messages.error(request, refusal_text(refused))
    else:
        messages.success(
            request,
            _("#%(number)d %(name)s verified: %(cells)s")
            % {
                "number": result.entry.number,
                "name": result.entry.name,
                "cells": shown(result.cells),
            },
        )
    return redirect(_back(slug, stage, request.POST.get("q", ""), result.entry))


urlpatterns = [
    path("", index, name="index"),
    path("<str:stage>/", console, name="console"),
    path("<str:stage>/record/<int:entry_id>/", record, name="record"),
    path("<str:stage>/verify/<int:result_id>/", verify, name="verify"),
]
