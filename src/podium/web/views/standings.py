"""Public live standings."""

from django.urls import path  # noqa: F401

app_name = "standings"
urlpatterns: list = []
