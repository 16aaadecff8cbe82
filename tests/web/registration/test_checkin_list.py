"""Checking in a list of entries in one action: all or nothing, each check-in audited as the
desk's, one more audit entry for the list, and a refusal naming each entry that may not.

Hand-worked (it-puzzle-party at 15:00 Rome, check-in from 14:40): pairs #1–#5 confirmed, #6
pending. At 14:45 "1, 3-5" checks in #1, #3, #4, #5 at their tables; "2 6" is refused whole
("#6 is pending…") and #2 stays not here; "9" names the unknown number.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, CheckIn, Entry
from podium.web.registration.services.checkin_list import checkins_record, list_numbers

ROME = zoneinfo.ZoneInfo("Europe/Rome")
AT = dt.datetime(2026, 5, 24, 14, 45, tzinfo=ROME)


@pytest.fixture
def it(make_user: Any, make_event: Any) -> Any:
    alice = make_user("alice")
    event = make_event(
        "it-puzzle-party", organizer=alice, starts_at=dt.datetime(2026, 5, 24, 15, 0, tzinfo=ROME),
        timezone="Europe/Rome",
    )  # fmt: skip
    category = event.rulebook.categories[0].key
    for n in range(1, 7):
        status = Entry.Status.PENDING if n == 6 else Entry.Status.CONFIRMED
        Entry.objects.create(
            event=event, number=n, name=f"Pair {n}", category=category, status=status,
            table_number=n + 10,
        )  # fmt: skip
    return event, alice


def test_a_typed_list_reads_numbers_and_ranges_each_once() -> None:
    assert list_numbers("1, 3-5 4;7") == [1, 3, 4, 5, 7]
    with pytest.raises(Refused, match="“3x” is not an entry number"):
        list_numbers("1 3x")
    with pytest.raises(Refused, match="reversed or too long"):
        list_numbers("5-3")
    with pytest.raises(Refused, match="At most 500 entries"):
        list_numbers("1-400 1000-1200")
    with pytest.raises(Refused, match="Type the numbers"):
        list_numbers(" , ")


@pytest.mark.django_db
def test_a_list_checks_in_all_or_nothing(it: Any) -> None:
    event, alice = it
    done = checkins_record(event=event, numbers=[1, 3, 4, 5], by=alice, now=AT)
    assert [c.seat for c in done] == ["Table 11", "Table 13", "Table 14", "Table 15"]
    assert AuditEntry.objects.filter(action="entry.check-in").count() == 4
    (listed,) = AuditEntry.objects.filter(action="entry.check-in-list")
    assert listed.data["numbers"] == [1, 3, 4, 5]

    with pytest.raises(Refused) as refused:
        checkins_record(event=event, numbers=[2, 6], by=alice, now=AT)
    assert str(refused.value.message).startswith("Nobody was checked in: #6 is ")
    assert not CheckIn.objects.filter(entry__number=2).exists()
    with pytest.raises(Refused, match="has the number 9"):
        checkins_record(event=event, numbers=[2, 9], by=alice, now=AT)
    assert CheckIn.objects.count() == 4


@pytest.mark.django_db
def test_the_entries_page_checks_in_a_typed_list(it: Any) -> None:
    event, alice = it
    client = Client()
    client.force_login(alice)
    url = reverse("registrations:check-in-list", args=[event.slug])
    page = client.get(reverse("registrations:index", args=[event.slug])).content.decode()
    assert f'action="{url}"' in page
    event.starts_at = timezone.now() + dt.timedelta(minutes=10)  # check-in is open now
    event.save()
    answer = client.post(url, {"numbers": "1-2"}, follow=True).content.decode()
    assert "2 entries checked in: #1, #2." in answer
    assert set(CheckIn.objects.values_list("entry__number", flat=True)) == {1, 2}
