"""Withdrawals from the «Дети Коломны» championship (п. 18), through the services and the
standings they change, with the club, the calendar and the helpers of ``test_discipline.py``
(five tours from 6 Nov 2025, so the middle tour is tour 3; the season ends on 30 June 2026,
the next one on 30 June 2027; Brainball 2 points a win, 1 a draw).

Withdrawal before the middle tour (п. 18), round 1: Sovy 4:2 Ezhi, Sovy 3:2 Lisy, Ezhi 2:2 Lisy,
Lisy 1:4 Filiny, Ezhi 4:0 Filiny, Volki 3:2 Filiny, Sovy 1:5 Volki → Volki 4 (beat Sovy),
Sovy 4, Ezhi 3, Filiny 2, Lisy 1. Filiny withdraws on 25 Nov having met 3 of the 4 others (no
full round): its three battles are annulled → Sovy 4 (8:9), Volki 2 (5:1), Lisy 1 (4:5, −1),
Ezhi 1 (4:6, −2). Its ChGK tours stay (season 12 points). Filiny and its captain are barred to
30 June 2027: a team «Filiny» in the next season's championship is refused, one in the season
after is not; a jigsaw competition (another rulebook) in March 2027 takes the captain. Nothing
more is recorded for Filiny: its tour 3 and a battle after 25 Nov are refused. Filiny owes no
fee for tour 3 any more.

A full round kept: with Gosti playing ChGK outside the competition (no Brainball), Filiny met
all four others in round 1 — Sovy 4:2 Filiny, Ezhi 3:3 Filiny, Filiny 5:1 Lisy, Filiny 2:1 Volki
→ Filiny 5, Sovy 2, Ezhi 1, Volki 0 (−1), Lisy 0 (−4). It withdraws before the middle tour having
completed a full round: every battle stands, the table is unchanged; the bans are written.

Withdrawal after the middle tour: Sovy 1:5 Volki and Ezhi 3:3 Volki in round 1; Sovy 4:1 Volki,
Lisy 2:4 Volki, Sovy 3:2 Ezhi in round 2 → Volki 5, Sovy 4, Ezhi 1, Lisy 0. Volki withdraws on
20 Dec: its round-2 battles go → Volki 3 (8:4), Sovy 2, Ezhi 1; Lisy has no battle left. No ban.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from tests.web.disputes import test_discipline
from tests.web.disputes.test_discipline import (
    BRAINBALL,
    NAMES,
    SEASON,
    TOUR,
    at,
    battle,
    reasons,
    rows,
    season,
    table,
    tour,
    two_tours,
)

from podium.web.disputes.selectors.discipline import season_end, unpaid_for_tour
from podium.web.disputes.services.discipline import withdrawal_record
from podium.web.kernel.refusals import Refused
from podium.web.models import Ban, Entry, Event, Result, Sanction
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register

club = test_discipline.club  # the same fixture: the club's five teams and its calendar

CAPTAIN = PersonData("Filiny", "Kapitanov", dt.date(1990, 1, 5))  # Filiny's captain
IVAN = PersonData("Ivan", "Novikov", dt.date(2000, 2, 2))  # on no roster of the club


BEFORE_MIDDLE = [
    ("Sovy", "Ezhi", 4, 2), ("Sovy", "Lisy", 3, 2), ("Ezhi", "Lisy", 2, 2),
    ("Lisy", "Filiny", 1, 4), ("Ezhi", "Filiny", 4, 0), ("Volki", "Filiny", 3, 2),
    ("Sovy", "Volki", 1, 5),
]  # fmt: skip


def championship(make_event: Any, club: SimpleNamespace, slug: str, starts: dt.datetime) -> Event:
    """The club's championship of a later season: a new event under the same rulebook."""
    return make_event(
        "deti-kolomny", slug=slug, organizer=club.org, timezone="Europe/Moscow", starts_at=starts
    )


def register_team(club: SimpleNamespace, event: Event, name: str, member: PersonData) -> Entry:
    return entry_register(event=event, category="teams", by=club.org, name=name, members=[member])


def test_a_withdrawal_before_the_middle_tour_annuls_its_battles_and_bars_it(
    club: SimpleNamespace, make_event: Any
) -> None:
    event, filiny = club.event, club.teams["Filiny"]
    two_tours(club)
    for a, b, sa, sb in BEFORE_MIDDLE:
        battle(club, 1, a, b, sa, sb, at(11, 20))
    assert table(event, BRAINBALL) == [
        ("1", "Volki", 4), ("2", "Sovy", 4), ("3", "Ezhi", 3), ("4", "Filiny", 2),
        ("5", "Lisy", 1),
    ]  # fmt: skip

    made = withdrawal_record(
        entry=filiny, statement="Filiny stop playing: too many of us moved away.",
        received_at=at(11, 25, 12), by=club.hana, now=at(11, 25, 13),
    )  # fmt: skip
    assert (made.rule, made.before_middle, made.middle) == (
        "withdrawal-before-middle-tour", True, 3,
    )  # fmt: skip

    assert table(event, BRAINBALL) == [
        ("1", "Sovy", 4), ("2", "Volki", 2), ("3", "Lisy", 1), ("4", "Ezhi", 1),
    ]  # fmt: skip
    volki = {r.text: r.clause for r in reasons(event, BRAINBALL, "Volki")}
    annulled = "Round 1 battle against Filiny annulled: it withdrew on 2025-11-25"
    assert volki[annulled].startswith("п. 18:")
    assert table(event, BRAINBALL, at=at(11, 25, 12))[0] == ("1", "Volki", 4)
    # It owes no fee for the tours after it withdrew (everyone here is unpaid).
    assert [u.entry.name for u in unpaid_for_tour(event, TOUR, 3)] == NAMES[:4]
    # Its ChGK results stay: tour 2 and the season still count Filiny.
    assert table(event, TOUR, 2)[-1] == ("5", "Filiny", Decimal(6))
    assert season(event)[-1] == ("Filiny", Decimal(12))
    kept = [r for r in reasons(event, SEASON, "Filiny") if "ChGK results are kept" in r.text]
    assert kept
    assert kept[0].clause.startswith("п. 18:")

    # The team and its captain are barred to the end of the next season.
    bans = {(b.team_name, b.person.first_name if b.person else "") for b in Ban.objects.all()}
    assert bans == {("Filiny", ""), ("", "Filiny")}
    assert {b.until for b in Ban.objects.all()} == {season_end(event, 1)} == {dt.date(2027, 6, 30)}
    next_season = championship(make_event, club, "dk-2026", at(11, 12, 16, year=2026))
    entries = Entry.objects.count()
    with pytest.raises(Refused) as refused:
        register_team(club, next_season, " filiny ", IVAN)
    assert refused.value.message.startswith("Filiny is barred until June 30, 2027: Withdrew:")
    assert refused.value.field == "name"
    with pytest.raises(Refused) as refused:
        register_team(club, next_season, "Novye Filiny", CAPTAIN)
    assert refused.value.message.startswith("Filiny Kapitanov is barred until June 30, 2027")
    assert Entry.objects.count() == entries
    # The club's ban is the club's: a jigsaw competition in the same months takes the captain.
    jigsaw = make_event("cz-jigsaw", organizer=club.org, starts_at=at(3, 14, 9, year=2027))
    entry_register(
        event=jigsaw, category="individuals", by=club.org,
        members=[PersonData("Filiny", "Kapitanov", dt.date(1990, 1, 5), "CZ", "M")],
    )  # fmt: skip
    after_that = championship(make_event, club, "dk-2027", at(11, 11, 16, year=2027))
    register_team(club, after_that, "Filiny", CAPTAIN)

    # No return: nothing more is recorded for Filiny.
    stored = Result.objects.count()
    with pytest.raises(Refused) as refused:
        tour(club, 3, {"Filiny": 8}, at(12, 4))
    assert refused.value.message == "#5 withdrew on Nov. 25, 2025; there is no return."
    with pytest.raises(Refused):
        battle(club, 1, "Sovy", "Filiny", 3, 3, at(11, 26))
    assert Result.objects.count() == stored


def test_a_withdrawal_after_a_full_round_keeps_its_battles(club: SimpleNamespace) -> None:
    event = club.event
    Entry.objects.create(
        event=event, category="teams", number=6, name="Gosti", status=Entry.Status.CONFIRMED,
        scored=False,
    )  # fmt: skip
    for a, b, sa, sb in [
        ("Sovy", "Filiny", 4, 2), ("Ezhi", "Filiny", 3, 3), ("Lisy", "Filiny", 1, 5),
        ("Volki", "Filiny", 1, 2),
    ]:  # fmt: skip
        battle(club, 1, a, b, sa, sb, at(11, 20))
    league = [
        ("1", "Filiny", 5), ("2", "Sovy", 2), ("3", "Ezhi", 1), ("4", "Volki", 0),
        ("5", "Lisy", 0),
    ]  # fmt: skip
    assert table(event, BRAINBALL) == league
    withdrawal_record(
        entry=club.teams["Filiny"], statement="We stop.", received_at=at(11, 25), by=club.org
    )
    assert table(event, BRAINBALL) == league
    texts = {r.text: r.clause for r in reasons(event, BRAINBALL, "Filiny")}
    kept = "Withdrew on 2025-11-25: it completed a full round, so its battles stand"
    assert texts[kept].startswith("п. 18:")
    assert Ban.objects.filter(team_name="Filiny").count() == 1


def test_a_withdrawal_after_the_middle_tour_annuls_only_its_second_round(
    club: SimpleNamespace,
) -> None:
    event = club.event
    battle(club, 1, "Sovy", "Volki", 1, 5, at(11, 20))
    battle(club, 1, "Ezhi", "Volki", 3, 3, at(11, 20))
    battle(club, 2, "Sovy", "Volki", 4, 1, at(12, 18))
    battle(club, 2, "Lisy", "Volki", 2, 4, at(12, 18))
    battle(club, 2, "Sovy", "Ezhi", 3, 2, at(12, 18))
    assert table(event, BRAINBALL) == [
        ("1", "Volki", 5), ("2", "Sovy", 4), ("3", "Ezhi", 1), ("4", "Lisy", 0),
    ]  # fmt: skip
    made = withdrawal_record(
        entry=club.teams["Volki"], statement="Volki withdraw.", received_at=at(12, 20, 10),
        by=club.org, now=at(12, 20, 11),
    )  # fmt: skip
    assert (made.rule, made.before_middle, made.middle) == (
        "withdrawal-after-middle-tour", False, 3,
    )  # fmt: skip
    assert table(event, BRAINBALL) == [("1", "Volki", 3), ("2", "Sovy", 2), ("3", "Ezhi", 1)]
    volki = next(r for r in rows(event, BRAINBALL) if r.entry.name == "Volki").entry.metrics
    assert (volki["questions_for"], volki["questions_against"]) == (8, 4)
    assert Ban.objects.count() == 0
    assert Sanction.objects.count() == 0
