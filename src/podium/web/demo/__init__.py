"""The demo: four events, one per preset, with generated people, for a newcomer to click through.

Everything comes from fixed seeds, so every run builds the same people. Loading is idempotent:
an event whose slug exists is left alone, and the three accounts are created only when missing.

- ``cz-jigsaw``: registration closed, individuals full with a waiting list, Czech entrants with
  foreigners from the neighbouring countries, groups A/B drawn by the draws service.
- ``it-puzzle-party``: registration open (the window is moved around the day the demo is first
  loaded, so that a newcomer can register), pairs approved with their tables and some pending.
- ``cba-qualifier``: registration closed, three squads, men and women with ladder averages, each
  in the division the rulebook gives for the average (or the lowest when not on the ladder).
- ``deti-kolomny``: registration open all season, scored teams and two teams outside the
  competition.

Each event also has most of a round's results already in, and a few left for a newcomer to
record live (``podium.web.demo.results``).

- reset: the four demo events wiped — everything they hold, and the generated people nobody
  else refers to — and loaded again as new (``podium serve --demo --reset``); never in
  production, where a slug like the demo's may be a real event.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import zoneinfo
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from podium.engine.formats.games import assign_division
from podium.rules.loader import preset_text
from podium.web.demo import results as demo_results
from podium.web.events.forms.accounts import DEMO_PASSWORD
from podium.web.models import (
    Account,
    Entry,
    EntryMember,
    Event,
    EventRole,
    Person,
    Squad,
)
from podium.web.registration.services.registering import division_fields

PASSWORD = DEMO_PASSWORD
ACCOUNTS = (
    ("organizer", "Olga", "Organizátorová", "organizer of all four demo events"),
    ("head", "Hana", "Hlavní", "head referee of all four demo events"),
    ("referee", "Rudolf", "Rozhodčí", "referee of all four demo events"),
    ("scorer", "Sergej", "Sčítač", "a second referee (the second scorer of the ChGK tours)"),
    ("jury", "Julia", "Porotová", "the ChGK appeal jury (sees appeals without the team's name)"),
    (
        "player",
        "Petra",
        "Hráčová",
        "a participant: waiting in the Czech championship, a pair pending approval in Italy",
    ),
)

# --- Names that fit each country --------------------------------------------------------------

# (first names of men, of women, surnames as (man, woman))
NAMES: dict[str, tuple[list[str], list[str], list[tuple[str, str]]]] = {
    "CZ": (
        [
            "Jan",
            "Petr",
            "Tomáš",
            "Jiří",
            "Martin",
            "Pavel",
            "Jakub",
            "Lukáš",
            "Ondřej",
            "Michal",
            "David",
            "Vojtěch",
            "Filip",
            "Marek",
            "Radek",
            "Zdeněk",
            "Miroslav",
            "Josef",
            "Karel",
            "Václav",
            "Matěj",
            "Štěpán",
            "Vít",
            "Luboš",
        ],
        [
            "Jana",
            "Eva",
            "Hana",
            "Lucie",
            "Kateřina",
            "Tereza",
            "Petra",
            "Lenka",
            "Veronika",
            "Markéta",
            "Zuzana",
            "Alena",
            "Barbora",
            "Klára",
            "Michaela",
            "Šárka",
            "Ivana",
            "Jitka",
            "Anežka",
            "Dagmar",
            "Radka",
            "Božena",
        ],
        [
            (m, f)
            for m, f in (
                pair.split("/")
                for pair in [
                    "Novák/Nováková",
                    "Svoboda/Svobodová",
                    "Novotný/Novotná",
                    "Dvořák/Dvořáková",
                    "Černý/Černá",
                    "Procházka/Procházková",
                    "Kučera/Kučerová",
                    "Veselý/Veselá",
                    "Horák/Horáková",
                    "Němec/Němcová",
                    "Pokorný/Pokorná",
                    "Marek/Marková",
                    "Pospíšil/Pospíšilová",
                    "Hájek/Hájková",
                    "Jelínek/Jelínková",
                    "Král/Králová",
                    "Růžička/Růžičková",
                    "Beneš/Benešová",
                    "Fiala/Fialová",
                    "Sedláček/Sedláčková",
                    "Doležal/Doležalová",
                    "Zeman/Zemanová",
                    "Kolář/Kolářová",
                    "Navrátil/Navrátilová",
                    "Čermák/Čermáková",
                    "Urban/Urbanová",
                    "Vaněk/Vaňková",
                    "Blažek/Blažková",
                    "Kříž/Křížová",
                    "Kovář/Kovářová",
                    "Bartoš/Bartošová",
                    "Vlček/Vlčková",
                    "Polák/Poláková",
                    "Musil/Musilová",
                    "Šimek/Šimková",
                    "Holub/Holubová",
                    "Štěpánek/Štěpánková",
                    "Říha/Říhová",
                    "Žák/Žáková",
                    "Šťastný/Šťastná",
                ]
            )
        ],
    ),
    "SK": (
        ["Ján", "Peter", "Martin", "Juraj", "Marek", "Michal", "Tomáš", "Ľubomír"],
        ["Zuzana", "Katarína", "Mária", "Lucia", "Jana", "Ľubica"],
        [
            ("Kováč", "Kováčová"),
            ("Horváth", "Horváthová"),
            ("Varga", "Vargová"),
            ("Tóth", "Tóthová"),
            ("Baláž", "Balážová"),
            ("Molnár", "Molnárová"),
            ("Šimko", "Šimková"),
        ],
    ),
    "PL": (
        ["Piotr", "Krzysztof", "Tomasz", "Paweł", "Michał", "Łukasz"],
        ["Agnieszka", "Katarzyna", "Małgorzata", "Magdalena", "Joanna"],
        [
            ("Nowak", "Nowak"),
            ("Kowalski", "Kowalska"),
            ("Wiśniewski", "Wiśniewska"),
            ("Wójcik", "Wójcik"),
            ("Kamiński", "Kamińska"),
            ("Lewandowski", "Lewandowska"),
        ],
    ),
    "DE": (
        ["Lukas", "Jonas", "Felix", "Stefan", "Michael", "Jürgen"],
        ["Anna", "Julia", "Katrin", "Sabine", "Lena"],
        [
            (n, n)
            for n in [
                "Müller",
                "Schmidt",
                "Schneider",
                "Fischer",
                "Weber",
                "Wagner",
                "Becker",
                "Schäfer",
            ]
        ],
    ),
    "AT": (
        ["Florian", "Tobias", "Georg", "Andreas"],
        ["Theresa", "Magdalena", "Christina", "Verena"],
        [(n, n) for n in ["Gruber", "Huber", "Bauer", "Wagner", "Pichler", "Steiner"]],
    ),
    "HU": (
        ["Bence", "Dániel", "Gábor", "Zoltán"],
        ["Eszter", "Réka", "Zsófia", "Katalin"],
        [(n, n) for n in ["Nagy", "Kovács", "Szabó", "Tóth", "Horváth", "Varga"]],
    ),
    "IT": (
        [
            "Marco",
            "Luca",
            "Giuseppe",
            "Alessandro",
            "Francesco",
            "Matteo",
            "Andrea",
            "Lorenzo",
            "Davide",
            "Simone",
            "Stefano",
            "Paolo",
            "Riccardo",
            "Niccolò",
        ],
        [
            "Giulia",
            "Francesca",
            "Chiara",
            "Sara",
            "Martina",
            "Elena",
            "Valentina",
            "Alessia",
            "Federica",
            "Silvia",
            "Laura",
            "Anna",
            "Beatrice",
            "Ilaria",
        ],
        [
            (n, n)
            for n in [
                "Rossi",
                "Russo",
                "Ferrari",
                "Esposito",
                "Bianchi",
                "Romano",
                "Colombo",
                "Ricci",
                "Marino",
                "Greco",
                "Bruno",
                "Gallo",
                "Conti",
                "De Luca",
                "Mancini",
                "Costa",
                "Giordano",
                "Rizzo",
                "Lombardi",
                "Moretti",
                "Barbieri",
                "Fontana",
                "Santoro",
                "Mariani",
                "Rinaldi",
                "Caruso",
                "Ferrara",
                "Galli",
                "Martini",
                "Leone",
                "D’Angelo",
            ]
        ],
    ),
    "RU": (
        [
            "Александр",
            "Дмитрий",
            "Максим",
            "Сергей",
            "Андрей",
            "Алексей",
            "Артём",
            "Илья",
            "Кирилл",
            "Михаил",
            "Никита",
            "Иван",
            "Евгений",
            "Павел",
            "Роман",
            "Олег",
            "Владимир",
            "Григорий",
        ],
        [
            "Анна",
            "Мария",
            "Елена",
            "Ольга",
            "Наталья",
            "Татьяна",
            "Екатерина",
            "Ирина",
            "Светлана",
            "Юлия",
            "Дарья",
            "Ксения",
            "Людмила",
            "Алёна",
        ],
        [
            (m, m + "а")
            for m in [
                "Иванов",
                "Смирнов",
                "Кузнецов",
                "Попов",
                "Васильев",
                "Петров",
                "Соколов",
                "Михайлов",
                "Новиков",
                "Фёдоров",
                "Морозов",
                "Волков",
                "Алексеев",
                "Лебедев",
                "Семёнов",
                "Егоров",
                "Павлов",
                "Козлов",
                "Степанов",
                "Николаев",
                "Орлов",
                "Андреев",
                "Макаров",
                "Никитин",
                "Захаров",
                "Зайцев",
                "Соловьёв",
                "Борисов",
                "Яковлев",
                "Григорьев",
            ]
        ],
    ),
}

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


@dataclass
class Summary:
    """What one run created, for the command to print."""

    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class People:
    """Generated people of one event, from its own fixed seed."""

    def __init__(self, seed: str) -> None:
        self.random = random.Random(seed)
        self.used: set[tuple[str, str]] = set()

    def person(
        self,
        country: str,
        *,
        gender: str | None = None,
        born: tuple[int, int] = (1955, 2004),
        save: bool = True,
        **fields: Any,
    ) -> Person:
        men, women, surnames = NAMES[country]
        for _attempt in range(200):
            g = gender or self.random.choice("MF")
            first = self.random.choice(men if g == "M" else women)
            last_m, last_f = self.random.choice(surnames)
            last = last_m if g == "M" else last_f
            if (first, last) not in self.used:
                break
        self.used.add((first, last))
        year = self.random.randint(*born)
        birth = dt.date(year, 1, 1) + dt.timedelta(days=self.random.randint(0, 364))
        person = Person(
            first_name=first, last_name=last, country=country, gender=g, birth_date=birth, **fields
        )
        if save:  # a name only (an accompanying adult) is not saved: nothing would refer to it
            person.save()
        return person


class Builder:
    """Adds entries to one event, numbering them in order."""

    def __init__(self, event: Event, by: Any) -> None:
        self.event = event
        self.by = by
        self.number = 0

    def entry(
        self, category: str, name: str, members: list[Person], status: str, **fields: Any
    ) -> Entry:
        self.number += 1
        entry = Entry.objects.create(
            event=self.event,
            category=category,
            name=name,
            number=self.number,
            status=status,
            registered_by=fields.pop("registered_by", self.by),
            **fields,
        )
        EntryMember.objects.bulk_create(
            EntryMember(entry=entry, person=p, captain=(i == 0)) for i, p in enumerate(members)
        )
        return entry


def _at(day: dt.date, hour: int, minute: int, zone: str) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zoneinfo.ZoneInfo(zone))


def _event(
    slug: str,
    preset: str,
    title: str,
    starts_at: dt.datetime,
    venue: str,
    language: str,
    status: str,
    rulebook_text: str | None = None,
) -> Event:
    rulebook_text = rulebook_text or preset_text(preset)
    event = Event.objects.create(
        slug=slug,
        title=title,
        rulebook_key=preset,
        rulebook_text=rulebook_text,
        starts_at=starts_at,
        timezone=str(starts_at.tzinfo),
        venue=venue,
        language=language,
        status=status,
    )
    event.rulebook  # noqa: B018 — parse now: a demo rulebook that does not load is a bug
    return event


def _roles(event: Event, accounts: dict[str, Any]) -> None:
    EventRole.objects.create(event=event, user=accounts["organizer"], role=EventRole.Role.ORGANIZER)
    EventRole.objects.create(event=event, user=accounts["head"], role=EventRole.Role.HEAD_REFEREE)
    for who in ("referee", "scorer"):
        EventRole.objects.create(event=event, user=accounts[who], role=EventRole.Role.REFEREE)


def _pair_name(a: Person, b: Person) -> str:
    return f"{a.last_name} / {b.last_name}"


# --- The four events -------------------------------------------------------------------------


CZ_FOREIGN = ("SK", "SK", "SK", "PL", "PL", "DE", "AT", "HU")


def _cz_country(people: People, foreign_share: float) -> str:
    return people.random.choice(CZ_FOREIGN) if people.random.random() < foreign_share else "CZ"


def load_cz_jigsaw(accounts: dict[str, Any], summary: Summary) -> Event:
    event = _event(
        "cz-jigsaw-2027",
        "cz-jigsaw",
        "Mistrovství ČR ve skládání puzzle 2027",
        _at(dt.date(2027, 1, 23), 9, 0, "Europe/Prague"),
        "Praha, Kongresové centrum",
        "cs",
        Event.Status.OPEN,
    )
    _roles(event, accounts)
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
        build.entry("pairs", _pair_name(a, b), [a, b], Entry.Status.CONFIRMED)
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
    _draw_groups(event, accounts["organizer"], summary)
    demo_results.cz_jigsaw(event, accounts)
    return event


def _draw_groups(event: Event, by: Any, summary: Summary) -> None:
    stages = [s.key for s in event.rulebook.stages if s.groups]
    try:
        from podium.web.draws.services import draw_make
    except ImportError:  # pragma: no cover — the draws service ships with the web app
        draw_make = None
    for stage in stages:
        seed = f"demo-{event.slug}-{stage}"
        if draw_make is not None:
            draw_make(event=event, kind="groups", stage=stage, seed=seed, by=by)
            continue
        _draw_groups_directly(event, stage, seed)  # pragma: no cover
        summary.notes.append(f"{event.slug}: groups of {stage} set directly with seed {seed}")


def _draw_groups_directly(event: Event, stage_key: str, seed: str) -> None:  # pragma: no cover
    stage = event.rulebook.stage(stage_key)
    entries = list(
        Entry.objects.filter(
            event=event, category=stage.category, status=Entry.Status.CONFIRMED
        ).order_by("id")
    )
    random.Random(seed).shuffle(entries)
    for i, entry in enumerate(entries):
        entry.group = stage.groups[i % len(stage.groups)]
        entry.save(update_fields=["group"])


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
    event = _event(
        "puzzle-party",
        "it-puzzle-party",
        f"Puzzle Party di Ravensburger {day.year}",
        _at(day, 10, 0, "Europe/Rome"),
        "Milano, Superstudio Più",
        "it",
        Event.Status.OPEN,
        rulebook_text=text,
    )
    _roles(event, accounts)
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
                "pairs", _pair_name(a, b), [a, b], Entry.Status.CONFIRMED, table_number=table
            )
        else:
            build.entry("pairs", _pair_name(a, b), [a, b], Entry.Status.PENDING)
    player = accounts["player_person"]
    partner = people.person("IT", gender="M", born=(1980, 1995))
    build.entry(
        "pairs",
        _pair_name(player, partner),
        [player, partner],
        Entry.Status.PENDING,
        registered_by=accounts["player"],
    )
    demo_results.it_puzzle_party(event, accounts)
    return event


def load_cba_qualifier(accounts: dict[str, Any], summary: Summary) -> Event:
    day = dt.date(2012, 3, 24)
    event = _event(
        "cba-kvalifikace-2012",
        "cba-qualifier",
        "Dodatkový kvalifikační turnaj ČBA 2012",
        _at(day, 9, 0, "Europe/Prague"),
        "Praha, Bowling Strahov",
        "cs",
        Event.Status.OPEN,
    )
    _roles(event, accounts)
    squads = [
        Squad.objects.create(
            event=event, name=name, starts_at=_at(day, h, m, "Europe/Prague"), capacity=24
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
    _draw_lanes(event, squads, accounts["organizer"], summary)
    demo_results.cba_qualifier(event, accounts, squads)
    return event


def _draw_lanes(event: Event, squads: list[Squad], by: Any, summary: Summary) -> None:
    try:
        from podium.web.draws.services import draw_make
    except ImportError:  # pragma: no cover
        return
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


def load_deti_kolomny(accounts: dict[str, Any], summary: Summary) -> Event:
    event = _event(
        "deti-kolomny-xv",
        "deti-kolomny",
        "XV открытый чемпионат клуба «Дети Коломны»",
        _at(dt.date(2010, 11, 14), 12, 0, "Europe/Moscow"),
        "Коломна, ДК «Тепловозостроитель»",
        "ru",
        Event.Status.OPEN,
    )
    _roles(event, accounts)
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


LOADERS: tuple[tuple[str, Callable[[dict[str, Any], Summary], Event]], ...] = (
    ("cz-jigsaw-2027", load_cz_jigsaw),
    ("puzzle-party", load_it_puzzle_party),
    ("cba-kvalifikace-2012", load_cba_qualifier),
    ("deti-kolomny-xv", load_deti_kolomny),
)


def _accounts() -> dict[str, Any]:
    users = get_user_model()
    accounts: dict[str, Any] = {}
    for username, first, last, _role in ACCOUNTS:
        user = users.objects.filter(username=username).first()
        if user is None:
            user = users.objects.create_user(
                username, f"{username}@podium.example", PASSWORD, first_name=first, last_name=last
            )
        accounts[username] = user
    # The demo's organizer may create events where only approved accounts may (production).
    Account.objects.update_or_create(
        user=accounts["organizer"], defaults={"may_create_events": True}
    )
    player = accounts["player"]
    person = Person.objects.filter(user=player).first()
    if person is None:
        person = Person.objects.create(
            user=player,
            first_name="Petra",
            last_name="Hráčová",
            birth_date=dt.date(1990, 5, 17),
            country="CZ",
            gender="F",
            email=player.email,
        )
    accounts["player_person"] = person
    return accounts


class DemoRefused(RuntimeError):
    """The demo may not be reset here (a production server)."""


def _wipe(event: Event) -> None:
    """Deletes the event and everything it holds, the rows that point at others first."""
    from django.db.models import Q

    from podium.web.files.archive import KINDS

    rows = {}
    for _kind, model, paths in KINDS:
        where = Q()
        for path in paths:
            where |= Q(**{path: event})
        rows[model] = model.objects.filter(where).distinct()
    people = set(rows[Person].filter(user__isnull=True).values_list("pk", flat=True))
    for _kind, model, _paths in reversed(KINDS):
        if model is Person:
            continue
        # pks first: a filter across the rows being deleted would lose its own trail.
        pks = list(rows[model].values_list("pk", flat=True))
        left = model.objects.filter(pk__in=pks)
        # A row may name another of its kind (PROTECT): a correction the result it replaces, a
        # question its replacement. Delete those nobody names first, until none is left.
        links = [
            f.attname
            for f in model._meta.concrete_fields
            if f.is_relation and f.related_model is model
        ]
        while left.exists():
            named = {pk for name in links for pk in left.values_list(name, flat=True) if pk}
            left.exclude(pk__in=named).delete()
    event.delete()
    Person.objects.filter(
        pk__in=people, memberships__isnull=True, sanctions__isnull=True, bans__isnull=True
    ).delete()


@transaction.atomic
def reset_demo() -> Summary:
    """Wipes the four demo events and loads them again (see the vocabulary)."""
    from django.conf import settings

    if getattr(settings, "PRODUCTION", False):
        raise DemoRefused(
            "the demo is never reset on a production server: its events' slugs may be real ones"
        )
    for event in Event.objects.filter(slug__in=[slug for slug, _loader in LOADERS]):
        _wipe(event)
    return load_demo()


@transaction.atomic
def load_demo(only: Collection[str] = ()) -> Summary:
    """Create what is missing of the demo (of the events ``only`` names, when given); leave
    everything that exists as it is."""
    summary = Summary()
    accounts = _accounts()
    for slug, loader in LOADERS:
        if only and slug not in only:
            continue
        if Event.objects.filter(slug=slug).exists():
            summary.skipped.append(slug)
            continue
        loader(accounts, summary)
        summary.created.append(slug)
    return summary
