"""Two-puzzle teams under the default team rule (``puzzles-done``, the cz-jigsaw preset's):
the puzzles done first, then the time, or the pieces on the puzzle in progress."""

from __future__ import annotations

import pytest
from tests.engine.formats.test_timed import by_id, only_table, placing, problems, rulebook, team

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.inputs import RawRow


def test_team_ranking_puzzles_done_then_time_or_pieces() -> None:
    table = only_table(
        team(
            {"id": "slow-both", "done": "2", "time": "2:20:00"},
            {"id": "fast-both", "done": "2", "time": "2:00:00", "missing": "1"},  # 2:00:10
            {"id": "tied-both", "done": "2", "time": "2:00:10"},
            # With one puzzle done, its earlier time does not count: the pieces on the other do.
            {"id": "one-few", "done": "1", "time": "0:40:00", "pieces": "400"},
            {"id": "one-many", "done": "1", "time": "1:10:00", "pieces": "900"},
            {"id": "none-many", "done": "0", "pieces": "990"},
            {"id": "none-few", "done": "0", "pieces": "300"},
        )
    )
    assert placing(table) == [
        ("fast-both", 1, 2, "2/2 2:00:10 (+10 s)"),
        ("tied-both", 1, 2, "2/2 2:00:10"),
        ("slow-both", 3, 3, "2/2 2:20:00"),
        ("one-many", 4, 4, "1/2 + 900 pcs"),
        ("one-few", 5, 5, "1/2 + 400 pcs"),
        ("none-many", 6, 6, "0/2 + 990 pcs"),
        ("none-few", 7, 7, "0/2 + 300 pcs"),
    ]
    rows = by_id(table)
    assert rows["one-many"].reasons[0].text == "Below slow-both on puzzles finished: 1 against 2"
    assert rows["none-many"].reasons[0].text == "Below one-few on puzzles finished: 0 against 1"
    assert rows["one-few"].reasons[0].text == (
        "Below one-many on pieces placed: 400 pcs against 900 pcs"
    )
    interpretation = [
        r for r in rows["slow-both"].reasons if r.clause == "Teams: our interpretation"
    ]
    assert interpretation[-1].text.startswith("Team ranking (our interpretation)")


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ({"done": "3", "time": "2:00:00"}, "row 2, column done: 3 is more than the 2 this allows"),
        (
            {"done": "2", "time": "2:00:00", "pieces": "100"},
            "row 2, column pieces: every puzzle is finished, so there are no pieces to count",
        ),
        ({"done": "2"}, "row 2, column time: a finished puzzle needs the time it was done"),
        ({"pieces": "100"}, "row 2, column done: how many puzzles were finished (0–2)"),
        (
            {"done": "0"},
            "row 2, column pieces: the puzzle in progress needs its counted pieces",
        ),
        (
            {"done": "1", "time": "2:30:01", "pieces": "5"},
            "row 2, column time: 2:30:01 is over the 150-minute limit of this stage",
        ),
        (
            {"done": "0", "pieces": "1001"},
            "row 2, column pieces: 1001 is more than the 1000 this allows",
        ),
    ],
)
def test_team_bad_input(cells: dict[str, str], expected: str) -> None:
    with pytest.raises(InputError) as caught:
        team({"id": "t", **cells})
    assert problems(caught) == [expected]


def test_team_with_one_puzzle_done_needs_no_time_since_no_criterion_reads_it() -> None:
    # The preset's old refusal ("a finished puzzle needs the time it was done") asked for a
    # time that ranks nothing: an unfinished team is ranked by its pieces.
    table = only_table(
        team(
            {"id": "no-time", "done": "1", "pieces": "700"},
            {"id": "with-time", "done": "1", "time": "1:05:00", "pieces": "650"},
        )
    )
    assert placing(table) == [
        ("no-time", 1, 1, "1/2 + 700 pcs"),
        ("with-time", 2, 2, "1/2 + 650 pcs"),
    ]


def test_team_needs_the_done_column() -> None:
    with pytest.raises(InputError) as caught:
        compute_standings(rulebook(), "team", [RawRow(2, {"id": "t", "country": "CZ"})])
    assert problems(caught) == ["column done: missing required column"]


def test_team_file_without_pieces_column_when_every_team_finished() -> None:
    rows = [
        RawRow(2, {"id": "t1", "country": "CZ", "done": "2", "time": "2:01:00"}),
        RawRow(3, {"id": "t2", "country": "CZ", "done": "2", "time": "1:59:59"}),
    ]
    table = compute_standings(rulebook(), "team", rows).tables[0]
    assert [(r.entry.id, r.rank) for r in table.rows] == [("t2", 1), ("t1", 2)]


def test_team_without_pieces_column_still_needs_pieces_for_an_unfinished_puzzle() -> None:
    with pytest.raises(InputError) as caught:
        compute_standings(
            rulebook(),
            "team",
            [RawRow(2, {"id": "t", "country": "CZ", "done": "1", "time": "1:00:00"})],
        )
    assert problems(caught) == [
        "row 2, column pieces: the puzzle in progress needs its counted pieces"
    ]
