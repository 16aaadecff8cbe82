"""Matching a person (``podium.web.kernel.people``): one matcher for registration, rosters and
discipline. Pinned here: who is the same person, and which teams count as a person's other
team — only the scored ones for the one-team-per-person rule of a registration (players
outside the competition may form teams of their own), any team for the breach a discipline
reason names."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.kernel.people import find_person, other_team, same_person
from podium.web.models import Entry, EntryMember, Person

BORN = dt.date(1990, 5, 17)


@pytest.fixture
def anna(db: None) -> Person:
    return Person.objects.create(first_name="Anna", last_name="Nová", birth_date=BORN)


def test_the_same_names_and_birth_date_are_the_same_person_whatever_the_case(anna: Person) -> None:
    assert find_person(" anna ", "NOVÁ", BORN) == anna
    assert same_person(anna, "ANNA", "nová", BORN)


def test_another_birth_date_or_name_is_another_person(anna: Person) -> None:
    assert find_person("Anna", "Nová", dt.date(1991, 5, 17)) is None
    assert find_person("Anna", "Novák", BORN) is None
    assert not same_person(anna, "Anna", "Nová", dt.date(1991, 5, 17))


def test_without_a_birth_date_only_the_typists_own_record_matches(anna: Person) -> None:
    assert find_person("Anna", "Nová", None) is None
    assert find_person("Anna", "Nová", None, own=anna) == anna
    other = Person.objects.create(first_name="Eva", last_name="Malá")
    assert find_person("Anna", "Nová", None, own=other) is None


def test_a_record_without_a_birth_date_matches_a_typed_one() -> None:
    assert same_person(Person(first_name="Anna", last_name="Nová"), "Anna", "Nová", BORN)


def _team(event: Any, number: int, player: Person, *, scored: bool = True, **fields: Any) -> Entry:
    entry = Entry.objects.create(
        event=event, category="teams", number=number, name=f"Team {number}",
        status=fields.pop("status", Entry.Status.CONFIRMED), scored=scored,
    )  # fmt: skip
    EntryMember.objects.create(entry=entry, person=player)
    return entry


def test_a_registration_counts_scored_teams_a_breach_names_any(
    make_event: Any, anna: Person
) -> None:
    event = make_event("deti-kolomny")
    _team(event, 1, anna, status=Entry.Status.CANCELLED)
    outside = _team(event, 2, anna, scored=False)
    scored = _team(event, 3, anna)
    elsewhere = make_event("deti-kolomny", slug="deti-kolomny-2")
    _team(elsewhere, 1, anna)

    # Registration (one team per person, п. 7): the scored team, never the one outside the
    # competition, never a cancelled one, never a team of another event.
    assert other_team(event, anna, scored_only=True) == scored
    assert other_team(event, anna, besides=scored, scored_only=True) is None
    # Discipline (the reason of a breach): whichever team the player was on, lowest first.
    assert other_team(event, anna, besides=scored, scored_only=False) == outside
    assert other_team(event, anna, scored_only=False) == outside
