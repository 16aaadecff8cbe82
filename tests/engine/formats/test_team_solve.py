"""A team stage of several puzzles whose rulebook chooses how unfinished teams rank.

``unfinished: {method: pieces-summed}`` is the World Jigsaw Puzzle Championship's team rule:
teams that finished every puzzle by time, the rest by the pieces placed on all puzzles together.
The default (``puzzles-done``) is the cz-jigsaw preset's rule and is tested in
test_timed_teams.py.
"""

from __future__ import annotations

import csv
import time
import tracemalloc
from collections.abc import Mapping
from pathlib import Path

import pytest

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.inputs import RawRow
from podium.engine.standings import Standings, Table
from podium.engine.validate import check_rulebook
from podium.rules.loader import load, parse

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "rulebooks"

RULEBOOK = """
key: summed-test
title: Pieces summed
language: en
source: written for this test
categories:
  - key: teams
    title: Teams
    entrants: {kind: team, min_size: 2, max_size: 4}
stages:
  - key: team
    title: Teams
    format: team-solve
    category: teams
    puzzles: [1000, 500]
    time_limit_min: 180
    missing_piece_penalty_s: 10
    unfinished:
      method: %(method)s
      clause: "The rest by the pieces placed on both puzzles together"
    ranking:
      clause: "Finishers by time"
      criteria: [%(criteria)s]
"""

SUMMED = RULEBOOK % {"method": "pieces-summed", "criteria": "finished, time, pieces"}
TEAM = {"country": "CZ", "time": "", "pieces": "", "missing": ""}


def team(*cells: Mapping[str, str], text: str = SUMMED) -> Standings:
    rows = [RawRow(line, {**TEAM, **c}) for line, c in enumerate(cells, start=2)]
    return compute_standings(parse(text), "team", rows)


def placing(table: Table) -> list[tuple[str, int, int, str]]:
    return [(r.entry.id, r.rank, r.rank_to, str(r.entry.score_text)) for r in table.rows]


def problems(error: pytest.ExceptionInfo[InputError]) -> list[str]:
    return [str(p) for p in error.value.problems]


def test_finishers_by_time_then_the_rest_by_pieces_on_all_puzzles_together() -> None:
    # Hand-worked: "one-big" finished the 1000 (1000 pcs) and has 400 on the 500 = 1400; it
    # ranks above "none" (1450 spread over both, no puzzle finished) only by pieces, not by
    # puzzles done: 1450 > 1400, so "none" is first of the unfinished.
    (table,) = team(
        {"id": "slow", "time": "2:59:59"},
        {"id": "fast", "time": "2:10:00", "missing": "3"},  # 2:10:30 with 3 × 10 s
        {"id": "tie", "time": "2:10:30"},
        {"id": "one-big", "done": "1", "pieces": "1400"},
        {"id": "none", "done": "0", "pieces": "1450"},
        {"id": "no-done", "pieces": "1400", "time": ""},
        {"id": "one-small", "done": "1", "time": "0:50:00", "pieces": "620"},
    ).tables
    assert placing(table) == [
        ("fast", 1, 2, "2/2 2:10:30 (+30 s)"),
        ("tie", 1, 2, "2/2 2:10:30"),
        ("slow", 3, 3, "2/2 2:59:59"),
        ("none", 4, 4, "0/2 + 1450 pcs"),
        ("no-done", 5, 6, "1400 pcs"),
        ("one-big", 5, 6, "1/2 + 1400 pcs"),
        ("one-small", 7, 7, "1/2 + 620 pcs"),
    ]
    rows = {r.entry.id: r for r in table.rows}
    assert rows["none"].reasons[0].text == "Below slow on finish: not finished against finished"
    assert rows["one-small"].reasons[0].text == (
        "Below one-big on pieces placed: 620 pcs against 1400 pcs"
    )
    # The choice is explained in every row with the clause of the rulebook key that makes it.
    rule = [r for r in rows["one-small"].reasons if r.clause == (
        "The rest by the pieces placed on both puzzles together"
    )]  # fmt: skip
    assert [r.text for r in rule] == [
        "Team ranking: teams that finished all 2 puzzles by time, the others by the pieces "
        "placed on all 2 puzzles together (at most 1500)"
    ]


def test_the_same_rows_under_puzzles_done_rank_one_finished_puzzle_first() -> None:
    # The other choice on comparable rows: a finished puzzle outranks any pieces in progress.
    text = RULEBOOK % {"method": "puzzles-done", "criteria": "puzzles-done, time, pieces"}
    (table,) = team(
        {"id": "one-done", "done": "1", "pieces": "100"},
        {"id": "none-done", "done": "0", "pieces": "990"},
        text=text,
    ).tables
    assert placing(table) == [
        ("one-done", 1, 1, "1/2 + 100 pcs"),
        ("none-done", 2, 2, "0/2 + 990 pcs"),
    ]


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # The cap is the sum of the puzzles' pieces, not the biggest puzzle.
        ({"pieces": "1501"}, "row 2, column pieces: 1501 is more than the 1500 this allows"),
        (
            {"done": "0"},
            "row 2, column pieces: an unfinished team needs the pieces placed on all 2 puzzles",
        ),
        ({}, "row 2, column pieces: an unfinished team needs the pieces placed on all 2 puzzles"),
        (
            {"done": "2"},
            "row 2, column time: a finished puzzle needs the time it was done",
        ),
        (
            {"time": "2:00:00", "pieces": "1499"},
            "row 2, column pieces: every puzzle is finished, so there are no pieces to count",
        ),
        (
            {"done": "1", "pieces": "499"},
            "row 2, column pieces: 499 pieces is less than the 500 of the 1 finished puzzles "
            "(the pieces are summed over all puzzles)",
        ),
        (
            {"done": "1", "pieces": "900", "missing": "2"},
            "row 2, column missing: missing pieces count only when all 2 puzzles are finished",
        ),
        (
            {"time": "3:00:01"},
            "row 2, column time: 3:00:01 is over the 180-minute limit of this stage",
        ),
        ({"done": "3", "time": "1:00:00"}, "row 2, column done: 3 is more than the 2 this allows"),
    ],
)
def test_refusals_name_the_row_and_column(cells: dict[str, str], expected: str) -> None:
    with pytest.raises(InputError) as caught:
        team({"id": "t", **cells})
    assert problems(caught) == [expected]


def test_a_non_final_puzzle_time_is_optional_but_checked_when_given() -> None:
    (table,) = team(
        {"id": "with", "done": "1", "time": "1:00:00", "pieces": "1200"},
        {"id": "without", "done": "1", "pieces": "1100"},
    ).tables
    assert [(r.entry.id, r.rank) for r in table.rows] == [("with", 1), ("without", 2)]
    with pytest.raises(InputError) as caught:
        team({"id": "t", "done": "1", "time": "3:30:00", "pieces": "1200"})
    assert problems(caught) == [
        "row 2, column time: 3:30:00 is over the 180-minute limit of this stage"
    ]


def test_rulebook_check_names_criteria_that_pieces_summed_cannot_rank_by() -> None:
    text = RULEBOOK % {"method": "pieces-summed", "criteria": "puzzles-done, time, pieces"}
    assert [(p.where, str(p.message)) for p in check_rulebook(parse(text))] == [
        (
            "stages[0].ranking.criteria[0]",
            "criterion 'puzzles-done' does not apply to format 'team-solve with unfinished: "
            "pieces-summed' (it takes: finished, pieces, time)",
        )
    ]
    # And "finished" is no criterion of the puzzles-done team stage.
    text = RULEBOOK % {"method": "puzzles-done", "criteria": "finished, time, pieces"}
    assert [p.where for p in check_rulebook(parse(text))] == ["stages[0].ranking.criteria[0]"]


# --- the WJPC 2024 team event, the way its rule reads --------------------------------------

# Group A of the WJPC 2024 team event as published (placements 1-45 of 121; the published
# "1.991" is 1,991 pieces). Teams are named by country only in the example file.
PUBLISHED = [*range(1, 41), 40, *range(42, 46)]


def test_wjpc_2024_team_group_a_ranks_as_published() -> None:
    rulebook = load(EXAMPLES / "wjpc-2024.yaml")
    assert check_rulebook(rulebook) == []
    with (EXAMPLES / "wjpc-2024" / "team-round.csv").open(encoding="utf-8") as file:
        rows = [RawRow(line, cells) for line, cells in enumerate(csv.DictReader(file), start=2)]
    (table,) = compute_standings(rulebook, "team-round", rows).tables
    by_id = {r.entry.id: r for r in table.rows}
    ranks = [by_id[f"T{i:02d}"].rank for i in range(1, 46)]
    assert ranks == PUBLISHED
    # 22 finishers by time, then 1,991 pieces (one puzzle done, 991 on the other) first.
    assert str(by_id["T22"].entry.score_text) == "2/2 2:59:39"
    assert str(by_id["T23"].entry.score_text) == "1991 pcs"
    assert by_id["T23"].reasons[0].text == (
        "Below Team BE 1 on finish: not finished against finished"
    )
    # The published tie at 40 (1,730 pieces each) shares 40th–41st; the next team is 42nd.
    tied = {by_id["T40"].reasons[0].text, by_id["T41"].reasons[0].text}
    assert "Shares places 40th–41st: equal on finish, time, pieces placed" in tied


def test_the_old_rule_could_not_even_read_the_wjpc_teams() -> None:
    # The refusal: one puzzle's cap on a sum over both puzzles.
    text = RULEBOOK % {"method": "puzzles-done", "criteria": "puzzles-done, time, pieces"}
    with pytest.raises(InputError) as caught:
        team({"id": "fi", "done": "1", "pieces": "1991"}, text=text.replace("500]", "1000]"))
    assert problems(caught) == ["row 2, column pieces: 1991 is more than the 1000 this allows"]


def test_a_hostile_file_is_refused_quickly_with_bounded_memory() -> None:
    # 5,000 teams, each with a digit string far beyond the cap, and a ten-thousand-digit count.
    rows = [RawRow(i, {**TEAM, "id": f"t{i}", "pieces": "9" * 40}) for i in range(2, 5_002)]
    rows.append(RawRow(5_002, {**TEAM, "id": "huge", "pieces": "9" * 10_000}))
    tracemalloc.start()
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    with pytest.raises(InputError) as caught:
        compute_standings(parse(SUMMED), "team", rows)
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert cpu < 2, f"{cpu:.2f} s of CPU time"
    assert peak < 100 * 2**20
    found = [str(p) for p in caught.value.problems]
    assert found[0] == "row 2, column pieces: 40 digits are too many for a number of pieces"
    # Python itself refuses to convert the 10,000 digits: named as the cell's problem instead.
    assert found[-1] == (
        "row 5002, column pieces: 10000 digits are too many for a number of pieces"
    )
