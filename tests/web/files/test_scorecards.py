"""Scorecards to print: a page per group or squad with a framed box for every value the
referee writes by hand, linked from the results desk.

Hand-worked (cz-jigsaw, individual qualification): entries #1–#6 alternate between groups A
(odd) and B (even); the table draw (seed "cards") seats #1 at table 2, #5 at 3 and #3 at 6,
so group A's page lists them in that order (by table), and group B's page #2, #4, #6.
A bowling qualifier of 12 players in 2 squads prints one page per squad with six game boxes
and a total, each player with the lane pair and lane of the first block. A ChGK season's tour
prints 15 question boxes a team.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from podium.web.draws.services import draw_make
from podium.web.models import Entry

QUALI = "individual-qualification"


def url(event: Any, stage: str, fmt: str = "pdf") -> str:
    return reverse("exports:scorecards", args=[event.slug, stage, fmt])


def pages_of(client: Client, address: str) -> list[str]:
    response = client.get(address)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return [p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_jigsaw_scorecards_have_a_page_per_group_with_boxes(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("cz-jigsaw", language="en", title="Czech Jigsaw 2026", status="closed")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    names = ["Anna Nová", "Bohdan Malý", "Hans Meier", "Dana Zelená", "Eva Malá", "Jan Dvořák"]
    for number, name in enumerate(names, start=1):
        add_entry(event, number, name, category="individuals", group="BA"[number % 2])
    draw_make(event=event, kind="tables", stage=QUALI, by=people["organizer"], seed="cards")
    tables = dict(Entry.objects.filter(event=event).values_list("number", "table_number"))

    pages = pages_of(signed_in(people["referee"]), url(event, QUALI))
    assert len(pages) == 2
    group_a, group_b = pages
    assert "Czech Jigsaw 2026 — Individuals — qualification — Scorecards" in group_a
    assert "Individuals — qualification — Group A" in group_a
    assert "Individuals — qualification — Group B" in group_b
    for header in ("Table", "No.", "Name", "Here", "Time", "Missing pieces", "Pieces placed",
                   "Competitor's initials"):  # fmt: skip
        assert header in group_a, header
    assert "Referee: ______" in group_a
    seated = sorted((tables[n], n) for n in (1, 3, 5))
    lines = [f"{table} {number} {names[number - 1]}" for table, number in seated]
    assert lines == ["2 1 Anna Nová", "3 5 Eva Malá", "6 3 Hans Meier"]  # the seed's draw
    assert [group_a.index(line) for line in lines] == sorted(group_a.index(line) for line in lines)
    assert "Bohdan Malý" in group_b
    assert "Bohdan Malý" not in group_a
    assert "page 1 of 2" in group_a
    assert "page 2 of 2" in group_b


def test_scorecards_are_for_the_events_staff_only(
    make_event: Any, staff: Any, make_user: Any
) -> None:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    assert Client().get(url(event, QUALI)).status_code == 302  # to the login
    assert signed_in(make_user("stranger")).get(url(event, QUALI)).status_code in (403, 404)
    assert signed_in(people["organizer"]).get(url(event, "no-such-stage")).status_code == 404
    index = signed_in(people["referee"]).get(reverse("results:index", args=[event.slug]))
    assert f'href="{url(event, QUALI)}"' in index.content.decode()


def test_bowling_scorecards_have_a_page_per_squad_with_game_boxes(bowling_at: Any) -> None:
    built = bowling_at(12, 2)
    pages = pages_of(signed_in(built.referee), url(built.event, "qualification"))
    assert len(pages) == 2
    for page in pages:
        for header in ("Lanes", "Lane", "Game 1", "Game 6", "Total"):
            assert header in page, header
    index = signed_in(built.referee).get(reverse("bowling:index", args=[built.event.slug]))
    assert f'href="{url(built.event, "qualification")}"' in index.content.decode()


def test_a_chgk_tour_sheet_has_a_box_per_question(club_at: Any) -> None:
    built = club_at(12, 2, 1)
    pages = pages_of(signed_in(built.referee), url(built.event, "chgk-tour"))
    text = "\n".join(pages)
    assert "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 Total" in text


def scorecard_pages(built: Any) -> dict[str, tuple[Any, str]]:
    return {"scorecards": (built.referee, url(built.event, QUALI))}


@pytest.mark.django_db
def test_scorecards_read_as_much_for_60_entrants_as_for_12(jigsaw_at: Any, queries_at: Any) -> None:
    counts = queries_at(jigsaw_at(12, 1), jigsaw_at(60, 1), scorecard_pages)
    assert counts["scorecards"][0] == counts["scorecards"][1], counts


def squad_pages(built: Any) -> dict[str, tuple[Any, str]]:
    return {"scorecards": (built.referee, url(built.event, "qualification"))}


@pytest.mark.django_db
def test_bowling_scorecards_read_as_much_for_30_players_in_4_squads_as_for_12_in_2(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(30, 4), squad_pages)
    assert counts["scorecards"][0] == counts["scorecards"][1], counts
