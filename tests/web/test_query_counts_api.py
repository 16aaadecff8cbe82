"""SQL queries of the API's reads that list entrants, rounds or results — the stages with their
rounds, the entry lists, the standings of every format and a round's results — are as many for
a large event as for a small one (``tests/web/conftest.py`` builds the events; see
``test_query_counts_public``). The 304 answer of a poll is not read here.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.events.services.tokens import token_create


def token(built: Any) -> dict[str, str]:
    """The headers of a call with a token of the event acting as its referee."""
    _made, secret = token_create(event=built.event, name="tablet", user=built.referee, by=built.org)
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api(built: Any, *stages: str) -> dict[str, tuple[Any, str]]:
    base = f"/api/events/{built.event.slug}"
    pages: dict[str, tuple[Any, str]] = {
        "stages": (None, f"{base}/stages"),
        "entries": (None, f"{base}/entries"),
    }
    for stage in stages:
        pages[f"{stage} standings"] = (None, f"{base}/stages/{stage}/rounds/1/standings")
    return pages


def jigsaw_api(built: Any) -> dict[str, tuple[Any, str]]:
    base = f"/api/events/{built.event.slug}/stages"
    return {
        **api(built, "individual-qualification", "individual-final", "team"),
        "final's entries": (None, f"{base}/individual-final/entries"),
        "qualification results": (
            token(built),
            f"{base}/individual-qualification/rounds/1/results?limit=200",
        ),
    }


JIGSAW = {
    "stages": 6,
    "entries": 4,
    "individual-qualification standings": 12,
    "individual-final standings": 4,
    "team standings": 9,
    "final's entries": 4,
    "qualification results": 8,
}


@pytest.mark.django_db
def test_the_jigsaw_api_reads_as_much_for_200_entrants_as_for_10(
    jigsaw_at: Any, queries_at: Any
) -> None:
    counts = queries_at(jigsaw_at(10, 3), jigsaw_at(200, 4), jigsaw_api)
    assert counts == {page: (n, n) for page, n in JIGSAW.items()}


def club_api(built: Any) -> dict[str, tuple[Any, str]]:
    base = f"/api/events/{built.event.slug}/stages"
    last = built.tours
    return {
        **api(built, "chgk-season", "chgk-tour", "brainball", "superfinal"),
        "tours": (None, f"{base}/chgk-tour"),
        "last tour standings": (None, f"{base}/chgk-tour/rounds/{last}/standings"),
        "superfinal's entries": (None, f"{base}/superfinal/entries"),
        "last tour results": (token(built), f"{base}/chgk-tour/rounds/{last}/results?limit=200"),
    }


CLUB = {
    "stages": 7,
    "entries": 4,
    "chgk-season standings": 17,
    "chgk-tour standings": 5,
    "brainball standings": 17,  # the outlook: the schedule and the team labels
    "superfinal standings": 13,
    "tours": 4,
    "last tour standings": 17,
    "superfinal's entries": 4,
    "last tour results": 9,
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_club_api_reads_as_much_for_200_teams_of_9_and_20_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(200, 20, 9), club_api)
    assert counts == {page: (n, n) for page, n in CLUB.items()}


def bowling_api(built: Any) -> dict[str, tuple[Any, str]]:
    base = f"/api/events/{built.event.slug}/stages"
    return {
        **api(built, "qualification"),
        "results": (token(built), f"{base}/qualification/rounds/1/results?limit=200"),
    }


BOWLING = {
    "stages": 2,
    "entries": 4,
    "qualification standings": 13,
    "results": 8,
}


@pytest.mark.django_db
def test_the_bowling_api_reads_as_much_for_200_players_as_for_12(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(200, 8), bowling_api)
    assert counts == {page: (n, n) for page, n in BOWLING.items()}
