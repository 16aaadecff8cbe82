"""Appeals, protests and their verdicts.

Vocabulary:
- appeal: a written request to change a result, filed under one appeal rule of the rulebook
  (``rule``: its key). Kinds: ``withdraw-question`` (strike a ChGK question for every team),
  ``accept-answer`` (credit the team's answer, ``answer`` holds it), ``disputed`` (a ``?`` in a
  team's mask, heard at the same desk and without a fee), ``protest`` (bowling: a player's
  written protest to the head referee). Numbered per event, so a jury can name an appeal
  without naming the team.
- fee: the payment that came with the appeal (ChGK 100 RUB; a bowling deposit of 500 CZK with
  the head referee's confirmation: its receipt number).
- verdict: the decision on one appeal, with its reasons, who decided and when. Upheld: a
  withdrawn question is struck for every team, an accepted answer is credited to the appealing
  team and to every team in ``credited``; a protest's corrective action is described and may
  name the corrected result. The fee is then refunded (upheld) or forfeited (rejected, with the
  cash receipt's number). A verdict never edits a result: standings apply it when computed, so
  the table before it stays readable "as of" an earlier moment.
- further appeal: a rejected protest taken to the body the rulebook names (bowling: STK or VV
  ČBA), with its outcome once known.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from podium.web.models.entries import Entry
from podium.web.models.events import Event
from podium.web.models.money import Payment
from podium.web.models.results import Result


class Appeal(models.Model):
    class Kind(models.TextChoices):
        WITHDRAW = "withdraw-question", _("withdraw the question")
        ACCEPT = "accept-answer", _("accept the answer")
        DISPUTED = "disputed", _("disputed answer")
        PROTEST = "protest", _("protest")

    QUESTION_KINDS = (Kind.WITHDRAW, Kind.ACCEPT, Kind.DISPUTED)

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="appeals")
    rule = models.CharField(max_length=60)
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    stage = models.CharField(max_length=60)
    round = models.PositiveSmallIntegerField(default=1)
    question = models.PositiveSmallIntegerField(null=True, blank=True)
    answer = models.TextField(blank=True)
    statement = models.TextField(blank=True)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="appeals")
    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.PROTECT, related_name="appeals"
    )
    fee = models.OneToOneField(
        Payment, null=True, blank=True, on_delete=models.PROTECT, related_name="appeal"
    )
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="appeal_number_per_event"),
            models.CheckConstraint(
                condition=Q(kind="protest") | Q(question__isnull=False),
                name="question_appeal_names_its_question",
            ),
            models.CheckConstraint(
                condition=~Q(kind="accept-answer") | ~Q(answer=""),
                name="accept_answer_gives_the_answer",
            ),
        ]
        indexes = [models.Index(fields=["event", "stage", "round"])]

    def __str__(self) -> str:
        return f"appeal {self.number} ({self.kind}) in {self.event}"


class Verdict(models.Model):
    class Fee(models.TextChoices):
        NONE = "none", _("no fee")
        REFUNDED = "refunded", _("refunded")
        FORFEITED = "forfeited", _("forfeited")

    appeal = models.OneToOneField(Appeal, on_delete=models.PROTECT, related_name="verdict")
    upheld = models.BooleanField()
    reasons = models.TextField()
    credited = models.ManyToManyField(Entry, blank=True, related_name="credited_by_verdicts")
    action = models.TextField(blank=True)
    correction = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    fee = models.CharField(max_length=10, choices=Fee.choices, default=Fee.NONE)
    forfeit_receipt = models.PositiveIntegerField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["decided_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reasons=""), name="verdict_gives_reasons")
        ]

    def __str__(self) -> str:
        return f"verdict on {self.appeal}: {'upheld' if self.upheld else 'rejected'}"


class FurtherAppeal(models.Model):
    appeal = models.OneToOneField(Appeal, on_delete=models.PROTECT, related_name="further")
    body = models.CharField(max_length=200)
    filed_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    outcome = models.TextField(blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"further appeal of {self.appeal} to {self.body}"
