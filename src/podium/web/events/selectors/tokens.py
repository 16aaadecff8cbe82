"""Reading API tokens: an event's tokens for its organizers, and the token a request carries.

Vocabulary:
- API token, secret, revoked, last used: see ``podium.web.models.tokens``.
- holder: who a token may act as — a referee or head referee of the event, or the organizer
  who creates it (organizers make tokens for themselves, never for another organizer).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from podium.web.models import ApiToken, Event, EventRole

HOLDER_ROLES = (EventRole.Role.HEAD_REFEREE, EventRole.Role.REFEREE)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_of_secret(secret: str) -> ApiToken | None:
    """The token with this secret (revoked or not), with its event and user."""
    if not secret:
        return None
    return (
        ApiToken.objects.select_related("event", "user").filter(secret_hash=secret_hash(secret))
    ).first()


def event_tokens(event: Event) -> QuerySet[ApiToken]:
    """Every token of the event, the active ones first, then the newest first."""
    return (
        ApiToken.objects.filter(event=event)
        .select_related("user", "created_by", "revoked_by")
        .order_by("revoked_at", "-created_at", "-id")
    )


def holders(event: Event, organizer: Any) -> QuerySet[Any]:
    """The users a token of the event may act as, when ``organizer`` creates it."""
    staff = EventRole.objects.filter(event=event, role__in=HOLDER_ROLES).values("user")
    users = get_user_model().objects.filter(is_active=True)
    pk = getattr(organizer, "pk", None)
    return users.filter(Q(pk__in=staff) | Q(pk=pk)).order_by("username")
