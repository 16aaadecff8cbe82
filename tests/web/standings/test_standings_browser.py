"""Live standings in a real browser: finishes recorded at the tables appear within 5 s, no reload.

A referee's phone (390×844) and a spectator's screen each show the public standings of the
cz-jigsaw qualification. (The referee's console is being rewritten, so the phone shows the
public page and the finishes are recorded through ``results.services.clock.result_finish``, the same
one-tap finish the console calls.) The page polls its fragment every 3 s; while nothing changed
the fragment answers 304 and the table stays as it is; when it changed, the "why" a reader had
open stays open.

Hand-worked: the clock of group A started 80 min ago; Hans Meier (DE) 1:00:00 and Anna Nová
1:10:00 are recorded before the pages open. Bohdan Malý's tap records about 1:20:00, so the order
becomes Hans, Anna, Bohdan (Hans outside the competition: Anna official place 1, Bohdan 2).
Dana Zelená's tap, seconds later, puts her last (official place 3).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from podium.web.models import Entry, EntryMember, EventRole, Person
from podium.web.results.services.clock import result_finish, round_start
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
SCREENSHOT = "/tmp/podium-standings-live.png"
PHONE_SHOT = "/tmp/podium-standings-phone.png"
POLLED_MS = 30_000  # the table polls every 3 s; a wait this long only stops a hung test


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


def names(page: Any) -> list[str]:
    return page.locator("#standings tbody td:nth-child(4)").all_inner_texts()


@pytest.mark.django_db(transaction=True)
def test_finishes_on_a_phone_update_the_public_standings_without_reload(
    page: Any, browser: Any, live_server: Any, make_user: Any, make_event: Any
) -> None:
    org, ref = make_user("olga"), make_user("rudolf")
    event = make_event("cz-jigsaw", organizer=org, language="en", title="MČR 2026")
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    anna, hans = entry(event, 1, "Anna Nová"), entry(event, 3, "Hans Meier", "DE")
    bohdan, dana = entry(event, 2, "Bohdan Malý"), entry(event, 4, "Dana Zelená")
    round_start(
        event=event, stage=QUALI, group="A", by=org, now=timezone.now() - dt.timedelta(minutes=80)
    )
    for who, time in ((anna, "1:10:00"), (hans, "1:00:00")):
        result_record(
            event=event, stage=QUALI, entry=who, cells={"time": time}, by=ref,
            idempotency_key=f"k{who.number}",
        )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    url = reverse("standings:stage", args=[event.slug, QUALI])

    phone_context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport={"width": 390, "height": 844},
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    phone = phone_context.new_page()
    try:
        polls: list[int] = []
        page.on("response", lambda r: polls.append(r.status) if "/table/" in r.url else None)
        for shown in (page, phone):
            shown.goto(url)
            shown.wait_for_selector("#row-A-1")
            assert shown.locator("#row-A-2").count() == 0
            assert shown.locator("[data-clock]").count() == 2  # groups A and B
            shown.evaluate("window.notReloaded = true")
        page.locator("#row-A-1 td:nth-child(4) a").click()  # open Anna's "why" under her row
        page.wait_for_selector("#row-A-1 + tr.why-row li")
        anna_why = page.locator("#row-A-1 + tr.why-row").inner_text()
        assert "Below Hans Meier on time: 1:10:00 against 1:00:00" in anna_why
        assert page.evaluate("window.notReloaded") is True  # shown in place, not a new page
        page.wait_for_event(  # one poll: nothing changed
            "response", lambda r: "/table/" in r.url and r.status == 304, timeout=POLLED_MS
        )
        assert 304 in polls
        assert page.locator("#row-A-1 + tr.why-row li").count() > 0  # kept open

        result_finish(event=event, stage=QUALI, entry=bohdan, by=ref, idempotency_key="tap-2")
        for shown in (page, phone):
            shown.wait_for_selector("#row-A-2", timeout=POLLED_MS)
            assert shown.evaluate("window.notReloaded") is True  # swapped in by htmx
            assert names(shown) == ["Hans Meier", "Anna Nová", "Bohdan Malý"]
        assert 200 in polls
        page.wait_for_selector("#row-A-1 + tr.why-row li")  # Anna's "why" still open
        assert "outside the competition" in page.locator("#row-A-3 td:last-child").inner_text()
        assert "unverified" in page.locator("#row-A-2 td:last-child").inner_text()
        assert page.locator("#row-A-2 td:nth-child(1)").inner_text() == "2."
        assert page.locator("#row-A-2 td:nth-child(5)").inner_text().startswith("1:20:0")

        result_finish(event=event, stage=QUALI, entry=dana, by=ref, idempotency_key="tap-4")
        for shown in (page, phone):
            shown.wait_for_selector("#row-A-4", timeout=POLLED_MS)
            assert names(shown) == ["Hans Meier", "Anna Nová", "Bohdan Malý", "Dana Zelená"]
            assert shown.evaluate("window.notReloaded") is True
        # the phone's table fits its width or scrolls inside it; the page itself is not wider
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("#row-A-2 td:nth-child(4) a").click()
        page.wait_for_selector("#row-A-2 + tr.why-row li")
        assert "Below Anna Nová on time" in page.locator("#row-A-2 + tr.why-row").inner_text()
        page.locator("#row-A-2 td:nth-child(4) a").click()  # a second tap closes it
        assert page.locator("#row-A-2 + tr.why-row").count() == 0
        page.locator("#row-A-2 td:nth-child(4) a").click()
        page.wait_for_selector("#row-A-2 + tr.why-row li")
        page.screenshot(path=SCREENSHOT, full_page=True)
        phone.screenshot(path=PHONE_SHOT, full_page=True)
    finally:
        phone_context.close()
