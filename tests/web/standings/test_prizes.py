"""The prizes page: who wins which prize place, per stage that awards prizes.

Hand-worked (cz-jigsaw, individual final; prizes for places 1–3, Czech entrants only):
- #1 Anna Nová (CZ) 1:00:00, #2 Hans Meier (DE) 1:02:00, #3 Bohdan Malý (CZ) 1:03:00,
  #4 Cyril Dvořák (CZ) 1:04:00, #5 Dana Zelená (CZ) 1:05:00.
- Overall positions 1–5; official places Anna 1, Bohdan 2, Cyril 3, Dana 4. Prizes: Anna (1),
  Bohdan (2), Cyril (3); Hans, 2nd overall, is shown but gets none (outside the competition);
  Dana is below the prize places and not listed.

Hand-worked (it-puzzle-party; the first 3 pairs, whoever they are): #4 Rossi/Bianchi 0:50:00,
#2 Dubois/Martin (FR) 0:55:00, #1 Verdi/Neri 1:00:00, #3 Russo/Gallo 1:05:00 → prizes for #4,
#2 (a foreign pair wins too) and #1.

Hand-worked (deti-kolomny, ChGK season; points 12, 10, 8, 7, 6): tour 1 Alfa 14, Beta 12,
Gamma 10, Delta 8, Epsilon 5 questions; tour 2 Alfa 13, Beta 11, Delta 10, Gamma 9, Epsilon 3.
Season: Alfa 24, Beta 20, Gamma 15, Delta 15, Epsilon 12. Gamma and Delta tie for places 3–4
on points, and a tie for a prize place goes to a play-off: "play-off pending: places 3–4
between Delta, Gamma"; Alfa and Beta win places 1 and 2, nobody wins 3rd yet.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import Round
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

FINAL = "individual-final"


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def section(html: str, stage: str) -> str:
    found = re.search(rf'<section class="prize-stage" id="stage-{stage}">.*?</section>', html, re.S)
    assert found, f"no prizes section for {stage}"
    return found.group(0)


def prize_rows(html: str) -> list[tuple[str, str, str, str]]:
    """(place, number, name, award) of every row listed, in order."""
    rows = []
    for row in re.findall(r'<tr id="prize-[^"]*".*?</tr>', html, re.S):
        got = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows.append((got[0], got[2], got[3], got[5]))
    return rows


def prizes_url(event: Any) -> str:
    return reverse("prizes:index", args=[event.slug])


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    finishers = (
        (1, "Anna Nová", "CZ", "1:00:00"), (2, "Hans Meier", "DE", "1:02:00"),
        (3, "Bohdan Malý", "CZ", "1:03:00"), (4, "Cyril Dvořák", "CZ", "1:04:00"),
        (5, "Dana Zelená", "CZ", "1:05:00"),
    )  # fmt: skip
    for number, name, country, time in finishers:
        made = add_entry(event, number, name, country, category="individuals")
        put_in_stage(event, FINAL, made)
        done = result_record(
            event=event, stage=FINAL, entry=made, cells={"time": time}, by=people["referee"],
            idempotency_key=f"f{number}",
        )  # fmt: skip
        result_confirm(result=done, by=people["head"])
    return event, people


def test_czech_prizes_skip_the_foreigner(cz: Any) -> None:
    event, people = cz
    public, referee = Client(), Client()
    referee.force_login(people["referee"])

    html = section(public.get(prizes_url(event)).content.decode(), FINAL)
    assert "These results are not published yet." in html
    assert "Anna" not in html
    staff_html = section(referee.get(prizes_url(event)).content.decode(), FINAL)
    assert "not published" in text(staff_html)
    assert prize_rows(staff_html)[0][2] == "Anna Nová"

    publication_set(event=event, stage=FINAL, state="preliminary", by=people["organizer"])
    html = section(public.get(prizes_url(event)).content.decode(), FINAL)
    assert "preliminary" in text(html)
    rows = prize_rows(html)
    assert [(place, number, name) for place, number, name, _ in rows] == [
        ("1.", "1", "Anna Nová"), ("—", "2", "Hans Meier"), ("2.", "3", "Bohdan Malý"),
        ("3.", "4", "Cyril Dvořák"),
    ]  # fmt: skip
    assert rows[0][3] == "prize for place 1"
    assert rows[2][3] == "prize for place 2"
    assert rows[3][3] == "prize for place 3"
    hans = rows[1][3]
    assert hans.startswith("no prize: outside the competition")
    assert "Outside the competition: registered in DE, not CZ" in hans
    assert "platí pouze pro účastníky z České republiky" in html  # the prize clause
    assert "Only entrants in the official order win a prize." in text(html)
    assert "Dana" not in html  # 4th official place: no prize, not listed

    publication_set(event=event, stage=FINAL, state="final", by=people["organizer"])
    html = section(public.get(prizes_url(event)).content.decode(), FINAL)
    assert "version 1, as of" in text(html)
    assert [r[2] for r in prize_rows(html)] == [
        "Anna Nová", "Hans Meier", "Bohdan Malý", "Cyril Dvořák",
    ]  # fmt: skip
    assert [r[3] for r in prize_rows(html)][2] == "prize for place 2"

    # linked from the event's tabs and from the standings
    event_page = public.get(reverse("event", args=[event.slug])).content.decode()
    assert f'href="{prizes_url(event)}"' in event_page
    standings = public.get(reverse("standings:stage", args=[event.slug, FINAL])).content.decode()
    assert f'href="{prizes_url(event)}#stage-{FINAL}"' in standings


def test_the_first_three_pairs_win_whoever_they_are(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("it-puzzle-party", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    pairs = (
        (1, "Verdi/Neri", "IT/IT", "1:00:00"), (2, "Dubois/Martin", "FR/FR", "0:55:00"),
        (3, "Russo/Gallo", "IT/IT", "1:05:00"), (4, "Rossi/Bianchi", "IT/IT", "0:50:00"),
    )  # fmt: skip
    for number, name, countries, time in pairs:
        made = add_entry(event, number, name, countries, category="pairs")
        done = result_record(
            event=event, stage="pairs", entry=made, cells={"time": time}, by=people["referee"],
            idempotency_key=f"p{number}",
        )  # fmt: skip
        result_confirm(result=done, by=people["head"])
    publication_set(event=event, stage="pairs", state="preliminary", by=people["organizer"])
    html = section(Client().get(prizes_url(event)).content.decode(), "pairs")
    assert prize_rows(html) == [
        ("1.", "4", "Rossi/Bianchi", "prize for place 1"),
        ("2.", "2", "Dubois/Martin", "prize for place 2"),
        ("3.", "1", "Verdi/Neri", "prize for place 3"),
    ]
    assert "Verranno premiate le prime 3 coppie classificate." in html


def msk(day: int, h: int) -> dt.datetime:
    return dt.datetime(2026, 11, day, h, 0, tzinfo=dt.UTC)


def test_a_tie_for_a_prize_place_waits_for_its_play_off(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("deti-kolomny", language="en")
    people = staff(event, organizer="ilya", referee="roman", referee2="rita")
    names = ("Alfa", "Beta", "Gamma", "Delta", "Epsilon")
    teams = [add_entry(event, n, name, "RU", category="teams") for n, name in enumerate(names, 1)]
    questions = {1: (14, 12, 10, 8, 5), 2: (13, 11, 9, 10, 3)}
    for tour, day in ((1, 1), (2, 8)):
        Round.objects.create(event=event, stage="chgk-tour", number=tour, starts_at=msk(day, 16))
        for team, taken in zip(teams, questions[tour], strict=True):
            first = result_record(
                event=event, stage="chgk-tour", round=tour, entry=team,
                cells={"questions": str(taken)}, by=people["referee"],
                idempotency_key=f"t{tour}-{team.number}", now=msk(day, 18),
            )  # fmt: skip
            second_entry_record(
                result=first, cells={"questions": str(taken)}, by=people["referee2"],
                idempotency_key=f"s{tour}-{team.number}", now=msk(day, 18),
            )  # fmt: skip
        publication_set(
            event=event, stage="chgk-tour", round=tour, state="preliminary",
            by=people["organizer"],
        )  # fmt: skip
    publication_set(event=event, stage="chgk-season", state="preliminary", by=people["organizer"])

    html = section(Client().get(prizes_url(event)).content.decode(), "chgk-season")
    assert "Play-off pending: places 3–4 between Delta, Gamma." in text(html)
    assert "No prize is awarded for these places until it is played." in html
    assert "дополнительный матч из 6 вопросов" in html  # the play-off clause
    assert prize_rows(html) == [
        ("1.", "1", "Alfa", "prize for place 1"),
        ("2.", "2", "Beta", "prize for place 2"),
        ("3–4.", "4", "Delta", "play-off pending"),
        ("3–4.", "3", "Gamma", "play-off pending"),
    ]
    assert "prize for place 3" not in text(html)
    # the tours themselves award no prizes; only the season is listed
    assert 'id="stage-chgk-tour"' not in Client().get(prizes_url(event)).content.decode()


def test_a_rulebook_without_prizes_says_so(make_event: Any) -> None:
    event = make_event("cba-qualifier", language="en")
    html = Client().get(prizes_url(event)).content.decode()
    assert "This rulebook awards no prizes." in html
    assert (
        f'href="{prizes_url(event)}"'
        not in Client().get(reverse("event", args=[event.slug])).content.decode()
    )
    assert Client().get(reverse("prizes:index", args=["no-such-event"])).status_code == 404
