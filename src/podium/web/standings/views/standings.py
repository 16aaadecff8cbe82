"""Public live standings: a page per stage and round, its table re-fetched by htmx every few
seconds, a projector view for the venue screen, and the frozen final versions.

Vocabulary:
- visible, shown round, page row: see ``podium.web.standings.selectors.standings``; version tag:
  ``podium.web.live.versions``; live round: ``podium.web.standings.selectors.live``.
- fragment: the polled part of a page — the round's clocks and its tables. While the version
  tag did not change it answers ``304 Not Modified`` (mostly before this module runs: see
  ``podium.web.live.polls``); when it did, the tables are computed and rendered once per version
  (single flight, ``podium.web.live.flight``) and the whole answer kept as a snapshot, so thousands
  of viewers cost one rendering. The clocks carry no server time of their own: every answer
  says it in a header, which the clock script reads.
- view: ``page`` (every column) or ``projector`` (large type, fewer columns).
- search: ``?q=`` lists the rows whose entry or a member matches (see
  ``podium.web.standings.selectors.search``), each linking to the competitor's page; a plain GET
  form, so it works without a script.
- why: a row's reasons, behind its name (``?why=<table>.<number>``): the fragment for the
  page's script, or a page of its own without JavaScript. A table of thousands of rows stays
  small because its reasons are fetched only when opened.
- whole page: an anonymous visitor's page is itself a snapshot per version and language;
  someone logged in gets it rendered (their name and forms are on it), the tables still from
  the cache.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe

from podium.rules.schema.stages import Stage
from podium.web.disputes.selectors.appeals import published_verdicts
from podium.web.kernel.languages import speak_event_language
from podium.web.kernel.lookup import round_or_404, stage_or_404
from podium.web.kernel.memo import shared_reads
from podium.web.kernel.roles import is_organizer, is_staff
from podium.web.kernel.stages import has_calendar
from podium.web.kernel.text import search_text
from podium.web.kernel.texts import points_shown
from podium.web.live import flight, polls, versions
from podium.web.live.headers import poll_seconds
from podium.web.models import Event, Publication
from podium.web.results.selectors.clock import stage_clocks
from podium.web.standings.selectors.charts.stage import stage_charts
from podium.web.standings.selectors.live import find_row, live_round, live_row, who
from podium.web.standings.selectors.search import name_search
from podium.web.standings.selectors.standings import (
    frozen_tables,
    round_tables,
    shown_round,
    stage_rounds,
)

POLL = f"every {poll_seconds()}s"  # the shared caches keep an answer as long
WHY = "?why="


def public_event(request: HttpRequest, slug: str) -> tuple[Event, bool]:
    """The event and whether the visitor is its staff (a draft event only for its staff)."""
    event = get_object_or_404(Event, slug=slug)
    staff = is_staff(request.user, event)
    if event.status == Event.Status.DRAFT and not staff:
        raise Http404
    speak_event_language(request, event.language)
    return event, staff


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


def _tables_html(
    event: Event, stage: Stage, round: int, staff: bool, tag: str, view: str
) -> SafeString:
    """The round's tables rendered at ``tag``, once per version and language."""
    language = translation.get_language() or ""
    subject = f"podium:html:{event.slug}:{stage.key}:{round}:{view}:{who(staff)}:{language}"

    def draw() -> str:
        context = {
            "event": event,
            "stage": stage,
            "round": round,
            "view": live_round(event, stage, round, staff, tag),
            "compact": view == "projector",
            "why_link": WHY,
            **points_shown(event.rulebook, stage),
        }
        return render_to_string("podium/standings/_round.html", context)

    # Rendered by our own template, which escapes what it shows.
    return mark_safe(flight.once(subject, tag, draw, exact=True)[1])


def _live_context(
    event: Event, stage: Stage, round: int, staff: bool, view: str, tag: str
) -> dict[str, Any]:
    clocks = [
        clock | {"server_now": None}  # said by a header: the answer may be served much later
        for clock in stage_clocks(event, stage, round)
    ]
    return {
        "etag": polls.etag(tag, round, view, who(staff), translation.get_language() or ""),
        "poll": POLL,
        "table_url": _fragment_url(event, stage, round, view),
        "table_html": _tables_html(event, stage, round, staff, tag, view),
        "clocks": clocks if any(c["state"] != "waiting" for c in clocks) else [],
    }


def _whole(request: HttpRequest, staff: bool) -> bool:
    """Whether the page is the same for every visitor like this one (a snapshot; see the
    vocabulary): anonymous, asking nothing of its own."""
    return not staff and polls.anonymous(request) and not request.GET


def _served(request: HttpRequest, staff: bool, tag: str, page: Any, etag: str) -> HttpResponseBase:
    """The page, as a snapshot for an anonymous visitor, rendered for anyone else."""

    def rendered() -> HttpResponse:
        with shared_reads():  # its table and its charts read the round once
            response: HttpResponse = page()
        response["ETag"] = etag
        return response

    if _whole(request, staff):
        return polls.snapshot(request, "p", tag, rendered)
    return rendered()


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


def _why(
    request: HttpRequest,
    event: Event,
    stage: Stage,
    round: int,
    found: tuple[dict[str, Any], dict[str, Any]] | None,
    back: str,
) -> HttpResponse:
    """One row's reasons (see the vocabulary); 404 for a row the table does not have."""
    if found is None:
        raise Http404
    table, row = found
    number = str(row.get("number") or row["id"])
    context = {"event": event, "stage": stage, "round": round, "table": table, "row": row,
               "competitor": int(number) if number.isdigit() else None,
               "back": f"{back}#row-{table['key']}-{row.get('number') or row['id']}"}  # fmt: skip
    if request.htmx:
        return render(request, "podium/standings/_why.html", context)
    return render(request, "podium/standings/why.html", context)


def _round_page(request: HttpRequest, slug: str, stage: str, round: int | None) -> HttpResponseBase:
    event, staff = public_event(request, slug)
    the_stage = stage_or_404(event, stage)
    tag = versions.stage_tag(event.slug, the_stage)
    rounds = stage_rounds(event, the_stage, staff)
    if round is None:
        round = shown_round(the_stage, rounds)
    else:
        round_or_404(event, the_stage, round)
    moment = _as_of(request, event) if staff else None
    if "why" in request.GET and round is not None:
        key = request.GET["why"]
        if moment is not None:
            found = find_row(round_tables(event, the_stage, round, staff, moment).tables, key)
        else:
            found = live_row(event, the_stage, round, staff, tag, key)
        return _why(request, event, the_stage, round, found, request.path)

    def page() -> HttpResponse:
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
            if moment is None:
                context |= _live_context(event, the_stage, round, staff, "page", tag)
            context["projector_url"] = reverse(
                "standings:projector", args=_round_args(event, the_stage, round)
            )
            context["charts"] = stage_charts(event, the_stage, round, staff, moment)
            shown = context["current"]
            if the_stage.format == "chgk-tour" and shown and shown.visible and moment is None:
                context["verdicts"] = published_verdicts(event, the_stage.key, round)
            query = search_text(request.GET.get("q", "")).strip()
            if query and moment is None:  # a search answers a visitor: never a snapshot
                context["query"] = query
                context["search"] = name_search(event, the_stage, round, staff, tag, query)
            if moment is not None:  # the table as it stood then: no polling, never cached
                context["as_of"] = moment
                context["as_of_view"] = round_tables(event, the_stage, round, staff, moment)
                context["why_link"] = "?" + urlencode({"as_of": request.GET["as_of"]}) + "&why="
                context |= points_shown(event.rulebook, the_stage)
        return render(request, "podium/standings/stage.html", context)

    language = translation.get_language() or ""
    return _served(request, staff, tag, page, polls.etag(tag, round or 0, "whole", "p", language))


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


def stage_page(request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
    return _round_page(request, slug, stage, None)


def round_page(request: HttpRequest, slug: str, stage: str, round: int) -> HttpResponseBase:
    return _round_page(request, slug, stage, round)


def projector_page(
    request: HttpRequest, slug: str, stage: str, round: int | None = None
) -> HttpResponseBase:
    event, staff = public_event(request, slug)
    the_stage = stage_or_404(event, stage)
    tag = versions.stage_tag(event.slug, the_stage)
    rounds = stage_rounds(event, the_stage, staff)
    if round is None:
        round = shown_round(the_stage, rounds)
        if round is None:
            raise Http404
    else:
        round_or_404(event, the_stage, round)
    shown: int = round

    def page() -> HttpResponse:
        current = next((r for r in rounds if r.number == shown), None)
        context = {"event": event, "stage": the_stage, "round": shown, "current": current}
        context |= _live_context(event, the_stage, shown, staff, "projector", tag)
        return render(request, "podium/standings/projector.html", context)

    language = translation.get_language() or ""
    return _served(request, staff, tag, page, polls.etag(tag, shown, "screen", "p", language))


def _fragment(
    request: HttpRequest, slug: str, stage: str, round: int, view: str
) -> HttpResponseBase:
    """The clocks and tables alone (for htmx); ``304`` while nothing of the round changed."""
    event, staff = public_event(request, slug)
    the_stage = stage_or_404(event, stage)
    round_or_404(event, the_stage, round)
    tag = versions.stage_tag(event.slug, the_stage)
    current = polls.still_current(request, tag, round, view)
    if current is not None:
        return polls.not_modified(current)

    def fragment() -> HttpResponse:
        with shared_reads():
            context = _live_context(event, the_stage, round, staff, view, tag)
        response = render(request, "podium/standings/_live.html", context)
        response["ETag"] = context["etag"]
        return response

    return polls.snapshot(request, who(staff), tag, fragment)


def table_fragment(request: HttpRequest, slug: str, stage: str, round: int = 1) -> HttpResponseBase:
    return _fragment(request, slug, stage, round, "page")


def projector_fragment(
    request: HttpRequest, slug: str, stage: str, round: int = 1
) -> HttpResponseBase:
    return _fragment(request, slug, stage, round, "projector")


def version_page(
    request: HttpRequest, slug: str, stage: str, round: int, version: int
) -> HttpResponse:
    """One frozen final version of a round (public: it was published)."""
    event, _staff = public_event(request, slug)
    the_stage = stage_or_404(event, stage)
    publication = get_object_or_404(
        Publication.objects.select_related("changed_by"),
        event=event, stage=stage, round=round, state=Publication.State.FINAL, version=version,
    )  # fmt: skip
    tables = frozen_tables(the_stage, publication)
    if "why" in request.GET:
        found = find_row(tables, request.GET["why"])
        return _why(request, event, the_stage, round, found, request.path)
    context = {
        "event": event,
        "stage": the_stage,
        "publication": publication,
        "as_of": (publication.table or {}).get("as_of", ""),
        "tables": tables,
        "why_link": WHY,
        "organizer": is_organizer(request.user, event),
        **points_shown(event.rulebook, the_stage),
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
