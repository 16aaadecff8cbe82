"""Money received and settled: payments with receipts, and cancellations with their terms.

Vocabulary:
- payment: money the organizer received for an entry's fee; each has a receipt number unique in
  its event. Amounts are ``Decimal`` with a currency, never floats.
- appeal fee: a payment with ``fee_key`` ``appeal:<rule>`` is the fee or deposit of an appeal
  (``podium.web.models.appeals``), never part of the entry's own fees.
- cancellation: the record of an entry cancelled, with the refund and the amount still owed as
  the rulebook's terms gave them on that day, and the clause.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from podium.web.models.entries import Entry

APPEAL_FEE_PREFIX = "appeal:"


class Payment(models.Model):
    class Method(models.TextChoices):
        CASH = "cash", _("cash")
        TRANSFER = "transfer", _("bank transfer")
        CARD = "card", _("card")

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="payments")
    fee_key = models.CharField(max_length=60)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    method = models.CharField(max_length=10, choices=Method.choices)
    receipt_number = models.PositiveIntegerField()
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    received_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["received_at", "id"]

    def __str__(self) -> str:
        return f"{self.amount} {self.currency} for {self.entry}"


class Cancellation(models.Model):
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, related_name="cancellation")
    cancelled_at = models.DateTimeField()
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    refund = models.DecimalField(max_digits=10, decimal_places=2)
    owed = models.DecimalField(max_digits=10, decimal_places=2)
    currency = models.CharField(max_length=3)
    reason = models.TextField()
    clause = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"cancellation of {self.entry}"
