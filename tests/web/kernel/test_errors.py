"""Podium's own error pages: translated, short, no traceback — and a database that cannot be
reached is said to be that, with a 503 and when to try again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from podium.web.events.views import public


def test_a_missing_page_is_podiums_own_in_the_visitors_language(db: None) -> None:
    english = Client().get("/e/no-such-event/")
    assert english.status_code == 404
    html = english.content.decode()
    assert "<h1>Page not found</h1>" in html
    assert "There is no page at this address." in html
    assert "Traceback" not in html
    czech = Client().get("/cs/e/no-such-event/")
    assert czech.status_code == 404
    assert 'lang="cs"' in czech.content.decode()
    assert "Stránka nenalezena" in czech.content.decode()


def test_an_address_that_matches_nothing_answers_in_the_chosen_language(db: None) -> None:
    """No view matched, so the language middleware never chose: the 404 page does."""
    russian = Client(headers={"accept-language": "ru-RU,ru;q=0.9"}).get("/no/such/page/")
    assert russian.status_code == 404
    assert 'lang="ru"' in russian.content.decode()
    assert "Страница не найдена" in russian.content.decode()
    chosen = Client(headers={"accept-language": "ru"})
    chosen.cookies["django_language"] = "it"
    assert "Pagina non trovata" in chosen.get("/no/such/page/").content.decode()
    assert "<h1>Page not found</h1>" in Client().get("/no/such/page/").content.decode()


@pytest.fixture
def failing_home(monkeypatch: pytest.MonkeyPatch) -> Any:
    def fail_with(error: Exception) -> None:
        def events() -> None:
            raise error

        monkeypatch.setattr(public, "public_events", events)

    return fail_with


def test_a_server_error_shows_no_traceback(db: None, failing_home: Any) -> None:
    failing_home(RuntimeError("secret internals"))
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong" in html
    assert "secret internals" not in html
    assert "Traceback" not in html


def test_an_unreachable_database_is_a_short_503_with_retry_after(db: None) -> None:
    from django.utils import translation

    from podium.web.kernel import errors

    request = Client().request().wsgi_request
    try:
        raise OperationalError('connection to server at "db" failed: Connection refused')
    except OperationalError:
        with translation.override("ru"):
            response = errors.server_error(request)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert "Connection refused" not in html
    assert 'lang="ru"' in html
    assert "Podium не может связаться со своей базой данных" in html


def test_every_page_answers_a_database_failure_with_the_503_page(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from podium.web.standings.views import standings

    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(standings, "public_event", unreachable)
    client = Client(raise_request_exception=False)
    response = client.get("/standings/any-event/any-stage/")
    assert response.status_code == 503
    assert "try again in a minute" in response.content.decode()


def test_a_missing_or_forbidden_page_keeps_the_signed_in_top_bar(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("mira"))
    for path in ("/e/no-such-event/", "/no/such/page/"):
        missing = client.get(path)
        assert missing.status_code == 404
        html = missing.content.decode()
        assert "<h1>Page not found</h1>" in html
        assert "My entries" in html  # the top bar of a signed-in person
        assert "Log out" in html
    anonymous = Client().get("/e/no-such-event/").content.decode()
    assert "Log in" in anonymous
    assert "Log out" not in anonymous


def test_a_refused_form_says_so_in_podiums_words_not_djangos(make_user: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("mira"))
    refused = client.post("/accounts/logout/")
    assert refused.status_code == 403
    html = refused.content.decode()
    assert "<h1>The form has expired</h1>" in html
    assert "reload the page and send it again" in html
    assert "DEBUG" not in html
    assert "CSRF verification failed" not in html
    assert "My entries" in html  # the top bar
    czech = Client(enforce_csrf_checks=True).post("/cs/accounts/login/", {"username": "x"})
    assert czech.status_code == 403
    assert 'lang="cs"' in czech.content.decode()
