"""The rulebook workshop in a real browser: an organizer edits a draft's rulebook, sees the
problem beside its line as they type, fixes it and previews a dry run's table.

Hand-worked: the small rulebook of ``test_workshop_pages`` with ``tmie`` for ``time`` on line
18 (an unknown criterion, found by the engine after loading); fixed, it is valid with 1 stage,
and a preview of its stage ``final`` on 30 made-up entrants shows their table.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.events.test_workshop_pages import SMALL

from podium.web.models import Event


@pytest.mark.django_db(transaction=True)
def test_an_organizer_fixes_a_rulebook_beside_its_line_and_previews(
    new_context: Any, sign_in: Any, make_user: Any, make_event: Any
) -> None:
    alice = make_user("alice")
    event = make_event("it-puzzle-party", organizer=alice, status=Event.Status.DRAFT)
    context = new_context()
    sign_in(context, alice)
    page = context.new_page()
    page.goto(f"/organize/{event.slug}/edit/")
    editor = page.get_by_label("Rulebook (YAML), while the event is a draft")
    editor.fill(SMALL.format(pieces=500, second="tmie"))
    problem = page.locator("#rulebook-check .line-problem")
    problem.wait_for()
    assert problem.get_attribute("data-line") == "18"
    assert "line 18" in problem.inner_text()
    assert "criteria: [finished, tmie, pieces]" in problem.inner_text()
    assert "unknown criterion 'tmie'" in problem.inner_text()
    page.screenshot(path="/tmp/podium-workshop-problem.png", full_page=True)

    editor.fill(SMALL.format(pieces=500, second="time"))
    page.locator("#rulebook-check .ok").wait_for()
    assert page.locator("#rulebook-check").inner_text().strip() == (
        "The rulebook demo is valid: 1 stage."
    )
    assert page.locator("#rulebook-check .line-problem").count() == 0
    # The dry run offers the stages of the rulebook as typed.
    assert page.locator("#workshop-stage option").all_inner_texts() == ["Final"]

    page.get_by_label("Entrants (empty: the category's cap)").fill("30")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#workshop-preview")
    preview.locator("table.standings").wait_for()
    assert "Final: 5 runs of 30 made-up entrants, seed 0" in preview.inner_text()
    rows = preview.locator("table.standings tbody tr").count()
    assert 25 <= rows <= 30
    page.screenshot(path="/tmp/podium-workshop-preview.png", full_page=True)
    assert Event.objects.get(pk=event.pk).rulebook_text != SMALL.format(pieces=500, second="time")
