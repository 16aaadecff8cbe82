"""Timed solves: one puzzle against the clock (the penalty for missing pieces, the pieces of a
non-finisher), who is domestic, bad input, and the compensation of lost time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from podium.engine.classification import is_domestic
from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.formats.timed import count_pieces
from podium.engine.inputs import RawRow
from podium.engine.standings import Row, Standings, Table
from podium.rules.loader import parse
from podium.rules.schema import Rulebook

RULEBOOK = """
key: timed-test
title: Timed test
language: en
source: written for this test
classification:
  domestic:
    country: CZ
    team_rule: {team_rule}
    clause: "Only entrants registered in CZ compete officially"
categories:
  - key: solo
    title: Solo
    entrants: {{kind: individual}}
  - key: pairs
    title: Pairs
    entrants: {{kind: pair, min_size: 2, max_size: 2}}
  - key: teams
    title: Teams
    entrants: {{kind: team, min_size: 3, max_size: 4}}
stages:
  - key: qualification
    title: Qualification
    format: timed-solve
    category: solo
    groups: [A, B]
    time_limit_min: 90
    pieces: 500
    missing_piece_penalty_s: 10
    penalty_clause: "10 s per missing piece"
    ranking:
      clause: "By pieces and finish time"
      criteria: [finished, time, pieces]
  - key: pairs
    title: Pairs
    format: timed-solve
    category: pairs
    time_limit_min: 120
    pieces: 1000
    ranking:
      criteria: [finished, time, pieces]
  - key: team
    title: Teams
    format: team-solve
    category: teams
    puzzles: [1000, 500]
    time_limit_min: 150
    missing_piece_penalty_s: 10
    ranking:
      clause: "Teams: our interpretation"
      criteria: [puzzles-done, time, pieces]
"""


def rulebook(team_rule: str = "all") -> Rulebook:
    return parse(RULEBOOK.format(team_rule=team_rule))


def raw(cells: Sequence[Mapping[str, str]], defaults: Mapping[str, str]) -> list[RawRow]:
    """RawRows numbered from line 2 (line 1 is the header), each filled in with the defaults."""
    return [RawRow(line, {**defaults, **c}) for line, c in enumerate(cells, start=2)]


SOLO = {"group": "A", "country": "CZ", "time": "", "missing": "", "pieces": ""}
TEAM = {"country": "CZ", "done": "", "time": "", "pieces": "", "missing": ""}


def solo(*cells: Mapping[str, str], team_rule: str = "all") -> Standings:
    return compute_standings(rulebook(team_rule), "qualification", raw(cells, SOLO))


def team(*cells: Mapping[str, str]) -> Standings:
    return compute_standings(rulebook(), "team", raw(cells, TEAM))


def only_table(standings: Standings) -> Table:
    (table,) = standings.tables
    return table


def placing(table: Table) -> list[tuple[str, int, int, str]]:
    return [(r.entry.id, r.rank, r.rank_to, r.entry.score_text) for r in table.rows]


def by_id(table: Table) -> dict[str, Row]:
    return {row.entry.id: row for row in table.rows}


def problems(error: pytest.ExceptionInfo[InputError]) -> list[str]:
    return [str(p) for p in error.value.problems]


# --- ranking --------------------------------------------------------------------------------


def test_finishers_by_time_plus_penalty_then_non_finishers_by_pieces() -> None:
    table = only_table(
        solo(
            {"id": "ann", "time": "1:02:03", "missing": "2"},  # 1:02:23 with the penalty
            {"id": "ben", "time": "1:02:20"},
            {"id": "cid", "time": "1:02:23"},
            {"id": "dan", "time": "58:00"},
            {"id": "eva", "pieces": "480"},
            {"id": "fay", "pieces": "499"},
            {"id": "gil", "pieces": "480"},
            {"id": "hal", "time": "1:30:00"},  # exactly the limit is still within it
        )
    )
    assert placing(table) == [
        ("dan", 1, 1, "0:58:00"),
        ("ben", 2, 2, "1:02:20"),
        ("ann", 3, 4, "1:02:23 (+20 s)"),
        ("cid", 3, 4, "1:02:23"),
        ("hal", 5, 5, "1:30:00"),
        ("fay", 6, 6, "499 pcs"),
        ("eva", 7, 8, "480 pcs"),
        ("gil", 7, 8, "480 pcs"),
    ]
    rows = by_id(table)
    assert rows["ann"].entry.metrics == {"finished": 1, "time_ms": 3_743_000, "pieces": None}
    penalty = [r for r in rows["ann"].reasons if r.clause == "10 s per missing piece"]
    assert [r.text for r in penalty] == ["Recorded 1:02:03 + 2 missing pieces × 10 s = 1:02:23"]
    assert rows["dan"].reasons[0].text == "First: finished, time 0:58:00"
    assert rows["ben"].reasons[0].text == "Below dan on time: 1:02:20 against 0:58:00"
    assert rows["cid"].reasons[0].text == (
        "Shares places 3rd–4th: equal on finish, time, pieces placed"
    )
    assert rows["fay"].reasons[0].text == "Below hal on finish: not finished against finished"
    assert rows["eva"].reasons[0].text == "Below fay on pieces placed: 480 pcs against 499 pcs"


def test_count_pieces_counts_groups_of_at_least_three() -> None:
    assert count_pieces([5, 2, 3, 1, 12], 3) == 20
    assert count_pieces([2, 2, 1], 3) == 0
    assert count_pieces([3], 3) == 3
    with pytest.raises(ValueError, match="at least one piece"):
        count_pieces([4, 0], 3)


def test_each_group_is_its_own_table() -> None:
    standings = solo(
        {"id": "a1", "time": "50:00"},
        {"id": "b1", "group": "B", "time": "40:00"},
        {"id": "a2", "time": "45:00"},
        {"id": "b2", "group": "B", "time": "41:00"},
    )
    assert [(t.key, t.title) for t in standings.tables] == [
        ("A", "Qualification — group A"),
        ("B", "Qualification — group B"),
    ]
    a, b = standings.tables
    assert [(r.entry.id, r.rank) for r in a.rows] == [("a2", 1), ("a1", 2)]
    assert [(r.entry.id, r.rank) for r in b.rows] == [("b1", 1), ("b2", 2)]


# --- who is domestic ------------------------------------------------------------------------


def pairs(team_rule: str) -> dict[str, Row]:
    cells = [
        {"id": "cz-cz", "country": "CZ/CZ", "time": "1:00:00"},
        {"id": "cz-sk", "country": "CZ/SK", "time": "1:01:00"},
        {"id": "sk-sk", "country": "SK/SK", "time": "1:02:00"},
        {"id": "cz", "country": "CZ", "time": "1:03:00"},
    ]
    defaults = {"time": "", "pieces": ""}
    standings = compute_standings(rulebook(team_rule), "pairs", raw(cells, defaults))
    return by_id(only_table(standings))


@pytest.mark.parametrize(
    ("team_rule", "official_ranks"),
    [
        ("all", {"cz-cz": 1, "cz-sk": None, "sk-sk": None, "cz": 2}),
        ("any", {"cz-cz": 1, "cz-sk": 2, "sk-sk": None, "cz": 3}),
        # One member of two is not a majority.
        ("majority", {"cz-cz": 1, "cz-sk": None, "sk-sk": None, "cz": 2}),
    ],
)
def test_a_pair_is_domestic_by_the_team_rule(
    team_rule: str, official_ranks: dict[str, int | None]
) -> None:
    rows = pairs(team_rule)
    assert {k: r.official_rank for k, r in rows.items()} == official_ranks
    assert {k: r.rank for k, r in rows.items()} == {"cz-cz": 1, "cz-sk": 2, "sk-sk": 3, "cz": 4}
    for key, row in rows.items():
        assert row.entry.official == (official_ranks[key] is not None)
        assert row.entry.klass == ("official" if official_ranks[key] else "foreign")
    if team_rule == "all":
        assert rows["cz-sk"].reasons[0].text == (
            "Outside the competition: registered in CZ/SK, not CZ (all members must be)"
        )
        assert (
            rows["cz-sk"].reasons[0].clause == "Only entrants registered in CZ compete officially"
        )


def test_the_team_rule_on_three_members() -> None:
    assert is_domestic(["CZ", "CZ", "SK"], "CZ", "majority")
    assert not is_domestic(["CZ", "SK", "SK"], "CZ", "majority")
    assert is_domestic(["CZ", "SK", "SK"], "CZ", "any")
    assert not is_domestic(["CZ", "CZ", "SK"], "CZ", "all")
    assert not is_domestic(["SK", "DE", "AT"], "CZ", "any")


def test_a_pair_with_three_countries_is_refused() -> None:
    cells = [{"id": "x", "country": "CZ/SK/DE", "time": "1:00:00"}]
    with pytest.raises(InputError) as caught:
        compute_standings(rulebook(), "pairs", raw(cells, {"time": ""}))
    assert problems(caught) == [
        "row 2, column country: 3 countries for an entry of 2: give one per member"
    ]


def test_a_problem_of_classification_is_named_on_every_row_that_has_it() -> None:
    # Rows alike in what decides their class are classified once; their problems, per row.
    cells = [
        {"id": f"p{n}", "country": "CZ/SK/DE", "time": "1:00:00", "qualified": "yes"}
        for n in range(3)
    ]
    with pytest.raises(InputError) as caught:
        compute_standings(rulebook(), "pairs", raw(cells, {"time": ""}))
    assert problems(caught) == [
        message.format(line=line)
        for line in (2, 3, 4)
        for message in (
            "row {line}, column qualified: this rulebook has no 'already qualified' rule",
            "row {line}, column country: 3 countries for an entry of 2: give one per member",
        )
    ]


def test_entrants_alike_in_what_decides_their_class_share_it() -> None:
    rows = by_id(
        only_table(
            solo(
                {"id": "a", "country": "SK", "time": "1:00:00"},
                {"id": "b", "country": "CZ", "time": "1:00:01"},
                {"id": "c", "country": "SK", "time": "1:00:02"},
            )
        )
    )
    assert [(key, row.entry.klass) for key, row in rows.items()] == [
        ("a", "foreign"),
        ("b", "official"),
        ("c", "foreign"),
    ]
    assert rows["c"].entry.outside == rows["a"].entry.outside
    assert rows["c"].reasons[0].text == "Outside the competition: registered in SK, not CZ"


# --- bad input ------------------------------------------------------------------------------

GOOD = {"id": "ok", "time": "1:00:00"}

# (cells of the bad row, the problem it must report with {line} for its row).
BAD_ROWS = {
    "not a time": (
        {"id": "t1", "time": "1:2x:03"},
        "row {line}, column time: '1:2x:03' is not a time: write H:MM:SS or M:SS",
    ),
    "over the limit": (
        {"id": "t2", "time": "1:30:01"},
        "row {line}, column time: 1:30:01 is over the 90-minute limit of this stage",
    ),
    "negative missing": (
        {"id": "t3", "time": "1:00:00", "missing": "-1"},
        "row {line}, column missing: -1 is negative: a number of pieces cannot be below 0",
    ),
    "more missing than the puzzle has": (
        {"id": "t4", "time": "1:00:00", "missing": "501"},
        "row {line}, column missing: 501 is more than the 500 this allows",
    ),
    "more pieces than the puzzle has": (
        {"id": "t5", "pieces": "501"},
        "row {line}, column pieces: 501 is more than the 500 this allows",
    ),
    "pieces not a number": (
        {"id": "t6", "pieces": "lots"},
        "row {line}, column pieces: 'lots' is not a whole number",
    ),
    "non-finisher without pieces": (
        {"id": "t7"},
        "row {line}, column pieces: a row without a time needs the number of pieces placed",
    ),
    "missing pieces on a non-finisher": (
        {"id": "t8", "pieces": "100", "missing": "3"},
        "row {line}, column missing: missing pieces count only for a finished puzzle "
        "(this row has no time)",
    ),
    "pieces on a finisher": (
        {"id": "t9", "time": "1:00:00", "pieces": "300"},
        "row {line}, column pieces: pieces are counted only for an unfinished puzzle, "
        "but this row has a time",
    ),
    "unknown group": (
        {"id": "t10", "time": "1:00:00", "group": "C"},
        "row {line}, column group: unknown group 'C' (A, B)",
    ),
    "missing group": (
        {"id": "t11", "time": "1:00:00", "group": ""},
        "row {line}, column group: a group is required (A, B)",
    ),
    "duplicate id": (
        {"id": "ok", "time": "1:00:00"},
        "row {line}, column id: duplicate id 'ok' (also on row 2)",
    ),
    "missing id": (
        {"id": "", "time": "1:00:00"},
        "row {line}, column id: every row needs an id",
    ),
    "bad country code": (
        {"id": "t12", "time": "1:00:00", "country": "CZE"},
        "row {line}, column country: 'CZE' is not an ISO 3166 alpha-2 code "
        "(like CZ, or CZ/SK for a pair)",
    ),
    "no country where only Czechs are official": (
        {"id": "t13", "time": "1:00:00", "country": ""},
        "row {line}, column country: a country is required: only entrants from CZ compete "
        "officially",
    ),
}


@pytest.mark.parametrize("case", list(BAD_ROWS))
def test_bad_input_names_the_row_and_column(case: str) -> None:
    cells, expected = BAD_ROWS[case]
    with pytest.raises(InputError) as caught:
        solo(GOOD, cells)
    assert problems(caught) == [expected.format(line=3)]


def test_every_problem_of_a_file_is_reported_at_once() -> None:
    cases = list(BAD_ROWS.values())
    with pytest.raises(InputError) as caught:
        solo(GOOD, *(cells for cells, _ in cases))
    expected = [message.format(line=line) for line, (_, message) in enumerate(cases, start=3)]
    assert len(expected) == 15
    assert problems(caught) == expected


def test_several_problems_in_one_row_are_all_reported() -> None:
    with pytest.raises(InputError) as caught:
        solo({"id": "", "group": "Z", "country": "X", "time": "soon", "missing": "-2"})
    assert problems(caught) == [
        "row 2, column id: every row needs an id",
        "row 2, column group: unknown group 'Z' (A, B)",
        "row 2, column country: 'X' is not an ISO 3166 alpha-2 code (like CZ, or CZ/SK for a pair)",
        "row 2, column time: 'soon' is not a time: write H:MM:SS or M:SS",
        "row 2, column missing: -2 is negative: a number of pieces cannot be below 0",
    ]


@pytest.mark.parametrize("column", ["id", "time"])
def test_a_missing_required_column_is_reported(column: str) -> None:
    cells = {"id": "a", "group": "A", "country": "CZ", "time": "1:00:00"}
    del cells[column]
    with pytest.raises(InputError) as caught:
        compute_standings(rulebook(), "qualification", [RawRow(2, cells)])
    assert problems(caught) == [f"column {column}: missing required column"]


# --- time compensation (Puzzle Party, Art. 3.3) ----------------------------------------------

IT = {"country": "IT", "time": "", "missing": "", "pieces": ""}


def puzzle_party(*cells: Mapping[str, str]) -> Standings:
    from podium.rules.loader import load

    return compute_standings(load("it-puzzle-party"), "pairs", raw(cells, IT))


def test_compensated_time_is_taken_off_before_the_penalty_and_explained() -> None:
    faulty = "faulty puzzle replaced"
    table = only_table(
        puzzle_party(
            # 1:32:00 − 3:00 = 1:29:00, + 2 missing × 10 s = 1:29:20
            {"id": "1", "time": "1:32:00", "missing": "2", "compensation": "3:00",
             "compensation_reason": faulty},
            {"id": "2", "time": "1:29:10"},
            # over the 2-hour limit on the clock, but within it once 3:00 are given back
            {"id": "3", "time": "2:02:00", "compensation": "3:00", "compensation_reason": faulty},
        )
    )  # fmt: skip
    assert placing(table) == [
        ("2", 1, 1, "1:29:10"),
        ("1", 2, 2, "1:29:20 (+20 s)"),
        ("3", 3, 3, "1:59:00"),
    ]
    rows = by_id(table)
    assert rows["1"].entry.metrics["time_ms"] == 5_360_000
    texts = [r.text for r in rows["1"].reasons]
    assert "Recorded 1:32:00 − 0:03:00 compensated (faulty puzzle replaced) = 1:29:00" in texts
    assert "Compensated 1:29:00 + 2 missing pieces × 10 s = 1:29:20" in texts
    clause = next(r.clause for r in rows["1"].reasons if "compensated (" in r.text)
    assert clause is not None
    assert "Il tempo perso verrà recuperato o compensato" in clause


def test_bad_compensations_are_refused_naming_the_column() -> None:
    with pytest.raises(InputError) as error:
        puzzle_party(
            {"id": "1", "time": "2:02:00", "compensation": "1:00", "compensation_reason": "x"},
            {"id": "2", "time": "1:00:00", "compensation": "2:00"},
            {"id": "3", "pieces": "300", "compensation": "2:00", "compensation_reason": "x"},
            {"id": "4", "time": "1:00:00", "compensation_reason": "x"},
            {"id": "5", "time": "0:02:00", "compensation": "3:00", "compensation_reason": "x"},
        )
    assert problems(error) == [
        "row 2, column time: 2:02:00 is over the 120-minute limit of this stage plus 0:01:00 "
        "compensated",
        "row 3, column compensation_reason: a compensated time needs its reason",
        "row 4, column compensation: time is compensated only for a finished puzzle (this row "
        "has no time)",
        "row 5, column compensation_reason: a reason without a compensated time",
        "row 6, column compensation: 0:03:00 compensated is not less than the recorded 0:02:00",
    ]


def test_compensation_needs_the_rulebook_to_allow_it() -> None:
    with pytest.raises(InputError) as error:
        solo({"id": "a", "time": "1:00:00", "compensation": "1:00", "compensation_reason": "x"})
    assert problems(error) == [
        "row 2, column compensation: this stage's rulebook allows no time compensation"
    ]
