"""The cba-qualifier preset (ČBA supplementary qualification tournament) says what its seed
rulebook says."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from tests.rules.test_presets import book

from podium.rules.schema.registration import BornOnOrBefore
from podium.rules.schema.stages import GamesStage


def test_cba_divisions_thresholds_and_fallback() -> None:
    divisions = book("cba-qualifier").divisions
    assert divisions is not None
    assert divisions.reference_date == dt.date(2011, 7, 1)
    table = {d.key: (d.gender, d.average_min, d.average_max, d.fallback) for d in divisions.items}
    assert table == {
        "master-men": ("M", Decimal(190), None, False),
        "standard-men": ("M", Decimal(165), Decimal("189.99"), False),
        "amateur-men": ("M", None, Decimal("164.99"), True),
        "master-women": ("F", Decimal(175), None, False),
        "standard-women": ("F", Decimal(160), Decimal("174.99"), False),
        "amateur-women": ("F", None, Decimal("159.99"), True),
    }
    assert list(table) == [
        "master-men",
        "standard-men",
        "amateur-men",
        "master-women",
        "standard-women",
        "amateur-women",
    ]
    assert divisions.fallback_clause
    assert "nejnižší kategorie" in divisions.fallback_clause
    assert all(d.clause and d.clause.startswith("§ 3.4") for d in divisions.items)


def test_cba_eligibility_registration_and_date() -> None:
    rulebook = book("cba-qualifier")
    (born,) = rulebook.registration.eligibility
    assert isinstance(born, BornOnOrBefore)
    assert born.date == dt.date(1999, 6, 30)
    assert born.clause
    assert "30.6.1999" in born.clause
    assert rulebook.registration.closes == dt.date(2012, 3, 16)
    assert rulebook.registration.late_entries == "while-room"
    assert rulebook.event_date == dt.date(2012, 3, 24)


def test_cba_money_cancellation_and_check_in() -> None:
    rulebook = book("cba-qualifier")
    (fee,) = rulebook.fees
    assert (fee.price.amount, fee.price.currency, fee.payment) == (
        Decimal(600),
        "CZK",
        "cash-at-check-in",
    )
    assert rulebook.cancellation is not None
    assert rulebook.cancellation.reference == "squad"
    assert [(t.days_before, t.owed) for t in rulebook.cancellation.tiers] == [
        (5, Decimal(0)),
        (0, Decimal("0.5")),
    ]
    assert rulebook.check_in is not None
    assert (rulebook.check_in.opens_before_min, rulebook.check_in.closes_before_min) == (30, 15)


def test_cba_stage_games_and_tie_breaks() -> None:
    stage = book("cba-qualifier").stage("qualification")
    assert isinstance(stage, GamesStage)
    assert (stage.games, stage.blocks, stage.tables_by, stage.re_entry) == (
        6,
        (2, 2, 2),
        "division",
        False,
    )
    assert [c.key for c in stage.ranking.criteria] == [
        "total",
        "high-game",
        "low-game",
        "high-game-2",
        "low-game-2",
        "high-game-3",
        "low-game-3",
    ]
    assert stage.ranking.criteria[1].clause == "§ 9 a) vyšší dosažený nához"
    assert stage.ranking.interpretation
    assert "share a place" in stage.ranking.interpretation


def test_cba_advancement_per_division() -> None:
    stage = book("cba-qualifier").stage("qualification")
    advancement = stage.advancement
    assert advancement is not None
    counts = {
        table: [(p.classes, p.count) for p in pools]
        for table, pools in advancement.pools_by_table.items()
    }
    assert counts == {
        "master-men": [(("official",), 6)],
        "standard-men": [(("official",), 8)],
        "amateur-men": [(("official",), 8)],
        "master-women": [(("official",), 2)],
        "standard-women": [(("official",), 4)],
        "amateur-women": [(("official",), 4)],
    }
    assert advancement.ties_at_cut == "all-advance"
    assert advancement.ties_clause
    (standard_women,) = advancement.pools_for("standard-women")
    assert standard_women.interpretation
    assert "1. a 4." in standard_women.interpretation


def test_cba_classification_outside_the_standings() -> None:
    classification = book("cba-qualifier").classification
    assert classification.already_qualified is not None
    assert classification.already_qualified.clause
    assert classification.already_qualified.clause.startswith("§ 3.5")
    assert classification.ineligible is not None
    assert classification.domestic is None


def test_cba_protest_and_sanctions() -> None:
    rulebook = book("cba-qualifier")
    (protest,) = rulebook.appeals
    assert protest.fee is not None
    assert (protest.fee.amount, protest.fee.currency) == (Decimal(500), "CZK")
    assert (protest.form, protest.filed_by, protest.filed_with) == (
        "written",
        "player",
        "the head referee",
    )
    assert protest.fee_is_deposit
    assert protest.refunded_if_upheld
    assert protest.forfeited_if_rejected
    assert protest.decided_on_site
    assert protest.further_appeal_to
    assert "STK ČBA" in protest.further_appeal_to
    (sanction,) = rulebook.sanctions
    assert [e.kind for e in sanction.effects] == ["warning", "expulsion"]
    assert sanction.clause
    assert sanction.clause.startswith("§ 12 g)")
