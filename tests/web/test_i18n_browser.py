"""In a real browser: the language switcher turns the pages Czech, then Russian."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from podium.web.demo import load_demo

LOCALE = Path(__file__).resolve().parents[2] / "src" / "podium" / "web" / "locale"
SCREENSHOT = Path("/tmp/podium-home-ru.png")


@pytest.fixture(autouse=True, scope="module")
def _compiled_messages() -> None:
    for language in ("cs", "it", "ru"):
        po = LOCALE / language / "LC_MESSAGES" / "django.po"
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)


@pytest.mark.django_db(transaction=True)
def test_switching_the_language_to_czech_and_russian(page: Any) -> None:
    load_demo()
    page.goto("/")
    assert page.locator("h1").inner_text() == "Competitions"
    assert page.locator("html").get_attribute("lang") == "en"

    with page.expect_navigation():
        page.select_option("select[name=language]", "cs")
    page.wait_for_url("**/cs/")
    assert page.locator("h1").inner_text() == "Soutěže"
    assert "Přihlásit se" in page.locator("header.top").inner_text()
    assert "Mistrovství ČR ve skládání puzzle 2027" in page.inner_text("main")

    # The event page keeps the visitor's choice (Czech), not the event's language (Russian).
    page.click("text=XV открытый чемпионат клуба «Дети Коломны»")
    page.wait_for_url("**/cs/e/deti-kolomny-xv/")
    assert page.locator("html").get_attribute("lang") == "cs"
    assert "Volná místa" in page.inner_text("main")

    with page.expect_navigation():
        page.select_option("select[name=language]", "ru")
    page.wait_for_url("**/ru/e/deti-kolomny-xv/")
    assert "Осталось мест" in page.inner_text("main")
    page.goto("/ru/")
    assert page.locator("h1").inner_text() == "Соревнования"
    assert "Войти" in page.locator("header.top").inner_text()
    assert "регистрация открыта" in page.inner_text("main")
    page.set_viewport_size({"width": 1100, "height": 700})
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    # Back to English: the cookie now says English, so an event's page is English too.
    with page.expect_navigation():
        page.select_option("select[name=language]", "en")
    assert page.locator("h1").inner_text() == "Competitions"
    page.goto("/e/puzzle-party/")
    assert page.locator("html").get_attribute("lang") == "en"


@pytest.mark.django_db(transaction=True)
def test_an_event_page_speaks_the_event_language_by_default(
    new_context: Any, make_event: Any
) -> None:
    """A browser whose languages Podium does not speak (German) gets the event's."""
    make_event("it-puzzle-party", slug="festa", title="Puzzle Party", language="it")
    page = new_context(locale="de-DE").new_page()
    page.goto("/e/festa/")
    assert page.locator("html").get_attribute("lang") == "it"
    assert "Posti liberi" in page.inner_text("main")
    assert page.locator("select[name=language]").input_value() == "it"
