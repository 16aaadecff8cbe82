"""Entrants without a result at the foot of every table: live and frozen pages, the projector,
CSV, XLSX, PDF and the API (podium.engine.absence, results.selectors.absent).

Hand-worked (it-puzzle-party, pairs, Rome): twelve pairs, #1–#10 checked in and timed
1:01:00, 1:02:00 … 1:10:00, so they stand 1st…10th in number order; #11 and #12 never
checked in: "absent" under Art. 6 (the seat may be given away 10 minutes after the start).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from html import unescape
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from podium.web.models import Signal
from podium.web.registration.services.checkin import checkin_record
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

STAGE = "pairs"
START = dt.datetime(2026, 5, 24, 8, 0, tzinfo=dt.UTC)
CLAUSE = "Art. 6: I posti possono essere riassegnati dopo 10 minuti dall’inizio."
ABSENT = (
    "Did not come: no place and no points; the seat may be given to someone else 10 minutes "
    "after the start"
)


def party_with(
    make_event: Any, staff: Any, add_entry: Any, pairs: int, timed: int, slug: str = "party"
) -> Any:
    """``pairs`` pairs, #1…#``timed`` checked in, timed, confirmed; the rest never came."""
    event = make_event(
        "it-puzzle-party", slug=slug, starts_at=START, timezone="Europe/Rome", language="en"
    )
    people = staff(event, organizer=f"ornella-{slug}", head=f"hugo-{slug}", referee=f"rita-{slug}")
    entries = [add_entry(event, n, f"Pair {n}", "IT/IT") for n in range(1, pairs + 1)]
    for entry in entries[:timed]:
        checkin_record(entry=entry, by=people["referee"], now=START - dt.timedelta(minutes=10))
        result = result_record(
            event=event, stage=STAGE, entry=entry, cells={"time": f"1:{entry.number:02d}:00"},
            by=people["referee"], idempotency_key=f"k{entry.number}",
        )  # fmt: skip
        result_confirm(result=result, by=people["head"])
    event.people = people  # type: ignore[attr-defined]
    return event


@pytest.fixture
def party(make_event: Any, staff: Any, add_entry: Any) -> Any:
    return party_with(make_event, staff, add_entry, pairs=12, timed=10)


def text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def ranked_places(html: str) -> list[tuple[str, str]]:
    """(place, number) of every ranked row, in order."""
    rows = re.findall(r'<tr id="row-all-(\d+)"[^>]*>\s*<td[^>]*>([^<]*)<', html)
    return [(place, number) for number, place in rows]


def absent_rows(html: str) -> list[str]:
    return [text(r) for r in re.findall(r'<tr id="absent-all-\d+".*?</tr>', html, re.S)]


TEN = [(f"{n}.", str(n)) for n in range(1, 11)]
FOOT = [f"— — {n} Pair {n} absent {ABSENT} {CLAUSE}" for n in (11, 12)]


def test_the_live_page_fragment_and_projector_list_the_two_who_never_came(party: Any) -> None:
    staff = Client()
    staff.force_login(party.people["organizer"])
    base = f"/standings/{party.slug}/{STAGE}/"
    page = staff.get(base).content.decode()
    assert ranked_places(page) == TEN
    assert absent_rows(page) == FOOT
    assert "Without a result" in page
    fragment = staff.get(f"{base}table/").content.decode()
    assert absent_rows(fragment) == FOOT
    projector = staff.get(f"{base}projector/table/").content.decode()
    # The projector's compact table: place, name, status, and the clause.
    assert [text(r) for r in re.findall(r'<tr id="absent-all-\d+".*?</tr>', projector, re.S)] == [
        f"— Pair {n} absent {ABSENT} {CLAUSE}" for n in (11, 12)
    ]


def test_the_frozen_final_keeps_them_and_exports_and_api_list_them(party: Any) -> None:
    for state in ("preliminary", "final"):
        publication_set(event=party, stage=STAGE, state=state, by=party.people["organizer"])
    page = Client().get(f"/standings/{party.slug}/{STAGE}/").content.decode()
    assert "version 1" in page
    assert ranked_places(page) == TEN
    assert absent_rows(page) == FOOT

    got = Client().get(reverse("exports:standings", args=[party.slug, STAGE, 1, "csv"]))
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert [r[:5] for r in rows[-3:]] == [
        ["10", "10", "10", "Pair 10", "1:10:00"],
        ["", "", "11", "Pair 11", "absent"],
        ["", "", "12", "Pair 12", "absent"],
    ]
    assert rows[-1][-1] == f"{ABSENT} — “{CLAUSE}”"

    got = Client().get(reverse("exports:standings", args=[party.slug, STAGE, 1, "xlsx"]))
    sheet = load_workbook(io.BytesIO(got.content)).active
    last = [[c.value for c in row][:5] for row in sheet.iter_rows(min_row=11)]
    assert last == [
        [10, 10, 10, "Pair 10", dt.timedelta(hours=1, minutes=10)],
        [None, None, 11, "Pair 11", "absent"],
        [None, None, 12, "Pair 12", "absent"],
    ]

    got = Client().get(reverse("exports:standings", args=[party.slug, STAGE, 1, "pdf"]))
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(got.content)).pages)
    printed = re.sub(r"\s+", " ", printed)
    # After #10's row, each without a place ("—"), its status for a score, its reason a note.
    assert re.search(
        r"10\. 10 Pair 10 IT 1:10:00 .*— 11 Pair 11 IT absent \d+ — 12 Pair 12", printed
    )
    assert ABSENT in printed
    assert "I posti possono essere riassegnati" in printed

    api = Client().get(f"/api/events/{party.slug}/stages/{STAGE}/rounds/1/standings").json()
    [table] = api["tables"]
    assert [(r["id"], r["rank"]) for r in table["rows"]] == [(str(n), n) for n in range(1, 11)]
    assert table["absent"] == [
        {"id": str(n), "name": f"Pair {n}", "table": "all", "status": "absent",
         "reasons": [{"clause": CLAUSE, "text": ABSENT}]}
        for n in (11, 12)
    ]  # fmt: skip


def test_present_without_a_result_did_not_start_then_did_not_finish_after_the_clock(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = party_with(make_event, staff, add_entry, pairs=3, timed=1)
    third = event.entries.get(number=3)
    checkin_record(entry=third, by=event.people["referee"], now=START - dt.timedelta(minutes=5))
    staff_client = Client()
    staff_client.force_login(event.people["organizer"])
    url = f"/standings/{event.slug}/{STAGE}/table/"
    shown = absent_rows(staff_client.get(url).content.decode())
    default = "no place and no points (no clause: Podium's default)"
    assert shown == [f"— — 2 Pair 2 absent {ABSENT} {CLAUSE}",
                     f"— — 3 Pair 3 did not start Did not start: {default}"]  # fmt: skip
    # The round's clock started and its time limit (120 minutes) is over: #3 did not finish.
    Signal.objects.create(event=event, stage=STAGE, round=1, kind=Signal.Kind.START, at=START)
    cache.clear()  # a signal made here, not by the service, tells no cached table it changed
    shown = absent_rows(staff_client.get(url).content.decode())
    assert shown[1] == f"— — 3 Pair 3 did not finish Did not finish: {default}"


def test_thirty_absent_pairs_cost_no_more_queries_than_two(
    make_event: Any, staff: Any, add_entry: Any, queries_of: Any
) -> None:
    few = party_with(make_event, staff, add_entry, pairs=12, timed=10, slug="few")
    many = party_with(make_event, staff, add_entry, pairs=40, timed=10, slug="many")
    for event in (few, many):  # public, so the API answers too
        publication_set(event=event, stage=STAGE, state="preliminary", by=event.people["organizer"])

    def counts(event: Any) -> dict[str, int]:
        base = f"/standings/{event.slug}/{STAGE}/"
        urls = {
            "page": base, "table": f"{base}table/", "projector": f"{base}projector/table/",
            "csv": reverse("exports:standings", args=[event.slug, STAGE, 1, "csv"]),
            "api": f"/api/events/{event.slug}/stages/{STAGE}/rounds/1/standings",
        }  # fmt: skip
        staff_client = Client()
        staff_client.force_login(event.people["organizer"])
        return {name: queries_of(staff_client, url) for name, url in urls.items()}

    assert counts(many) == counts(few)
    many_page = Client()
    many_page.force_login(many.people["organizer"])
    html = many_page.get(f"/standings/{many.slug}/{STAGE}/").content.decode()
    assert len(absent_rows(html)) == 30


def test_a_chgk_team_not_admitted_to_a_tour_is_absent_under_clause_9(club_at: Any) -> None:
    # The club's season (tests/web/fixtures/club.py): #11 has not paid the second half's fee,
    # so it is not admitted to tour 2 and "counts as absent" (п. 9); it stands at the foot.
    built = club_at(12, 2)
    html = Client().get(f"/standings/{built.event.slug}/chgk-tour/2/table/").content.decode()
    assert [text(r) for r in re.findall(r'<tr id="absent-[^"]*".*?</tr>', html, re.S)] == [
        "— — 11 Teams 11 absent Absent from this tour: no place and no points in it; the season "
        "counts the team after the last official team п. 9: Команда, не сдавшая взнос, … "
        "считается не явившейся на тур."
    ]
    ranked = [n for _place, n in ranked_places(html)]
    assert len(ranked) == 12  # the 11 others and the guest team (outside the competition)
    assert "11" not in ranked
