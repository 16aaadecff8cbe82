"""Bowling protests at the head referee's desk: deposit, decision, further appeal; warnings and expulsion."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "protests"
urlpatterns: list[URLPattern] = []
