"""An event created from a preset for another day has the preset's dates moved with it (the
registration window, cut-off dates), and the rulebook's event day — the day the rules page,
the standings and the dry runs count ages on — is the event's own, as registration's is."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest

from podium.web.events.services.events import event_create
from podium.web.registration.services.members import member_verdict

PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")


@pytest.mark.django_db
def test_a_preset_for_2027_has_its_window_and_cut_offs_in_2027(make_user: Any) -> None:
    party = event_create(
        organizer=make_user("giulia"), title="Puzzle Party 2027", slug="party-2027",
        preset="it-puzzle-party", starts_at=dt.datetime(2027, 3, 6, 10, tzinfo=PRAGUE),
        timezone="Europe/Rome",
    )  # fmt: skip
    book = party.rulebook
    assert book.event_date == dt.date(2027, 3, 6) == party.local_start.date()
    assert (book.registration.opens, book.registration.closes) == (
        dt.date(2027, 2, 3),
        dt.date(2027, 3, 3),
    )
    cba = event_create(
        organizer=make_user("karel"), title="Kvalifikace 2027", slug="cba-2027",
        preset="cba-qualifier", starts_at=dt.datetime(2027, 3, 6, 9, tzinfo=PRAGUE),
        timezone="Europe/Prague",
    )  # fmt: skip
    assert cba.rulebook.registration.closes == dt.date(2027, 2, 26)
    # "Born by 30 June 1999" for 2012 is "born by 30 June 2014" for 2027.
    assert member_verdict(cba, dt.date(2014, 6, 30), accompanied=False).eligible
    assert not member_verdict(cba, dt.date(2014, 7, 1), accompanied=False).eligible


@pytest.mark.django_db
def test_ages_count_on_the_events_day_in_the_rulebook_as_at_registration(make_user: Any) -> None:
    """cz-jigsaw's preset names no day: the event's is written in, so the standings and the
    rules page (the rulebook's ``event_date``) and registration (the event's start) agree."""
    event = event_create(
        organizer=make_user("olga"), title="MČR 2027", slug="mcr-2027", preset="cz-jigsaw",
        starts_at=dt.datetime(2027, 6, 19, 9, tzinfo=PRAGUE), timezone="Europe/Prague",
    )  # fmt: skip
    assert event.rulebook.event_date == dt.date(2027, 6, 19)
    # Under 16 on that day needs an accompanying adult; 16 that very day does not.
    assert not member_verdict(event, dt.date(2011, 6, 20), accompanied=False).eligible
    assert member_verdict(event, dt.date(2011, 6, 19), accompanied=False).eligible
