"""API tokens: what a scoring machine or a referee's program holds to write results of one event.

Vocabulary:
- API token: a secret an organizer creates for ONE event, named after who holds it ("lane 3
  scoring machine", "referee Rudolf"). A request that carries it (``Authorization: Bearer …``)
  acts as the token's ``user`` — a referee or head referee of the event, or the organizer who
  created it — so it may do exactly what that user may do there, and nothing in another event.
- secret: shown once, when the token is created; only its SHA-256 hash is stored, so a copy of
  the database gives nobody a working token. A secret is 32 random bytes, so a fast hash is
  enough (there is nothing to guess, unlike a password).
- revoked: the organizer withdrew the token; a request with it is refused from then on. A
  revoked token is kept, so the audit trail still says whose it was.
- last used: the latest request made with it (kept roughly: at most one write a minute).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from podium.web.models.events import Event


class ApiToken(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    secret_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"API token “{self.name}” of {self.event}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
