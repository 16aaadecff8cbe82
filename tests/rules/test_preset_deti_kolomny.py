"""The deti-kolomny preset (the «Дети Коломны» club's open championship) says what its seed
rulebook says."""

from __future__ import annotations

from decimal import Decimal

from tests.rules.test_presets import book

from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    HeadToHeadStage,
    SuperfinalStage,
)


def test_deti_team_roster() -> None:
    (teams,) = book("deti-kolomny").categories
    entrants = teams.entrants
    assert (teams.key, entrants.kind, entrants.roster_max, entrants.at_table_max) == (
        "teams",
        "team",
        9,
        6,
    )
    assert entrants.players_added_any_time
    assert not entrants.players_removed
    assert entrants.one_team_per_person
    assert entrants.substitutions == "between-tours"


def test_deti_chgk_tour_points() -> None:
    stage = book("deti-kolomny").stage("chgk-tour")
    assert isinstance(stage, ChgkTourStage)
    assert stage.questions == 15
    assert [c.key for c in stage.ranking.criteria] == ["questions"]
    assert stage.points is not None
    assert stage.points.per_place == tuple(Decimal(p) for p in (12, 10, 8, 7, 6, 5, 4, 3, 2, 1))
    assert stage.points.decimals == 3
    assert stage.points.clause
    assert stage.points.clause.startswith("п. 11: За первое место в туре ЧГК команда получает 12")


def test_deti_season_tie_breaks_and_playoff() -> None:
    stage = book("deti-kolomny").stage("chgk-season")
    assert isinstance(stage, ChgkSeasonStage)
    assert stage.tour == "chgk-tour"
    assert [c.key for c in stage.ranking.criteria] == [
        "points",
        "season-questions",
        "season-place-sum",
    ]
    playoff = stage.ranking.playoff
    assert playoff is not None
    assert (playoff.places, playoff.after) == ((1, 3), "points")
    assert "6 questions" in playoff.method
    assert stage.absent_place == "after-last"
    assert stage.interpretation
    assert "after the last" in stage.interpretation
    place_sum = stage.ranking.criteria[2]
    assert place_sum.interpretation
    assert "mean" in place_sum.interpretation


def test_deti_brainball_defaults_are_marked() -> None:
    stage = book("deti-kolomny").stage("brainball")
    assert isinstance(stage, HeadToHeadStage)
    match = stage.match
    assert (match.questions, match.win, match.draw, match.loss) == (6, 2, 1, 0)
    assert stage.rounds == 2
    assert [c.key for c in stage.ranking.criteria] == [
        "match-points",
        "head-to-head",
        "question-difference",
    ]
    assert match.interpretation
    assert stage.ranking.interpretation


def test_deti_superfinal() -> None:
    stage = book("deti-kolomny").stage("superfinal")
    assert isinstance(stage, SuperfinalStage)
    assert stage.sequence == (("chgk", 12), ("brainball", 12))
    assert stage.decider == ("chgk", "brainball")
    assert [c.key for c in stage.ranking.criteria] == ["questions"]


def test_deti_fees() -> None:
    fees = {f.key: f for f in book("deti-kolomny").fees}
    assert set(fees) == {"entry-first-half", "entry-second-half", "unscored-team"}
    for key in ("entry-first-half", "entry-second-half"):
        fee = fees[key]
        assert (fee.price.amount, fee.price.currency, fee.per, fee.unpaid) == (
            Decimal(900),
            "RUB",
            "entry",
            "not-admitted",
        )
    unscored = fees["unscored-team"]
    assert (unscored.price.amount, unscored.per) == (Decimal(20), "player")


def test_deti_appeals() -> None:
    (appeal,) = book("deti-kolomny").appeals
    assert appeal.kinds == ("withdraw-question", "accept-answer")
    assert appeal.one_kind_per_question
    assert appeal.fee is not None
    assert (appeal.fee.amount, appeal.fee.currency) == (Decimal(100), "RUB")
    assert appeal.refunded_if_upheld
    assert (appeal.file_within_days, appeal.verdict_within_days, appeal.jury_size) == (7, 14, 3)
    assert appeal.anonymous
    assert not appeal.jury_may_play
    assert appeal.clause
    assert appeal.clause.startswith("п. 14:")


def test_deti_sanctions() -> None:
    sanctions = {s.key: s for s in book("deti-kolomny").sanctions}
    effects = {
        key: [(e.kind, e.discipline, e.score) for e in s.effects] for key, s in sanctions.items()
    }
    assert effects["ineligible-player"] == [
        ("tour-result-zero", "chgk", None),
        ("battle-loss", "brainball", "0:6"),
        ("player-disqualified", None, None),
    ]
    assert effects["unpaid-fee"] == [("not-admitted", None, None)]
    assert effects["withdrawal-before-middle-tour"] == [
        ("results-kept", "chgk", None),
        ("results-annulled", "brainball", None),
        ("team-disqualified", None, None),
    ]
    assert effects["withdrawal-after-middle-tour"] == [
        ("results-kept", "chgk", None),
        ("results-annulled", "brainball", None),
    ]
    assert effects["host-without-questions"] == [("team-disqualified", None, None)]
    assert sanctions["ineligible-player"].effects[2].until == "the end of the championship"
    assert sanctions["host-without-questions"].effects[0].until == "the end of the next season"
    clauses = {key: (s.clause or "")[:6] for key, s in sanctions.items()}
    assert clauses == {
        "ineligible-player": "п. 8: ",
        "unpaid-fee": "п. 9: ",
        "withdrawal-before-middle-tour": "п. 18:",
        "withdrawal-after-middle-tour": "п. 18:",
        "host-without-questions": "п. 23:",
    }


def test_deti_duties_season_and_unscored_teams() -> None:
    rulebook = book("deti-kolomny")
    duties = {d.key: (d.minimum, d.days_before) for d in rulebook.duties if d.minimum}
    assert duties == {"host-chgk-questions": (15, 7), "host-brainball-questions": (36, 7)}
    assert rulebook.season is not None
    assert (rulebook.season.starts, rulebook.season.ends) == ("2010-11", "2011-06")
    assert rulebook.season.middle_tour
    unscored = rulebook.classification.unscored
    assert unscored is not None
    assert unscored.clause
    assert unscored.clause.startswith("п. 10:")
    assert unscored.interpretation
    assert "no points" in unscored.interpretation
