"""SQL queries of the staff pages that list entrants, results, tours or rounds — the results
console, the head referee's checks, the check-in desk (its counts and its
"not yet here" filter too), the organizer's entries, payments,
publication, discipline and season pages, the jury's and the appeals' lists, the ChGK grid, the
bowling lane sheets, the battles and the protests — are as many for a large event as for a
small one.

Each test builds one event at two sizes (``tests/web/conftest.py``) and reads every page with
an empty cache; the expected number is the page's queries at either size.
"""

from __future__ import annotations

from typing import Any

import pytest

# Every page here is read signed in: its top bar reads the person's places once
# (``podium.web.events.selectors.places``), on top of what the page itself reads.
TOP_BAR = 1


def common(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        "results console": (built.head, f"/desk/{slug}/results/"),
        "checks": (built.head, f"/desk/{slug}/checks/"),
        "check-in desk": (built.referee, f"/desk/{slug}/"),
        "not yet here": (built.referee, f"/desk/{slug}/?show=not-yet"),
        "check-in counts": (built.referee, f"/desk/{slug}/counts/"),
        "entries": (built.org, f"/organize/{slug}/entries/"),
        "payments": (built.org, f"/organize/{slug}/payments/"),
        "publication": (built.org, f"/organize/{slug}/publication/"),
        "draws": (built.org, f"/draws/{slug}/organize/"),
    }


def jigsaw_pages(built: Any) -> dict[str, tuple[Any, str]]:
    rounds = f"/desk/{built.event.slug}/results"
    return {
        **common(built),
        "qualification console": (built.head, f"{rounds}/individual-qualification/1/"),
        "final console": (built.referee, f"{rounds}/individual-final/1/"),
        "team console": (built.referee, f"{rounds}/team/1/"),
    }


JIGSAW = {
    "results console": 23,
    # the agreements of the results to confirm, who may confirm, whether the viewer resolves
    # mismatches
    "checks": 19,
    "check-in desk": 15,
    "not yet here": 15,
    "check-in counts": 6,  # 7 in all: a fragment has no top bar, the assertion adds TOP_BAR
    "entries": 17,
    "payments": 7,
    "publication": 24,
    "draws": 6,
    "qualification console": 15,  # only the entrants shown: their results, scores, checks
    "final console": 15,
    "team console": 16,
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_jigsaw_staff_pages_read_as_much_for_200_entrants_as_for_10(
    jigsaw_at: Any, queries_at: Any
) -> None:
    counts = queries_at(jigsaw_at(10, 3), jigsaw_at(200, 4), jigsaw_pages)
    assert counts == {page: (n + TOP_BAR, n + TOP_BAR) for page, n in JIGSAW.items()}


def club_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug, last = built.event.slug, built.tours
    return {
        **common(built),
        "chgk desk": (built.referee, f"/desk/{slug}/chgk/"),
        "chgk grid": (built.referee, f"/desk/{slug}/chgk/chgk-tour/{last}/"),
        "chgk check sheet": (built.referee, f"/desk/{slug}/chgk/chgk-tour/{last}/check/"),
        "battles": (built.referee, f"/desk/{slug}/battles/"),
        "brainball desk": (built.referee, f"/desk/{slug}/battles/brainball/"),
        "superfinal runner": (built.referee, f"/desk/{slug}/battles/superfinal/superfinal/"),
        "jury": (built.jury, f"/jury/{slug}/"),
        "appeals": (built.org, f"/appeals/{slug}/"),
        "appeal filing": (built.org, f"/appeals/{slug}/file/"),
        "discipline": (built.org, f"/organize/{slug}/discipline/"),
        "calendar": (built.org, f"/organize/{slug}/calendar/"),
        "host questions": (built.org, f"/questions/{slug}/"),
    }


CLUB = {
    "results console": 14,
    # the agreements, who may confirm, whether the viewer resolves mismatches, and the teams'
    # names of the battles and the superfinal read in words
    "checks": 21,
    "check-in desk": 10,
    "not yet here": 10,
    "check-in counts": 6,  # 7 in all: a fragment has no top bar, the assertion adds TOP_BAR
    "entries": 7,
    "payments": 7,
    "publication": 22,  # + the tours' calendar: a round ends by its scheduled day
    "draws": 6,
    "chgk desk": 5,
    "chgk grid": 12,  # who is not playing: withdrawals, rosters, sanctions
    "chgk check sheet": 12,  # who is not playing: withdrawals, rosters, sanctions
    "battles": 4,
    "brainball desk": 17,
    "superfinal runner": 10,  # + whether the viewer confirms its questions
    "jury": 15,
    "appeals": 16,
    "appeal filing": 11,
    "discipline": 31,
    "calendar": 7,
    "host questions": 8,
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_club_staff_pages_read_as_much_for_200_teams_of_9_and_20_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(200, 20, 9), club_pages)
    assert counts == {page: (n + TOP_BAR, n + TOP_BAR) for page, n in CLUB.items()}


def season_page(built: Any) -> dict[str, tuple[Any, str]]:
    return {"season": (built.org, f"/organize/{built.event.slug}/season/")}


SEASON = {
    "season": 39,
}


@pytest.mark.django_db
def test_the_season_page_reads_as_much_for_60_teams_of_9_and_20_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    """60 teams, not 200: the page shows every bout of the Brainball schedule (3,540 here)."""
    counts = queries_at(club_at(12, 2, 1), club_at(60, 20, 9), season_page)
    assert counts == {page: (n + TOP_BAR, n + TOP_BAR) for page, n in SEASON.items()}


def bowling_pages(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        **common(built),
        "qualification console": (built.referee, f"/desk/{slug}/results/qualification/1/"),
        "lanes": (built.referee, f"/desk/{slug}/bowling/"),
        "lane sheet": (built.referee, f"/desk/{slug}/bowling/squads/{built.squads[0].pk}/"),
        "protests": (built.head, f"/desk/{slug}/protests/"),
        "players": (built.head, f"/desk/{slug}/protests/players/"),
        "discipline": (built.org, f"/organize/{slug}/discipline/"),
    }


BOWLING = {
    "results console": 9,
    "checks": 11,  # the agreements of the results to confirm
    "check-in desk": 10,
    "not yet here": 10,
    "check-in counts": 6,  # 7 in all: a fragment has no top bar, the assertion adds TOP_BAR
    "entries": 7,
    "payments": 7,
    "publication": 11,
    "draws": 6,
    "qualification console": 17,  # only the entrants shown: their results, scores, checks
    "lanes": 6,
    "lane sheet": 15,
    "protests": 12,
    "players": 8,
    "discipline": 14,
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_bowling_staff_pages_read_as_much_for_200_players_in_8_squads_as_for_12_in_2(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(200, 8), bowling_pages)
    assert counts == {page: (n + TOP_BAR, n + TOP_BAR) for page, n in BOWLING.items()}
