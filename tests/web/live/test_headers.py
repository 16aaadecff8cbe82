"""Who may keep an answer (``podium.web.live.headers``): every public kind of page says
``public`` with the poll interval to an anonymous spectator, with its ETag, varying on nothing
but compression when its address names the language, and setting no cookie; the same pages
say ``private`` to anyone logged in; and no URL of the site answers ``public`` to staff."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter
from django.utils import timezone, translation

from podium.web.draws.services import draw_make
from podium.web.models import Event, Result, Verification
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
LIVE = "public, max-age=2, stale-while-revalidate=3, stale-if-error=86400"
FROZEN = "public, max-age=86400, stale-if-error=86400"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw", language="en", status=Event.Status.CLOSED)
    people = staff(event, organizer="olga", referee="rudolf", head="hana")
    anna = add_entry(event, 1, "Anna Nová", group="A")
    add_entry(event, 2, "Bohdan Malý", group="A")
    result_record(
        event=event,
        stage=QUALI,
        entry=anna,
        cells={"time": "1:10:00"},
        by=people["referee"],
        idempotency_key="k1",
    )
    Verification.objects.create(
        result=Result.objects.get(event=event, entry=anna),
        verified_by=people["head"],
        verified_at=timezone.now(),
    )
    for state in ("preliminary", "final"):
        publication_set(event=event, stage=QUALI, state=state, by=people["organizer"])
    draw = draw_make(event=event, kind="groups", stage=QUALI, seed="s", by=people["organizer"])
    return event, people, draw


def urls(event: Any, draw: Any, language: str = "en") -> dict[str, tuple[str, str]]:
    """Each public kind of page: its address and the Cache-Control an anonymous visitor gets."""
    slug = event.slug
    with translation.override(language):
        return {
            "stages": (reverse("standings:stages", args=[slug]), LIVE),
            "stage": (reverse("standings:stage", args=[slug, QUALI]), LIVE),
            "round": (reverse("standings:round", args=[slug, QUALI, 1]), LIVE),
            "poll": (reverse("standings:table", args=[slug, QUALI]), LIVE),
            "projector": (reverse("standings:projector", args=[slug, QUALI]), LIVE),
            "projector poll": (reverse("standings:projector-table", args=[slug, QUALI]), LIVE),
            "frozen": (reverse("standings:version", args=[slug, QUALI, 1, 1]), FROZEN),
            "entries": (reverse("event-entries", args=[slug]), LIVE),
            "draws": (reverse("draws:public", args=[slug]), LIVE),
            "draw": (reverse("draws:verify", args=[slug, draw.pk]), FROZEN),
            "api events": ("/api/events", LIVE),
            "api entries": (f"/api/events/{slug}/entries", LIVE),
            "api standings": (f"/api/events/{slug}/stages/{QUALI}/rounds/1/standings", LIVE),
            "api frozen": (
                f"/api/events/{slug}/stages/{QUALI}/rounds/1/standings?version=1",
                FROZEN,
            ),
        }


def test_every_public_kind_is_shared_with_anonymous_spectators(cz: Any) -> None:
    event, _people, draw = cz
    for language, vary in (
        ("cs", "Accept-Encoding"),
        ("en", "Accept-Encoding, Accept-Language, Cookie"),
    ):
        for kind, (url, control) in urls(event, draw, language).items():
            if url.startswith("/api/") and language == "cs":
                continue  # the API has no prefixed addresses
            for _twice in range(2):  # made, then served from the snapshot
                answer = Client().get(url, headers={"Accept-Encoding": "gzip"})
                assert answer.status_code == 200, (kind, url)
                assert answer["Cache-Control"] == control, (kind, url)
                assert answer["Vary"] == vary, (kind, url)
                assert not answer.cookies, (kind, url)  # no session, CSRF or language cookie


def test_a_poll_answered_not_modified_is_shared_too(cz: Any) -> None:
    event, _people, draw = cz
    url = urls(event, draw, "cs")["poll"][0]
    etag = Client().get(url)["ETag"]
    again = Client().get(url, headers={"If-None-Match": etag})
    assert (again.status_code, again["ETag"], again["Cache-Control"]) == (304, etag, LIVE)
    assert again["Vary"] == "Accept-Encoding"


@pytest.mark.parametrize("who", ["organizer", "referee", "participant"])
def test_the_same_pages_are_private_after_log_in(cz: Any, make_user: Any, who: str) -> None:
    event, people, draw = cz
    client = Client()
    client.force_login(people[who] if who in people else make_user("pavel"))
    for language in ("en", "cs"):
        for kind, (url, _control) in urls(event, draw, language).items():
            answer = client.get(url)
            assert answer.status_code in (200, 304), (kind, url)
            control = answer["Cache-Control"]
            assert "private" in control, (kind, url, control)
            assert "public" not in control, (kind, url, control)
            assert "Cookie" in answer["Vary"], (kind, url)


def test_a_session_cookie_alone_makes_an_anonymous_page_private(cz: Any) -> None:
    event, _people, draw = cz
    url = urls(event, draw, "cs")["stage"][0]
    client = Client()
    client.cookies["sessionid"] = "expired-or-forged"
    answer = client.get(url)
    assert answer.status_code == 200
    assert "private" in answer["Cache-Control"]


def test_an_api_read_with_a_token_is_private(cz: Any) -> None:
    event, _people, draw = cz
    url = urls(event, draw)["api standings"][0]
    answer = Client().get(url, headers={"Authorization": "Bearer nothing-valid"})
    assert "public" not in answer.get("Cache-Control", "")
    assert "private" in answer["Cache-Control"]


def _patterns(
    patterns: list[Any], prefix: str, converters: dict[str, Any]
) -> Iterator[tuple[str, dict[str, Any]]]:
    for p in patterns:
        found = {**converters, **getattr(p.pattern, "converters", {})}
        if isinstance(p, URLResolver):
            inner = f"{prefix}{p.namespace}:" if p.namespace else prefix
            yield from _patterns(p.url_patterns, inner, found)
        elif isinstance(p, URLPattern) and p.name:
            yield f"{prefix}{p.name}", found


def _address(name: str, converters: dict[str, Any], event: Any, draw: Any) -> str | None:
    kwargs = {
        key: (draw.pk if "draw" in key else 1)
        if isinstance(converter, IntConverter)
        else (QUALI if key == "stage" else event.slug)
        for key, converter in converters.items()
    }
    try:
        return reverse(name, kwargs=kwargs)
    except Exception:  # a pattern with converters this walk cannot fill (regex, paths)
        return None


def test_no_url_answers_public_to_logged_in_staff(cz: Any) -> None:
    event, people, draw = cz
    client = Client(raise_request_exception=False)
    client.force_login(people["organizer"])
    seen = 0
    for name, converters in dict(_patterns(get_resolver().url_patterns, "", {})).items():
        if name.startswith("admin:") or name in ("logout", "accounts:logout"):
            continue
        url = _address(name, converters, event, draw)
        if url is None:
            continue
        answer = client.get(url)
        seen += 1
        assert "public" not in answer.get("Cache-Control", ""), (name, url)
    assert seen > 100  # the walk really covers the site
