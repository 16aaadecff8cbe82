"""The host teams' question duty and the club's question database.

Vocabulary:
- submission: the questions a host team handed in for its tour (``round``) in one discipline
  (``chgk`` or ``brainball``), when; late when after the rulebook's deadline (``days_before``
  the tour), short when fewer than its minimum.
- question: one question with its answer (and other accepted answers, comment, authors), from a
  submission or imported from an earlier packet (``source``, ``played_on``). ``normalized`` is
  its text as the near-duplicate search compares it (see ``podium.web.chgk.selectors.database``).
- status: ``submitted`` (handed in, not yet chosen), ``selected`` (in the tour's packet),
  ``replace`` (the coordinator asked for a replacement: published before, or unsuitable; see
  ``note``), ``archive`` (in the database: imported, or played). ``replaced_by`` names the
  question handed in instead.
- public: a question enters the public database a year after it was played
  (``public_from``), or earlier with its authors' ``consent``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from podium.web.models.entries import Entry
from podium.web.models.events import Event
from podium.web.models.rounds import Round


class Discipline(models.TextChoices):
    CHGK = "chgk", _("ChGK")
    BRAINBALL = "brainball", _("Brainball")


class QuestionSubmission(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="submissions")
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="submissions")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="submissions")
    discipline = models.CharField(max_length=10, choices=Discipline.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["submitted_at", "id"]

    def __str__(self) -> str:
        return f"{self.discipline} questions of {self.entry} for {self.round}"


class Question(models.Model):
    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("handed in")
        SELECTED = "selected", _("in the packet")
        REPLACE = "replace", _("replacement asked")
        ARCHIVE = "archive", _("in the database")

    submission = models.ForeignKey(
        QuestionSubmission,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="questions",
    )
    discipline = models.CharField(max_length=10, choices=Discipline.choices)
    number = models.PositiveSmallIntegerField(default=0)
    text = models.TextField()
    answer = models.TextField()
    accepted = models.TextField(blank=True)
    comment = models.TextField(blank=True)
    authors = models.CharField(max_length=300, blank=True)
    source = models.CharField(max_length=300, blank=True)
    played_on = models.DateField(null=True, blank=True)
    normalized = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    note = models.TextField(blank=True)
    replaced_by = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaces"
    )
    public_from = models.DateField(null=True, blank=True)
    consent = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["submission", "number", "id"]
        indexes = [models.Index(fields=["discipline", "status"])]

    def __str__(self) -> str:
        return f"{self.discipline} question {self.number}: {self.text[:40]}"
