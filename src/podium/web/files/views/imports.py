"""Import pages: entrants from a spreadsheet, results from a CSV, ChGK tours from the rating
site's JSON (each: upload → preview with every problem → import all or nothing), and a ChGK
tour exported in the rating site's shape.

Organizers only (anyone else gets 404), except the export, which follows the standings
pages: public once the round is published, the event's staff any time.

Vocabulary:
- stash: the uploaded file, read into a sheet (or the rating file's teams), kept between the
  steps in the user's server-side session under a random token; the page carries only the
  token. The session lives in the database, so every app server finds it, nobody but this
  user can use it, and the client can never change what is imported. A new upload of the same
  kind for the event replaces the last, and a finished import drops it.
- preview, import, token: see ``podium.web.files.services.imports``.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from podium.rules.schema.stages import ChgkTourStage
from podium.web.chgk.selectors.rating import rating_results, season_rating, visible_moment
from podium.web.files.forms import ConfirmForm, MappingForm, RoundUploadForm, UploadForm
from podium.web.files.services.imports import (
    chgk_import,
    chgk_preview,
    entrants_import,
    entrants_preview,
    member_slots,
    results_import,
    results_preview,
)
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.stages import has_calendar, round_numbers, rounds_of
from podium.web.kernel.text import plain
from podium.web.kernel.texts import points_shown, rt
from podium.web.models import Event
from podium.web.readers.rating import RatingFile, read_rating
from podium.web.readers.tables import Sheet, read_upload
from podium.web.results.selectors.rows import RECORDED_FORMATS

app_name = "imports"

STASH = "podium.imports"
KEEP = 4  # uploads kept per session at most


# --- the stash -------------------------------------------------------------------------------


def _stash(request: HttpRequest, event: Event, kind: str, **data: Any) -> str:
    token = secrets.token_urlsafe(16)
    kept = {
        t: v
        for t, v in request.session.get(STASH, {}).items()
        if not (v["event"] == event.pk and v["kind"] == kind)
    }
    kept[token] = {"event": event.pk, "kind": kind, **data}
    request.session[STASH] = dict(list(kept.items())[-KEEP:])
    return token


def _stashed(request: HttpRequest, event: Event, kind: str, token: str) -> dict[str, Any]:
    found = request.session.get(STASH, {}).get(token)
    if found is None or found["event"] != event.pk or found["kind"] != kind:
        raise Http404
    return found


def _drop(request: HttpRequest, token: str) -> None:
    kept = dict(request.session.get(STASH, {}))
    kept.pop(token, None)
    request.session[STASH] = kept


def _read(request: HttpRequest, form: UploadForm) -> tuple[str, bytes]:
    upload = form.cleaned_data["file"]
    return upload.name, upload.read()


# --- the index -------------------------------------------------------------------------------


def _result_rounds(event: Event) -> list[tuple[str, str]]:
    """Every stage and round results can be imported into, as upload choices."""
    choices = []
    for stage in event.rulebook.stages:
        if stage.format not in RECORDED_FORMATS:
            continue
        for number in round_numbers(event, stage):
            title = rt(stage.title) if not has_calendar(stage) else f"{rt(stage.title)} — {number}"
            choices.append((f"{stage.key}:{number}", title))
    return choices


def _tour_rounds(event: Event) -> list[tuple[str, str]]:
    return [
        (
            f"{stage.key}:{r.number}",
            f"{rt(stage.title)} — {r.number}" + (f" {r.title}" if r.title else ""),
        )
        for stage in _tour_stages(event)
        for r in rounds_of(event, stage)
    ]


def _tour_stages(event: Event) -> list[ChgkTourStage]:
    return [s for s in event.rulebook.stages if isinstance(s, ChgkTourStage)]


def _index(
    request: HttpRequest,
    event: Event,
    *,
    entrants: UploadForm | None = None,
    results: RoundUploadForm | None = None,
    chgk: RoundUploadForm | None = None,
    status: int = 200,
) -> HttpResponse:
    tours = [(s, rounds_of(event, s)) for s in _tour_stages(event)]
    context = {
        "event": event,
        "entrants": entrants or UploadForm(prefix="entrants"),
        "results": results or RoundUploadForm(_result_rounds(event), prefix="results"),
        "chgk": chgk or RoundUploadForm(_tour_rounds(event), prefix="chgk"),
        "tours": tours,
    }
    return render(request, "podium/imports/index.html", context, status=status)


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    return _index(request, event_for(request, slug, is_organizer))


# --- entrants --------------------------------------------------------------------------------


def _mapping_form(event: Event, sheet: Sheet, data: Any = None) -> MappingForm:
    return MappingForm(sheet, member_slots(event), event.rulebook.categories, data)


@login_required
@require_POST
def entrants_upload(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    form = UploadForm(request.POST, request.FILES, prefix="entrants")
    if not form.is_valid():
        return _index(request, event, entrants=form, status=400)
    try:
        sheet = read_upload(*_read(request, form))
    except Refused as refused:
        form.add_error("file", refusal_text(refused))
        return _index(request, event, entrants=form, status=400)
    token = _stash(request, event, "entrants", sheet=sheet.data())
    return redirect("imports:entrants_mapping", slug=slug, token=token)


def _sheet(request: HttpRequest, event: Event, kind: str, token: str) -> Sheet:
    return Sheet.from_data(_stashed(request, event, kind, token)["sheet"])


@login_required
def entrants_mapping(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    sheet = _sheet(request, event, "entrants", token)
    form = _mapping_form(event, sheet)
    context = {"event": event, "sheet": sheet, "form": form, "token": token}
    return render(request, "podium/imports/mapping.html", context)


def _entrants_page(
    request: HttpRequest,
    event: Event,
    sheet: Sheet,
    form: MappingForm,
    token: str,
    refused: Refused | None = None,
    status: int = 200,
) -> HttpResponse:
    plan = entrants_preview(
        event=event,
        sheet=sheet,
        mapping=form.mapping(),
        by=request.user,
        category=form.cleaned_data.get("category") or "",
    )
    context = {
        "event": event,
        "sheet": sheet,
        "form": form,
        "plan": plan,
        "token": token,
        "refused": refusal_text(refused) if refused else "",
    }
    return render(request, "podium/imports/entrants_preview.html", context, status=status)


@login_required
@require_POST
def entrants_check(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    sheet = _sheet(request, event, "entrants", token)
    form = _mapping_form(event, sheet, request.POST)
    if not form.is_valid():
        context = {"event": event, "sheet": sheet, "form": form, "token": token}
        return render(request, "podium/imports/mapping.html", context, status=400)
    try:
        return _entrants_page(request, event, sheet, form, token)
    except Refused as refused:
        form.add_error(None, refusal_text(refused))
        context = {"event": event, "sheet": sheet, "form": form, "token": token}
        return render(request, "podium/imports/mapping.html", context, status=400)


@login_required
@require_POST
def entrants_save(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    sheet = _sheet(request, event, "entrants", token)
    form = _mapping_form(event, sheet, request.POST)
    if not form.is_valid():
        context = {"event": event, "sheet": sheet, "form": form, "token": token}
        return render(request, "podium/imports/mapping.html", context, status=400)
    try:
        entries = entrants_import(
            event=event,
            sheet=sheet,
            mapping=form.mapping(),
            by=request.user,
            token=token,
            category=form.cleaned_data.get("category") or "",
        )
    except Refused as refused:
        return _entrants_page(request, event, sheet, form, token, refused, status=400)
    _drop(request, token)
    messages.success(
        request,
        ngettext("%(n)d entry was imported.", "%(n)d entries were imported.", len(entries))
        % {"n": len(entries)},
    )
    return redirect("registrations:index", slug=slug)


# --- results ---------------------------------------------------------------------------------


@login_required
@require_POST
def results_upload(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    form = RoundUploadForm(_result_rounds(event), request.POST, request.FILES, prefix="results")
    if not form.is_valid():
        return _index(request, event, results=form, status=400)
    try:
        sheet = read_upload(*_read(request, form), rating=True)
    except Refused as refused:
        form.add_error("file", refusal_text(refused))
        return _index(request, event, results=form, status=400)
    stage, number = form.stage_round()
    token = _stash(request, event, "results", sheet=sheet.data(), stage=stage, round=number)
    return redirect("imports:results_preview", slug=slug, token=token)


def _results_page(
    request: HttpRequest,
    event: Event,
    token: str,
    reason: str,
    refused: Refused | None = None,
    status: int = 200,
) -> HttpResponse:
    found = _stashed(request, event, "results", token)
    sheet = Sheet.from_data(found["sheet"])
    stage = stage_or_404(event, found["stage"])
    context: dict[str, Any] = {
        "event": event,
        "sheet": sheet,
        "stage": stage,
        "round": found["round"],
        "token": token,
        "confirm": ConfirmForm(initial={"reason": reason}),
        "reason": reason,
        "refused": refusal_text(refused) if refused else "",
        **points_shown(event.rulebook, stage),
    }
    try:
        context["plan"] = results_preview(
            event=event, stage=stage.key, round=found["round"], sheet=sheet, by=request.user,
            reason=reason,
        )  # fmt: skip
    except Refused as exc:
        context["refused"] = refusal_text(exc)
        status = 400
    return render(request, "podium/imports/results_preview.html", context, status=status)


@login_required
def results_preview_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    return _results_page(request, event, token, plain(request.GET.get("reason", "")).strip())


@login_required
@require_POST
def results_save(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    found = _stashed(request, event, "results", token)
    form = ConfirmForm(request.POST)
    reason = form.data.get("reason", "").strip()[:500]
    try:
        made = results_import(
            event=event, stage=found["stage"], round=found["round"],
            sheet=Sheet.from_data(found["sheet"]), by=request.user, token=token, reason=reason,
        )  # fmt: skip
    except Refused as refused:
        return _results_page(request, event, token, reason, refused, status=400)
    _drop(request, token)
    messages.success(
        request,
        ngettext("%(n)d result was imported.", "%(n)d results were imported.", len(made))
        % {"n": len(made)},
    )
    return redirect("standings:stage", slug=slug, stage=found["stage"])


# --- ChGK tours ------------------------------------------------------------------------------


@login_required
@require_POST
def chgk_upload(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    form = RoundUploadForm(_tour_rounds(event), request.POST, request.FILES, prefix="chgk")
    if not form.is_valid():
        return _index(request, event, chgk=form, status=400)
    try:
        rating = read_rating(_read(request, form)[1])
    except Refused as refused:
        form.add_error("file", refusal_text(refused))
        return _index(request, event, chgk=form, status=400)
    stage, number = form.stage_round()
    token = _stash(request, event, "chgk", rating=rating.data(), stage=stage, round=number)
    return redirect("imports:chgk_preview", slug=slug, token=token)


def _chgk_page(
    request: HttpRequest,
    event: Event,
    token: str,
    reason: str,
    skip: bool,
    refused: Refused | None = None,
    status: int = 200,
) -> HttpResponse:
    found = _stashed(request, event, "chgk", token)
    rating = RatingFile.from_data(found["rating"])
    stage = stage_or_404(event, found["stage"])
    context: dict[str, Any] = {
        "event": event,
        "rating": rating,
        "stage": stage,
        "round": found["round"],
        "token": token,
        "confirm": ConfirmForm(initial={"reason": reason, "skip_unmatched": skip}),
        "reason": reason,
        "skip": skip,
        "refused": refusal_text(refused) if refused else "",
        **points_shown(event.rulebook, stage),
    }
    try:
        context["plan"] = chgk_preview(
            event=event, stage=stage.key, round=found["round"], rating=rating, by=request.user,
            reason=reason, skip_unmatched=skip,
        )  # fmt: skip
    except Refused as exc:
        context["refused"] = refusal_text(exc)
        status = 400
    return render(request, "podium/imports/chgk_preview.html", context, status=status)


@login_required
def chgk_preview_page(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    reason = plain(request.GET.get("reason", "")).strip()
    return _chgk_page(request, event, token, reason, request.GET.get("skip_unmatched") == "on")


@login_required
@require_POST
def chgk_save(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    found = _stashed(request, event, "chgk", token)
    reason = plain(request.POST.get("reason", "")).strip()[:500]
    skip = request.POST.get("skip_unmatched") == "on"
    try:
        plan = chgk_import(
            event=event, stage=found["stage"], round=found["round"],
            rating=RatingFile.from_data(found["rating"]), by=request.user, token=token,
            reason=reason, skip_unmatched=skip,
        )  # fmt: skip
    except Refused as refused:
        return _chgk_page(request, event, token, reason, skip, refused, status=400)
    _drop(request, token)
    messages.success(
        request,
        _(
            "Tour %(round)d: %(recorded)d recorded, %(corrected)d corrected, %(unchanged)d "
            "unchanged."
        )
        % {
            "round": found["round"],
            "recorded": plan.count("recorded"),
            "corrected": plan.count("corrected"),
            "unchanged": plan.count("unchanged"),
        },
    )
    return redirect("standings:round", slug=slug, stage=found["stage"], round=found["round"])


# --- the export in the rating site's shape -----------------------------------------------------


def _tour_stage(event: Event, key: str) -> ChgkTourStage:
    stage = stage_or_404(event, key)
    if not isinstance(stage, ChgkTourStage):
        raise Http404
    return stage


def _json(data: Any, filename: str) -> HttpResponse:
    response = JsonResponse(
        data, safe=False, json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def rating_round(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    """One tour as the rating site's results array (public once the round is published)."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    the_stage = _tour_stage(event, stage)
    if round not in round_numbers(event, the_stage):
        raise Http404
    seen, at = visible_moment(event, the_stage, round, is_staff(request.user, event))
    if not seen:
        raise Http404
    return _json(rating_results(event, the_stage, round, at), f"{slug}-{stage}-{round}.json")


def rating_season(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    """Every tour the visitor may read, each with its results array."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404
    the_stage = _tour_stage(event, stage)
    tours = season_rating(event, the_stage, is_staff(request.user, event))
    return _json({"event": event.slug, "stage": stage, "tours": tours}, f"{slug}-{stage}.json")


urlpatterns = [
    path("", index, name="index"),
    path("entrants/", entrants_upload, name="entrants_upload"),
    path("entrants/<str:token>/", entrants_mapping, name="entrants_mapping"),
    path("entrants/<str:token>/preview/", entrants_check, name="entrants_preview"),
    path("entrants/<str:token>/import/", entrants_save, name="entrants_import"),
    path("results/", results_upload, name="results_upload"),
    path("results/<str:token>/", results_preview_page, name="results_preview"),
    path("results/<str:token>/import/", results_save, name="results_import"),
    path("chgk/", chgk_upload, name="chgk_upload"),
    path("chgk/<str:token>/", chgk_preview_page, name="chgk_preview"),
    path("chgk/<str:token>/import/", chgk_save, name="chgk_import"),
    path("chgk/<slug:stage>/rating.json", rating_season, name="rating_season"),
    path("chgk/<slug:stage>/<int:round>/rating.json", rating_round, name="rating_round"),
]
