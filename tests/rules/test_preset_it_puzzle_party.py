"""The it-puzzle-party preset (Puzzle Party di Ravensburger) says what its seed rulebook
says."""

from __future__ import annotations

import datetime as dt

from tests.rules.test_presets import book, timed

from podium.rules.schema.registration import MinAge


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
