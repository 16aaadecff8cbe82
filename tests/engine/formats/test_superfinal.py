"""The superfinal (п. 16): 12 ChGK and 12 Brainball questions scored through, then pairs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.errors import InputError
from podium.engine.formats.superfinal import discipline_at, tables, through_score
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Table
from podium.rules.loader import load, parse
from podium.rules.schema.stages import SuperfinalStage

BOOK = parse(
    """
key: superfinal-test
title: Superfinal test
language: ru
source: tests
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, max_size: 9}
stages:
  - key: superfinal
    title: Superfinal
    format: superfinal
    clause: "п. 1"
    sequence: [[chgk, 12], [brainball, 12]]
    decider: [chgk, brainball]
    ranking: {criteria: [questions], clause: "п. 16"}
"""
)
STAGE = BOOK.stage("superfinal")
assert isinstance(STAGE, SuperfinalStage)

ORDER = "(the order is 12 chgk, then 12 brainball, then pairs of chgk, brainball)"


def rows(*answers: str, disciplines: dict[int, str] | None = None) -> list[RawRow]:
    """Question n is ``answers[n - 1]`` ("10": Alpha took it, Beta did not), on line n + 1."""
    disciplines = disciplines or {}
    return [
        RawRow(
            number + 1,
            {
                "id": str(number),
                "discipline": disciplines.get(number, discipline_at(STAGE, number)),
                "Alpha": answer[0],
                "Beta": answer[1],
            },
        )
        for number, answer in enumerate(answers, start=1)
    ]


def table_of(raw: list[RawRow], book: Any = BOOK) -> Table:
    [table] = tables(book, book.stage("superfinal"), raw)
    return table


def summary(table: Table) -> list[tuple[str, int, int, str]]:
    return [(r.entry.id, r.rank, r.rank_to, r.entry.score_text) for r in table.rows]


def notes(row: Row) -> list[tuple[str | None, str]]:
    return [(n.clause, n.text) for n in row.entry.notes]


def problems_of(raw: list[RawRow]) -> list[tuple[str, str]]:
    with pytest.raises(InputError) as caught:
        table_of(raw)
    return sorted((p.where, p.text) for p in caught.value.problems)


# ChGK: both take 6, Alpha 2 more (8:6). Brainball: Alpha 6, Beta 5, one nobody took (6:5).
ALPHA_BY_THREE = ["11"] * 6 + ["10"] * 2 + ["00"] * 4 + ["10"] * 6 + ["01"] * 5 + ["00"]
# ChGK 12:12, Brainball 6:6: 18:18 after the 24 regular questions.
LEVEL = ["11"] * 12 + ["10"] * 6 + ["01"] * 6


def test_decided_by_the_regular_questions() -> None:
    table = table_of(rows(*ALPHA_BY_THREE))
    assert summary(table) == [("Alpha", 1, 1, "14 q"), ("Beta", 2, 2, "11 q")]
    assert notes(table.rows[0]) == [
        ("п. 16", "After the 24 regular questions: Alpha 14 – Beta 11"),
        ("п. 16", "Decided by question 24: Alpha leads 14:11"),
    ]
    assert table.rows[1].entry.notes == table.rows[0].entry.notes


def test_tied_after_24_and_decided_by_the_first_pair() -> None:
    table = table_of(rows(*LEVEL, "01", "00"))
    assert summary(table) == [("Beta", 1, 1, "19 q"), ("Alpha", 2, 2, "18 q")]
    assert notes(table.rows[0]) == [
        ("п. 16", "After the 24 regular questions: Alpha 18 – Beta 18"),
        ("п. 16", "After pair 1 (questions 25–26): Alpha 18 – Beta 19"),
        ("п. 16", "Decided by question 26: Beta leads 19:18"),
    ]


def test_tied_after_a_pair_and_decided_by_the_second() -> None:
    table = table_of(rows(*LEVEL, "11", "00", "00", "10"))
    assert summary(table) == [("Alpha", 1, 1, "20 q"), ("Beta", 2, 2, "19 q")]
    assert [text for _, text in notes(table.rows[1])] == [
        "After the 24 regular questions: Alpha 18 – Beta 18",
        "After pair 1 (questions 25–26): Alpha 19 – Beta 19",
        "After pair 2 (questions 27–28): Alpha 20 – Beta 19",
        "Decided by question 28: Alpha leads 20:19",
    ]


def test_a_lead_in_the_middle_of_a_pair_decides_nothing() -> None:
    course = through_score(STAGE, [(1, 1)] * 24 + [(1, 0)])
    assert course.decided_after is None
    assert course.totals == (25, 24)


def test_questions_after_the_decision_are_refused() -> None:
    assert problems_of(rows(*ALPHA_BY_THREE, "11", "01")) == [
        ("row 26, column id", "the superfinal was already decided after question 24"),
        ("row 27, column id", "the superfinal was already decided after question 24"),
    ]
    assert problems_of(rows(*LEVEL, "01", "00", "10")) == [
        ("row 28, column id", "the superfinal was already decided after question 26"),
    ]


@pytest.mark.parametrize(
    ("answers", "score", "totals"),
    [
        pytest.param(LEVEL, "Alpha 18 – Beta 18 after question 24", (18, 18), id="tied-after-24"),
        pytest.param(
            [*LEVEL, "11", "00", "10"],
            "Alpha 20 – Beta 19 after question 27",
            (20, 19),
            id="in-the-middle-of-a-pair",
        ),
        pytest.param(
            ["10"] * 2 + ["11"] * 3 + ["00"] * 5,
            "Alpha 5 – Beta 3 after question 10",
            (5, 3),
            id="in-the-regular-questions",
        ),
    ],
)
def test_undecided_shows_the_score_and_keeps_the_tie(
    answers: list[str], score: str, totals: tuple[int, int]
) -> None:
    table = table_of(rows(*answers))
    assert summary(table) == [
        ("Alpha", 1, 2, f"{totals[0]} q"),
        ("Beta", 1, 2, f"{totals[1]} q"),
    ]
    for row in table.rows:
        assert (row.official_rank, row.official_rank_to, row.prize, row.advances) == (
            1,
            2,
            False,
            False,
        )
        assert row.reasons[0].text == "Shares places 1st–2nd: the superfinal is not decided yet"
        assert (row.reasons[-1].clause, row.reasons[-1].text) == (
            "п. 16",
            f"Undecided: the superfinal goes on ({score})",
        )


def test_questions_out_of_order_are_refused() -> None:
    raw = rows(*LEVEL, "11", "00", disciplines={5: "brainball", 13: "chgk", 26: "chgk"})
    assert problems_of(raw) == [
        ("row 14, column discipline", f"question 13 must be brainball, not chgk {ORDER}"),
        ("row 27, column discipline", f"question 26 must be brainball, not chgk {ORDER}"),
        ("row 6, column discipline", f"question 5 must be chgk, not brainball {ORDER}"),
    ]


def test_bad_cells_numbers_and_a_brainball_question_won_twice() -> None:
    raw = rows("11", "12", "10", "00")
    raw[2] = RawRow(4, {**raw[2].cells, "id": "5"})  # question 3 missing
    raw[3] = RawRow(5, {**raw[3].cells, "id": "2", "discipline": "ping-pong"})
    raw.append(RawRow(6, {"id": "0", "discipline": "chgk", "Alpha": "1", "Beta": ""}))
    raw.append(RawRow(7, {"id": "13", "discipline": "brainball", "Alpha": "1", "Beta": "1"}))
    assert problems_of(raw) == [
        ("row 3, column Beta", "'2' is not one of '1', '0'"),
        ("row 4, column id", "questions 3–4 are missing before question 5"),
        ("row 5, column discipline", "'ping-pong' is not one of 'chgk', 'brainball'"),
        ("row 5, column id", "duplicate question 2 (also on row 3)"),
        ("row 6, column Beta", "a value is required (1 or 0)"),
        ("row 6, column id", "questions are numbered from 1"),
        (
            "row 7, column Beta",
            "both teams cannot win a Brainball question: it goes to one team at most",
        ),
        ("row 7, column id", "questions 6–12 are missing before question 13"),
    ]


def test_a_superfinal_is_between_exactly_two_teams() -> None:
    raw = [RawRow(2, {"id": "1", "discipline": "chgk", "A": "1", "B": "0", "C": "1"})]
    with pytest.raises(InputError) as caught:
        table_of(raw)
    assert [str(p) for p in caught.value.problems] == [
        "columns: a superfinal is a match between two teams, one column each; "
        "found 3 team columns (A, B, C)"
    ]


# --- Properties and the preset ----------------------------------------------------------------

ANSWERS = {"chgk": ["00", "01", "10", "11"], "brainball": ["00", "01", "10"]}


@st.composite
def matches(draw: Any) -> list[str]:
    """A superfinal as played: answers in the right disciplines, up to its decision (or 40)."""
    answers: list[str] = []
    while len(answers) < 40:
        answers.append(draw(st.sampled_from(ANSWERS[discipline_at(STAGE, len(answers) + 1)])))
        taken = [(int(a[0]), int(a[1])) for a in answers]
        if through_score(STAGE, taken).decided_after is not None:
            break
    return answers


@settings(max_examples=60, deadline=None)
@given(matches().flatmap(lambda a: st.tuples(st.just(a), st.permutations(range(len(a))))))
def test_the_winner_leads_and_row_order_does_not_matter(case: tuple[list[str], list[int]]) -> None:
    answers, order = case
    raw = rows(*answers)
    table = table_of(raw)
    assert summary(table_of([raw[i] for i in order])) == summary(table)
    course = through_score(STAGE, [(int(a[0]), int(a[1])) for a in answers])
    first, second = table.rows
    if course.decided_after is None:
        assert (first.rank, second.rank) == (1, 1)
    else:
        assert course.decided_after == 24 or (course.decided_after - 24) % 2 == 0
        assert (first.rank, second.rank) == (1, 2)
        assert course.totals == (max(course.totals), min(course.totals)) or first.entry.id == "Beta"
        winner, loser = (int(r.entry.metrics["questions"] or 0) for r in table.rows)
        assert winner > loser


def test_deti_kolomny_preset_superfinal() -> None:
    table = table_of(rows(*LEVEL, "11", "00", "00", "10"), book=load("deti-kolomny"))
    assert summary(table) == [("Alpha", 1, 1, "20 q"), ("Beta", 2, 2, "19 q")]
    assert table.rows[0].entry.notes[-1].text == "Decided by question 28: Alpha leads 20:19"
    assert (table.rows[0].entry.notes[-1].clause or "").startswith("п. 16")
