"""The audit trail: every write a service makes, who made it, when, and what it was.

Vocabulary:
- audit entry: one action (``entry.register``, ``entry.cancel``…) with its actor, its event, the
  object it touched and the data that matters, written in the same transaction as the change.
- scope: what of the event's standings the action can change — ``""`` every table of the event,
  a stage's key that stage's tables, ``"-"`` none (see ``podium.web.live.versions``); the version
  tags of the live tables are read from the entries of their scopes.
"""

from __future__ import annotations

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models

from podium.web.models.events import Event


class AuditEntry(models.Model):
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=60)
    target = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, encoder=DjangoJSONEncoder)
    at = models.DateTimeField(auto_now_add=True)
    scope = models.CharField(max_length=60, blank=True, default="")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["event", "scope", "id"], name="audit_scope")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.target}"
