"""Appeals on ChGK questions: filed by a team (or recorded by the staff), the organizer's overview with the jury and the due dates."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "appeals"
urlpatterns: list[URLPattern] = []
