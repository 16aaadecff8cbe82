"""The events of the registration services' tests (``test_registration``,
``test_places_and_cancellation``): the Czech jigsaw, the Italian Puzzle Party in Rome and the
ČBA qualifier with squads A (2 places, 24 March 2012) and B (1 place, the 25th). A test module
with an event fixture of the same name keeps its own (pytest prefers the module's)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.models import Squad

UTC = dt.UTC


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event("cz-jigsaw", organizer=make_user("cz-org"))


@pytest.fixture
def it(make_event: Any, make_user: Any) -> Any:
    return make_event(
        "it-puzzle-party",
        organizer=make_user("it-org"),
        starts_at=dt.datetime(2026, 5, 24, 8, 0, tzinfo=UTC),
        timezone="Europe/Rome",
    )


@pytest.fixture
def cba(make_event: Any, make_user: Any) -> Any:
    event = make_event(
        "cba-qualifier",
        organizer=make_user("cba-org"),
        starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC),
    )
    Squad.objects.create(
        event=event, name="A", starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC), capacity=2
    )
    Squad.objects.create(
        event=event, name="B", starts_at=dt.datetime(2012, 3, 25, 8, 0, tzinfo=UTC), capacity=1
    )
    return event
