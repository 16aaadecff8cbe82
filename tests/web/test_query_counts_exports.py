"""SQL queries of the downloads that list entrants, tours or rounds — standings of every format,
the entry lists, the start list, a squad's lanes and the check-in list as CSV and XLSX, the
ChGK tours in the rating site's JSON, and a few PDFs — are as many for a large event as for a
small one (``tests/web/conftest.py`` builds the events; see ``test_query_counts_public``).

The PDFs are read at smaller sizes than the rest: writing one takes seconds.
"""

from __future__ import annotations

from typing import Any

import pytest


def lists(built: Any, fmt: str) -> dict[str, tuple[Any, str]]:
    base = f"/export/{built.event.slug}"
    return {
        f"entries {fmt}": (None, f"{base}/entries.{fmt}"),
        f"start list {fmt}": (None, f"{base}/start-list.{fmt}"),
        f"check-in {fmt}": (built.org, f"{base}/check-in.{fmt}"),
    }


def standings(built: Any, fmt: str, *stages: str) -> dict[str, tuple[Any, str]]:
    base = f"/export/{built.event.slug}/standings"
    return {f"{stage} {fmt}": (None, f"{base}/{stage}/1.{fmt}") for stage in stages}


def jigsaw_files(built: Any) -> dict[str, tuple[Any, str]]:
    stages = ("individual-qualification", "individual-final", "team")
    return {
        **lists(built, "csv"),
        **lists(built, "xlsx"),
        **standings(built, "csv", *stages),
        **standings(built, "xlsx", *stages),
    }


JIGSAW = {
    "entries csv": 4,
    "start list csv": 4,
    "check-in csv": 6,
    "entries xlsx": 4,
    "start list xlsx": 4,
    "check-in xlsx": 6,
    "individual-qualification csv": 11,
    "individual-final csv": 3,
    "team csv": 8,
    "individual-qualification xlsx": 11,
    "individual-final xlsx": 3,
    "team xlsx": 8,
}


@pytest.mark.django_db
def test_the_jigsaw_files_read_as_much_for_200_entrants_as_for_10(
    jigsaw_at: Any, queries_at: Any
) -> None:
    counts = queries_at(jigsaw_at(10, 3), jigsaw_at(200, 4), jigsaw_files)
    assert counts == {page: (n, n) for page, n in JIGSAW.items()}


def club_files(built: Any) -> dict[str, tuple[Any, str]]:
    stages = ("chgk-season", "chgk-tour", "brainball", "superfinal")
    base = f"/export/{built.event.slug}/standings/chgk-tour"
    rating = f"/organize/{built.event.slug}/import/chgk/chgk-tour"
    return {
        **lists(built, "csv"),
        **standings(built, "csv", *stages),
        **standings(built, "xlsx", *stages),
        "last tour csv": (None, f"{base}/{built.tours}.csv"),
        "tours in the rating's JSON": (None, f"{rating}/rating.json"),
        "tours in the rating's JSON, staff": (built.org, f"{rating}/rating.json"),
        "last tour in the rating's JSON": (None, f"{rating}/{built.tours}/rating.json"),
    }


CLUB = {
    "entries csv": 4,
    "start list csv": 4,
    "check-in csv": 6,
    "chgk-season csv": 16,
    "chgk-tour csv": 4,
    "brainball csv": 16,  # the outlook: the schedule and the team labels
    "superfinal csv": 12,
    "chgk-season xlsx": 16,
    "chgk-tour xlsx": 4,
    "brainball xlsx": 16,
    "superfinal xlsx": 12,
    "last tour csv": 16,
    "tours in the rating's JSON": 11,
    "tours in the rating's JSON, staff": 13,
    "last tour in the rating's JSON": 10,
}


@pytest.mark.slow
@pytest.mark.django_db
def test_the_club_files_read_as_much_for_200_teams_of_9_and_20_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(200, 20, 9), club_files)
    assert counts == {page: (n, n) for page, n in CLUB.items()}


def bowling_files(built: Any) -> dict[str, tuple[Any, str]]:
    lanes = f"/export/{built.event.slug}/lanes/{built.squads[0].pk}"
    return {
        **lists(built, "csv"),
        **lists(built, "xlsx"),
        **standings(built, "csv", "qualification"),
        **standings(built, "xlsx", "qualification"),
        "lanes csv": (None, f"{lanes}.csv"),
        "lanes xlsx": (None, f"{lanes}.xlsx"),
    }


BOWLING = {
    "entries csv": 4,
    "start list csv": 4,
    "check-in csv": 6,
    "entries xlsx": 4,
    "start list xlsx": 4,
    "check-in xlsx": 6,
    "qualification csv": 12,
    "qualification xlsx": 12,
    "lanes csv": 4,
    "lanes xlsx": 4,
}


@pytest.mark.django_db
def test_the_bowling_files_read_as_much_for_200_players_in_8_squads_as_for_12_in_2(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(200, 8), bowling_files)
    assert counts == {page: (n, n) for page, n in BOWLING.items()}


def pdfs(built: Any) -> dict[str, tuple[Any, str]]:
    slug = built.event.slug
    return {
        "season pdf": (None, f"/export/{slug}/standings/chgk-season/1.pdf"),
        "diplomas": (built.org, f"/export/{slug}/diplomas/chgk-season.pdf"),
    }


PDFS = {
    "season pdf": 23,  # the compact printout reads the members' countries in one query
    "diplomas": 21,
}


@pytest.mark.django_db
def test_the_season_pdfs_read_as_much_for_30_teams_of_3_and_6_tours_as_for_12_teams_of_1_and_2_tours(  # noqa: E501
    club_at: Any, queries_at: Any
) -> None:
    counts = queries_at(club_at(12, 2, 1), club_at(30, 6, 3), pdfs)
    assert counts == {page: (n, n) for page, n in PDFS.items()}


def squad_pdfs(built: Any) -> dict[str, tuple[Any, str]]:
    """The qualification's PDF draws a chart per squad."""
    return {
        "qualification pdf": (None, f"/export/{built.event.slug}/standings/qualification/1.pdf")
    }


SQUAD_PDFS = {
    "qualification pdf": 19,  # with the members' countries
}


@pytest.mark.django_db
def test_the_bowling_pdf_reads_as_much_for_30_players_in_4_squads_as_for_12_in_2(
    bowling_at: Any, queries_at: Any
) -> None:
    counts = queries_at(bowling_at(12, 2), bowling_at(30, 4), squad_pdfs)
    assert counts == {page: (n, n) for page, n in SQUAD_PDFS.items()}
