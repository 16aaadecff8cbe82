"""The head referee who ran the superfinal sees on the round board, on a 360 px phone, that its 24
questions wait for a confirmation; another head referee confirms them in one action from the
checks page, with the keyboard alone, and the board then says the next step is to publish.

Hand-worked (deti-kolomny, Sovy #1 v Filiny #2): the referee Roman taps 24 questions, Sovy taking
the odd ones. The board: "24 of 24" in, "24 (24 by roman)" unconfirmed, "Confirm 24 results".
The checks page reads question 13 as "Question 13 (Brainball): Sovy 1, Filiny 0"; one Enter on
"Confirm all 24 results I may confirm here" confirms them: "24 results confirmed.".
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from podium.web.models import AuditEntry, Verification
from podium.web.results.services.results import result_record

SUPER = "superfinal"
PHONE = {"width": 360, "height": 740}


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_superfinal_is_confirmed_in_one_action_and_the_board_follows(
    new_context: Any, make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any,
    sign_in: Any,
) -> None:  # fmt: skip
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", head="mikhail", head2="hana", referee="roman")
    sovy, filiny = (
        add_entry(event, n, name, country="RU") for n, name in ((1, "Sovy"), (2, "Filiny"))
    )
    put_in_stage(event, SUPER, sovy, filiny, source="chgk-season")
    for n in range(1, 25):
        cells = {"discipline": "chgk" if n <= 12 else "brainball", "1": str(n % 2), "2": "0"}
        result_record(
            event=event, stage=SUPER, item=f"q{n}", cells=cells, by=people["referee"],
            idempotency_key=f"q{n}",
        )  # fmt: skip

    context = new_context(viewport=PHONE)
    sign_in(context, people["head"])
    page = context.new_page()
    page.goto(reverse("board:index", args=[event.slug]))
    line = page.locator(f"#line-{SUPER}-1")
    assert line.locator('[data-count="results"]').inner_text() == "24 of 24"
    assert line.locator('[data-count="unconfirmed"]').inner_text() == "24 (24 by roman)"
    assert fits(page)
    page.screenshot(path="/tmp/podium-board-phone.png", full_page=True)
    line.get_by_role("link", name="Confirm 24 results").click()

    section = page.locator(f"#confirm-{SUPER}-1")
    assert "Question 13 (Brainball): Sovy 1, Filiny 0" in section.inner_text()
    assert "Confirmed by: head referee or organizer" in section.inner_text()
    assert fits(page)
    page.screenshot(path="/tmp/podium-checks-before-phone.png")
    button = section.get_by_role("button", name="Confirm all 24 results I may confirm here")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("text=24 results confirmed.")
    page.screenshot(path="/tmp/podium-checks-phone.png", full_page=True)
    assert Verification.objects.filter(result__stage=SUPER).count() == 24
    assert AuditEntry.objects.filter(action="result.confirm-many").count() == 1

    page.goto(reverse("board:index", args=[event.slug]))
    line = page.locator(f"#line-{SUPER}-1")
    assert line.locator('[data-count="unconfirmed"]').inner_text() == "0"
    assert "Publish the preliminary results — an organizer publishes it" in line.inner_text()
