"""Sanctions and unpaid fees of the «Дети Коломны» championship, and the refusals of bad input
to them and to withdrawals, through the services and the standings they change
(``deti-kolomny``, Moscow time, season Nov–Jun); the withdrawals: ``test_withdrawals.py``.

The club: #1 Sovy, #2 Ezhi, #3 Lisy, #4 Volki, #5 Filiny. The calendar has five tours (6 Nov,
20 Nov, 4 Dec, 18 Dec 2025, 15 Jan 2026, each at 19:00), so the middle tour is tour 3
(⌊5/2⌋ + 1). The season ends on 30 June 2026, the next one on 30 June 2027. Tour points
12, 10, 8, 7, 6…; shared places share their points.

Hand-worked, ChGK (п. 8, ineligible player in tour 2):
- Tour 1: Sovy 10, Ezhi 8, Lisy 8, Volki 6, Filiny 5 → Sovy 12; Ezhi, Lisy 2–3: 9 each;
  Volki 7; Filiny 6.
- Tour 2: Sovy 9, Ezhi 11, Lisy 7, Volki 7, Filiny 4 → Ezhi 12, Sovy 10, Lisy and Volki 3–4:
  7.5 each, Filiny 6. Season: Sovy 22, Ezhi 21, Lisy 16.5, Volki 14.5, Filiny 12.
- Pavel Igrokov, on the roster of Lisy, played tour 2 for Ezhi: Ezhi's tour counts 0 (last,
  5th: 6 points). Tour 2 becomes Sovy 12, Lisy and Volki 2–3: 9 each, Filiny 4th 7, Ezhi 6.
  Season: Sovy 24, Lisy 18, Volki 16, Ezhi 15 (9 + 6, 8 questions), Filiny 13 — Ezhi falls from
  2nd to 4th. As of an hour before the sanction, both tables are the old ones.
- Pavel is barred to the end of the championship (30 June 2026): Volki cannot add him; a team
  of the next season's championship (from Nov 2026) can.

Brainball (п. 8, 2 points a win, 1 a draw): Sovy 4:2 Ezhi, Ezhi 5:1 Lisy, Lisy 1:3 Volki,
Volki 3:3 Filiny, Sovy 4:1 Filiny → Sovy 4, Volki 3, Ezhi 2 (7:5), Filiny 1, Lisy 0. Pavel in
Ezhi – Lisy: a 0:6 loss for Ezhi → Sovy 4, Volki 3, Lisy 2 (7:3), Filiny 1, Ezhi 0 (2:10).

Unpaid fee (п. 9): all paid the first-half fee, Filiny not the second-half one, which admits to
tours 3–5. Tour 3: Filiny 10 was typed in, then Filiny is not admitted: Sovy 6, Ezhi 9, Lisy 9,
Volki 3 → Ezhi and Lisy 1–2: 11 each, Sovy 8, Volki 7; Filiny absent (before: Filiny 12, Ezhi
and Lisy 9, Sovy 7, Volki 6). Season of tours 1 and 3: Filiny 6 points, its places 5 + 5 = 10
(absent counts after the last of 4 teams). Not admitted to tour 4 before it: Filiny's tour 4
result is refused.

Lifting: Oleg Novikov, on no roster, played tour 2 for Ezhi; the sanction is lifted on 28 Nov
with its reason: tour 2 is Ezhi 12 again (as of 27 Nov still Sovy 12), his ban ends on 27 Nov,
and Ezhi's roster takes him within this championship.

Bad input, each refused with nothing stored: a sanction without a reason, on a battle of other
teams (b1-1-3 for Ezhi) or one never played (b1-2-4), on no battle, on a tour not on the
calendar, by a referee, under an unknown rule; lifting without a reason; a withdrawal without a
statement, received tomorrow, recorded by a referee, or a second one.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from podium.web.disputes.selectors.discipline import season_end, unpaid_for_tour
from podium.web.disputes.services.discipline import (
    not_admitted_apply,
    sanction_impose,
    sanction_lift,
    withdrawal_record,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import (
    Ban,
    EntryMember,
    Event,
    Person,
    Result,
    Sanction,
    Withdrawal,
)
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.payments import payment_record
from podium.web.registration.services.registering import entry_register
from podium.web.registration.services.rosters import roster_add_player
from podium.web.results.selectors.rows import battle_item, standings_as_of
from podium.web.results.services.results import result_record

TOUR, SEASON, BRAINBALL = "chgk-tour", "chgk-season", "brainball"
NAMES = ["Sovy", "Ezhi", "Lisy", "Volki", "Filiny"]
PAVEL = PersonData("Pavel", "Igrokov", dt.date(2001, 4, 23), "RU")


def at(month: int, day: int, hour: int = 18, year: int = 2025) -> dt.datetime:
    """A moment in UTC of the 2025/26 season (January to June fall in 2026 unless a year is
    given; Moscow is UTC+3, so 16:00 UTC is 19:00 there)."""
    year = year if month >= 7 or year != 2025 else 2026
    return dt.datetime(year, month, day, hour, tzinfo=dt.UTC)


@pytest.fixture
def club(make_club: Any) -> SimpleNamespace:
    days = [(11, 6), (11, 20), (12, 4), (12, 18), (1, 15)]
    made = make_club(NAMES, [at(month, day, 16) for month, day in days])
    made.keys = [0]
    return made


def key(club: SimpleNamespace) -> str:
    club.keys[0] += 1
    return f"test-{club.keys[0]}"


def tour(club: SimpleNamespace, number: int, questions: dict[str, int], when: dt.datetime) -> None:
    for name, taken in questions.items():
        result_record(
            event=club.event, stage=TOUR, round=number, entry=club.teams[name],
            cells={"questions": str(taken), "mask": ""}, by=club.rudolf,
            idempotency_key=key(club), now=when,
        )  # fmt: skip


def battle(
    club: SimpleNamespace, round_: int, a: str, b: str, score_a: int, score_b: int,
    when: dt.datetime,
) -> Result:  # fmt: skip
    one, two = club.teams[a], club.teams[b]
    return result_record(
        event=club.event, stage=BRAINBALL, item=battle_item(round_, one.number, two.number),
        cells={"round": str(round_), "team1": str(one.number), "team2": str(two.number),
               "score1": str(score_a), "score2": str(score_b)},
        by=club.rudolf, idempotency_key=key(club), now=when,
    )  # fmt: skip


def rows(event: Event, stage: str, round: int = 1, at: dt.datetime | None = None) -> list[Any]:
    return [r for t in standings_as_of(event, stage, round=round, at=at).tables for r in t.rows]


def table(event: Event, stage: str, round: int = 1, at: dt.datetime | None = None) -> list[Any]:
    """(place, team, points) per row; Brainball: (place, team, match points)."""
    out = []
    for r in rows(event, stage, round, at):
        points = r.entry.metrics["match_points"] if stage == BRAINBALL else r.points
        place = f"{r.rank}" if r.rank == r.rank_to else f"{r.rank}–{r.rank_to}"
        out.append((place, r.entry.name, points))
    return out


def season(event: Event, at: dt.datetime | None = None) -> list[tuple[str, Decimal]]:
    return [(r.entry.name, r.entry.metrics["points"]) for r in rows(event, SEASON, at=at)]


def reasons(event: Event, stage: str, name: str, round: int = 1) -> list[Any]:
    row = next(r for r in rows(event, stage, round) if r.entry.name == name)
    return list(row.why.reasons(row))


def counts() -> tuple[int, int, int, int]:
    return (
        Sanction.objects.count(), Ban.objects.count(), Withdrawal.objects.count(),
        Person.objects.count(),
    )  # fmt: skip


def on_lisy(club: SimpleNamespace) -> Person:
    pavel = Person.objects.create(
        first_name=PAVEL.first_name, last_name=PAVEL.last_name, birth_date=PAVEL.birth_date
    )
    EntryMember.objects.create(entry=club.teams["Lisy"], person=pavel)
    return pavel


def two_tours(club: SimpleNamespace) -> None:
    tour(club, 1, dict(zip(NAMES, [10, 8, 8, 6, 5], strict=True)), at(11, 6))
    tour(club, 2, dict(zip(NAMES, [9, 11, 7, 7, 4], strict=True)), at(11, 20))


def test_an_ineligible_player_in_a_tour_counts_it_0_and_is_barred_from_any_roster(
    club: SimpleNamespace, make_event: Any
) -> None:
    event = club.event
    two_tours(club)
    pavel = on_lisy(club)
    assert table(event, TOUR, 2)[:2] == [("1", "Ezhi", Decimal(12)), ("2", "Sovy", Decimal(10))]
    assert season(event) == [
        ("Sovy", Decimal(22)), ("Ezhi", Decimal(21)), ("Lisy", Decimal("16.5")),
        ("Volki", Decimal("14.5")), ("Filiny", Decimal(12)),
    ]  # fmt: skip

    sanction = sanction_impose(
        event=event, key="ineligible-player", by=club.hana, entry=club.teams["Ezhi"],
        person=pavel, stage=TOUR, round=2, now=at(11, 21, 10),
        reason="Pavel Igrokov of Lisy played tour 2 for Ezhi",
    )  # fmt: skip

    assert table(event, TOUR, 2) == [
        ("1", "Sovy", Decimal(12)),
        ("2–3", "Lisy", Decimal(9)),
        ("2–3", "Volki", Decimal(9)),
        ("4", "Filiny", Decimal(7)),
        ("5", "Ezhi", Decimal(6)),
    ]
    ezhi = next(r for r in rows(event, TOUR, 2) if r.entry.name == "Ezhi")
    assert ezhi.entry.score_text == "0 q (sanction; 11 taken)"
    footnote = next(
        r for r in reasons(event, TOUR, "Ezhi", 2) if r.text.startswith("Sanction: Pavel")
    )
    assert footnote.text == "Sanction: Pavel Igrokov of Lisy played tour 2 for Ezhi"
    assert footnote.clause.startswith("п. 8: … результат провинившейся команды в туре ЧГК")
    assert season(event) == [
        ("Sovy", Decimal(24)), ("Lisy", Decimal(18)), ("Volki", Decimal(16)),
        ("Ezhi", Decimal(15)), ("Filiny", Decimal(13)),
    ]  # fmt: skip
    ezhi = next(r for r in rows(event, SEASON) if r.entry.name == "Ezhi")
    assert ezhi.entry.metrics["season_questions"] == 8
    texts = {r.text: r.clause for r in reasons(event, SEASON, "Ezhi")}
    assert texts["Tour 2: Sanction: Pavel Igrokov of Lisy played tour 2 for Ezhi"].startswith(
        "п. 8:"
    )
    # As of an hour before the sanction, the tables are the old ones.
    before = at(11, 21, 9)
    assert table(event, TOUR, 2, at=before)[0] == ("1", "Ezhi", Decimal(12))
    assert season(event, at=before)[1] == ("Ezhi", Decimal(21))

    # Pavel is barred to the end of the championship, and any roster refuses him.
    ban = Ban.objects.get()
    assert (ban.person, ban.until, ban.sanction, ban.event) == (
        pavel, dt.date(2026, 6, 30), sanction, event,
    )  # fmt: skip
    assert ban.until == season_end(event)
    assert ban.reason == sanction.reason
    assert "дисквалифицируется до конца турнира" in ban.clause
    volki = club.teams["Volki"]
    with pytest.raises(Refused) as refused:
        roster_add_player(entry=volki, person=PAVEL, by=club.org)
    assert refused.value.message == (
        "Pavel Igrokov is barred until June 30, 2026: Pavel Igrokov of Lisy played tour 2 for Ezhi."
    )
    assert refused.value.field == "last_name"
    assert volki.members.count() == 1
    # The next season's championship is a new one: he may play there.
    later = make_event(
        "deti-kolomny", slug="dk-2026", organizer=club.org, timezone="Europe/Moscow",
        starts_at=at(11, 12, 16, year=2026),
    )  # fmt: skip
    made = entry_register(event=later, category="teams", by=club.org, members=[PAVEL], name="Novye")
    assert made.members.get().person == pavel


def test_an_ineligible_player_in_a_battle_makes_it_a_0_6_loss(club: SimpleNamespace) -> None:
    event = club.event
    pavel = on_lisy(club)
    for a, b, sa, sb in [
        ("Sovy", "Ezhi", 4, 2), ("Ezhi", "Lisy", 5, 1), ("Lisy", "Volki", 1, 3),
        ("Volki", "Filiny", 3, 3), ("Sovy", "Filiny", 4, 1),
    ]:  # fmt: skip
        battle(club, 1, a, b, sa, sb, at(11, 20))
    assert table(event, BRAINBALL) == [
        ("1", "Sovy", 4), ("2", "Volki", 3), ("3", "Ezhi", 2), ("4", "Filiny", 1),
        ("5", "Lisy", 0),
    ]  # fmt: skip

    sanction_impose(
        event=event, key="ineligible-player", by=club.hana, entry=club.teams["Ezhi"],
        person=pavel, stage=BRAINBALL, items=[battle_item(1, 2, 3)], now=at(11, 21, 10),
        reason="Pavel Igrokov of Lisy played the battle against Lisy for Ezhi",
    )  # fmt: skip

    assert table(event, BRAINBALL) == [
        ("1", "Sovy", 4), ("2", "Volki", 3), ("3", "Lisy", 2), ("4", "Filiny", 1),
        ("5", "Ezhi", 0),
    ]  # fmt: skip
    by_name = {r.entry.name: r.entry.metrics for r in rows(event, BRAINBALL)}
    assert (by_name["Lisy"]["questions_for"], by_name["Lisy"]["questions_against"]) == (7, 3)
    assert (by_name["Ezhi"]["questions_for"], by_name["Ezhi"]["questions_against"]) == (2, 10)
    texts = {r.text: r.clause for r in reasons(event, BRAINBALL, "Ezhi")}
    loss = "Round 1, battle b1-2-3: lost to Lisy 0:6, recorded as a loss for Ezhi under a sanction"
    assert texts[loss].startswith("п. 8:")
    assert (
        "в туре брейнбола"
        in texts["Sanction: Pavel Igrokov of Lisy played the battle against Lisy for Ezhi"]
    )
    # The result itself is untouched: the 5:1 is still what was played.
    assert Result.objects.get(item="b1-2-3").cells["score1"] == "5"
    assert table(event, BRAINBALL, at=at(11, 21, 9))[2] == ("3", "Ezhi", 2)
    assert Ban.objects.get().person == pavel


def test_an_unpaid_fee_keeps_the_team_out_of_the_tour(club: SimpleNamespace) -> None:
    event, teams = club.event, club.teams
    for name, entry in teams.items():
        payment_record(entry=entry, fee_key="entry-first-half", amount="900", method="cash",
                       by=club.org)  # fmt: skip
        if name != "Filiny":
            payment_record(entry=entry, fee_key="entry-second-half", amount="900",
                           method="cash", by=club.org)  # fmt: skip
    assert unpaid_for_tour(event, TOUR, 1) == []
    assert unpaid_for_tour(event, TOUR, 2) == []
    assert [u.entry.name for u in unpaid_for_tour(event, TOUR, 3)] == ["Filiny"]
    assert unpaid_for_tour(event, TOUR, 3)[0].fee.key == "entry-second-half"

    tour(club, 1, dict(zip(NAMES, [10, 8, 8, 6, 5], strict=True)), at(11, 6))
    tour(club, 3, dict(zip(NAMES, [6, 9, 9, 3, 10], strict=True)), at(12, 4))
    made = not_admitted_apply(event=event, stage=TOUR, round=3, by=club.org, now=at(12, 4, 19))
    assert [(s.entry.name, s.effect, s.round) for s in made] == [("Filiny", "not-admitted", 3)]
    assert made[0].reason == "the fee “Team fee, second half of the season” is unpaid"
    # Applied again: nobody new.
    assert not_admitted_apply(event=event, stage=TOUR, round=3, by=club.org) == []

    assert table(event, TOUR, 3) == [
        ("1–2", "Ezhi", Decimal(11)), ("1–2", "Lisy", Decimal(11)), ("3", "Sovy", Decimal(8)),
        ("4", "Volki", Decimal(7)),
    ]  # fmt: skip
    assert table(event, TOUR, 3, at=at(12, 4, 18))[0] == ("1", "Filiny", Decimal(12))
    filiny = next(r for r in rows(event, SEASON) if r.entry.name == "Filiny")
    assert filiny.entry.metrics["points"] == Decimal(6)
    assert filiny.entry.metrics["place_sum"] == Decimal(10)
    texts = {r.text: r.clause for r in filiny.why.reasons(filiny)}
    assert "Sum of tour places: 5 + 5 = 10" in texts
    assert texts["Not admitted to tour 3: " + made[0].reason].startswith(
        "п. 9: Команда, не сдавшая взнос"
    )
    assert any(t.startswith("Absent from tour 3: counted at place 5") for t in texts)

    # Not admitted before the next tour: its result is refused, nothing stored.
    not_admitted_apply(event=event, stage=TOUR, round=4, by=club.org, now=at(12, 18, 15))
    stored = Result.objects.count()
    with pytest.raises(Refused) as refused:
        tour(club, 4, {"Filiny": 7}, at(12, 18))
    assert refused.value.message == (
        "#5 was not admitted to this round: the fee “Team fee, second half of the season” is "
        "unpaid."
    )
    assert refused.value.clause.startswith("п. 9:")
    assert Result.objects.count() == stored


def test_a_lifted_sanction_restores_the_table_and_frees_the_player(
    club: SimpleNamespace,
) -> None:
    event, ezhi = club.event, club.teams["Ezhi"]
    two_tours(club)
    oleg = PersonData("Oleg", "Novikov", dt.date(2002, 3, 3))
    person = Person.objects.create(
        first_name=oleg.first_name, last_name=oleg.last_name, birth_date=oleg.birth_date
    )
    sanction = sanction_impose(
        event=event, key="ineligible-player", by=club.hana, entry=ezhi, person=person,
        stage=TOUR, round=2, now=at(11, 21, 10), reason="Oleg Novikov played, not on the roster",
    )  # fmt: skip
    with pytest.raises(Refused):
        roster_add_player(entry=ezhi, person=oleg, by=club.org)
    sanction_lift(
        sanction=sanction, by=club.org, now=at(11, 28, 10),
        reason="Oleg was added orally before tour 2 (п. 7); the roster change was not typed in",
    )  # fmt: skip
    assert table(event, TOUR, 2)[0] == ("1", "Ezhi", Decimal(12))
    assert table(event, TOUR, 2, at=at(11, 27))[0] == ("1", "Sovy", Decimal(12))
    assert Ban.objects.get().until == dt.date(2025, 11, 27)
    # The ban ended with the sanction: the roster takes him now, within this championship.
    roster_add_player(entry=ezhi, person=oleg, by=club.org)
    assert ezhi.members.filter(person=person).exists()


def test_bad_input_is_refused_and_nothing_is_stored(club: SimpleNamespace) -> None:
    event, ezhi = club.event, club.teams["Ezhi"]
    pavel = on_lisy(club)
    battle(club, 1, "Sovy", "Ezhi", 4, 2, at(11, 20))
    battle(club, 1, "Sovy", "Lisy", 3, 2, at(11, 20))
    before = counts()

    def impose(**given: Any) -> Refused:
        fields = {
            "event": event, "key": "ineligible-player", "by": club.hana, "entry": ezhi,
            "person": pavel, "stage": BRAINBALL, "items": ["b1-1-2"], "reason": "played",
            "now": at(11, 21),
        } | given  # fmt: skip
        with pytest.raises(Refused) as refused:
            sanction_impose(**fields)
        return refused.value

    refused = impose(reason="  ")
    assert (refused.message, refused.field) == (
        "Say what happened: a sanction gives its reason.", "reason",
    )  # fmt: skip
    refused = impose(items=["b1-1-3"])
    assert (refused.message, refused.field) == ("#2 did not play battle b1-1-3.", "items")
    refused = impose(items=["b1-2-4"])  # Ezhi – Volki was never played
    assert (refused.message, refused.field) == ("#2 did not play battle b1-2-4.", "items")
    refused = impose(items=[])
    assert refused.field == "items"
    refused = impose(stage=TOUR, items=[], round=9)
    assert (refused.message, refused.field) == ("Name a tour on the calendar.", "round")
    refused = impose(by=club.rudolf)
    assert refused.message == "Sanctions are imposed by the head referee or an organizer."
    refused = impose(key="doping")
    assert refused.field == "key"
    assert counts() == before

    sanction = sanction_impose(
        event=event, key="ineligible-player", by=club.hana, entry=ezhi, person=pavel,
        stage=BRAINBALL, items=["b1-1-2"], reason="Pavel played for Ezhi", now=at(11, 21),
    )  # fmt: skip
    before = counts()
    with pytest.raises(Refused) as refused:
        sanction_lift(sanction=sanction, by=club.org, reason=" ")
    assert (refused.value.message, refused.value.field) == (
        "Say why the sanction is lifted.", "reason",
    )  # fmt: skip
    sanction.refresh_from_db()
    assert sanction.lifted_at is None
    assert Ban.objects.get().until == dt.date(2026, 6, 30)

    filiny = club.teams["Filiny"]
    with pytest.raises(Refused) as refused:
        withdrawal_record(entry=filiny, statement="", received_at=at(11, 25), by=club.org)
    assert refused.value.field == "statement"
    with pytest.raises(Refused) as refused:
        withdrawal_record(
            entry=filiny, statement="We stop.", received_at=dt.datetime.now(dt.UTC)
            + dt.timedelta(days=1), by=club.org,
        )  # fmt: skip
    assert refused.value.field == "received_at"
    with pytest.raises(Refused):
        withdrawal_record(entry=filiny, statement="We stop.", received_at=at(11, 25),
                          by=club.rudolf)  # fmt: skip
    assert counts() == before
    withdrawal_record(entry=filiny, statement="We stop.", received_at=at(11, 25), by=club.org)
    before = counts()
    with pytest.raises(Refused) as refused:
        withdrawal_record(
            entry=filiny, statement="We stop, again.", received_at=at(11, 26), by=club.org
        )
    assert refused.value.message == "This team has already withdrawn; there is no return."
    assert counts() == before
