"""Organizer publication controls and the public frozen final table.

Hand-worked (cz-jigsaw, individual final): #2 Bohdan Malý 1:05:00 before #1 Anna Nová 1:10:00,
so the frozen version 1 lists Bohdan at place 1 and Anna at place 2.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import Entry, EntryMember, EventRole, Person, Publication
from podium.web.results.selectors.publication import publication_current
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.results import result_record

FINAL = "individual-final"


def entry(event: Any, number: int, name: str) -> Entry:
    made = Entry.objects.create(
        event=event, number=number, name=name, status=Entry.Status.CONFIRMED,
        category="individuals",
    )  # fmt: skip
    first, _, last = name.partition(" ")
    person = Person.objects.create(first_name=first, last_name=last, country="CZ")
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


@pytest.fixture
def cz(make_user: Any, make_event: Any, put_in_stage: Any) -> Any:
    org, ref1, ref2 = make_user("olga"), make_user("rudolf"), make_user("renata")
    event = make_event("cz-jigsaw", organizer=org, language="en")
    EventRole.objects.create(event=event, user=ref1, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=event, user=ref2, role=EventRole.Role.HEAD_REFEREE)
    anna, bohdan = entry(event, 1, "Anna Nová"), entry(event, 2, "Bohdan Malý")
    put_in_stage(event, FINAL, anna, bohdan)
    a = result_record(
        event=event, stage=FINAL, entry=anna, cells={"time": "1:10:00"}, by=ref1,
        idempotency_key="a",
    )  # fmt: skip
    b = result_record(
        event=event, stage=FINAL, entry=bohdan, cells={"time": "1:05:00"}, by=ref1,
        idempotency_key="b",
    )  # fmt: skip
    return event, org, ref2, a, b


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def index_url(event: Any) -> str:
    return reverse("publication:index", args=[event.slug])


def move(client: Client, event: Any, state: str, reason: str = "") -> str:
    url = reverse("publication:change", args=[event.slug, FINAL])
    response = client.post(url, {"state": state, "reason": reason}, follow=True)
    assert response.status_code == 200
    return response.content.decode()


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def stage_block(html: str) -> str:
    found = re.search(rf'<section class="stage" id="stage-{FINAL}">.*?</section>', html, re.S)
    assert found
    return text(found.group(0))


def test_draft_preliminary_final_and_the_frozen_version(cz: Any, why: Any) -> None:
    event, org, ref2, a, b = cz
    client = client_for(org)
    page = client.get(index_url(event))
    assert page.status_code == 200
    block = stage_block(page.content.decode())
    assert "draft" in block
    assert "2 results unverified" in block
    assert "Publish as preliminary" in block
    assert "Publish as final" not in block

    html = move(client, event, "preliminary")
    assert "is now preliminary (version 1)" in text(html)
    assert "Publish as final" in stage_block(html)
    result_verify(result=a, by=ref2)
    result_verify(result=b, by=ref2)
    html = move(client, event, "final")
    assert "is now final (version 1)" in text(html)
    block = stage_block(html)
    assert "0 results unverified" in block
    assert "required: these results are final" in block
    version_url = reverse("standings:version", args=[event.slug, FINAL, 1, 1])
    assert f'href="{version_url}"' in html

    page = Client().get(version_url)  # public, no login
    assert page.status_code == 200
    shown = page.content.decode()
    order = [int(n) for n in re.findall(r'<tr id="row-[^"]*-(\d+)"', shown)]
    assert order == [2, 1]
    first = re.search(r'<tr id="row-[^"]*-2".*?</tr>', shown, re.S)
    assert first
    assert "Bohdan Malý" in first.group(0)
    assert "First: finished, time 1:05:00" in why(version_url, "all", 2)
    assert "version 1" in text(shown)
    assert "by olga" in text(shown)
    published = publication_current(event, FINAL)
    assert published is not None
    # In the event's zone, with its offset (Prague: +01:00 in winter, +02:00 in summer).
    assert published.changed_at.astimezone(event.zone).isoformat() in shown
    assert (
        Client().get(reverse("standings:version", args=[event.slug, FINAL, 1, 2])).status_code
        == 404
    )


def test_final_refused_while_a_result_is_unverified(cz: Any) -> None:
    event, org, ref2, a, _b = cz
    client = client_for(org)
    move(client, event, "preliminary")
    result_verify(result=a, by=ref2)
    html = move(client, event, "final")
    assert "Final only when every result is verified; not yet: #2. They wait for a" in text(html)
    assert f"/desk/{event.slug}/checks/" in text(html)
    assert "1 result unverified" in stage_block(html)
    assert publication_current(event, FINAL).state == "preliminary"
    assert not Publication.objects.filter(state="final").exists()


def test_another_events_organizer_and_a_referee_get_404(
    cz: Any, make_user: Any, make_event: Any
) -> None:
    event, _org, ref2, _a, _b = cz
    other = make_user("oskar")
    make_event("cz-jigsaw", slug="elsewhere", organizer=other)
    outsider = client_for(other)
    assert outsider.get(index_url(event)).status_code == 404
    url = reverse("publication:change", args=[event.slug, FINAL])
    assert outsider.post(url, {"state": "preliminary"}).status_code == 404
    assert client_for(ref2).get(index_url(event)).status_code == 404
    assert not Publication.objects.exists()
    anonymous = Client().get(index_url(event))
    assert anonymous.status_code == 302  # to the login page


def test_a_change_after_final_needs_a_reason(cz: Any) -> None:
    event, org, ref2, a, b = cz
    client = client_for(org)
    move(client, event, "preliminary")
    result_verify(result=a, by=ref2)
    result_verify(result=b, by=ref2)
    move(client, event, "final")
    html = move(client, event, "preliminary")
    assert "These results are final: a change needs a recorded reason." in text(html)
    assert publication_current(event, FINAL).state == "final"
    html = move(client, event, "preliminary", reason="appeal: #1 time")
    assert "is now preliminary (version 2)" in text(html)
    assert publication_current(event, FINAL).reason == "appeal: #1 time"
