"""Resetting the demo, and the demo's clocks.

- ``podium manage load_demo --reset`` (what ``podium serve --demo --reset`` and
  ``make run RESET=1`` run) wipes the four demo events — the results typed live, the people
  they generated — and loads them as new; another event on the same database, its people and
  the club's question database stay as they are. A production server refuses it, and nothing
  is deleted.
- The demo's live rounds run from half their limit less a minute: cz-jigsaw's 90-minute
  qualification shows 0:44:00 at loading (the fastest typed-in time is 0:45:00), Puzzle Party's
  two hours 0:59:00 (its fastest 1:00:00).
- The clock says the time left in words: 4 s into a 90-minute round, "1:29:56 left", never
  "−1:29:56"; to the whole second (4.5 s in: "1:29:55 left", not "1:29:55.500").
"""

from __future__ import annotations

import datetime as dt
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone, translation

from podium.engine.clock import RoundClock
from podium.web.demo import load_demo
from podium.web.models import AuditEntry, Entry, Event, Person, Question, Result, Signal
from podium.web.results.selectors.clock import clock_display, clock_of
from podium.web.results.services.clock import result_finish

pytestmark = pytest.mark.django_db

DEMO = ("cba-kvalifikace-2012", "cz-jigsaw-2027", "deti-kolomny-xv", "puzzle-party")


def _counts() -> dict[str, Any]:
    return {
        "events": sorted(Event.objects.values_list("slug", flat=True)),
        "entries": Entry.objects.count(),
        "results": Result.objects.count(),
        "signals": Signal.objects.count(),
        "people": Person.objects.count(),
        "questions": Question.objects.count(),
        "audit": AuditEntry.objects.count(),
    }


def test_a_reset_wipes_the_live_work_and_loads_the_demo_afresh(
    make_event: Any, add_entry: Any
) -> None:
    load_demo()
    other = make_event("cz-jigsaw", slug="club-cup", title="Club cup")
    add_entry(other, 1, "Jana Malá", group="A", category="individuals")
    theirs = _counts()
    event = Event.objects.get(slug="cz-jigsaw-2027")
    left = event.entries.filter(status=Entry.Status.CONFIRMED, category="individuals").exclude(
        pk__in=Result.objects.filter(event=event).values("entry_id")
    )
    referee = event.roles.get(user__username="referee").user
    result_finish(
        event=event, stage="individual-qualification", entry=left.first(), by=referee,
        idempotency_key="live-1",
    )  # fmt: skip
    assert Result.objects.count() == theirs["results"] + 1

    out = StringIO()
    call_command("load_demo", reset=True, stdout=out)
    assert [f"Created demo event {slug}" in out.getvalue() for slug in DEMO] == [True] * 4
    after = _counts()
    # The live finish is gone, no generated person is left behind, no question is there twice.
    # (The audit trail loses one entry: the club's database was imported by the first load,
    # and the second finds it there.)
    assert after == theirs | {"audit": theirs["audit"] - 1}
    assert Entry.objects.filter(event__slug="club-cup").count() == 1


@override_settings(PRODUCTION=True)
def test_a_production_server_never_resets_the_demo() -> None:
    load_demo(only=["puzzle-party"])
    before = _counts()
    with pytest.raises(CommandError, match="never reset on a production server"):
        call_command("load_demo", reset=True, stdout=StringIO())
    assert _counts() == before


def test_the_live_rounds_run_from_half_their_limit() -> None:
    loaded = timezone.now()
    load_demo(only=["cz-jigsaw-2027", "puzzle-party"])
    for slug, stage, group, minutes in (
        ("cz-jigsaw-2027", "individual-qualification", "A", 44),
        ("cz-jigsaw-2027", "individual-qualification", "B", 44),
        ("puzzle-party", "pairs", "", 59),
    ):
        event = Event.objects.get(slug=slug)
        clock = clock_of(event, event.rulebook.stage(stage), 1, group, loaded)
        assert clock.state(loaded) == "running"
        assert abs(clock.elapsed(loaded) - minutes * 60_000) < 60_000, (slug, group)


def test_the_clock_says_the_time_left_in_words() -> None:
    start = dt.datetime(2027, 1, 23, 9, 0, tzinfo=dt.UTC)
    clock = RoundClock(start, 90 * 60_000)
    shown = clock_display(clock, "A", start + dt.timedelta(seconds=4))
    assert (shown["elapsed_text"], shown["remaining_text"]) == ("0:00:04", "1:29:56 left")
    assert not {"−", "-"} & set(shown["remaining_text"])
    # To the whole second, as the widget counts (5,395.5 s left → 1:29:55).
    half = clock_display(clock, "A", start + dt.timedelta(seconds=4.5))
    assert (half["elapsed_text"], half["remaining_text"]) == ("0:00:04", "1:29:55 left")
    with translation.override("cs"):
        czech = clock_display(clock, "A", start + dt.timedelta(seconds=4))
    assert czech["remaining_text"] == "zbývá 1:29:56"
    over = clock_display(clock, "A", start + dt.timedelta(hours=2))
    assert (over["state"], over["remaining_text"]) == ("ended", "0:00:00 left")
