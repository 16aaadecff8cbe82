"""Who advances from a stage, and so who takes part in the next one.

Vocabulary:
- advancement: one entry advancing from a stage's final table (``from_stage``, its round and
  the frozen version it came from) into ``to_stage`` — a stage of this event (a final, a
  superfinal), or nothing when the next competition is elsewhere (the national bowling final).
  It keeps the table and quota it came through and the engine's reason and clause.
- entry list of a stage: for a stage that others advance into, its advancements still standing;
  for any other stage, the confirmed entries of its category.
- withdrawn: an advancement the organizer replaced (a new final version changed who advances)
  before the next stage had a result; it stays on record with its reason.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from podium.web.models.entries import Entry
from podium.web.models.events import Event
from podium.web.models.results import Publication


class Advancement(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="advancements")
    from_stage = models.CharField(max_length=60)
    from_round = models.PositiveSmallIntegerField(default=1)
    to_stage = models.CharField(max_length=60, blank=True)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="advancements")
    table = models.CharField(max_length=60, blank=True)
    pool = models.CharField(max_length=60, blank=True)
    reason = models.TextField()
    clause = models.TextField(blank=True)
    publication = models.ForeignKey(
        Publication, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["from_stage", "table", "made_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "from_stage", "to_stage", "entry"],
                condition=Q(withdrawn_at__isnull=True),
                name="advances_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry} from {self.from_stage} to {self.to_stage or 'beyond'}"
