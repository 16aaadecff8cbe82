"""The round board (phone and laptop): per stage and round, results in and expected, what waits
for a confirmation and whose it is, mismatches, open appeals and protests, the publication
state and the next step as a link.

Organizers, head referees and whoever else confirms results (the rulebook may name the jury);
anyone else gets 404.

Vocabulary:
- line, next step: see ``podium.web.standings.selectors.board``.
- live: the lines are a fragment htmx polls every few seconds with the ETag of the board's
  version tag (``podium.web.live.versions.board_tag``): ``304`` while nothing they show changed,
  as the standings' polls are answered.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from podium.web.kernel.lookup import event_for
from podium.web.kernel.roles import is_organizer, may_confirm_any
from podium.web.live import polls, versions
from podium.web.models import Event, Publication
from podium.web.results.selectors.rows import ENTRY_FORMATS, RECORDED_FORMATS
from podium.web.results.views.results import desk_url
from podium.web.standings.selectors import board as select

app_name = "board"
POLL = "every 5s"


def _record_url(event: Event, line: select.Line) -> str | None:
    url = desk_url(event, line.stage, line.round)
    if url is None and line.stage.format in ENTRY_FORMATS:
        kwargs = {"slug": event.slug, "stage": line.stage.key, "round": line.round}
        url = reverse("results:round", kwargs=kwargs)
    return url


def _next(event: Event, line: select.Line, organizer: bool) -> tuple[str, str | None]:
    """The next step in words, and where it is done (``None``: not by this viewer)."""
    step, slug = line.next_step, event.slug
    checks = reverse("checks:index", kwargs={"slug": slug})
    publish = reverse("publication:index", kwargs={"slug": slug}) if organizer else None
    if step == select.RECORD:
        n = line.missing
        text = (
            ngettext("Record %(n)d missing result", "Record %(n)d missing results", n) % {"n": n}
            if n
            else _("Record the results")
        )
        return text, _record_url(event, line)
    if step == select.RESOLVE:
        n = line.mismatches
        text = ngettext("Resolve %(n)d mismatch", "Resolve %(n)d mismatches", n) % {"n": n}
        return text, checks
    if step == select.CONFIRM:
        n = line.unconfirmed
        text = ngettext("Confirm %(n)d result", "Confirm %(n)d results", n) % {"n": n}
        return text, f"{checks}#confirm-{line.stage.key}-{line.round}"
    if step == select.HEAR:
        protests = any(not a.kinds for a in event.rulebook.appeals)
        name = "protests:index" if line.protests and protests else "appeals:list"
        return _("Hear the open appeals and protests"), reverse(name, kwargs={"slug": slug})
    if step == select.PRELIMINARY:
        return _("Publish the preliminary results"), publish
    if step == select.FINAL:
        return _("Publish the final results"), publish
    return _("Done: the results are final"), None


def _context(request: HttpRequest, event: Event) -> dict[str, Any]:
    stages = [s for s in event.rulebook.stages if s.format in RECORDED_FORMATS]
    tag = versions.board_tag(event.slug, stages)
    organizer = is_organizer(request.user, event)
    who = "o" if organizer else "s"  # an organizer's links to publish differ
    etag = polls.etag(tag, 0, "board", who, translation.get_language() or "")
    lines = []
    for line in select.board(event):
        text, url = _next(event, line, organizer)
        lines.append({"line": line, "next": text, "url": url})
    states = dict(Publication.State.choices)
    return {"event": event, "lines": lines, "etag": etag, "poll": POLL, "states": states}


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, may_confirm_any)
    return render(request, "podium/board/index.html", _context(request, event))


@login_required
def lines(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The lines alone, for the poll; ``304`` while nothing they show changed."""
    event = event_for(request, slug, may_confirm_any)
    stages = [s for s in event.rulebook.stages if s.format in RECORDED_FORMATS]
    current = polls.still_current(request, versions.board_tag(event.slug, stages), 0, "board")
    if current is not None:
        return polls.not_modified(current)
    context = _context(request, event)
    response = render(request, "podium/board/_lines.html", context)
    response["ETag"] = str(context["etag"])
    response["Cache-Control"] = "no-cache"
    return response


urlpatterns = [
    path("", index, name="index"),
    path("lines/", lines, name="lines"),
]
