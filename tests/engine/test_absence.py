"""Entrants without a result stand at the foot of their table with the clause that governs
their absence, and change nothing of the ranked rows (podium.engine.absence)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest

from podium.engine.compute import compute_standings
from podium.engine.document import standings_data
from podium.engine.errors import InputError
from podium.engine.inputs import RawRow
from podium.rules.loader import load

EXAMPLES = Path(__file__).parents[2] / "examples"


def rows_of(path: str, extra: list[dict[str, str]] | None = None) -> list[RawRow]:
    with (EXAMPLES / path).open(encoding="utf-8") as f:
        read = list(csv.DictReader(f))
    return [RawRow(n, cells) for n, cells in enumerate([*read, *(extra or [])], start=2)]


def ranked(document: dict[str, Any]) -> list[list[tuple[Any, ...]]]:
    """Every ranked row of every table, as places, points, marks and reasons."""
    return [
        [
            (r["id"], r["rank"], r["rank_to"], r["official_rank"], r["points"], r["advances"],
             r["prize"], [x["text"] for x in r["reasons"]])
            for r in t["rows"]
        ]
        for t in document["tables"]
    ]  # fmt: skip


def test_pairs_absent_and_unfinished_stand_at_the_foot_and_move_no_one() -> None:
    book = load("it-puzzle-party")
    extra = [
        {"id": "91", "name": "Anna Neri & Ugo Verdi", "status": "absent"},
        {"id": "92", "name": "Eva Rossi & Carlo Blu", "status": " DNF "},
        {"id": "93", "name": "", "status": "dns", "time": "0:59:00"},  # a time is not read
    ]
    plain = standings_data(compute_standings(book, "pairs", rows_of("it-puzzle-party/pairs.csv")))
    both = standings_data(
        compute_standings(book, "pairs", rows_of("it-puzzle-party/pairs.csv", extra))
    )
    assert ranked(both) == ranked(plain)
    assert len(both["tables"][0]["rows"]) == 10
    assert plain["tables"][0]["absent"] == []
    assert both["tables"][0]["absent"] == [
        {
            "id": "91",
            "name": "Anna Neri & Ugo Verdi",
            "table": "all",
            "status": "absent",
            "reasons": [
                {
                    "clause": "Art. 6: I posti possono essere riassegnati dopo 10 minuti "
                    "dall’inizio.",
                    "text": "Did not come: no place and no points; the seat may be given to "
                    "someone else 10 minutes after the start",
                }
            ],
        },
        {
            "id": "92",
            "name": "Eva Rossi & Carlo Blu",
            "table": "all",
            "status": "dnf",
            "reasons": [
                {
                    "clause": None,
                    "text": "Did not finish: no place and no points (no clause: Podium's default)",
                }
            ],
        },
        {
            "id": "93",
            "name": "93",
            "table": "all",
            "status": "dns",
            "reasons": [
                {
                    "clause": None,
                    "text": "Did not start: no place and no points (no clause: Podium's default)",
                }
            ],
        },
    ]


def test_a_chgk_team_absent_from_a_tour_cites_the_seasons_clause() -> None:
    book = load("deti-kolomny")
    extra = [{"id": "K99", "name": "Опоздавшие", "scored": "yes", "status": "absent"}]
    plain = standings_data(
        compute_standings(book, "chgk-tour", rows_of("deti-kolomny/chgk-tour.csv"))
    )
    both = standings_data(
        compute_standings(book, "chgk-tour", rows_of("deti-kolomny/chgk-tour.csv", extra))
    )
    assert ranked(both) == ranked(plain)
    [absent] = both["tables"][0]["absent"]
    assert (absent["id"], absent["status"]) == ("K99", "absent")
    assert absent["reasons"] == [
        {
            "clause": "п. 9: Команда, не сдавшая взнос, … считается не явившейся на тур.",
            "text": "Absent from this tour: no place and no points in it; the season counts the "
            "team after the last official team",
        }
    ]


def test_bowling_absentee_stands_in_its_divisions_table_and_advancement_is_unchanged() -> None:
    book = load("cba-qualifier")
    plain = compute_standings(book, "qualification", rows_of("cba-qualifier/qualification.csv"))
    division = plain.tables[1].key
    extra = [{"id": "B99", "name": "Nepřišel", "division": division, "status": "DNS"}]
    both = compute_standings(
        book, "qualification", rows_of("cba-qualifier/qualification.csv", extra)
    )
    assert ranked(standings_data(both)) == ranked(standings_data(plain))
    assert [r.entry.id for t in both.tables for r in t.rows if r.advances] == [
        r.entry.id for t in plain.tables for r in t.rows if r.advances
    ]
    assert [[a.id for a in t.absent] for t in both.tables] == [
        ["B99"] if t.key == division else [] for t in both.tables
    ]
    assert both.tables[1].absent[0].reason.clause is None  # the rulebook has no no-show rule


def test_a_round_of_absentees_only_is_one_table_of_them() -> None:
    book = load("it-puzzle-party")
    rows = [RawRow(2, {"id": "1", "name": "A & B", "status": "absent"})]
    standings = compute_standings(book, "pairs", rows)
    [table] = standings.tables
    assert (table.key, table.rows, [a.id for a in table.absent]) == ("all", (), ["1"])


def test_an_unknown_status_names_its_row_and_column() -> None:
    book = load("it-puzzle-party")
    rows = rows_of("it-puzzle-party/pairs.csv", [{"id": "9", "name": "X", "status": "gone"}])
    with pytest.raises(InputError) as raised:
        compute_standings(book, "pairs", rows)
    [problem] = raised.value.problems
    assert problem.where == "row 12, column status"
    assert "unknown status 'gone'" in str(problem.message)


def test_a_season_ranks_its_absent_teams_itself_and_reads_no_status() -> None:
    book = load("deti-kolomny")
    rows = rows_of("deti-kolomny/chgk-season.csv")
    with_status = [RawRow(r.line, {**r.cells, "status": "absent"}) for r in rows]
    assert ranked(standings_data(compute_standings(book, "chgk-season", with_status))) == ranked(
        standings_data(compute_standings(book, "chgk-season", rows))
    )
