"""In a real browser: the first visit follows the browser's language, and a chosen language
sticks across unprefixed links and across a log-in with ``?next=``."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from podium.web.models import EventRole

LOCALE = Path(__file__).resolve().parents[3] / "src" / "podium" / "web" / "locale"


@pytest.fixture(autouse=True, scope="module")
def _messages() -> None:
    """The live server reads the compiled catalogues: build any older than its .po file."""
    for po in LOCALE.glob("*/LC_MESSAGES/django.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)


def log_in(page: Any, username: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "correct horse battery")
    with page.expect_navigation():
        page.locator("main button[type=submit]").click()


@pytest.mark.django_db(transaction=True)
def test_a_russian_browser_gets_the_russian_home_page(new_context: Any, make_event: Any) -> None:
    make_event("it-puzzle-party", slug="festa", title="Puzzle Party", language="it")
    page = new_context(locale="ru-RU").new_page()
    page.goto("/")
    assert page.locator("h1").inner_text() == "Соревнования"
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator("select[name=language]").input_value() == "ru"
    page.click("text=Puzzle Party")
    page.wait_for_url("**/ru/e/festa/")
    assert "Осталось мест" in page.inner_text("main")


@pytest.mark.django_db(transaction=True)
def test_czech_sticks_across_unprefixed_links_and_the_log_in(
    new_context: Any, make_event: Any, make_user: Any
) -> None:
    olga = make_user("olga")
    event = make_event("it-puzzle-party", slug="festa", title="Puzzle Party", language="it")
    EventRole.objects.create(event=event, user=olga, role=EventRole.Role.ORGANIZER)
    page = new_context(locale="en-GB").new_page()
    page.goto("/")
    assert page.locator("h1").inner_text() == "Competitions"
    with page.expect_navigation():
        page.select_option("select[name=language]", "cs")
    page.wait_for_url("**/cs/")
    # A link without a prefix (a bookmark, a link in an e-mail): still Czech.
    page.goto("/e/festa/")
    assert page.locator("html").get_attribute("lang") == "cs"
    assert "Volná místa" in page.inner_text("main")
    page.goto("/organize/festa/")  # not logged in: to the log-in page, ?next= unprefixed
    assert "next=/organize/festa/" in page.url
    assert page.locator("html").get_attribute("lang") == "cs"
    log_in(page, "olga")
    page.wait_for_url("**/organize/festa/")
    assert page.locator("html").get_attribute("lang") == "cs"
    assert "Pořádání" in page.locator("header.top").inner_text()
    assert "Log out" not in page.locator("header.top").inner_text()

    # A fresh browser logging in from a Czech address (no choice made yet) stays Czech too.
    fresh = new_context(locale="en-GB").new_page()
    fresh.goto("/cs/accounts/login/?next=/me/entries/")
    log_in(fresh, "olga")
    fresh.wait_for_url("**/me/entries/")
    assert fresh.locator("html").get_attribute("lang") == "cs"
    assert fresh.locator("h1").inner_text() == "Moje přihlášky"
