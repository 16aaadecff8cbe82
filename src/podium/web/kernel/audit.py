"""The audit trail: every write a service makes, who made it and what it was.

Vocabulary:
- actor: who acted — a user, or nobody (a scoring machine's token acts as its user; an
  anonymous visitor or the system is recorded as no one).
- audit entry: see ``podium.web.models.audit``; written in the same transaction as the change.
  Once it commits, the live tables the action can change know they changed
  (``podium.web.live.versions``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from podium.web.live import versions
from podium.web.models import AuditEntry, Event

Actor = AbstractBaseUser | AnonymousUser | None


def audit(
    *, event: Event | None, actor: Actor, action: str, target: object = "", **data: Any
) -> AuditEntry:
    """Records the action in the audit trail; once it commits, the live tables it can change
    know they changed (``podium.web.live.versions``)."""
    user = actor if actor is not None and actor.is_authenticated else None
    scope = versions.scope_of(action, data)
    entry = AuditEntry.objects.create(
        event=event, actor=user, action=action, target=str(target)[:200], data=data, scope=scope
    )
    if event is not None:
        versions.changed(event.slug, scope)
    return entry
