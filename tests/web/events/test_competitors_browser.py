"""On a phone (360 px): a visitor finds a name in the entry list without a script, opens the
competitor's page and finds the same name in the standings — and no page scrolls sideways.

Hand-worked: cz-jigsaw qualification, group A, published final: #2 Bohdan Malý 1:02:03 (1st
of the Czechs), #1 Anna Nová 1:10:00 (2nd), #3 Hans Meier (DE) 1:00:00, outside the
competition.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.models import Entry, EntryMember, Person
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

PHONE = {"width": 360, "height": 780}
QUALI = "individual-qualification"


@pytest.mark.django_db(transaction=True)
def test_a_visitor_on_a_phone_finds_a_competitor_and_their_results(
    new_context: Any, make_event: Any, staff: Any
) -> None:
    event = make_event("cz-jigsaw", language="en", title="Czech Jigsaw 2026")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    when = dt.datetime(2026, 6, 20, 10, 0, tzinfo=dt.UTC)
    for number, first, last, country, clock in (
        (1, "Anna", "Nová", "CZ", "1:10:00"),
        (2, "Bohdan", "Malý", "CZ", "1:02:03"),
        (3, "Hans", "Meier", "DE", "1:00:00"),
    ):
        entry = Entry.objects.create(event=event, number=number, name=f"{first} {last}",
                                     category="individuals", group="A",
                                     status=Entry.Status.CONFIRMED)  # fmt: skip
        person = Person.objects.create(first_name=first, last_name=last, country=country)
        EntryMember.objects.create(entry=entry, person=person, captain=True)
        done = result_record(event=event, stage=QUALI, entry=entry, cells={"time": clock},
                             by=people["referee"], idempotency_key=f"r{number}",
                             now=when)  # fmt: skip
        result_confirm(result=done, by=people["head"], now=when)
    for state in ("preliminary", "final"):
        publication_set(event=event, stage=QUALI, state=state, by=people["organizer"], now=when)

    context = new_context(viewport=PHONE, java_script_enabled=False)  # no script needed
    page = context.new_page()
    page.goto(f"/e/{event.slug}/entries/")
    page.get_by_label("Find a name").fill("malý")
    page.get_by_role("button", name="Search").click()
    page.wait_for_selector("text=1 entry matches “malý”.")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_role("link", name="Bohdan Malý").click()
    page.wait_for_url(f"**/e/{event.slug}/competitors/2/")
    results = page.locator("table.competitor-results tbody tr").first
    assert results.locator("td").all_inner_texts() == [
        "Individuals — qualification — group A",
        "1.",
        "2.",
        "1:02:03\nadvances",
    ]
    page.screenshot(path="/tmp/podium-competitor-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-competitor-phone.png", full_page=True)

    page.goto(f"/standings/{event.slug}/{QUALI}/")
    page.get_by_label("Find a name").fill("hans")
    page.get_by_role("button", name="Search").click()
    found = page.locator("table.search-results tbody tr")
    assert found.count() == 1
    assert found.locator("td").all_inner_texts()[:4] == ["—", "3", "Hans Meier", "1:00:00"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
