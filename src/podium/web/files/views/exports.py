"""Downloads: standings, entry lists, the start list, lane schedules and the check-in list as
CSV, XLSX or PDF, and a stage's diplomas as PDF.

Vocabulary:
- document, format: see ``podium.web.files.selectors.exports`` and ``podium.web.files.formats``.
- visibility: a standings export follows its page — the public gets a round once it is
  preliminary or final, the event's staff always (a draft says "draft" on every page); entry
  lists, start lists and lane schedules are public like their pages; the check-in list,
  scorecards and diplomas are for the event's staff only. Anyone else gets 404.
- language: an export speaks the language of the page it was downloaded from — the page's
  links carry its prefix, and an unprefixed link is negotiated like the page
  (``podium.web.kernel.languages``) — and shows times in the event's time zone; diplomas are
  printed in the event's language.
- file name: ``<event>-<stage>-<round>.<format>`` for standings, ``<event>-<list>.<format>``
  for the lists, as an attachment.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, register_converter
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control

from podium.web.draws.selectors import lanes_draw
from podium.web.files.formats import CONTENT_TYPES, FORMATS
from podium.web.files.formats.csv import write_csv
from podium.web.files.formats.pdf import write_diplomas, write_pdf
from podium.web.files.formats.xlsx import write_xlsx
from podium.web.files.selectors.diplomas import diplomas as diploma_set
from podium.web.files.selectors.exports import Document, standings_document
from podium.web.files.selectors.lists import (
    check_in_document,
    entries_document,
    lanes_document,
    start_list_document,
)
from podium.web.files.selectors.scorecards import scorecards_document
from podium.web.kernel.lookup import event_for, stage_or_404
from podium.web.kernel.memo import shared_reads
from podium.web.kernel.roles import is_staff
from podium.web.kernel.stages import has_calendar, round_numbers, rounds_of
from podium.web.models import Event, Squad


class FormatConverter:
    regex = "|".join(FORMATS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(FormatConverter, "export_format")


def _event(request: HttpRequest, slug: str) -> tuple[Event, bool]:
    """The event and whether the visitor is its staff (a draft event only for its staff)."""
    event = get_object_or_404(Event, slug=slug)
    staff = is_staff(request.user, event)
    if event.status == Event.Status.DRAFT and not staff:
        raise Http404
    return event, staff


def _attachment(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _download(event: Event, build: Callable[[], Document | None], fmt: str) -> HttpResponse:
    """Builds the document and writes it in the request's language, in the event's time zone."""
    with timezone.override(event.zone), shared_reads():  # its tables and charts: one read
        document = build()
        if document is None:
            raise Http404
        if fmt == "csv":
            content = write_csv(document)
        elif fmt == "xlsx":
            content = write_xlsx(document)
        else:
            content = write_pdf(document, {"event": event})
    return _attachment(content, CONTENT_TYPES[fmt], f"{document.filename}.{fmt}")


def standings(request: HttpRequest, slug: str, stage: str, round: int, fmt: str) -> HttpResponse:
    event, staff = _event(request, slug)
    the_stage = stage_or_404(event, stage)
    known = [r.number for r in rounds_of(event, the_stage)] if has_calendar(the_stage) else [1]
    if round not in known:
        raise Http404
    now = timezone.now()
    return _download(event, lambda: standings_document(event, the_stage, round, staff, now), fmt)


def entries(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    event, _staff = _event(request, slug)
    return _download(event, lambda: entries_document(event, timezone.now()), fmt)


def start_list(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    event, _staff = _event(request, slug)
    return _download(event, lambda: start_list_document(event, timezone.now()), fmt)


def lanes(request: HttpRequest, slug: str, squad_id: int, fmt: str) -> HttpResponse:
    event, _staff = _event(request, slug)
    squad = get_object_or_404(Squad, event=event, pk=squad_id)
    draw = lanes_draw(event, squad)
    if draw is None:
        raise Http404
    return _download(event, lambda: lanes_document(event, squad, draw, timezone.now()), fmt)


@login_required
def check_in(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    return _download(event, lambda: check_in_document(event, timezone.now()), fmt)


@login_required
def scorecards(request: HttpRequest, slug: str, stage: str, fmt: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage)
    tour = None
    if has_calendar(the_stage) and "tour" in request.GET:
        text = request.GET["tour"]
        tour = int(text) if text.isdigit() and len(text) < 6 else None
        if tour not in round_numbers(event, the_stage):
            raise Http404
    return _download(
        event, lambda: scorecards_document(event, the_stage, timezone.now(), tour), fmt
    )


@login_required
def diplomas(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_staff)
    the_stage = stage_or_404(event, stage)
    if the_stage.prizes is None:
        raise Http404
    with translation.override(event.language), timezone.override(event.zone):
        content = write_diplomas(event, the_stage, diploma_set(event, the_stage))
    return _attachment(content, CONTENT_TYPES["pdf"], f"{event.slug}-{the_stage.key}-diplomas.pdf")


app_name = "exports"
urlpatterns = [
    path(
        "<slug:slug>/standings/<slug:stage>/<int:round>.<export_format:fmt>",
        standings,
        name="standings",
    ),
    path("<slug:slug>/entries.<export_format:fmt>", entries, name="entries"),
    path("<slug:slug>/start-list.<export_format:fmt>", start_list, name="start-list"),
    path("<slug:slug>/lanes/<int:squad_id>.<export_format:fmt>", lanes, name="lanes"),
    path("<slug:slug>/check-in.<export_format:fmt>", check_in, name="check-in"),
    path("<slug:slug>/diplomas/<slug:stage>.pdf", diplomas, name="diplomas"),
    path("<slug:slug>/scorecards/<slug:stage>.<export_format:fmt>", scorecards, name="scorecards"),
]
