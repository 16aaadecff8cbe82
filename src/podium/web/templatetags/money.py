"""Money in templates: an amount with its currency, in the active locale's number format.

Vocabulary:
- money: a ``Decimal`` amount and an ISO 4217 currency, shown with two decimals and the locale's
  separators ("1 234,50 CZK" in Czech, "1,234.50 CZK" in English).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter(name="money")
def money(amount: Any, currency: str = "") -> str:
    if amount is None or amount == "":
        return ""
    value = Decimal(str(getattr(amount, "amount", amount)))
    currency = currency or getattr(amount, "currency", "")
    text = number_format(value.quantize(Decimal("0.01")), 2, use_l10n=True, force_grouping=True)
    return f"{text}\N{NO-BREAK SPACE}{currency}" if currency else text
