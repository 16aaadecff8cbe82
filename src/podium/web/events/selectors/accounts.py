"""What the site knows of an account: may it create events, which language does it read.

Vocabulary:
- event creators: the site setting ``PODIUM_EVENT_CREATORS``: ``anyone`` (any logged-in
  account may create an event: development and the demo) or ``approved`` (only accounts an
  administrator approved, and administrators: production's default).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from podium.web.models import Account

ANYONE, APPROVED = "anyone", "approved"


def event_creators() -> str:
    return APPROVED if getattr(settings, "PODIUM_EVENT_CREATORS", ANYONE) == APPROVED else ANYONE


def may_create_events(user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if event_creators() == ANYONE or user.is_superuser:
        return True
    return Account.objects.filter(user=user, may_create_events=True).exists()


def language_of(user: Any) -> str:
    """The language the person last read the site in ("" when not known)."""
    found = Account.objects.filter(user=user).values_list("language", flat=True).first()
    return found or ""
