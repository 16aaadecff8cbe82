"""Desk pages."""

from django.urls import path  # noqa: F401

app_name = "desk"
urlpatterns: list = []
