"""E-mail to participants (``podium.web.kernel.mail``): one test per message, each read from
the outbox in the recipient's language with the event's details.

Hand-worked:
- cz-jigsaw starts 20 June 2026 09:00 UTC = 11:00 in Prague; a cancellation is refunded in full
  until 15 days before: the last free day is 5 June 2026.
- ČBA (600 CZK, half owed from 5 days before the squad): squad A starts 24 March 2012; a
  cancellation on 22 March with nothing paid owes 300 CZK.
- Puzzle Party (approval assigns the table): the first approved pair gets table 1.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest

from podium.web.models import Account, Entry, EntryMember, Person, Squad
from podium.web.registration.services.cancellation import entry_cancel
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.places import entry_approve
from podium.web.registration.services.registering import entry_register
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

UTC = dt.UTC
MAY = dt.datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
SITE = "http://127.0.0.1:8000"


def adult(first: str, last: str, **kw: Any) -> PersonData:
    return PersonData(first, last, dt.date(1990, 1, 1), kw.pop("country", "CZ"), **kw)


@pytest.fixture
def reader(make_user: Any) -> Any:
    """A user whose account remembers a language (``""``: none yet)."""

    def make(name: str, language: str) -> Any:
        user = make_user(name)
        Account.objects.create(user=user, language=language)
        return user

    return make


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event(
        "cz-jigsaw", organizer=make_user("olga"), title="Mistrovství 2026", venue="Praha, Lucerna",
        language="cs", timezone="Europe/Prague",
    )  # fmt: skip


def only(outbox: list[Any], address: str) -> Any:
    (found,) = [m for m in outbox if m.to == [address]]
    return found


def test_registration_received_in_the_remembered_language_else_the_events(
    cz: Any, reader: Any, make_user: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ivan = reader("ivan", "ru")
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_register(
            event=cz, category="individuals", by=ivan, members=[adult("Ivan", "Petrov")], now=MAY
        )
    mail = only(mailoutbox, "ivan@example.org")
    assert mail.subject == "Mistrovství 2026: регистрация Ivan Petrov получена"
    assert f"Мы получили регистрацию Ivan Petrov (№ {entry.number})." in mail.body
    assert "Место подтверждено." in mail.body
    assert "Начало: 20 июня 2026 г. 11:00 CEST (Europe/Prague)" in mail.body
    assert "Место проведения: Praha, Lucerna" in mail.body
    assert f"{SITE}/ru/e/cz-jigsaw/" in mail.body
    assert f"{SITE}/ru/me/entries/" in mail.body

    # No language remembered: the event's (Czech); the member's own address gets it too.
    with django_capture_on_commit_callbacks(execute=True):
        entry_register(
            event=cz, category="individuals", by=make_user("jana"), now=MAY,
            members=[adult("Jana", "Nová", email="jana.nova@example.cz")],
        )  # fmt: skip
    for address in ("jana@example.org", "jana.nova@example.cz"):
        mail = only(mailoutbox, address)
        assert mail.subject == "Mistrovství 2026: registrace Jana Nová přijata"
        assert "Začátek: 20. června 2026 11:00 CEST (Europe/Prague)" in mail.body
        assert f"{SITE}/cs/e/cz-jigsaw/" in mail.body
    assert len(mailoutbox) == 3


def test_an_organizer_registering_someone_is_not_mailed_the_member_is(
    cz: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    olga = cz.roles.get().user
    with django_capture_on_commit_callbacks(execute=True):
        entry_register(
            event=cz, category="individuals", by=olga, now=MAY,
            members=[adult("Petr", "Malý", email="petr@example.cz")],
        )  # fmt: skip
    assert [m.to for m in mailoutbox] == [["petr@example.cz"]]


def test_approved_with_the_table(
    make_event: Any, make_user: Any, reader: Any, mailoutbox: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    org = make_user("giulia")
    event = make_event(
        "it-puzzle-party", organizer=org, title="Puzzle Party", language="it", venue="Roma",
        starts_at=dt.datetime(2026, 5, 24, 8, 0, tzinfo=UTC), timezone="Europe/Rome",
    )  # fmt: skip
    pavel = reader("pavel", "cs")
    pair = [adult("Pavel", "Dvořák"), adult("Eva", "Dvořáková")]
    entry = entry_register(event=event, category="pairs", by=pavel, members=pair, now=MAY)
    assert entry.status == Entry.Status.PENDING
    with django_capture_on_commit_callbacks(execute=True):
        entry_approve(entry=entry, by=org)
    (mail,) = mailoutbox
    assert mail.to == ["pavel@example.org"]
    assert mail.subject == "Puzzle Party: přihláška Pavel Dvořák / Eva Dvořáková je schválena"
    assert "Váš stůl: 1." in mail.body
    assert "Začátek: 24. května 2026 10:00 CEST (Europe/Rome)" in mail.body
    assert f"{SITE}/cs/e/it-puzzle-party/" in mail.body


def test_moved_from_the_waiting_list_with_the_last_free_day(
    cz: Any, reader: Any, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    cz.rulebook_text = cz.rulebook_text.replace("cap: 200", "cap: 1", 1)
    cz.save()
    cz.__dict__.pop("rulebook", None)
    anna, boris = reader("anna", "cs"), reader("boris", "ru")
    first = entry_register(
        event=cz, category="individuals", by=anna, members=[adult("Anna", "Nová")], now=MAY
    )
    with django_capture_on_commit_callbacks(execute=True):
        waiting = entry_register(
            event=cz, category="individuals", by=boris, members=[adult("Boris", "Orlov")], now=MAY
        )
    assert waiting.waiting_position == 1
    assert "заявка — номер 1 в листе ожидания" in only(mailoutbox, "boris@example.org").body
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=first, by=anna, now=dt.datetime(2026, 6, 1, tzinfo=UTC))
    mail = only(mailoutbox, "boris@example.org")
    assert mail.subject == "Mistrovství 2026: у Boris Orlov есть место"
    assert "Boris Orlov переведён(а) из листа ожидания, заявка подтверждена." in mail.body
    assert "Место освободилось после отказа № 1 Anna Nová" in mail.body
    assert "до 5 июня 2026 г." in mail.body
    assert "Начало: 20 июня 2026 г. 11:00 CEST (Europe/Prague)" in mail.body


def test_cancelled_with_the_refund_and_what_is_owed(
    make_event: Any, make_user: Any, reader: Any, mailoutbox: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    event = make_event(
        "cba-qualifier", organizer=make_user("karel"), title="Kvalifikace", language="cs",
        starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC), venue="Bowling Praha",
    )  # fmt: skip
    squad = Squad.objects.create(
        event=event, name="A", starts_at=dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC), capacity=4
    )
    giorgio = reader("giorgio", "it")
    player = PersonData("Giorgio", "Rossi", dt.date(1980, 1, 1), "IT", "M", Decimal(150))
    entry = entry_register(
        event=event, category="players", by=giorgio, members=[player], squad=squad,
        now=dt.datetime(2012, 3, 1, tzinfo=UTC),
    )  # fmt: skip
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        entry_cancel(entry=entry, by=giorgio, now=dt.datetime(2012, 3, 22, tzinfo=UTC))
    (mail,) = mailoutbox
    assert mail.subject == "Kvalifikace: l'iscrizione Giorgio Rossi è annullata"
    assert "Rimborso: 0\xa0CZK.\nAncora dovuto: 300\xa0CZK.\n" in mail.body
    assert "Cancellazione 2 giorni prima dell'inizio" in mail.body
    assert "“§ 5.3" in mail.body
    assert f"{SITE}/it/e/cba-qualifier/" in mail.body


def test_results_published_for_the_stage_to_its_participants(
    make_event: Any, staff: Any, reader: Any, mailoutbox: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    event = make_event("cz-jigsaw", title="Mistrovství 2026", language="cs", venue="Praha")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    stage = "individual-qualification"
    readers = {"ru": reader("masha", "ru"), "en": reader("john", "en"), "": reader("petr", "")}
    for number, user in enumerate(readers.values(), start=1):
        person = Person.objects.create(
            first_name=user.username, last_name="X", user=user, country="CZ"
        )
        entry = Entry.objects.create(
            event=event, category="individuals", number=number, name=f"{user.username} X",
            status=Entry.Status.CONFIRMED, group="A", registered_by=user,
        )  # fmt: skip
        EntryMember.objects.create(entry=entry, person=person, captain=True)
        done = result_record(
            event=event, stage=stage, entry=entry, cells={"time": f"1:0{number}:00"},
            by=people["referee"], idempotency_key=f"r{number}",
            now=dt.datetime(2026, 6, 20, 10, number, tzinfo=UTC),
        )  # fmt: skip
        result_confirm(result=done, by=people["head"], now=dt.datetime(2026, 6, 20, 11, tzinfo=UTC))
    with django_capture_on_commit_callbacks(execute=True):
        publication_set(
            event=event, stage=stage, state="preliminary", by=people["organizer"],
            now=dt.datetime(2026, 6, 20, 11, 30, tzinfo=UTC),
        )  # fmt: skip
    assert len(mailoutbox) == 3
    ru, en, cs = (only(mailoutbox, f"{name}@example.org") for name in ("masha", "john", "petr"))
    assert ru.subject == "Mistrovství 2026: предварительные результаты: Личный зачёт — отбор"
    assert "могут ещё измениться" in ru.body
    assert f"{SITE}/ru/standings/cz-jigsaw/{stage}/1/" in ru.body
    assert en.subject == "Mistrovství 2026: preliminary results of Individuals — qualification"
    assert "You took part as john X (no. 2)." in en.body
    assert f"{SITE}/standings/cz-jigsaw/{stage}/1/" in en.body
    assert "Starts: June 20, 2026, 11 a.m. CEST (Europe/Prague)" in en.body
    assert cs.subject == "Mistrovství 2026: předběžné výsledky: Jednotlivci — kvalifikace"
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        publication_set(
            event=event, stage=stage, state="final", by=people["organizer"],
            now=dt.datetime(2026, 6, 20, 12, tzinfo=UTC),
        )  # fmt: skip
    en = only(mailoutbox, "john@example.org")
    assert en.subject == "Mistrovství 2026: final results of Individuals — qualification"
    assert "are published as final." in en.body
    # 1:01, 1:02, 1:03: masha 1st, john 2nd, petr 3rd.
    assert "Your place: 2." in en.body
    assert "Ваше место: 1." in only(mailoutbox, "masha@example.org").body
    assert "Vaše umístění: 3." in only(mailoutbox, "petr@example.org").body


def test_every_message_links_to_the_one_site_address_never_the_requests_host(
    make_event: Any, make_user: Any, mailoutbox: Any, settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    """Under ``make run PORT=8301`` (``podium serve`` sets PODIUM_SITE_URL to its address, see
    ``tests/cli/test_server.py``) registration, approval, cancellation, sign-up and password
    reset all link to port 8301, whatever Host the request named."""
    from django.test import Client

    settings.PODIUM_SITE_URL = "http://127.0.0.1:8301"
    org = make_user("giulia")
    event = make_event("it-puzzle-party", organizer=org, title="Puzzle Party", language="it")
    pavel = make_user("pavel")
    pair = [adult("Pavel", "Dvořák"), adult("Eva", "Dvořáková")]
    with django_capture_on_commit_callbacks(execute=True):
        entry = entry_register(event=event, category="pairs", by=pavel, members=pair, now=MAY)
        entry_approve(entry=entry, by=org)
        entry_cancel(entry=entry, by=pavel, now=MAY)
    client = Client(HTTP_HOST="localhost:8000")
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/accounts/password/reset/", {"email": "pavel@example.org"})
        client.post(
            "/accounts/signup/",
            {"username": "nela", "email": "nela@example.org",
             "password1": "tulip ledger 77", "password2": "tulip ledger 77"},
        )  # fmt: skip
    assert len(mailoutbox) == 5  # received, approved, cancelled, reset, sign-up
    for message in mailoutbox:
        links = re.findall(r"https?://[^\s/]+", message.body)
        assert links, message.subject
        assert set(links) == {"http://127.0.0.1:8301"}, (message.subject, links)
