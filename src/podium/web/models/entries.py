"""Entries: an individual, pair or team registered in one category of an event.

Vocabulary:
- status: ``pending`` (waits for the organizer's approval), ``confirmed`` (has a place),
  ``waiting`` (on the waiting list, at ``waiting_position``), ``cancelled``.
- active: pending or confirmed; these count against the category's cap.
- squad: a bowling round with its own start and capacity.
- member: a person in an entry; a ChGK roster only grows (players are never removed).
- division reason: why the entry is in its division, with the clause, as written when it was
  assigned (``division_reason``, English) and as the engine's reason data
  (``division_message``, see ``podium.web.kernel.texts``) to show it in any language.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from podium.web.models.events import Event
from podium.web.models.people import Person


class Squad(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="squads")
    name = models.CharField(max_length=60)
    starts_at = models.DateTimeField()
    capacity = models.PositiveIntegerField()

    class Meta:
        ordering = ["starts_at", "name"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("awaiting approval")
        CONFIRMED = "confirmed", _("confirmed")
        WAITING = "waiting", _("waiting list")
        CANCELLED = "cancelled", _("cancelled")

    ACTIVE = (Status.PENDING, Status.CONFIRMED)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    category = models.CharField(max_length=60)
    name = models.CharField(max_length=200)
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices)
    waiting_position = models.PositiveIntegerField(null=True, blank=True)
    table_number = models.PositiveIntegerField(null=True, blank=True)
    group = models.CharField(max_length=20, blank=True)
    division = models.CharField(max_length=60, blank=True)
    division_reason = models.TextField(blank=True)
    division_message = models.JSONField(null=True, blank=True)
    squad = models.ForeignKey(Squad, null=True, blank=True, on_delete=models.PROTECT)
    scored = models.BooleanField(default=True)
    accompanying_adult = models.CharField(max_length=200, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["event", "category", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="entry_number_per_event"),
            models.UniqueConstraint(
                fields=["event", "category", "table_number"],
                condition=Q(table_number__isnull=False),
                name="one_entry_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE


class EntryMember(models.Model):
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="members")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="memberships")
    captain = models.BooleanField(default=False)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-captain", "added_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "person"], name="person_once_per_entry")
        ]

    def __str__(self) -> str:
        return f"{self.person} in {self.entry}"
