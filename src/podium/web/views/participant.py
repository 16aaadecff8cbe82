"""Participant pages: a user's own entries (nobody else's)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from podium.web.models import Entry

app_name = "participant"


@login_required
def entries(request: HttpRequest) -> HttpResponse:
    mine = Entry.objects.filter(registered_by=request.user).select_related("event")
    return render(request, "podium/participant/entries.html", {"entries": mine})


urlpatterns = [path("entries/", entries, name="entries")]
