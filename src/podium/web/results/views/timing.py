"""The referee console against the clock: the start and end signals, the one-tap finish, pieces
counted at the limit, and the steps at a team's table.

Vocabulary:
- signal, finish, false start, early end: see ``podium.web.results.services.clock``.
- pieces at the limit: for an entrant who did not finish, the count — or, where the rulebook
  counts only joined groups of at least N pieces (cz-jigsaw), the sizes of the groups, which
  Podium adds up keeping the groups large enough (``podium.engine.formats.timed.count_pieces``).
- table step: see ``podium.web.results.services.tables``.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.engine.formats.timed import count_pieces
from podium.rules.schema.stages import TeamSolveStage
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.results.forms import ClockForm, FinishForm, PiecesForm, StepForm
from podium.web.results.services.clock import result_finish, round_end, round_start
from podium.web.results.services.results import result_record, shown
from podium.web.results.services.tables import table_pieces, table_step
from podium.web.results.views.console import (
    back,
    console_stage,
    entry_of,
    prefix_of,
    refused,
    staff_event,
)


@login_required
@require_POST
def clock(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    """The start or end signal of a group's clock (organizers and head referees)."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    form = ClockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose start or end."))
        return redirect(back(request, slug, stage, round, None))
    data = form.cleaned_data
    act = round_start if data["action"] == "start" else round_end
    try:
        act(
            event=event, stage=stage, round=round, group=data["group"], reason=data["reason"],
            by=request.user,
        )  # fmt: skip
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        what = data["group"] or the_stage.title
        if data["action"] == "start":
            messages.success(request, _("%(what)s: the clock is running.") % {"what": what})
        else:
            messages.success(request, _("%(what)s: the round has ended.") % {"what": what})
    return redirect(back(request, slug, stage, round, None))


@login_required
@require_POST
def finish(request: HttpRequest, slug: str, stage: str, round: int, entry_id: int) -> HttpResponse:
    """One tap "finished": the time since the start becomes the entrant's result."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    entry = entry_of(event, entry_id)
    form = FinishForm(request.POST, prefix=f"{prefix_of(entry)}-finish")
    if not form.is_valid():
        return refused(request, event, the_stage, round, entry, form)
    data = form.cleaned_data
    try:
        done = result_finish(
            event=event, stage=stage, entry=entry, round=round, by=request.user,
            idempotency_key=data["idempotency_key"],
            missing="" if data.get("missing") is None else str(data["missing"]),
            compensation=data.get("compensation", ""),
            compensation_reason=data.get("compensation_reason", ""),
        )  # fmt: skip
    except Refused as refusal:
        return refused(request, event, the_stage, round, entry, form, refusal)
    messages.success(
        request,
        _("#%(number)d %(name)s finished: %(time)s")
        % {"number": entry.number, "name": entry.name, "time": done.cells["time"]},
    )
    return redirect(back(request, slug, stage, round, entry))


@login_required
@require_POST
def pieces(request: HttpRequest, slug: str, stage: str, round: int, entry_id: int) -> HttpResponse:
    """The pieces counted at the limit on an unfinished puzzle."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    entry = entry_of(event, entry_id)
    form = PiecesForm(request.POST, prefix=f"{prefix_of(entry)}-pieces")
    if not form.is_valid():
        return refused(request, event, the_stage, round, entry, form)
    data = form.cleaned_data
    groups = data["groups"]
    counting = the_stage.piece_counting  # type: ignore[union-attr]
    count = count_pieces(groups, counting.size) if groups else data["pieces"]
    key = data["idempotency_key"]
    try:
        if isinstance(the_stage, TeamSolveStage):
            done = table_pieces(
                event=event, stage=stage, entry=entry, round=round, pieces=count,
                groups=groups or None, by=request.user, idempotency_key=key,
            )  # fmt: skip
        else:
            done = result_record(
                event=event, stage=stage, entry=entry, round=round, cells={"pieces": str(count)},
                detail={"groups": groups} if groups else None, by=request.user,
                idempotency_key=key,
            )  # fmt: skip
    except Refused as refusal:
        return refused(request, event, the_stage, round, entry, form, refusal)
    messages.success(
        request,
        _("#%(number)d %(name)s recorded: %(cells)s")
        % {"number": entry.number, "name": entry.name, "cells": shown(done.cells)},
    )
    return redirect(back(request, slug, stage, round, entry))


@login_required
@require_POST
def step(request: HttpRequest, slug: str, stage: str, round: int, entry_id: int) -> HttpResponse:
    """A step at a team's table: start a puzzle, switch after taking one apart, or finish."""
    event = staff_event(request, slug)
    the_stage = console_stage(event, stage)
    entry = entry_of(event, entry_id)
    form = StepForm(request.POST, prefix=f"{prefix_of(entry)}-step")
    if not form.is_valid():
        return refused(request, event, the_stage, round, entry, form)
    data = form.cleaned_data
    try:
        table_step(
            event=event, stage=stage, entry=entry, round=round, kind=data["kind"],
            puzzle=data.get("puzzle"), taken_apart=data.get("taken_apart", False),
            missing=data.get("missing") or 0, by=request.user,
            idempotency_key=data["idempotency_key"],
        )  # fmt: skip
    except Refused as refusal:
        return refused(request, event, the_stage, round, entry, form, refusal)
    return redirect(back(request, slug, stage, round, entry))


urlpatterns = [
    path("<str:stage>/<int:round>/clock/", clock, name="clock"),
    path("<str:stage>/<int:round>/finish/<int:entry_id>/", finish, name="finish"),
    path("<str:stage>/<int:round>/pieces/<int:entry_id>/", pieces, name="pieces"),
    path("<str:stage>/<int:round>/step/<int:entry_id>/", step, name="step"),
]
