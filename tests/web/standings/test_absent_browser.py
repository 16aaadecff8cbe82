"""The foot of the table in a browser: the two pairs who never came read below the ranked
rows, on a phone too, without overflowing it (see ``test_absent_rows`` for the numbers)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.standings.test_absent_rows import CLAUSE, STAGE, party_with

from podium.web.standings.services.publication import publication_set


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_absent_pairs_read_at_the_foot_on_a_phone(
    browser: Any, live_server: Any, make_event: Any, staff: Any, add_entry: Any
) -> None:
    party = party_with(make_event, staff, add_entry, pairs=12, timed=10)
    publication_set(event=party, stage=STAGE, state="preliminary", by=party.people["organizer"])
    context = browser.new_context(
        base_url=live_server.url, locale="en-GB", viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    try:
        page.goto(f"/standings/{party.slug}/{STAGE}/")
        foot = page.locator("tbody.absent tr.absent")
        assert foot.count() == 2
        assert foot.nth(0).locator("td.status").inner_text() == "absent"
        assert CLAUSE in foot.nth(1).inner_text()
        last_ranked = page.locator("tr[id^=row-all-]").last.bounding_box()
        first_absent = foot.nth(0).bounding_box()
        assert last_ranked is not None
        assert first_absent is not None
        assert first_absent["y"] > last_ranked["y"]  # below the ranked rows
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
        foot.nth(0).scroll_into_view_if_needed()
        page.screenshot(path="/tmp/d_absent_phone.png")
    finally:
        context.close()
