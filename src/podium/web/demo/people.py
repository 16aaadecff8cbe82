"""The demo's generated people: names that fit each country, drawn from an event's own seed.

Vocabulary:
- people of an event: everyone the demo generates for one event, from a seed of its own, so that
  every run builds the same people and no name repeats within the event.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from podium.web.models import Person

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
