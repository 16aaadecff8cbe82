"""Reading events."""

from __future__ import annotations

from django.db.models import QuerySet

from podium.web.models import Event


def public_events() -> QuerySet[Event]:
    return Event.objects.exclude(status=Event.Status.DRAFT).order_by("starts_at", "slug")
