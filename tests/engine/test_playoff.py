"""Play-offs for prize places of a ChGK season (п. 12): the extra match, then single questions."""

from __future__ import annotations

from decimal import Decimal

import pytest

from podium.engine.errors import InputError
from podium.engine.formats.chgk import tables
from podium.engine.inputs import RawRow
from podium.engine.playoff import describe
from podium.engine.standings import Row, Table
from podium.rules.loader import load

BOOK = load("deti-kolomny")
PLAYOFF_CLAUSE = BOOK.stage("chgk-season").ranking.playoff.clause  # type: ignore[union-attr]

# Two tours of five teams. Tour 1: 1 A (12), 2 B (10), 3 C (8), 4 D (7), 5 E (6).
# Tour 2: 1 C (12), 2 B (10), 3 A (8), 4 E (7), 5 D (6).
# Season: A 20, B 20, C 20 — a three-way tie for 1st–3rd; D 13 and E 13 points, below the
# prizes, where the season's questions decide: D 7 + 6 = 13, E 5 + 7 = 12.
TOURS = {
    "1": [("A", 12), ("B", 10), ("C", 9), ("D", 7), ("E", 5)],
    "2": [("C", 11), ("B", 10), ("A", 9), ("E", 7), ("D", 6)],
}


def season(playoffs: dict[str, str] | None = None) -> Table:
    cells = [
        {"tour": t, "id": team, "name": f"Team {team}", "questions": str(q)}
        for t, results in TOURS.items()
        for team, q in results
    ]
    cells += [
        {"tour": "playoff", "id": team, "name": f"Team {team}", "playoff": result}
        for team, result in (playoffs or {}).items()
    ]
    raw = [RawRow(line, c) for line, c in enumerate(cells, start=2)]
    [table] = tables(BOOK, BOOK.stage("chgk-season"), raw)
    return table


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def standing(table: Table) -> list[tuple[str, int, int, bool]]:
    return [(r.entry.id, r.rank, r.rank_to, r.playoff) for r in table.rows]


def test_a_three_way_tie_for_the_prizes_is_held_for_a_play_off() -> None:
    table = season()
    assert [r.entry.metrics["points"] for r in table.rows[:3]] == [Decimal("20.000")] * 3
    assert standing(table)[:3] == [("A", 1, 3, True), ("B", 1, 3, True), ("C", 1, 3, True)]
    assert standing(table)[3:] == [("D", 4, 4, False), ("E", 5, 5, False)]


def test_the_extra_match_separates_all_three() -> None:
    table = season({"A": "3", "B": "5", "C": "4"})
    assert standing(table)[:3] == [("B", 1, 1, False), ("C", 2, 2, False), ("A", 3, 3, False)]
    rows = by_id(table)
    reasons = [(r.clause, r.text) for r in rows["C"].reasons if r.text.startswith("Play-off")]
    assert reasons == [(PLAYOFF_CLAUSE, "Play-off: 4 in the match — place 2")]


def test_play_off_rows_may_say_so_in_any_case_and_stand_anywhere_in_the_file() -> None:
    cells = [
        {"tour": " Playoff ", "id": "B", "name": "Team B", "playoff": "5"},
        *(
            {"tour": t, "id": team, "name": f"Team {team}", "questions": str(q)}
            for t, results in TOURS.items()
            for team, q in results
        ),
        {"tour": "PLAYOFF", "id": "A", "name": "Team A", "playoff": "3"},
        {"tour": "playoff", "id": "C", "name": "Team C", "playoff": "4"},
    ]
    raw = [RawRow(line, c) for line, c in enumerate(cells, start=2)]
    [table] = tables(BOOK, BOOK.stage("chgk-season"), raw)
    assert standing(table)[:3] == [("B", 1, 1, False), ("C", 2, 2, False), ("A", 3, 3, False)]


def test_a_row_without_its_tour_and_a_bad_play_off_row_are_both_named_in_file_order() -> None:
    cells = [
        {"tour": "playoff", "id": "A", "name": "Team A", "playoff": "x"},
        {"tour": "", "id": "A", "name": "Team A", "questions": "3"},
        *(
            {"tour": t, "id": team, "name": f"Team {team}", "questions": str(q)}
            for t, results in TOURS.items()
            for team, q in results
        ),
    ]
    raw = [RawRow(line, c) for line, c in enumerate(cells, start=2)]
    with pytest.raises(InputError) as caught:
        tables(BOOK, BOOK.stage("chgk-season"), raw)
    assert [(p.where, p.text) for p in caught.value.problems] == [
        (
            "row 2, column playoff",
            "the questions taken in the play-off match, then each extra question: '4 1 0'",
        ),
        ("row 3, column tour", "a season row needs its tour"),
    ]


def test_single_questions_after_a_tied_match_until_one_team_takes_one() -> None:
    # The match leaves B and C level on 4: a first extra question both miss, the second C takes.
    table = season({"A": "2", "B": "4 0 0", "C": "4 0 1"})
    assert standing(table)[:3] == [("C", 1, 1, False), ("B", 2, 2, False), ("A", 3, 3, False)]
    assert "Play-off: 4 in the match, then 0, 1 — place 1" in [
        r.text for r in by_id(table)["C"].reasons
    ]


def test_still_tied_after_the_match_stays_held_and_says_so() -> None:
    table = season({"A": "2", "B": "4", "C": "4"})
    assert standing(table)[:3] == [("B", 1, 2, True), ("C", 1, 2, True), ("A", 3, 3, False)]
    texts = [r.text for r in by_id(table)["B"].reasons]
    assert "Play-off: 4 in the match; still tied for places 1st–2nd" in texts


def test_a_play_off_with_a_team_missing_is_pending() -> None:
    table = season({"A": "2", "B": "4"})
    assert standing(table)[:3] == [("A", 1, 3, True), ("B", 1, 3, True), ("C", 1, 3, True)]


def test_play_off_rows_for_a_team_not_tied_or_uneven_are_refused() -> None:
    with pytest.raises(InputError) as caught:
        season({"A": "3", "B": "4 1", "C": "4", "D": "6"})
    assert [(p.where, p.text) for p in caught.value.problems] == [
        (
            "row 14, column playoff",
            "'C' and 'B' are still tied, but 'B' played more extra questions: "
            "each is asked of every team still tied",
        ),
        ("row 15, column playoff", "'D' is not tied for a prize place: it has no play-off"),
    ]


def test_play_off_cells_must_be_questions() -> None:
    with pytest.raises(InputError) as caught:
        season({"A": "3", "B": "four", "C": "4 2"})
    assert [(p.where, p.text) for p in caught.value.problems] == [
        (
            "row 13, column playoff",
            "the questions taken in the play-off match, then each extra question: '4 1 0'",
        ),
        ("row 14, column playoff", "each extra question is taken (1) or not (0)"),
    ]


def test_extra_questions_after_a_team_was_separated_are_refused() -> None:
    # A took 3, unlike B and C: it was never asked the extra questions B and C played.
    season({"A": "3", "B": "4 1", "C": "4 0"})
    with pytest.raises(InputError) as caught:
        season({"A": "3 1", "B": "4 1", "C": "4 0"})
    assert [(p.where, p.text) for p in caught.value.problems] == [
        (
            "row 12, column playoff",
            "'A' has extra questions after the play-off had separated it from every other "
            "team: they are asked only of teams still tied",
        )
    ]
    # C lost extra question 1 to B: a second extra question for either is needless.
    with pytest.raises(InputError) as caught:
        season({"A": "3", "B": "4 1 0", "C": "4 0 1"})
    assert [p.where for p in caught.value.problems] == [
        "row 13, column playoff",
        "row 14, column playoff",
    ]
    # A group still waiting for a team's match is not judged yet.
    season({"A": "3 1", "B": "4"})


def test_a_match_takes_no_more_questions_than_the_rulebook_asks() -> None:
    assert BOOK.stage("chgk-season").ranking.playoff.questions == 6  # type: ignore[union-attr]
    season({"A": "6", "B": "0", "C": "5"})  # the whole match is fine
    with pytest.raises(InputError) as caught:
        season({"A": "7", "B": "0", "C": "5"})
    assert [(p.where, p.text) for p in caught.value.problems] == [
        ("row 12, column playoff", "7 questions taken in a play-off match of 6")
    ]


def test_describe() -> None:
    assert str(describe((5,))) == "5 in the match"
    assert str(describe((4, 1, 0))) == "4 in the match, then 1, 0"
