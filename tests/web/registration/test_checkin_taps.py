"""Check-ins tapped on a desk's phone, perhaps offline (``checkin_tap`` and
``/desk/<event>/taps/``): two desks checking in the same person is no conflict, a replay after
an undo does not check in again, a tap made inside the window and sent after it closed is heard
at the moment it was made, and refusals come back in words.

Hand-worked (ČBA squad at 10:00 Prague): check-in from 09:30 to 09:45 local; a tap at 09:44 sent
at 09:50 is in time, one at 09:46 is refused.
"""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from typing import Any

import pytest
from django.test import Client

from podium.web.events.services.events import squad_create
from podium.web.models import AuditEntry, CheckIn, Entry
from podium.web.registration.services.checkin import checkin_tap, checkin_undo

PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")


def prague(h: int, m: int) -> dt.datetime:
    return dt.datetime(2012, 3, 24, h, m, tzinfo=PRAGUE)


@pytest.fixture
def cba(make_user: Any, make_event: Any) -> Any:
    bea = make_user("bea")
    event = make_event(
        "cba-qualifier", organizer=bea, starts_at=prague(9, 0), timezone="Europe/Prague"
    )
    squad = squad_create(event=event, by=bea, name="B", starts_at=prague(10, 0), capacity=24)
    for number in (1, 2):
        Entry.objects.create(
            event=event, number=number, name=f"Bowler {number}", squad=squad,
            status=Entry.Status.CONFIRMED, category=event.rulebook.categories[0].key,
        )  # fmt: skip
    return event, bea


def test_two_desks_checking_in_the_same_person_is_no_conflict(cba: Any, make_user: Any) -> None:
    event, bea = cba
    first = checkin_tap(event=event, number=1, key="desk1", by=bea, at=prague(9, 40))
    assert (first["status"], first["by"]) == ("stored", "bea")
    second = checkin_tap(event=event, number=1, key="desk2", by=bea, at=prague(9, 41))
    assert second["status"] == "already"
    assert dt.datetime.fromisoformat(second["at"]) == prague(9, 40)
    assert CheckIn.objects.count() == 1


def test_a_replay_after_an_undo_does_not_check_in_again(cba: Any) -> None:
    event, bea = cba
    checkin_tap(event=event, number=1, key="k", by=bea, at=prague(9, 40))
    checkin_undo(entry=event.entries.get(number=1), by=bea, reason="wrong card")
    again = checkin_tap(event=event, number=1, key="k", by=bea, at=prague(9, 42))
    assert (again["status"], again["message"]) == ("already", "This check-in was undone.")
    assert not CheckIn.objects.exists()
    assert AuditEntry.objects.filter(action="entry.check-in").count() == 1


def test_the_window_is_judged_at_the_moment_of_the_tap(cba: Any) -> None:
    event, bea = cba
    in_time = checkin_tap(event=event, number=1, key="a", by=bea, at=prague(9, 44))
    assert in_time["status"] == "stored"
    late = checkin_tap(event=event, number=2, key="b", by=bea, at=prague(9, 46))
    assert late["status"] == "refused"
    assert late["message"].startswith("Check-in closed at")
    unknown = checkin_tap(event=event, number=7, key="c", by=bea, at=prague(9, 40))
    assert unknown["message"] == "No entrant has the number 7."


def test_the_desk_endpoints_list_and_answer_in_order(cba: Any) -> None:
    event, bea = cba
    client = Client()
    client.force_login(bea)
    listed = client.get(f"/desk/{event.slug}/entries.json").json()["entries"]
    assert [(e["n"], e["here"]) for e in listed] == [(1, False), (2, False)]
    assert listed[0]["code"].startswith("1-")
    taps = [{"key": "x", "number": 1}, {"key": "x", "number": 1}, {"key": "y", "number": 2}]
    body = json.dumps({"taps": taps})
    answers = client.post(f"/desk/{event.slug}/taps/", body, content_type="application/json")
    # Sent now, long after the 2012 squad's window: each refused in words, nothing stored.
    assert [a["status"] for a in answers.json()["answers"]] == ["refused"] * 3
    assert answers.json()["answers"][0]["message"].startswith("Check-in closed at")
    assert not CheckIn.objects.exists()
    signed_out = Client().post(f"/desk/{event.slug}/taps/", body, content_type="application/json")
    assert signed_out.status_code == 401
