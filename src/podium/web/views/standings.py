"""Public live standings: one page per stage, its table re-fetched by htmx every few seconds.

Vocabulary:
- visible: what of a stage a visitor may see — the event's staff always; anyone else only once
  the stage is published (preliminary or final), never a draft.
- version tag: the ETag of a stage's table, made of the newest result, verification and
  publication ids of the stage (three cheap indexed queries) plus who asks (staff or not) and the
  language. Any recorded result, correction, verification or publication changes it, in any app
  process; when it did not change, the table fragment answers ``304 Not Modified``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils import translation
from django.utils.cache import patch_cache_control

from podium.engine.errors import InputError
from podium.rules.schema import Stage
from podium.web.models import Event, Publication, Result, Verification
from podium.web.selectors.results import publication_current, standings_as_of, unverified
from podium.web.selectors.roles import is_staff

PUBLIC_STATES = (Publication.State.PRELIMINARY, Publication.State.FINAL)
POLL = "every 3s"


@dataclass(frozen=True)
class StageLink:
    key: str
    title: str
    state: str
    state_label: str
    visible: bool


def _event(request: HttpRequest, slug: str) -> tuple[Event, bool]:
    """The event and whether the visitor is its staff (a draft event only for its staff)."""
    event = get_object_or_404(Event, slug=slug)
    staff = is_staff(request.user, event)
    if event.status == Event.Status.DRAFT and not staff:
        raise Http404
    chose = translation.get_language_from_path(request.path_info) or request.COOKIES.get(
        settings.LANGUAGE_COOKIE_NAME
    )
    if not chose and event.language in dict(settings.LANGUAGES):
        translation.activate(event.language)
        request.LANGUAGE_CODE = event.language
    return event, staff


def _stage(event: Event, key: str) -> Stage:
    try:
        return event.rulebook.stage(key)
    except KeyError:
        raise Http404 from None


def _state(event: Event, stage: str) -> str:
    current = publication_current(event, stage)
    return current.state if current else Publication.State.DRAFT


def version_tag(event: Event, stage: str, staff: bool) -> str:
    """The ETag of the stage's table as the visitor sees it (see the module's vocabulary)."""
    results = Result.objects.filter(event=event, stage=stage)
    newest_result = results.aggregate(m=Max("id"))["m"] or 0
    newest_check = (
        Verification.objects.filter(result__event=event, result__stage=stage).aggregate(
            m=Max("id")
        )["m"]
        or 0
    )
    newest_publication = (
        Publication.objects.filter(event=event, stage=stage).aggregate(m=Max("id"))["m"] or 0
    )
    who = "s" if staff else "p"
    language = translation.get_language() or ""
    return f'"{newest_result}-{newest_check}-{newest_publication}-{who}-{language}"'


def _table_context(event: Event, stage: Stage, staff: bool) -> dict[str, Any]:
    state = _state(event, stage.key)
    context: dict[str, Any] = {
        "event": event,
        "stage": stage,
        "staff": staff,
        "state": state,
        "state_label": Publication.State(state).label,
        "visible": staff or state in PUBLIC_STATES,
        "points": getattr(stage, "points", None) is not None,
        "tables": [],
        "poll": POLL,
    }
    if not context["visible"]:
        return context
    try:
        standings = standings_as_of(event, stage.key)
    except InputError:
        return context  # no results yet
    unchecked = {str(r.entry.number) for r in unverified(event, stage.key)}
    context["tables"] = [
        {
            "key": table.key,
            "title": table.title,
            "rows": [{"row": row, "unverified": row.entry.id in unchecked} for row in table.rows],
        }
        for table in standings.tables
    ]
    return context


def stages_page(request: HttpRequest, slug: str) -> HttpResponse:
    event, staff = _event(request, slug)
    links = []
    for stage in event.rulebook.stages:
        state = _state(event, stage.key)
        links.append(
            StageLink(
                key=stage.key,
                title=stage.title,
                state=state,
                state_label=Publication.State(state).label,
                visible=staff or state in PUBLIC_STATES,
            )
        )
    context = {"event": event, "stages": links, "staff": staff, "tab": "standings"}
    return render(request, "podium/standings/stages.html", context)


def stage_page(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event, staff = _event(request, slug)
    the_stage = _stage(event, stage)
    context = _table_context(event, the_stage, staff)
    context["tab"] = "standings"
    context["etag"] = version_tag(event, stage, staff)
    response = render(request, "podium/standings/stage.html", context)
    patch_cache_control(response, no_cache=True)
    return response


def table_fragment(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    """The table alone (for htmx); ``304`` while nothing of the stage changed."""
    event, staff = _event(request, slug)
    the_stage = _stage(event, stage)
    etag = version_tag(event, stage, staff)
    asked = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if etag in asked or f"W/{etag}" in asked:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = _table_context(event, the_stage, staff)
        context["etag"] = etag
        response = render(request, "podium/standings/_table.html", context)
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    response["Vary"] = "Cookie"
    return response


app_name = "standings"
urlpatterns = [
    path("<slug:slug>/", stages_page, name="stages"),
    path("<slug:slug>/<slug:stage>/", stage_page, name="stage"),
    path("<slug:slug>/<slug:stage>/table/", table_fragment, name="table"),
]
