"""Results of single-result stages, their checks, and what is published of them.

Vocabulary:
- result: one entry's whole result in one stage (the format's columns as text, exactly as a CSV
  row would give them), with who recorded it and when (server time). Results are append-only:
  nothing is updated in place or deleted; a correction is a new result naming the one it
  ``corrects``, with a reason.
- current result: of an entry in a stage at a moment, the newest result recorded by then that no
  result recorded by then corrects. Standings "as of" a moment use the current results only.
- idempotency key: chosen by the client for one submission; a resubmission with the same key (a
  dropped connection) returns the result already recorded instead of recording it twice.
- verification: a second member of staff — never the one who recorded the result — confirms it.
  A verification is its own append-only row; a correction is a new result and needs its own.
- publication: one change of what is public of a stage: ``draft`` (not public) →
  ``preliminary`` (public, labelled so) → ``final`` (frozen: the table is stored as it was).
  A change after final needs a reason and starts a new version; old versions stay readable.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from podium.web.models.entries import Entry
from podium.web.models.events import Event


class Result(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="results")
    stage = models.CharField(max_length=60)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="results")
    cells = models.JSONField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField()
    corrects = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="correction"
    )
    reason = models.TextField(blank=True)
    idempotency_key = models.CharField(max_length=100)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "idempotency_key"], name="result_submitted_once"
            ),
            models.UniqueConstraint(
                fields=["event", "stage", "entry"],
                condition=Q(corrects__isnull=True),
                name="one_first_result_per_stage",
            ),
            models.CheckConstraint(
                condition=Q(corrects__isnull=True) | ~Q(reason=""),
                name="correction_has_reason",
            ),
        ]
        indexes = [models.Index(fields=["event", "stage", "recorded_at"])]

    def __str__(self) -> str:
        return f"{self.stage} result of {self.entry} at {self.recorded_at:%Y-%m-%d %H:%M:%S}"


class Verification(models.Model):
    result = models.OneToOneField(Result, on_delete=models.PROTECT, related_name="verification")
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_at = models.DateTimeField()

    class Meta:
        ordering = ["verified_at", "id"]

    def __str__(self) -> str:
        return f"verification of {self.result}"


class Publication(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        PRELIMINARY = "preliminary", _("preliminary")
        FINAL = "final", _("final")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="publications")
    stage = models.CharField(max_length=60)
    state = models.CharField(max_length=12, choices=State.choices)
    version = models.PositiveIntegerField()
    table = models.JSONField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField()
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["changed_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "stage", "version"],
                condition=Q(state="final"),
                name="one_final_per_version",
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage} of {self.event}: {self.state} v{self.version}"
