"""The demo's ChGK club championship (``deti-kolomny``): registration open all season, scored
teams and two teams outside the competition, tours played, questions, rulings and Brainball
(``podium.web.demo.results``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from podium.web.demo import results as demo_results
from podium.web.demo.building import Builder, Summary, at, give_roles, new_event
from podium.web.demo.people import People
from podium.web.models import Entry, Event

RU_TEAMS = [
    "Дети капитана Гранта",
    "Коломенская верста",
    "Старый Кремль",
    "Пастила",
    "Сбитень",
    "Ять",
    "Тёмные лошадки",
    "Понты Пилата",
    "Мозговой штурм",
    "Ноосфера",
    "Белая сова",
    "Сова Минервы",
]
RU_UNSCORED = ("Сборная вне зачёта", "Случайные знатоки")


def load_deti_kolomny(accounts: dict[str, Any], summary: Summary) -> Event:
    event = new_event(
        "deti-kolomny-xv",
        "deti-kolomny",
        "XV открытый чемпионат клуба «Дети Коломны»",
        at(dt.date(2010, 11, 14), 12, 0, "Europe/Moscow"),
        "Коломна, ДК «Тепловозостроитель»",
        "ru",
        Event.Status.OPEN,
    )
    give_roles(event, accounts)
    people = People("demo:deti-kolomny")
    build = Builder(event, accounts["organizer"])
    for name in RU_TEAMS:
        size = people.random.randint(5, 9)
        members = [people.person("RU", born=(1960, 1994)) for _ in range(size)]
        build.entry("teams", name, members, Entry.Status.CONFIRMED)
    for name in RU_UNSCORED:
        members = [
            people.person("RU", born=(1975, 1996)) for _ in range(people.random.randint(2, 7))
        ]
        build.entry("teams", name, members, Entry.Status.CONFIRMED, scored=False)
    demo_results.deti_kolomny(event, accounts)
    return event
