"""Public live standings: a page per stage and round, its table re-fetched by htmx every few
seconds, a projector view for the venue screen, and the frozen final versions.

Vocabulary:
- visible, shown round, version tag, page row: see ``podium.web.selectors.standings``.
- fragment: the polled part of a page — the round's clocks and its tables. While the version
  tag did not change it answers ``304 Not Modified``; when it did, the tables are rendered once
  per tag and kept in Django's cache (shared by every app process when it is Redis), so many
  viewers do not recompute them. The clocks are rendered fresh: they carry the server's time.
- view: ``page`` (every column and the "why") or ``projector`` (large type, fewer columns).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import mark_safe

from podium.rules.schema import Stage
from podium.web.models import Event, Publication
from podium.web.selectors.appeals import published_verdicts
from podium.web.selectors.charts import stage_charts
from podium.web.selectors.clock import stage_clocks
from podium.web.selectors.roles import is_organizer, is_staff
from podium.web.selectors.stages import has_calendar, rounds_of
from podium.web.selectors.standings import (
    frozen_tables,
    round_tables,
    shown_round,
    stage_rounds,
    version_tag,
)

POLL = "every 3s"
CACHE_SECONDS = 600


def public_event(request: HttpRequest, slug: str) -> tuple[Event, bool]:
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


def _check_round(event: Event, stage: Stage, round: int) -> None:
    known = [r.number for r in rounds_of(event, stage)] if has_calendar(stage) else [1]
    if round not in known:
        raise Http404


def _round_args(event: Event, stage: Stage, round: int) -> list[Any]:
    """URL arguments: a stage off the calendar keeps the stage's own URLs for its round 1."""
    if round == 1 and not has_calendar(stage):
        return [event.slug, stage.key]
    return [event.slug, stage.key, round]


def _fragment_url(event: Event, stage: Stage, round: int, view: str) -> str:
    args = _round_args(event, stage, round)
    if view == "projector":
        return reverse("standings:projector-table", args=args)
    return reverse("standings:table" if len(args) == 2 else "standings:round-table", args=args)


def _tables_html(event: Event, stage: Stage, round: int, staff: bool, etag: str, view: str) -> str:
    """The round's tables, rendered once per version tag (see the module's vocabulary)."""
    key = f"podium:standings:{event.pk}:{stage.key}:{round}:{view}:{etag}"
    html = cache.get(key)
    if html is None:
        context = {
            "event": event,
            "stage": stage,
            "round": round,
            "view": round_tables(event, stage, round, staff),
            "points": stage.points is not None,
            "points_format": f"-{stage.points.decimals}" if stage.points else "",
            "compact": view == "projector",
        }
        html = render_to_string("podium/standings/_round.html", context)
        cache.set(key, html, CACHE_SECONDS)
    return mark_safe(html)  # rendered by our own template, which escapes what it shows


def _live_context(event: Event, stage: Stage, round: int, staff: bool, view: str) -> dict[str, Any]:
    etag = version_tag(event, stage, round, staff)
    clocks = stage_clocks(event, stage, round)
    return {
        "etag": etag,
        "poll": POLL,
        "table_url": _fragment_url(event, stage, round, view),
        "table_html": _tables_html(event, stage, round, staff, etag, view),
        "clocks": clocks if any(c["state"] != "waiting" for c in clocks) else [],
    }


def _no_cache(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_cache=True)
    response["Vary"] = "Cookie"
    return response


def stages_page(request: HttpRequest, slug: str) -> HttpResponse:
    event, staff = public_event(request, slug)
    stages = [
        {
            "stage": stage,
            "rounds": stage_rounds(event, stage, staff),
            "calendar": has_calendar(stage),
        }
        for stage in event.rulebook.stages
    ]
    context = {"event": event, "stages": stages, "staff": staff, "tab": "standings"}
    return render(request, "podium/standings/stages.html", context)


def _round_page(request: HttpRequest, slug: str, stage: str, round: int | None) -> HttpResponse:
    event, staff = public_event(request, slug)
    the_stage = _stage(event, stage)
    rounds = stage_rounds(event, the_stage, staff)
    if round is None:
        round = shown_round(the_stage, rounds)
    else:
        _check_round(event, the_stage, round)
    context: dict[str, Any] = {
        "event": event,
        "stage": the_stage,
        "staff": staff,
        "tab": "standings",
        "rounds": rounds if has_calendar(the_stage) else [],
        "round": round,
        "current": next((r for r in rounds if r.number == round), None),
    }
    if round is not None:
        context |= _live_context(event, the_stage, round, staff, "page")
        context["projector_url"] = reverse(
            "standings:projector", args=_round_args(event, the_stage, round)
        )
        moment = _as_of(request, event) if staff else None
        context["charts"] = stage_charts(event, the_stage, round, staff, moment)
        shown = context["current"]
        if the_stage.format == "chgk-tour" and shown and shown.visible and moment is None:
            context["verdicts"] = published_verdicts(event, the_stage.key, round)
        if moment is not None:  # the table as it stood then: no polling, never cached
            context["as_of"] = moment
            context["as_of_view"] = round_tables(event, the_stage, round, staff, moment)
            context["points"] = the_stage.points is not None
            context["points_format"] = f"-{the_stage.points.decimals}" if the_stage.points else ""
    return _no_cache(render(request, "podium/standings/stage.html", context))


def _as_of(request: HttpRequest, event: Event) -> dt.datetime | None:
    """The moment of ``?as_of=YYYY-MM-DDTHH:MM[:SS]`` in the event's time zone, if given."""
    text = request.GET.get("as_of", "").strip()
    if not text:
        return None
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=event.zone)


def stage_page(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    return _round_page(request, slug, stage, None)


def round_page(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponse:
    return _round_page(request, slug, stage, round)


def projector_page(
    request: HttpRequest, slug: str, stage: str, round: int | None = None
) -> HttpResponse:
    event, staff = public_event(request, slug)
    the_stage = _stage(event, stage)
    rounds = stage_rounds(event, the_stage, staff)
    if round is None:
        round = shown_round(the_stage, rounds)
        if round is None:
            raise Http404
    else:
        _check_round(event, the_stage, round)
    current = next((r for r in rounds if r.number == round), None)
    context = {"event": event, "stage": the_stage, "round": round, "current": current}
    context |= _live_context(event, the_stage, round, staff, "projector")
    return _no_cache(render(request, "podium/standings/projector.html", context))


def _fragment(request: HttpRequest, slug: str, stage: str, round: int, view: str) -> HttpResponse:
    """The clocks and tables alone (for htmx); ``304`` while nothing of the round changed."""
    event, staff = public_event(request, slug)
    the_stage = _stage(event, stage)
    _check_round(event, the_stage, round)
    etag = version_tag(event, the_stage, round, staff)
    asked = [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]
    if etag in asked or f"W/{etag}" in asked:
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = _live_context(event, the_stage, round, staff, view)
        response = render(request, "podium/standings/_live.html", context)
    response["ETag"] = etag
    return _no_cache(response)


def table_fragment(request: HttpRequest, slug: str, stage: str, round: int = 1) -> HttpResponse:
    return _fragment(request, slug, stage, round, "page")


def projector_fragment(request: HttpRequest, slug: str, stage: str, round: int = 1) -> HttpResponse:
    return _fragment(request, slug, stage, round, "projector")


def version_page(
    request: HttpRequest, slug: str, stage: str, round: int, version: int
) -> HttpResponse:
    """One frozen final version of a round (public: it was published)."""
    event, _staff = public_event(request, slug)
    the_stage = _stage(event, stage)
    publication = get_object_or_404(
        Publication.objects.select_related("changed_by"),
        event=event, stage=stage, round=round, state=Publication.State.FINAL, version=version,
    )  # fmt: skip
    context = {
        "event": event,
        "stage": the_stage,
        "publication": publication,
        "as_of": (publication.table or {}).get("as_of", ""),
        "tables": frozen_tables(the_stage, publication),
        "points": the_stage.points is not None,
        "points_format": f"-{the_stage.points.decimals}" if the_stage.points else "",
        "organizer": is_organizer(request.user, event),
    }
    return render(request, "podium/publication/version.html", context)


app_name = "standings"
urlpatterns = [
    path("<slug:slug>/", stages_page, name="stages"),
    path("<slug:slug>/<slug:stage>/", stage_page, name="stage"),
    path("<slug:slug>/<slug:stage>/table/", table_fragment, name="table"),
    path("<slug:slug>/<slug:stage>/projector/", projector_page, name="projector"),
    path("<slug:slug>/<slug:stage>/projector/table/", projector_fragment, name="projector-table"),
    path("<slug:slug>/<slug:stage>/<int:round>/", round_page, name="round"),
    path("<slug:slug>/<slug:stage>/<int:round>/table/", table_fragment, name="round-table"),
    path("<slug:slug>/<slug:stage>/<int:round>/projector/", projector_page, name="projector"),
    path(
        "<slug:slug>/<slug:stage>/<int:round>/projector/table/",
        projector_fragment,
        name="projector-table",
    ),
    path(
        "<slug:slug>/<slug:stage>/<int:round>/versions/<int:version>/",
        version_page,
        name="version",
    ),
]
