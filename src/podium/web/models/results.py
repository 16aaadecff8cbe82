"""Results, the checks that make them official, and what is published of them.

Vocabulary:
- round: one sitting of a stage, numbered from 1 (each ChGK tour is a round of the tour stage;
  a jigsaw final or a bowling qualification has just round 1).
- subject: what a result is about — an entry (its whole result in the round: a time, six
  games, a tour's mask) or an item of the round (a Brainball battle ``r1-3-7``, superfinal
  question ``q5``), never both.
- result: one subject's result in one round (the format's columns as text, exactly as a CSV row
  would give them), with who recorded it and when (server time) and ``detail`` (how it was
  entered: piece groups, rolls). Results are append-only: nothing is updated in place or
  deleted; a later result names the one it ``corrects`` (replaces).
- kind: ``record`` (the first), ``progress`` (the next step of the same result, filling in what
  was not known yet: missing pieces after the check, a team's next puzzle, the next block of
  games) or ``correction`` (a changed value, always with a reason).
- current result: of a subject in a round at a moment, the newest result recorded by then that
  no result recorded by then replaces. Standings "as of" a moment use the current results only.
- idempotency key: chosen by the client for one submission; a resubmission with the same key (a
  dropped connection) returns what was already recorded instead of recording it twice.
- agreement: the competitor agreed with a result on the referee's device; where the rulebook
  says so, no later claim is heard and only the head referee may correct it.
- second entry: another referee's or scorer's independent entry of the same result; it matches
  (same meaning in every column) or it is a mismatch for the head referee, with both values.
- verification: what makes a result official — a head referee's confirmation, a matching second
  entry, or the head referee's resolution of a mismatch (``method``). A verification is its own
  append-only row; a later result needs its own.
- publication: one change of what is public of a stage's round: ``draft`` (not public) →
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
    class Kind(models.TextChoices):
        RECORD = "record", _("recorded")
        PROGRESS = "progress", _("next step")
        CORRECTION = "correction", _("correction")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="results")
    stage = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField(default=1)
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="results"
    )
    item = models.CharField(max_length=60, blank=True)
    cells = models.JSONField()
    detail = models.JSONField(default=dict, blank=True)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.RECORD)
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
                fields=["event", "stage", "round", "entry"],
                condition=Q(corrects__isnull=True, entry__isnull=False),
                name="one_first_result_per_entry",
            ),
            models.UniqueConstraint(
                fields=["event", "stage", "round", "item"],
                condition=Q(corrects__isnull=True) & ~Q(item=""),
                name="one_first_result_per_item",
            ),
            models.CheckConstraint(
                condition=(Q(entry__isnull=False) & Q(item=""))
                | (Q(entry__isnull=True) & ~Q(item="")),
                name="result_has_one_subject",
            ),
            models.CheckConstraint(
                condition=(Q(corrects__isnull=True) & Q(kind="record"))
                | (Q(corrects__isnull=False) & ~Q(kind="record")),
                name="only_the_first_is_a_record",
            ),
            models.CheckConstraint(
                condition=~Q(kind="correction") | ~Q(reason=""),
                name="correction_has_reason",
            ),
        ]
        indexes = [models.Index(fields=["event", "stage", "round", "recorded_at"])]

    def __str__(self) -> str:
        subject = self.entry if self.entry_id else self.item
        return f"{self.stage} r{self.round} result of {subject} at {self.recorded_at:%H:%M:%S}"


class Agreement(models.Model):
    result = models.OneToOneField(Result, on_delete=models.PROTECT, related_name="agreement")
    agreed_at = models.DateTimeField()
    on_device_of = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"agreement with {self.result}"


class SecondEntry(models.Model):
    result = models.ForeignKey(Result, on_delete=models.PROTECT, related_name="second_entries")
    cells = models.JSONField()
    differences = models.JSONField(default=list)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=100)

    class Meta:
        ordering = ["entered_at", "id"]
        constraints = [
            # A key is the client's, within one event (the service looks it up per event).
            models.UniqueConstraint(
                fields=["result", "idempotency_key"], name="second_entry_submitted_once"
            )
        ]

    def __str__(self) -> str:
        return f"second entry of {self.result}"

    @property
    def matches(self) -> bool:
        return not self.differences


class Verification(models.Model):
    class Method(models.TextChoices):
        HEAD_REFEREE = "head-referee", _("confirmed by the head referee")
        SECOND_ENTRY = "second-entry", _("matched by a second entry")
        RESOLUTION = "resolution", _("mismatch resolved by the head referee")

    result = models.OneToOneField(Result, on_delete=models.PROTECT, related_name="verification")
    method = models.CharField(max_length=12, choices=Method.choices, default=Method.HEAD_REFEREE)
    second_entry = models.ForeignKey(
        SecondEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
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
    round = models.PositiveSmallIntegerField(default=1)
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
                fields=["event", "stage", "round", "version"],
                condition=Q(state="final"),
                name="one_final_per_round_version",
            )
        ]

    def __str__(self) -> str:
        return f"{self.stage} r{self.round} of {self.event}: {self.state} v{self.version}"
