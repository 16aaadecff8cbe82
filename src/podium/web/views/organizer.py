"""Organizer pages: only for users with the organizer role of the event concerned."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from podium.web.models import Event, EventRole

app_name = "organizer"


@login_required
def events(request: HttpRequest) -> HttpResponse:
    mine = Event.objects.filter(
        roles__user=request.user, roles__role=EventRole.Role.ORGANIZER
    ).distinct()
    return render(request, "podium/organizer/events.html", {"events": mine})


urlpatterns = [path("", events, name="events")]
