"""Draws: groups, tables and lanes assigned from a recorded seed.

Vocabulary:
- draw: one assignment (``groups``, ``tables``, ``lanes``, ``tour-hosts``) for a stage, made by
  the engine from the entries and a seed; stored with its seed and result so anyone can rerun it
  and get the same answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from podium.web.models.events import Event


class Draw(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(max_length=20)
    stage = models.CharField(max_length=60, blank=True)
    seed = models.CharField(max_length=64)
    result = models.JSONField()
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-made_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} draw of {self.event} (seed {self.seed})"
