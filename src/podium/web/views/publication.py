"""Organizer controls for publishing a stage's standings, and the frozen final tables.

Vocabulary:
- publication, frozen table, version: see ``podium.web.models.results``; every change goes
  through ``publication_set``, which refuses anything out of order (draft → preliminary →
  final; after final a change needs a reason and starts a new version).
- controls page: one block per single-result stage with its state, how many current results
  are unverified, and the moves the organizer may make. Organizers only; 404 for anyone else.
- version page: one frozen final table with when and by whom it was made. Public (a final
  table is published), except that a draft event stays hidden from everybody but its staff.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.rules.schema import Stage
from podium.web.models import Event, Publication
from podium.web.selectors.results import (
    SINGLE_RESULT_FORMATS,
    final_versions,
    publication_current,
    unverified,
)
from podium.web.selectors.roles import is_organizer, is_staff
from podium.web.services.base import Refused
from podium.web.services.publication import publication_set
from podium.web.views.common import event_for, refusal_text

app_name = "publication"

_MOVES = {
    Publication.State.DRAFT: (Publication.State.PRELIMINARY,),
    Publication.State.PRELIMINARY: (Publication.State.DRAFT, Publication.State.FINAL),
    Publication.State.FINAL: (
        Publication.State.DRAFT,
        Publication.State.PRELIMINARY,
        Publication.State.FINAL,
    ),
}


@dataclass(frozen=True)
class StageControls:
    stage: Stage
    state: Publication.State
    version: int
    unverified: int
    moves: tuple[Publication.State, ...]
    reason_required: bool
    versions: list[Publication]


def _event(request: HttpRequest, slug: str) -> Event:
    return event_for(request, slug, is_organizer)


def _stages(event: Event) -> list[Stage]:
    return [s for s in event.rulebook.stages if s.format in SINGLE_RESULT_FORMATS]


def _controls(event: Event, stage: Stage) -> StageControls:
    current = publication_current(event, stage.key)
    state = Publication.State(current.state) if current else Publication.State.DRAFT
    return StageControls(
        stage=stage,
        state=state,
        version=current.version if current else 1,
        unverified=len(unverified(event, stage.key)),
        moves=_MOVES[state],
        reason_required=state == Publication.State.FINAL,
        versions=final_versions(event, stage.key),
    )


@login_required(login_url="accounts:login")
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(request, slug)
    context = {"event": event, "stages": [_controls(event, s) for s in _stages(event)]}
    return render(request, "podium/publication/index.html", context)


@login_required(login_url="accounts:login")
@require_POST
def change(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = _event(request, slug)
    if stage not in {s.key for s in _stages(event)}:
        raise Http404
    try:
        done = publication_set(
            event=event,
            stage=stage,
            state=request.POST.get("state", ""),
            by=request.user,
            reason=request.POST.get("reason", ""),
        )
    except Refused as refusal:
        messages.error(request, refusal_text(refusal))
    else:
        messages.success(
            request,
            _("%(stage)s is now %(state)s (version %(version)d).")
            % {
                "stage": event.rulebook.stage(stage).title,
                "state": Publication.State(done.state).label,
                "version": done.version,
            },
        )
    return redirect("publication:index", slug=slug)


def version_page(request: HttpRequest, slug: str, stage: str, version: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if event.status == Event.Status.DRAFT and not is_staff(request.user, event):
        raise Http404
    try:
        the_stage = event.rulebook.stage(stage)
    except KeyError:
        raise Http404 from None
    publication = get_object_or_404(
        Publication.objects.select_related("changed_by"),
        event=event,
        stage=stage,
        state=Publication.State.FINAL,
        version=version,
    )
    table = publication.table or {}
    context = {
        "event": event,
        "stage": the_stage,
        "publication": publication,
        "as_of": table.get("as_of", ""),
        "tables": table.get("tables", []),
        "points": any(
            row.get("points") is not None for t in table.get("tables", []) for row in t["rows"]
        ),
        "organizer": is_organizer(request.user, event),
    }
    return render(request, "podium/publication/version.html", context)


urlpatterns = [
    path("", index, name="index"),
    path("<slug:stage>/", change, name="change"),
    path("<slug:stage>/versions/<int:version>/", version_page, name="version"),
]
