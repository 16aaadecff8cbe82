"""The real World Jigsaw Puzzle Championship 2024 results, reproduced by the timed-solve format.

Every one of the 1644 official placements (groups A–F, semi-finals S1/S2, final) must come out
of ranking finishers by time, then non-finishers by pieces placed, equal values sharing a place.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.standings import Row
from podium.engine.timing import parse_clock
from podium.rules.loader import parse
from podium.rules.schema import Rulebook
from podium.rules.schema.stages import TimedSolveStage

DATA = Path(__file__).resolve().parents[2] / "data" / "jigsaw" / "wjpc2024-individual.json"

# Competition → (stage, rows, non-finishers). Qualifying groups and semi-finals had 90 minutes,
# the final 75; every puzzle had 500 pieces.
COMPETITIONS = {
    "individual_A": ("round", 183, 31),
    "individual_B": ("round", 181, 78),
    "individual_C": ("round", 182, 35),
    "individual_D": ("round", 184, 35),
    "individual_E": ("round", 183, 87),
    "individual_F": ("round", 190, 76),
    "individual_S1": ("round", 180, 0),
    "individual_S2": ("round", 181, 0),
    "individual_final": ("final", 180, 19),
}

RULEBOOK = """
key: wjpc-2024
title: World Jigsaw Puzzle Championship 2024 — individuals
language: en
source: Kathi134/wjpc-scraper scraped_data/individual_results.json
categories:
  - key: individuals
    title: Individuals
    entrants: {kind: individual}
stages:
  - key: round
    title: Qualifying group or semi-final
    format: timed-solve
    category: individuals
    time_limit_min: 90
    pieces: 500
    ranking: &ranking
      criteria: [finished, time, pieces]
  - key: final
    title: Final
    format: timed-solve
    category: individuals
    time_limit_min: 75
    pieces: 500
    ranking: *ranking
"""

CLOCK = re.compile(r"^\d\d:\d\d:\d\d$")


@cache
def records() -> tuple[dict[str, Any], ...]:
    # A missing file fails here (FileNotFoundError); it is never skipped.
    return tuple(json.loads(DATA.read_text(encoding="utf-8")))


def competition(name: str) -> list[dict[str, Any]]:
    return [r for r in records() if r["competition"] == name]


def finished(record: dict[str, Any]) -> bool:
    return bool(CLOCK.match(record["result"]))


def raw_rows(recs: list[dict[str, Any]]) -> list[RawRow]:
    rows = []
    for line, r in enumerate(recs, start=2):
        result = r["result"]
        time, pieces = (result, "") if finished(r) else ("", result)
        cells = {"id": r["competitor"], "time": time, "pieces": pieces}
        rows.append(RawRow(line, cells))
    return rows


@cache
def rulebook() -> Rulebook:
    return parse(RULEBOOK)


@cache
def computed(name: str) -> dict[str, Row]:
    stage = COMPETITIONS[name][0]
    standings = compute_standings(rulebook(), stage, raw_rows(competition(name)))
    (table,) = standings.tables
    return {row.entry.id: row for row in table.rows}


def test_the_file_holds_nine_competitions_and_1644_rows() -> None:
    assert DATA.is_file(), f"{DATA} is missing"
    counts = Counter(r["competition"] for r in records())
    assert counts == {name: rows for name, (_, rows, _) in COMPETITIONS.items()}
    assert sum(counts.values()) == 1644
    non_finishers = Counter(r["competition"] for r in records() if not finished(r))
    assert {name: non_finishers[name] for name in COMPETITIONS} == {
        name: nf for name, (_, _, nf) in COMPETITIONS.items()
    }
    assert sum(non_finishers.values()) == 361
    assert all(str(r["result"]).isdigit() for r in records() if not finished(r))


def test_the_rulebook_fits_the_data() -> None:
    """Times within each stage's limit, pieces within the puzzle (so no row is refused)."""
    for name, (stage_key, _, _) in COMPETITIONS.items():
        stage = rulebook().stage(stage_key)
        assert isinstance(stage, TimedSolveStage)
        recs = competition(name)
        longest = max(parse_clock(r["result"]) for r in recs if finished(r))
        assert longest <= stage.time_limit_min * 60_000, (name, longest)
        most = max((int(r["result"]) for r in recs if not finished(r)), default=0)
        assert most <= stage.pieces == 500, (name, most)


@pytest.mark.parametrize("name", list(COMPETITIONS))
def test_every_official_placement_is_reproduced(name: str) -> None:
    recs = competition(name)
    rows = computed(name)
    assert len(rows) == len(recs) == COMPETITIONS[name][1]
    differing = [
        (r["competitor"], r["result"], r["placement"], rows[r["competitor"]].rank)
        for r in recs
        if rows[r["competitor"]].rank != r["placement"]
    ]
    assert differing == []
    # A shared place spans as many places as entrants share it (1, 2, 2, 4).
    sharing = Counter(r["placement"] for r in recs)
    for r in recs:
        row = rows[r["competitor"]]
        assert row.rank_to == r["placement"] + sharing[r["placement"]] - 1
        assert (row.official_rank, row.official_rank_to) == (row.rank, row.rank_to)


@pytest.mark.parametrize(
    ("name", "competitor", "rank", "rank_to", "score"),
    [
        ("individual_final", "P0182", 1, 1, "0:37:58"),  # the world champion
        ("individual_final", "P0367", 3, 3, "0:41:09"),
        ("individual_final", "P0226", 162, 162, "497 pcs"),  # best non-finisher of the final
        ("individual_final", "P0149", 180, 180, "372 pcs"),
        ("individual_S2", "P0001", 1, 1, "0:34:01"),
        ("individual_A", "P0237", 55, 57, "0:53:32"),  # three share 55th–57th
        # All 500 pieces placed but not finished in time: after the last finisher (147th).
        ("individual_C", "P0572", 148, 148, "500 pcs"),
        ("individual_F", "P1039", 125, 127, "463 pcs"),  # non-finishers share a place too
        ("individual_F", "P1103", 190, 190, "145 pcs"),
    ],
)
def test_hand_picked_rows(name: str, competitor: str, rank: int, rank_to: int, score: str) -> None:
    row = computed(name)[competitor]
    assert (row.rank, row.rank_to, row.entry.score_text) == (rank, rank_to, score)


def test_the_reasons_of_the_final() -> None:
    rows = computed("individual_final")
    assert rows["P0182"].reasons[0].text == "First: finished, time 0:37:58"
    assert rows["P0366"].reasons[0].text == "Below P0182 on time: 0:39:12 against 0:37:58"
    first_non_finisher = rows["P0226"]
    last_finisher = next(r for r in rows.values() if r.rank == 161)
    assert first_non_finisher.reasons[0].text == (
        f"Below {last_finisher.entry.id} on finish: not finished against finished"
    )
