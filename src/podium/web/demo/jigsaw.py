"""The demo's Czech jigsaw championship (``cz-jigsaw``): registration closed, individuals full
with a waiting list, Czech entrants with foreigners from the neighbouring countries, pairs and
teams, groups A/B drawn by the draws service, and most of the qualification's results in."""

from __future__ import annotations

import datetime as dt
from typing import Any

from podium.web.demo import results as demo_results
from podium.web.demo.building import Builder, Summary, at, give_roles, new_event, pair_name
from podium.web.demo.people import People
from podium.web.draws.services import draw_make
from podium.web.models import Entry, Event

CZ_TEAMS = [
    "Dílkožrouti",
    "Rychlé prsty",
    "Puzzle Praha",
    "Brněnští skladači",
    "Ostravské dílky",
    "Tým Kostička",
    "Tři a půl",
    "Olomoucký roh",
    "Plzeňská sestava",
    "Hradecké dílky",
    "Stříbrné okraje",
    "Zlatý rámeček",
    "Modrá obloha",
    "Kočičí tlapky",
    "Poslední dílek",
    "Liberečtí skladači",
]
FOREIGN_TEAMS = (
    ("Bratislavskí skladači", "SK"),
    ("Wrocławskie Puzzle", "PL"),
    ("Puzzlefreunde Dresden", "DE"),
)

CZ_FOREIGN = ("SK", "SK", "SK", "PL", "PL", "DE", "AT", "HU")


def _cz_country(people: People, foreign_share: float) -> str:
    return people.random.choice(CZ_FOREIGN) if people.random.random() < foreign_share else "CZ"


def load_cz_jigsaw(accounts: dict[str, Any], summary: Summary) -> Event:
    event = new_event(
        "cz-jigsaw-2027",
        "cz-jigsaw",
        "Mistrovství ČR ve skládání puzzle 2027",
        at(dt.date(2027, 1, 23), 9, 0, "Europe/Prague"),
        "Praha, Kongresové centrum",
        "cs",
        Event.Status.OPEN,
    )
    give_roles(event, accounts)
    people = People("demo:cz-jigsaw")
    build = Builder(event, accounts["organizer"])
    # Individuals: the cap of 200 is full, five more wait.
    for i in range(205):
        country = _cz_country(people, 0.12)
        young = people.random.random() < 0.04
        person = people.person(country, born=(2011, 2013) if young else (1950, 2006))
        adult = ""
        if young:
            adult = str(people.person(country, born=(1970, 1988), save=False))
        status = Entry.Status.CONFIRMED if i < 200 else Entry.Status.WAITING
        build.entry(
            "individuals",
            str(person),
            [person],
            status,
            waiting_position=i - 199 if i >= 200 else None,
            accompanying_adult=adult,
        )
    # The demo participant waits too (sixth on the list).
    player = accounts["player_person"]
    build.entry(
        "individuals",
        str(player),
        [player],
        Entry.Status.WAITING,
        waiting_position=6,
        registered_by=accounts["player"],
    )
    # Pairs: 72 of 120 places; a few mixed or foreign pairs.
    for _i in range(72):
        first_country = _cz_country(people, 0.1)
        second_country = first_country if people.random.random() < 0.85 else "CZ"
        a = people.person(first_country)
        b = people.person(second_country)
        build.entry("pairs", pair_name(a, b), [a, b], Entry.Status.CONFIRMED)
    # Teams of 3–4: sixteen Czech, three foreign, one cancelled.
    teams = [(name, "CZ") for name in CZ_TEAMS] + list(FOREIGN_TEAMS)
    for name, country in teams:
        size = people.random.choice((3, 4, 4))
        members = [people.person(country) for _ in range(size)]
        build.entry("teams", name, members, Entry.Status.CONFIRMED)
    gone = [people.person("CZ") for _ in range(3)]
    build.entry("teams", "Zrušený tým", gone, Entry.Status.CANCELLED)
    # Registration closes; groups A/B are drawn with a recorded seed.
    event.status = Event.Status.CLOSED
    event.save(update_fields=["status"])
    _draw_groups(event, accounts["organizer"])
    demo_results.cz_jigsaw(event, accounts)
    return event


def _draw_groups(event: Event, by: Any) -> None:
    for stage in (s.key for s in event.rulebook.stages if s.groups):
        seed = f"demo-{event.slug}-{stage}"
        draw_make(event=event, kind="groups", stage=stage, seed=seed, by=by)
