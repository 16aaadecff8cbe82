"""Fees, cancellations and deposits, hand-worked from the seeds' clauses."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from podium.engine.money import cancellation, deposit, fee_amount, money
from podium.rules.loader import load
from podium.rules.schema import Rulebook
from podium.rules.schema.common import Money
from podium.rules.schema.registration import Fee

CZ = load("cz-jigsaw")
CBA = load("cba-qualifier")
DK = load("deti-kolomny")


def czk(amount: str) -> Money:
    return money(Decimal(amount), "CZK")


def fee(rulebook: Rulebook, key: str | None = None) -> Fee:
    return next(f for f in rulebook.fees if key is None or f.key == key)


@pytest.mark.parametrize(
    ("cancelled_on", "refund"),
    [
        (dt.date(2026, 6, 1), "600.00"),  # 19 days before
        (dt.date(2026, 6, 5), "600.00"),  # exactly 15 days before: still "nejpozději 15 dní"
        (dt.date(2026, 6, 6), "0.00"),  # 14 days before: no refund
        (dt.date(2026, 6, 20), "0.00"),  # on the day
    ],
)
def test_jigsaw_refund_only_at_least_15_days_before(cancelled_on: dt.date, refund: str) -> None:
    assert CZ.cancellation is not None
    s = cancellation(
        CZ.cancellation,
        fee=czk("600"),
        paid=czk("600"),
        cancelled_on=cancelled_on,
        starts_on=dt.date(2026, 6, 20),
    )
    assert s.refund == czk(refund)
    assert s.owed == czk("0")
    assert s.reason.clause is not None
    assert "15 dní" in s.reason.clause


@pytest.mark.parametrize(
    ("cancelled_on", "owed", "text"),
    [
        (dt.date(2012, 3, 19), "0.00", "Cancelled 5 days before the start: nothing to refund"),
        (
            dt.date(2012, 3, 20),
            "300.00",
            "Cancelled 4 days before the start: nothing to refund, 300.00 CZK still owed",
        ),
        (dt.date(2012, 3, 24), "300.00", None),
    ],
)
def test_bowling_half_fee_owed_after_five_days(
    cancelled_on: dt.date, owed: str, text: str | None
) -> None:
    """ČBA §5.3: free until five days before the squad, then half of the 600 CZK fee (§6.1)."""
    assert CBA.cancellation is not None
    entry_fee = fee_amount(fee(CBA))
    assert entry_fee == czk("600")
    s = cancellation(
        CBA.cancellation,
        fee=entry_fee,
        paid=czk("0"),  # paid in cash at check-in (§6.2), so nothing is paid yet
        cancelled_on=cancelled_on,
        starts_on=dt.date(2012, 3, 24),
    )
    assert s.refund == czk("0")
    assert s.owed == czk(owed)
    if text:
        assert s.reason.text == text


@pytest.mark.parametrize(
    ("cancelled_on", "refund", "owed"),
    [(dt.date(2012, 3, 19), "600.00", "0.00"), (dt.date(2012, 3, 22), "300.00", "0.00")],
)
def test_bowling_fee_paid_in_advance_comes_back_whole_or_half(
    cancelled_on: dt.date, refund: str, owed: str
) -> None:
    assert CBA.cancellation is not None
    s = cancellation(
        CBA.cancellation,
        fee=czk("600"),
        paid=czk("600"),
        cancelled_on=cancelled_on,
        starts_on=dt.date(2012, 3, 24),
    )
    assert (s.refund, s.owed) == (czk(refund), czk(owed))


def test_cancellation_after_start_and_currency_mismatch_are_refused() -> None:
    assert CZ.cancellation is not None
    with pytest.raises(ValueError, match="no-show"):
        cancellation(
            CZ.cancellation,
            fee=czk("600"),
            paid=czk("600"),
            cancelled_on=dt.date(2026, 6, 21),
            starts_on=dt.date(2026, 6, 20),
        )
    with pytest.raises(ValueError, match="paid in EUR"):
        cancellation(
            CZ.cancellation,
            fee=czk("600"),
            paid=money(Decimal(24), "EUR"),
            cancelled_on=dt.date(2026, 6, 1),
            starts_on=dt.date(2026, 6, 20),
        )


def test_chgk_fees_per_team_and_per_player() -> None:
    assert fee_amount(fee(DK, "entry-first-half")) == money(Decimal(900), "RUB")
    assert fee_amount(fee(DK, "entry-first-half"), players=6) == money(Decimal(900), "RUB")
    # п. 10: K × 20 RUB for the K players of a team outside the competition.
    assert fee_amount(fee(DK, "unscored-team"), players=7) == money(Decimal(140), "RUB")
    with pytest.raises(ValueError, match="at least one player"):
        fee_amount(fee(DK, "unscored-team"), players=0)


def test_protest_deposit_returned_if_upheld_forfeited_if_rejected() -> None:
    protest = CBA.appeals[0]
    upheld = deposit(protest, upheld=True)
    assert upheld.refund == czk("500")
    assert upheld.reason.text == "Upheld: 500.00 CZK returned"
    rejected = deposit(protest, upheld=False)
    assert rejected.refund == czk("0")
    assert rejected.reason.text == "Rejected: the 500.00 CZK deposit is forfeited"
    appeal = next(a for a in DK.appeals if a.fee is not None)
    assert deposit(appeal, upheld=True).refund == money(Decimal(100), "RUB")
    assert deposit(appeal, upheld=False).refund == money(Decimal(0), "RUB")
