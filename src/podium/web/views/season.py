"""The ChGK season's organizer page: the Brainball battle schedule and the prize play-offs."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "season"
urlpatterns: list[URLPattern] = []
