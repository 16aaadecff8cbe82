"""Public live standings pages: content, the "why" of a row in the visitor's language, who sees
a draft, the "→ next by quota" mark, battles' rows, and what staff see of rows that cannot be
ranked. Rounds, tables as they stood, and the table on the wire have modules of their own
(``test_standings_rounds``, ``test_standings_history``, ``test_standings_cache``).

Hand-worked (cz-jigsaw, individual qualification, group A; finishers by time, equal times share
places; only CZ entrants take official places):
- #3 Hans Meier (DE) 1:00:00, #2 Bohdan Malý 1:05:00, #1 Anna Nová and #4 Dana Zelená 1:10:00.
- Overall positions 1, 2, 3–4, 3–4; official places —, 1, 2–3, 2–3. Everybody advances (the
  quotas are 50 Czech + 5 foreign per group); Hans is outside the competition.

Hand-worked (cba-qualifier, Master women advance 1–2): Eva 6 × 200 = 1200, Ivana 6 × 190 =
1140, Jana 6 × 180 = 1080, Klára 6 × 170 = 1020. Eva and Ivana advance; Jana, the first below
the cut, is "→ next by quota"; Klára is not.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from podium.web.models import Entry, EntryMember, Person, Result
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
FINAL = "individual-final"


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
