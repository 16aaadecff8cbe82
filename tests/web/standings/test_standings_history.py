"""Standings as they stood: the frozen final table on the live page with its old versions, and
the staff's view of a table at a past moment (the cz-jigsaw scenario of
``test_standings_pages``).

Hand-worked (cz-jigsaw, individual final): Bohdan 1:05:00 before Anna 1:10:00 in version 1;
after a reopen Anna is corrected to 1:00:00, so version 2 lists Anna first and version 1 still
lists Bohdan first.
"""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse
from tests.web.standings.test_standings_pages import (
    FINAL,
    QUALI,
    at,
    cells,
    entry,
    marks,
    record,
    row_html,
    staff_client,
    stage_url,
    text,
    why,
)

from podium.web.models import Entry
from podium.web.results.services.checks import result_confirm as result_verify
from podium.web.results.services.results import result_correct, result_record
from podium.web.standings.services.publication import publication_set


def test_the_live_page_shows_the_frozen_final_table_and_keeps_old_versions(
    cz: Any, put_in_stage: Any
) -> None:
    event, org, ref1, ref2 = cz
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
    result_verify(result=a, by=ref2)
    result_verify(result=b, by=ref2)
    publication_set(event=event, stage=FINAL, state="preliminary", by=org)
    publication_set(event=event, stage=FINAL, state="final", by=org)
    # a later change of an entry's name shows that the page reads the frozen table
    Entry.objects.filter(pk=bohdan.pk).update(name="Bohdan Renamed")

    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert re.search(r"final\s*</span>\s*<span class=\"frozen\">version 1, as of ", html)
    order = [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)]
    assert order == [2, 1]
    assert cells(row_html(html, "all", 2))[:5] == ["1.", "1.", "2", "Bohdan Malý", "1:05:00"]
    assert "Bohdan Renamed" not in html
    assert "First: finished, time 1:05:00" in why(stage_url(event, FINAL), "all", 2)
    version1 = reverse("standings:version", args=[event.slug, FINAL, 1, 1])
    assert f'href="{version1}"' in html

    # reopened with a reason: the live table again (preliminary), version 1 still reachable
    publication_set(event=event, stage=FINAL, state="preliminary", by=org, reason="appeal won")
    current = result_correct(
        result=a, cells={"time": "1:00:00"}, by=ref1, reason="clock misread",
        idempotency_key="fix",
    )  # fmt: skip
    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert "preliminary" in text(html)
    assert "frozen" not in html
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)] == [1, 2]
    assert "Bohdan Renamed" in html
    assert "unverified" in marks(row_html(html, "all", 1))
    assert f'href="{version1}"' in html
    old = Client().get(version1).content.decode()
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', old)] == [2, 1]
    assert "1:10:00" in cells(row_html(old, "all", 1))[4]

    result_verify(result=current, by=ref2)
    publication_set(event=event, stage=FINAL, state="final", by=org, reason="corrected")
    html = Client().get(stage_url(event, FINAL)).content.decode()
    assert "version 2, as of" in html
    assert [int(n) for n in re.findall(r'<tr id="row-all-(\d+)"', html)] == [1, 2]
    assert f'href="{version1}"' in html
    assert f'href="{reverse("standings:version", args=[event.slug, FINAL, 1, 2])}"' in html
    assert Client().get(version1).status_code == 200
    missing = reverse("standings:version", args=[event.slug, FINAL, 1, 3])
    assert Client().get(missing).status_code == 404


def test_staff_see_a_table_as_it_stood_at_a_past_moment(cz: Any) -> None:
    """Anna 1:10:00 at 10:00, corrected to 1:02:00 at 10:10: as of 10:05 (Prague) the table
    shows 1:10:00, now 1:02:00; a visitor's ``as_of`` is not honoured."""
    event, org, ref1, ref2 = cz
    anna = entry(event, 1, "Anna Nová")
    first = record(event, anna, "1:10:00", ref1, 0)
    result_correct(
        result=first, cells={"time": "1:02:00"}, by=ref2, reason="misread the clock",
        idempotency_key="c", now=at(10, 10),
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    moment = at(10, 5).astimezone(event.zone).strftime("%Y-%m-%dT%H:%M")
    then = text(staff_client(org).get(stage_url(event), {"as_of": moment}).content.decode())
    assert "As it stood on" in then
    assert "1:10:00" in then
    assert "1:02:00" not in then
    now = text(staff_client(org).get(stage_url(event)).content.decode())
    assert "1:02:00" in now
    public = text(Client().get(stage_url(event), {"as_of": moment}).content.decode())
    assert "As it stood on" not in public
    assert "1:02:00" in public
