"""Numbers as the WJPC's own results write them (issue 23): a piece count with a thousands
separator (``1.991``, ``1 991``, ``1,991``) is 1991 pieces, since a count has no decimals, and
a finished team given every piece of its puzzles (``pieces=1500`` of 1000 + 500) is
consistent; each reading is said in a note on its row. What stays ambiguous is refused."""

from __future__ import annotations

import pytest
from tests.engine.formats.test_team_solve import placing, problems, team

from podium.engine.errors import InputError


@pytest.mark.parametrize("written", ["1.400", "1 400", "1,400", "1\u00a0400", "1\u202f400"])
def test_a_thousands_separator_in_a_piece_count_is_read_with_a_note(written: str) -> None:
    (table,) = team(
        {"id": "sep", "done": "1", "pieces": written},
        {"id": "plain", "done": "0", "pieces": "1450"},
    ).tables
    assert placing(table) == [
        ("plain", 1, 1, "0/2 + 1450 pcs"),
        ("sep", 2, 2, "1/2 + 1400 pcs"),
    ]
    [sep] = [r for r in table.rows if r.entry.id == "sep"]
    notes = [r.text for r in sep.reasons if r.clause is None]
    assert f"pieces '{written}' read as 1400 (a thousands separator)" in notes


@pytest.mark.parametrize(
    ("written", "said"),
    [
        ("1,5", "'1,5' is not a whole number"),
        ("1.40", "'1.40' is not a whole number"),
        ("1.400,000", "'1.400,000' is not a whole number"),  # two separators: no reading
        ("14.00", "'14.00' is not a whole number"),
    ],
)
def test_what_is_no_thousands_separator_is_still_refused(written: str, said: str) -> None:
    with pytest.raises(InputError) as caught:
        team({"id": "t", "done": "1", "pieces": written})
    assert problems(caught) == [f"row 2, column pieces: {said}"]


def test_a_finished_team_with_every_piece_counted_is_ranked_by_its_time_with_a_note() -> None:
    (table,) = team(
        {"id": "all", "time": "2:00:00", "pieces": "1500"},
        {"id": "quick", "time": "1:59:00"},
    ).tables
    assert placing(table) == [("quick", 1, 1, "2/2 1:59:00"), ("all", 2, 2, "2/2 2:00:00")]
    [done] = [r for r in table.rows if r.entry.id == "all"]
    assert (
        "pieces 1500: every piece of the 2 puzzles, as a finished team has; ranked by its "
        "time" in [r.text for r in done.reasons]
    )
