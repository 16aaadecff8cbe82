"""The ChGK grid filled by keyboard only, in a real browser on a laptop screen.

Hand-worked (deti-kolomny, 15 questions): the referee types Sovy 111111111100001 (11 taken),
Ezhi 111111111 then Backspace (the 9th mark goes) and 0000000 (8 taken), Lisy 11111111?000000
(8 taken, question 9 disputed), then goes back up to Sovy's question 15 and types 0: Sovy's
total drops from 11 to 10. Saved with Enter: Sovy 1st → 12 points; Ezhi and Lisy share 2nd–3rd
→ (10 + 8) / 2 = 9.000 each.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from podium.web.models import Entry, EntryMember, EventRole, Person, Result, Round
from podium.web.results.selectors.rows import current_results, standings_as_of

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
TOUR = "chgk-tour"


@pytest.mark.django_db(transaction=True)
def test_the_chgk_grid_filled_by_keyboard_only(page: Any, make_user: Any, make_event: Any) -> None:
    olga, irina = make_user("olga"), make_user("irina")
    event = make_event("deti-kolomny", organizer=olga, title="Дети Коломны XV")
    EventRole.objects.create(event=event, user=irina, role=EventRole.Role.REFEREE)
    for number, name in [(1, "Sovy"), (2, "Ezhi"), (3, "Lisy")]:
        entry = Entry.objects.create(
            event=event, category="teams", number=number, name=name,
            status=Entry.Status.CONFIRMED,
        )  # fmt: skip
        person = Person.objects.create(first_name=name, last_name="Captain", country="RU")
        EntryMember.objects.create(entry=entry, person=person, captain=True)
    Round.objects.create(
        event=event, stage=TOUR, number=1, starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC)
    )
    grid = f"/desk/{event.slug}/chgk/{TOUR}/1/"

    page.set_viewport_size(LAPTOP)
    page.goto(f"/accounts/login/?next={grid}")
    page.fill("input[name=username]", "irina")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{grid}")
    assert page.locator("td[data-r]").count() == 45  # the script built 3 × 15 cells
    assert page.locator("input.mask").first.is_hidden()

    # Only the keyboard from here: Tab into the grid's first cell.
    for _ in range(40):
        if page.evaluate("document.activeElement.dataset.r === '0'"):
            break
        page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.dataset.r, document.activeElement.dataset.q]")
    assert focused == ["0", "0"]

    def total(number: int) -> str:
        return str(page.locator(f"#team-{number} [data-total]").inner_text())

    page.keyboard.type("111111111100001")
    assert total(1) == "11"
    page.keyboard.type("111111111")
    assert total(2) == "9"
    page.keyboard.press("Backspace")  # on the empty 10th cell: clears the 9th
    assert total(2) == "8"
    page.keyboard.type("0000000")
    page.keyboard.type("11111111?000000")
    assert total(3) == "8"
    per_question = page.locator("tfoot td.q").all_inner_texts()
    assert per_question == ["3"] * 8 + ["1", "1", "0", "0", "0", "0", "1"]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.type("0")  # Sovy's question 15: not taken after all
    assert total(1) == "10"
    assert page.locator("[data-grand]").inner_text() == "26"
    page.screenshot(path="/tmp/podium-chgk-grid.png", full_page=True)

    page.keyboard.press("Enter")
    page.wait_for_selector("text=Sheet saved: 3 recorded, 0 corrected, 0 unchanged.")
    stored = {r.entry.name: r.cells["mask"] for r in current_results(event, TOUR, 1)}
    assert stored == {
        "Sovy": "111111111100000", "Ezhi": "111111110000000", "Lisy": "11111111?000000",
    }  # fmt: skip
    assert {r.recorded_by for r in Result.objects.all()} == {irina}
    points = {
        r.entry.name: r.points for t in standings_as_of(event, TOUR, 1).tables for r in t.rows
    }
    assert points == {
        "Sovy": Decimal("12.000"), "Ezhi": Decimal("9.000"), "Lisy": Decimal("9.000"),
    }  # fmt: skip
    # After saving, the grid shows the recorded marks again.
    assert page.locator("#team-3 td[data-q='8']").inner_text() == "?"
    page.set_viewport_size(PHONE)
    # On a phone the grid scrolls sideways inside its frame; the page itself does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-chgk-grid-phone.png", full_page=True)


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_taps_enter_withdrawn_and_disputed_marks(
    new_context: Any, sign_in: Any, make_user: Any, make_event: Any
) -> None:
    """A phone has no keys: a tap cycles empty → 1 → 0 → X → ? → empty. Question 2 was
    withdrawn (X for both teams: three taps each); Ezhi's answer to question 1 is disputed (?:
    four taps); Sovy took question 1 (one tap); every other question was missed (two taps)."""
    olga, irina = make_user("olga"), make_user("irina")
    event = make_event("deti-kolomny", organizer=olga, title="Дети Коломны XV")
    EventRole.objects.create(event=event, user=irina, role=EventRole.Role.REFEREE)
    for number, name in [(1, "Sovy"), (2, "Ezhi")]:
        Entry.objects.create(
            event=event, category="teams", number=number, name=name,
            status=Entry.Status.CONFIRMED,
        )  # fmt: skip
    Round.objects.create(
        event=event, stage=TOUR, number=1, starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC)
    )
    context = new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    sign_in(context, irina)
    page = context.new_page()
    page.goto(f"/desk/{event.slug}/chgk/{TOUR}/1/")
    assert "A tap on a cell cycles it" in page.locator("[data-help-grid]").last.inner_text()

    def tap(team: int, question: int, times: int) -> str:
        cell = page.locator(f"#team-{team} td[data-q='{question - 1}']")
        for _ in range(times):
            cell.tap()
        return str(cell.inner_text())

    assert tap(2, 4, 5) == ""  # once round the whole cycle: empty again
    assert [tap(1, 1, 1), tap(1, 2, 3), tap(2, 1, 4), tap(2, 2, 3)] == ["1", "X", "?", "X"]
    for question in range(3, 16):
        assert (tap(1, question, 2), tap(2, question, 2)) == ("0", "0")
    assert page.locator("#team-1 [data-total]").inner_text() == "1"
    page.screenshot(path="/tmp/podium-chgk-grid-taps.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    with page.expect_navigation():
        page.get_by_role("button", name="Save the sheet").tap()
    assert "Sheet saved: 2 recorded" in page.locator(".messages").inner_text()
    stored = {r.entry.name: r.cells["mask"] for r in current_results(event, TOUR, 1)}
    assert stored == {"Sovy": "1X" + "0" * 13, "Ezhi": "?X" + "0" * 13}
