"""Registration services once an entry is in: the cap and the waiting list, promotion,
approval with its tables, and cancellation terms, with hand-worked dates and amounts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from tests.web.registration.test_registration import (
    CZ_NOW,
    IT_OPEN,
    UTC,
    adult,
    refused,
    register,
    with_cap,
)

from podium.web.models import AuditEntry, Event, EventRole, Payment, Squad
from podium.web.registration.selectors.entries import waiting_list
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.places import entry_approve, entry_promote, waiting_reorder
from podium.web.registration.services.settlement import settlement_preview

# --- cap and waiting list ---------------------------------------------------------------------


def test_full_category_offers_the_waiting_list_then_queues(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 2")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    register(cz, make_user("b"), [adult("B", "Dva")], "individuals")
    error = refused(
        lambda: register(cz, make_user("c"), [adult("C", "Tři")], "individuals", waiting=False)
    )
    assert error.field == "waiting"
    assert "full (2 places)" in error.message
    assert "number 1" in error.message
    c = register(cz, make_user("c2"), [adult("C", "Tři")], "individuals")
    d = register(cz, make_user("d"), [adult("D", "Čtyři")], "individuals")
    assert (c.status, c.waiting_position, d.waiting_position) == ("waiting", 1, 2)
    assert waiting_list(cz, "individuals") == [c, d]


def test_cancellation_promotes_the_first_waiting_entry(
    cz: Any, make_user: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    a_user = make_user("a")
    a = register(cz, a_user, [adult("A", "Jedna")], "individuals")
    b = register(cz, make_user("b"), [adult("B", "Dva")], "individuals")
    c = register(cz, make_user("c"), [adult("C", "Tři")], "individuals")
    # 20 June 2026 minus 19 days: 1 June; no fee in this rulebook, so nothing to refund.
    with django_capture_on_commit_callbacks(execute=True):
        cancellation = entry_cancel(entry=a, by=a_user, now=dt.datetime(2026, 6, 1, tzinfo=UTC))
    assert cancellation.refund == 0
    assert cancellation.owed == 0
    assert cancellation.reason == "Cancelled 19 days before the start: nothing to refund"
    b.refresh_from_db()
    c.refresh_from_db()
    assert (b.status, b.waiting_position) == ("confirmed", None)
    assert (c.status, c.waiting_position) == ("waiting", 1)
    # A hears that the entry is cancelled, B that it has a place.
    assert [m.to for m in mailoutbox] == [["a@example.org"], ["b@example.org"]]
    mail = mailoutbox[1]
    assert mail.subject == "cz-jigsaw: B Dva has a place"
    assert "moved up from the waiting list and is confirmed" in mail.body
    promoted = AuditEntry.objects.get(action="entry.promote.automatic")
    assert promoted.target == str(b)
    # The e-mail speaks the event's language, whoever's action promoted the entry.
    Event.objects.filter(pk=cz.pk).update(language="cs")
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=b, by=b.registered_by, now=dt.datetime(2026, 6, 1, tzinfo=UTC))
    czech = mailoutbox[-1]
    assert czech.to == ["c@example.org"]
    assert czech.subject == "cz-jigsaw: C Tři má místo"
    assert "#1 A Jedna cancelled" in promoted.data["reason"]
    assert promoted.data["was_position"] == 1


def test_leaving_the_waiting_list_renumbers_it(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    b_user = make_user("b")
    b = register(cz, b_user, [adult("B", "Dva")], "individuals")
    c = register(cz, make_user("c"), [adult("C", "Tři")], "individuals")
    entry_cancel(entry=b, by=b_user, now=CZ_NOW)
    c.refresh_from_db()
    assert (c.status, c.waiting_position) == ("waiting", 1)
    assert not AuditEntry.objects.filter(action__startswith="entry.promote").exists()


def test_organizer_reorders_the_waiting_list_with_a_reason(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    *_, d = (
        register(cz, make_user(n), [adult(n.upper(), "X")], "individuals") for n in ("b", "c", "d")
    )
    organizer = EventRole.objects.get(event=cz).user
    assert (
        refused(lambda: waiting_reorder(entry=d, position=1, by=organizer, reason="  ")).field
        == "reason"
    )
    outsider = make_user("outsider")
    assert (
        "organizers"
        in refused(lambda: waiting_reorder(entry=d, position=1, by=outsider, reason="x")).message
    )
    waiting_reorder(entry=d, position=1, by=organizer, reason="Registered by phone on day 1")
    assert [(e.name, e.waiting_position) for e in waiting_list(cz, "individuals")] == [
        ("D X", 1),
        ("B X", 2),
        ("C X", 3),
    ]
    log = AuditEntry.objects.get(action="waiting.reorder")
    assert log.data == {
        "was_position": 3,
        "position": 1,
        "reason": "Registered by phone on day 1",
    }


def test_promote_by_the_desk_with_a_reason(it: Any, make_user: Any) -> None:
    it = with_cap(it, "cap: 50", "cap: 1")
    register(it, make_user("a"), [adult("A", "Uno"), adult("B", "Due")], "pairs", now=IT_OPEN)
    waiting = register(
        it, make_user("c"), [adult("C", "Tre"), adult("D", "Quattro")], "pairs", now=IT_OPEN
    )
    referee = make_user("ref")
    assert (
        "organizers and referees"
        in refused(lambda: entry_promote(entry=waiting, by=referee, reason="no-show")).message
    )
    EventRole.objects.create(event=it, user=referee, role=EventRole.Role.REFEREE)
    promoted = entry_promote(entry=waiting, by=referee, reason="Seat of #1 after the no-show")
    # IT still needs the organizer's approval before the pair is final.
    assert (promoted.status, promoted.waiting_position) == ("pending", None)
    assert AuditEntry.objects.get(action="entry.promote").data["reason"] == (
        "Seat of #1 after the no-show"
    )


# --- approval and tables -----------------------------------------------------------------------


def test_it_approval_assigns_the_lowest_free_table(it: Any, make_user: Any) -> None:
    organizer = EventRole.objects.get(event=it).user
    users = [make_user(n) for n in ("a", "b", "c")]
    pairs = [
        register(it, u, [adult(f"{u.username}1", "X"), adult(f"{u.username}2", "Y")], "pairs",
                 now=IT_OPEN)
        for u in users
    ]  # fmt: skip
    assert "organizers" in refused(lambda: entry_approve(entry=pairs[0], by=users[0])).message
    assert entry_approve(entry=pairs[0], by=organizer).table_number == 1
    assert entry_approve(entry=pairs[1], by=organizer).table_number == 2
    entry_cancel(entry=pairs[0], by=users[0], now=IT_OPEN)
    third = entry_approve(entry=pairs[2], by=organizer)
    assert (third.status, third.table_number) == ("confirmed", 1)
    assert AuditEntry.objects.filter(action="entry.approve").first().data["table_number"] == 1


# --- cancellation terms --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("squad", "cancelled", "paid", "refund", "owed"),
    [
        # Squad A starts 24 March 2012: the 19th is 5 days before, free; the 20th owes half.
        ("A", dt.datetime(2012, 3, 19, 12, 0, tzinfo=UTC), 0, "0", "0"),
        ("A", dt.datetime(2012, 3, 20, 12, 0, tzinfo=UTC), 0, "0", "300"),
        # Squad B starts the 25th: the 20th is still 5 days before ITS start.
        ("B", dt.datetime(2012, 3, 20, 12, 0, tzinfo=UTC), 0, "0", "0"),
        # Paid 600 in advance (the fee is cash at check-in, but say it was): too late, half of
        # it is kept as the half owed, the other half comes back.
        ("A", dt.datetime(2012, 3, 22, 12, 0, tzinfo=UTC), 600, "300", "0"),
    ],
)
def test_cba_cancellation_terms_against_the_squad_start(
    cba: Any, make_user: Any, squad: str, cancelled: dt.datetime, paid: int, refund: str, owed: str
) -> None:
    user = make_user("p")
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    entry = register(
        cba, user, [player], "players", squad=Squad.objects.get(name=squad),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    if paid:
        Payment.objects.create(
            entry=entry, fee_key="entry", amount=paid, currency="CZK", method="cash",
            receipt_number=1,
        )  # fmt: skip
    preview = settlement_preview(entry=entry, now=cancelled)
    cancellation = entry_cancel(entry=entry, by=user, now=cancelled)
    assert (cancellation.refund, cancellation.owed) == (Decimal(refund), Decimal(owed))
    assert (preview.refund, preview.owed) == (Decimal(refund), Decimal(owed))
    assert cancellation.currency == "CZK"
    assert cancellation.clause.startswith("§ 5.3")
    entry.refresh_from_db()
    assert entry.status == "cancelled"


def test_a_refunding_tier_returns_what_was_paid(cba: Any, make_user: Any) -> None:
    # ČBA § 5.3: free until 5 days before, so 600 CZK paid in advance comes back 6 days before.
    user = make_user("p")
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    entry = register(
        cba, user, [player], "players", squad=Squad.objects.get(name="A"),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    Payment.objects.create(
        entry=entry, fee_key="entry", amount=600, currency="CZK", method="cash", receipt_number=1
    )
    cancellation = entry_cancel(entry=entry, by=user, now=dt.datetime(2012, 3, 18, tzinfo=UTC))
    assert (cancellation.refund, cancellation.owed) == (Decimal(600), Decimal(0))
    assert cancellation.reason == "Cancelled 6 days before the start: refund 600.00 CZK"


def test_cancel_after_the_start_and_by_a_stranger_is_refused(cz: Any, make_user: Any) -> None:
    owner = make_user("a")
    entry = register(cz, owner, [adult("A", "Jedna")], "individuals")
    assert "Only" in refused(lambda: entry_cancel(entry=entry, by=make_user("x"))).message
    after = dt.datetime(2026, 6, 20, 9, 30, tzinfo=UTC)
    assert "no-show" in refused(lambda: entry_cancel(entry=entry, by=owner, now=after)).message
    entry_cancel(entry=entry, by=owner, now=CZ_NOW)
    assert "already" in refused(lambda: entry_cancel(entry=entry, by=owner, now=CZ_NOW)).message
