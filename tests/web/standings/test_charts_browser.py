"""The ChGK season chart in a real browser, on a phone: the drawing fills the width without
scrolling sideways, screen readers get its name, and its numbers open as a table.

Hand-worked (deti-kolomny; points 12, 10, 8, 7, 6 for places 1–5), questions per tour:
- tour 1: Alfa 10, Beta 8, Дети капитана Гранта 6, Delta 5, Epsilon 4 → 12, 10, 8, 7, 6;
- tour 2: Beta 11, Alfa 9, Delta 7, Дети капитана Гранта 5, Epsilon 3 → 12, 10, 8, 7, 6;
- tour 3: Дети капитана Гранта 12, Delta 10, Alfa 9, Epsilon 6, Beta 4 → 12, 10, 8, 7, 6.
Season: Alfa 12 + 10 + 8 = 30, Beta 10 + 12 + 6 = 28, Дети капитана Гранта 8 + 7 + 12 = 27,
Delta 7 + 8 + 10 = 25, Epsilon 6 + 6 + 7 = 19; the legend names the first three.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from podium.web.models import Round
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

SCREENSHOT = "/tmp/podium-charts.png"
TOUR, SEASON = "chgk-tour", "chgk-season"
LONG = "Дети капитана Гранта"
TOURS = {
    1: {"Alfa": 10, "Beta": 8, LONG: 6, "Delta": 5, "Epsilon": 4},
    2: {"Beta": 11, "Alfa": 9, "Delta": 7, LONG: 5, "Epsilon": 3},
    3: {LONG: 12, "Delta": 10, "Alfa": 9, "Epsilon": 6, "Beta": 4},
}


@pytest.mark.django_db(transaction=True)
def test_the_season_chart_reads_on_a_phone(
    page: Any, live_server: Any, make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("deti-kolomny", language="en", title="Дети Коломны")
    people = staff(event, organizer="ilya", referee="roman")
    names = ("Alfa", "Beta", LONG, "Delta", "Epsilon")
    teams = {n: add_entry(event, i, n, "RU", category="teams") for i, n in enumerate(names, 1)}
    for number, taken in TOURS.items():
        day = dt.datetime(2026, 11, 7 * number - 6, 18, 0, tzinfo=dt.UTC)
        Round.objects.create(event=event, stage=TOUR, number=number, starts_at=day)
        for name, count in taken.items():
            mask = "1" * count + "0" * (15 - count)
            result_record(
                event=event, stage=TOUR, round=number, entry=teams[name], cells={"mask": mask},
                by=people["referee"], idempotency_key=f"t{number}-{name}", now=day,
            )  # fmt: skip
        publication_set(
            event=event, stage=TOUR, round=number, state="preliminary", by=people["organizer"]
        )
    publication_set(event=event, stage=SEASON, state="preliminary", by=people["organizer"])

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + reverse("standings:stage", args=[event.slug, SEASON]))
    chart = page.get_by_role("img", name="Season points after each tour")
    chart.scroll_into_view_if_needed()
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box is not None
    assert 320 <= box["width"] <= 390  # the width of the phone, less the page's margins
    assert box["height"] > 200
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    legend = page.locator("figure#figure-season text.legend-label").all_text_contents()
    assert legend == ["1. Alfa 30", "2. Beta 28", f"3. {LONG} 27"]
    # Every leader's label fits inside the drawing.
    for label in page.locator("figure#figure-season text.legend-label").all():
        inner = label.bounding_box()
        assert inner is not None
        assert inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5

    page.locator("figure#figure-season summary").click()
    rows = page.locator("figure#figure-season .chart-numbers tbody tr")
    assert rows.count() == 5
    assert rows.nth(3).inner_text().split("\t") == ["Delta", "7", "15", "25"]
    page.locator("section.charts").screenshot(path=SCREENSHOT)
