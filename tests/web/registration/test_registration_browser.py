"""Registration in a real browser: the waiting list and its promotion; an IT pair approved.

The events start in 2099 so that cancelling is always before the start, whatever day this runs.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.models import Entry
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register

FUTURE = dt.datetime(2099, 6, 20, 9, 0, tzinfo=dt.UTC)


def log_in(page: Any, username: str, then: str) -> None:
    page.goto(f"/accounts/login/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{then}")


@pytest.mark.django_db(transaction=True)
def test_waiting_list_then_promoted_after_a_cancellation(
    page: Any, make_user: Any, make_event: Any
) -> None:
    event = make_event("cz-jigsaw", starts_at=FUTURE, title="Czech Jigsaw 2099")
    event.rulebook_text = event.rulebook_text.replace("cap: 200", "cap: 1", 1)
    event.save()
    holder = make_user("holder")
    taken = entry_register(
        event=event,
        category="individuals",
        by=holder,
        members=[PersonData("Hana", "Držitelka", dt.date(1985, 3, 3), "CZ")],
    )
    make_user("petra")

    register = f"/me/register/{event.slug}/individuals/"
    log_in(page, "petra", register)
    assert "The category is full" in page.locator("p.places").inner_text()
    page.fill("input[name=m0_first_name]", "Petra")
    page.fill("input[name=m0_last_name]", "Nováková")
    page.fill("input[name=m0_birth_date]", "1992-04-23")
    page.fill("input[name=m0_country]", "CZ")
    page.get_by_role("button", name="Register").click()
    # Refused on the field, with the offer of the waiting list.
    offer = page.locator(".waiting-offer .errorlist")
    assert "You may join the waiting list: you would be number 1." in offer.inner_text()
    assert Entry.objects.filter(event=event).count() == 1
    page.screenshot(path="/tmp/registration-refused.png", full_page=True)
    page.check("input[name=waiting]")
    page.get_by_role("button", name="Register").click()
    page.wait_for_url("**/me/entries/")
    mine = Entry.objects.get(name="Petra Nováková")
    row = page.locator(f"#entry-{mine.pk}")
    assert "Position 1 on the waiting list" in row.locator(".waiting-position").inner_text()
    page.screenshot(path="/tmp/registration-waiting.png", full_page=True)

    entry_cancel(entry=taken, by=holder)
    page.reload()
    row = page.locator(f"#entry-{mine.pk}")
    assert row.locator(".status-confirmed").inner_text() == "confirmed"
    assert row.locator(".waiting-position").count() == 0
    page.screenshot(path="/tmp/registration-promoted.png", full_page=True)


@pytest.mark.django_db(transaction=True)
def test_organizer_approves_an_it_pair_and_the_table_is_shown(
    page: Any, make_user: Any, make_event: Any
) -> None:
    organizer = make_user("organizer")
    event = make_event(
        "it-puzzle-party",
        organizer=organizer,
        starts_at=dt.datetime(2099, 5, 24, 8, 0, tzinfo=dt.UTC),
        timezone="Europe/Rome",
        title="Puzzle Party 2099",
    )
    pair = entry_register(
        event=event,
        category="pairs",
        by=make_user("luca"),
        members=[
            PersonData("Luca", "Rossi", dt.date(1990, 1, 1), "IT"),
            PersonData("Sara", "Bianchi", dt.date(1991, 2, 2), "IT"),
        ],
        now=dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC),
    )
    assert pair.status == "pending"

    entries = f"/organize/{event.slug}/entries/"
    log_in(page, "organizer", entries)
    row = page.locator(f"#entry-{pair.pk}")
    assert row.locator(".status-pending").inner_text() == "awaiting approval"
    row.get_by_role("button", name="Approve").click()
    page.wait_for_selector("text=Luca Rossi / Sara Bianchi is approved at table 1.")
    row = page.locator(f"#entry-{pair.pk}")
    assert row.locator(".table-number").inner_text() == "1"
    assert row.locator(".status-confirmed").inner_text() == "confirmed"
    page.screenshot(path="/tmp/registration-approved.png", full_page=True)
    pair.refresh_from_db()
    assert (pair.status, pair.table_number) == ("confirmed", 1)
