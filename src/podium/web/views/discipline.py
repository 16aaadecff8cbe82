"""The organizer's discipline page: sanctions, unpaid fees, withdrawals and bans."""

from __future__ import annotations

from django.urls import URLPattern

app_name = "discipline"
urlpatterns: list[URLPattern] = []
