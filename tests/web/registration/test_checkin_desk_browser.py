"""Two referees' phones (360 px) at the check-in desk of a Puzzle Party that started 5 minutes
ago: one checks a pair in, and the other phone's counts follow within a poll; the first undoes
it with a reason, and both phones count it again. Nothing scrolls sideways; every control is a
thumb-sized target.

Hand-worked: three confirmed pairs (#1–#3), one on the waiting list (#4): 3 expected; the
no-show time (10 min after the start) has not come, so no no-shows.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from podium.web.models import AuditEntry, CheckIn, Entry

PHONE = {"width": 360, "height": 780}
POLLED_MS = 15_000  # the counts poll every 5 s


def counted(page: Any, what: str) -> str:
    return str(page.locator(f'[data-count="{what}"]').inner_text())


def assert_fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def assert_thumb_sized(locator: Any) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["height"] >= 44, box
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= PHONE["width"], box


@pytest.mark.django_db(transaction=True)
def test_two_phones_count_a_check_in_and_its_undo(
    new_context: Any, make_event: Any, staff: Any, sign_in: Any
) -> None:
    started = timezone.now() - dt.timedelta(minutes=5)
    event = make_event("it-puzzle-party", starts_at=started, title="Puzzle Party 2026")
    people = staff(event, organizer="alice", referee="rita")
    for number, name, status in [
        (1, "Rossi & Bianchi", "confirmed"),
        (2, "Verdi & Neri", "confirmed"),
        (3, "Bruno & Gallo", "confirmed"),
        (4, "Conti & Ricci", "waiting"),
    ]:
        Entry.objects.create(
            event=event, category="pairs", number=number, name=name, status=status,
            table_number=number if status == "confirmed" else None,
            waiting_position=1 if status == "waiting" else None,
        )  # fmt: skip

    desk = f"/desk/{event.slug}/"
    first_context, second_context = new_context(viewport=PHONE), new_context(viewport=PHONE)
    sign_in(first_context, people["referee"])
    sign_in(second_context, people["organizer"])
    first, second = first_context.new_page(), second_context.new_page()
    first.goto(desk)
    second.goto(desk)
    for page in (first, second):
        assert (counted(page, "checked-in"), counted(page, "expected")) == ("0", "3")
        assert (counted(page, "not-yet"), counted(page, "no-shows")) == ("3", "0")

    # The first phone checks #1 in; the second phone's counts follow by themselves.
    card = first.locator("#entry-1")
    assert_thumb_sized(card.get_by_role("button", name="Check in"))
    card.get_by_role("button", name="Check in").click()
    first.wait_for_selector("text=checked in — seat: Table 1")
    assert counted(first, "checked-in") == "1"
    second.wait_for_function(
        "document.querySelector('[data-count=\"checked-in\"]').textContent === '1'",
        timeout=POLLED_MS,
    )
    assert counted(second, "not-yet") == "2"
    assert "checked in — seat" not in second.content()  # the page itself did not reload

    # Not yet here: #2 and #3 only.
    not_yet = first.get_by_role("link", name="Not yet here")
    assert_thumb_sized(not_yet)
    not_yet.click()
    first.wait_for_url("**?show=not-yet")
    assert first.locator(".card[id^=entry-]").evaluate_all("cards => cards.map(c => c.id)") == [
        "entry-2",
        "entry-3",
    ]
    assert_fits(first)

    # The first phone undoes the check-in of #1, with a reason.
    first.get_by_role("link", name="Everyone").click()
    first.wait_for_url(f"**{desk}")
    undo = first.locator("#entry-1 details.undo")
    assert_thumb_sized(undo.locator("summary"))
    undo.locator("summary").click()
    undo.get_by_label("Why undo it").fill("Wrong card tapped: it was Bruno & Gallo")
    assert_thumb_sized(undo.get_by_role("button", name="Undo"))
    first.screenshot(path="/tmp/checkin-desk-undo.png", full_page=True)
    undo.get_by_role("button", name="Undo").click()
    first.wait_for_selector("text=The check-in of #1 Rossi & Bianchi was undone.")
    assert counted(first, "checked-in") == "0"
    second.wait_for_function(
        "document.querySelector('[data-count=\"checked-in\"]').textContent === '0'",
        timeout=POLLED_MS,
    )
    assert counted(second, "not-yet") == "3"
    for page in (first, second):
        assert_fits(page)

    assert not CheckIn.objects.exists()
    undone = AuditEntry.objects.get(action="entry.check-in-undo")
    assert (undone.actor, undone.data["reason"]) == (
        people["referee"],
        "Wrong card tapped: it was Bruno & Gallo",
    )
