"""The poll gate (``podium.web.live.polls``): a spectator's poll that finds nothing new answers 304
without a single SQL query, an anonymous visitor's page and the API's standings come from the
snapshot of the current version (compressed when the client takes it), and nothing personal or
stale is ever served from it."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    anna, bohdan = (add_entry(event, n, name, group="A") for n, name in
                    ((1, "Anna Nová"), (2, "Bohdan Malý")))  # fmt: skip
    record(event, people, anna, "1:10:00")
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    return event, people, bohdan


def record(event: Any, people: dict[str, Any], entry: Any, time: str) -> None:
    result_record(
        event=event, stage=QUALI, entry=entry, cells={"time": time}, by=people["referee"],
        idempotency_key=f"k{entry.number}",
    )  # fmt: skip


def queries_of(client: Client, url: str, **headers: str) -> tuple[Any, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    return response, len(queries)


def test_a_poll_that_finds_nothing_new_touches_no_database(cz: Any) -> None:
    event, people, bohdan = cz
    table = reverse("standings:table", args=[event.slug, QUALI])
    first = Client().get(table)
    etag = first["ETag"]
    for client in (Client(), Client()):
        answer, queries = queries_of(client, table, **{"If-None-Match": etag})
        assert (answer.status_code, queries) == (304, 0)
        assert answer["ETag"] == etag
        assert int(answer["X-Podium-Now"]) > 0  # the server's clock, for the round clocks
    # Logged in (staff or not), a poll is still nothing but the tag.
    staff = Client()
    staff.force_login(people["referee"])
    staff_etag = staff.get(table)["ETag"]
    assert staff_etag != etag
    answer, queries = queries_of(staff, table, **{"If-None-Match": staff_etag})
    assert (answer.status_code, queries) == (304, 0)
    # A result: the next poll gets the new table.
    record(event, people, bohdan, "1:05:00")
    changed = Client().get(table, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert "Bohdan Malý" in changed.content.decode()


def test_an_anonymous_page_is_one_snapshot_per_version_and_language(cz: Any) -> None:
    event, people, bohdan = cz
    page = reverse("standings:stage", args=[event.slug, QUALI])
    made = Client().get(page, headers={"Accept-Encoding": "gzip"})
    assert made["Content-Encoding"] == "gzip"
    html = gzip.decompress(made.content).decode()
    assert "Anna Nová" in html
    assert "csrfmiddlewaretoken" not in html  # nothing personal in a page kept for everyone
    again, queries = queries_of(Client(), page, **{"Accept-Encoding": "gzip, br"})
    assert (again.status_code, queries) == (200, 0)
    assert again.content == made.content
    plain, queries = queries_of(Client(), page)  # a client that takes no gzip
    assert (plain.status_code, queries) == (200, 0)
    assert plain.content.decode() == html
    # Its own ETag: a reload that has it gets a 304.
    assert Client().get(page, headers={"If-None-Match": made["ETag"]}).status_code == 304
    # In Czech: another snapshot.
    czech = Client().get(f"/cs{page}").content.decode()
    assert 'lang="cs"' in czech
    assert 'lang="en"' in Client().get(page).content.decode()
    # A new result: a new snapshot.
    record(event, people, bohdan, "1:05:00")
    assert "Bohdan Malý" in Client().get(page).content.decode()


def test_logged_in_visitors_get_their_own_page(cz: Any) -> None:
    event, people, _bohdan = cz
    page = reverse("standings:stage", args=[event.slug, QUALI])
    Client().get(page)  # the anonymous snapshot exists
    client = Client()
    client.force_login(people["organizer"])
    html = client.get(page).content.decode()
    assert "Log out" in html
    assert "Show the table as it stood on" in html  # the staff's own form
    assert "Log out" not in Client().get(page).content.decode()


def test_a_query_string_is_never_answered_from_a_snapshot(cz: Any) -> None:
    event, _people, _bohdan = cz
    page = reverse("standings:stage", args=[event.slug, QUALI])
    Client().get(page)
    answer, queries = queries_of(Client(), f"{page}?why=A.1", **{"HX-Request": "true"})
    assert queries > 0
    assert "<html" not in answer.content.decode()


def test_the_api_standings_answer_304_and_a_snapshot(cz: Any) -> None:
    event, people, bohdan = cz
    url = f"/api/events/{event.slug}/stages/{QUALI}/rounds/1/standings"
    first = Client().get(url)
    assert first.status_code == 200
    data = json.loads(first.content)
    assert [r["name"] for r in data["tables"][0]["rows"]] == ["Anna Nová"]
    answer, queries = queries_of(Client(), url, **{"If-None-Match": first["ETag"]})
    assert (answer.status_code, queries) == (304, 0)
    again, queries = queries_of(Client(), url, **{"Accept-Encoding": "gzip"})
    assert (again.status_code, queries) == (200, 0)
    assert json.loads(gzip.decompress(again.content)) == data
    record(event, people, bohdan, "1:05:00")
    changed = Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert [r["name"] for r in json.loads(changed.content)["tables"][0]["rows"]] == [
        "Bohdan Malý",
        "Anna Nová",
    ]


def test_head_requests_carry_no_body(cz: Any) -> None:
    event, _people, _bohdan = cz
    page = reverse("standings:stage", args=[event.slug, QUALI])
    Client().get(page)
    head = Client().head(page)
    assert head.status_code == 200
    assert head.content == b""


def test_with_the_cache_down_pages_are_slower_never_wrong(cz: Any, settings: Any) -> None:
    event, people, bohdan = cz
    settings.CACHES = {
        "default": {
            "BACKEND": "podium.web.live.cache.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
        }
    }  # nothing listens on port 9
    page = reverse("standings:stage", args=[event.slug, QUALI])
    table = reverse("standings:table", args=[event.slug, QUALI])
    first = Client().get(page)
    assert first.status_code == 200
    assert "Anna Nová" in first.content.decode()
    etag = Client().get(table)["ETag"]
    answer, queries = queries_of(Client(), table, **{"If-None-Match": etag})
    assert answer.status_code == 304
    assert queries > 0  # the tag read from the database: slower, still right
    record(event, people, bohdan, "1:05:00")
    assert "Bohdan Malý" in Client().get(page).content.decode()
    assert Client().get(table, headers={"If-None-Match": etag}).status_code == 200
