"""The referee console in a real browser on a phone: a referee finds an entry, records its
time, and sees it as the current result.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.models import Entry, EntryMember, EventRole, Person, Result

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_a_referee_records_a_time_on_a_phone(page: Any, make_user: Any, make_event: Any) -> None:
    olga, rudolf = make_user("olga"), make_user("rudolf")
    event = make_event("cz-jigsaw", organizer=olga, title="Czech Jigsaw 2026")
    EventRole.objects.create(event=event, user=rudolf, role=EventRole.Role.REFEREE)
    for number, first, last in [(1, "Anna", "Nová"), (2, "Bohdan", "Malý")]:
        entry = Entry.objects.create(
            event=event,
            category="individuals",
            number=number,
            name=f"{first} {last}",
            status=Entry.Status.CONFIRMED,
        )
        person = Person.objects.create(first_name=first, last_name=last, country="CZ")
        EntryMember.objects.create(entry=entry, person=person, captain=True)

    page.set_viewport_size(PHONE)
    page.goto(f"/accounts/login/?next=/desk/{event.slug}/")
    page.fill("input[name=username]", "rudolf")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**/desk/{event.slug}/")
    page.get_by_role("link", name="Results console").click()
    page.wait_for_url(f"**/desk/{event.slug}/results/")
    page.get_by_role("link", name="Individuals — final").click()
    page.wait_for_url("**/results/individual-final/")

    page.fill("input[name=q]", "anna")
    page.click("form.search button")
    card = page.locator("#entry-1")
    assert card.locator(".meta", has_text="No result yet.").count() == 1
    card.get_by_label("Time").fill("1:02:03")
    card.get_by_label("Missing pieces").fill("1")
    record = card.get_by_role("button", name="Record")
    box = record.bounding_box()
    assert box is not None
    assert box["height"] >= 44  # a thumb-sized target
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    record.click()
    page.wait_for_selector("text=#1 Anna Nová recorded: time 1:02:03, missing 1")
    assert page.locator("#entry-1 .current").inner_text() == "time 1:02:03, missing 1"
    assert page.locator("#entry-1 .unverified-mark").inner_text() == "not verified"
    assert page.locator("#entry-1").get_by_role("button", name="Correct").count() == 1
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways
    page.screenshot(path="/tmp/results-console-phone.png", full_page=True)

    result = Result.objects.get()
    assert (result.entry.number, result.cells["time"], result.recorded_by) == (1, "1:02:03", rudolf)
