"""Fixtures the season tests share: the event and its staff (``people``), and the season of
five teams and three tours (``season``, hand-worked in ``test_season.py``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.web.battles.season_scenario import NAMES, TOURS, tour_start

from podium.web.chgk.services.rounds import round_add
from podium.web.results.services.results import result_record


@pytest.fixture
def people(make_event: Any, staff: Any) -> dict[str, Any]:
    event = make_event(
        "deti-kolomny", starts_at=dt.datetime(2026, 1, 10, 16, 0, tzinfo=dt.UTC),
        timezone="Europe/Moscow",
    )  # fmt: skip
    return {"event": event, **staff(event, organizer="olga", head="hana", referee="rita")}


@pytest.fixture
def season(people: dict[str, Any], add_entry: Any) -> dict[str, Any]:
    event = people["event"]
    teams = {
        name: add_entry(event, n, name, "RU", category="teams")
        for n, name in enumerate(NAMES, start=1)
    }
    for tour, taken in TOURS.items():
        round_add(
            event=event, stage="chgk-tour", starts_at=tour_start(tour), by=people["organizer"]
        )
        for name, questions in taken.items():
            result_record(
                event=event, stage="chgk-tour", round=tour, entry=teams[name],
                cells={"questions": str(questions)}, by=people["referee"],
                idempotency_key=f"t{tour}-{name}", now=tour_start(tour) + dt.timedelta(hours=2),
            )  # fmt: skip
    return {**people, "teams": teams}
