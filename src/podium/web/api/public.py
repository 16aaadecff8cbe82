"""API reads: events, their stages and rounds, entry lists and standings — what the public
pages show, to anyone; drafts only to a token of the event.

Vocabulary:
- visible event, staff caller, page: see ``podium.web.api.common``.
- round state: ``draft`` (not public: 404 without a token of the event), ``preliminary``
  (public, live) or ``final`` (the frozen table of the newest final version; older versions by
  ``?version=``). The same rule as the standings pages
  (``standings.selectors.standings.round_tables``).
- standings rows: the CLI's JSON rows (``podium.engine.document``) with the public table's
  extras, see ``podium.web.api.schemas``; a live table answers ``ETag`` and ``304`` to a poll
  with ``If-None-Match`` while nothing of the round changed.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.dateparse import parse_datetime
from ninja import Path, Query, Router
from ninja.renderers import JSONRenderer

from podium.rules.schema.stages import ChgkTourStage, Stage
from podium.web.api.auth import BearerToken, caller_token
from podium.web.api.common import (
    MAX_ROUND,
    OPTIONAL_TOKEN,
    READ_ERRORS,
    Paging,
    page,
    read_event,
    staff_token,
)
from podium.web.api.schemas import (
    EntryPage,
    EventOut,
    EventPage,
    StageOut,
    StandingsOut,
)
from podium.web.kernel.lookup import public_events, round_or_404, stage_or_404
from podium.web.kernel.stages import has_calendar, rounds_of, stage_entries
from podium.web.live import polls
from podium.web.live.versions import stage_tag
from podium.web.models import Entry, Event, Publication
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.publication import final_versions
from podium.web.results.selectors.tours import tour_lengths
from podium.web.standings.selectors.live import live_round, who
from podium.web.standings.selectors.standings import frozen_tables, stage_rounds

router = Router(auth=BearerToken(optional=True), tags=["read"])
RENDERER = JSONRenderer()  # the API's own (Django Ninja's default)

RoundNumber = Path(..., ge=1, le=MAX_ROUND)


def event_out(event: Event) -> dict[str, Any]:
    return {
        "slug": event.slug,
        "title": event.title,
        "rulebook": event.rulebook_key,
        "status": event.status,
        "starts_at": event.starts_at.astimezone(event.zone),  # ISO 8601 with its offset
        "timezone": event.timezone,
        "venue": event.venue,
        "language": event.language,
        "categories": [{"key": c.key, "title": c.title} for c in event.rulebook.categories],
    }


def stage_out(event: Event, stage: Stage, staff: bool) -> dict[str, Any]:
    calendar = rounds_of(event, stage) if has_calendar(stage) else []
    starts = {r.number: r.starts_at.astimezone(event.zone) for r in calendar}
    lengths = tour_lengths(event, stage, calendar) if isinstance(stage, ChgkTourStage) else {}
    rounds = stage_rounds(event, stage, staff)
    return {
        "key": stage.key,
        "title": stage.title,
        "format": stage.format,
        "category": stage.category,
        "groups": list(stage.groups),
        "rounds": [
            {
                "number": r.number,
                "title": r.title,
                "starts_at": starts.get(r.number),
                "questions": lengths.get(r.number),
                "state": r.state,
                "visible": r.visible,
                "version": r.version,
            }
            for r in rounds
        ],
    }


def entry_out(entry: Entry) -> dict[str, Any]:
    members = [m.person for m in entry.members.all()]
    return {
        "number": entry.number,
        "name": entry.name,
        "category": entry.category,
        "group": entry.group,
        "division": entry.division,
        "squad": entry.squad.name if entry.squad_id else None,
        "table_number": entry.table_number,
        "members": [str(p) for p in members],
        "countries": [p.country for p in members if p.country],
    }


def _listed(entries: Any) -> Any:
    return entries.select_related("squad").prefetch_related(roster())


@router.get(
    "/events", response={200: EventPage, **READ_ERRORS}, operation_id="events_list",
    summary="Events (not drafts)", openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def events_list(request: HttpRequest, paging: Query[Paging]) -> Any:
    visible = Q(pk__in=public_events().values("pk"))
    token = caller_token(request)
    if token is not None and staff_token(token, token.event):
        visible |= Q(pk=token.event_id)  # its own event, even in draft
    events = Event.objects.filter(visible).order_by("starts_at", "slug")
    count, items = page(events, paging)
    return {
        "count": count,
        "limit": paging.limit,
        "offset": paging.offset,
        "items": [event_out(e) for e in items],
    }


@router.get(
    "/events/{slug}", response={200: EventOut, **READ_ERRORS}, operation_id="event_get",
    summary="One event", openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def event_get(request: HttpRequest, slug: str) -> Any:
    event, _staff = read_event(request, slug)
    return event_out(event)


@router.get(
    "/events/{slug}/stages", response={200: list[StageOut], **READ_ERRORS},
    operation_id="stages_list", summary="The stages of an event, with rounds and their state",
    openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def stages_list(request: HttpRequest, slug: str) -> Any:
    event, staff = read_event(request, slug)
    return [stage_out(event, stage, staff) for stage in event.rulebook.stages]


@router.get(
    "/events/{slug}/stages/{stage}", response={200: StageOut, **READ_ERRORS},
    operation_id="stage_get", summary="One stage, with its rounds and their state",
    openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def stage_get(request: HttpRequest, slug: str, stage: str) -> Any:
    event, staff = read_event(request, slug)
    return stage_out(event, stage_or_404(event, stage), staff)


@router.get(
    "/events/{slug}/entries", response={200: EntryPage, **READ_ERRORS},
    operation_id="entries_list", summary="The confirmed entries, by number (paged)",
    openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def entries_list(
    request: HttpRequest, slug: str, paging: Query[Paging], category: str | None = None
) -> Any:
    event, _staff = read_event(request, slug)
    entries = event.entries.filter(status=Entry.Status.CONFIRMED)
    if category:
        entries = entries.filter(category=category)
    count, items = page(_listed(entries.order_by("number")), paging)
    return {
        "count": count,
        "limit": paging.limit,
        "offset": paging.offset,
        "items": [entry_out(e) for e in items],
    }


@router.get(
    "/events/{slug}/stages/{stage}/entries", response={200: EntryPage, **READ_ERRORS},
    operation_id="stage_entries_list",
    summary="The entry list of a stage (a final: those who advanced into it), paged",
    openapi_extra=OPTIONAL_TOKEN,
)  # fmt: skip
def stage_entries_list(request: HttpRequest, slug: str, stage: str, paging: Query[Paging]) -> Any:
    event, _staff = read_event(request, slug)
    count, items = page(_listed(stage_entries(event, stage_or_404(event, stage))), paging)
    return {
        "count": count,
        "limit": paging.limit,
        "offset": paging.offset,
        "items": [entry_out(e) for e in items],
    }


def _versions(versions: list[Publication], event: Event) -> list[dict[str, Any]]:
    zone = event.zone
    return [
        {"version": v.version, "changed_at": v.changed_at.astimezone(zone), "reason": v.reason}
        for v in versions
    ]


def _as_of(publication: Publication | None, event: Event) -> Any:
    frozen = publication.table if publication else None
    as_of = parse_datetime(frozen["as_of"]) if frozen and frozen.get("as_of") else None
    return as_of.astimezone(event.zone) if as_of else None


@router.get(
    "/events/{slug}/stages/{stage}/rounds/{round}/standings",
    response={200: StandingsOut, 304: None, **READ_ERRORS}, operation_id="standings_get",
    summary="The standings of a round: the CLI's JSON rows with their reasons",
    openapi_extra=OPTIONAL_TOKEN, by_alias=True,
)  # fmt: skip
def standings_get(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    stage: str,
    round: int = RoundNumber,
    version: int | None = Query(None, ge=1, le=10_000),
) -> Any:
    event, staff = read_event(request, slug)
    the_stage = stage_or_404(event, stage)
    round_or_404(event, the_stage, round)
    if version is not None:
        # Every frozen final version stays public once published (as its page does).
        versions = final_versions(event, the_stage.key, round)
        shown = next((v for v in versions if v.version == version), None)
        if shown is None:
            raise Http404
        return _standings(event, the_stage, round, Publication.State.FINAL, shown, versions,
                          frozen_tables(the_stage, shown))  # fmt: skip
    tag = stage_tag(event.slug, the_stage)
    current = polls.still_current(request, tag, round, "api")
    if current is not None:
        return polls.not_modified(current)
    view = live_round(event, the_stage, round, staff, tag)
    if not view.visible:
        raise Http404

    def answer() -> HttpResponse:
        data = _standings(event, the_stage, round, view.state, view.frozen, view.versions,
                          view.tables, view.problems, view.draft_tours)  # fmt: skip
        made = StandingsOut.model_validate(data).model_dump(by_alias=True)
        content = RENDERER.render(request, made, response_status=200)
        answer = HttpResponse(content, content_type=f"{RENDERER.media_type}; charset=utf-8")
        answer["ETag"] = polls.etag(tag, round, "api", who(staff))
        return answer

    # The same for every caller of a kind: made once per version (the previous one meanwhile).
    return polls.snapshot(request, who(staff), tag, answer)


def _standings(
    event: Event,
    stage: Stage,
    round: int,
    state: str,
    shown: Publication | None,
    versions: list[Publication],
    tables: list[dict[str, Any]],
    problems: list[str] | None = None,
    drafts: list[int] | None = None,
) -> dict[str, Any]:
    return {
        "event": event.slug,
        "rulebook": event.rulebook.key,
        "stage": stage.key,
        "round": round,
        "state": state,
        "version": shown.version if shown else None,
        "as_of": _as_of(shown, event),
        "versions": _versions(versions, event),
        "tables": tables,
        "problems": problems or [],
        "draft_tours": drafts or [],
    }
