"""What every service shares: refusals and the audit trail.

Vocabulary:
- refusal: an action the rules or the state do not allow; it names the form field it concerns
  (or none) and says why, with the rulebook clause where one applies.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from podium.web import versions
from podium.web.models import AuditEntry, Event

Actor = AbstractBaseUser | AnonymousUser | None


class Refused(Exception):
    def __init__(self, message: str, *, field: str | None = None, clause: str | None = None):
        self.message = message
        self.field = field
        self.clause = clause
        super().__init__(message)


def refusal_text(refused: Refused) -> str:
    """A refusal as people read it: the message, and the rulebook clause behind it."""
    if refused.clause:
        return f"{refused.message} ({_('rulebook')}: {refused.clause})"
    return refused.message


def audit(
    *, event: Event | None, actor: Actor, action: str, target: object = "", **data: Any
) -> AuditEntry:
    """Records the action in the audit trail; once it commits, the live tables it can change
    know they changed (``podium.web.versions``)."""
    user = actor if actor is not None and actor.is_authenticated else None
    scope = versions.scope_of(action, data)
    entry = AuditEntry.objects.create(
        event=event, actor=user, action=action, target=str(target)[:200], data=data, scope=scope
    )
    if event is not None:
        versions.changed(event.slug, scope)
    return entry
