"""Public standings of rounds: a ChGK tour in draft stays hidden from the public while the
season sums only the tours it may see, a season's page reads the database as often for many
tours as for two, and rounds that do not exist are 404.

Hand-worked (deti-kolomny, ChGK; points 12, 10, 8, 7, 6 for places 1–5):
- Tour 1 (preliminary): Alfa 14, Beta 12, Gamma 10, Delta 8, Epsilon 5 questions →
  12, 10, 8, 7, 6 points.
- Tour 2 (draft): Alfa 13, Beta 11, Delta 10, Gamma 9, Epsilon 3 → Alfa 12, Beta 10, Delta 8,
  Gamma 7, Epsilon 6.
- The public season sums tour 1 only: Alfa 12, Beta 10, Gamma 8, Delta 7, Epsilon 6 (places
  1–5). Staff see both tours: Alfa 24, Beta 20, Gamma 15, Delta 15 (tied 3–4: a prize place,
  so a play-off), Epsilon 12.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from tests.web.standings.test_standings_pages import (
    QUALI,
    cells,
    marks,
    row_html,
    staff_client,
    stage_url,
    text,
    why,
)

from podium.web.models import Entry, EntryMember, Person, Result, Round, Verification
from podium.web.results.services.checks import second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

TOUR, SEASON = "chgk-tour", "chgk-season"
TEAMS = ("Alfa", "Beta", "Gamma", "Delta", "Epsilon")
TOUR_QUESTIONS = {1: (14, 12, 10, 8, 5), 2: (13, 11, 9, 10, 3)}  # in team order


def msk(day: int, h: int) -> dt.datetime:
    return dt.datetime(2026, 11, day, h, 0, tzinfo=dt.UTC)


@pytest.fixture
def chgk(make_event: Any, staff: Any, add_entry: Any) -> Any:
    """Two tours played and both verified; tour 1 and the season preliminary, tour 2 a draft."""
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", referee="roman", referee2="rita")
    teams = [add_entry(event, n, name, "RU", category="teams") for n, name in enumerate(TEAMS, 1)]
    for number, day in ((1, 1), (2, 8)):
        Round.objects.create(event=event, stage=TOUR, number=number, starts_at=msk(day, 16))
        for team, taken in zip(teams, TOUR_QUESTIONS[number], strict=True):
            first = result_record(
                event=event, stage=TOUR, round=number, entry=team,
                cells={"questions": str(taken)}, by=people["referee"],
                idempotency_key=f"t{number}-{team.number}", now=msk(day, 18),
            )  # fmt: skip
            second_entry_record(
                result=first, cells={"questions": str(taken)}, by=people["referee2"],
                idempotency_key=f"s{number}-{team.number}", now=msk(day, 18),
            )  # fmt: skip
    org = people["organizer"]
    publication_set(event=event, stage=TOUR, round=1, state="preliminary", by=org)
    publication_set(event=event, stage=SEASON, state="preliminary", by=org)
    return event, people


def round_url(event: Any, stage: str, number: int) -> str:
    return reverse("standings:round", args=[event.slug, stage, number])


def season_rows(html: str) -> list[tuple[str, str, str]]:
    """(official place, name, score) of every season row, in order."""
    rows = re.findall(r'<tr id="row-all-\d+".*?</tr>', html, re.S)
    return [(c[0], c[3], c[4]) for c in (cells(r) for r in rows)]


def test_a_draft_tour_stays_hidden_from_the_public(chgk: Any) -> None:
    event, people = chgk
    public, referee = Client(), staff_client(people["referee"])

    tour2 = public.get(round_url(event, TOUR, 2)).content.decode()
    assert "These results are not published yet." in tour2
    assert "Alfa" not in tour2
    assert "13 q" not in text(tour2)
    staff_tour2 = referee.get(round_url(event, TOUR, 2)).content.decode()
    assert cells(row_html(staff_tour2, "all", 1))[:5] == ["1.", "1.", "1", "Alfa", "13 q"]
    assert "draft" in text(staff_tour2)

    # the stage page opens on the newest round the visitor may see, with links to every round
    opened = public.get(stage_url(event, TOUR)).content.decode()
    assert cells(row_html(opened, "all", 1))[4] == "14 q"  # tour 1
    assert f'href="{round_url(event, TOUR, 1)}"' in opened
    assert f'href="{round_url(event, TOUR, 2)}"' in opened
    assert "not published yet" in opened  # tour 2's state
    assert reverse("standings:round-table", args=[event.slug, TOUR, 1]) in opened
    staff_opened = referee.get(stage_url(event, TOUR)).content.decode()
    assert cells(row_html(staff_opened, "all", 1))[4] == "13 q"  # staff: the newest, tour 2

    # the season: the public sums the public tour only, staff every tour
    season = public.get(stage_url(event, SEASON)).content.decode()
    assert [(p, n) for p, n, _ in season_rows(season)] == [
        ("1.", "Alfa"), ("2.", "Beta"), ("3.", "Gamma"), ("4.", "Delta"), ("5.", "Epsilon"),
    ]  # fmt: skip
    assert season_rows(season)[0][2].startswith("12.000")
    season_url = stage_url(event, SEASON)
    russian = public.get(f"/ru{season_url}").content.decode()
    assert season_rows(russian)[0][2] == "12,000 очк. (14 вопр.)"
    alfa = text(why(f"/ru{season_url}", "all", 1))
    assert "Очки по турам: тур 1: 12,000 (место 1, 14 вопр.)" in alfa
    assert "Первое место: очки 12,000" in alfa  # a criterion's value, in the same sign
    translation.activate("en")
    assert "play-off" not in text(season)
    assert "only staff sees them" not in season
    staff_season = referee.get(stage_url(event, SEASON)).content.decode()
    assert [(p, n) for p, n, _ in season_rows(staff_season)] == [
        ("1.", "Alfa"),
        ("2.", "Beta"),
        ("3–4.", "Delta"),
        ("3–4.", "Gamma"),
        ("5.", "Epsilon"),
    ]  # fmt: skip (a tie is listed by name)
    assert season_rows(staff_season)[0][2].startswith("24.000")
    assert "Includes tours still in draft (only staff sees them): 2" in text(staff_season)
    assert "play-off" in marks(row_html(staff_season, "all", 3))

    # the stages list shows each tour with its state
    listing = public.get(reverse("standings:stages", args=[event.slug])).content.decode()
    tours = re.search(r'<li id="stage-chgk-tour">.*?</ul>', listing, re.S)
    assert tours
    assert f'href="{round_url(event, TOUR, 1)}"' in tours.group(0)
    assert f'href="{round_url(event, TOUR, 2)}"' not in tours.group(0)
    assert "preliminary" in text(tours.group(0))
    assert "not published yet" in text(tours.group(0))
    # publishing tour 2 brings it into the public season
    publication_set(event=event, stage=TOUR, round=2, state="preliminary", by=people["organizer"])
    season = public.get(stage_url(event, SEASON)).content.decode()
    assert season_rows(season)[2][0] == "3–4."


def season_of(make_event: Any, staff: Any, slug: str, teams: int, tours: int) -> Any:
    """A published season of ``teams`` teams (a captain each) over ``tours`` published tours,
    every result verified but team 1's in the last tour."""
    event = make_event("deti-kolomny", slug=slug, timezone="Europe/Moscow", starts_at=msk(1, 16))
    people = staff(event, organizer=f"{slug}-olga", referee=f"{slug}-rita")
    entries = Entry.objects.bulk_create(
        Entry(event=event, category="teams", number=n, name=f"Team {n}",
              status=Entry.Status.CONFIRMED)
        for n in range(1, teams + 1)
    )  # fmt: skip
    captains = Person.objects.bulk_create(
        Person(first_name="Captain", last_name=str(e.number), country="RU") for e in entries
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, captains, strict=True)
    )
    for tour in range(1, tours + 1):
        Round.objects.create(event=event, stage=TOUR, number=tour, starts_at=msk(tour, 16))
        results = Result.objects.bulk_create(
            Result(event=event, stage=TOUR, round=tour, entry=e, recorded_by=people["referee"],
                   recorded_at=msk(tour, 18), cells={"questions": str((e.number * tour) % 15)},
                   idempotency_key=f"{tour}-{e.number}")
            for e in entries
        )  # fmt: skip
        Verification.objects.bulk_create(
            Verification(result=r, verified_by=people["referee"], verified_at=msk(tour, 19))
            for r in results
            if tour < tours or r.entry_id != entries[0].pk
        )
        publication_set(
            event=event, stage=TOUR, round=tour, state="preliminary", by=people["organizer"]
        )
    publication_set(event=event, stage=SEASON, state="preliminary", by=people["organizer"])
    return event


def test_a_season_page_reads_the_database_as_often_for_many_tours_as_for_two(
    make_event: Any, staff: Any
) -> None:
    """Every tour result's team and its members are read once for all the tours; the tours'
    states and checks in one read each (a 40-tour season made 14,000 queries)."""
    small = season_of(make_event, staff, "small", teams=3, tours=2)
    large = season_of(make_event, staff, "large", teams=8, tours=6)

    def reads(event: Any) -> tuple[int, str]:
        with CaptureQueriesContext(connection) as queries:
            page = Client().get(stage_url(event, SEASON)).content.decode()
        return len(queries), page

    (few, small_page), (many, large_page) = reads(small), reads(large)
    assert few == many
    assert len(season_rows(large_page)) == 8
    assert "unverified" in marks(row_html(large_page, "all", 1))
    assert "unverified" not in marks(row_html(large_page, "all", 2))
    assert "unverified" in marks(row_html(small_page, "all", 1))


def test_rounds_that_do_not_exist_are_404(chgk: Any, cz: Any) -> None:
    event, _people = chgk
    assert Client().get(round_url(event, TOUR, 3)).status_code == 404
    assert (
        Client().get(reverse("standings:round-table", args=[event.slug, TOUR, 3])).status_code
        == 404
    )
    cz_event = cz[0]
    assert Client().get(round_url(cz_event, QUALI, 2)).status_code == 404
    assert Client().get(round_url(cz_event, QUALI, 1)).status_code == 200
