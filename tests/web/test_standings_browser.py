"""Live standings in a real browser: a result recorded elsewhere appears within 5 s, no reload.

The page polls its table fragment every 3 s; while nothing changed the fragment answers 304 and
the table stays as it is; when it changed, the "why" a reader had open stays open.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from podium.web.models import Entry, EntryMember, EventRole, Person
from podium.web.services.publication import publication_set
from podium.web.services.results import result_record

QUALI = "individual-qualification"
SCREENSHOT = "/tmp/podium-standings-live.png"


def entry(event: Any, number: int, name: str, country: str = "CZ") -> Entry:
    made = Entry.objects.create(
        event=event,
        number=number,
        name=name,
        status=Entry.Status.CONFIRMED,
        category="individuals",
        group="A",
    )
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last, country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


@pytest.mark.django_db(transaction=True)
def test_public_standings_update_without_reload(page: Any, make_user: Any, make_event: Any) -> None:
    org, ref = make_user("olga"), make_user("rudolf")
    event = make_event("cz-jigsaw", organizer=org, language="en", title="MČR 2026")
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    anna, hans = entry(event, 1, "Anna Nová"), entry(event, 3, "Hans Meier", "DE")
    bohdan = entry(event, 2, "Bohdan Malý")
    for who, time in ((anna, "1:10:00"), (hans, "1:00:00")):
        result_record(
            event=event, stage=QUALI, entry=who, cells={"time": time}, by=ref,
            idempotency_key=f"k{who.number}",
        )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)

    polls: list[int] = []
    page.on("response", lambda r: polls.append(r.status) if "/table/" in r.url else None)
    page.goto(reverse("standings:stage", args=[event.slug, QUALI]))
    page.wait_for_selector("#row-A-1")
    assert page.locator("#row-A-2").count() == 0
    page.evaluate("window.notReloaded = true")
    page.locator("#row-A-1 summary").click()  # open Anna's "why"
    page.wait_for_timeout(3500)  # one poll: nothing changed
    assert 304 in polls
    assert page.locator("#row-A-1 details").get_attribute("open") is not None  # kept open

    result_record(
        event=event, stage=QUALI, entry=bohdan, cells={"time": "1:05:00"}, by=ref,
        idempotency_key="k2",
    )  # fmt: skip
    page.wait_for_selector("#row-A-2", timeout=5000)
    assert page.evaluate("window.notReloaded") is True  # swapped in by htmx, no reload
    assert 200 in polls
    page.wait_for_selector("#row-A-1 details[open]", timeout=1000)  # Anna's "why" still open
    names = page.locator("#standings tbody td.name").all_inner_texts()
    assert names == ["Hans Meier", "Bohdan Malý", "Anna Nová"]
    assert "outside the competition" in page.locator("#row-A-3 td.marks").inner_text()
    assert "unverified" in page.locator("#row-A-2 td.marks").inner_text()
    page.locator("#row-A-2 summary").click()
    page.wait_for_selector("#row-A-2 details[open] li")
    page.screenshot(path=SCREENSHOT, full_page=True)
