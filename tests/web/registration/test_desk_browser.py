"""The check-in desk in a real browser on a phone: check one pair in, then give a no-show's seat
to the first pair on the waiting list.

The Puzzle Party started 20 minutes ago: check-in (from 20 min before, no close) is open and the
no-show time (10 min after the start) has passed.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from podium.web.models import CheckIn, Entry, SeatOffer

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_desk_on_a_phone_checks_in_and_hands_a_no_shows_seat_on(
    page: Any, make_user: Any, make_event: Any
) -> None:
    alice = make_user("alice")
    started = timezone.now() - dt.timedelta(minutes=20)
    event = make_event(
        "it-puzzle-party", organizer=alice, starts_at=started, title="Puzzle Party 2026"
    )
    rows = [
        (1, "Rossi & Bianchi", "confirmed", 1, None),
        (2, "Verdi & Neri", "confirmed", 2, None),
        (3, "Bruno & Gallo", "waiting", None, 1),
        (4, "Conti & Ricci", "waiting", None, 2),
    ]
    for number, name, status, table, position in rows:
        Entry.objects.create(
            event=event,
            category="pairs",
            number=number,
            name=name,
            status=status,
            table_number=table,
            waiting_position=position,
        )

    page.set_viewport_size(PHONE)
    page.goto(f"/accounts/login/?next=/desk/{event.slug}/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/desk/{event.slug}/")

    page.fill("input[name=q]", "rossi")
    page.click("form.search button")
    card = page.locator("#entry-1")
    assert card.locator("input[name=seat]").input_value() == "Table 1"
    card.get_by_role("button", name="Check in").click()
    page.wait_for_selector("text=checked in — seat: Table 1")
    assert page.locator("#entry-1 .seat").inner_text() == "Table 1"
    assert CheckIn.objects.get().entry.number == 1

    page.goto(f"/desk/{event.slug}/")
    offers = page.locator(".no-shows .card")
    assert offers.count() == 1  # only #2 is missing now
    give = page.get_by_role("button", name="Give the seat to #3 Bruno & Gallo")
    box = give.bounding_box()
    assert box is not None
    assert box["height"] >= 44  # a thumb-sized target
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path="/tmp/desk-before-offer.png", full_page=True)
    give.click()
    page.wait_for_selector("text=The seat of #2 went to #3 Bruno & Gallo.")
    page.screenshot(path="/tmp/desk-after-offer.png", full_page=True)
    assert page.locator(".no-shows").count() == 0  # #3 just took the seat: not a no-show

    offer = SeatOffer.objects.get()
    assert (offer.absent.number, offer.taker.number) == (2, 3)
    taker = Entry.objects.get(number=3)
    assert (taker.status, taker.table_number) == ("confirmed", 2)
    assert Entry.objects.get(number=2).status == "cancelled"
    assert Entry.objects.get(number=4).waiting_position == 1
    # The page does not scroll sideways on the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
