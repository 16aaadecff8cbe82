"""The demo's bowling qualifier (``cba-qualifier``): registration closed, three squads, men and
women with ladder averages, each in the division the rulebook gives for the average (or the
lowest when not on the ladder), lanes drawn per squad, and most of the games in."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from podium.engine.formats.games import assign_division
from podium.web.demo import results as demo_results
from podium.web.demo.building import Builder, Summary, at, give_roles, new_event
from podium.web.demo.people import People
from podium.web.draws.services import draw_make
from podium.web.models import Entry, Event, Squad
from podium.web.registration.services.registering import division_fields


def load_cba_qualifier(accounts: dict[str, Any], summary: Summary) -> Event:
    day = dt.date(2012, 3, 24)
    event = new_event(
        "cba-kvalifikace-2012",
        "cba-qualifier",
        "Dodatkový kvalifikační turnaj ČBA 2012",
        at(day, 9, 0, "Europe/Prague"),
        "Praha, Bowling Strahov",
        "cs",
        Event.Status.OPEN,
    )
    give_roles(event, accounts)
    squads = [
        Squad.objects.create(
            event=event, name=name, starts_at=at(day, h, m, "Europe/Prague"), capacity=24
        )
        for name, h, m in (("Runda 1", 9, 0), ("Runda 2", 12, 30), ("Runda 3", 16, 0))
    ]
    divisions = event.rulebook.divisions
    assert divisions is not None
    people = People("demo:cba-qualifier")
    build = Builder(event, accounts["organizer"])
    fill = (24, 21, 17)
    for squad, count in zip(squads, fill, strict=True):
        for _i in range(count):
            gender = "M" if people.random.random() < 0.68 else "F"
            average: Decimal | None
            if people.random.random() < 0.1:
                average = None  # not on the ladder: the lowest division
            else:
                mean, spread = (172, 17) if gender == "M" else (158, 14)
                value = min(max(people.random.gauss(mean, spread), 110), 228)
                average = Decimal(str(round(value, 2)))
            person = people.person("CZ", gender=gender, born=(1950, 1996), ladder_average=average)
            division, reason = assign_division(divisions, gender, average)
            build.entry(
                "players",
                str(person),
                [person],
                Entry.Status.CONFIRMED,
                squad=squad,
                division=division.key,
                **division_fields(reason),
            )
    event.status = Event.Status.CLOSED
    event.save(update_fields=["status"])
    _draw_lanes(event, squads, accounts["organizer"])
    demo_results.cba_qualifier(event, accounts, squads)
    return event


def _draw_lanes(event: Event, squads: list[Squad], by: Any) -> None:
    for squad in squads:
        draw_make(
            event=event,
            kind="lanes",
            stage="qualification",
            seed=f"demo-{event.slug}-{squad.name}",
            by=by,
            squad=squad,
            lane_pairs=[(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)],
            per_pair=4,
        )
