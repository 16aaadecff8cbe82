"""The referee console for results."""

from django.urls import path  # noqa: F401

app_name = "results"
urlpatterns: list = []
