"""The table on the wire: the fragment's ETag and 304 until something changes, the version
tag moved by a clock or an advancement, one rendering for many viewers, and a 2,000-row page
small and compressed.

The scenario is the cz-jigsaw qualification of ``test_standings_pages`` (hand-worked there).
"""

from __future__ import annotations

from typing import Any

from django.test import Client
from tests.web.standings.test_standings_pages import (
    FINAL,
    QUALI,
    at,
    entry,
    record,
    staff_client,
    stage_url,
    table_url,
    why,
)

from podium.web.live import versions
from podium.web.models import Entry, EntryMember, Person, Result
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.clock import round_start
from podium.web.standings.selectors import live as live_selectors
from podium.web.standings.services.advancement import advance_from
from podium.web.standings.services.publication import publication_set


def test_table_fragment_answers_304_until_something_changes(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    first = record(event, anna, "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()

    response = client.get(table_url(event))
    assert response.status_code == 200
    assert response["Cache-Control"].startswith("public, max-age=2,")  # a shared cache keeps it
    etag = response["ETag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    assert response.content.decode().startswith('<section id="standings"')  # a fragment
    assert "<html" not in response.content.decode()

    again = client.get(table_url(event), headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert again["Cache-Control"].startswith("public, max-age=2,")

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


def test_a_clock_start_changes_the_tag_and_shows_the_clock(cz: Any) -> None:
    event, org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    client = Client()
    first = client.get(table_url(event))
    assert first.status_code == 200
    assert "data-clock" not in first.content.decode()  # no clock has started
    etag = first["ETag"]
    assert client.get(table_url(event), headers={"If-None-Match": etag}).status_code == 304

    round_start(event=event, stage=QUALI, group="B", by=org)
    started = client.get(table_url(event), headers={"If-None-Match": etag})
    assert started.status_code == 200
    assert started["ETag"] != etag
    html = started.content.decode()
    assert html.count("data-clock") == 2  # both groups' clocks, B running
    assert "clock-running" in html
    assert (
        client.get(table_url(event), headers={"If-None-Match": started["ETag"]}).status_code == 304
    )
    # the stage page shows the clocks too
    assert "data-clock" in client.get(stage_url(event)).content.decode()


def test_an_advancement_into_the_stage_changes_its_tag(cz: Any) -> None:
    event, org, ref1, ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    result_verify(result=record(event, anna, "1:10:00", ref1, 0), by=ref2)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    publication_set(event=event, stage=QUALI, state="final", by=org)
    final = event.rulebook.stage(FINAL)
    before = versions.stage_tag(event.slug, final)
    assert versions.stage_tag(event.slug, final) == before  # stable while nothing changes
    advance_from(event=event, stage=QUALI, by=org)
    assert versions.stage_tag(event.slug, final) != before


def test_a_changed_table_is_rendered_once_for_many_viewers(cz: Any, monkeypatch: Any) -> None:
    event, org, ref1, _ref2 = cz
    record(event, entry(event, 1, "Anna Nová"), "1:10:00", ref1, 0)
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    computed: list[int] = []
    real = live_selectors.round_tables

    def counting(*args: Any, **kwargs: Any) -> Any:
        computed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(live_selectors, "round_tables", counting)
    pages = [Client().get(table_url(event)).content.decode() for _ in range(3)]
    assert len(computed) == 1
    assert all("Anna Nová" in page for page in pages)
    record(event, entry(event, 2, "Bohdan Malý"), "1:05:00", ref1, 1)
    pages = [Client().get(table_url(event)).content.decode() for _ in range(3)]
    assert len(computed) == 2
    assert all("Bohdan Malý" in page for page in pages)
    # Opening rows' "why" reads their shelves: nothing computed again.
    assert "Below Bohdan Malý" in why(stage_url(event), "A", 1)
    assert "First: finished, time 1:05:00" in why(stage_url(event), "A", 2)
    assert len(computed) == 2


def test_a_2000_row_page_is_small_and_compressed(cz: Any) -> None:
    """2,000 entrants in groups A and B (a tenth from abroad, names of 10 to 25 letters): the
    page lists every row, each name linking to its "why", in at most 400 KB of HTML — a few
    times less compressed."""
    import gzip

    event, org, ref1, _ref2 = cz
    first = ["Jan", "Kateřina", "Bohumil", "Anna", "Jindřiška", "Vojtěch", "Eva", "Přemysl"]
    last = ["Novák", "Dvořáková", "Svoboda", "Procházková", "Kučera", "Veselá", "Nejedlý"]
    names = [(first[n % 8], last[n % 7] + ("-Horáková" if n % 5 == 0 else "")) for n in range(2001)]
    entries = Entry.objects.bulk_create(
        Entry(
            event=event,
            number=n,
            name=" ".join(names[n]),
            category="individuals",
            status=Entry.Status.CONFIRMED,
            group="AB"[n % 2],
        )
        for n in range(1, 2001)
    )
    people = Person.objects.bulk_create(
        Person(
            first_name=names[e.number][0],
            last_name=names[e.number][1],
            country="DE" if e.number % 10 == 0 else "CZ",
        )
        for e in entries
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, people, strict=True)
    )
    Result.objects.bulk_create(
        Result(
            event=event,
            stage=QUALI,
            entry=e,
            recorded_by=ref1,
            recorded_at=at(10, 0),
            cells={"time": f"1:{e.number % 30:02d}:{e.number * 7 % 60:02d}"}
            if e.number % 9
            else {"time": "", "pieces": str(300 + e.number % 200)},
            idempotency_key=f"b{e.number}",
        )
        for e in entries
    )
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)

    page = Client().get(stage_url(event), headers={"Accept-Encoding": "gzip"})
    html = gzip.decompress(page.content)
    assert html.count(b'<tr id="row-') == 2000
    assert html.count(b'href="?why=') == 2000
    assert len(html) <= 400_000, len(html)
    assert len(page.content) * 4 < len(html)  # compressed
    fragment = Client().get(table_url(event))
    assert len(fragment.content) <= 400_000
