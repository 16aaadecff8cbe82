"""Payments: amounts from the rulebook fee, sequential receipts, the receipt page, paid/unpaid."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Entry, EntryMember, EventRole, Payment, Person
from podium.web.registration.services.payments import payment_record


def entry(event: Any, number: int, *, players: int = 1, **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    fields.setdefault("category", event.rulebook.categories[0].key)
    made = Entry.objects.create(event=event, number=number, name=f"Entry {number}", **fields)
    for i in range(players):
        person = Person.objects.create(first_name=f"P{i}", last_name=f"E{number}")
        EntryMember.objects.create(entry=made, person=person)
    return made


@pytest.fixture
def cba(make_user: Any, make_event: Any) -> Any:
    alice = make_user("alice")
    event = make_event("cba-qualifier", organizer=alice)
    return event, alice


@pytest.mark.django_db
def test_cba_600_czk_cash_with_sequential_receipts(cba: Any, make_user: Any) -> None:
    event, alice = cba
    referee = make_user("rita")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    first = payment_record(
        entry=entry(event, 1), fee_key="entry", amount="600", method="cash", by=alice
    )
    second = payment_record(
        entry=entry(event, 2), fee_key="entry", amount=Decimal("600.00"), method="cash", by=referee
    )
    assert (first.amount, first.currency, first.receipt_number) == (Decimal(600), "CZK", 1)
    assert (second.receipt_number, second.received_by) == (2, referee)
    log = AuditEntry.objects.filter(action="payment.record").order_by("id")
    assert [a.data["receipt"] for a in log] == [1, 2]


@pytest.mark.django_db
def test_receipts_are_numbered_per_event(cba: Any, make_event: Any) -> None:
    event, alice = cba
    other = make_event("cba-qualifier", slug="cba-2", organizer=alice)
    payment_record(entry=entry(event, 1), fee_key="entry", amount="600", method="cash", by=alice)
    p = payment_record(
        entry=entry(other, 1), fee_key="entry", amount="600", method="cash", by=alice
    )
    assert p.receipt_number == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field", "text"),
    [
        ({"amount": "500"}, "amount", "is 600.00 CZK, not 500.00 CZK"),
        ({"currency": "EUR"}, "amount", "not 600.00 EUR"),
        ({"method": "card"}, "method", "cash at check-in"),
        ({"method": "cheque"}, "method", "Unknown payment method"),
        ({"fee_key": "entry-first-half"}, "fee_key", "owes no fee"),
        ({"amount": "lots"}, "amount", "Enter an amount"),
    ],
)
def test_a_wrong_payment_changes_nothing(
    cba: Any, fields: dict[str, Any], field: str, text: str
) -> None:
    event, alice = cba
    kwargs: dict[str, Any] = {"fee_key": "entry", "amount": "600", "method": "cash"} | fields
    with pytest.raises(Refused) as refused:
        payment_record(entry=entry(event, 1), by=alice, **kwargs)
    assert refused.value.field == field
    assert text in refused.value.message
    if field in ("amount", "method") and "Unknown" not in text and "Enter" not in text:
        assert "§ 6" in (refused.value.clause or "")
    assert not Payment.objects.exists()
    assert not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_a_fee_is_paid_once_and_only_by_staff_of_the_event(
    cba: Any, make_user: Any, make_event: Any
) -> None:
    event, alice = cba
    one = entry(event, 1)
    payment_record(entry=one, fee_key="entry", amount="600", method="cash", by=alice)
    with pytest.raises(Refused, match=re.escape("already paid (receipt 1)")):
        payment_record(entry=one, fee_key="entry", amount="600", method="cash", by=alice)
    stranger = make_user("dave")
    make_event("cz-jigsaw", organizer=stranger)
    with pytest.raises(Refused):
        payment_record(
            entry=entry(event, 2), fee_key="entry", amount="600", method="cash", by=stranger
        )
    with pytest.raises(Refused, match="waiting list"):
        payment_record(
            entry=entry(event, 3, status=Entry.Status.WAITING, waiting_position=1),
            fee_key="entry",
            amount="600",
            method="cash",
            by=alice,
        )
    assert Payment.objects.count() == 1


@pytest.mark.django_db
def test_chgk_team_fees_and_the_unscored_k_times_20_rub(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    event = make_event("deti-kolomny", organizer=alice)
    team = entry(event, 1, players=7)
    for key in ("entry-first-half", "entry-second-half"):  # before the first and the middle tour
        p = payment_record(entry=team, fee_key=key, amount="900", method="cash", by=alice)
        assert (p.amount, p.currency) == (Decimal(900), "RUB")
    with pytest.raises(Refused, match="owes no fee"):
        payment_record(entry=team, fee_key="unscored-team", amount="140", method="cash", by=alice)
    guests = entry(event, 2, players=3, scored=False)
    with pytest.raises(Refused, match=re.escape("is 60.00 RUB, not 20.00 RUB")):
        payment_record(entry=guests, fee_key="unscored-team", amount="20", method="cash", by=alice)
    with pytest.raises(Refused, match="owes no fee"):
        payment_record(
            entry=guests, fee_key="entry-first-half", amount="900", method="cash", by=alice
        )
    # 3 players × 20 RUB, and again before the next tour played.
    for receipt in (3, 4):
        p = payment_record(
            entry=guests, fee_key="unscored-team", amount="60", method="cash", by=alice
        )
        assert (p.amount, p.receipt_number) == (Decimal(60), receipt)


# --- pages -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_receipt_page_in_the_locale_format(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    event = make_event("deti-kolomny", organizer=alice, title="Дети Коломны", venue="Коломна")
    team = entry(event, 7, players=5)
    team.name = "Знатоки"
    team.save()
    payment_record(entry=team, fee_key="entry-first-half", amount="900", method="cash", by=alice)
    Payment.objects.update(amount=Decimal("1234.50"))  # to see the thousands separator
    client = Client()
    client.force_login(alice)
    html = client.get("/organize/deti-kolomny/receipts/1/").content.decode()
    assert "Receipt 1" in html
    assert "#7 <bdi>Знатоки</bdi>" in html
    assert "Team fee, first half of the season" in html
    assert "1,234.50\N{NO-BREAK SPACE}RUB" in html
    assert "alice" in html
    assert "Дети Коломны" in html
    html = client.get("/ru/organize/deti-kolomny/receipts/1/").content.decode()
    assert "1\N{NO-BREAK SPACE}234,50\N{NO-BREAK SPACE}RUB" in html
    html = client.get("/cs/organize/deti-kolomny/receipts/1/").content.decode()
    assert "1\N{NO-BREAK SPACE}234,50\N{NO-BREAK SPACE}RUB" in html
    assert client.get("/organize/deti-kolomny/receipts/2/").status_code == 404


@pytest.mark.django_db
def test_payments_page_lists_paid_and_unpaid_and_records(cba: Any) -> None:
    event, alice = cba
    one, two = entry(event, 1), entry(event, 2)
    entry(event, 3, status=Entry.Status.WAITING, waiting_position=1)
    client = Client()
    client.force_login(alice)
    response = client.post(
        "/organize/cba-qualifier/payments/",
        {"entry": one.pk, "fee_key": "entry", "amount": "600", "method": "cash"},
    )
    assert response["Location"] == "/organize/cba-qualifier/receipts/1/"
    html = client.get("/organize/cba-qualifier/payments/").content.decode()
    assert html.count('class="fee-line paid"') == 1
    assert html.count('class="fee-line unpaid"') == 1  # entry 2; the waiting entry owes nothing yet
    assert "paid, receipt 1" in html
    response = client.post(
        "/organize/cba-qualifier/payments/",
        {"entry": two.pk, "fee_key": "entry", "amount": "60", "method": "cash"},
        follow=True,
    )
    assert "#2: The fee “Entry fee” is 600.00 CZK, not 60.00 CZK." in response.content.decode()
    assert Payment.objects.count() == 1
