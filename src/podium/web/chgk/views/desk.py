"""The ChGK referee desk: a tour's sheet of question masks, entered as a keyboard grid, and the
second scorer's blind check sheet.

Staff of the event only (organizers, head referees, referees); anyone else gets 404.

Vocabulary:
- sheet, row, check sheet, mismatch: see ``podium.web.chgk.services.sheets``.
- grid: the sheet as a table of teams × questions, each cell 1 (taken), 0, X (withdrawn) or
  ? (disputed); ``static/podium/grid.js`` builds it over the plain form, which works alone: one
  text field per team with its mask.
- first-entry sheet: shows each team's recorded mask; changing one needs a reason.
- blind entry: the check sheet never shows the first entries; after saving it lists which
  teams match and, for the others, the questions whose marks differ.
- not playing: a team that withdrew, is barred or was not admitted to the tour
  (``disputes.selectors.discipline.not_playing``): shown under its own heading with the reason and
  without a field, so the sheet never sends a mask for it and it never blocks the others.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from podium.rules.schema.stages import ChgkTourStage
from podium.web.chgk.forms.tours import SheetForm, mask_field
from podium.web.chgk.services.sheets import (
    CheckedSheet,
    SheetRefused,
    tour_check_record,
    tour_sheet_record,
)
from podium.web.disputes.selectors.discipline import not_playing
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.stages import has_calendar, rounds_of, stage_entries
from podium.web.models import Entry, Event, Result, Round
from podium.web.results.selectors.clock import stage_clocks
from podium.web.results.selectors.rows import current_results
from podium.web.results.selectors.tours import tour_questions, varies

app_name = "chgk"


def _tour(event: Event, key: str, number: int) -> tuple[ChgkTourStage, Round]:
    stage = stage_or_404(event, key, ChgkTourStage)
    the_round = Round.objects.filter(event=event, stage=key, number=number).first()
    if the_round is None:
        raise Http404
    return stage, the_round


def _entries(event: Event, stage: ChgkTourStage, number: int) -> tuple[list[Entry], list[Any]]:
    """The teams of the sheet — the scored first, then those outside the competition — and
    those not playing the tour, each with why."""
    every = sorted(stage_entries(event, stage), key=lambda e: (not e.scored, e.number))
    why = not_playing(event, stage.key, number, every, timezone.now())
    out = [{"entry": e, "why": why[e.pk]} for e in every if e.pk in why]
    return [e for e in every if e.pk not in why], out


def _team_of(problem: str) -> int | None:
    """The number of the team a sheet's problem names first (``#7 Sovy: …``, ``#7: …``)."""
    first = problem.split(" ", 1)[0].rstrip(":")
    return int(first[1:]) if first[:1] == "#" and first[1:].isdigit() else None


def _checks_url(event: Event) -> str | None:
    try:
        return reverse("checks:index", kwargs={"slug": event.slug})
    except NoReverseMatch:  # the head referee's page may not be there yet
        return None


def _sheet(
    request: HttpRequest,
    event: Event,
    stage: ChgkTourStage,
    the_round: Round,
    *,
    check: bool,
    form: SheetForm | None = None,
    problems: tuple[str, ...] = (),
    checked: CheckedSheet | None = None,
    status: int = 200,
) -> HttpResponse:
    entries, out = _entries(event, stage, the_round.number)
    current = {r.entry_id: r for r in current_results(event, stage.key, the_round.number)}
    for row in out:
        recorded = current.get(row["entry"].pk)
        row["recorded"] = recorded.cells.get("mask", "") if recorded and not check else ""
    form = form or SheetForm(entries, current=current, check=check)
    rows: list[dict[str, Any]] = []
    for entry in entries:
        field = form[mask_field(entry)]
        value = "".join(str(field.value() or "").split()).upper()
        recorded = None if check else current.get(entry.pk)
        rows.append(
            {
                "entry": entry,
                "field": field,
                "recorded": recorded.cells.get("mask", "") if recorded else "",
                "taken": value.count("1"),
                "value": value,
                "error": any(_team_of(p) == entry.number for p in problems),
            }
        )
    clocks = [c for c in stage_clocks(event, stage, the_round.number) if c["started"]]
    context = {
        "event": event,
        "stage": stage,
        "round": the_round,
        "check": check,
        "form": form,
        "scored": [r for r in rows if r["entry"].scored],
        "outside": [r for r in rows if not r["entry"].scored],
        "not_playing": out,
        "grand": sum(r["taken"] for r in rows),
        "recorded_any": any(r["recorded"] for r in rows),
        "problems": problems,
        "checked": checked,
        "checks_url": _checks_url(event) if checked else None,
        "clocks": clocks,
        "questions": tour_questions(event, stage, the_round.number, the_round),
        "varies": varies(stage),
        "calendar_url": (
            reverse("calendar:index", kwargs={"slug": event.slug})
            if varies(stage) and is_organizer(request.user, event)
            else None
        ),
    }
    return render(request, "podium/chgk/grid.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    tours = [
        {"stage": s, "rounds": rounds_of(event, s)}
        for s in event.rulebook.stages
        if has_calendar(s)
    ]
    return render(request, "podium/chgk/index.html", {"event": event, "tours": tours})


def _save(request: HttpRequest, slug: str, stage: str, round: int, check: bool) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage, the_round = _tour(event, stage, round)
    if request.method != "POST":
        return _sheet(request, event, the_stage, the_round, check=check)
    entries, _out = _entries(event, the_stage, round)
    form = SheetForm(entries, request.POST, check=check)

    def again(problems: tuple[str, ...]) -> HttpResponse:
        return _sheet(
            request, event, the_stage, the_round, check=check, form=form, problems=problems,
            status=400,
        )  # fmt: skip

    if not form.is_valid():
        return again(tuple(str(e) for errors in form.errors.values() for e in errors))
    common = {
        "event": event, "stage": stage, "round": round, "masks": form.masks(), "by": request.user,
        "idempotency_key": form.cleaned_data["idempotency_key"],
    }  # fmt: skip
    try:
        if check:
            checked = tour_check_record(**common)
        else:
            ids = form.seen_ids()
            found = Result.objects.filter(
                event=event, stage=stage, round=round, pk__in=[i for i in ids.values() if i]
            ).in_bulk()
            seen = {e: found.get(i) if i else None for e, i in ids.items()}
            rows = tour_sheet_record(reason=form.cleaned_data["reason"], seen=seen, **common)
    except SheetRefused as refused:
        return again(refused.problems)
    except Refused as refused:
        return again((refusal_text(refused),))
    if check:
        # Shown at once, not after a redirect: sending the same sheet again stores nothing.
        return _sheet(request, event, the_stage, the_round, check=True, checked=checked)
    count = {a: sum(r.action == a for r in rows) for a in ("recorded", "corrected", "unchanged")}
    messages.success(
        request,
        _("Sheet saved: %(recorded)d recorded, %(corrected)d corrected, %(unchanged)d unchanged.")
        % count,
    )
    return redirect("chgk:grid", slug=slug, stage=stage, round=round)


@login_required
@require_http_methods(["GET", "POST"])
def grid(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    return _save(request, slug, stage, round, check=request.GET.get("check") == "1")


@login_required
@require_http_methods(["GET", "POST"])
def check(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    return _save(request, slug, stage, round, check=True)


urlpatterns = [
    path("", index, name="index"),
    path("<str:stage>/<int:round>/", grid, name="grid"),
    path("<str:stage>/<int:round>/check/", check, name="check"),
]
