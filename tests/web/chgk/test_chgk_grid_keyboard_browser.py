"""The ChGK grid for a keyboard and a screen reader: one Tab stop (a roving tabindex, arrows
inside), and each cell named with its team, question and mark — "#1 Sovy, question 2: taken"."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.models import Entry, EventRole, Round

TOUR = "chgk-tour"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_grid_is_one_tab_stop_and_each_cell_says_its_mark(
    new_context: Any, sign_in: Any, make_user: Any, make_event: Any, axe: Any
) -> None:
    event = make_event("deti-kolomny", organizer=make_user("olga"), title="Дети Коломны XV")
    irina = make_user("irina")
    EventRole.objects.create(event=event, user=irina, role=EventRole.Role.REFEREE)
    for number, name in [(1, "Sovy"), (2, "Ezhi"), (3, "Lisy")]:
        Entry.objects.create(
            event=event, category="teams", number=number, name=name,
            status=Entry.Status.CONFIRMED,
        )  # fmt: skip
    Round.objects.create(
        event=event, stage=TOUR, number=1, starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC)
    )
    context = new_context(viewport={"width": 1280, "height": 800})
    sign_in(context, irina)
    page = context.new_page()
    page.goto(f"/desk/{event.slug}/chgk/{TOUR}/1/")
    assert page.locator("td[data-r]").count() == 45
    assert page.locator("td[data-r][tabindex='0']").count() == 1  # one stop for 45 cells

    def focused() -> Any:
        return page.evaluate(
            "[document.activeElement.dataset.r, document.activeElement.dataset.q,"
            " document.activeElement.getAttribute('aria-label'), document.activeElement.tagName]"
        )

    page.keyboard.press("Tab")  # the first stop: the skip link, shown once focused
    skip = page.locator("a.skip")
    assert page.evaluate("document.activeElement.className") == "skip"
    assert skip.is_visible()
    assert skip.inner_text() == "Skip to the content"
    for _ in range(30):  # Tab from the top of the page into the grid
        page.keyboard.press("Tab")
        if focused()[0] == "0":
            break
    assert focused() == ["0", "0", "#1 Sovy, question 1: empty", "TD"]
    page.keyboard.type("1")  # marks and moves on
    page.keyboard.press("ArrowLeft")
    assert focused()[:3] == ["0", "0", "#1 Sovy, question 1: taken"]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.type("?")
    assert page.locator("#team-2 td[data-q='1']").get_attribute("aria-label") == (
        "#2 Ezhi, question 2: disputed"
    )
    # Tab leaves the grid at once (no 45 stops), Shift+Tab comes back to the cell left.
    page.keyboard.press("Tab")
    assert focused()[3] == "BUTTON"
    page.keyboard.press("Shift+Tab")
    assert focused()[:2] == ["1", "2"]
    assert page.locator("td[data-r][tabindex='0']").count() == 1
    assert axe(page) == []
