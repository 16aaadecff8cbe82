"""Web test helpers: users with roles, events from presets, and a real browser (Playwright).

Each domain's scenario builders (events at a size, for the query counts) are in
``tests/web/fixtures/``, registered in ``tests/conftest.py``."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from podium.rules.loader import preset_text
from podium.web.live import flight, versions
from podium.web.models import Event, EventRole

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _at_commit_or_now(call: Any) -> None:
    """``versions.on_commit`` in tests: a test that runs in a transaction rolled back at its end
    never commits, so what production does on commit is done at once there; a test that really
    commits (a live server for the browser) keeps the real order."""
    connection = transaction.get_connection()
    blocks = connection.atomic_blocks
    if blocks and getattr(blocks[0], "_from_testcase", False):
        call()
    else:
        transaction.on_commit(call)


@pytest.fixture(autouse=True)
def _versions_bumped_in_test_transactions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(versions, "on_commit", _at_commit_or_now)


@pytest.fixture(autouse=True)
def _tables_rendered_at_every_change(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read a table right after each write; a venue's spectators, who poll every few
    seconds, get it within ``flight.SETTLE_S`` (tested in ``test_flight.py``)."""
    monkeypatch.setattr(flight, "SETTLE_S", 0)


@pytest.fixture(autouse=True)
def _fresh_cache_and_english_afterwards() -> Iterator[None]:
    """Each test starts with an empty cache (it holds rendered tables and charts by version tag,
    and the API's rate counters; ids repeat between tests); a page activates its language in
    the test's thread, so English is left for the next test."""
    cache.clear()
    versions.forget()  # the poll gate's memo: ids and slugs repeat between tests
    yield
    translation.activate("en")


@pytest.fixture
def why() -> Any:
    """A row's reasons on a standings page, as the page's script fetches them when the row's
    name is tapped (``url``: the page; ``table``: the table's key; ``number``: the row's)."""
    from django.test import Client

    def fetch(url: str, table: str, number: int | str, client: Any = None) -> str:
        response = (client or Client()).get(f"{url}?why={table}.{number}", HTTP_HX_REQUEST="true")
        assert response.status_code == 200, f"no row {number} in table {table} of {url}"
        return str(response.content.decode())

    return fetch


@pytest.fixture
def make_user(db: None) -> Any:
    def make(username: str, password: str = "correct horse battery") -> Any:
        return get_user_model().objects.create_user(username, f"{username}@example.org", password)

    return make


@pytest.fixture
def make_event(db: None, make_user: Any) -> Any:
    def make(
        preset: str,
        *,
        slug: str | None = None,
        organizer: Any = None,
        starts_at: dt.datetime | None = None,
        status: str = Event.Status.OPEN,
        **fields: Any,
    ) -> Event:
        event = Event.objects.create(
            slug=slug or preset,
            title=fields.pop("title", preset),
            rulebook_key=preset,
            rulebook_text=preset_text(preset),
            starts_at=starts_at or dt.datetime(2026, 6, 20, 9, 0, tzinfo=dt.UTC),
            status=status,
            **fields,
        )
        if organizer is not None:
            EventRole.objects.create(event=event, user=organizer, role=EventRole.Role.ORGANIZER)
        return event

    return make


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser)."""
    # Playwright's sync API runs an event loop in this thread; the tests still use the ORM.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_context(browser: Any, live_server: Any) -> Iterator[Any]:
    """Opens browser contexts on the live server and closes them all after the test, so that
    no page keeps polling a server whose test is over."""
    opened: list[Any] = []

    def new(**options: Any) -> Any:
        options.setdefault("locale", "en-GB")
        context = browser.new_context(base_url=live_server.url, **options)
        opened.append(context)
        return context

    yield new
    for context in opened:
        context.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=live_server.url, locale="en-GB")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def put_in_stage(db: None) -> Any:
    """Puts entries on a fed stage's entry list directly (as if they had advanced into it)."""
    from django.utils import timezone

    from podium.web.models import Advancement

    def put(event: Event, stage: str, *entries: Any, source: str = "qualification") -> None:
        for entry in entries:
            Advancement.objects.create(
                event=event, from_stage=source, to_stage=stage, entry=entry,
                reason="Advances (test set-up)", made_at=timezone.now(),
            )  # fmt: skip

    return put


@pytest.fixture
def add_entry(db: None) -> Any:
    """Adds a confirmed entry with one member per country given (``"CZ"``, ``"CZ/SK"``…)."""
    from podium.web.models import Entry, EntryMember, Person

    def add(event: Event, number: int, name: str, country: str = "CZ", **fields: Any) -> Entry:
        fields.setdefault("status", Entry.Status.CONFIRMED)
        fields.setdefault("category", event.rulebook.categories[0].key)
        made = Entry.objects.create(event=event, number=number, name=name, **fields)
        for i, code in enumerate(country.split("/")):
            person = Person.objects.create(first_name=name, last_name=str(i), country=code)
            EntryMember.objects.create(entry=made, person=person, captain=i == 0)
        return made

    return add


@pytest.fixture
def staff(make_user: Any) -> Any:
    """Gives users roles in an event: ``staff(event, referee="rudolf", head="renata")``."""

    def appoint(event: Event, **roles: str) -> dict[str, Any]:
        kinds = {"organizer": "organizer", "head": "head-referee", "referee": "referee"}
        users = {}
        for key, username in roles.items():
            kind = kinds[key.rstrip("0123456789")]
            user = make_user(username)
            EventRole.objects.create(event=event, user=user, role=kind)
            users[key] = user
        return users

    return appoint


# axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.fixture(scope="session")
def axe() -> Any:
    """``check(page)``: axe-core's WCAG 2.2 AA violations on the page as it is now, one line
    each ("rule: selector — message"); an empty list when it passes. axe-core's script comes
    from the ``axe-playwright-python`` package (no CDN, nothing downloaded)."""
    from importlib.resources import files

    script = files("axe_playwright_python").joinpath("axe.min.js").read_text(encoding="utf-8")

    def check(page: Any) -> list[str]:
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(script)
        found = page.evaluate(
            """(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags},
                 resultTypes: ['violations']}).then(r => r.violations.flatMap(v =>
                 v.nodes.map(n => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary
                   .split('\\n').slice(1, 2).join('').trim()}`)))""",
            AXE_TAGS,
        )
        return list(found)

    return check


@pytest.fixture
def sign_in(live_server: Any) -> Any:
    """Signs a user in to a Playwright browser context (the session cookie of a test login)."""
    from django.conf import settings
    from django.test import Client

    def sign(context: Any, user: Any) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )

    return sign
