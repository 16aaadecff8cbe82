"""Registration services, rule by rule, with hand-worked dates and amounts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from django.utils import translation

from podium.web.kernel.refusals import Refused
from podium.web.kernel.texts import division_reason
from podium.web.models import AuditEntry, Entry, Event, EventRole, Payment, Person, Squad
from podium.web.registration.selectors.entries import waiting_list
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.places import entry_approve, entry_promote, waiting_reorder
from podium.web.registration.services.registering import entry_register
from podium.web.registration.services.rosters import roster_add_player
from podium.web.registration.services.settlement import settlement_preview

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
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event("cz-jigsaw", organizer=make_user("cz-org"))


@pytest.fixture
def it(make_event: Any, make_user: Any) -> Any:
    return make_event(
        "it-puzzle-party",
        organizer=make_user("it-org"),
        starts_at=dt.datetime(2026, 5, 24, 8, 0, tzinfo=UTC),
        timezone="Europe/Rome",
    )


@pytest.fixture
def cba(make_event: Any, make_user: Any) -> Any:
    event = make_event(
        "cba-qualifier",
        organizer=make_user("cba-org"),
        starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC),
    )
    Squad.objects.create(
        event=event, name="A", starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC), capacity=2
    )
    Squad.objects.create(
        event=event, name="B", starts_at=dt.datetime(2012, 3, 25, 8, 0, tzinfo=UTC), capacity=1
    )
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


# --- cap and waiting list ---------------------------------------------------------------------


def test_full_category_offers_the_waiting_list_then_queues(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 2")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    register(cz, make_user("b"), [adult("B", "Dva")], "individuals")
    error = refused(
        lambda: register(cz, make_user("c"), [adult("C", "Tři")], "individuals", waiting=False)
    )
    assert error.field == "waiting"
    assert "full (2 places)" in error.message
    assert "number 1" in error.message
    c = register(cz, make_user("c2"), [adult("C", "Tři")], "individuals")
    d = register(cz, make_user("d"), [adult("D", "Čtyři")], "individuals")
    assert (c.status, c.waiting_position, d.waiting_position) == ("waiting", 1, 2)
    assert waiting_list(cz, "individuals") == [c, d]


def test_cancellation_promotes_the_first_waiting_entry(
    cz: Any, make_user: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    a_user = make_user("a")
    a = register(cz, a_user, [adult("A", "Jedna")], "individuals")
    b = register(cz, make_user("b"), [adult("B", "Dva")], "individuals")
    c = register(cz, make_user("c"), [adult("C", "Tři")], "individuals")
    # 20 June 2026 minus 19 days: 1 June; no fee in this rulebook, so nothing to refund.
    with django_capture_on_commit_callbacks(execute=True):
        cancellation = entry_cancel(entry=a, by=a_user, now=dt.datetime(2026, 6, 1, tzinfo=UTC))
    assert cancellation.refund == 0
    assert cancellation.owed == 0
    assert cancellation.reason == "Cancelled 19 days before the start: nothing to refund"
    b.refresh_from_db()
    c.refresh_from_db()
    assert (b.status, b.waiting_position) == ("confirmed", None)
    assert (c.status, c.waiting_position) == ("waiting", 1)
    # A hears that the entry is cancelled, B that it has a place.
    assert [m.to for m in mailoutbox] == [["a@example.org"], ["b@example.org"]]
    mail = mailoutbox[1]
    assert mail.subject == "cz-jigsaw: B Dva has a place"
    assert "moved up from the waiting list and is confirmed" in mail.body
    promoted = AuditEntry.objects.get(action="entry.promote.automatic")
    assert promoted.target == str(b)
    # The e-mail speaks the event's language, whoever's action promoted the entry.
    Event.objects.filter(pk=cz.pk).update(language="cs")
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=b, by=b.registered_by, now=dt.datetime(2026, 6, 1, tzinfo=UTC))
    czech = mailoutbox[-1]
    assert czech.to == ["c@example.org"]
    assert czech.subject == "cz-jigsaw: C Tři má místo"
    assert "#1 A Jedna cancelled" in promoted.data["reason"]
    assert promoted.data["was_position"] == 1


def test_leaving_the_waiting_list_renumbers_it(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    b_user = make_user("b")
    b = register(cz, b_user, [adult("B", "Dva")], "individuals")
    c = register(cz, make_user("c"), [adult("C", "Tři")], "individuals")
    entry_cancel(entry=b, by=b_user, now=CZ_NOW)
    c.refresh_from_db()
    assert (c.status, c.waiting_position) == ("waiting", 1)
    assert not AuditEntry.objects.filter(action__startswith="entry.promote").exists()


def test_organizer_reorders_the_waiting_list_with_a_reason(cz: Any, make_user: Any) -> None:
    cz = with_cap(cz, "cap: 200", "cap: 1")
    register(cz, make_user("a"), [adult("A", "Jedna")], "individuals")
    *_, d = (
        register(cz, make_user(n), [adult(n.upper(), "X")], "individuals") for n in ("b", "c", "d")
    )
    organizer = EventRole.objects.get(event=cz).user
    assert (
        refused(lambda: waiting_reorder(entry=d, position=1, by=organizer, reason="  ")).field
        == "reason"
    )
    outsider = make_user("outsider")
    assert (
        "organizers"
        in refused(lambda: waiting_reorder(entry=d, position=1, by=outsider, reason="x")).message
    )
    waiting_reorder(entry=d, position=1, by=organizer, reason="Registered by phone on day 1")
    assert [(e.name, e.waiting_position) for e in waiting_list(cz, "individuals")] == [
        ("D X", 1),
        ("B X", 2),
        ("C X", 3),
    ]
    log = AuditEntry.objects.get(action="waiting.reorder")
    assert log.data == {
        "was_position": 3,
        "position": 1,
        "reason": "Registered by phone on day 1",
    }


def test_promote_by_the_desk_with_a_reason(it: Any, make_user: Any) -> None:
    it = with_cap(it, "cap: 50", "cap: 1")
    register(it, make_user("a"), [adult("A", "Uno"), adult("B", "Due")], "pairs", now=IT_OPEN)
    waiting = register(
        it, make_user("c"), [adult("C", "Tre"), adult("D", "Quattro")], "pairs", now=IT_OPEN
    )
    referee = make_user("ref")
    assert (
        "organizers and referees"
        in refused(lambda: entry_promote(entry=waiting, by=referee, reason="no-show")).message
    )
    EventRole.objects.create(event=it, user=referee, role=EventRole.Role.REFEREE)
    promoted = entry_promote(entry=waiting, by=referee, reason="Seat of #1 after the no-show")
    # IT still needs the organizer's approval before the pair is final.
    assert (promoted.status, promoted.waiting_position) == ("pending", None)
    assert AuditEntry.objects.get(action="entry.promote").data["reason"] == (
        "Seat of #1 after the no-show"
    )


# --- approval and tables -----------------------------------------------------------------------


def test_it_approval_assigns_the_lowest_free_table(it: Any, make_user: Any) -> None:
    organizer = EventRole.objects.get(event=it).user
    users = [make_user(n) for n in ("a", "b", "c")]
    pairs = [
        register(it, u, [adult(f"{u.username}1", "X"), adult(f"{u.username}2", "Y")], "pairs",
                 now=IT_OPEN)
        for u in users
    ]  # fmt: skip
    assert "organizers" in refused(lambda: entry_approve(entry=pairs[0], by=users[0])).message
    assert entry_approve(entry=pairs[0], by=organizer).table_number == 1
    assert entry_approve(entry=pairs[1], by=organizer).table_number == 2
    entry_cancel(entry=pairs[0], by=users[0], now=IT_OPEN)
    third = entry_approve(entry=pairs[2], by=organizer)
    assert (third.status, third.table_number) == ("confirmed", 1)
    assert AuditEntry.objects.filter(action="entry.approve").first().data["table_number"] == 1


# --- ČBA divisions, squads, cancellation terms ------------------------------------------------


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


@pytest.mark.parametrize(
    ("squad", "cancelled", "paid", "refund", "owed"),
    [
        # Squad A starts 24 March 2012: the 19th is 5 days before, free; the 20th owes half.
        ("A", dt.datetime(2012, 3, 19, 12, 0, tzinfo=UTC), 0, "0", "0"),
        ("A", dt.datetime(2012, 3, 20, 12, 0, tzinfo=UTC), 0, "0", "300"),
        # Squad B starts the 25th: the 20th is still 5 days before ITS start.
        ("B", dt.datetime(2012, 3, 20, 12, 0, tzinfo=UTC), 0, "0", "0"),
        # Paid 600 in advance (the fee is cash at check-in, but say it was): too late, half of
        # it is kept as the half owed, the other half comes back.
        ("A", dt.datetime(2012, 3, 22, 12, 0, tzinfo=UTC), 600, "300", "0"),
    ],
)
def test_cba_cancellation_terms_against_the_squad_start(
    cba: Any, make_user: Any, squad: str, cancelled: dt.datetime, paid: int, refund: str, owed: str
) -> None:
    user = make_user("p")
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    entry = register(
        cba, user, [player], "players", squad=Squad.objects.get(name=squad),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    if paid:
        Payment.objects.create(
            entry=entry, fee_key="entry", amount=paid, currency="CZK", method="cash",
            receipt_number=1,
        )  # fmt: skip
    preview = settlement_preview(entry=entry, now=cancelled)
    cancellation = entry_cancel(entry=entry, by=user, now=cancelled)
    assert (cancellation.refund, cancellation.owed) == (Decimal(refund), Decimal(owed))
    assert (preview.refund, preview.owed) == (Decimal(refund), Decimal(owed))
    assert cancellation.currency == "CZK"
    assert cancellation.clause.startswith("§ 5.3")
    entry.refresh_from_db()
    assert entry.status == "cancelled"


def test_a_refunding_tier_returns_what_was_paid(cba: Any, make_user: Any) -> None:
    # ČBA § 5.3: free until 5 days before, so 600 CZK paid in advance comes back 6 days before.
    user = make_user("p")
    player = PersonData("Jan", "Kuželka", dt.date(1980, 1, 1), "CZ", "M", Decimal(150))
    entry = register(
        cba, user, [player], "players", squad=Squad.objects.get(name="A"),
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    Payment.objects.create(
        entry=entry, fee_key="entry", amount=600, currency="CZK", method="cash", receipt_number=1
    )
    cancellation = entry_cancel(entry=entry, by=user, now=dt.datetime(2012, 3, 18, tzinfo=UTC))
    assert (cancellation.refund, cancellation.owed) == (Decimal(600), Decimal(0))
    assert cancellation.reason == "Cancelled 6 days before the start: refund 600.00 CZK"


def test_cancel_after_the_start_and_by_a_stranger_is_refused(cz: Any, make_user: Any) -> None:
    owner = make_user("a")
    entry = register(cz, owner, [adult("A", "Jedna")], "individuals")
    assert "Only" in refused(lambda: entry_cancel(entry=entry, by=make_user("x"))).message
    after = dt.datetime(2026, 6, 20, 9, 30, tzinfo=UTC)
    assert "no-show" in refused(lambda: entry_cancel(entry=entry, by=owner, now=after)).message
    entry_cancel(entry=entry, by=owner, now=CZ_NOW)
    assert "already" in refused(lambda: entry_cancel(entry=entry, by=owner, now=CZ_NOW)).message


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
