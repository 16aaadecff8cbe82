from __future__ import annotations

from decimal import Decimal

import pytest

from podium.engine import criteria as _criteria  # noqa: F401  (registers the criteria)
from podium.engine.compute import compute_standings
from podium.engine.entries import Entry, Reason
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Table, build_table, points_decimals, split_points
from podium.rules.loader import load, parse, preset_text
from podium.rules.schema.ranking import Points
from podium.rules.schema.stages import Stage

CHGK_POINTS = Points(per_place=tuple(Decimal(p) for p in (12, 10, 8, 7, 6, 5, 4, 3, 2, 1)))


@pytest.mark.parametrize(
    ("place", "place_to", "expected"),
    [
        (1, 1, "12.000"),
        (10, 10, "1.000"),
        (1, 2, "11.000"),  # (12 + 10) / 2
        (2, 4, "8.333"),  # (10 + 8 + 7) / 3
        (10, 12, "0.333"),  # (1 + 0 + 0) / 3
        (9, 11, "1.000"),  # (2 + 1 + 0) / 3
        (9, 10, "1.500"),  # (2 + 1) / 2
        (8, 10, "2.000"),  # (3 + 2 + 1) / 3
        (2, 7, "6.667"),  # 40 / 6 = 6.6666… rounds up
        (10, 15, "0.167"),  # 1 / 6 = 0.1666… rounds up
        (10, 25, "0.063"),  # 1 / 16 = 0.0625: half up (half-even would give 0.062)
        (11, 11, "0.000"),  # beyond the table
        (11, 14, "0.000"),
    ],
)
def test_split_points(place: int, place_to: int, expected: str) -> None:
    points = split_points(place, place_to, CHGK_POINTS)
    assert str(points) == expected


def test_split_points_rounds_half_up_at_the_last_decimal() -> None:
    thousandth = Points(per_place=(Decimal("0.001"), Decimal(0)))
    assert str(split_points(1, 2, thousandth)) == "0.001"  # 0.0005
    tenths = Points(per_place=(Decimal("0.5"), Decimal(0)), decimals=1)
    assert str(split_points(1, 2, tenths)) == "0.3"  # 0.25
    whole = Points(per_place=(Decimal(3), Decimal(0)), decimals=0)
    assert str(split_points(1, 2, whole)) == "2"  # 1.5


RULEBOOK = """
key: standings-test
title: Standings test
language: en
source: written for this test
classification:
  domestic: {{country: CZ, clause: "Only Czechs compete for the title"}}
categories:
  - key: solo
    title: Solo
    entrants: {{kind: individual}}
stages:
  - key: final
    title: Final
    format: timed-solve
    category: solo
    time_limit_min: 75
    pieces: 500
    ranking:
      clause: "Score by pieces and finish time"
      criteria:
        - key: finished
          clause: "Finishers first"
        - key: time
          clause: "The referee records the time"
        - pieces
    points:
      clause: "Points per place"
      per_place: [12, 10, 8, 7, 6, 5, 4, 3, 2, 1]
    prizes:
      places: 3
      official_only: {official_only}
      clause: "Places 1-3 win a prize"
"""


def stage(*, official_only: bool = True) -> Stage:
    text = RULEBOOK.format(official_only="true" if official_only else "false")
    return parse(text).stage("final")


FOREIGN = Reason("Only Czechs compete for the title", "Outside the competition: registered in SK")


def solver(
    name: str, seconds: int | None, pieces: int | None = None, *, czech: bool = True
) -> Entry:
    metrics = {
        "finished": int(seconds is not None),
        "time_ms": None if seconds is None else seconds * 1000,
        "pieces": pieces,
    }
    if czech:
        return Entry(name.lower(), name, metrics)
    return Entry(name.lower(), name, metrics, klass="foreign", outside=FOREIGN)


def table(*entries: Entry, official_only: bool = True) -> Table:
    return build_table("all", "Final", entries, stage(official_only=official_only))


def rows_by_id(t: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in t.rows}


def texts(row: Row) -> list[tuple[str | None, str]]:
    return [(r.clause, r.text) for r in row.reasons]


def field() -> Table:
    return table(
        solver("Alice", 1800),
        solver("Boris", 1860),
        solver("Cyril", 1920),
        solver("Dana", 1920),
        solver("Emil", None, 480),
    )


def test_first_row_says_what_it_won_with() -> None:
    alice = rows_by_id(field())["alice"]
    assert (alice.rank, alice.rank_to, alice.official_rank, alice.points) == (
        1,
        1,
        1,
        Decimal("12.000"),
    )
    assert texts(alice) == [
        ("Finishers first", "First: finished, time 0:30:00"),
        ("Points per place", "12.000 points for official place 1"),
        ("Places 1-3 win a prize", "Wins a prize"),
    ]


def test_a_split_row_names_the_row_above_the_criterion_and_both_values() -> None:
    rows = rows_by_id(field())
    assert texts(rows["boris"])[0] == (
        "The referee records the time",
        "Below Alice on time: 0:31:00 against 0:30:00",
    )
    # Pieces has no clause of its own: the ranking's clause stands for it.
    assert texts(rows["emil"])[:2] == [
        ("Finishers first", "Below Dana on finish: not finished against finished"),
        ("Points per place", "6.000 points for official place 5"),
    ]


def test_tied_rows_share_places_and_points() -> None:
    rows = rows_by_id(field())
    cyril, dana = rows["cyril"], rows["dana"]
    assert (cyril.rank, cyril.rank_to, dana.rank, dana.rank_to) == (3, 4, 3, 4)
    assert cyril.points == dana.points == Decimal("7.500")
    shared = (
        "Score by pieces and finish time",
        "Shares places 3rd–4th: equal on finish, time, pieces placed",
    )
    points = ("Points per place", "Shares official places 3–4: (8 + 7) / 2 = 7.500 points")
    assert texts(cyril) == [
        ("The referee records the time", "Below Boris on time: 0:32:00 against 0:31:00"),
        shared,
        points,
        ("Places 1-3 win a prize", "Wins a prize"),
    ]
    assert texts(dana) == [shared, points, ("Places 1-3 win a prize", "Wins a prize")]


def prize_field(*, official_only: bool) -> Table:
    return table(
        solver("Alice", 1800),
        solver("Zuzana", 1810, czech=False),
        solver("Boris", 1820),
        solver("Cyril", 1830),
        solver("Dana", 1840),
        official_only=official_only,
    )


def test_prizes_go_to_official_places_only() -> None:
    rows = rows_by_id(prize_field(official_only=True))
    assert {k: (r.rank, r.official_rank, r.prize) for k, r in rows.items()} == {
        "alice": (1, 1, True),
        "zuzana": (2, None, False),
        "boris": (3, 2, True),
        "cyril": (4, 3, True),  # the 3rd Czech, 4th overall
        "dana": (5, 4, False),
    }
    zuzana = rows["zuzana"]
    assert zuzana.points is None
    assert zuzana.official_rank_to is None
    assert texts(zuzana) == [
        ("Only Czechs compete for the title", "Outside the competition: registered in SK"),
        ("The referee records the time", "Below Alice on time: 0:30:10 against 0:30:00"),
    ]
    assert rows["cyril"].points == Decimal("8.000")


def test_prizes_by_overall_place_when_not_official_only() -> None:
    rows = rows_by_id(prize_field(official_only=False))
    assert [r.entry.id for r in rows.values() if r.prize] == ["alice", "zuzana", "boris"]


def test_footnotes_join_the_reasons_of_the_rows_they_name() -> None:
    book = load("deti-kolomny")
    raw = [
        RawRow(2, {"id": "a", "name": "A", "questions": "9"}),
        RawRow(3, {"id": "b", "name": "B", "questions": "7"}),
    ]
    verdict = Reason("п. 14", "Appeal 3 upheld: the answer to question 5 was accepted")
    [table] = compute_standings(book, "chgk-tour", raw, notes={"b": [verdict]}).tables
    a, b = table.rows
    assert verdict not in a.reasons
    assert b.reasons[-1] == verdict
    assert b.reasons[:-1] == compute_standings(book, "chgk-tour", raw).tables[0].rows[1].reasons


def test_points_decimals_follow_what_each_stage_stands_on() -> None:
    """DESIGN §3: place points and a season's sum keep the tour's decimals; match points are
    whole unless the rulebook gives halves; a superfinal has none (no points column)."""
    book = load("deti-kolomny")
    assert {s.key: points_decimals(book, s) for s in book.stages} == {
        "chgk-tour": 3,
        "chgk-season": 3,
        "brainball": 0,
        "superfinal": None,
    }
    halves = parse(preset_text("deti-kolomny").replace("      draw: 1\n", "      draw: 1.5\n", 1))
    assert points_decimals(halves, halves.stage("brainball")) == 1
    jigsaw = load("cz-jigsaw")
    assert points_decimals(jigsaw, jigsaw.stage("team")) is None
