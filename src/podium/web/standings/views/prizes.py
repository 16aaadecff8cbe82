"""The prizes page of an event: per stage that awards prizes, who wins which place.

Vocabulary:
- prize stage, prize table, award, pending play-off, source: see
  ``podium.web.standings.selectors.prizes``. Visibility is the standings' own: staff see drafts,
  anyone else only what is published (preliminary or final).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.cache import patch_cache_control

from podium.web.standings.selectors.prizes import prize_stages
from podium.web.standings.views.standings import public_event


def index(request: HttpRequest, slug: str) -> HttpResponse:
    event, staff = public_event(request, slug)
    context = {
        "event": event,
        "staff": staff,
        "stages": prize_stages(event, staff),
        "tab": "prizes",
    }
    response = render(request, "podium/prizes/index.html", context)
    patch_cache_control(response, no_cache=True)
    return response


app_name = "prizes"
urlpatterns = [path("<slug:slug>/", index, name="index")]
