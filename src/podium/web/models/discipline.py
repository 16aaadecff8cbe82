"""Sanctions, bans and withdrawals.

Vocabulary:
- sanction: one application of a sanction rule of the rulebook (``key``) to a team (``entry``),
  a person, or both, for one round of a stage (``stage``, ``round``) where the rule acts on one
  (a ChGK tour counted 0, a team not admitted to a tour), and the Brainball battles it turns
  into losses (``items``). ``effect`` picks one effect where the rule offers a choice (a bowling
  ``warning``, then ``expulsion``); empty means every effect of the rule. Standings apply
  sanctions when computed, each shown as a footnote with its clause; a lifted sanction (with a
  reason) no longer applies from the moment it was lifted.
- ban: a person or a team (by name, for later seasons where the team is a new entry) barred
  until a date, with the reason and clause; checked whenever someone registers or joins a roster
  in any event under the same rulebook (or any event, for a ban not written by one) starting on
  or before that date.
- withdrawal: a team's written statement that it stops playing, as received; ``rule`` is the
  sanction rule it falls under, ``before_middle`` whether it came before the middle tour
  (number ``middle`` at the time). No return: nothing is recorded for the team after it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from podium.web.models.entries import Entry
from podium.web.models.events import Event
from podium.web.models.people import Person


class Sanction(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="sanctions")
    key = models.CharField(max_length=60)
    effect = models.CharField(max_length=30, blank=True)
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="sanctions"
    )
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="sanctions"
    )
    stage = models.CharField(max_length=60, blank=True)
    round = models.PositiveSmallIntegerField(null=True, blank=True)
    items = models.JSONField(default=list, blank=True)
    reason = models.TextField()
    clause = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField()
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    lifted_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry__isnull=False) | Q(person__isnull=False),
                name="sanction_has_someone",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="sanction_gives_reason"),
            models.CheckConstraint(
                condition=Q(lifted_at__isnull=True) | ~Q(lifted_reason=""),
                name="lifting_gives_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} on {self.entry or self.person} in {self.event}"


class Ban(models.Model):
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="bans"
    )
    team_name = models.CharField(max_length=200, blank=True)
    until = models.DateField()
    reason = models.TextField()
    clause = models.TextField(blank=True)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.PROTECT, related_name="bans"
    )
    sanction = models.ForeignKey(
        Sanction, null=True, blank=True, on_delete=models.PROTECT, related_name="bans"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(person__isnull=False) | ~Q(team_name=""), name="ban_has_someone"
            )
        ]

    def __str__(self) -> str:
        return f"ban of {self.person or self.team_name} until {self.until}"


class Withdrawal(models.Model):
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="withdrawal")
    received_at = models.DateTimeField()
    statement = models.TextField()
    rule = models.CharField(max_length=60)
    before_middle = models.BooleanField()
    middle = models.PositiveSmallIntegerField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"withdrawal of {self.entry}"
