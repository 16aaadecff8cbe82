"""The referee console in a real browser on a phone, while the public watches.

A referee on a 390×844 phone taps "Finished" for Anna 30 minutes into group A, adds the one
missing piece found at the check (+10 s) and hands the phone to Anna, who agrees. In a second
browser the public standings page (published as preliminary) shows Anna's row within 5 s,
without a reload, with the penalty explained in its "why"; then Bohdan's finish appears above
or below hers by time.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from podium.web.models import Agreement, Result
from podium.web.results.services.clock import round_start
from podium.web.standings.services.publication import publication_set

PHONE = {"width": 390, "height": 844}
QUALI = "individual-qualification"
POLLED_MS = 30_000  # the table polls every 3 s; a wait this long only stops a hung test


@pytest.mark.django_db(transaction=True)
def test_a_referee_taps_finishes_on_a_phone_and_the_public_sees_them(
    new_context: Any, make_event: Any, staff: Any, add_entry: Any, sign_in: Any
) -> None:
    event = make_event("cz-jigsaw", language="en", title="MČR 2026")
    people = staff(event, organizer="olga", head="renata", referee="rudolf")
    anna = add_entry(event, 1, "Anna Nová", group="A")
    add_entry(event, 2, "Bohdan Malý", group="A")
    round_start(
        event=event, stage=QUALI, group="A", by=people["head"],
        now=timezone.now() - dt.timedelta(minutes=30),
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])

    public = new_context().new_page()
    public.goto(reverse("standings:stage", args=[event.slug, QUALI]))
    public.evaluate("window.notReloaded = true")
    assert public.locator("#row-A-1").count() == 0

    phone_context = new_context(viewport=PHONE)
    sign_in(phone_context, people["referee"])
    phone = phone_context.new_page()
    phone.goto(reverse("results:round", args=[event.slug, QUALI, 1]))
    assert re.fullmatch(r"0:3\d:\d\d", phone.locator(".clock-elapsed").first.inner_text())
    card = phone.locator("#entry-1")
    tap = card.get_by_role("button", name="Finished")
    box = tap.bounding_box()
    assert box is not None
    assert box["height"] >= 64  # a big thumb target
    assert box["x"] + box["width"] <= PHONE["width"]
    tap.click()
    phone.wait_for_selector("text=#1 Anna Nová finished:")
    time = Result.objects.get().cells["time"]
    assert re.fullmatch(r"0:3\d:\d\d", time)
    assert phone.locator("#entry-1 .score").inner_text() == time
    card = phone.locator("#entry-1")
    card.locator("form.missing").get_by_label("Missing pieces").fill("1")
    card.get_by_role("button", name="Add missing pieces").click()
    phone.wait_for_selector("text=#1: 1 missing piece added.")
    agree = phone.locator("#entry-1").get_by_role("button", name=re.compile("Competitor agrees"))
    assert "(+10 s)" in agree.inner_text()
    agree.click()
    phone.wait_for_selector("#entry-1 .mark-agreed")
    assert Agreement.objects.get().result.cells["missing"] == "1"
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path="/tmp/podium-console-phone.png", full_page=True)

    public.wait_for_selector("#row-A-1", timeout=POLLED_MS)  # no reload: swapped in by the poll
    assert public.evaluate("window.notReloaded") is True
    public.locator("#row-A-1 td:nth-child(4) a").click()
    public.wait_for_selector("#row-A-1 + tr.why-row li")
    why = public.locator("#row-A-1 + tr.why-row").inner_text()
    assert "+ 1 missing piece × 10 s" in why
    assert "unverified" in public.locator("#row-A-1").inner_text()

    phone.locator("#entry-2").get_by_role("button", name="Finished").click()
    phone.wait_for_selector("text=#2 Bohdan Malý finished:")
    public.wait_for_selector("#row-A-2", timeout=POLLED_MS)
    names = public.locator("#standings tbody td:nth-child(4)").all_inner_texts()
    assert sorted(names) == ["Anna Nová", "Bohdan Malý"]
    public.screenshot(path="/tmp/podium-standings-public.png", full_page=True)
    assert anna.results.count() == 2  # the finish and the missing pieces: append-only
