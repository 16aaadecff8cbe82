"""A grouped Brainball stage on the web (issue 23): the battles recorded at the desk are ranked
group by group, each battle in its teams' group (the entries' ``group``), as the engine ranks a
file with a ``group`` column. Hand-worked, win 2 / draw 1 / loss 0: group A, Лисы beat Совы
4:2 → Лисы 2 pts, Совы 0; group B, Ежи and Бобры draw 3:3 → 1 pt each."""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.results.selectors.rows import battle_item, standings_as_of
from podium.web.results.services.results import result_record


@pytest.fixture
def grouped(people: dict[str, Any], add_entry: Any) -> dict[str, Any]:
    event = people["event"]
    event.rulebook_text = event.rulebook_text.replace(
        "    format: head-to-head\n", "    format: head-to-head\n    groups: [A, B]\n", 1
    )
    event.save()
    for number, name, group in [(1, "Лисы", "A"), (2, "Совы", "A"), (3, "Ежи", "B"),
                                (4, "Бобры", "B")]:  # fmt: skip
        add_entry(event, number, name, "RU", category="teams", group=group)
    return people


def record(people: dict[str, Any], a: int, b: int, score: tuple[int, int], key: str) -> None:
    result_record(
        event=people["event"], stage="brainball", item=battle_item(1, a, b),
        cells={"round": "1", "team1": str(a), "team2": str(b), "score1": str(score[0]),
               "score2": str(score[1])},
        by=people["referee"], idempotency_key=key,
    )  # fmt: skip


def test_the_battles_are_ranked_group_by_group(grouped: dict[str, Any]) -> None:
    record(grouped, 1, 2, (4, 2), "b1")
    record(grouped, 3, 4, (3, 3), "b2")
    found = standings_as_of(grouped["event"], "brainball", 1)
    assert [
        (t.key, [(r.entry.name, r.rank, r.entry.metrics["match_points"]) for r in t.rows])
        for t in found.tables
    ] == [
        ("A", [("Лисы", 1, 2), ("Совы", 2, 0)]),
        ("B", [("Бобры", 1, 1), ("Ежи", 1, 1)]),  # a shared place, by name
    ]
