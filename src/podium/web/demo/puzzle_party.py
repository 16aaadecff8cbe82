"""The demo's Puzzle Party (``it-puzzle-party``): registration open — the window is moved around
the day the demo is first loaded, so that a newcomer can register — pairs approved with their
tables and some pending, and most of the round's results in."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_noop

from podium.rules.loader import preset_text
from podium.web.demo import results as demo_results
from podium.web.demo.building import Builder, Summary, at, give_roles, new_event, pair_name
from podium.web.demo.people import People
from podium.web.models import Entry, Event


def _shifted_it_rulebook(today: dt.date) -> tuple[str, dt.date]:
    """The Puzzle Party preset with its window moved to around ``today`` (for the demo only)."""
    opens = today - dt.timedelta(days=14)
    closes = today + dt.timedelta(days=45)
    day = closes + dt.timedelta(days=3)
    text = preset_text("it-puzzle-party")
    text = re.sub(r"(?m)^event_date: .*$", f"event_date: {day.isoformat()}", text)
    text = re.sub(r"(?m)^  opens: .*$", f"  opens: {opens.isoformat()}", text)
    text = re.sub(r"(?m)^  closes: .*$", f"  closes: {closes.isoformat()}", text)
    note = f"  - interpretation: >-\n      {DEMO_NOTE}\n"
    text = re.sub(r"(?m)^notes:\n", lambda m: m.group(0) + note, text, count=1)
    return text, day


# A note of the demo's own, in the catalogue so that the rules page shows it translated.
DEMO_NOTE = gettext_noop(
    "Demo only: the registration window and the day of the event are moved so that the demo is "
    "open for registration (the event's page shows the dates); the original dates are in the "
    "clauses."
)


def load_it_puzzle_party(accounts: dict[str, Any], summary: Summary) -> Event:
    today = timezone.localdate()
    text, day = _shifted_it_rulebook(today)
    event = new_event(
        "puzzle-party",
        "it-puzzle-party",
        f"Puzzle Party di Ravensburger {day.year}",
        at(day, 10, 0, "Europe/Rome"),
        "Milano, Superstudio Più",
        "it",
        Event.Status.OPEN,
        rulebook_text=text,
    )
    give_roles(event, accounts)
    summary.notes.append(
        f"{event.slug}: registration window moved to {today - dt.timedelta(days=14)} – "
        f"{today + dt.timedelta(days=45)} (event day {day}) so that the demo is open"
    )
    people = People("demo:it-puzzle-party")
    build = Builder(event, accounts["organizer"])
    latest_birth = day.year - 17
    table = 0
    for i in range(36):
        a = people.person("IT", born=(1960, latest_birth))
        b = people.person("IT", born=(1960, latest_birth))
        if i < 30:
            table += 1
            build.entry(
                "pairs", pair_name(a, b), [a, b], Entry.Status.CONFIRMED, table_number=table
            )
        else:
            build.entry("pairs", pair_name(a, b), [a, b], Entry.Status.PENDING)
    player = accounts["player_person"]
    partner = people.person("IT", gender="M", born=(1980, 1995))
    build.entry(
        "pairs",
        pair_name(player, partner),
        [player, partner],
        Entry.Status.PENDING,
        registered_by=accounts["player"],
    )
    demo_results.it_puzzle_party(event, accounts)
    return event
