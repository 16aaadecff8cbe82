"""Organizer pages for registrations: approvals, the waiting list, cancellations."""

from django.urls import path  # noqa: F401

app_name = "registrations"
urlpatterns: list = []
