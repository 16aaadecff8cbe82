"""Public live standings pages: content, who sees a draft, rounds, the frozen final table on the
live page, the "→ next by quota" mark, and the table fragment's ETag/304 with its cache.

Hand-worked (cz-jigsaw, individual qualification, group A; finishers by time, equal times share
places; only CZ entrants take official places):
- #3 Hans Meier (DE) 1:00:00, #2 Bohdan Malý 1:05:00, #1 Anna Nová and #4 Dana Zelená 1:10:00.
- Overall positions 1, 2, 3–4, 3–4; official places —, 1, 2–3, 2–3. Everybody advances (the
  quotas are 50 Czech + 5 foreign per group); Hans is outside the competition.

Hand-worked (deti-kolomny, ChGK; points 12, 10, 8, 7, 6 for places 1–5):
- Tour 1 (preliminary): Alfa 14, Beta 12, Gamma 10, Delta 8, Epsilon 5 questions →
  12, 10, 8, 7, 6 points.
- Tour 2 (draft): Alfa 13, Beta 11, Delta 10, Gamma 9, Epsilon 3 → Alfa 12, Beta 10, Delta 8,
  Gamma 7, Epsilon 6.
- The public season sums tour 1 only: Alfa 12, Beta 10, Gamma 8, Delta 7, Epsilon 6 (places
  1–5). Staff see both tours: Alfa 24, Beta 20, Gamma 15, Delta 15 (tied 3–4: a prize place,
  so a play-off), Epsilon 12.

Hand-worked (cba-qualifier, Master women advance 1–2): Eva 6 × 200 = 1200, Ivana 6 × 190 =
1140, Jana 6 × 180 = 1080, Klára 6 × 170 = 1020. Eva and Ivana advance; Jana, the first below
the cut, is "→ next by quota"; Klára is not.

Hand-worked (cz-jigsaw, individual final): Bohdan 1:05:00 before Anna 1:10:00 in version 1;
after a reopen Anna is corrected to 1:00:00, so version 2 lists Anna first and version 1 still
lists Bohdan first.
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

from podium.web.live import versions
from podium.web.models import (
    Entry,
    EntryMember,
    EventRole,
    Person,
    Result,
    Round,
    Verification,
)
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.checks import second_entry_record
from podium.web.results.services.clock import round_start
from podium.web.results.services.results import result_correct, result_record
from podium.web.standings.selectors import live as live_selectors
from podium.web.standings.services.advancement import advance_from
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def entry(event: Any, number: int, name: str, country: str = "CZ", group: str = "A") -> Entry:
    made = Entry.objects.create(
        event=event,
        number=number,
        name=name,
        status=Entry.Status.CONFIRMED,
        category="individuals",
        group=group,
    )
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last, country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def record(event: Any, who: Entry, time: str, by: Any, minute: int) -> Any:
    return result_record(
        event=event, stage=QUALI, entry=who, cells={"time": time}, by=by,
        idempotency_key=f"k{who.number}", now=at(10, minute),
    )  # fmt: skip


@pytest.fixture
def cz(make_user: Any, make_event: Any) -> Any:
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org, language="en")
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    return event, org, ref1, ref2


def staff_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stage_url(event: Any, stage: str = QUALI) -> str:
    return reverse("standings:stage", args=[event.slug, stage])


def table_url(event: Any, stage: str = QUALI) -> str:
    return reverse("standings:table", args=[event.slug, stage])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def row_html(html: str, table: str, number: int) -> str:
    found = re.search(rf'<tr id="row-{table}-{number}".*?</tr>', html, re.S)
    assert found, f"no row {number} in table {table}"
    return found.group(0)


def why(url: str, table: str, number: int, client: Client | None = None) -> str:
    """A row's "why" as the page's script fetches it (the name links to it)."""
    response = (client or Client()).get(f"{url}?why={table}.{number}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200, f"no why for row {number} of table {table}"
    return response.content.decode()


def cells(row: str) -> list[str]:
    return [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def marks(row: str) -> str:
    """The text of the row's marks (its last cell)."""
    return cells(row)[-1]


def test_stage_page_shows_places_marks_reasons_and_unverified(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    hans, dana = entry(event, 3, "Hans Meier", "DE"), entry(event, 4, "Dana Zelená")
    record(event, anna, "1:10:00", ref1, 0)
    record(event, bohdan, "1:05:00", ref1, 1)
    hans_result = record(event, hans, "1:00:00", ref1, 2)
    record(event, dana, "1:10:00", ref1, 3)
    result_verify(result=hans_result, by=ref2)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)

    response = Client().get(stage_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Individuals — qualification — group A" in html
    assert "preliminary" in text(html)
    order = [int(n) for n in re.findall(r'<tr id="row-A-(\d+)"', html)]
    assert order == [3, 2, 1, 4]
    # official place, position, number, name, score, marks (the "why" cell follows)
    hans_cells = cells(row_html(html, "A", 3))
    assert hans_cells[:5] == ["—", "1.", "3", "Hans Meier", "1:00:00"]
    assert "✓ advances" in hans_cells[5]
    assert "outside the competition" in hans_cells[5]
    assert "unverified" not in hans_cells[5]  # verified by a second referee
    assert cells(row_html(html, "A", 2))[:5] == ["1.", "2.", "2", "Bohdan Malý", "1:05:00"]
    anna_cells = cells(row_html(html, "A", 1))
    assert anna_cells[:5] == ["2–3.", "3–4.", "1", "Anna Nová", "1:10:00"]
    assert "outside the competition" not in anna_cells[5]
    assert "unverified" in anna_cells[5]
    assert cells(row_html(html, "A", 4))[:2] == ["2–3.", "3–4."]  # the tie
    # every name links to its row's "why", fetched when opened, with its clauses
    assert html.count('<td><a href="?why=A.') == 4
    assert 'href="?why=A.1">Anna Nová</a>' in row_html(html, "A", 1)
    anna_why = why(stage_url(event), "A", 1)
    assert "Shares places 3rd–4th: equal on finish, time, pieces placed" in anna_why
    assert "Below Bohdan Malý on time: 1:10:00 against 1:05:00" in anna_why
    assert "Výsledné skóre se určuje podle počtu složených dílků a času dokončení." in anna_why
    assert "<html" not in anna_why  # the fragment the page's script shows under the row
    hans_why = why(stage_url(event), "A", 3)
    assert "Outside the competition: registered in DE, not CZ" in hans_why
    assert "O titul Czech Jigsaw Puzzle Champion" in hans_why
    # without JavaScript the link opens the reasons as a page, with the way back to the row
    page = Client().get(f"{stage_url(event)}?why=A.3").content.decode()
    assert "<html" in page
    assert "Outside the competition: registered in DE, not CZ" in page
    assert f'href="{stage_url(event)}#row-A-3"' in page
    assert Client().get(f"{stage_url(event)}?why=A.99").status_code == 404
    # the table polls its fragment
    assert f'hx-get="{table_url(event)}"' in html
    assert 'hx-trigger="every 3s"' in html
    assert 'hx-swap="outerHTML"' in html


@pytest.mark.parametrize(
    ("language", "hans", "anna"),
    [
        (
            "cs",
            ["Mimo soutěž: země registrace DE, nikoli CZ", "První: ukončeno, čas 1:00:00",
             "Postupuje: 1. místo z 5 (zahraniční účastníci ve skupině A)"],
            ["Níže než Bohdan Malý (čas): 1:10:00 oproti 1:05:00",
             "Dělí se o 3.–4. místo: shoda v kritériích dokončení, čas, umístěné dílky",
             "Postupuje: 2.–3. místo z 50 (čeští účastníci ve skupině A)"],
        ),
        (
            "it",
            ["Fuori gara: registrazione in DE, non in CZ", "In testa: concluso, tempo 1:00:00",
             "Si qualifica: 1° dei 5 posti per partecipanti stranieri nel gruppo A"],
            ["Dietro a Bohdan Malý per tempo: 1:10:00 contro 1:05:00",
             "Condivide i posti 3°–4°: a parità di completamento, tempo, pezzi posizionati",
             "Si qualifica: 2°–3° dei 50 posti per partecipanti cechi nel gruppo A"],
        ),
        (
            "ru",
            ["Вне зачёта: зарегистрированный адрес — DE, а не CZ",
             "Первое место: завершено, время 1:00:00",
             "Проходит: 1-е место из 5 по квоте (иностранные участники, группа A)"],
            ["Ниже, чем Bohdan Malý: время — 1:10:00 против 1:05:00",
             "Делит 3–4-е места: равенство по критериям (финиш, время, уложенные детали)",
             "Проходит: 2–3-е место из 50 по квоте (чешские участники, группа A)"],
        ),
    ],
)  # fmt: skip
def test_the_why_reads_in_the_visitors_language(
    cz: Any, language: str, hans: list[str], anna: list[str]
) -> None:
    """The engine's explanations of the hand-worked table, in each language; the clauses stay
    in the rulebook's own language."""
    event, org, ref1, _ref2 = cz
    people = [
        ("Anna Nová", "CZ"),
        ("Bohdan Malý", "CZ"),
        ("Hans Meier", "DE"),
        ("Dana Zelená", "CZ"),
    ]
    times = ["1:10:00", "1:05:00", "1:00:00", "1:10:00"]
    for number, ((name, country), time) in enumerate(zip(people, times, strict=True), 1):
        record(event, entry(event, number, name, country), time, ref1, number)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    url = stage_url(event)
    for sentence in hans:
        assert sentence in text(why(f"/{language}{url}", "A", 3))
    anna_why = why(f"/{language}{url}", "A", 1)
    for sentence in anna:
        assert sentence in text(anna_why)
    assert "Výsledné skóre se určuje podle počtu složených dílků" in anna_why
    assert "Shares places" not in anna_why
    # English readers get their own rendering, not the last language's.
    english = why(url, "A", 1)
    assert "Shares places 3rd–4th: equal on finish, time, pieces placed" in english


def test_stages_list_links_published_stages(cz: Any) -> None:
    event, org, ref1, _ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    html = Client().get(reverse("standings:stages", args=[event.slug])).content.decode()
    assert f'href="{stage_url(event)}"' in html  # published
    assert f'href="{stage_url(event, "individual-final")}"' not in html  # still a draft
    assert "Individuals — final" in html
    assert "not published yet" in html
    staff_html = staff_client(ref1).get(reverse("standings:stages", args=[event.slug]))
    assert f'href="{stage_url(event, "individual-final")}"' in staff_html.content.decode()
    # the event's tabs lead here
    event_page = Client().get(reverse("event", args=[event.slug])).content.decode()
    assert f'href="{reverse("standings:stages", args=[event.slug])}"' in event_page


def test_draft_is_hidden_from_the_public_but_shown_to_staff(cz: Any, make_user: Any) -> None:
    event, _org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    for client in (Client(), staff_client(make_user("stranger"))):
        for url in (stage_url(event), table_url(event)):
            html = client.get(url).content.decode()
            assert "Anna Nová" not in html
            assert "not published yet" in html
    for url in (stage_url(event), table_url(event)):
        html = staff_client(ref1).get(url).content.decode()
        assert "Anna Nová" in html
        assert "draft" in html


def test_empty_state_and_unknown_stage(cz: Any) -> None:
    event, org, _ref1, _ref2 = cz
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    html = Client().get(stage_url(event)).content.decode()
    assert "No results yet" in html
    assert "<table" not in html
    assert Client().get(stage_url(event, "no-such-stage")).status_code == 404
    assert Client().get(reverse("standings:stages", args=["no-such-event"])).status_code == 404


def test_table_fragment_answers_304_until_something_changes(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    first = record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()

    response = client.get(table_url(event))
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    etag = response["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert response.content.decode().startswith('<section id="standings"')  # a fragment
    assert "<html" not in response.content.decode()

    again = client.get(table_url(event), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "no-cache" in again["Cache-Control"]

    record(event, bohdan, "1:05:00", ref1, 1)  # a new result
    changed = client.get(table_url(event), headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "Bohdan Malý" in changed.content.decode()
    etag2 = changed["ETag"]
    assert client.get(table_url(event), headers={"If-None-Match": etag2}).status_code == 304

    result_verify(result=first, by=ref2)  # a verification changes it too
    verified = client.get(table_url(event), headers={"If-None-Match": etag2})
    assert verified.status_code == 200
    assert verified["ETag"] not in (etag, etag2)

    # staff and the public get different tags (a draft looks different to them)
    staff = staff_client(ref1).get(table_url(event))
    assert staff["ETag"] != verified["ETag"]


# --- rounds: ChGK tours and the season summed from them -----------------------------------------

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


# --- the frozen final table on the live page ------------------------------------------------------

FINAL = "individual-final"


def test_the_live_page_shows_the_frozen_final_table_and_keeps_old_versions(
    cz: Any, put_in_stage: Any
) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    put_in_stage(event, FINAL, anna, bohdan)
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="a",
    )  # fmt: skip
    b = result_record(
        event=event, stage=FINAL, entry=bohdan, cells={"time": "1:05:00"}, by=ref1,
        idempotency_key="b",
    )  # fmt: skip
    result_verify(result=a, by=ref2)
    result_verify(result=b, by=ref2)
    publication_set(event=event, stage=FINAL, state="preliminary", by=org)
    publication_set(event=event, stage=FINAL, state="final", by=org)
    # a later change of an entry's name shows that the page reads the frozen table
    Entry.objects.filter(pk=bohdan.pk).update(name="Bohdan Renamed")

    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert re.search(r"final\s*</span>\s*<span class=\"frozen\">version 1, as of ", html)
    order = [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)]
    assert order == [2, 1]
    assert cells(row_html(html, "all", 2))[:5] == ["1.", "1.", "2", "Bohdan Malý", "1:05:00"]
    assert "Bohdan Renamed" not in html
    assert "First: finished, time 1:05:00" in why(stage_url(event, FINAL), "all", 2)
    version1 = reverse("standings:version", args=[event.slug, FINAL, 1, 1])
    assert f'href="{version1}"' in html

    # reopened with a reason: the live table again (preliminary), version 1 still reachable
    publication_set(event=event, stage=FINAL, state="preliminary", by=org, reason="appeal won")
    current = result_correct(
        result=a, cells={"time": "1:00:00"}, by=ref1, reason="clock misread",
        idempotency_key="fix",
    )  # fmt: skip
    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert "preliminary" in text(html)
    assert "frozen" not in html
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)] == [1, 2]
    assert "Bohdan Renamed" in html
    assert "unverified" in marks(row_html(html, "all", 1))
    assert f'href="{version1}"' in html
    old = Client().get(version1).content.decode()
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', old)] == [2, 1]
    assert "1:10:00" in cells(row_html(old, "all", 1))[4]

    result_verify(result=current, by=ref2)
    publication_set(event=event, stage=FINAL, state="final", by=org, reason="corrected")
    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert "version 2, as of" in html
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)] == [1, 2]
    assert f'href="{version1}"' in html
    assert f'href="{reverse("standings:version", args=[event.slug, FINAL, 1, 2])}"' in html
    assert Client().get(version1).status_code == 200
    missing = reverse("standings:version", args=[event.slug, FINAL, 1, 3])
    assert Client().get(missing).status_code == 404


# --- "→ next by quota" ----------------------------------------------------------------------------


@pytest.fixture
def bowling(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cba-qualifier", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="hana")
    games = (("Eva", 200), ("Ivana", 190), ("Jana", 180), ("Klára", 170))
    for number, (name, pins) in enumerate(games, 1):
        player = add_entry(event, number, name, "CZ")
        Person.objects.filter(memberships__entry=player).update(
            gender="F", ladder_average=180, birth_date=dt.date(1980, 1, 1)
        )
        done = result_record(
            event=event, stage="qualification", entry=player,
            cells={f"g{i}": str(pins) for i in range(1, 7)}, by=people["referee"],
            idempotency_key=f"g{number}", now=dt.datetime(2026, 11, 1, 10, number, tzinfo=dt.UTC),
        )  # fmt: skip
        result_verify(result=done, by=people["head"])
    publication_set(event=event, stage="qualification", state="preliminary", by=people["organizer"])
    return event, people


def women(html: str, number: int) -> str:
    return marks(row_html(html, "master-women", number))


def test_the_first_below_the_cut_is_next_by_quota(bowling: Any) -> None:
    event, people = bowling
    html = Client().get(stage_url(event, "qualification")).content.decode()
    assert [c[:5] for c in (cells(row_html(html, "master-women", n)) for n in (1, 3))] == [
        ["1.", "1.", "1", "Eva", "1200 (200 high)"],
        ["3.", "3.", "3", "Jana", "1080 (180 high)"],
    ]
    assert "✓ advances" in women(html, 1)
    assert "✓ advances" in women(html, 2)
    assert "→ next by quota" in women(html, 3)
    assert "✓ advances" not in women(html, 3)
    assert "→ next" not in women(html, 4)
    assert "→ next" not in women(html, 2)
    assert "Does not advance: 3rd for Master women" in why(
        stage_url(event, "qualification"), "master-women", 3
    )

    # the frozen final table carries the same marks
    publication_set(event=event, stage="qualification", state="final", by=people["organizer"])
    html = Client().get(stage_url(event, "qualification")).content.decode()
    assert "version 1, as of" in html
    assert "→ next by quota" in women(html, 3)
    assert "→ next" not in women(html, 4)
    assert "✓ advances" in women(html, 2)
    # The frozen table reads in Czech too, the quota's label included.
    url = stage_url(event, "qualification")
    czech = text(Client().get(f"/cs{url}").content.decode())
    assert "1200 (nejvyšší 200)" in czech
    czech_why = text(why(f"/cs{url}", "master-women", 3))
    assert "Nepostupuje: 3. místo (Master — ženy), postupových míst: 2" in czech_why
    translation.activate("en")


# --- the version tag: clocks, advancements, and the cache -----------------------------------------


def test_a_clock_start_changes_the_tag_and_shows_the_clock(cz: Any) -> None:
    event, org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()
    first = client.get(table_url(event))
    assert first.status_code == 200
    assert "data-clock" not in first.content.decode()  # no clock has started
    etag = first["ETag"]
    assert client.get(table_url(event), headers={"If-None-Match": etag}).status_code == 304

    round_start(event=event, stage=QUALI, group="B", by=org)
    started = client.get(table_url(event), headers={"If-None-Match": etag})
    assert started.status_code == 200
    assert started["ETag"] != etag
    html = started.content.decode()
    assert html.count("data-clock") == 2  # both groups' clocks, B running
    assert "clock-running" in html
    assert (
        client.get(table_url(event), headers={"If-None-Match": started["ETag"]}).status_code == 304
    )
    # the stage page shows the clocks too
    assert "data-clock" in client.get(stage_url(event)).content.decode()


def test_an_advancement_into_the_stage_changes_its_tag(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    result_verify(result=record(event, anna, "1:10:00", ref1, 0), by=ref2)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    publication_set(event=event, stage=QUALI, state="final", by=org)
    final = event.rulebook.stage(FINAL)
    before = versions.stage_tag(event.slug, final)
    assert versions.stage_tag(event.slug, final) == before  # stable while nothing changes
    advance_from(event=event, stage=QUALI, by=org)
    assert versions.stage_tag(event.slug, final) != before


def test_a_changed_table_is_rendered_once_for_many_viewers(cz: Any, monkeypatch: Any) -> None:
    event, org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    computed: list[int] = []
    real = live_selectors.round_tables

    def counting(*args: Any, **kwargs: Any) -> Any:
        computed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(live_selectors, "round_tables", counting)
    pages = [Client().get(table_url(event)).content.decode() for _ in range(3)]
    assert len(computed) == 1
    assert all("Anna Nová" in page for page in pages)
    record(event, entry(event, 2, "Bohdan Malý"), "1:05:00", ref1, 1)
    pages = [Client().get(table_url(event)).content.decode() for _ in range(3)]
    assert len(computed) == 2
    assert all("Bohdan Malý" in page for page in pages)
    # Opening rows' "why" reads their shelves: nothing computed again.
    assert "Below Bohdan Malý" in why(stage_url(event), "A", 1)
    assert "First: finished, time 1:05:00" in why(stage_url(event), "A", 2)
    assert len(computed) == 2


# --- battles: teams named by label, shown with their entry numbers --------------------------------


def test_brainball_rows_show_entry_numbers(make_event: Any, staff: Any, add_entry: Any) -> None:
    from podium.web.results.selectors.rows import battle_item

    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", referee="roman")
    add_entry(event, 7, "Alfa", "RU", category="teams")
    add_entry(event, 9, "Beta", "RU", category="teams")
    result_record(
        event=event, stage="brainball", item=battle_item(1, 7, 9),
        cells={"round": "1", "team1": "7", "team2": "9", "score1": "4", "score2": "2"},
        by=people["referee"], idempotency_key="b1",
    )  # fmt: skip
    publication_set(event=event, stage="brainball", state="preliminary", by=people["organizer"])
    html = Client().get(stage_url(event, "brainball")).content.decode()
    alfa = cells(row_html(html, "all", 7))
    assert alfa[:4] == ["1.", "1.", "7", "Alfa"]
    assert "unverified" in marks(row_html(html, "all", 7))  # its battle: unverified
    assert cells(row_html(html, "all", 9))[:4] == ["2.", "2.", "9", "Beta"]
    # DESIGN §3: the row stands on its match points (2 a win, 0 a loss), in the points column.
    assert alfa[4:6] == ["2 pts (1–0–0, 4:2)", "2"]
    assert cells(row_html(html, "all", 9))[4:6] == ["0 pts (0–0–1, 2:4)", "0"]


def test_staff_see_why_recorded_results_do_not_rank(cz: Any) -> None:
    """A row the engine cannot read (here written past the services) keeps the table from
    ranking: staff see the problem, the public sees no table and no problem."""
    event, org, ref1, _ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    Result.objects.create(
        event=event, stage=QUALI, entry=anna, cells={"time": "9:99", "missing": "", "pieces": ""},
        recorded_by=ref1, recorded_at=at(10, 0), idempotency_key="raw",
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    staff = text(staff_client(org).get(stage_url(event)).content.decode())
    assert "These recorded results cannot be ranked yet (only staff sees this):" in staff
    assert "row 1, column time: &#x27;9:99&#x27; is not a time: write H:MM:SS or M:SS" in staff
    public = text(Client().get(stage_url(event)).content.decode())
    assert "cannot be ranked" not in public
    assert "9:99" not in public


def test_staff_see_a_table_as_it_stood_at_a_past_moment(cz: Any) -> None:
    """Anna 1:10:00 at 10:00, corrected to 1:02:00 at 10:10: as of 10:05 (Prague) the table
    shows 1:10:00, now 1:02:00; a visitor's ``as_of`` is not honoured."""
    event, org, ref1, ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    first = record(event, anna, "1:10:00", ref1, 0)
    result_correct(
        result=first, cells={"time": "1:02:00"}, by=ref2, reason="misread the clock",
        idempotency_key="c", now=at(10, 10),
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    moment = at(10, 5).astimezone(event.zone).strftime("%Y-%m-%dT%H:%M")
    then = text(staff_client(org).get(stage_url(event), {"as_of": moment}).content.decode())
    assert "As it stood on" in then
    assert "1:10:00" in then
    assert "1:02:00" not in then
    now = text(staff_client(org).get(stage_url(event)).content.decode())
    assert "1:02:00" in now
    public = text(Client().get(stage_url(event), {"as_of": moment}).content.decode())
    assert "As it stood on" not in public
    assert "1:02:00" in public


# --- a large table stays small on the wire ------------------------------------------------------


def test_a_2000_row_page_is_small_and_compressed(cz: Any) -> None:
    """2,000 entrants in groups A and B (a tenth from abroad, names of 10 to 25 letters): the
    page lists every row, each name linking to its "why", in at most 400 KB of HTML — a few
    times less compressed."""
    import gzip

    event, org, ref1, _ref2 = cz
    first = ["Jan", "Kateřina", "Bohumil", "Anna", "Jindřiška", "Vojtěch", "Eva", "Přemysl"]
    last = ["Novák", "Dvořáková", "Svoboda", "Procházková", "Kučera", "Veselá", "Nejedlý"]
    names = [(first[n % 8], last[n % 7] + ("-Horáková" if n % 5 == 0 else "")) for n in range(2001)]
    entries = Entry.objects.bulk_create(
        Entry(
            event=event,
            number=n,
            name=" ".join(names[n]),
            category="individuals",
            status=Entry.Status.CONFIRMED,
            group="AB"[n % 2],
        )
        for n in range(1, 2001)
    )
    people = Person.objects.bulk_create(
        Person(
            first_name=names[e.number][0],
            last_name=names[e.number][1],
            country="DE" if e.number % 10 == 0 else "CZ",
        )
        for e in entries
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, people, strict=True)
    )
    Result.objects.bulk_create(
        Result(
            event=event,
            stage=QUALI,
            entry=e,
            recorded_by=ref1,
            recorded_at=at(10, 0),
            cells={"time": f"1:{e.number % 30:02d}:{e.number * 7 % 60:02d}"}
            if e.number % 9
            else {"time": "", "pieces": str(300 + e.number % 200)},
            idempotency_key=f"b{e.number}",
        )
        for e in entries
    )
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)

    page = Client().get(stage_url(event), headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(page.content)
    assert html.count(b'<tr id="row-') == 2000
    assert html.count(b'href="?why=') == 2000
    assert len(html) <= 400_000, len(html)
    assert len(page.content) * 4 < len(html)  # compressed
    fragment = Client().get(table_url(event))
    assert len(fragment.content) <= 400_000
