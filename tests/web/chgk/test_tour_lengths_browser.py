"""A tour of its own length in a real browser: the organizer of a rulebook whose tours vary
(deti-kolomny with ``max_questions: 36``) sets tour 1 to 12 questions on the calendar, opens its
sheet from there and types it by keyboard.

Hand-worked: Sovy 111111111100 (10 taken), Ezhi 111111110000 (8), Lisy 111111011000 (8):
Sovy 1st, Ezhi and Lisy 2nd–3rd; every mask is stored with 12 marks.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.models import Round
from podium.web.results.selectors.rows import current_results, standings_as_of

TOUR = "chgk-tour"


@pytest.mark.django_db(transaction=True)
def test_the_organizer_sets_a_tour_to_12_questions_and_types_its_sheet(
    page: Any, make_user: Any, make_event: Any, add_entry: Any
) -> None:
    olga = make_user("olga")
    event = make_event("deti-kolomny", organizer=olga, timezone="Europe/Moscow")
    event.rulebook_text = event.rulebook_text.replace(
        "questions: 15", "questions: 15\n    max_questions: 36", 1
    )
    event.save(update_fields=["rulebook_text"])
    for number, name in [(1, "Sovy"), (2, "Ezhi"), (3, "Lisy")]:
        add_entry(event, number, name, "RU", category="teams")
    Round.objects.create(
        event=event, stage=TOUR, number=1, starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC),
        questions=15,
    )  # fmt: skip
    calendar = f"/organize/{event.slug}/calendar/"

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/accounts/login/?next={calendar}")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{calendar}")
    length = page.get_by_label("Questions of tour 1")
    assert length.input_value() == "15"
    length.fill("12")
    page.locator("#round-1 form.length button").click()
    page.wait_for_load_state()
    assert page.get_by_text("Tour 1 has 12 questions.").is_visible()
    assert page.get_by_label("Questions of tour 1").input_value() == "12"
    page.screenshot(path="/tmp/podium-tour-length-calendar.png", full_page=True)

    page.locator("#round-1").get_by_role("link", name="sheet").click()
    page.wait_for_selector("td[data-r]")
    assert (
        page.locator("#tour-length")
        .inner_text()
        .startswith("This tour has 12 questions, as set on the tour calendar.")
    )
    assert page.locator("td[data-r]").count() == 36  # 3 teams × 12 questions
    page.locator("td[data-r='0'][data-q='0']").focus()
    page.keyboard.type("111111111100" + "111111110000" + "111111011000")
    assert page.locator("#team-1 [data-total]").inner_text() == "10"
    assert page.locator("tfoot td.q").count() == 12
    page.screenshot(path="/tmp/podium-tour-length-grid.png", full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_selector(".messages, .outcome, [role=status]")

    masks = {r.entry.name: r.cells["mask"] for r in current_results(event, TOUR, 1)}
    assert masks == {"Sovy": "111111111100", "Ezhi": "111111110000", "Lisy": "111111011000"}
    [table] = standings_as_of(event, TOUR, 1).tables
    assert [(r.entry.name, r.rank, r.rank_to) for r in table.rows] == [
        ("Sovy", 1, 1), ("Ezhi", 2, 3), ("Lisy", 2, 3),
    ]  # fmt: skip
