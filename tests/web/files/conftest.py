"""The events of the entrant import's tests (``test_imports_entrants``,
``test_imports_entrants_upload``): the Czech jigsaw (no approval, no window) and the Italian
Puzzle Party in Rome (pairs, approval, 24 May 2026). A test module with an event fixture of the
same name keeps its own (pytest prefers the module's)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

UTC = dt.UTC


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event("cz-jigsaw", organizer=make_user("olga"))


@pytest.fixture
def party(make_event: Any, make_user: Any) -> Any:
    return make_event(
        "it-puzzle-party",
        organizer=make_user("ornella"),
        starts_at=dt.datetime(2026, 5, 24, 8, 0, tzinfo=UTC),
        timezone="Europe/Rome",
    )
