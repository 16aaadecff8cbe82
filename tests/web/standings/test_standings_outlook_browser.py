"""The live standings' outlook in a real browser: the clinched and eliminated marks, the place
ranges, and a bowler's "what it takes" opened from the keyboard (the scenario of
``test_standings_outlook``: Eva has clinched, Jana cannot advance, Lucie needs her last game).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from tests.web.standings.test_standings_outlook import BOWLERS

from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

SCREENSHOT = "/tmp/podium-standings-outlook.png"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_marks_and_what_it_takes_in_the_browser(
    page: Any, make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("cba-qualifier", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    for number, (name, games) in BOWLERS.items():
        entry = add_entry(event, number, name, division="master-women")
        if games:
            result_record(
                event=event, stage="qualification", entry=entry, by=people["referee"],
                cells={f"g{i}": str(g) for i, g in enumerate(games, 1)},
                idempotency_key=f"g{number}",
            )  # fmt: skip
    publication_set(event=event, stage="qualification", state="preliminary",
                    by=people["organizer"])  # fmt: skip
    page.goto(reverse("standings:stage", args=[event.slug, "qualification"]))
    legend = page.locator("#table-master-women p.legend").inner_text()
    assert legend.startswith("✓✓: sure to advance whatever happens; ✗: cannot advance any more")

    def mark(number: int) -> str:
        """The symbol the row's class puts before its marks, as the screen shows it."""
        return str(page.evaluate(
            "n => getComputedStyle(document.querySelector(`#row-master-women-${n} td:last-child`),"
            " '::before').content", number,
        ))  # fmt: skip

    assert [mark(n) for n in (1, 2, 3, 4)] == ['"✓✓ "', "none", "none", '"✗ "']
    assert page.locator("#row-master-women-1 td:last-child small").inner_text() == "1–2"
    # From the keyboard: Lucie's name is a link; Enter opens her "why" under her row.
    lucie_link = page.locator("#row-master-women-3 td:nth-child(4) a")
    lucie_link.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#row-master-women-3 + tr.why-row li.outlook")
    why = page.locator("#row-master-women-3 + tr.why-row").inner_text()
    assert "Can still finish anywhere from 2nd–5th" in why
    assert "out of it with 199 in the last game or worse" in why
    page.screenshot(path=SCREENSHOT, full_page=True)
