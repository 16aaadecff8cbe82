"""The projector view on a venue screen (1920×1080): large type, clocks, a slow auto-scroll.

Set-up (cz-jigsaw, individual qualification, group A): 40 Czech finishers, #n in 1:00:00 plus
n × 10 s, so #1 leads and #40 is last; the clock of group A has started. Forty rows do not fit
on one screen, so the page scrolls down by itself (after a short pause at the top), and not at
all when the visitor asked for reduced motion (it then turns a page every 12 s instead).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from podium.web.models import Entry, EntryMember, EventRole, Person
from podium.web.results.services.clock import round_start
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
SCREENSHOT = "/tmp/podium-projector.png"
SCROLLED = "/tmp/podium-projector-scrolled.png"
SCREEN = {"width": 1920, "height": 1080}
FIRST_NAMES = ("Anna", "Bohdan", "Cyril", "Dana", "Eliška", "František", "Gita", "Hynek")


@pytest.fixture
def hall(make_user: Any, make_event: Any) -> Any:
    org, ref = make_user("olga"), make_user("rudolf")
    event = make_event("cz-jigsaw", organizer=org, language="en", title="MČR 2026")
    EventRole.objects.create(event=event, user=ref, role=EventRole.Role.REFEREE)
    round_start(
        event=event, stage=QUALI, group="A", by=org, now=timezone.now() - dt.timedelta(hours=1.2)
    )
    for n in range(1, 41):
        first, last = FIRST_NAMES[n % len(FIRST_NAMES)], f"Skládal{n:02d}"
        made = Entry.objects.create(
            event=event, number=n, name=f"{first} {last}", status=Entry.Status.CONFIRMED,
            category="individuals", group="A",
        )  # fmt: skip
        person = Person.objects.create(first_name=first, last_name=last, country="CZ")
        EntryMember.objects.create(entry=made, person=person, captain=True)
        seconds = n * 10
        result_record(
            event=event, stage=QUALI, entry=made, by=ref, idempotency_key=f"k{n}",
            cells={"time": f"1:{seconds // 60:02d}:{seconds % 60:02d}"},
        )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    return event


@pytest.mark.django_db(transaction=True)
def test_the_projector_shows_large_type_and_scrolls_by_itself(
    browser: Any, live_server: Any, hall: Any
) -> None:
    context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport=SCREEN)
    page = context.new_page()
    try:
        polls: list[int] = []
        page.on("response", lambda r: polls.append(r.status) if "/table/" in r.url else None)
        stage_page = reverse("standings:stage", args=[hall.slug, QUALI])
        page.goto(stage_page)
        projector = reverse("standings:projector", args=[hall.slug, QUALI])
        assert page.locator(f'a[href="{projector}"]').count() == 1  # linked from the stage page
        page.goto(projector)
        page.wait_for_selector("#row-A-40")
        assert page.locator("header.top").is_hidden()  # no site header
        assert page.locator("h1").inner_text() == "MČR 2026"
        assert "Individuals — qualification" in page.locator(".projector-head h2").inner_text()
        assert page.locator("[data-clock]").count() == 2
        assert page.locator("[data-clock].clock-running").count() == 1  # group A
        assert page.locator("td.why, details").count() == 0  # no "why" on the screen
        headers = page.locator("#table-A thead th").all_inner_texts()
        assert headers == ["Place", "Name", "Score", "Marks"]
        first = page.locator("#row-A-1")
        assert first.locator("td.name").inner_text() == "Bohdan Skládal01"
        assert first.locator("td.score").inner_text() == "1:00:10"
        assert "advances" in first.locator("td.marks").inner_text()
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#row-A-1 td.name')).fontSize)"
        )
        assert size >= 40  # 2.4vw of 1920 px: readable from the back of a hall
        assert page.evaluate("window.scrollY") == 0
        page.screenshot(path=SCREENSHOT)

        # A 3 s pause at the top, then about 40 px a second: waited for, not timed, as a busy
        # machine may run the page's timers late.
        page.wait_for_function("window.scrollY > 60", timeout=30_000)
        scrolled = page.evaluate("window.scrollY")
        page.wait_for_timeout(1500)
        assert page.evaluate("window.scrollY") > scrolled  # still moving, slowly
        assert page.evaluate("window.scrollY") < 600
        page.screenshot(path=SCROLLED)  # the clocks stay at the top of the screen
        page.wait_for_event("response", lambda r: "/table/" in r.url, timeout=30_000)
        assert 304 in polls  # it polls like the live page, and nothing changed
        assert 200 not in polls
    finally:
        context.close()


@pytest.mark.django_db(transaction=True)
def test_the_projector_respects_reduced_motion(browser: Any, live_server: Any, hall: Any) -> None:
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport=SCREEN, reduced_motion="reduce"
    )
    page = context.new_page()
    try:
        page.goto(reverse("standings:projector", args=[hall.slug, QUALI]))
        page.wait_for_selector("#row-A-40")
        page.wait_for_timeout(5000)
        assert page.evaluate("window.scrollY") == 0
    finally:
        context.close()
