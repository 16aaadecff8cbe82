"""Public pages: the list of events (anyone may read them)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from podium.web.selectors.events import public_events


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "podium/home.html", {"events": public_events()})


urlpatterns = [path("", home, name="home")]
