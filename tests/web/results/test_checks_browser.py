"""A head referee resolves a mismatch between two scorers' sheets, in a real browser.

Hand-worked (deti-kolomny, tour 1): the first scorer has Сова on 110010111000101, the second
on 110011111000100 → questions 6 and 15 differ. The head referee checks the captain's card,
takes the second sheet with the reason, and Сова's result becomes 110011111000100 (8 taken),
verified by resolution; the mismatch is gone from the page.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from podium.web.chgk.services.rounds import round_add
from podium.web.models import Verification
from podium.web.results.selectors.rows import current_results
from podium.web.results.services.checks import second_entry_record
from podium.web.results.services.results import result_record


@pytest.mark.django_db(transaction=True)
def test_a_head_referee_resolves_a_mismatch(
    new_context: Any, make_event: Any, staff: Any, add_entry: Any, sign_in: Any
) -> None:
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    round_add(
        event=event, stage="chgk-tour", by=people["organizer"],
        starts_at=dt.datetime(2010, 11, 14, 19, 0, tzinfo=event.zone),
    )  # fmt: skip
    sova = add_entry(event, 1, "Сова", country="RU", category="teams")
    first = result_record(
        event=event, stage="chgk-tour", entry=sova, cells={"mask": "110010111000101"},
        by=people["referee"], idempotency_key="s1",
    )  # fmt: skip
    second_entry_record(
        result=first, cells={"mask": "110011111000100"}, by=people["referee2"],
        idempotency_key="s2",
    )  # fmt: skip

    context = new_context()
    sign_in(context, people["head"])
    page = context.new_page()
    page.goto(reverse("checks:index", args=[event.slug]))
    card = page.locator(".mismatch")
    assert "#1 Сова" in card.locator("h3").inner_text()
    assert "Questions 6, 15 differ." in card.inner_text()
    assert card.locator("td.differs").all_inner_texts() == ["110010111000101", "110011111000100"]
    assert "First entry (roman)" in card.inner_text()
    assert "Second entry (rita)" in card.inner_text()
    page.screenshot(path="/tmp/podium-mismatch.png", full_page=True)
    card.get_by_label("Why this value is right").fill("the captain's card: 6 taken, 15 not")
    card.get_by_role("button", name="Take the second: mask 110011111000100").click()
    page.wait_for_selector("text=mismatch resolved.")
    assert page.locator(".mismatch").count() == 0
    assert "No mismatch is waiting." in page.inner_text("main")

    (current,) = current_results(event, "chgk-tour")
    assert current.cells["mask"] == "110011111000100"
    assert current.reason == "mismatch resolved: the captain's card: 6 taken, 15 not"
    check = Verification.objects.get(result=current)
    assert (check.method, check.verified_by) == ("resolution", people["head"])
