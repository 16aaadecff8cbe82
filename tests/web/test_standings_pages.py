"""Public live standings pages: content, who sees a draft, and the table fragment's ETag/304.

Hand-worked (cz-jigsaw, individual qualification, group A; finishers by time, equal times share
places; only CZ entrants take official places):
- #3 Hans Meier (DE) 1:00:00, #2 Bohdan Malý 1:05:00, #1 Anna Nová and #4 Dana Zelená 1:10:00.
- Overall positions 1, 2, 3–4, 3–4; official places —, 1, 2–3, 2–3. Everybody advances (the
  quotas are 50 Czech + 5 foreign per group); Hans is outside the competition.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from podium.web.models import Entry, EntryMember, EventRole, Person
from podium.web.services.checks import result_confirm as result_verify
from podium.web.services.publication import publication_set
from podium.web.services.results import result_record

QUALI = "individual-qualification"


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    """Pages activate their language in this thread; leave English for the tests that follow."""
    yield
    translation.activate("en")


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def entry(event: Any, number: int, name: str, country: str = "CZ", group: str = "A") -> Entry:
    made = Entry.objects.create(
        event=event,
        number=number,
        name=name,
        status=Entry.Status.CONFIRMED,
        category="individuals",
        group=group,
    )
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last, country=country)
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def record(event: Any, who: Entry, time: str, by: Any, minute: int) -> Any:
    return result_record(
        event=event, stage=QUALI, entry=who, cells={"time": time}, by=by,
        idempotency_key=f"k{who.number}", now=at(10, minute),
    )  # fmt: skip


@pytest.fixture
def cz(make_user: Any, make_event: Any) -> Any:
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org, language="en")
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    return event, org, ref1, ref2


def staff_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def stage_url(event: Any, stage: str = QUALI) -> str:
    return reverse("standings:stage", args=[event.slug, stage])


def table_url(event: Any, stage: str = QUALI) -> str:
    return reverse("standings:table", args=[event.slug, stage])


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def row_html(html: str, table: str, number: int) -> str:
    found = re.search(rf'<tr id="row-{table}-{number}".*?</tr>', html, re.S)
    assert found, f"no row {number} in table {table}"
    return found.group(0)


def cells(row: str) -> list[str]:
    return [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_stage_page_shows_places_marks_reasons_and_unverified(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    hans, dana = entry(event, 3, "Hans Meier", "DE"), entry(event, 4, "Dana Zelená")
    record(event, anna, "1:10:00", ref1, 0)
    record(event, bohdan, "1:05:00", ref1, 1)
    hans_result = record(event, hans, "1:00:00", ref1, 2)
    record(event, dana, "1:10:00", ref1, 3)
    result_verify(result=hans_result, by=ref2)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)

    response = Client().get(stage_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Individuals — qualification — group A" in html
    assert "preliminary" in text(html)
    order = [int(n) for n in re.findall(r'<tr id="row-A-(\d+)"', html)]
    assert order == [3, 2, 1, 4]
    # official place, position, number, name, score, marks (the "why" cell follows)
    hans_cells = cells(row_html(html, "A", 3))
    assert hans_cells[:5] == ["—", "1.", "3", "Hans Meier", "1:00:00"]
    assert "✓ advances" in hans_cells[5]
    assert "outside the competition" in hans_cells[5]
    assert "unverified" not in hans_cells[5]  # verified by a second referee
    assert cells(row_html(html, "A", 2))[:5] == ["1.", "2.", "2", "Bohdan Malý", "1:05:00"]
    anna_cells = cells(row_html(html, "A", 1))
    assert anna_cells[:5] == ["2–3.", "3–4.", "1", "Anna Nová", "1:10:00"]
    assert "outside the competition" not in anna_cells[5]
    assert "unverified" in anna_cells[5]
    assert cells(row_html(html, "A", 4))[:2] == ["2–3.", "3–4."]  # the tie
    # the "why" of every row, with its clauses
    assert html.count("<details>") == 4
    anna_why = row_html(html, "A", 1)
    assert "Shares places 3rd–4th: equal on finish, time, pieces placed" in anna_why
    assert "Below Bohdan Malý on time: 1:10:00 against 1:05:00" in anna_why
    assert "Výsledné skóre se určuje podle počtu složených dílků a času dokončení." in anna_why
    hans_why = row_html(html, "A", 3)
    assert "Outside the competition: registered in DE, not CZ" in hans_why
    assert "O titul Czech Jigsaw Puzzle Champion" in hans_why
    # the table polls its fragment
    assert f'hx-get="{table_url(event)}"' in html
    assert 'hx-trigger="every 3s"' in html
    assert 'hx-swap="outerHTML"' in html


def test_stages_list_links_published_stages(cz: Any) -> None:
    event, org, ref1, _ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    html = Client().get(reverse("standings:stages", args=[event.slug])).content.decode()
    assert f'href="{stage_url(event)}"' in html  # published
    assert f'href="{stage_url(event, "individual-final")}"' not in html  # still a draft
    assert "Individuals — final" in html
    assert "not published yet" in html
    staff_html = staff_client(ref1).get(reverse("standings:stages", args=[event.slug]))
    assert f'href="{stage_url(event, "individual-final")}"' in staff_html.content.decode()
    # the event's tabs lead here
    event_page = Client().get(reverse("event", args=[event.slug])).content.decode()
    assert f'href="{reverse("standings:stages", args=[event.slug])}"' in event_page


def test_draft_is_hidden_from_the_public_but_shown_to_staff(cz: Any, make_user: Any) -> None:
    event, _org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    for client in (Client(), staff_client(make_user("stranger"))):
        for url in (stage_url(event), table_url(event)):
            html = client.get(url).content.decode()
            assert "Anna Nová" not in html
            assert "not published yet" in html
    for url in (stage_url(event), table_url(event)):
        html = staff_client(ref1).get(url).content.decode()
        assert "Anna Nová" in html
        assert "draft" in html


def test_empty_state_and_unknown_stage(cz: Any) -> None:
    event, org, _ref1, _ref2 = cz
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    html = Client().get(stage_url(event)).content.decode()
    assert "No results yet" in html
    assert "<table" not in html
    assert Client().get(stage_url(event, "no-such-stage")).status_code == 404
    assert Client().get(reverse("standings:stages", args=["no-such-event"])).status_code == 404


def test_table_fragment_answers_304_until_something_changes(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    first = record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()

    response = client.get(table_url(event))
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    etag = response["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert response.content.decode().startswith('<section id="standings"')  # a fragment
    assert "<html" not in response.content.decode()

    again = client.get(table_url(event), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert "no-cache" in again["Cache-Control"]

    record(event, bohdan, "1:05:00", ref1, 1)  # a new result
    changed = client.get(table_url(event), headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert "Bohdan Malý" in changed.content.decode()
    etag2 = changed["ETag"]
    assert client.get(table_url(event), headers={"If-None-Match": etag2}).status_code == 304

    result_verify(result=first, by=ref2)  # a verification changes it too
    verified = client.get(table_url(event), headers={"If-None-Match": etag2})
    assert verified.status_code == 200
    assert verified["ETag"] not in (etag, etag2)

    # staff and the public get different tags (a draft looks different to them)
    staff = staff_client(ref1).get(table_url(event))
    assert staff["ETag"] != verified["ETag"]
