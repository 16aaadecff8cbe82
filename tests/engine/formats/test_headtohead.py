"""Brainball leagues: battles of 6 questions, a double round-robin, hand-worked tables."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.errors import InputError
from podium.engine.formats.headtohead import Battle, league, league_entry, sanction_loss, tables
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Table
from podium.rules.loader import load, parse

BOOK = parse(
    """
key: brainball-test
title: Brainball test
language: ru
source: tests
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, max_size: 9}
stages:
  - key: brainball
    title: Brainball
    format: head-to-head
    rounds: 2
    match: {questions: 6, win: 2, draw: 1, loss: 0, clause: "battle of 6"}
    ranking:
      clause: "tie-breaks"
      criteria: [match-points, head-to-head, question-difference]
sanctions:
  - key: ineligible-player
    when: a player not on the roster
    clause: "п. 8"
    effects:
      - {kind: battle-loss, discipline: brainball, score: "0:6"}
"""
)
STAGE = BOOK.stage("brainball")
MATCH = STAGE.match  # type: ignore[union-attr]

Played = tuple[str, int, str, int, int, str]  # battle id, round, team1, score1, score2, team2


def rows(*battles: Played) -> list[RawRow]:
    return [
        RawRow(
            line,
            {
                "id": battle_id,
                "round": str(round_),
                "team1": team1,
                "team2": team2,
                "score1": str(score1),
                "score2": str(score2),
            },
        )
        for line, (battle_id, round_, team1, score1, score2, team2) in enumerate(battles, start=2)
    ]


def table_of(raw: list[RawRow]) -> Table:
    [table] = tables(BOOK, STAGE, raw)
    return table


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def texts(row: Row) -> list[str]:
    return [r.text for r in row.reasons]


# A double round-robin of four teams, worked out by hand below.
SEASON: list[Played] = [
    ("1", 1, "A", 4, 2, "B"),
    ("2", 1, "C", 5, 1, "D"),
    ("3", 1, "A", 3, 3, "C"),
    ("4", 1, "B", 4, 1, "D"),
    ("5", 1, "A", 6, 0, "D"),
    ("6", 1, "B", 4, 2, "C"),
    ("7", 2, "B", 2, 4, "A"),
    ("8", 2, "D", 0, 6, "C"),
    ("9", 2, "C", 3, 3, "A"),
    ("10", 2, "D", 2, 3, "B"),
    ("11", 2, "D", 1, 4, "A"),
    ("12", 2, "C", 3, 3, "B"),
]


def test_double_round_robin_table() -> None:
    table = table_of(rows(*SEASON))
    assert [(r.entry.id, r.rank, r.rank_to, r.entry.score_text) for r in table.rows] == [
        # A: beat B twice and D twice, drew with C twice: 4 × 2 + 2 × 1.
        ("A", 1, 1, "10 pts (4–2–0, 24:11)"),
        # B and C: 7 points each; B took 3 of the points between them (4:2, 3:3), C took 1,
        # so B is above although C's question difference (+8) is better than B's (+2).
        ("B", 2, 2, "7 pts (3–1–2, 18:16)"),
        ("C", 3, 3, "7 pts (2–3–1, 22:14)"),
        ("D", 4, 4, "0 pts (0–0–6, 5:28)"),
    ]
    teams = by_id(table)
    assert teams["B"].entry.versus == {"A": Decimal(0), "C": Decimal(3), "D": Decimal(4)}
    assert teams["C"].entry.versus == {"A": Decimal(2), "B": Decimal(1), "D": Decimal(4)}
    assert teams["C"].entry.metrics["question_difference"] == 8
    assert teams["B"].entry.metrics["question_difference"] == 2
    assert teams["A"].entry.metrics["match_points"] == Decimal(10)
    # DESIGN §3: a row stands on its match points.
    assert {k: r.points for k, r in teams.items()} == {
        "A": Decimal(10),
        "B": Decimal(7),
        "C": Decimal(7),
        "D": Decimal(0),
    }
    assert "Below B on match points between the tied teams: 1 against 3" in texts(teams["C"])
    assert [(n.clause, n.text) for n in teams["B"].entry.notes] == [
        ("battle of 6", "Round 1, battle 1: lost to A 2:4"),
        ("battle of 6", "Round 1, battle 4: beat D 4:1"),
        ("battle of 6", "Round 1, battle 6: beat C 4:2"),
        ("battle of 6", "Round 2, battle 7: lost to A 2:4"),
        ("battle of 6", "Round 2, battle 10: beat D 3:2"),
        ("battle of 6", "Round 2, battle 12: drew with C 3:3"),
    ]


def test_three_way_tie_equal_between_themselves_goes_to_question_difference() -> None:
    # X, Y and Z beat each other in a circle and all beat W: 4 points each, 2 among themselves.
    table = table_of(
        rows(
            ("1", 1, "X", 4, 2, "Y"),
            ("2", 1, "Y", 5, 1, "Z"),
            ("3", 1, "Z", 3, 2, "X"),
            ("4", 1, "X", 3, 2, "W"),
            ("5", 1, "Y", 3, 1, "W"),
            ("6", 1, "Z", 2, 0, "W"),
        )
    )
    got = [
        (
            r.entry.id,
            r.rank,
            r.entry.metrics["match_points"],
            r.entry.metrics["question_difference"],
        )
        for r in table.rows
    ]
    # Question difference: Y −2 +4 +2 = +4; X +2 −1 +1 = +2; Z +1 −4 +2 = −1.
    assert got == [("Y", 1, 4, 4), ("X", 2, 4, 2), ("Z", 3, 4, -1), ("W", 4, 0, -5)]
    teams = by_id(table)
    assert "Below Y on question difference: 2 against 4" in texts(teams["X"])
    assert "Below X on question difference: -1 against 2" in texts(teams["Z"])


def test_a_tie_on_every_criterion_shares_the_place() -> None:
    table = table_of(rows(("1", 1, "A", 3, 3, "B")))
    assert [(r.entry.id, r.rank, r.rank_to) for r in table.rows] == [("A", 1, 2), ("B", 1, 2)]


def test_bad_battles_are_all_reported() -> None:
    raw = rows(
        ("1", 1, "A", 4, 2, "B"),
        ("1", 1, "C", 3, 3, "D"),
        ("3", 3, "A", 1, 1, "C"),
        ("4", 1, "A", 3, 2, "A"),
        ("5", 1, "B", 2, 2, "A"),
        ("6", 2, "C", 7, -1, "D"),
        ("7", 2, "A", 4, 3, "D"),
        ("9", 0, "B", 1, 0, "D"),
    )
    raw.append(
        RawRow(10, {"id": "", "round": "x", "team1": "B", "team2": "", "score1": "", "score2": "1"})
    )
    with pytest.raises(InputError) as caught:
        table_of(raw)
    assert [(p.where, p.text) for p in caught.value.problems] == [
        ("row 3, column id", "duplicate battle id '1' (also on row 2)"),
        ("row 4, column round", "round 3, but the league has rounds 1 to 2"),
        ("row 5, column team2", "'A' cannot play against itself"),
        ("row 6, column round", "A and B already met in round 1 (row 2)"),
        ("row 7, column score1", "7 is more than the 6 this allows"),
        ("row 7, column score2", "-1 is negative: a score cannot be below 0"),
        (
            "row 8, column score2",
            "4 + 3 questions won, but a battle has 6 and each is won by one team at most",
        ),
        ("row 9, column round", "round 0, but the league has rounds 1 to 2"),
        ("row 10, column id", "every battle needs an id"),
        ("row 10, column round", "'x' is not a whole number"),
        ("row 10, column team2", "a value is required (a team name)"),
        ("row 10, column score1", "a value is required (questions won)"),
    ]


def test_missing_columns() -> None:
    with pytest.raises(InputError) as caught:
        table_of([RawRow(2, {"id": "1", "team1": "A", "team2": "B"})])
    assert [str(p) for p in caught.value.problems] == [
        "column round: missing required column",
        "column score1: missing required column",
        "column score2: missing required column",
    ]


# --- The п. 8 sanction ------------------------------------------------------------------------


def test_sanction_records_a_zero_six_loss_for_the_offender() -> None:
    battle = Battle("5", 1, "A", "B", 4, 2)
    assert sanction_loss(battle, "A", 6) == Battle("5", 1, "A", "B", 0, 6, sanctioned="A")
    assert sanction_loss(battle, "B", 6) == Battle("5", 1, "A", "B", 6, 0, sanctioned="B")
    again = sanction_loss(sanction_loss(battle, "A", 6), "A", 6)
    assert (again.score1, again.score2) == (0, 6)


def test_sanction_refuses_a_team_that_did_not_play_or_a_second_offender() -> None:
    battle = Battle("5", 1, "A", "B", 4, 2)
    with pytest.raises(ValueError, match="'C' did not play battle 5"):
        sanction_loss(battle, "C", 6)
    with pytest.raises(ValueError, match="already recorded as lost by A"):
        sanction_loss(sanction_loss(battle, "A", 6), "B", 6)


def test_a_sanctioned_battle_counts_as_played_zero_six() -> None:
    won_on_the_stage = Battle("5", 1, "A", "B", 4, 2)
    lines = league([sanction_loss(won_on_the_stage, "A", 6)], MATCH)
    assert (lines["A"].lost, lines["A"].match_points, lines["A"].question_difference) == (
        1,
        Decimal(0),
        -6,
    )
    assert (lines["B"].won, lines["B"].match_points, lines["B"].versus) == (
        1,
        Decimal(2),
        {"A": Decimal(2)},
    )
    entry = league_entry(lines["A"], ("battle of 6", "п. 8"))
    assert [(n.clause, n.text) for n in entry.notes] == [
        ("п. 8", "Round 1, battle 5: lost to B 0:6, recorded as a loss for A under a sanction")
    ]


def test_the_sanctioned_column_turns_a_battle_into_the_offenders_zero_six_loss() -> None:
    raw = rows(*SEASON)
    # Battle 3 was drawn 3:3 by A and C; C fielded a player it had not registered.
    raw[2] = RawRow(raw[2].line, {**raw[2].cells, "sanctioned": "C"})
    teams = by_id(table_of(raw))
    # A: 10 + 1 (the draw becomes a win) = 11; C: 7 - 1 = 6, so B (7) is alone in 2nd.
    assert [(t, teams[t].rank, teams[t].entry.score_text) for t in "ABCD"] == [
        ("A", 1, "11 pts (5–1–0, 27:8)"),
        ("B", 2, "7 pts (3–1–2, 18:16)"),
        ("C", 3, "6 pts (2–2–2, 19:17)"),
        ("D", 4, "0 pts (0–0–6, 5:28)"),
    ]
    assert "Round 1, battle 3: lost to A 0:6, recorded as a loss for C under a sanction" in [
        n.text for n in teams["C"].entry.notes
    ]


def test_the_sanctioned_column_must_name_a_team_of_the_battle() -> None:
    raw = rows(*SEASON)
    raw[2] = RawRow(raw[2].line, {**raw[2].cells, "sanctioned": "B"})
    with pytest.raises(InputError) as caught:
        table_of(raw)
    assert [(p.where, p.text) for p in caught.value.problems] == [
        ("row 4, column sanctioned", "'B' did not play this battle (A against C)")
    ]


# --- Properties and the preset ----------------------------------------------------------------

TEAMS = ("A", "B", "C", "D", "E")


@st.composite
def battle_lists(draw: Any) -> list[Played]:
    played: list[Played] = []
    for round_ in (1, 2):
        for i, one in enumerate(TEAMS):
            for other in TEAMS[i + 1 :]:
                if draw(st.booleans()):
                    score1 = draw(st.integers(0, 6))
                    score2 = draw(st.integers(0, 6 - score1))
                    pair = (one, other) if draw(st.booleans()) else (other, one)
                    played.append((str(len(played) + 1), round_, pair[0], score1, score2, pair[1]))
    return played


@settings(max_examples=60, deadline=None)
@given(battle_lists().filter(bool).flatmap(lambda b: st.tuples(st.just(b), st.permutations(b))))
def test_league_table_does_not_depend_on_battle_order(
    case: tuple[list[Played], list[Played]],
) -> None:
    played, shuffled = case

    def summary(table: Table) -> list[tuple[object, ...]]:
        return [
            (r.entry.id, r.rank, r.rank_to, r.entry.score_text, tuple(texts(r))) for r in table.rows
        ]

    straight = table_of(rows(*played))
    assert summary(table_of(rows(*shuffled))) == summary(straight)
    # Every battle hands out win + loss or two draws: 2 match points in all.
    total = sum((r.entry.metrics["match_points"] or 0 for r in straight.rows), Decimal(0))
    assert total == 2 * len(played)


def test_deti_kolomny_preset_brainball() -> None:
    book = load("deti-kolomny")
    [table] = tables(book, book.stage("brainball"), rows(*SEASON))
    assert [(r.entry.id, r.rank, r.entry.score_text) for r in table.rows] == [
        ("A", 1, "10 pts (4–2–0, 24:11)"),
        ("B", 2, "7 pts (3–1–2, 18:16)"),
        ("C", 3, "7 pts (2–3–1, 22:14)"),
        ("D", 4, "0 pts (0–0–6, 5:28)"),
    ]
