"""Fixtures the ChGK tests share: the season of the question duty and database tests."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from tests.web.chgk.questions_scenario import TOUR, UTC, player

from podium.web.models import Entry, Event, Round


@pytest.fixture
def season(make_user: Any, make_event: Any) -> SimpleNamespace:
    olga, sova_user, ezh_user = make_user("olga"), make_user("sova"), make_user("ezh")
    event = make_event(
        "deti-kolomny", organizer=olga, timezone="Europe/Moscow", status=Event.Status.CLOSED,
        starts_at=dt.datetime(2026, 11, 1, 16, tzinfo=UTC), title="Дети Коломны XV",
    )  # fmt: skip
    sovy = Entry.objects.create(
        event=event, category="teams", number=1, name="Sovy", status=Entry.Status.CONFIRMED
    )
    ezhi = Entry.objects.create(
        event=event, category="teams", number=2, name="Ezhi", status=Entry.Status.CONFIRMED
    )
    before = dt.datetime(2026, 10, 20, 12, tzinfo=UTC)
    player(sovy, "Sova", sova_user, added_at=before)
    player(sovy, "Filin", added_at=before)
    player(ezhi, "Ezh", ezh_user, added_at=before)
    tour = Round.objects.create(
        event=event, stage=TOUR, number=1, host=sovy,
        starts_at=dt.datetime(2026, 11, 12, 16, tzinfo=UTC),
    )  # fmt: skip
    return SimpleNamespace(
        event=event, olga=olga, sova=sova_user, ezh=ezh_user, sovy=sovy, ezhi=ezhi, tour=tour
    )
