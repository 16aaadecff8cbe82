"""Defaults named (issue 23): a row's reason that comes from Podium's default rather than a
clause says so, and ``relied_on`` lists every default a rulebook relies on (``rulebook check``
prints them). A setting the rulebook writes is cited by its clause instead."""

from __future__ import annotations

from pathlib import Path

from podium.engine.compute import compute_standings
from podium.engine.defaults import described, relied_on
from podium.engine.inputs import RawRow
from podium.rules.loader import load, parse, preset_text

TIMED = """\
key: demo
title: Demo
language: en
source: a test
categories:
  - key: solo
    title: Solo
    entrants: {kind: individual}
stages:
  - key: final
    title: Final
    format: timed-solve
    time_limit_min: 60
    pieces: 500
%(counting)s    ranking:
      clause: "Rule 3: finishers by time, the others by pieces"
      criteria: [finished, time, pieces]
"""
ROWS = [RawRow(2, {"id": "1", "time": "0:50:00"}), RawRow(3, {"id": "2", "pieces": "493"})]


def unfinished_reasons(counting: str) -> list[tuple[str | None, str]]:
    book = parse(TIMED % {"counting": counting})
    (table,) = compute_standings(book, "final", ROWS).tables
    row = table.rows[1]
    return [(r.clause, r.text) for r in row.reasons if r.text.startswith("Not finished")]


def test_piece_counting_left_to_podium_says_it_is_podiums_default() -> None:
    assert unfinished_reasons("") == [
        (
            None,
            "Not finished: 493 pieces counted (in joined groups of at least 3) (Podium's "
            "default; this rulebook has no clause on piece counting)",
        )
    ]


def test_piece_counting_the_rulebook_writes_is_cited_by_its_clause() -> None:
    counting = "    piece_counting: {method: joined-to-at-least, size: 2, clause: 'Rule 4'}\n"
    assert unfinished_reasons(counting) == [
        ("Rule 4", "Not finished: 493 pieces counted (joined to at least 2 others)")
    ]


def test_the_defaults_a_rulebook_relies_on_are_listed_by_setting() -> None:
    found = [(d.where, str(described(d))) for d in relied_on(parse(TIMED % {"counting": ""}))]
    assert found == [
        (
            "stages[0].piece_counting",
            "Podium's default on piece counting: groups-of-at-least 3; this rulebook has no "
            "clause on it",
        )
    ]
    wjpc = load(Path(__file__).resolve().parents[2] / "examples" / "rulebooks" / "wjpc-2024.yaml")
    assert [d.where for d in relied_on(wjpc)] == [
        "stages[0].piece_counting",
        "stages[1].piece_counting",
    ]
    assert relied_on(load("deti-kolomny")) == []  # match points and the absent place written


def test_match_points_left_out_are_a_default_too() -> None:
    yaml = preset_text("deti-kolomny").replace("      win: 2\n      draw: 1\n      loss: 0\n", "")
    [default] = relied_on(parse(yaml))
    assert (default.where, str(described(default))) == (
        "stages[2].match",
        "Podium's default on match points: win 2, draw 1, loss 0; this rulebook has no clause "
        "on it",
    )
