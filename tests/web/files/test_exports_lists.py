"""List exports: entry lists, the start list, a lane schedule and the check-in list as CSV,
XLSX and PDF — the same rows as their pages, visible to whom the page is. The cz-jigsaw event
and the helpers are those of ``test_exports``.

Hand-worked (cba-qualifier, squad 1 of 7 players, lane pairs 1–2 and 3–4 with 4 players per
pair, seed "sheet"): blocks of games 1–2, 3–4, 5–6; the start list gives each player the pair
and lane of the first block.

Hand-worked (it-puzzle-party check-in, opens 20 min before the 09:00 UTC start): #1 checked in
at 08:45 UTC on seat T12 → "2026-06-20 10:45 CEST" in Prague; #2 not yet.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from tests.web.files import test_exports
from tests.web.files.test_exports import at, csv_rows, pdf_pages, signed_in

from podium.web.draws.services import draw_make
from podium.web.models import Entry, EntryMember, Event, Person, Squad
from podium.web.registration.services.checkin import checkin_record

cz = test_exports.cz  # the fixture: cz-jigsaw's five entrants with their results


# --- Entry lists and start list --------------------------------------------------------------


def person_entry(event: Event, number: int, name: str, category: str, **fields: Any) -> Entry:
    fields.setdefault("status", Entry.Status.CONFIRMED)
    made = Entry.objects.create(event=event, number=number, name=name, category=category, **fields)
    for part in name.split("/"):
        first, _, last = part.partition(" ")
        person = Person.objects.create(first_name=first, last_name=last, country="CZ")
        EntryMember.objects.create(entry=made, person=person)
    return made


def test_entry_lists_per_category_and_group(cz: Any) -> None:
    event, _people = cz
    Entry.objects.filter(event=event, number=1).update(table_number=7)
    Entry.objects.filter(event=event, number=2).update(table_number=8)
    Entry.objects.filter(event=event, number=5).update(group="B")
    person_entry(event, 20, "Jana Nová/Petr Malý", "pairs")
    person_entry(event, 21, "Olga Malá", "individuals", status=Entry.Status.WAITING,
                 waiting_position=1)  # fmt: skip
    response = Client().get(reverse("exports:entries", args=[event.slug, "xlsx"]))
    assert response["Content-Disposition"] == 'attachment; filename="cz-jigsaw-entries.xlsx"'
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == [
        "Individuals — Group A", "Individuals — Group B", "Individuals — Waiting list", "Pairs",
    ]  # fmt: skip
    group_a = [[c.value for c in row] for row in book["Individuals — Group A"].iter_rows()]
    assert group_a == [  # the page's order: entries without a table first, then by table
        ["No.", "Name", "Country", "Table", "Standing"],
        [3, "Hans Meier", "DE", None, "outside the official order (foreign)"],
        [4, "Dana Zelená", "CZ", None, "official"],
        [1, "Anna Nová", "CZ", 7, "official"],
        [2, "Bohdan Malý", "CZ", 8, "official"],
    ]
    pairs = [[c.value for c in row] for row in book["Pairs"].iter_rows()]
    assert pairs[1] == [20, "Jana Nová/Petr Malý", "Jana Nová, Petr Malý", "CZ, CZ", None,
                        "official"]  # fmt: skip
    waiting = [[c.value for c in row] for row in book["Individuals — Waiting list"].iter_rows()]
    assert waiting[1] == [1, 21, "Olga Malá", "CZ", "official"]

    rows = csv_rows(Client().get(reverse("exports:entries", args=[event.slug, "csv"])).content)
    assert rows[0][:3] == ["Sheet", "No.", "Name"]
    assert rows[1][:3] == ["Individuals — Group A", "3", "Hans Meier"]
    pages = pdf_pages(Client().get(reverse("exports:entries", args=[event.slug, "pdf"])).content)
    text = "\n".join(pages)
    assert text.index("Hans Meier") < text.index("Anna Nová") < text.index("Eva Malá")
    assert "Waiting list" in text
    assert "Olga Malá" in text
    assert all("as of" in p and "page" in p for p in pages)
    page = Client().get(reverse("event-entries", args=[event.slug])).content.decode()
    assert reverse("exports:entries", args=[event.slug, "pdf"]) in page
    assert reverse("exports:start-list", args=[event.slug, "xlsx"]) in page


def test_start_list_with_groups_and_tables(cz: Any) -> None:
    event, _people = cz
    for number, group, table in ((1, "A", 3), (2, "B", 4), (3, "A", 1), (4, "B", 5), (5, "A", 2)):
        Entry.objects.filter(event=event, number=number).update(group=group, table_number=table)
    rows = csv_rows(Client().get(reverse("exports:start-list", args=[event.slug, "csv"])).content)
    assert rows == [
        ["Sheet", "Group", "Table", "No.", "Name", "Country"],
        ["Individuals — Group A", "A", "1", "3", "Hans Meier", "DE"],
        ["Individuals — Group A", "A", "2", "5", "Eva Malá", "CZ"],
        ["Individuals — Group A", "A", "3", "1", "Anna Nová", "CZ"],
        ["Individuals — Group B", "B", "4", "2", "Bohdan Malý", "CZ"],
        ["Individuals — Group B", "B", "5", "4", "Dana Zelená", "CZ"],
    ]


@pytest.fixture
def bowling(make_event: Any, staff: Any) -> tuple[Event, Squad, Any]:
    event = make_event("cba-qualifier", language="en", status=Event.Status.CLOSED)
    people = staff(event, organizer="olga")
    squad = Squad.objects.create(event=event, name="Squad 1", starts_at=at(9, 0), capacity=12)
    for n in range(1, 8):
        person_entry(event, n, f"Player {n}", "players", squad=squad)
    draw = draw_make(
        event=event, kind="lanes", stage="qualification", seed="sheet", by=people["organizer"],
        squad=squad, lane_pairs=[(1, 2), (3, 4)], per_pair=4,
    )  # fmt: skip
    return event, squad, draw


def test_bowling_start_list_and_lane_schedule(bowling: Any) -> None:
    event, squad, draw = bowling
    first = draw.result["outcome"]["blocks"][0]["pairs"]
    numbers = dict(Entry.objects.filter(event=event).values_list("id", "number"))
    expected = {}
    for pair in first:
        left, right = pair["lanes"]
        for side, lane in (("left", left), ("right", right)):
            for entry_id in pair[side]:
                expected[numbers[entry_id]] = (f"{left}–{right}", lane)
    assert len(expected) == 7

    book = openpyxl.load_workbook(
        io.BytesIO(Client().get(reverse("exports:start-list", args=[event.slug, "xlsx"])).content)
    )
    ws = book["Players — Squad 1"]
    header = [c.value for c in ws[1]]
    assert header == ["Squad", "Start", "Lanes", "Lane", "No.", "Name", "Country"]
    rows = [[c.value for c in row] for row in ws.iter_rows(min_row=2)]
    assert {r[4]: (r[2], r[3]) for r in rows} == expected
    assert [r[3] for r in rows] == sorted(r[3] for r in rows)  # in lane order
    assert rows[0][1] == dt.datetime(2026, 6, 20, 11, 0)  # 09:00 UTC is 11:00 in Prague
    assert ws["B2"].number_format == 'yyyy-mm-dd hh:mm "CEST"'

    lanes_url = reverse("exports:lanes", args=[event.slug, squad.pk, "csv"])
    assert lanes_url == f"/export/{event.slug}/lanes/{squad.pk}.csv"
    rows = csv_rows(Client().get(lanes_url).content)
    assert rows[0] == ["Sheet", "Lanes", "Starting on the left lane", "Starting on the right lane"]
    assert [r[0] for r in rows[1:]] == [
        "Block 1 (games 1, 2)", "Block 1 (games 1, 2)", "Block 2 (games 3, 4)",
        "Block 2 (games 3, 4)", "Block 3 (games 5, 6)", "Block 3 (games 5, 6)",
    ]  # fmt: skip
    named = {n: f"#{n} Player {n}" for n in range(1, 8)}
    for pair, row in zip(first, rows[1:3], strict=True):
        assert row[1] == f"{pair['lanes'][0]}–{pair['lanes'][1]}"
        assert row[2] == ", ".join(named[numbers[i]] for i in pair["left"])
        assert row[3] == ", ".join(named[numbers[i]] for i in pair["right"])
    pdf = Client().get(reverse("exports:lanes", args=[event.slug, squad.pk, "pdf"]))
    text = "\n".join(pdf_pages(pdf.content))
    assert "American system" in text
    assert "Block 3 (games 5, 6)" in text
    assert "sheet" in text
    other = Squad.objects.create(event=event, name="Squad 2", starts_at=at(13, 0), capacity=12)
    assert (
        Client().get(reverse("exports:lanes", args=[event.slug, other.pk, "csv"])).status_code
        == 404
    )  # no lane draw for that squad
    page = Client().get(reverse("draws:lanes", args=[event.slug, squad.pk])).content.decode()
    assert reverse("exports:lanes", args=[event.slug, squad.pk, "xlsx"]) in page
    page = Client().get(reverse("draws:public", args=[event.slug])).content.decode()
    assert reverse("exports:start-list", args=[event.slug, "pdf"]) in page


# --- Check-in list ---------------------------------------------------------------------------


def test_check_in_list_is_for_staff(make_event: Any, staff: Any, make_user: Any) -> None:
    event = make_event("it-puzzle-party", language="en")
    people = staff(event, organizer="olga", referee="rudolf")
    first = person_entry(event, 1, "Rossi/Bianchi", "pairs")
    person_entry(event, 2, "Verdi/Neri", "pairs")
    checkin_record(entry=first, by=people["referee"], seat="T12", now=at(8, 45))
    address = reverse("exports:check-in", args=[event.slug, "csv"])

    assert Client().get(address).status_code == 302  # to the login page
    assert signed_in(make_user("someone")).get(address).status_code == 404
    rows = csv_rows(signed_in(people["referee"]).get(address).content)
    assert rows == [
        ["No.", "Name", "Status", "Checked in", "Seat", "Checked in by"],
        ["1", "Rossi/Bianchi", "confirmed", "2026-06-20 10:45 CEST", "T12", "rudolf"],
        ["2", "Verdi/Neri", "confirmed", "", "", ""],
    ]
    xlsx = signed_in(people["referee"]).get(reverse("exports:check-in", args=[event.slug, "xlsx"]))
    ws = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    assert ws["D2"].value == dt.datetime(2026, 6, 20, 10, 45)
    assert ws["D2"].number_format == 'yyyy-mm-dd hh:mm "CEST"'
    pdf = signed_in(people["referee"]).get(reverse("exports:check-in", args=[event.slug, "pdf"]))
    assert "Rossi/Bianchi" in pdf_pages(pdf.content)[0]
    desk = signed_in(people["referee"]).get(reverse("desk:desk", args=[event.slug]))
    assert reverse("exports:check-in", args=[event.slug, "pdf"]) in desk.content.decode()
