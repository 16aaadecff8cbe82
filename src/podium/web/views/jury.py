"""The appeal jury's desk: appeals without the team's name, and verdicts."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "jury"
urlpatterns: list[URLPattern] = []
