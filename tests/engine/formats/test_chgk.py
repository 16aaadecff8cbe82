"""ChGK tours and seasons (п. 10–12 of the «Дети Коломны» rulebook), with hand-worked numbers."""

from __future__ import annotations

import json
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.entries import Reason
from podium.engine.errors import InputError
from podium.engine.formats.chgk import mean_place, parse_mask, tables
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Table
from podium.rules.loader import load, parse
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


# --- Masks ----------------------------------------------------------------------------------


def test_mask_marks_taken_withdrawn_and_disputed() -> None:
    mask = parse_mask("10X?1", 5)
    assert mask.taken == 2
    assert mask.withdrawn == (3,)
    assert mask.disputed == (4,)


def test_mask_of_wrong_length_and_characters_says_both() -> None:
    with pytest.raises(ValueError, match=r"^mask '10a1' has 'a' at question 3") as caught:
        parse_mask("10a1", 5)
    assert str(caught.value) == (
        "mask '10a1' has 'a' at question 3 (marks are 1 (taken), 0 (not taken), X (withdrawn), "
        "? (disputed)); 4 marks, but the tour has 5 questions"
    )


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


# --- The season -----------------------------------------------------------------------------


def season_rows(
    tours: dict[str, list[tuple[str, int]]], unscored: frozenset[str] = frozenset()
) -> list[RawRow]:
    return rows(
        *(
            {"tour": t, "id": team, "name": f"Team {team}", "questions": str(q)}
            | {"scored": "no" if team in unscored else "yes"}
            for t, results in tours.items()
            for team, q in results
        )
    )


def test_season_points_playoff_and_season_questions_with_an_absent_team() -> None:
    table = season(
        season_rows(
            {
                # Places 1 A, 2 E, 3 B, 4 C, 5 D: 12, 10, 8, 7, 6 points.
                "1": [("A", 13), ("E", 11), ("B", 10), ("C", 9), ("D", 8)],
                # 1 A, 2 E, 3 B, 4 D, 5 C.
                "2": [("A", 12), ("E", 11), ("B", 9), ("D", 8), ("C", 7)],
                # E is absent: 1 C (12), A and B share 2nd–3rd (9 each), 4 D (7); E counts as 5th.
                "3": [("C", 12), ("A", 10), ("B", 10), ("D", 8)],
            }
        )
    )
    d = Decimal
    got = {
        r.entry.id: (
            r.rank,
            r.rank_to,
            r.playoff,
            r.entry.metrics["points"],
            r.entry.metrics["season_questions"],
            r.entry.metrics["place_sum"],
        )
        for r in table.rows
    }
    assert got == {
        "A": (1, 1, False, d("33.000"), 35, d("4.5")),  # 12 + 12 + 9; 1 + 1 + 2.5
        # 25 points each, for 2nd–3rd: settled by the extra match, not by questions (29 vs 28).
        "B": (2, 3, True, d("25.000"), 29, d("8.5")),  # 8 + 8 + 9; 3 + 3 + 2.5
        "C": (2, 3, True, d("25.000"), 28, d("10")),  # 7 + 6 + 12; 4 + 5 + 1
        # 20 points each below 3rd: more questions over the season first.
        "D": (4, 4, False, d("20.000"), 24, d("13")),  # 6 + 7 + 7; 5 + 4 + 4
        "E": (5, 5, False, d("20.000"), 22, d("9")),  # 10 + 10 + 0; 2 + 2 + 5 (absent)
    }
    assert [r.entry.id for r in table.rows] == ["A", "B", "C", "D", "E"]
    rows_ = by_id(table)
    assert "Tied for places 2nd–3rd: to be settled by a 6-question extra match" in texts(rows_["B"])
    assert "Below Team D on questions taken in the season: 22 against 24" in texts(rows_["E"])
    assert rows_["E"].entry.score_text == "20.000 pts (22 q)"
    assert [(n.clause, n.text) for n in rows_["E"].entry.notes] == [
        (None, "Tours played: 1, 2 (2 of 3)"),
        (
            "п. 11 points",
            "Points per tour: tour 1: 10.000 (place 2, 11 q); tour 2: 10.000 (place 2, 11 q); "
            "tour 3: absent (place 5), 0 points",
        ),
        ("п. 12", "Sum of tour places: 2 + 2 + 5 = 9"),
        (
            "п. 9 absent",
            "Absent from tour 3: counted at place 5, after the last official team, "
            "with no points and no questions (our interpretation)",
        ),
    ]
    assert rows_["B"].entry.notes[1].text == (
        "Points per tour: tour 1: 8.000 (place 3, 10 q); tour 2: 8.000 (place 3, 9 q); "
        "tour 3: 9.000 (places 2–3 → 2.5, 10 q)"
    )


def test_season_tie_settled_by_the_sum_of_places_with_a_shared_place() -> None:
    table = season(
        season_rows(
            {
                # 1 P (12), R and T share 2nd–3rd (9 each, place 2.5), 4 Q (7), 5 S (6).
                "1": [("P", 14), ("R", 11), ("T", 11), ("Q", 9), ("S", 7)],
                # U plays outside the competition: official places 1 P, 2 S, 3 Q, 4 T, 5 R.
                "2": [("P", 13), ("S", 12), ("U", 11), ("Q", 10), ("T", 8), ("R", 6)],
                # 1 Q (12), 2 P (10), 3 R (8), S and T share 4th–5th (6.5 each, place 4.5).
                "3": [("Q", 12), ("P", 11), ("R", 10), ("S", 9), ("T", 9)],
            },
            unscored=frozenset({"U"}),
        )
    )
    d = Decimal
    got = {
        r.entry.id: (
            r.rank,
            r.entry.metrics["points"],
            r.entry.metrics["season_questions"],
            r.entry.metrics["place_sum"],
        )
        for r in table.rows
    }
    # U took no points and is not in the season table.
    assert got == {
        "P": (1, d("34.000"), 38, d("4")),
        "Q": (2, d("27.000"), 31, d("8")),
        "R": (3, d("23.000"), 27, d("10.5")),
        # 22.5 points and 28 questions each: T's places 2.5 + 4 + 4.5 beat S's 5 + 2 + 4.5.
        "T": (4, d("22.500"), 28, d("11.0")),
        "S": (5, d("22.500"), 28, d("11.5")),
    }
    rows_ = by_id(table)
    assert "Below Team T on sum of tour places: 11.5 against 11.0" in texts(rows_["S"])
    assert "Sum of tour places: 2.5 + 4 + 4.5 = 11" in texts(rows_["T"])


def test_a_renamed_team_keeps_its_id_and_shows_its_latest_name() -> None:
    # Team 68118 played as «ЖмеR» in 2023 and as «ЖRём» in December 2024 (venue results).
    table = season(
        rows(
            {"tour": "1", "id": "68118", "name": "ЖмеR", "questions": "13"},
            {"tour": "1", "id": "65108", "name": "Сфинкс-party", "questions": "10"},
            {"tour": "2", "id": "68118", "name": "ЖRём", "questions": "13"},
            {"tour": "2", "id": "65108", "name": "Сфинкс-party", "questions": "14"},
        )
    )
    renamed = by_id(table)["68118"]
    assert renamed.entry.name == "ЖRём"
    assert renamed.entry.notes[-1] == Reason(None, "Also played as 'ЖмеR'")
    # 12 + 10 each: tied for 1st–2nd, a play-off, although ЖRём took 26 questions to 24.
    assert [(r.rank, r.rank_to, r.playoff) for r in table.rows] == [(1, 2, True), (1, 2, True)]


def test_bad_season_rows() -> None:
    raw = rows(
        {"tour": "1", "id": "A", "questions": "10"},
        {"tour": "1", "id": "A", "questions": "9"},
        {"tour": "", "id": "B", "questions": "9"},
        {"tour": "2", "id": "A", "questions": "9", "scored": "no"},
        {"tour": "2", "id": "C", "questions": "16"},
    )
    assert sorted(problems_of(lambda: season(raw))) == [
        ("row 3, column id", "duplicate id 'A' in tour 1 (also on row 2)"),
        ("row 4, column tour", "a season row needs its tour"),
        ("row 5, column scored", "team 'A' plays outside the competition here but in it on row 2"),
        ("row 6, column questions", "16 questions taken, but the tour has 15"),
    ]


# --- The preset ------------------------------------------------------------------------------


def test_deti_kolomny_preset_tour_and_season() -> None:
    book = load("deti-kolomny")
    [tour_table] = tables(
        book,
        book.stage("chgk-tour"),
        rows(
            {"id": "a", "name": "A", "questions": "12"},
            {"id": "b", "name": "B", "questions": "12"},
            {"id": "c", "name": "C", "questions": "9", "scored": "no"},
            {"id": "d", "name": "D", "questions": "7"},
        ),
    )
    assert [places(r) for r in tour_table.rows] == [
        (1, 2, 1, 2, Decimal("11.000")),
        (1, 2, 1, 2, Decimal("11.000")),
        (3, 3, None, None, None),
        (4, 4, 3, 3, Decimal("8.000")),
    ]
    [season_table] = tables(
        book,
        book.stage("chgk-season"),
        rows(
            {"tour": "1", "id": "a", "name": "A", "questions": "12"},
            {"tour": "1", "id": "b", "name": "B", "questions": "11"},
            {"tour": "2", "id": "b", "name": "B", "questions": "12"},
            {"tour": "2", "id": "a", "name": "A", "questions": "11"},
            {"tour": "2", "id": "c", "name": "C", "questions": "3"},
        ),
    )
    got = {r.entry.id: (r.rank, r.rank_to, r.playoff, r.entry.metrics) for r in season_table.rows}
    # A and B both 12 + 10 = 22 for 1st–2nd: a play-off, not their 23 questions each.
    assert got["a"][:3] == (1, 2, True)
    assert got["b"][:3] == (1, 2, True)
    assert got["c"][:3] == (3, 3, False)
    assert got["c"][3]["place_sum"] == Decimal(6)  # absent from tour 1 (3rd), 3rd in tour 2


def test_a_sanctioned_team_counts_zero_questions_in_the_tour_with_the_clause() -> None:
    book = load("deti-kolomny")
    [table] = tables(
        book,
        book.stage("chgk-tour"),
        rows(
            {"id": "a", "name": "A", "questions": "12", "sanctioned": "yes"},
            {"id": "b", "name": "B", "questions": "10", "sanctioned": "no"},
            {"id": "c", "name": "C", "questions": "9"},
            {"id": "d", "name": "D", "questions": "0"},
        ),
    )
    # A took most but counts 0: B 1st (12), C 2nd (10), A and D share 3rd–4th ((8 + 7) / 2).
    assert [(r.entry.id, *places(r)) for r in table.rows] == [
        ("b", 1, 1, 1, 1, Decimal("12.000")),
        ("c", 2, 2, 2, 2, Decimal("10.000")),
        ("a", 3, 4, 3, 4, Decimal("7.500")),
        ("d", 3, 4, 3, 4, Decimal("7.500")),
    ]
    a = by_id(table)["a"]
    assert a.entry.score_text == "0 q (sanction; 12 taken)"
    assert [(n.clause, n.text) for n in a.entry.notes] == [
        (
            "п. 8: … результат провинившейся команды в туре ЧГК принимается за 0",
            "Tour result counted as 0 under a sanction (12 questions taken)",
        )
    ]


def test_the_sanctioned_column_is_yes_or_no() -> None:
    assert problems_of(
        lambda: tour(BOOK, rows({"id": "a", "name": "A", "questions": "3", "sanctioned": "maybe"}))
    ) == [
        (
            "row 2, column sanctioned",
            "'maybe' is not one of 'yes', 'no', 'y', 'n', 'true', 'false', '1', '0'",
        )
    ]


# --- Tours of any length --------------------------------------------------------------------


def variable_book(rating: bool = False) -> Rulebook:
    """15 questions unless a tour's masks say otherwise, up to 36; ``rating``: places tied on
    questions go to the question rating."""
    text = RULEBOOK.replace(
        "    questions: {questions}\n", "    questions: 15\n    max_questions: 36\n"
    )
    if rating:
        text = text.replace(
            '{{criteria: [questions], clause: "п. 11 places"}}',
            '{{criteria: [questions, {{key: question-rating, clause: "п. 11 rating"}}], '
            'clause: "п. 11 places"}}',
        )
    return parse(text.replace("{{", "{").replace("}}", "}"))


def test_a_rulebook_with_max_questions_takes_each_tour_length_from_its_masks() -> None:
    book = variable_book()
    twelve = tour(
        book,
        rows(
            {"id": "a", "name": "A", "mask": "111111111111"},
            {"id": "b", "name": "B", "mask": "110000000001"},
            {"id": "c", "name": "C", "questions": "12"},
        ),
    )
    assert [(r.entry.id, r.entry.metrics["questions"], *places(r)[:2]) for r in twelve.rows] == [
        ("a", 12, 1, 2),
        ("c", 12, 1, 2),
        ("b", 3, 3, 3),
    ]
    assert by_id(twelve)["c"].entry.notes == (
        Reason(None, "A tour of 12 questions, as its masks give (the rulebook allows up to 36)"),
    )
    # The same rulebook takes an 18-question tour.
    eighteen = tour(book, rows({"id": "a", "name": "A", "mask": "1" * 18}))
    assert eighteen.rows[0].entry.metrics["questions"] == 18
    counts = tour(book, rows({"id": "a", "name": "A", "questions": "20"}))
    assert counts.rows[0].entry.notes[0].text == (
        "Tour given by counts only: each is checked against the longest tour the rulebook "
        "allows, 36 questions"
    )


def test_masks_of_one_tour_must_agree_on_its_length_and_stay_within_the_bound() -> None:
    book = variable_book()
    assert problems_of(
        lambda: tour(
            book,
            rows(
                {"id": "a", "name": "A", "mask": "1" * 12},
                {"id": "b", "name": "B", "mask": "1" * 15},
                {"id": "c", "name": "C", "questions": "13"},
            ),
        )
    ) == [
        ("row 3, column mask", f"mask '{'1' * 15}' has 15 marks, but the tour has 12 questions"),
        ("row 4, column questions", "13 questions taken, but the tour has 12"),
    ]
    assert problems_of(lambda: tour(book, rows({"id": "a", "name": "A", "mask": "0" * 40}))) == [
        ("row 2, column mask", f"mask '{'0' * 40}' has 40 marks, but the tour has 36 questions")
    ]
    # Counts alone do not say the length: they are checked against the bound.
    assert problems_of(lambda: tour(book, rows({"id": "a", "name": "A", "questions": "37"}))) == [
        ("row 2, column questions", "37 questions taken, but the tour has 36")
    ]


def test_without_max_questions_the_tour_keeps_the_rulebooks_length() -> None:
    assert problems_of(lambda: tour(BOOK, rows({"id": "a", "name": "A", "mask": "1" * 12}))) == [
        ("row 2, column mask", f"mask '{'1' * 12}' has 12 marks, but the tour has 15 questions")
    ]


def test_max_questions_below_questions_is_refused() -> None:
    with pytest.raises(Exception, match="max_questions 10 is less than questions 15"):
        parse(
            RULEBOOK.replace(
                "    questions: {questions}\n", "    questions: 15\n    max_questions: 10\n"
            )
            .replace("{{", "{")
            .replace("}}", "}")
        )


def test_a_season_of_tours_of_different_lengths() -> None:
    book = variable_book()
    raw = rows(
        {"tour": "1", "id": "a", "name": "A", "mask": "1" * 12},
        {"tour": "1", "id": "b", "name": "B", "mask": "1" * 6 + "0" * 6},
        {"tour": "2", "id": "a", "name": "A", "mask": "0" * 18},
        {"tour": "2", "id": "b", "name": "B", "mask": "1" * 17 + "0"},
    )
    [table] = tables(book, book.stage("chgk-season"), raw)
    # A: 1st then 2nd (12 + 10); B: 2nd then 1st (10 + 12): 22 points each, a tie for the
    # prize places that the extra match settles, whatever the questions (12 of 30, 23 of 30).
    got = {
        r.entry.id: (r.rank, r.rank_to, r.playoff, r.entry.metrics["season_questions"], r.points)
        for r in table.rows
    }
    assert got == {
        "a": (1, 2, True, 12, Decimal("22.000")),
        "b": (1, 2, True, 23, Decimal("22.000")),
    }


@pytest.mark.parametrize(
    ("mark", "faults"),
    [
        ("1", "2000000 marks, but the tour has 12 questions"),
        (
            "a",
            "'a' at question 1; 'a' at question 2; 'a' at question 3; 'a' at question 4; "
            "'a' at question 5; 1999995 more wrong marks (marks are 1 (taken), 0 (not taken), "
            "X (withdrawn), ? (disputed)); 2000000 marks, but the tour has 12 questions",
        ),
    ],
)
def test_a_huge_mask_is_refused_quickly_with_a_short_message(mark: str, faults: str) -> None:
    book = variable_book(rating=True)
    raw = rows(
        {"id": "a", "name": "A", "mask": mark * 2_000_000},
        {"id": "b", "name": "B", "mask": "1" * 12},
    )
    tracemalloc.start()
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    found = problems_of(lambda: tour(book, raw))
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # The message shows the mask's first 59 marks and names at most five wrong ones.
    assert found == [("row 2, column mask", f"mask '{mark * 59}…' has {faults}")]
    assert cpu < 2, f"{cpu:.2f} s of CPU time"
    assert peak < 100 * 2**20


# --- The question rating --------------------------------------------------------------------


def test_question_rating_breaks_a_tie_on_questions_by_a_hand_worked_table() -> None:
    # 5 questions, 4 official teams (N = 4) and U outside the competition, whose answers do not
    # count. Taken by (official) k: q1 4, q2 2, q3 1, q4 2 (B, C), q5 1 (C); each is worth
    # N − k + 1: 1, 3, 4, 3, 4.
    table = tour(
        variable_book(rating=True),
        rows(
            {"id": "a", "name": "A", "mask": "11100"},  # 1 + 3 + 4 = 8
            {"id": "b", "name": "B", "mask": "11010"},  # 1 + 3 + 3 = 7
            {"id": "c", "name": "C", "mask": "10011"},  # 1 + 3 + 4 = 8
            {"id": "d", "name": "D", "mask": "10000"},  # 1
            {"id": "u", "name": "U", "mask": "01111", "scored": "no"},  # 3 + 4 + 3 + 4 = 14
        ),
    )
    got = [
        (r.entry.id, r.entry.metrics["questions"], r.entry.metrics["question_rating"], *places(r))
        for r in table.rows
    ]
    d = Decimal
    assert got == [
        ("u", 4, 14, 1, 1, None, None, None),
        ("a", 3, 8, 2, 3, 1, 2, d("11.000")),  # 1st–2nd shared: (12 + 10) / 2
        ("c", 3, 8, 2, 3, 1, 2, d("11.000")),
        ("b", 3, 7, 4, 4, 3, 3, d("8.000")),
        ("d", 1, 1, 5, 5, 4, 4, d("7.000")),
    ]
    teams = by_id(table)
    assert ("п. 11 rating", "Below C on question rating: 7 against 8") in [
        (r.clause, r.text) for r in teams["b"].reasons
    ]
    assert (
        "п. 11 rating",
        "Question rating: 1 + 3 + 4 = 8 (a question taken by k of 4 teams is worth 4 − k + 1)",
    ) in [(r.clause, r.text) for r in teams["a"].reasons]


def test_question_rating_needs_every_teams_mask() -> None:
    book = variable_book(rating=True)
    raw = rows(
        {"id": "a", "name": "A", "mask": "11100"}, {"id": "b", "name": "B", "questions": "2"}
    )
    assert problems_of(lambda: tour(book, raw)) == [
        ("row 3, column mask", "the question rating needs the team's mask, not only its count")
    ]


def test_a_sanctioned_team_rates_zero_but_its_answers_count_in_k() -> None:
    table = tour(
        variable_book(rating=True),
        rows(
            {"id": "a", "name": "A", "mask": "110", "sanctioned": "yes"},
            {"id": "b", "name": "B", "mask": "100"},
            {"id": "c", "name": "C", "mask": "010"},
        ),
    )
    # N = 3; q1 taken by A and B (worth 2), q2 by A and C (worth 2), q3 by nobody.
    assert {r.entry.id: r.entry.metrics["question_rating"] for r in table.rows} == {
        "a": 0,
        "b": 2,
        "c": 2,
    }
    assert (
        "Question rating: 0 (no question counted; a question taken by k of 3 teams is worth "
        "3 − k + 1)"
    ) in texts(by_id(table)["a"])


# --- Points on the rows (DESIGN §3) ---------------------------------------------------------


def test_season_rows_stand_on_their_summed_points() -> None:
    table = season(season_rows({"1": [("A", 13), ("B", 10)], "2": [("B", 12), ("A", 9)]}))
    assert {r.entry.id: r.points for r in table.rows} == {
        "A": Decimal("22.000"),  # 12 + 10
        "B": Decimal("22.000"),  # 10 + 12
    }
