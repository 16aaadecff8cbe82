"""Organizer controls for publishing a stage's standings, and the frozen final tables.

Vocabulary:
- publication, frozen table, version: see ``podium.web.models.results``; every change goes
  through ``publication_set``, which refuses anything out of order (draft → preliminary →
  final; after final a change needs a reason and starts a new version).
- controls page: one block per published stage and round with its state, how many current
  results are unverified, the dates the rulebook sets, the moves the organizer may make and
  who has advanced (``podium.web.standings.selectors.publication``). Organizers only; 404 for anyone
  else.
- version page: one frozen final table, public: ``standings:version`` (the standings views).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from podium.web.kernel.lookup import event_for
from podium.web.kernel.refusals import Refused, refusal_text
from podium.web.kernel.roles import is_organizer
from podium.web.kernel.text import plain
from podium.web.models import Publication
from podium.web.standings.selectors.publication import controls, published_stages
from podium.web.standings.services.publication import publication_set

app_name = "publication"


@login_required
def index(request: HttpRequest, slug: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    context = {"event": event, "stages": controls(event)}
    return render(request, "podium/publication/index.html", context)


@login_required
@require_POST
def change(request: HttpRequest, slug: str, stage: str) -> HttpResponse:
    event = event_for(request, slug, is_organizer)
    if stage not in {s.key for s in published_stages(event)}:
        raise Http404
    round_text = request.POST.get("round", "1")
    round = int(round_text) if round_text.isdigit() else 1
    try:
        done = publication_set(
            event=event,
            stage=stage,
            round=round,
            state=request.POST.get("state", ""),
            by=request.user,
            reason=plain(request.POST.get("reason", "")),
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
    return redirect(reverse("publication:index", kwargs={"slug": slug}) + f"#stage-{stage}")


urlpatterns = [
    path("", index, name="index"),
    path("<slug:stage>/", change, name="change"),
]
