"""Which language a page speaks (``podium.web.kernel.languages``): the address's prefix, else the
visitor's choice (the cookie), else the browser's ``Accept-Language``, else the event's (on an
event's pages) or English; the choice survives unprefixed links and the log-in, the cached
standings stay right for each language, and staff pages speak the reader's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from podium.web.models import Account, Entry, EntryMember, Person
from podium.web.registration.services.payments import payment_record
from podium.web.standings.services.publication import publication_set

COOKIE = settings.LANGUAGE_COOKIE_NAME


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def h1(response: Any) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", response.content.decode(), re.S)
    assert found, "no heading"
    return text(found.group(1)).strip()


@pytest.mark.django_db
def test_the_first_visit_follows_the_browsers_language() -> None:
    home = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9,en;q=0.8").get("/")
    assert home.status_code == 200
    assert h1(home) == "Соревнования"
    assert '<html lang="ru">' in home.content.decode()
    assert home["Content-Language"] == "ru"
    # The same address reads differently by browser and by cookie: caches must know.
    vary = {v.strip() for v in home["Vary"].split(",")}
    assert {"Accept-Language", "Cookie"} <= vary
    # Links of a Russian page carry the prefix, so the language stays whatever follows.
    assert 'href="/ru/accounts/login/"' in home.content.decode()
    # The first language Podium speaks wins; none of them: English.
    assert h1(Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,it;q=0.5").get("/")) == "Competizioni"
    assert h1(Client(HTTP_ACCEPT_LANGUAGE="de-DE,fr;q=0.5").get("/")) == "Competitions"
    assert h1(Client().get("/")) == "Competitions"
    # The prefix beats the browser.
    assert h1(Client(HTTP_ACCEPT_LANGUAGE="ru").get("/cs/")) == "Soutěže"


@pytest.mark.django_db
def test_a_choice_sticks_on_unprefixed_links_and_beats_the_browser(make_event: Any) -> None:
    make_event("it-puzzle-party", slug="festa", language="it")
    visitor = Client(HTTP_ACCEPT_LANGUAGE="ru")
    chosen = visitor.get("/i18n/choose/", {"language": "cs", "next": "/e/festa/"})
    assert chosen.status_code == 302
    assert chosen["Location"] == "/cs/e/festa/"
    assert visitor.cookies[COOKIE].value == "cs"
    assert visitor.cookies[COOKIE]["max-age"] == 365 * 24 * 3600  # kept after the browser closes
    # An unprefixed link after choosing Czech: Czech, not the browser's Russian or English.
    assert h1(visitor.get("/")) == "Soutěže"
    assert '<html lang="cs">' in visitor.get("/e/festa/").content.decode()
    # Choosing English from a Czech page: the unprefixed address, in English.
    back = visitor.get("/i18n/choose/", {"language": "en", "next": "/e/festa/"})
    assert back["Location"] == "/e/festa/"
    assert '<html lang="en">' in visitor.get("/e/festa/").content.decode()


@pytest.mark.django_db
def test_an_events_page_speaks_its_language_unless_the_visitor_said_one(make_event: Any) -> None:
    make_event("it-puzzle-party", slug="festa", language="it")
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get("/e/festa/").content.decode()
    assert '<html lang="it">' in page
    assert "Posti liberi" in page
    assert '<html lang="ru">' in Client(HTTP_ACCEPT_LANGUAGE="ru").get("/e/festa/").content.decode()


@pytest.mark.django_db
def test_logging_in_with_next_keeps_the_pages_language(make_user: Any) -> None:
    make_user("vera")
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    login = visitor.get("/cs/accounts/login/?next=/me/entries/")
    assert "Přihlásit se" in login.content.decode()
    answer = visitor.post(
        "/cs/accounts/login/?next=/me/entries/",
        {"username": "vera", "password": "correct horse battery", "next": "/me/entries/"},
    )
    assert answer.status_code == 302
    assert answer["Location"] == "/me/entries/"
    assert visitor.cookies[COOKIE].value == "cs"
    entries = visitor.get("/me/entries/")
    assert '<html lang="cs">' in entries.content.decode()
    assert "Moje přihlášky" in entries.content.decode()
    # Remembered for e-mail, too.
    assert Account.objects.get(user__username="vera").language == "cs"


@pytest.mark.django_db
def test_cached_standings_are_kept_per_language(
    make_event: Any, staff: Any, add_entry: Any, django_assert_num_queries: Any
) -> None:
    event = make_event("cz-jigsaw", language="cs")
    people = staff(event, organizer="olga")
    add_entry(event, 1, "Anna Nová", category="individuals", group="A")
    publication_set(event=event, stage="individual-qualification", state="preliminary",
                    by=people["organizer"])  # fmt: skip
    url = f"/standings/{event.slug}/individual-qualification/"
    russian = Client(HTTP_ACCEPT_LANGUAGE="ru").get(url)
    assert '<html lang="ru">' in russian.content.decode()
    # Another Russian browser gets the kept page without a query; an English one its own.
    with django_assert_num_queries(0):
        again = Client(HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9").get(url)
    assert again.content == russian.content
    assert '<html lang="en">' in Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    # Nothing said, nothing chosen: the event's language (Czech), kept apart from the others.
    assert '<html lang="cs">' in Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode()
    assert '<html lang="ru">' in Client(HTTP_ACCEPT_LANGUAGE="ru").get(url).content.decode()


@pytest.mark.django_db
def test_staff_pages_name_formats_categories_and_fees_in_the_readers_language(
    make_event: Any, make_user: Any
) -> None:
    olga = make_user("olga")
    make_event("cz-jigsaw", organizer=olga)
    club = make_event("deti-kolomny", organizer=olga)
    organizer = Client()
    organizer.force_login(olga)
    cs = organizer.get("/cs/organize/cz-jigsaw/").content.decode()
    assert "timed-solve" not in cs
    assert "team-solve" not in cs
    # A stage's format and category, and a category's kind of entrants, in words.
    assert (
        '<td data-label="Formát">skládání na čas (čas, jinak dílky)</td>'
        '<td data-label="Kategorie">Jednotlivci</td>'
    ) in cs
    assert '<td data-label="Účastníci">jednotlivci</td><td data-label="Limit">200</td>' in cs
    # The stages to import results into, by their titles in the reader's language.
    imports = organizer.get("/ru/organize/cz-jigsaw/import/").content.decode()
    assert ">Личный зачёт — отбор</option>" in imports
    assert "Individuals — qualification" not in imports
    ru = text(organizer.get("/ru/organize/deti-kolomny/").content.decode())
    for key in ("chgk-tour", "chgk-season", "head-to-head"):
        assert key not in ru
    assert "тур ЧГК (взятые вопросы)" in ru
    assert "бои один на один" in ru
    team = Entry.objects.create(
        event=club, category="teams", number=1, name="Знатоки", status=Entry.Status.CONFIRMED
    )
    EntryMember.objects.create(
        entry=team, person=Person.objects.create(first_name="И", last_name="К")
    )
    payment = payment_record(
        entry=team, fee_key="entry-first-half", amount="900", method="cash", by=olga
    )
    receipt = organizer.get(f"/ru/organize/deti-kolomny/receipts/{payment.receipt_number}/")
    page = text(receipt.content.decode())
    assert "Командный взнос, первая половина сезона" in page
    assert "Team fee" not in page


def test_unsupported_and_absurd_accept_language_headers_fall_back_quickly() -> None:
    """A hostile header (huge, or a thousand languages) is refused cheaply: English."""
    import time
    import tracemalloc

    from django.test import RequestFactory

    from podium.web.kernel.languages import browser_language

    factory = RequestFactory()
    tracemalloc.start()
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    for header in ("x" * 100_000, ",".join(f"q{i};q=0.{i % 9}" for i in range(5000)), "*"):
        assert browser_language(factory.get("/", HTTP_ACCEPT_LANGUAGE=header)) is None
    cpu = time.process_time() - started
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert cpu < 2, f"{cpu:.2f} s of CPU time"
    assert peak < 100 * 2**20
    assert browser_language(factory.get("/", HTTP_ACCEPT_LANGUAGE="ru-RU")) == "ru"


@pytest.mark.django_db
def test_a_logged_in_choice_is_remembered_for_e_mail(make_user: Any) -> None:
    vera = make_user("vera")
    client = Client()
    client.force_login(vera)
    client.get("/i18n/choose/", {"language": "ru", "next": "/"})
    assert Account.objects.get(user=vera).language == "ru"
    # A visitor who is not logged in changes no account.
    Client().get("/i18n/choose/", {"language": "it", "next": "/"})
    assert Account.objects.get(user=vera).language == "ru"
