"""SQL queries of the public pages that list entrants, tours or rounds — the standings of every
format (stage, round, table fragment, projector; as staff see them too), the stages list, the
prizes, the entry lists and the draws — are as many for a large event as for a small one.

Each test builds one event at two sizes (``tests/web/conftest.py``: ``jigsaw_at``, ``club_at``,
``bowling_at``) and reads every page with an empty cache, so the whole table is computed; the
expected number is the page's queries at either size. The 304 answer of a poll is not read here.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone


def later() -> str:
    """A moment after everything the builders record, for the staff's "as of" view."""
    return (timezone.now() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")


def standings(built: Any, stage: str, round: int | None = None) -> dict[str, tuple[Any, str]]:
    """A stage's standings pages as the public reads them (a round's, when given)."""
    base = f"/standings/{built.event.slug}/{stage}/" + (f"{round}/" if round else "")
    name = f"{stage} {round}" if round else stage
    return {
        name: (None, base),
        f"{name} table": (None, f"{base}table/"),
        f"{name} projector": (None, f"{base}projector/"),
        f"{name} projector table": (None, f"{base}projector/table/"),
    }


def lists(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        "stages": (None, f"/standings/{slug}/"),
        "prizes": (None, f"/prizes/{slug}/"),
        "entries": (None, f"/e/{slug}/entries/"),
        "event": (None, f"/e/{slug}/"),
        "draws": (None, f"/draws/{slug}/"),
    }


def jigsaw_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        **lists(built),
        **standings(built, "individual-qualification"),
        **standings(built, "individual-final"),
        **standings(built, "team"),
        "qualification, staff": (built.org, f"/standings/{slug}/individual-qualification/"),
        "qualification, staff as of": (
            built.org,
            f"/standings/{slug}/individual-qualification/?as_of={later()}",
        ),
    }


JIGSAW = {
    "stages": 6,
    "prizes": 12,
    "entries": 4,
    "event": 4,
    "draws": 3,
    "individual-qualification": 15,
    "individual-qualification table": 13,
    "individual-qualification projector": 14,
    "individual-qualification projector table": 13,
    "individual-final": 7,
    "individual-final table": 5,
    "individual-final projector": 6,
    "individual-final projector table": 5,
    "team": 12,
    "team table": 10,
    "team projector": 11,
    "team projector table": 10,
    "qualification, staff": 19,  # the top bar: my places
    "qualification, staff as of": 16,  # the top bar: my places
}


@pytest.mark.django_db
def test_the_jigsaw_pages_read_as_much_for_200_entrants_as_for_10(
    jigsaw_at: Any, queries_at: Any
) -> None:
    counts = queries_at(jigsaw_at(10, 3), jigsaw_at(200, 4), jigsaw_pages)
    assert counts == {page: (n, n) for page, n in JIGSAW.items()}


def club_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        **lists(built),
        **standings(built, "chgk-season"),
        **standings(built, "chgk-tour"),
        **standings(built, "chgk-tour", 1),
        **standings(built, "brainball"),
        **standings(built, "superfinal"),
        "season, staff": (built.org, f"/standings/{slug}/chgk-season/"),
        "season, staff as of": (built.org, f"/standings/{slug}/chgk-season/?as_of={later()}"),
        "tour, staff": (built.org, f"/standings/{slug}/chgk-tour/"),
    }


CLUB = {
    "stages": 6,
    "prizes": 16,
    "entries": 4,
    "event": 4,
    "draws": 3,
    "chgk-season": 22,
    "chgk-season table": 18,
    "chgk-season projector": 19,
    "chgk-season projector table": 18,
    "chgk-tour": 30,
    "chgk-tour table": 6,
    "chgk-tour projector": 19,
    "chgk-tour projector table": 6,
    "chgk-tour 1": 19,
    "chgk-tour 1 table": 6,
    "chgk-tour 1 projector": 8,
    "chgk-tour 1 projector table": 6,
    "brainball": 20,  # the outlook: the schedule and the team labels
    "brainball table": 18,
    "brainball projector": 19,
    "brainball projector table": 18,
    "superfinal": 16,
    "superfinal table": 14,
    "superfinal projector": 15,
    "superfinal projector table": 14,
    "season, staff": 26,  # the top bar: my places
    "season, staff as of": 22,  # the top bar: my places
    "tour, staff": 34,  # the top bar: my places
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_club_pages_read_as_much_for_200_teams_of_9_and_20_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(200, 20, 9), club_pages)
    assert counts == {page: (n, n) for page, n in CLUB.items()}


def bowling_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        **lists(built),
        **standings(built, "qualification"),
        "qualification, staff": (built.org, f"/standings/{slug}/qualification/"),
        "lane schedule": (None, f"/draws/{slug}/lanes/{built.squads[0].pk}/"),
    }


BOWLING = {
    "stages": 2,
    "prizes": 1,
    "entries": 4,
    "event": 4,
    "draws": 3,
    "qualification": 18,
    "qualification table": 14,
    "qualification projector": 15,
    "qualification projector table": 14,
    "qualification, staff": 22,  # the top bar: my places
    "lane schedule": 4,
}


@pytest.mark.django_db
def test_the_bowling_pages_read_as_much_for_200_players_in_8_squads_as_for_12_in_2(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(200, 8), bowling_pages)
    assert counts == {page: (n, n) for page, n in BOWLING.items()}
