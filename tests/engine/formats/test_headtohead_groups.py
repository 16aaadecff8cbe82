"""Grouped Brainball stages (issue 23): each group ranked as its own league, its tie-breaks in
the rulebook's order and its match points per result as the rulebook sets them.

Hand-worked, one round of 6-question battles, win 3 / draw 2 / loss 1 (2/1/0 below):

Group A  A1–A2 2:3, A1–A3 6:0, A1–A4 4:1, A2–A3 2:2, A2–A4 1:1, A3–A4 3:0
    A1  L W W  = 1+3+3 = 7 pts (2/1/0: 4), questions 12:4, difference +8
    A2  W D D  = 3+2+2 = 7 pts (2/1/0: 4), questions 6:5, difference +1
    A3  L D W  = 1+2+3 = 6 pts (2/1/0: 3), questions 5:8, difference −3
    A4  L D L  = 1+2+1 = 4 pts (2/1/0: 1), questions 2:8, difference −6
  A1 and A2 tie on match points. Match points, question difference, then the battle between
  them: A1 first (+8 against +1). Match points, the battle between them, then question
  difference: A2 first (it beat A1 3:2).

Group B  B1–B2 6:0, B2–B3 1:0, B3–B1 2:1: each wins once, 4 pts (2/1/0: 2), and each has 4
  against the other two; question differences B1 +5, B3 0, B2 −5 decide in either order.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podium.cli.main import app
from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.inputs import RawRow
from podium.engine.validate import check_rulebook
from podium.rules.loader import parse
from podium.rules.schema import Rulebook

RULEBOOK = """
key: grouped-brainball
title: Grouped Brainball
language: ru
source: tests
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, max_size: 9}
stages:
  - key: groups
    title: Groups
    format: head-to-head
    groups: [A, B]
    match: {questions: 6, win: %(win)s, draw: %(draw)s, loss: %(loss)s, clause: "battle of 6"}
    ranking:
      clause: "tie-breaks"
      criteria: [%(criteria)s]
"""
QD_FIRST = "match-points, question-difference, head-to-head"
BATTLE_FIRST = "match-points, head-to-head, question-difference"
BATTLES = [
    ("1", "A", "A1", 2, 3, "A2"),
    ("2", "A", "A1", 6, 0, "A3"),
    ("3", "B", "B1", 6, 0, "B2"),
    ("4", "A", "A1", 4, 1, "A4"),
    ("5", "A", "A2", 2, 2, "A3"),
    ("6", "B", "B2", 1, 0, "B3"),
    ("7", "A", "A2", 1, 1, "A4"),
    ("8", "A", "A3", 3, 0, "A4"),
    ("9", "B", "B3", 2, 1, "B1"),
]


def book(criteria: str, points: tuple[int, int, int] = (3, 2, 1)) -> Rulebook:
    win, draw, loss = points
    return parse(RULEBOOK % {"criteria": criteria, "win": win, "draw": draw, "loss": loss})


def raw(battles: list[tuple[str, str, str, int, int, str]]) -> list[RawRow]:
    return [
        RawRow(
            line,
            {
                "id": i,
                "round": "1",
                "group": g,
                "team1": t1,
                "team2": t2,
                "score1": str(s1),
                "score2": str(s2),
            },
        )
        for line, (i, g, t1, s1, s2, t2) in enumerate(battles, start=2)
    ]


Ranked = dict[str, list[tuple[str, int, Decimal, int]]]


def ranked(criteria: str, points: tuple[int, int, int] = (3, 2, 1)) -> Ranked:
    rulebook = book(criteria, points)
    standings = compute_standings(rulebook, "groups", raw(BATTLES))
    return {
        t.key: [
            (
                r.entry.id,
                r.rank,
                r.entry.metrics["match_points"],
                r.entry.metrics["question_difference"],
            )
            for r in t.rows
        ]
        for t in standings.tables
    }


def test_question_difference_before_the_battle_between_the_tied_teams() -> None:
    assert ranked(QD_FIRST) == {
        "A": [("A1", 1, 7, 8), ("A2", 2, 7, 1), ("A3", 3, 6, -3), ("A4", 4, 4, -6)],
        "B": [("B1", 1, 4, 5), ("B3", 2, 4, 0), ("B2", 3, 4, -5)],
    }


def test_the_battle_between_the_tied_teams_before_question_difference() -> None:
    assert ranked(BATTLE_FIRST) == {
        "A": [("A2", 1, 7, 1), ("A1", 2, 7, 8), ("A3", 3, 6, -3), ("A4", 4, 4, -6)],
        "B": [("B1", 1, 4, 5), ("B3", 2, 4, 0), ("B2", 3, 4, -5)],
    }


@pytest.mark.parametrize("criteria", [QD_FIRST, BATTLE_FIRST])
def test_two_one_nought_match_points_rank_alike_with_their_own_totals(criteria: str) -> None:
    found = ranked(criteria, (2, 1, 0))
    assert [(team, points) for team, _r, points, _d in found["A"]] == [
        (t, Decimal(p)) for t, p in (
            [("A1", 4), ("A2", 4)] if criteria == QD_FIRST else [("A2", 4), ("A1", 4)]
        ) + [("A3", 3), ("A4", 1)]
    ]  # fmt: skip
    assert [points for _t, _r, points, _d in found["B"]] == [2, 2, 2]


def test_each_group_is_its_own_table_with_its_title() -> None:
    standings = compute_standings(book(QD_FIRST), "groups", raw(BATTLES))
    assert [(t.key, t.title) for t in standings.tables] == [
        ("A", "Groups — group A"),
        ("B", "Groups — group B"),
    ]


def test_a_battle_without_a_known_group_or_across_groups_is_refused_by_row() -> None:
    bad = [
        ("1", "", "A1", 2, 3, "A2"),
        ("2", "C", "A1", 6, 0, "A4"),
        ("3", "A", "A1", 6, 0, "A3"),
        ("4", "B", "B1", 6, 0, "B2"),
        ("5", "B", "A3", 1, 0, "B2"),
    ]
    with pytest.raises(InputError) as caught:
        compute_standings(book(QD_FIRST), "groups", raw(bad))
    assert [str(p) for p in caught.value.problems] == [
        "row 2, column group: a value is required (the battle's group: A, B)",
        "row 3, column group: 'C' is not a group of this stage (A, B)",
        "row 6, column group: 'A3' plays in group A (row 4), not in group B",
    ]


@pytest.mark.parametrize(
    ("format_", "extra"),
    [
        ("chgk-tour", "questions: 12"),
        ("superfinal", "sequence: [[chgk, 6]]\n    decider: [chgk]"),
    ],
)
def test_rulebook_check_refuses_groups_on_a_format_that_ranks_one_table(
    format_: str, extra: str
) -> None:
    text = RULEBOOK % {"criteria": "questions", "win": 3, "draw": 2, "loss": 1}
    text = text.replace("format: head-to-head", f"format: {format_}\n    {extra}")
    text = text.replace(
        '    match: {questions: 6, win: 3, draw: 2, loss: 1, clause: "battle of 6"}\n', ""
    )
    [problem] = check_rulebook(parse(text))
    assert problem.where == "stages[0].groups"
    assert str(problem.message).startswith(
        f"format '{format_}' ranks one table for the whole stage, so its groups would be "
        "ignored; groups are ranked apart in: games, head-to-head, team-solve, timed-solve"
    )


def test_rulebook_check_accepts_groups_on_a_head_to_head_stage() -> None:
    assert check_rulebook(book(QD_FIRST)) == []


def test_the_command_line_names_the_line_of_groups_it_refuses(tmp_path: Path) -> None:
    shown = CliRunner().invoke(app, ["rulebook", "show", "deti-kolomny"]).stdout
    text = shown.replace("    questions: 15\n", "    questions: 15\n    groups: [A, B]\n", 1)
    path = tmp_path / "grouped.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    groups: [A, B]") + 1
    done = CliRunner().invoke(app, ["rulebook", "check", str(path)])
    assert done.exit_code == 2
    assert done.stderr.startswith(
        f"{path}:{line}: stages[0].groups: format 'chgk-tour' ranks one table for the whole stage"
    )
