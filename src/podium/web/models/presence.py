"""Presence on the day: check-in at the desk, and seats offered when someone does not come.

Vocabulary:
- check-in: an entry confirmed present, with the seat, table or lane handed out.
- seat offer: after the no-show time, an absent entry's place offered to the next entry on the
  waiting list (no refund for the absent one, where the rulebook says so).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from podium.web.models.entries import Entry


class CheckIn(models.Model):
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="check_in")
    checked_in_at = models.DateTimeField()
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.CharField(max_length=40, blank=True)

    def __str__(self) -> str:
        return f"{self.entry} present"


class SeatOffer(models.Model):
    absent = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_given")
    taker = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_taken")
    offered_at = models.DateTimeField()
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"seat of {self.absent} to {self.taker}"
