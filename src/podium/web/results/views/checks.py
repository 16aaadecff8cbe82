"""The head referee's checks: mismatches between two entries with both values, resolved with a
reason; results waiting for confirmation, in words, confirmed one by one, ticked, or all at once
(everything one referee recorded in a round or a group, a whole superfinal).

Whoever confirms results of some stage of the event (head referees and organizers, jury members
where the rulebook names them); anyone else gets 404. Mismatches are for head referees.

Vocabulary:
- mismatch, confirmation: see ``podium.web.results.selectors.checks`` and ``services.checks``.
- resolution: keep the first value, take the second, or type another one; the reason is kept
  with the correction it may make.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_head_referee, may_confirm_any
from podium.web.kernel.text import plain
from podium.web.models import Event, Result, SecondEntry
from podium.web.results.selectors.checks import (
    Mismatch,
    awaiting_second_entry,
    confirm_rows,
    confirmers,
    mismatches,
    to_confirm,
    waiting,
    who_can_text,
)
from podium.web.results.selectors.rows import format_columns
from podium.web.results.services.checks import mismatch_resolve, result_confirm
from podium.web.results.services.confirmations import round_confirm
from podium.web.results.services.results import shown, teams_of

app_name = "checks"
MOST = 2000  # results ticked in one form


def _marks(first: str, second: str, differ: tuple[int, ...]) -> list[list[tuple[str, bool]]]:
    """Each mask as (mark, differs) pairs, so the page can point at the questions that differ."""
    return [[(m, i in differ) for i, m in enumerate(mask, 1)] for mask in (first, second)]


def _columns(event: Event, m: Mismatch) -> list[dict[str, Any]]:
    """The columns either entry filled in, with both values (and the marks of a mask)."""
    rows = []
    for c in format_columns(m.stage, teams_of(event, m.stage)):
        first, second = m.result.cells.get(c, ""), m.second.cells.get(c, "")
        if not (first or second):
            continue
        row: dict[str, Any] = {"name": c, "first": first, "second": second}
        if c == "mask":
            row["marks"] = _marks(first, second, m.questions)
        rows.append(row)
    return rows


def _asks_agreement(event: Event, result: Result) -> bool:
    return event.rulebook.stage(result.stage).recording.competitor_confirms


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, may_confirm_any)
    unverified = waiting(event)  # read once for the three lists
    head = is_head_referee(request.user, event)
    found = mismatches(event, unverified) if head else []
    context = {
        "event": event,
        "mismatches": [
            {
                "item": m,
                "first": shown(m.result.cells),
                "second": shown(m.second.cells),
                "columns": _columns(event, m),
                "key": uuid.uuid4().hex,
            }
            for m in found
        ],
        "pending": confirm_rows(event, to_confirm(event, unverified), request.user),
        "awaiting": awaiting_second_entry(event, unverified),
        "head": head,
    }
    return render(request, "podium/checks/index.html", context)


@login_required
@require_POST
def resolve(request: HttpRequest, slug: str, second_id: int) -> HttpResponse:
    event = event_for(request, slug, is_head_referee)
    second = get_object_or_404(
        SecondEntry.objects.select_related("result__entry"), pk=second_id, result__event=event
    )
    choice = request.POST.get("choice", "")
    cells = None
    if choice == "other":
        stage = event.rulebook.stage(second.result.stage)
        columns = format_columns(stage, teams_of(event, stage))
        cells = {c: request.POST.get(f"cell-{c}", "") for c in columns}
    try:
        mismatch_resolve(
            second_entry=second, choice=choice, cells=cells,  # type: ignore[arg-type]
            reason=plain(request.POST.get("reason", "")), by=request.user,
            idempotency_key=request.POST.get("idempotency_key", ""),
        )  # fmt: skip
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        subject = second.result.entry or second.result.item
        messages.success(request, _("%(subject)s: mismatch resolved.") % {"subject": subject})
    return redirect("checks:index", slug=slug)


@login_required
@require_POST
def confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """Confirms the results ticked on the page, one by one; each refusal is reported."""
    event = event_for(request, slug, may_confirm_any)
    ids = [int(i) for i in request.POST.getlist("result")[:MOST] if i.isdigit()]
    done = 0
    unagreed = []
    chosen = Result.objects.filter(event=event, pk__in=ids).select_related("entry", "agreement")
    for result in chosen:
        subject = f"#{result.entry.number}" if result.entry else result.item
        try:
            result_confirm(result=result, by=request.user)
        except Refused as refusal:
            messages.error(request, f"{subject}: {refusal_text(refusal)}")
        else:
            done += 1
            if _asks_agreement(event, result) and not hasattr(result, "agreement"):
                unagreed.append(subject)
    if done:
        messages.success(request, _("%(n)d results confirmed.") % {"n": done})
    if unagreed:
        messages.warning(
            request,
            _("Confirmed without the competitor's agreement: %(subjects)s.")
            % {"subjects": ", ".join(unagreed)},
        )
    return redirect("checks:index", slug=slug)


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 10 else None


@login_required
@require_POST
def confirm_all(request: HttpRequest, slug: str) -> HttpResponse:
    """Confirms a round's waiting results in one action: all of them, or those one person
    recorded (``recorded_by``), or one group's; says what it did and what it left."""
    event = event_for(request, slug, may_confirm_any)
    stage, round = request.POST.get("stage", "")[:60], _number(request.POST.get("round", ""))
    group = request.POST.get("group") or None
    try:
        if round is None:
            raise Refused(_("Choose the round to confirm."), field="round")
        outcome = round_confirm(
            event=event, stage=stage, round=round, by=request.user,
            recorded_by=_number(request.POST.get("recorded_by", "")),
            group=group[:20] if group else None,
        )  # fmt: skip
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        text = outcome.text
        if outcome.own:
            text += " " + who_can_text(outcome.stage, confirmers(event), request.user)
        messages.success(request, text)
    return redirect("checks:index", slug=slug)


urlpatterns = [
    path("", index, name="index"),
    path("resolve/<int:second_id>/", resolve, name="resolve"),
    path("confirm/", confirm, name="confirm"),
    path("confirm-all/", confirm_all, name="confirm-all"),
]
