"""The organizer decides each stray cell of the rating site's workbook on the import preview,
in a real browser: the preview lists the cell with what Podium would read it as, offers no
import until it is decided, and the decision (taken) is recorded with a note on the result.

Hand-worked (see ``test_imports_ratingsheet``): Сфинкс's question 8 holds a Cyrillic о;
decided as taken, Сфинкс has 11 questions instead of 10.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from podium.web.models import Result, Round

TOUR = "chgk-tour"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_organizer_decides_a_stray_cell_on_the_preview(
    page: Any, make_user: Any, make_event: Any, add_entry: Any, rating_table: Any, tmp_path: Path
) -> None:
    event = make_event("deti-kolomny", organizer=make_user("olga"))
    Round.objects.get_or_create(event=event, stage=TOUR, number=1,
                                defaults={"starts_at": event.starts_at})  # fmt: skip
    for number, name in [(1, "Сфинкс"), (2, "Авось"), (3, "И")]:
        add_entry(event, number, name, category="teams")
    index = reverse("imports:index", kwargs={"slug": event.slug})
    page.goto(f"/accounts/login/?next={index}")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{index}")
    page.select_option("select[name=results-target]", f"{TOUR}:1")
    page.set_input_files(
        "input[name=results-file]",
        files=[{"name": "venue.xlsx", "mimeType": "application/octet-stream",
                "buffer": rating_table("blocks", {(2, 0, 2): "о"})}],
    )  # fmt: skip
    page.locator("#results form.upload button[type=submit]").click()
    page.wait_for_url("**/results/**")
    label = page.locator("label[for=stray-0]")
    assert label.inner_text() == (
        "Sheet1!G7: “о” is not a mark; Podium would read it as 0 (not taken)"
    )
    assert page.get_by_role("button", name="Import the results").count() == 0
    page.get_by_label(label.inner_text()).select_option("1")
    page.get_by_role("button", name="Check again").click()
    page.wait_for_load_state()
    assert "Ready: 3 to record, 0 to correct, 0 unchanged" in page.content()
    assert "Sheet1!G7: “о” read as 1 (taken), as the organizer decided" in page.content()
    page.screenshot(path=str(tmp_path / "stray-decided.png"), full_page=True)
    page.get_by_role("button", name="Import the results").click()
    page.wait_for_url("**/standings/**")
    sphinx = Result.objects.get(entry__number=1)
    assert sphinx.cells["mask"] == "110101?11011111"
    assert sphinx.detail["notes"] == ["Sheet1!G7: “о” read as 1 (taken), as the organizer decided"]
