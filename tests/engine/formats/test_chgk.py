"""ChGK tours (п. 10–11 of the «Дети Коломны» rulebook), with hand-worked numbers and real
venue sheets; its rulebook and helpers serve the masks and season tests too."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.errors import InputError
from podium.engine.formats.chgk import tables
from podium.engine.formats.chgk.season import mean_place
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Table
from podium.rules.loader import parse
from podium.rules.schema import Rulebook

VENUE_RESULTS = Path(__file__).resolve().parents[2] / "data" / "chgk" / "venue-results"

RULEBOOK = """
key: chgk-test
title: ChGK test
language: ru
source: tests
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, max_size: 9}
classification:
  unscored: {clause: "п. 10"}
appeals:
  - key: question
    title: Appeal on a question
    kinds: [withdraw, accept]
    filed_with: the jury
    clause: "п. 14"
stages:
  - key: chgk-tour
    title: Tour
    format: chgk-tour
    questions: {questions}
    ranking: {{criteria: [questions], clause: "п. 11 places"}}
    points: {{per_place: [12, 10, 8, 7, 6, 5, 4, 3, 2, 1], decimals: 3, clause: "п. 11 points"}}
  - key: chgk-season
    title: Season
    format: chgk-season
    tour: chgk-tour
    absent_clause: "п. 9 absent"
    ranking:
      clause: "п. 12"
      criteria: [points, season-questions, season-place-sum]
      playoff: {{places: [1, 3], after: points, method: "a 6-question extra match"}}
"""


def rulebook(questions: int = 15) -> Rulebook:
    return parse(
        RULEBOOK.replace("{questions}", str(questions)).replace("{{", "{").replace("}}", "}")
    )


BOOK = rulebook()


def rows(*cells: dict[str, str]) -> list[RawRow]:
    """Rows as a file has them: the header is line 1, so the first row is line 2."""
    return [RawRow(line, c) for line, c in enumerate(cells, start=2)]


def tour(book: Rulebook, raw: list[RawRow]) -> Table:
    [table] = tables(book, book.stage("chgk-tour"), raw)
    return table


def season(raw: list[RawRow]) -> Table:
    [table] = tables(BOOK, BOOK.stage("chgk-season"), raw)
    return table


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def places(row: Row) -> tuple[int, int, int | None, int | None, Decimal | None]:
    return row.rank, row.rank_to, row.official_rank, row.official_rank_to, row.points


def texts(row: Row) -> list[str]:
    return [r.text for r in row.reasons]


def problems_of(call: Any) -> list[tuple[str, str]]:
    with pytest.raises(InputError) as caught:
        call()
    return [(p.where, p.text) for p in caught.value.problems]


# --- One tour -------------------------------------------------------------------------------


def test_tour_points_with_shared_places_and_an_unscored_team_in_the_middle() -> None:
    taken = [("T01", 14), ("T02", 14), ("T03", 12), ("U", 11), ("T04", 10), ("T05", 9)]
    taken += [("T06", 8), ("T07", 7), ("T08", 6), ("T09", 5), ("T10", 3), ("T11", 3), ("T12", 3)]
    table = tour(
        BOOK,
        rows(
            *(
                {"id": i, "name": f"Team {i}", "questions": str(q)}
                | ({"scored": "no"} if i == "U" else {"scored": "yes"})
                for i, q in taken
            )
        ),
    )
    got = {i: places(r) for i, r in by_id(table).items()}
    d = Decimal
    assert got == {
        # Two teams sharing 1st–2nd: (12 + 10) / 2.
        "T01": (1, 2, 1, 2, d("11.000")),
        "T02": (1, 2, 1, 2, d("11.000")),
        "T03": (3, 3, 3, 3, d("8.000")),
        # Outside the competition (п. 10): an overall position, no official place, no points.
        "U": (4, 4, None, None, None),
        # The teams below take the points of their official place, not of their position.
        "T04": (5, 5, 4, 4, d("7.000")),
        "T05": (6, 6, 5, 5, d("6.000")),
        "T06": (7, 7, 6, 6, d("5.000")),
        "T07": (8, 8, 7, 7, d("4.000")),
        "T08": (9, 9, 8, 8, d("3.000")),
        "T09": (10, 10, 9, 9, d("2.000")),
        # Three teams sharing official 10th–12th: (1 + 0 + 0) / 3, to 0.001.
        "T10": (11, 13, 10, 12, d("0.333")),
        "T11": (11, 13, 10, 12, d("0.333")),
        "T12": (11, 13, 10, 12, d("0.333")),
    }
    unscored = by_id(table)["U"]
    assert unscored.reasons[0].clause == "п. 10"
    assert by_id(table)["T01"].entry.score_text == "14 q"
    assert "Shares official places 10–12: (1 + 0 + 0) / 3 = 0.333 points" in texts(
        by_id(table)["T10"]
    )


def test_masks_with_withdrawn_and_disputed_questions() -> None:
    book = rulebook(6)
    table = tour(
        book,
        rows(
            {"id": "a", "name": "A", "mask": "11X1?0"},
            {"id": "b", "name": "B", "mask": "?1X?00"},
            {"id": "c", "name": "C", "questions": "4"},
            {"id": "d", "name": "D", "questions": "2", "mask": "01X100"},
        ),
    )
    teams = by_id(table)
    assert {i: (r.entry.metrics["questions"], r.rank) for i, r in teams.items()} == {
        "c": (4, 1),
        "a": (3, 2),
        "d": (2, 3),
        "b": (1, 4),
    }
    assert [(r.clause, r.text) for r in teams["a"].entry.notes] == [
        ("п. 14", "Question 3 withdrawn for every team: the tour counts 5 questions"),
        (
            "п. 14",
            "1 disputed answer pending: results are preliminary "
            "(question 5 not counted until the verdict)",
        ),
    ]
    assert teams["b"].entry.notes[1].text == (
        "2 disputed answers pending: results are preliminary "
        "(questions 1, 4 not counted until the verdict)"
    )
    assert teams["c"].entry.notes == ()


def test_every_bad_row_is_reported_at_once_with_row_and_column() -> None:
    book = rulebook(5)
    raw = rows(
        {"id": "a", "mask": "1101"},
        {"id": "b", "mask": "11a01"},
        {"id": "c", "mask": "1X101"},
        {"id": "d", "mask": "11101"},
        {"id": "e", "questions": "3", "mask": "1X000"},
        {"id": "f", "questions": "-1", "mask": ""},
        {"id": "g", "questions": "5"},
        {"id": "a", "questions": "2"},
        {"id": "h", "questions": "", "mask": ""},
        {"id": "i", "questions": "x"},
    )
    marks = "(marks are 1 (taken), 0 (not taken), X (withdrawn), ? (disputed))"
    assert sorted(problems_of(lambda: tour(book, raw))) == sorted(
        [
            ("row 2, column mask", "mask '1101' has 4 marks, but the tour has 5 questions"),
            ("row 3, column mask", f"mask '11a01' has 'a' at question 3 {marks}"),
            ("row 5, column mask", "question 2 is withdrawn (X) on row 4 but not here"),
            ("row 6, column questions", "3 questions taken, but the mask has 1 taken (1)"),
            ("row 7, column questions", "-1 is negative: a number of questions cannot be below 0"),
            ("row 8, column questions", "5 questions taken, but the tour has 4 (5, 1 withdrawn)"),
            ("row 9, column id", "duplicate id 'a' (also on row 2)"),
            ("row 10, column questions", "give the questions taken or a mask"),
            ("row 11, column questions", "'x' is not a whole number"),
        ]
    )


def test_more_questions_than_the_tour_has() -> None:
    raw = rows({"id": "a", "questions": "16"}, {"id": "b", "questions": "15"})
    assert problems_of(lambda: tour(BOOK, raw)) == [
        ("row 2, column questions", "16 questions taken, but the tour has 15")
    ]


def test_a_file_without_questions_or_masks() -> None:
    raw = rows({"id": "a", "name": "A"})
    assert problems_of(lambda: tour(BOOK, raw)) == [
        ("column questions", "missing required column (or give a mask column)")
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 15), st.booleans()), min_size=1, max_size=14).flatmap(
        lambda teams: st.tuples(st.just(teams), st.permutations(range(len(teams))))
    )
)
def test_tour_standings_do_not_depend_on_row_order(
    case: tuple[list[tuple[int, bool]], list[int]],
) -> None:
    teams, order = case
    cells = [
        {
            "id": f"t{i}",
            "name": f"Team {i % 4}",
            "questions": str(q),
            "scored": "yes" if s else "no",
        }
        for i, (q, s) in enumerate(teams)
    ]

    def summary(table: Table) -> list[tuple[object, ...]]:
        return [(r.entry.id, *places(r), tuple(texts(r))) for r in table.rows]

    straight = tour(BOOK, rows(*cells))
    shuffled = tour(BOOK, rows(*(cells[i] for i in order)))
    assert summary(shuffled) == summary(straight)


# --- Real venue results ---------------------------------------------------------------------


def venue_files() -> list[Any]:
    if not VENUE_RESULTS.is_dir():
        # One failing case instead of an empty parameter set, which pytest would skip.
        return [pytest.param(VENUE_RESULTS, id="venue-results-missing")]
    return [pytest.param(path, id=path.stem) for path in sorted(VENUE_RESULTS.glob("*.json"))]


def load_sheet(path: Path) -> dict[str, Any]:
    assert path.is_file(), f"missing test data: {path}"
    sheet: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return sheet


def venue_table(sheet: dict[str, Any]) -> Table:
    raw = rows(
        *({"id": str(t["team_id"]), "name": t["name"], "mask": t["mask"]} for t in sheet["teams"])
    )
    return tour(rulebook(sheet["questions"]), raw)


def test_all_venue_sheets_are_there() -> None:
    assert len(list(VENUE_RESULTS.glob("*.json"))) == 42


@pytest.mark.parametrize("path", venue_files())
def test_real_venue_sheet(path: Path) -> None:
    sheet = load_sheet(path)
    table = venue_table(sheet)
    taken = {str(t["team_id"]): t["taken"] for t in sheet["teams"]}
    got = by_id(table)
    assert got.keys() == taken.keys()
    for team, count in taken.items():
        row = got[team]
        assert row.entry.metrics["questions"] == count
        # Standard competition places on questions taken, worked out here from the sheet alone.
        first = 1 + sum(other > count for other in taken.values())
        last = sum(other >= count for other in taken.values())
        assert (row.rank, row.rank_to) == (first, last)
        assert (row.official_rank, row.official_rank_to) == (first, last)
        assert mean_place(row.rank, row.rank_to) == Decimal(first + last) / 2


def test_real_sheet_with_ties_at_the_top_and_in_the_middle() -> None:
    table = venue_table(
        load_sheet(VENUE_RESULTS / "10293_Песни_счастливой_зимы_22_Feb_2024_1.json")
    )
    teams = by_id(table)
    # «И» and «Проти вiтру» both took 24 of 36: 1st–2nd, a mean place of 1.5, (12 + 10) / 2.
    for team in ("75867", "330"):
        assert places(teams[team]) == (1, 2, 1, 2, Decimal("11.000"))
        assert mean_place(1, 2) == Decimal("1.5")
    assert places(teams["65108"]) == (3, 3, 3, 3, Decimal("8.000"))
    # Two teams with 13: 5th–6th, a mean place of 5.5, (6 + 5) / 2.
    for team in ("92968", "86781"):
        assert places(teams[team]) == (5, 6, 5, 6, Decimal("5.500"))
    assert mean_place(5, 6) == Decimal("5.5")


def test_real_sheet_with_a_shared_second_place() -> None:
    table = venue_table(load_sheet(VENUE_RESULTS / "11114-14-Dec-2024__Кубок Гармонии__1.json"))
    teams = by_id(table)
    assert places(teams["75867"]) == (1, 1, 1, 1, Decimal("12.000"))
    # «Сфинкс-party» and «Ума Палата», 14 each: 2nd–3rd, a mean place of 2.5, (10 + 8) / 2.
    for team in ("65108", "103088"):
        assert places(teams[team]) == (2, 3, 2, 3, Decimal("9.000"))
        assert teams[team].entry.metrics["questions"] == 14
    assert mean_place(2, 3) == Decimal("2.5")
    assert places(teams["103392"]) == (8, 8, 8, 8, Decimal("3.000"))
