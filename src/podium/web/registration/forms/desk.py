"""Forms of the check-in desk and of payments: the shape of what is typed in."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from podium.web.kernel.text import TextForm, limit
from podium.web.models import CheckIn, Payment


class PaymentForm(TextForm):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    fee_key = forms.CharField(widget=forms.HiddenInput)
    amount = forms.DecimalField(label=_("Amount"), max_digits=10, decimal_places=2, min_value=0)
    method = forms.ChoiceField(label=_("Method"), choices=Payment.Method.choices)
    note = forms.CharField(label=_("Note"), max_length=limit(Payment, "note"), required=False)


class CheckInForm(TextForm):
    seat = forms.CharField(
        label=_("Seat, table or lane"), max_length=limit(CheckIn, "seat"), required=False
    )


UNDO_REASON_MAX = 200


class UndoCheckInForm(TextForm):
    # Required by the service, which says so in its own words (a refusal naming the field).
    reason = forms.CharField(label=_("Why undo it"), max_length=UNDO_REASON_MAX, required=False)
