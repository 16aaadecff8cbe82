"""Rounds on the calendar, their clocks, and what happens at a team's table during one.

Vocabulary:
- round: one sitting of a stage, numbered from 1 (see ``podium.web.models.results``). A stage
  that sits once needs no calendar row; a ChGK tour stage has one per tour, with its date and
  the team that hosts it (writes its questions).
- tour length: where the rulebook lets tours vary (``max_questions``), a tour's own number of
  questions (``Round.questions``), set on the calendar; the sheet, scorecards and imports follow
  it. Empty for a rulebook whose tours all have ``questions``.
- signal: the organizer's start or end of a round for one group of a stage (``group`` empty:
  the whole stage), in server time. The newest start counts, and an end after it; a time limit
  from the rulebook ends the round on the clock without a signal.
- table step: at a team's table in a stage of several puzzles, a puzzle let onto the table
  (``start``), given up for another after it was taken apart (``switch``), or checked and timed
  (``finish``); see ``podium.engine.teamflow``. Each finish also records the team's result.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from podium.web.models.entries import Entry
from podium.web.models.events import Event


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    stage = models.CharField(max_length=60)
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=200, blank=True)
    starts_at = models.DateTimeField()
    host = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="hosted_rounds"
    )
    questions = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["stage", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "stage", "number"], name="one_round_number")
        ]

    def __str__(self) -> str:
        return self.title or f"{self.stage} {self.number}"


class Signal(models.Model):
    class Kind(models.TextChoices):
        START = "start", _("start")
        END = "end", _("end")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="signals")
    stage = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField(default=1)
    group = models.CharField(max_length=20, blank=True)
    kind = models.CharField(max_length=5, choices=Kind.choices)
    at = models.DateTimeField()
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["event", "stage", "round"])]

    def __str__(self) -> str:
        return f"{self.kind} of {self.stage} r{self.round} {self.group or 'all'} at {self.at}"


class TableStep(models.Model):
    class Kind(models.TextChoices):
        START = "start", _("puzzle started")
        SWITCH = "switch", _("switched puzzles")
        FINISH = "finish", _("puzzle finished")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="table_steps")
    stage = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField(default=1)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="table_steps")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    puzzle = models.PositiveSmallIntegerField(null=True, blank=True)
    at_ms = models.PositiveIntegerField(null=True, blank=True)
    missing = models.PositiveIntegerField(default=0)
    taken_apart = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField()
    idempotency_key = models.CharField(max_length=100)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "idempotency_key"], name="step_taken_once")
        ]

    def __str__(self) -> str:
        return f"{self.kind} at the table of {self.entry}"
