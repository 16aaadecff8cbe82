"""The team table of cz-jigsaw (one 1000- and one 500-piece puzzle, one in progress at a time)."""

from __future__ import annotations

import pytest

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.teamflow import FlowError, Step, TeamTable, replay
from podium.rules.loader import load

PUZZLES = (1000, 500)
H = 3_600_000
MIN = 60_000


def test_puzzle_one_is_checked_and_timed_before_puzzle_two_starts() -> None:
    table = replay(PUZZLES, [Step("start", 0), Step("finish", at_ms=H + 10 * MIN, missing=1)])
    assert (table.done, table.on_table, table.waiting) == (1, None, (1,))
    assert table.cells() == {"done": "1", "time": "1:10:00", "pieces": "", "missing": ""}
    table = table.apply(Step("start", 1)).apply(Step("finish", at_ms=2 * H + 5 * MIN, missing=2))
    assert table.complete
    # both puzzles' missing pieces count once all are done: 3 × 10 s on 2:05:00
    assert table.cells() == {"done": "2", "time": "2:05:00", "pieces": "", "missing": "3"}


def test_only_one_puzzle_is_in_progress_at_a_time() -> None:
    table = replay(PUZZLES, [Step("start", 0)])
    with pytest.raises(FlowError, match=r"puzzle 1 \(1000 pieces\) is on the table"):
        table.apply(Step("start", 1))


def test_a_switch_needs_the_first_puzzle_taken_apart() -> None:
    table = replay(PUZZLES, [Step("start", 0)])
    with pytest.raises(FlowError, match="must be taken apart completely and put back in its box"):
        table.apply(Step("switch", 1))
    table = table.apply(Step("switch", 1, taken_apart=True))
    assert (table.on_table, table.waiting) == (1, (0,))  # the 1000 is back in its box
    table = table.apply(Step("finish", at_ms=50 * MIN))
    assert table.waiting == (0,)
    with pytest.raises(FlowError, match="already finished"):
        table.apply(Step("start", 1))


def test_steps_out_of_order_are_refused() -> None:
    empty = TeamTable(PUZZLES)
    with pytest.raises(FlowError, match="no puzzle is on the table to finish"):
        empty.apply(Step("finish", at_ms=MIN))
    with pytest.raises(FlowError, match="no puzzle is on the table to switch from"):
        empty.apply(Step("switch", 1, taken_apart=True))
    with pytest.raises(FlowError, match="puzzles 1 to 2"):
        empty.apply(Step("start", 2))
    on = empty.apply(Step("start", 0))
    with pytest.raises(FlowError, match="already on the table"):
        on.apply(Step("switch", 0, taken_apart=True))
    with pytest.raises(FlowError, match="missing pieces are 0 to 1000"):
        on.apply(Step("finish", at_ms=MIN, missing=1001))
    later = on.apply(Step("finish", at_ms=80 * MIN)).apply(Step("start", 1))
    with pytest.raises(FlowError, match=r"1:10:00 is before puzzle 1 \(1000 pieces\) was finished"):
        later.apply(Step("finish", at_ms=70 * MIN))


def test_pieces_at_the_limit_are_counted_on_the_puzzle_in_progress() -> None:
    table = replay(PUZZLES, [Step("start", 1), Step("finish", at_ms=55 * MIN), Step("start", 0)])
    assert table.cells(pieces=640) == {
        "done": "1",
        "time": "0:55:00",
        "pieces": "640",
        "missing": "",
    }
    with pytest.raises(FlowError, match=r"1001 pieces: puzzle 1 \(1000 pieces\) has 1000"):
        table.cells(pieces=1001)
    with pytest.raises(FlowError, match="no pieces to count"):
        replay(PUZZLES, [Step("start", 1), Step("finish", at_ms=MIN)]).cells(pieces=3)


def test_the_cells_rank_in_the_team_stage() -> None:
    # Hand-worked: T1 both done at 2:05:00 + 3 missing (2:05:30); T2 both at 2:06:00;
    # T3 one done + 640 pieces on the 1000; T4 one done + 300 on the 500.
    t1 = replay(
        PUZZLES,
        [
            Step("start", 0),
            Step("finish", at_ms=70 * MIN, missing=1),
            Step("start", 1),
            Step("finish", at_ms=125 * MIN, missing=2),
        ],
    )
    t2 = replay(
        PUZZLES,
        [
            Step("start", 1),
            Step("finish", at_ms=40 * MIN),
            Step("start", 0),
            Step("finish", at_ms=126 * MIN),
        ],
    )
    t3 = replay(PUZZLES, [Step("start", 1), Step("finish", at_ms=55 * MIN), Step("start", 0)])
    t4 = replay(PUZZLES, [Step("start", 0), Step("finish", at_ms=140 * MIN), Step("start", 1)])
    cells = [t1.cells(), t2.cells(), t3.cells(pieces=640), t4.cells(pieces=300)]
    rows = [RawRow(i, {"id": f"T{i}", "country": "CZ", **c}) for i, c in enumerate(cells, 1)]
    (table,) = compute_standings(load("cz-jigsaw"), "team", rows).tables
    assert [(r.entry.id, r.rank, r.entry.score_text) for r in table.rows] == [
        ("T1", 1, "2/2 2:05:30 (+30 s)"),
        ("T2", 2, "2/2 2:06:00"),
        ("T3", 3, "1/2 + 640 pcs"),
        ("T4", 4, "1/2 + 300 pcs"),
    ]


def test_pieces_summed_add_the_finished_puzzles_less_their_missing_pieces() -> None:
    # A WJPC-style stage sums the pieces over all puzzles: the 500 finished with 2 missing
    # (498 placed) plus 640 counted on the 1000 in progress make 1138.
    table = replay(
        PUZZLES, [Step("start", 1), Step("finish", at_ms=55 * MIN, missing=2), Step("start", 0)]
    )
    assert table.cells(pieces=640, summed=True) == {
        "done": "1",
        "time": "0:55:00",
        "pieces": "1138",
        "missing": "",
    }
    # Without a finished puzzle the sum is the puzzle in progress alone.
    assert replay(PUZZLES, [Step("start", 0)]).cells(pieces=640, summed=True)["pieces"] == "640"
