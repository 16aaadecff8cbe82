"""The host teams' question duty, the coordinator's packet and check, and the club's question database."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "questions"
urlpatterns: list[URLPattern] = []
