"""ChGK masks: read and checked, tours as long as their masks (``max_questions``), and
the question rating they give."""

from __future__ import annotations

import time
import tracemalloc
from decimal import Decimal

import pytest
from tests.engine.formats.test_chgk import (
    BOOK,
    RULEBOOK,
    by_id,
    places,
    problems_of,
    rows,
    texts,
    tour,
)

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.entries import Reason
from podium.engine.formats.chgk import tables
from podium.engine.formats.chgk.masks import parse_mask
from podium.rules.loader import parse
from podium.rules.schema import Rulebook

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
