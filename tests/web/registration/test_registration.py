"""Registering, rule by rule — numbers and people, team sizes, eligibility, the window, ČBA
divisions and squads — and ChGK rosters, with hand-worked dates. Once an entry is in (the
waiting list, approval, cancellation): ``test_places_and_cancellation``."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.utils import translation

from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import division_reason
from podium.web.models import AuditEntry, Entry, Person, Squad
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register
from podium.web.registration.services.rosters import roster_add_player

UTC = dt.UTC
# The IT window is 23 Apr – 21 May 2026 in Rome (UTC+2 in spring).
IT_OPEN = dt.datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CZ_NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def adult(first: str, last: str = "Novák", born: dt.date = dt.date(1990, 1, 1), **kw: Any):
    return PersonData(first, last, born, kw.pop("country", "CZ"), **kw)


def with_cap(event: Any, old: str, new: str) -> Any:
    assert old in event.rulebook_text
    event.rulebook_text = event.rulebook_text.replace(old, new, 1)
    event.save()
    event.__dict__.pop("rulebook", None)
    return event


@pytest.fixture
def chgk(make_event: Any, make_user: Any) -> Any:
    return make_event(
        "deti-kolomny",
        organizer=make_user("chgk-org"),
        starts_at=dt.datetime(2010, 11, 14, 9, 0, tzinfo=UTC),
        timezone="Europe/Moscow",
    )


def register(event: Any, by: Any, members: list[PersonData], category: str, **kw: Any) -> Entry:
    kw.setdefault("now", CZ_NOW)
    return entry_register(event=event, category=category, by=by, members=members, **kw)


def refused(call: Any) -> Refused:
    before = (Entry.objects.count(), AuditEntry.objects.count(), Person.objects.count())
    with pytest.raises(Refused) as caught:
        call()
    # A refused action changes nothing.
    assert (Entry.objects.count(), AuditEntry.objects.count(), Person.objects.count()) == before
    return caught.value


# --- basics, numbers, people -----------------------------------------------------------------


def test_individual_is_confirmed_numbered_and_audited(cz: Any, make_user: Any) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    first = register(cz, ann, [adult("Anna", "Malá")], "individuals")
    second = register(cz, bob, [adult("Bohumil", "Velký")], "individuals")
    assert (first.number, first.status, first.name) == (1, "confirmed", "Anna Malá")
    assert second.number == 2
    log = AuditEntry.objects.filter(action="entry.register").first()
    assert log is not None
    assert log.data["members"] == ["Bohumil Velký"]


def test_a_persons_data_is_entered_once_and_reused(cz: Any, make_user: Any) -> None:
    ann = make_user("ann")
    register(cz, ann, [adult("Anna", "Malá")], "individuals")
    me = Person.objects.get(user=ann)
    pair = register(cz, ann, [adult("Anna", "Malá"), adult("Eva", "Dlouhá")], "pairs")
    assert pair.members.get(captain=True).person == me
    assert pair.name == "Anna Malá / Eva Dlouhá"
    assert Person.objects.count() == 2
    # Eva, entered by Anna, is found again by name and birth date.
    team = register(
        cz,
        ann,
        [adult("Anna", "Malá"), adult("eva", "dlouhá"), adult("Jan", "Krátký")],
        "teams",
        name="Rychlé ruce",
    )
    assert Person.objects.count() == 3
    assert {m.person.first_name for m in team.members.all()} == {"Anna", "Eva", "Jan"}


def test_duplicate_registration_in_a_category_is_refused(cz: Any, make_user: Any) -> None:
    ann = make_user("ann")
    register(cz, ann, [adult("Anna", "Malá")], "individuals")
    error = refused(lambda: register(cz, ann, [adult("Anna", "Malá")], "individuals"))
    assert "already registered" in error.message
    assert error.field == "m0_last_name"


# --- team sizes -----------------------------------------------------------------------------


@pytest.mark.parametrize("size", [2, 5])
def test_cz_team_size_outside_3_to_4_is_refused(cz: Any, make_user: Any, size: int) -> None:
    people = [adult(f"P{i}", "Tým") for i in range(size)]
    error = refused(lambda: register(cz, make_user("t"), people, "teams", name="T"))
    assert "outside 3–4" in error.message
    assert error.field == "members"
    assert error.clause == "Tým tvoří 3-4 jednotlivci."


def test_a_pair_has_exactly_two(cz: Any, make_user: Any) -> None:
    error = refused(lambda: register(cz, make_user("p"), [adult("Sólo", "Sám")], "pairs"))
    assert "exactly 2" in error.message


def test_a_team_needs_a_name(cz: Any, make_user: Any) -> None:
    people = [adult(f"P{i}", "Tým") for i in range(3)]
    assert refused(lambda: register(cz, make_user("t"), people, "teams")).field == "name"


# --- eligibility -----------------------------------------------------------------------------


def test_cz_under_16_needs_an_accompanying_adult(cz: Any, make_user: Any) -> None:
    # The event is on 20 June 2026: born 21 June 2010 is 15 that day, 20 June 2010 is 16.
    kid = adult("Petr", "Malý", dt.date(2010, 6, 21))
    error = refused(lambda: register(cz, make_user("k"), [kid], "individuals"))
    assert error.field == "accompanying_adult"
    assert "15 years old" in error.message
    assert "Petr Malý" in error.message
    assert error.clause is not None
    assert "mladší 16 let" in error.clause
    entry = register(cz, make_user("k2"), [kid], "individuals", accompanying_adult="Jana Malá")
    assert entry.accompanying_adult == "Jana Malá"
    sixteen = register(
        cz, make_user("k3"), [adult("Iva", "Nová", dt.date(2010, 6, 20))], "individuals",
        accompanying_adult="not needed",
    )  # fmt: skip
    assert sixteen.accompanying_adult == ""


def test_it_age_16_on_the_event_day(it: Any, make_user: Any) -> None:
    # The party is on 24 May 2026.
    ok = [adult("Luca", "Rossi", dt.date(2010, 5, 24)), adult("Sara", "Bianchi")]
    young = [adult("Marco", "Verdi", dt.date(2010, 5, 25)), adult("Anna", "Neri")]
    error = refused(lambda: register(it, make_user("y"), young, "pairs", now=IT_OPEN))
    assert "Marco Verdi" in error.message
    assert "15 years old on 2026-05-24" in error.message
    assert error.field == "m0_birth_date"
    assert error.clause.startswith("Art. 3.1")
    assert register(it, make_user("o"), ok, "pairs", now=IT_OPEN).status == "pending"


def test_it_birth_date_is_required(it: Any, make_user: Any) -> None:
    nobody = [PersonData("Ugo", "Senza"), adult("Anna", "Neri")]
    error = refused(lambda: register(it, make_user("n"), nobody, "pairs", now=IT_OPEN))
    assert error.field == "m0_birth_date"


def test_cba_born_on_or_before_30_june_1999(cba: Any, make_user: Any) -> None:
    squad = Squad.objects.get(name="A")
    now = dt.datetime(2012, 3, 1, tzinfo=UTC)
    late = PersonData("Jan", "Mladý", dt.date(1999, 7, 1), "CZ", "M", Decimal(170))
    error = refused(lambda: register(cba, make_user("a"), [late], "players", squad=squad, now=now))
    assert "after 1999-06-30" in error.message
    assert error.clause.startswith("§ 3.1")
    edge = PersonData("Petr", "Starší", dt.date(1999, 6, 30), "CZ", "M", Decimal(170))
    assert register(cba, make_user("b"), [edge], "players", squad=squad, now=now).number == 1


# --- window ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "allowed"),
    [
        # 22 Apr 23:30 in Rome: the day before it opens.
        (dt.datetime(2026, 4, 22, 21, 30, tzinfo=UTC), False),
        # 23 Apr 00:30 in Rome, though still 22 Apr in UTC.
        (dt.datetime(2026, 4, 22, 22, 30, tzinfo=UTC), True),
        (dt.datetime(2026, 5, 21, 21, 59, tzinfo=UTC), True),  # 21 May 23:59 in Rome
        (dt.datetime(2026, 5, 21, 22, 0, tzinfo=UTC), False),  # 22 May 00:00 in Rome
    ],
)
def test_it_window_in_the_events_timezone(
    it: Any, make_user: Any, now: dt.datetime, allowed: bool
) -> None:
    pair = [adult("Luca", "Rossi"), adult("Sara", "Bianchi")]
    if allowed:
        assert register(it, make_user("u"), pair, "pairs", now=now).status == "pending"
    else:
        error = refused(lambda: register(it, make_user("u"), pair, "pairs", now=now))
        assert "Registration" in error.message
        assert error.clause.startswith("Art. 3.1")


def test_cba_late_entries_only_while_there_is_room(cba: Any, make_user: Any) -> None:
    # Entries closed on 16 March 2012; on the 20th a squad with room still takes players.
    cba = with_cap(cba, "closes: 2012-03-16", "closes: 2012-03-16\n  cap: 1")
    now = dt.datetime(2012, 3, 20, 10, 0, tzinfo=UTC)
    squad = Squad.objects.get(name="A")
    first = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(200))
    assert register(cba, make_user("a"), [first], "players", squad=squad, now=now).status == (
        "confirmed"
    )
    second = PersonData("Eva", "Koule", dt.date(1985, 1, 1), "CZ", "F", Decimal(150))
    error = refused(
        lambda: register(cba, make_user("b"), [second], "players", squad=squad, now=now)
    )
    assert "closed on 2012-03-16" in error.message
    assert error.clause.startswith("§ 5.2")


def test_it_closed_event_status_refuses(it: Any, make_user: Any) -> None:
    it.status = "closed"
    it.save()
    pair = [adult("Luca", "Rossi"), adult("Sara", "Bianchi")]
    assert "not open" in refused(lambda: register(it, make_user("u"), pair, "pairs")).message


# --- ČBA divisions and squads -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("gender", "average", "division", "why"),
    [
        ("M", Decimal("190"), "master-men", "ladder average 190 as of 2011-07-01"),
        ("M", Decimal("189.99"), "standard-men", "ladder average 189.99"),
        ("F", Decimal("175"), "master-women", "ladder average 175"),
        ("F", Decimal("159.99"), "amateur-women", "ladder average 159.99"),
        ("M", None, "amateur-men", "not on the ladder as of 2011-07-01"),
    ],
)
def test_cba_division_with_its_reason(
    cba: Any, make_user: Any, gender: str, average: Decimal | None, division: str, why: str
) -> None:
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", gender, average)
    entry = register(
        cba, make_user("p"), [player], "players", squad=Squad.objects.get(name="A"),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    assert entry.division == division
    assert why in entry.division_reason
    assert "§ 3.4" in entry.division_reason


def test_the_division_reason_reads_in_the_readers_language(cba: Any, make_user: Any) -> None:
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal("190"))
    entry = register(
        cba, make_user("p"), [player], "players", squad=Squad.objects.get(name="A"),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    with translation.override("cs"):
        czech = division_reason(entry)
    assert czech.startswith("Kategorie Master — muži: průměr na žebříčku k 2011-07-01 je 190")
    # The clause stays in the rulebook's language, on a line of its own.
    assert czech.split("\n")[1:] == entry.division_reason.split("\n")[1:]
    assert "§ 3.4" in czech.split("\n")[1]
    with translation.override("en"):
        assert division_reason(entry) == entry.division_reason  # English as it was written


def test_cba_needs_gender_and_squad_and_a_full_squad_refuses(cba: Any, make_user: Any) -> None:
    now = dt.datetime(2012, 3, 1, tzinfo=UTC)
    b = Squad.objects.get(name="B")
    jan, eva = make_user("jan"), make_user("eva")
    no_gender = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "", Decimal(150))
    error = refused(lambda: register(cba, jan, [no_gender], "players", squad=b, now=now))
    assert error.field == "m0_gender"
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    assert refused(lambda: register(cba, jan, [player], "players", now=now)).field == "squad"
    register(cba, jan, [player], "players", squad=b, now=now)
    other = PersonData("Eva", "Koule", dt.date(1985, 1, 1), "CZ", "F", Decimal(150))
    error = refused(lambda: register(cba, eva, [other], "players", squad=b, now=now))
    assert error.field == "squad"
    assert "choose another squad" in error.message


# --- ChGK rosters ----------------------------------------------------------------------------


def roster(prefix: str, n: int) -> list[PersonData]:
    return [
        adult(f"{prefix}{i}", "Иванов", dt.date(1990, 1, i + 1), country="RU") for i in range(n)
    ]


def test_chgk_roster_up_to_9(chgk: Any, make_user: Any) -> None:
    now = dt.datetime(2010, 11, 1, tzinfo=UTC)
    error = refused(
        lambda: register(chgk, make_user("a"), roster("A", 10), "teams", name="Десять", now=now)
    )
    assert "at most 9" in error.message
    assert "п. 7" in error.clause
    owner = make_user("b")
    team = register(chgk, owner, roster("B", 8), "teams", name="Восемь", now=now)
    roster_add_player(entry=team, person=adult("Девятый", "Игрок", country="RU"), by=owner)
    assert team.members.count() == 9
    error = refused(
        lambda: roster_add_player(entry=team, person=adult("Десятый", "Игрок"), by=owner)
    )
    assert "at most 9" in error.message
    assert "п. 7" in error.clause


def test_chgk_one_team_per_player(chgk: Any, make_user: Any) -> None:
    now = dt.datetime(2010, 11, 1, tzinfo=UTC)
    first = register(chgk, make_user("a"), roster("A", 4), "teams", name="Знатоки", now=now)
    owner = make_user("b")
    second = register(chgk, owner, roster("B", 3), "teams", name="Эрудиты", now=now)
    moving = roster("A", 1)[0]
    error = refused(lambda: roster_add_player(entry=second, person=moving, by=owner))
    assert "already plays for Знатоки" in error.message
    assert "п. 8" in error.clause
    error = refused(
        lambda: register(chgk, make_user("c"), roster("A", 2), "teams", name="Третьи", now=now)
    )
    assert "already" in error.message
    assert first.members.count() == 4
    assert second.members.count() == 3


def test_chgk_unscored_team_of_any_size(chgk: Any, make_user: Any) -> None:
    now = dt.datetime(2010, 11, 1, tzinfo=UTC)
    team = register(
        chgk, make_user("a"), roster("U", 12), "teams", name="Вне зачёта", scored=False, now=now
    )
    assert (team.scored, team.members.count()) == (False, 12)


def test_roster_cannot_grow_where_the_rulebook_forbids(cz: Any, make_user: Any) -> None:
    owner = make_user("a")
    team = register(cz, owner, roster("T", 3), "teams", name="Tři")
    error = refused(lambda: roster_add_player(entry=team, person=adult("Nový", "Hráč"), by=owner))
    assert "cannot be added" in error.message
