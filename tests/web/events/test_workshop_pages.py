"""The rulebook workshop on the event's edit page: the rulebook checked as it is typed, every
problem beside its line, and a dry run of a stage with a preview of its table — nothing saved.

Hand-worked: Puzzle Party (one stage, ``pairs``) as a draft; ``criteria: [finished, tmie]``
on line 18 of a small rulebook is refused beside that line by the engine; ``pieces: lots`` is
refused beside its line by the schema.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from podium.rules.loader import preset_text
from podium.web.models import AuditEntry, Event

SMALL = """\
key: demo
title: Demo
language: en
source: a test
categories:
  - key: solo
    title: Solo
    entrants:
      kind: individual
stages:
  - key: final
    title: Final
    format: timed-solve
    time_limit_min: 60
    pieces: {pieces}
    ranking:
      clause: "Art. 9: fastest first"
      criteria: [finished, {second}, pieces]
"""


@pytest.fixture
def draft(make_user: Any, make_event: Any) -> tuple[Event, Client]:
    alice = make_user("alice")
    event = make_event("it-puzzle-party", organizer=alice, status=Event.Status.DRAFT)
    client = Client()
    client.force_login(alice)
    return event, client


def state(event: Event) -> tuple[Any, ...]:
    saved = Event.objects.get(pk=event.pk)
    return (saved.rulebook_text, saved.status, AuditEntry.objects.count(), Event.objects.count())


def test_the_edit_page_of_a_draft_offers_the_workshop(draft: tuple[Event, Client]) -> None:
    event, client = draft
    page = client.get(f"/organize/{event.slug}/edit/").content.decode()
    assert 'hx-post="/organize/it-puzzle-party/workshop/check/"' in page
    assert "Workshop: a dry run of the rulebook" in page
    assert '<option value="pairs">' in page


def test_a_published_event_has_no_workshop_on_its_edit_page(
    make_user: Any, make_event: Any
) -> None:
    olga = make_user("olga")
    event = make_event("it-puzzle-party", organizer=olga)
    client = Client()
    client.force_login(olga)
    page = client.get(f"/organize/{event.slug}/edit/").content.decode()
    assert "Workshop: a dry run of the rulebook" not in page


def test_an_engine_problem_is_shown_beside_its_line(draft: tuple[Event, Client]) -> None:
    event, client = draft
    before = state(event)
    text = SMALL.format(pieces=500, second="tmie")
    answer = client.post(f"/organize/{event.slug}/workshop/check/", {"rulebook_text": text})
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "1 problem in the rulebook" in html
    assert 'data-line="18"' in html
    assert "line 18" in html
    assert "<code>      criteria: [finished, tmie, pieces]</code>" in html
    assert "unknown criterion &#x27;tmie&#x27;" in html
    assert state(event) == before


def test_a_schema_problem_is_shown_beside_its_line_and_a_fixed_one_is_valid(
    draft: tuple[Event, Client],
) -> None:
    event, client = draft
    url = f"/organize/{event.slug}/workshop/check/"
    html = client.post(url, {"rulebook_text": SMALL.format(pieces="lots", second="time")})
    text = html.content.decode()
    assert 'data-line="15"' in text
    assert "<code>    pieces: lots</code>" in text
    assert "stages[0].pieces" in text
    fixed = client.post(url, {"rulebook_text": SMALL.format(pieces=500, second="time")})
    assert "The rulebook demo is valid: 1 stage." in fixed.content.decode()
    # The stage list of the dry run follows the rulebook as typed (an out-of-band swap).
    assert '<select name="workshop_stage" id="workshop-stage" hx-swap-oob="true">' in (
        fixed.content.decode()
    )
    assert '<option value="final">Final</option>' in fixed.content.decode()


def test_the_preview_reports_what_the_rules_decided_and_shows_a_table(
    draft: tuple[Event, Client],
) -> None:
    event, client = draft
    before = state(event)
    url = f"/organize/{event.slug}/workshop/preview/"
    sent = {"rulebook_text": preset_text("it-puzzle-party"), "workshop_stage": "pairs",
            "workshop_seed": "4"}  # fmt: skip
    first = client.post(url, sent).content.decode()
    assert "Puzzle Party: 5 runs of 50 made-up entrants, seed 4" in first
    assert "Refused at registration:" in first
    assert "Art. 3.1: Possono partecipare persone di età pari o superiore a 16 anni." in first
    rows = re.findall(r'<tr id="row-all-', first)
    assert 40 <= len(rows) <= 50  # the accepted pairs who came
    assert first == client.post(url, sent).content.decode()  # the same seed, the same page
    assert state(event) == before


def test_the_preview_of_a_broken_rulebook_shows_its_problems_and_no_table(
    draft: tuple[Event, Client],
) -> None:
    event, client = draft
    url = f"/organize/{event.slug}/workshop/preview/"
    html = client.post(url, {"rulebook_text": SMALL.format(pieces=500, second="tmie")})
    text = html.content.decode()
    assert "line 18" in text
    assert "<table" not in text


def test_bounds_and_strangers(draft: tuple[Event, Client], make_user: Any, bounded: Any) -> None:
    event, client = draft
    url = f"/organize/{event.slug}/workshop/preview/"
    too_many = client.post(url, {"rulebook_text": "", "workshop_entrants": "100000"})
    assert "Ensure this value is less than or equal to 500." in too_many.content.decode()
    huge = "x: " + "a" * (300 * 1024)
    answer = bounded(lambda: client.post(f"/organize/{event.slug}/workshop/check/",
                                         {"rulebook_text": huge}))  # fmt: skip
    assert "Ensure this value has at most 262144 characters" in answer.content.decode()
    nested = "a: " + "[" * 5000 + "]" * 5000
    deep = bounded(lambda: client.post(f"/organize/{event.slug}/workshop/check/",
                                       {"rulebook_text": nested}))  # fmt: skip
    assert "line 1" in deep.content.decode()
    assert client.get(url).status_code == 405
    stranger = Client()
    stranger.force_login(make_user("mallory"))
    assert stranger.post(url, {"rulebook_text": ""}).status_code == 404
    assert Client().post(url, {"rulebook_text": ""}).status_code == 404


def test_the_report_reads_in_the_visitors_language(draft: tuple[Event, Client]) -> None:
    event, client = draft
    client.cookies["django_language"] = "it"
    url = f"/organize/{event.slug}/workshop/preview/"
    html = client.post(url, {"workshop_stage": "pairs", "workshop_seed": "4"}).content.decode()
    assert "Puzzle Party: 5 prove con 50 concorrenti inventati, seme 4" in html
    assert "Rifiutato all&#x27;iscrizione:" in html
    assert "Anteprima della classifica su risultati inventati" in html
    broken = SMALL.format(pieces=500, second="tmie")
    check = client.post(f"/organize/{event.slug}/workshop/check/", {"rulebook_text": broken})
    assert "1 problema nel regolamento" in check.content.decode()
    assert "riga 18" in check.content.decode()


def test_a_rulebook_with_hundreds_of_engine_problems_is_answered_in_bounded_time(
    draft: tuple[Event, Client], bounded: Any
) -> None:
    event, client = draft
    stage = SMALL[SMALL.index("  - key: final") :]
    stage = stage.replace("[finished, {second}, pieces]", "[tmie, tmoe, tmue]")
    head = SMALL[: SMALL.index("  - key: final")]
    stages = "".join(stage.replace("key: final", f"key: s{i}") for i in range(400))
    text = head + stages.format(pieces=500)
    assert len(text.encode()) < 256 * 1024
    url = f"/organize/{event.slug}/workshop/check/"
    answer = bounded(lambda: client.post(url, {"rulebook_text": text}))
    html = answer.content.decode()
    assert "<strong>Problems in the rulebook</strong>" in html  # as many as the loader lists
    assert html.count('class="line-problem"') == 52
    assert "and 1149 more problems not listed" in html
    assert 'data-line="18"' in html
