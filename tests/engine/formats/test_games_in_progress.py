"""A bowling series in progress: the first games recorded, the rest still empty (a squad that is
still bowling), ranked on the games so far; an empty game before a recorded one is refused.

Hand-worked (ČBA preset, master men): after block 1, Adam 200 + 190 = 390 and Bohuš 230 + 170 =
400: Bohuš 1st, Adam 2nd, each "after 2 of 6 games". A row with g3 empty and g4 recorded is a gap.
"""

from __future__ import annotations

import pytest

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.engine.inputs import RawRow
from podium.rules.loader import parse, preset_text

RULEBOOK = parse(preset_text("cba-qualifier"))


def row(line: int, id_: str, name: str, games: list[str]) -> RawRow:
    cells = {"id": id_, "name": name, "gender": "M", "division": "master-men"}
    cells.update({f"g{n}": g for n, g in enumerate(games, start=1)})
    return RawRow(line, cells)


def test_a_series_in_progress_is_ranked_on_the_games_so_far() -> None:
    standings = compute_standings(
        RULEBOOK,
        "qualification",
        [
            row(2, "1", "Adam", ["200", "190", "", "", "", ""]),
            row(3, "2", "Bohuš", ["230", "170", "", "", "", ""]),
        ],
    )
    rows = standings.tables[0].rows
    assert [(r.entry.name, r.rank, r.entry.score_text) for r in rows] == [
        ("Bohuš", 1, "400 (230 high) after 2 of 6 games"),
        ("Adam", 2, "390 (200 high) after 2 of 6 games"),
    ]
    assert "Series in progress: 2 of 6 games" in [reason.text for reason in rows[0].reasons]


def test_a_gap_in_the_series_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        compute_standings(
            RULEBOOK, "qualification", [row(2, "1", "Adam", ["200", "190", "", "180", "", ""])]
        )
    assert [f"{p.where}: {p.text}" for p in caught.value.problems] == [
        "row 2, column g3: every game needs its score"
    ]
