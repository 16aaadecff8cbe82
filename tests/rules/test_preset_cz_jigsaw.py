"""The cz-jigsaw preset (Czech Jigsaw Puzzle Championship) says what its seed rulebook says."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tests.rules.test_presets import book, timed

from podium.rules.schema.registration import AccompaniedUnder
from podium.rules.schema.stages import TeamSolveStage, TimedSolveStage


def test_cz_categories_caps_and_sizes() -> None:
    rulebook = book("cz-jigsaw")
    caps = {
        c.key: (c.entrants.kind, c.entrants.min_size, c.entrants.max_size, c.cap)
        for c in rulebook.categories
    }
    assert caps == {
        "individuals": ("individual", 1, 1, 200),
        "pairs": ("pair", 2, 2, 120),
        "teams": ("team", 3, 4, 50),
    }
    assert all(c.clause for c in rulebook.categories)


def test_cz_stage_limits_puzzles_and_penalty() -> None:
    rulebook = book("cz-jigsaw")
    assert [s.key for s in rulebook.stages] == [
        "individual-qualification",
        "individual-final",
        "pair-qualification",
        "pair-final",
        "team",
    ]
    solo = ("individual-qualification", "individual-final", "pair-qualification", "pair-final")
    limits = {
        key: (timed("cz-jigsaw", key).time_limit_min, timed("cz-jigsaw", key).pieces)
        for key in solo
    }
    assert limits == {
        "individual-qualification": (90, 500),
        "individual-final": (75, 500),
        "pair-qualification": (75, 500),
        "pair-final": (120, 1000),
    }
    team = rulebook.stage("team")
    assert isinstance(team, TeamSolveStage)
    assert (team.time_limit_min, team.puzzles) == (150, (1000, 500))
    for stage in rulebook.stages:
        assert isinstance(stage, TimedSolveStage | TeamSolveStage)
        assert stage.missing_piece_penalty_s == 10
        assert stage.penalty_clause
        assert "10 sekund" in stage.penalty_clause
        assert (stage.piece_counting.method, stage.piece_counting.size) == (
            "groups-of-at-least",
            3,
        )
        assert stage.piece_counting.clause


def test_cz_qualification_groups_and_ranking() -> None:
    for key in ("individual-qualification", "pair-qualification"):
        stage = timed("cz-jigsaw", key)
        assert stage.groups == ("A", "B")
        assert [c.key for c in stage.ranking.criteria] == ["finished", "time", "pieces"]
    assert timed("cz-jigsaw", "individual-final").groups == ()


@pytest.mark.parametrize(
    ("stage", "final", "czech", "foreign"),
    [
        ("individual-qualification", "individual-final", 50, 5),
        ("pair-qualification", "pair-final", 30, 3),
    ],
)
def test_cz_quotas_per_group(stage: str, final: str, czech: int, foreign: int) -> None:
    advancement = timed("cz-jigsaw", stage).advancement
    assert advancement is not None
    assert advancement.to == final
    pools = {p.key: (p.classes, p.count) for p in advancement.pools}
    assert pools == {"czech": (("official",), czech), "foreign": (("foreign",), foreign)}
    assert all(p.clause for p in advancement.pools)
    assert advancement.ties_at_cut == "all-advance"
    assert advancement.interpretation
    assert "tie" in advancement.interpretation


def test_cz_prizes_for_czech_entrants_only() -> None:
    rulebook = book("cz-jigsaw")
    for key in ("individual-final", "pair-final", "team"):
        prizes = rulebook.stage(key).prizes
        assert prizes is not None
        assert (prizes.places, prizes.official_only) == (3, True)
        assert prizes.clause
        assert "1.-3. místo" in prizes.clause
    assert rulebook.stage("individual-qualification").prizes is None


def test_cz_domestic_rule_and_our_team_rule() -> None:
    domestic = book("cz-jigsaw").classification.domestic
    assert domestic is not None
    assert (domestic.country, domestic.team_rule) == ("CZ", "all")
    assert domestic.clause
    assert "registrovanou adresou" in domestic.clause
    assert domestic.interpretation
    assert "all its members" in domestic.interpretation


def test_cz_registration_cancellation_and_no_show() -> None:
    rulebook = book("cz-jigsaw")
    assert rulebook.registration.eligibility == (
        AccompaniedUnder(
            kind="accompanied-under",
            age=16,
            clause=rulebook.registration.eligibility[0].clause,
        ),
    )
    cancellation = rulebook.cancellation
    assert cancellation is not None
    assert [(t.days_before, t.refund) for t in cancellation.tiers] == [
        (15, Decimal(1)),
        (0, Decimal(0)),
    ]
    no_show = rulebook.no_show
    assert no_show is not None
    assert (no_show.after_start_min, no_show.refund) == (10, False)


def test_cz_team_ranking_is_marked_as_our_interpretation() -> None:
    team = book("cz-jigsaw").stage("team")
    assert [c.key for c in team.ranking.criteria] == ["puzzles-done", "time", "pieces"]
    assert team.ranking.interpretation
    assert "we decided" in team.ranking.interpretation


def test_cz_notes_keep_the_team_table_rules_and_final_times() -> None:
    notes = book("cz-jigsaw").notes
    assert any(n.clause and "pouze jedno rozeskládané puzzle" in n.clause for n in notes)
    assert any(n.clause and "pozdější reklamace" in n.clause for n in notes)
