"""The protest desk in a real browser, on a phone: the head referee files a player's protest
with the 500 CZK deposit, prints the confirmation, and records the committee's decision that
upholds it with game 3 corrected.

Hand-worked: Adam bowled 200 190 187 210 200 195 = 1182, 2nd behind Bohuš's 1190 (190 200 210
190 200 200). Game 3 corrected 187 → 207 makes 1202: Adam 1st. The deposit is receipt 1 (the
event's first payment) and is returned.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.models import Appeal, Event, EventRole, Squad, Verdict
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.results import result_record

PHONE = {"width": 390, "height": 844}
SERIES = {
    1: ("Adam Kos", [200, 190, 187, 210, 200, 195]),
    2: ("Bohuš Lev", [190, 200, 210, 190, 200, 200]),
}


def bowled(make_user: Any, make_event: Any, add_entry: Any) -> tuple[Event, Any]:
    """The qualifier with Adam and Bohuš's six games recorded, and its head referee hana."""
    olga, hana = make_user("olga"), make_user("hana")
    event = make_event("cba-qualifier", organizer=olga, status=Event.Status.CLOSED,
                       title="ČBA qualifier 2012")  # fmt: skip
    EventRole.objects.create(event=event, user=hana, role=EventRole.Role.HEAD_REFEREE)
    squad = Squad.objects.create(event=event, name="Squad A", starts_at=event.starts_at,
                                 capacity=8)  # fmt: skip
    for number, (name, series) in SERIES.items():
        player = add_entry(event, number, name, division="master-men", squad=squad)
        result_record(event=event, stage="qualification", entry=player, by=hana,
                      cells={f"g{n}": str(v) for n, v in enumerate(series, start=1)},
                      idempotency_key=f"six-{number}")  # fmt: skip
    return event, hana


@pytest.mark.django_db(transaction=True)
def test_the_head_referee_files_a_protest_prints_the_confirmation_and_upholds_it(
    new_context: Any, sign_in: Any, make_user: Any, make_event: Any, add_entry: Any
) -> None:
    event, hana = bowled(make_user, make_event, add_entry)
    context = new_context(viewport=PHONE)
    sign_in(context, hana)
    page = context.new_page()
    page.goto(f"/desk/{event.slug}/bowling/")
    page.get_by_role("link", name="Protests, warnings and expulsions").click()
    page.wait_for_url(f"**/desk/{event.slug}/protests/")

    page.get_by_label("Player", exact=True).select_option(
        label="#1 Adam Kos — 200 190 187 210 200 195 (1182)"
    )
    page.get_by_label("The protest as written by the player").fill(
        "Game 3, frame 7: the pinsetter left a pin standing; 187 should be 207."
    )
    deposit = page.get_by_label("Deposit of 500.00 CZK received")
    deposit.select_option("cash")
    box = page.get_by_role("button", name="File the protest").bounding_box()
    assert box is not None
    assert box["height"] >= 44
    page.screenshot(path="/tmp/podium-protest-form-phone.png", full_page=True)
    page.get_by_role("button", name="File the protest").click()
    page.wait_for_url("**/protests/1/confirmation/")
    page.wait_for_selector("text=Protest 1 of #1 Adam Kos filed; deposit receipt 1.")
    assert page.locator("dd.receipt-number").inner_text() == "1"
    assert page.locator("dd.amount").inner_text() == "500.00\N{NO-BREAK SPACE}CZK"
    assert page.locator("dd.player").inner_text() == "#1 Adam Kos"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-protest-confirmation-phone.png", full_page=True)
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()
    assert not page.get_by_role("button", name="Print the confirmation").is_visible()
    page.screenshot(path="/tmp/podium-protest-confirmation-print.png", full_page=True)
    page.emulate_media(media="screen")

    page.get_by_role("link", name="To the decision").click()
    page.wait_for_url("**/protests/1/")
    page.get_by_label("Upheld: deposit returned").check()
    page.get_by_label("Reasons").fill("The video shows the pin left standing by the pinsetter.")
    game3 = page.get_by_label("Game 3", exact=True)
    assert game3.input_value() == "187"
    game3.fill("207")
    page.screenshot(path="/tmp/podium-protest-decision-phone.png", full_page=True)
    page.get_by_role("button", name="Record the decision").click()
    page.wait_for_selector("text=Protest 1 upheld; return the deposit to the player.")
    assert page.locator("dd.corrected").inner_text() == "game 3: 187 → 207 · total 1202"
    assert "returned to the player" in page.locator("main").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-protest-upheld-phone.png", full_page=True)

    # a warning for Bohuš on the players' page, then the refused expulsion shown there
    page.goto(f"/desk/{event.slug}/protests/players/")
    bohus = page.locator("#player-2")
    bohus.get_by_text("Warn or expel").click()
    bohus.get_by_label("What happened").fill("Open drink in the playing area")
    bohus.get_by_role("button", name="Record for #2").click()
    page.wait_for_selector("text=#2 Bohuš Lev is warned.")
    assert "1 warning" in page.locator("#player-2 h2").inner_text()
    adam = page.locator("#player-1")
    adam.get_by_text("Warn or expel").click()
    adam.get_by_label("Expulsion").check()
    adam.get_by_label("What happened").fill("Phone on the approach")
    adam.get_by_role("button", name="Record for #1").click()
    page.wait_for_selector("text=Expulsion is for a repeated breach: a warning comes first.")
    page.screenshot(path="/tmp/podium-protest-players-phone.png", full_page=True)

    verdict = Verdict.objects.get(appeal=Appeal.objects.get())
    assert (verdict.upheld, verdict.fee) == (True, "refunded")
    rows = standings_as_of(event, "qualification").tables[0].rows
    assert [(r.entry.name, r.entry.score_text) for r in rows] == [
        ("Adam Kos", "1202 (210 high)"),
        ("Bohuš Lev", "1190 (210 high)"),
    ]
