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
from tests.web.registration.test_registration import (
    IT_OPEN,
    adult,
    refused,
    register,
    with_cap,
)

from podium.web.models import AuditEntry, Entry, EventRole
from podium.web.registration.selectors.entries import waiting_list
from podium.web.registration.services.places import entries_approve, waiting_move


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


def test_the_ticked_waiting_entries_move_together_with_a_reason(cz: Any, make_user: Any) -> None:
    """A cap of 1: A is in; B, C, D, E wait in that order. The organizer ticks D and E and moves
    them to position 1 ("a club registered by phone"): D, E, B, C, in one audit entry."""
    cz = with_cap(cz, "cap: 200", "cap: 1")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    waiting = [register(cz, make_user(n), [adult(n.upper(), "X")], "individuals") for n in "bcde"]
    organizer = EventRole.objects.get(event=cz).user
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("registrations:index", args=[cz.slug])).content.decode()
    assert f'value="{waiting[2].pk}" form="move-individuals" aria-label="Tick D X"' in page
    url = reverse("registrations:move-selected", args=[cz.slug, "individuals"])
    data = {"entry": [waiting[2].pk, waiting[3].pk], "position": "1",
            "reason": "a club registered by phone"}  # fmt: skip
    answer = client.post(url, data, follow=True).content.decode()
    assert f"Moved to position 1 on: #{waiting[2].number} D X, #{waiting[3].number} E X." in answer
    assert [e.name for e in waiting_list(cz, "individuals")] == ["D X", "E X", "B X", "C X"]
    (log,) = AuditEntry.objects.filter(action="waiting.reorder-many")
    assert log.data["reason"] == "a club registered by phone"
    assert log.data["moved"] == [waiting[2].number, waiting[3].number]

    no_reason = {**data, "reason": " "}
    assert "Give the new position and a reason." in (
        client.post(url, no_reason, follow=True).content.decode()
    )
    assert "Choose a position from 1 to 3." in (  # D and E after B and C at most
        client.post(url, {**data, "position": "9"}, follow=True).content.decode()
    )
    stranger = refused(
        lambda: waiting_move(event=cz, category="individuals", ids=[waiting[0].pk], position=1,
                             by=make_user("mallory"), reason="x")
    )  # fmt: skip
    assert "organizers" in stranger.message
