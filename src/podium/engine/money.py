"""Money: entry fees, what a cancellation refunds or leaves owed, and protest deposits.

Vocabulary:
- fee: what an entry costs, per entry or per player (``K × 20 RUB`` for K players).
- days before: whole calendar days from the cancellation to the start (event or squad); a
  cancellation 15 days before a start on the 20th is one made on the 5th.
- tier: the rulebook's shares for a cancellation at least so many days before: ``refund`` of what
  was paid comes back, ``owed`` of the fee is still due (ČBA: half the fee after the deadline).
- settlement: the refund and the amount still owed, with the reason and its clause.
- deposit: money handed in with a protest; returned if upheld, forfeited if rejected.

Amounts are ``Decimal`` rounded half up to the currency's hundredths; never floats.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from podium.engine.entries import Reason
from podium.engine.messages import Value, _, ngettext
from podium.rules.schema.common import Money
from podium.rules.schema.discipline import Appeal
from podium.rules.schema.registration import Cancellation, CancellationTier, Fee

CENT = Decimal("0.01")


def money(amount: Decimal, currency: str) -> Money:
    return Money(amount=amount.quantize(CENT, rounding=ROUND_HALF_UP), currency=currency)


def fmt(m: Money) -> str:
    return f"{m.amount.quantize(CENT)} {m.currency}"


@dataclass(frozen=True, slots=True)
class Settlement:
    refund: Money
    owed: Money
    reason: Reason


def fee_amount(fee: Fee, *, players: int = 1) -> Money:
    if players < 1:
        raise ValueError("an entry has at least one player")
    count = players if fee.per == "player" else 1
    return money(fee.price.amount * count, fee.price.currency)


def tier_for(rule: Cancellation, days_before: int) -> CancellationTier:
    # Tiers run from the most days before to 0, so the first that fits is the right one.
    return next(t for t in rule.tiers if days_before >= t.days_before)


def cancellation(
    rule: Cancellation, *, fee: Money, paid: Money, cancelled_on: dt.date, starts_on: dt.date
) -> Settlement:
    if paid.currency != fee.currency:
        raise ValueError(f"paid in {paid.currency}, but the fee is in {fee.currency}")
    days = (starts_on - cancelled_on).days
    if days < 0:
        raise ValueError("a cancellation after the start is a no-show, not a cancellation")
    tier = tier_for(rule, days)
    refund = money(paid.amount * tier.refund, fee.currency)
    owed_total = fee.amount * tier.owed
    kept = paid.amount - refund.amount
    owed = money(max(owed_total - kept, Decimal(0)), fee.currency)
    known: dict[str, Value] = {"refund": fmt(refund), "owed": fmt(owed)}
    if not (refund.amount or paid.amount) and owed.amount:
        text = ngettext(
            "Cancelled %(n)s day before the start: nothing to refund, %(owed)s still owed",
            "Cancelled %(n)s days before the start: nothing to refund, %(owed)s still owed",
            days,
            **known,
        )
    elif not (refund.amount or paid.amount):
        text = ngettext(
            "Cancelled %(n)s day before the start: nothing to refund",
            "Cancelled %(n)s days before the start: nothing to refund",
            days,
        )
    elif owed.amount:
        text = ngettext(
            "Cancelled %(n)s day before the start: refund %(refund)s, %(owed)s still owed",
            "Cancelled %(n)s days before the start: refund %(refund)s, %(owed)s still owed",
            days,
            **known,
        )
    else:
        text = ngettext(
            "Cancelled %(n)s day before the start: refund %(refund)s",
            "Cancelled %(n)s days before the start: refund %(refund)s",
            days,
            **known,
        )
    return Settlement(refund, owed, Reason(tier.clause or rule.clause, text))


def deposit(appeal: Appeal, *, upheld: bool) -> Settlement:
    """What happens to a protest's fee or deposit once it is decided."""
    if appeal.fee is None:
        raise ValueError(f"'{appeal.key}' has no fee or deposit")
    paid = appeal.fee
    nothing = money(Decimal(0), paid.currency)
    amount = fmt(paid)
    if not upheld and appeal.forfeited_if_rejected:
        text = (
            _("Rejected: the %(amount)s deposit is forfeited", amount=amount)
            if appeal.fee_is_deposit
            else _("Rejected: the %(amount)s fee is forfeited", amount=amount)
        )
        return Settlement(nothing, nothing, Reason(appeal.clause, text))
    if upheld:
        return Settlement(paid, nothing, Reason(appeal.clause, _("Upheld: %(amount)s returned",
                                                                 amount=amount)))  # fmt: skip
    text = _("Rejected: %(amount)s returned", amount=amount)
    return Settlement(paid, nothing, Reason(appeal.clause, text))
