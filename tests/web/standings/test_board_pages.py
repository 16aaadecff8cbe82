"""The round board: per stage and round, results in / expected, unconfirmed by who recorded them,
mismatches, open appeals and protests, the publication state and the next step as a link; live
by its version tag (304 while nothing changed); as many queries for a large event as a small one.

Hand-worked (cz-jigsaw, individual final of four): Rudolf recorded #1 and #2, Renata (head
referee) #3; #4 has no result. The final's line: "3 of 4" in, 3 unconfirmed ("2 by rudolf,
1 by renata"), next "Record 1 missing result". Once #4 is in and everything confirmed: next
"Publish the preliminary results", a link for the organizer and words for a head referee.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.results.services.confirmations import round_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.selectors.board import board

FINAL = "individual-final"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any, put_in_stage: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf", head="renata", head2="hana")
    names = ("Anna Nová", "Bohdan Malý", "Cyril Dvořák", "Dana Krátká")
    entries = [add_entry(event, n, name, category="individuals") for n, name in enumerate(names, 1)]
    put_in_stage(event, FINAL, *entries)
    by = (people["referee"], people["referee"], people["head"])
    for n, (entry, who) in enumerate(zip(entries, by, strict=False), 1):
        result_record(
            event=event, stage=FINAL, entry=entry, cells={"time": f"1:0{n}:00"}, by=who,
            idempotency_key=f"k{n}",
        )  # fmt: skip
    return event, people, entries


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def line_html(html: str, stage: str, round: int = 1) -> str:
    start = html.index(f'id="line-{stage}-{round}"')
    return html[start : html.index("</article>", start)]


def count(html: str, name: str) -> str:
    found = re.search(rf'data-count="{name}"[^>]*>(.*?)</dd>', html, re.S)
    assert found is not None, name
    return re.sub(r"\s+", " ", found.group(1)).strip()


@pytest.mark.django_db
def test_the_final_line_says_what_is_left_and_links_the_next_step(cz: Any) -> None:
    event, people, entries = cz
    url = reverse("board:index", args=[event.slug])
    html = line_html(client_for(people["head"]).get(url).content.decode(), FINAL)
    assert count(html, "results") == "3 of 4"
    assert count(html, "unconfirmed") == "3 (2 by rudolf, 1 by renata)"
    assert (count(html, "mismatches"), count(html, "appeals"), count(html, "state")) == (
        "0", "0", "draft",
    )  # fmt: skip
    record = reverse("results:round", args=[event.slug, FINAL, 1])
    assert f'<a href="{record}">Record 1 missing result</a>' in html

    result_record(
        event=event, stage=FINAL, entry=entries[3], cells={"time": "1:09:00"},
        by=people["referee"], idempotency_key="k4",
    )  # fmt: skip
    html = line_html(client_for(people["head"]).get(url).content.decode(), FINAL)
    checks = reverse("checks:index", args=[event.slug])
    assert f'<a href="{checks}#confirm-{FINAL}-1">Confirm 4 results</a>' in html

    round_confirm(event=event, stage=FINAL, round=1, by=people["head"])
    round_confirm(event=event, stage=FINAL, round=1, by=people["organizer"])
    (line,) = [x for x in board(event) if x.stage.key == FINAL]
    assert (line.results, line.unconfirmed, line.next_step) == (4, 0, "preliminary")
    head = line_html(client_for(people["head"]).get(url).content.decode(), FINAL)
    assert "Publish the preliminary results — an organizer publishes it" in head
    organizer = line_html(client_for(people["organizer"]).get(url).content.decode(), FINAL)
    publish = reverse("publication:index", args=[event.slug])
    assert f'<a href="{publish}">Publish the preliminary results</a>' in organizer


@pytest.mark.django_db
def test_the_lines_poll_answers_304_until_a_result_changes_them(cz: Any) -> None:
    event, people, entries = cz
    client = client_for(people["head"])
    url = reverse("board:lines", args=[event.slug])
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    result_record(
        event=event, stage=FINAL, entry=entries[3], cells={"time": "1:09:00"},
        by=people["referee"], idempotency_key="k4",
    )  # fmt: skip
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 200
    assert count(line_html(again.content.decode(), FINAL), "results") == "4 of 4"


@pytest.mark.django_db
def test_the_board_is_for_those_who_confirm(cz: Any) -> None:
    event, people, _entries = cz
    url = reverse("board:index", args=[event.slug])
    assert client_for(people["referee"]).get(url).status_code == 404
    dashboard = client_for(people["organizer"]).get(
        reverse("organizer:dashboard", args=[event.slug])
    )
    assert url in dashboard.content.decode()


@pytest.mark.django_db
def test_the_club_board_shows_mismatches_appeals_and_the_superfinal(club_at: Any) -> None:
    built = club_at(12, 2)
    html = client_for(built.head).get(reverse("board:index", args=[built.event.slug]))
    page = html.content.decode()
    tour = line_html(page, "chgk-tour", 2)  # the open tour: #3's mismatch, two appeals
    assert count(tour, "mismatches") == "1"
    assert count(tour, "appeals") == "2"  # #9 on question 1, #10 on question 14
    assert 'data-step="resolve"' in page
    superfinal = line_html(page, "superfinal")
    assert count(superfinal, "results") == "2 of 24"


def board_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        "board": (built.head, f"/desk/{slug}/board/"),
        "board lines": (built.head, f"/desk/{slug}/board/lines/"),
        "checks": (built.head, f"/desk/{slug}/checks/"),
    }


@pytest.mark.slow
@pytest.mark.django_db
def test_the_board_reads_as_much_for_30_teams_and_6_tours_as_for_12_and_2(
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(30, 6, 2), board_pages)
    assert {page: small == large for page, (small, large) in counts.items()} == {
        "board": True, "board lines": True, "checks": True,
    }  # fmt: skip


@pytest.mark.slow
@pytest.mark.django_db
def test_the_jigsaw_board_reads_as_much_for_60_entrants_as_for_10(
    jigsaw_at: Any, queries_at: Any
) -> None:
    counts = queries_at(jigsaw_at(10, 3), jigsaw_at(60, 4), board_pages)
    assert {page: small == large for page, (small, large) in counts.items()} == {
        "board": True, "board lines": True, "checks": True,
    }  # fmt: skip
