"""Approving the ticked entries in one action: one transaction, one audit entry, the lowest free
tables in number order, and a refusal as a whole that names the entry it stops at.

Hand-worked (it-puzzle-party, approval assigns tables): three pairs register; the organizer ticks
the first two: "2 entries approved: #1 a1 & a2, #2 b1 & b2." at tables 1 and 2; ticking the second
and third again is refused ("#2 …: Only an entry awaiting approval can be approved.") and the
third stays pending.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tests.web.registration.test_registration import IT_OPEN, adult, refused, register

from podium.web.models import AuditEntry, Entry, EventRole
from podium.web.registration.services.places import entries_approve


def pairs_of(it: Any, make_user: Any) -> list[Entry]:
    users = [make_user(n) for n in ("a", "b", "c")]
    return [
        register(it, u, [adult(f"{u.username}1", "X"), adult(f"{u.username}2", "Y")], "pairs",
                 now=IT_OPEN)
        for u in users
    ]  # fmt: skip


def test_the_ticked_entries_are_approved_in_one_action(it: Any, make_user: Any) -> None:
    organizer = EventRole.objects.get(event=it).user
    pairs = pairs_of(it, make_user)
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("registrations:index", args=[it.slug])).content.decode()
    assert f'name="entry" value="{pairs[0].pk}" form="approve-pairs"' in page
    url = reverse("registrations:approve-selected", args=[it.slug])
    answer = client.post(url, {"entry": [pairs[0].pk, pairs[1].pk]}, follow=True)
    names = ", ".join(f"#{p.number} {p.name}" for p in pairs[:2])
    assert f"2 entries approved: {names}." in answer.content.decode()
    tables = dict(Entry.objects.filter(event=it).values_list("pk", "table_number"))
    assert (tables[pairs[0].pk], tables[pairs[1].pk], tables[pairs[2].pk]) == (1, 2, None)
    (entry,) = AuditEntry.objects.filter(action="entry.approve-many")
    assert entry.data["tables"] == [1, 2]

    again = refused(lambda: entries_approve(event=it, ids=[pairs[1].pk, pairs[2].pk], by=organizer))
    assert again.message == (
        f"#{pairs[1].number} {pairs[1].name}: Only an entry awaiting approval can be approved."
    )
    assert Entry.objects.get(pk=pairs[2].pk).status == Entry.Status.PENDING


@pytest.mark.django_db
def test_only_an_organizer_and_only_this_events_entries(it: Any, make_user: Any) -> None:
    pairs = pairs_of(it, make_user)
    stranger = make_user("mallory")
    assert (
        "organizers"
        in refused(lambda: entries_approve(event=it, ids=[pairs[0].pk], by=stranger)).message
    )
    organizer = EventRole.objects.get(event=it).user
    assert (
        "not this event"
        in refused(
            lambda: entries_approve(event=it, ids=[pairs[0].pk, 10**6], by=organizer)
        ).message
    )
    assert (
        "Tick the entries"
        in refused(lambda: entries_approve(event=it, ids=[], by=organizer)).message
    )
    assert not Entry.objects.filter(status=Entry.Status.CONFIRMED).exists()
