"""Eligibility with reasons: ages on the event day, birth-date cut-offs, accompanying adults."""

from __future__ import annotations

import datetime as dt

import pytest

from podium.engine.eligibility import age_on, check
from podium.rules.loader import load

IT = load("it-puzzle-party")
CBA = load("cba-qualifier")
CZ = load("cz-jigsaw")


@pytest.mark.parametrize(
    ("birth", "eligible"),
    [
        (dt.date(2010, 5, 24), True),  # 16th birthday on the event day (24 May 2026)
        (dt.date(2010, 5, 25), False),  # turns 16 the day after
        (dt.date(1980, 1, 1), True),
    ],
)
def test_puzzle_party_sixteen_or_older_on_the_day(birth: dt.date, eligible: bool) -> None:
    verdict = check(IT.registration.eligibility, birth_date=birth, event_date=IT.event_date)
    assert verdict.eligible is eligible
    if not eligible:
        assert verdict.failures[0].text == "15 years old on 2026-05-24; at least 16 required"
        assert verdict.failures[0].clause


@pytest.mark.parametrize(
    ("birth", "eligible"),
    [(dt.date(1999, 6, 30), True), (dt.date(1999, 7, 1), False), (dt.date(1970, 3, 3), True)],
)
def test_bowling_born_on_or_before_30_june_1999(birth: dt.date, eligible: bool) -> None:
    verdict = check(CBA.registration.eligibility, birth_date=birth, event_date=CBA.event_date)
    assert verdict.eligible is eligible
    if not eligible:
        assert verdict.failures[0].text == "Born 1999-07-01, after 1999-06-30: not eligible"


def test_jigsaw_under_sixteen_only_with_an_adult() -> None:
    rules = CZ.registration.eligibility
    day = dt.date(2026, 6, 20)
    child = dt.date(2012, 1, 1)  # 14 on the day
    alone = check(rules, birth_date=child, event_date=day, accompanied=False)
    assert not alone.eligible
    assert alone.needs_adult
    assert alone.failures[0].text == "14 years old: under 16 only with an accompanying adult"
    assert check(rules, birth_date=child, event_date=day, accompanied=True).eligible
    adult = check(rules, birth_date=dt.date(2010, 6, 20), event_date=day, accompanied=False)
    assert adult.eligible
    assert not adult.needs_adult


def test_unknown_birth_date_is_reported_not_guessed() -> None:
    verdict = check(IT.registration.eligibility, birth_date=None, event_date=IT.event_date)
    assert verdict.unknown == ("birth_date",)
    assert verdict.reasons == ()


def test_age_on_counts_completed_years() -> None:
    assert age_on(dt.date(2000, 2, 29), dt.date(2016, 2, 28)) == 15
    assert age_on(dt.date(2000, 2, 29), dt.date(2016, 2, 29)) == 16
    assert age_on(dt.date(2000, 2, 29), dt.date(2017, 3, 1)) == 17
