"""The four shipped presets: valid, and saying what the seed rulebooks say."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal

import pytest
import yaml
from pydantic import BaseModel

from podium.engine.validate import check_rulebook
from podium.rules import loader
from podium.rules.schema import Rulebook
from podium.rules.schema.common import Rule
from podium.rules.schema.registration import AccompaniedUnder, BornOnOrBefore, MinAge
from podium.rules.schema.stages import (
    ChgkSeasonStage,
    ChgkTourStage,
    GamesStage,
    HeadToHeadStage,
    SuperfinalStage,
    TeamSolveStage,
    TimedSolveStage,
)

SEEDS = {
    "cz-jigsaw": ("000_4bcc9d180ce15ff5.txt", "cs"),
    "it-puzzle-party": ("001_dfc5fdda43f24c3c.txt", "it"),
    "cba-qualifier": ("002_360f9fd7a5f09551.txt", "cs"),
    "deti-kolomny": ("004_6d73bc1530028260.txt", "ru"),
}


def book(name: str) -> Rulebook:
    return loader.load(name)


def timed(name: str, key: str) -> TimedSolveStage:
    stage = book(name).stage(key)
    assert isinstance(stage, TimedSolveStage)
    return stage


def rules(node: object, path: str, covered: bool) -> Iterator[tuple[str, Rule, bool]]:
    """Every Rule written in the YAML, with whether it or a setting above it cites a clause."""
    if isinstance(node, Rule):
        if not node.model_fields_set:
            return  # a default the preset never wrote
        covered = covered or bool(node.clause or node.interpretation)
        yield path, node, covered
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from rules(getattr(node, name), f"{path}.{name}", covered)
    elif isinstance(node, tuple | list):
        for i, item in enumerate(node):
            yield from rules(item, f"{path}[{i}]", covered)
    elif isinstance(node, dict):
        for key, item in node.items():
            yield from rules(item, f"{path}.{key}", covered)


def texts(node: object, suffix: str) -> Iterator[str]:
    """Every string setting whose name ends with ``suffix`` (clause, interpretation…)."""
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            value = getattr(node, name)
            if name.endswith(suffix) and isinstance(value, str):
                yield value
            else:
                yield from texts(value, suffix)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from texts(item, suffix)
    elif isinstance(node, dict):
        for item in node.values():
            yield from texts(item, suffix)


# --- All presets ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", loader.PRESETS)
def test_preset_loads_and_passes_the_engine_checks(name: str) -> None:
    rulebook = book(name)
    assert rulebook.key == name
    assert check_rulebook(rulebook) == []


@pytest.mark.parametrize("name", loader.PRESETS)
def test_source_names_the_seed_and_language_is_the_originals(name: str) -> None:
    seed, language = SEEDS[name]
    rulebook = book(name)
    assert rulebook.source.startswith(f"seeds/{seed} — ")
    assert rulebook.language == language


@pytest.mark.parametrize("name", loader.PRESETS)
def test_shipped_text_is_what_load_reads(name: str) -> None:
    text = loader.preset_text(name)
    assert loader.parse(text, "copy.yaml") == book(name)
    assert yaml.safe_load(text)["key"] == name


def uncovered(rulebook: Rulebook) -> list[str]:
    """Settings written without a clause or an interpretation, on them or on a setting above."""
    return [
        path
        for field in type(rulebook).model_fields
        for path, _, covered in rules(getattr(rulebook, field), field, False)
        if not covered
    ]


@pytest.mark.parametrize("name", loader.PRESETS)
def test_every_setting_cites_a_clause_or_says_it_is_our_interpretation(name: str) -> None:
    assert uncovered(book(name)) == []


def test_a_setting_without_clause_is_found() -> None:
    text = loader.preset_text("it-puzzle-party").replace(
        '  clause: "Art. 6: I posti possono essere riassegnati dopo 10 minuti dall’inizio."\n', ""
    )
    assert uncovered(loader.parse(text, "it.yaml")) == ["no_show"]


@pytest.mark.parametrize("name", loader.PRESETS)
def test_clauses_and_interpretations_are_never_blank(name: str) -> None:
    rulebook = book(name)
    clauses = list(texts(rulebook, "clause"))
    assert len(clauses) > 15
    assert all(c.strip() for c in clauses)
    assert all(i.strip() for i in texts(rulebook, "interpretation"))
    assert all(note.clause or note.interpretation for note in rulebook.notes)


@pytest.mark.parametrize(
    ("name", "prefix"),
    [("it-puzzle-party", "Art. "), ("cba-qualifier", "§ "), ("deti-kolomny", "п. ")],
)
def test_clauses_of_numbered_originals_start_with_their_paragraph(name: str, prefix: str) -> None:
    clauses = list(texts(book(name), "clause"))
    assert [c for c in clauses if not c.startswith(prefix)] == []


# --- cz-jigsaw ------------------------------------------------------------------------------


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


# --- it-puzzle-party ------------------------------------------------------------------------


def test_it_pairs_registration_window_and_approval() -> None:
    rulebook = book("it-puzzle-party")
    (pairs,) = rulebook.categories
    assert (pairs.key, pairs.entrants.kind, pairs.cap) == ("pairs", "pair", 50)
    assert pairs.entrants.substitutions == "none"
    registration = rulebook.registration
    assert (registration.opens, registration.closes) == (dt.date(2026, 4, 23), dt.date(2026, 5, 21))
    assert registration.approval_required
    assert registration.approval_assigns_table
    (age,) = registration.eligibility
    assert isinstance(age, MinAge)
    assert (age.age, age.on) == (16, "event-day")
    assert age.clause == "Art. 3.1: Possono partecipare persone di età pari o superiore a 16 anni."
    assert rulebook.event_date == dt.date(2026, 5, 24)


def test_it_check_in_and_no_show() -> None:
    rulebook = book("it-puzzle-party")
    assert rulebook.check_in is not None
    assert rulebook.check_in.opens_before_min == 20
    assert rulebook.no_show is not None
    assert rulebook.no_show.after_start_min == 10


def test_it_stage() -> None:
    stage = timed("it-puzzle-party", "pairs")
    assert (stage.groups, stage.time_limit_min, stage.pieces) == ((), 120, 500)
    assert stage.missing_piece_penalty_s == 10
    assert (stage.piece_counting.method, stage.piece_counting.size) == ("joined-to-at-least", 3)
    assert [c.key for c in stage.ranking.criteria] == ["finished", "time", "pieces"]
    assert stage.ranking.clause == (
        "Art. 1: Vince la coppia che completa il puzzle nel minor tempo possibile."
    )
    assert stage.prizes is not None
    assert (stage.prizes.places, stage.prizes.official_only) == (3, False)
    assert stage.prizes.interpretation
    assert "residency" in stage.prizes.interpretation


def test_it_judges_decisions_are_final() -> None:
    (appeal,) = book("it-puzzle-party").appeals
    assert appeal.final is True
    assert appeal.clause == "Art. 6: Le decisioni dei giudici sono definitive."


# --- cba-qualifier --------------------------------------------------------------------------


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


# --- deti-kolomny ---------------------------------------------------------------------------


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
