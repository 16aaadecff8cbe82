"""A result in words, as the checks page reads it (``results.selectors.words``), by format —
hand-worked from the presets' stages, with unsaved results (no database)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from podium.rules.loader import parse, preset_text
from podium.web.models import Entry, Result
from podium.web.results.selectors.words import result_words, subject_of


def stage(preset: str, key: str) -> Any:
    return parse(preset_text(preset)).stage(key)


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


def test_an_entrants_result_names_them_and_reads_as_the_table() -> None:
    anna = Result(entry=Entry(pk=7, number=3, name="Anna Nová"), cells={})
    assert subject_of(anna) == "#3 Anna Nová"
    timed = stage("cz-jigsaw", "individual-final")
    assert result_words(timed, Result(cells={"time": "1:10:00", "missing": "2"}), {}) == (
        "1:10:00, 2 pieces missing"
    )
    assert result_words(timed, Result(cells={"time": "", "pieces": "812"}), {}) == (
        "not finished, 812 pieces"
    )
    team = stage("cz-jigsaw", "team")
    assert result_words(team, Result(cells={"done": "1", "pieces": "523"}), {}) == (
        "1 puzzle done, 523 pieces"
    )
    games = stage("cba-qualifier", "qualification")
    cells = {f"g{g}": str(p) for g, p in enumerate((180, 192, 201, 167, 210, 188), 1)}
    assert result_words(games, Result(cells=cells), {}) == (
        "1138 pins (180, 192, 201, 167, 210, 188)"
    )
    tour = stage("deti-kolomny", "chgk-tour")
    assert result_words(tour, Result(cells={"mask": "110010111000101"}), {}) == (
        "8 questions taken"
    )


def test_a_battle_and_a_superfinal_question_name_the_teams() -> None:
    labels = {"1": "Sovy", "2": "Filiny"}
    battle = Result(item="b1-1-2", cells={"round": "1", "team1": "1", "team2": "2",
                                          "score1": "4", "score2": "2"})  # fmt: skip
    assert subject_of(battle) == ""
    assert result_words(stage("deti-kolomny", "brainball"), battle, labels) == (
        "Round 1: Sovy 4 : 2 Filiny"
    )
    question = Result(item="q12", cells={"discipline": "brainball", "1": "1", "2": "0"})
    assert result_words(stage("deti-kolomny", "superfinal"), question, labels) == (
        "Question 12 (Brainball): Sovy 1, Filiny 0"
    )
