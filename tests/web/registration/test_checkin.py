"""The check-in desk: rulebook windows, seats, no-shows and their seats given to the waiting list.

Hand-worked times:
- ČBA squad at 10:00 Prague (09:00 UTC in March): check-in from 09:30 to 09:45 local.
- IT Puzzle Party at 15:00 Rome (13:00 UTC in May): check-in from 14:40, no close; a seat may
  be given away from 15:10.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from podium.web.events.services.events import squad_create
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Cancellation, CheckIn, Entry, EventRole, SeatOffer
from podium.web.registration.selectors.desk import no_shows, search
from podium.web.registration.services.checkin import checkin_record, seat_offer

PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")
ROME = zoneinfo.ZoneInfo("Europe/Rome")


def entry(event: Any, number: int, **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    fields.setdefault("category", event.rulebook.categories[0].key)
    fields.setdefault("name", f"Entry {number}")
    return Entry.objects.create(event=event, number=number, **fields)


def prague(h: int, m: int) -> dt.datetime:
    return dt.datetime(2012, 3, 24, h, m, tzinfo=PRAGUE)


def rome(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 5, 24, h, m, tzinfo=ROME)


@pytest.fixture
def cba(make_user: Any, make_event: Any) -> Any:
    alice = make_user("bea")
    event = make_event(
        "cba-qualifier", organizer=alice, starts_at=prague(9, 0), timezone="Europe/Prague"
    )
    squad = squad_create(event=event, by=alice, name="B", starts_at=prague(10, 0), capacity=24)
    return event, alice, squad


@pytest.fixture
def it(make_user: Any, make_event: Any) -> Any:
    alice = make_user("alice")
    event = make_event(
        "it-puzzle-party", organizer=alice, starts_at=rome(15, 0), timezone="Europe/Rome"
    )
    return event, alice


@pytest.mark.django_db
def test_cba_window_opens_30_and_closes_15_minutes_before_the_squad(cba: Any) -> None:
    event, alice, squad = cba
    early, on_time, late = (entry(event, n, squad=squad) for n in (1, 2, 3))
    with pytest.raises(Refused) as refused:
        checkin_record(entry=early, by=alice, now=prague(9, 29))
    assert "Check-in opens at March 24, 2012, 9:30 a.m." in refused.value.message
    assert "§ 11.1" in (refused.value.clause or "")
    done = checkin_record(entry=on_time, by=alice, now=prague(9, 30), seat="Lanes 5–6")
    assert (done.seat, done.checked_in_at) == ("Lanes 5–6", prague(9, 30))
    checkin_record(entry=early, by=alice, now=prague(9, 45))  # the last minute
    with pytest.raises(Refused, match=re.escape("Check-in closed at March 24, 2012, 9:45 a.m.")):
        checkin_record(entry=late, by=alice, now=prague(9, 46))
    assert CheckIn.objects.count() == 2
    assert AuditEntry.objects.filter(action="entry.check-in").count() == 2


@pytest.mark.django_db
def test_it_window_opens_20_minutes_before_and_hands_out_the_table(it: Any) -> None:
    event, alice = it
    pair = entry(event, 1, table_number=7)
    with pytest.raises(Refused, match=re.escape("opens at May 24, 2026, 2:40 p.m.")) as refused:
        checkin_record(entry=pair, by=alice, now=rome(14, 39))
    assert "Art. 3.2" in (refused.value.clause or "")
    done = checkin_record(entry=pair, by=alice, now=rome(14, 40))
    assert done.seat == "Table 7"
    late = entry(event, 2, table_number=8)
    assert checkin_record(entry=late, by=alice, now=rome(15, 30)).seat == "Table 8"  # no close


@pytest.mark.django_db
def test_only_confirmed_entries_check_in_once_by_staff_of_the_event(
    it: Any, make_user: Any, make_event: Any
) -> None:
    event, alice = it
    referee = make_user("rita")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    pending = entry(event, 1, status=Entry.Status.PENDING)
    with pytest.raises(Refused, match="awaiting approval, not confirmed"):
        checkin_record(entry=pending, by=alice, now=rome(14, 50))
    pair = entry(event, 2)
    stranger = make_user("dave")
    make_event("cz-jigsaw", organizer=stranger)
    with pytest.raises(Refused):
        checkin_record(entry=pair, by=stranger, now=rome(14, 50))
    checkin_record(entry=pair, by=referee, now=rome(14, 50))
    with pytest.raises(Refused, match="already checked in"):
        checkin_record(entry=pair, by=alice, now=rome(14, 51))
    assert CheckIn.objects.count() == 1


@pytest.mark.django_db
def test_the_seat_of_a_no_show_goes_to_the_first_waiting_entry(it: Any, make_user: Any) -> None:
    event, alice = it
    present = entry(event, 1, table_number=1)
    absent = entry(event, 2, table_number=2)
    first = entry(event, 3, status=Entry.Status.WAITING, waiting_position=1)
    second = entry(event, 4, status=Entry.Status.WAITING, waiting_position=2)
    checkin_record(entry=present, by=alice, now=rome(14, 45))
    assert no_shows(event, rome(15, 9)) == []
    with pytest.raises(Refused, match=re.escape("from May 24, 2026, 3:10 p.m.")) as refused:
        seat_offer(absent=absent, by=alice, now=rome(15, 9))
    assert "Art. 6" in (refused.value.clause or "")
    assert no_shows(event, rome(15, 10)) == [(absent, first)]
    referee = make_user("rita")
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    with pytest.raises(Refused, match="Only an organizer"):  # seat_to: organizer
        seat_offer(absent=absent, by=referee, now=rome(15, 10))
    with pytest.raises(Refused, match="is checked in"):
        seat_offer(absent=present, by=alice, now=rome(15, 10))

    offer = seat_offer(absent=absent, by=alice, now=rome(15, 10))
    absent.refresh_from_db()
    first.refresh_from_db()
    second.refresh_from_db()
    assert (offer.absent, offer.taker, offer.offered_at) == (absent, first, rome(15, 10))
    assert (absent.status, absent.table_number) == (Entry.Status.CANCELLED, None)
    # The organizer handing the seat over approves the pair; it takes the no-show's table.
    assert (first.status, first.table_number, first.waiting_position) == ("confirmed", 2, None)
    assert (second.status, second.waiting_position) == ("waiting", 1)
    cancellation = Cancellation.objects.get(entry=absent)
    assert cancellation.refund == Decimal(0)  # no_show.refund: false
    assert "Art. 6" in cancellation.clause
    assert AuditEntry.objects.filter(action="seat.offer").get().data["taker"] == 3
    assert SeatOffer.objects.count() == 1
    # The pair that took the seat is not a no-show at once: it has 10 minutes from 15:10.
    assert no_shows(event, rome(15, 19)) == []
    assert no_shows(event, rome(15, 20)) == [(first, second)]
    # The new pair checks in at the no-show's table.
    assert checkin_record(entry=first, by=alice, now=rome(15, 12)).seat == "Table 2"


@pytest.mark.django_db
def test_a_seat_offer_needs_someone_waiting_and_a_no_show_rule(
    it: Any, cba: Any, make_event: Any
) -> None:
    event, alice = it
    absent = entry(event, 1, table_number=1)
    with pytest.raises(Refused, match="Nobody is waiting"):
        seat_offer(absent=absent, by=alice, now=rome(15, 30))
    bowling, organizer, squad = cba
    bowler = entry(bowling, 1, squad=squad)
    with pytest.raises(Refused, match="does not let"):
        seat_offer(absent=bowler, by=organizer, now=prague(12, 0))
    assert not SeatOffer.objects.exists()
    assert Entry.objects.filter(status=Entry.Status.CANCELLED).count() == 0


@pytest.mark.django_db
def test_cz_no_show_at_ten_minutes_with_no_refund(make_user: Any, make_event: Any) -> None:
    alice = make_user("alice")
    start = dt.datetime(2026, 6, 20, 9, 0, tzinfo=PRAGUE)
    event = make_event("cz-jigsaw", organizer=alice, starts_at=start)
    absent = entry(event, 1, category="individuals", group="A")
    waiting = entry(event, 2, category="individuals", status="waiting", waiting_position=1)
    entry(event, 3, category="pairs", status="waiting", waiting_position=1)
    assert no_shows(event, start + dt.timedelta(minutes=9, seconds=59)) == []
    assert no_shows(event, start + dt.timedelta(minutes=10)) == [(absent, waiting)]
    seat_offer(absent=absent, by=alice, now=start + dt.timedelta(minutes=10))
    waiting.refresh_from_db()
    assert waiting.status == Entry.Status.CONFIRMED
    assert Cancellation.objects.get().refund == 0


@pytest.mark.django_db
def test_desk_search_by_name_or_number(it: Any) -> None:
    event, _alice = it
    entry(event, 12, name="Rossi & Bianchi")
    entry(event, 5, name="Verdi & Neri")
    entry(event, 6, name="Gone", status=Entry.Status.CANCELLED)
    assert [e.number for e in search(event, "rossi")] == [12]
    assert [e.number for e in search(event, "#5")] == [5]
    assert [e.number for e in search(event, "")] == [5, 12]


@pytest.mark.django_db
def test_desk_pages_check_in_and_give_a_seat(it: Any) -> None:
    event, alice = it
    pair = entry(event, 1, name="Rossi & Bianchi", table_number=4)
    client = Client()
    client.force_login(alice)
    # The event started long ago in the test's real "now": check-in is open (IT has no close).
    response = client.post(f"/desk/{event.slug}/checkin/{pair.pk}/", {"seat": "", "q": "rossi"})
    assert response["Location"] == f"/desk/{event.slug}/?q=rossi"
    html = client.get(response["Location"]).content.decode()
    assert "checked in — seat: Table 4" in html
    assert "Table 4</span>" in html
    absent = entry(event, 2, name="Verdi & Neri", table_number=5)
    entry(event, 3, name="Bruno & Gallo", status="waiting", waiting_position=1)
    html = client.get(f"/desk/{event.slug}/").content.decode()
    assert "Give the seat to #3 <bdi>Bruno &amp; Gallo</bdi>" in html
    response = client.post(f"/desk/{event.slug}/offer/{absent.pk}/", follow=True)
    assert "The seat of #2 went to #3 Bruno &amp; Gallo." in response.content.decode()
    assert SeatOffer.objects.count() == 1
