"""Safe exports: what a person typed never runs as a formula in a spreadsheet (the OWASP rule
for CSV injection) — in the standings, the entry lists, the start list and the check-in list.

Hand-worked: five entrants of cz-jigsaw group A name themselves
``=HYPERLINK("http://x","y")`` (the case of issue 12), ``+420 777``, ``-1+2``, ``@SUM(A1)``
and ``#N/A`` (an Excel error code); a sixth is ``Anna Nová``. In XLSX every name is a text
cell (data type ``s``) holding exactly what was typed, and the sheet's XML has no ``<f>``
(formula) element; in CSV the first four begin with ``'`` (``'=HYPERLINK(…)``), ``#N/A`` and
``Anna Nová`` stay as typed. A computed number stays a number: a score of -3 is the number
-3 in XLSX and ``-3`` (no ``'``) in CSV.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import time
import tracemalloc
import zipfile
from typing import Any
from zoneinfo import ZoneInfo

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from podium.web.files.formats.csv import write_csv
from podium.web.files.formats.xlsx import write_xlsx
from podium.web.files.selectors.exports import Column, Document, Sheet, number_value, score_value
from podium.web.models import Entry, Event
from podium.web.registration.services.checkin import checkin_record
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
HYPERLINK = '=HYPERLINK("http://x","y")'
HOSTILE = [HYPERLINK, "+420 777", "-1+2", "@SUM(A1)"]
KEPT = ["#N/A", "Anna Nová"]
NAMES = HOSTILE + KEPT


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def csv_cells(content: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def no_formula(content: bytes) -> openpyxl.Workbook:
    """The workbook, after checking that no cell of any sheet is a formula, read both by
    openpyxl and from the XML itself."""
    with zipfile.ZipFile(io.BytesIO(content)) as xlsx:
        for name in xlsx.namelist():
            if name.startswith("xl/worksheets/sheet"):
                assert not re.search(rb"<f[ >]", xlsx.read(name)), name
    book = openpyxl.load_workbook(io.BytesIO(content))
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
    return book


def text_cells(book: openpyxl.Workbook, names: list[str]) -> dict[str, str]:
    """Each name found in the workbook → its cell's data type."""
    found = {}
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                if cell.value in names:
                    found[cell.value] = cell.data_type
    return found


def assert_escaped(rows: list[list[str]]) -> None:
    cells = {cell for row in rows for cell in row}
    for name in HOSTILE:
        assert "'" + name in cells, name
        assert name not in cells, name
    for name in KEPT:
        assert name in cells, name


@pytest.fixture
def hostile(make_event: Any, staff: Any, add_entry: Any) -> tuple[Event, Any]:
    event = make_event("cz-jigsaw", language="en", title="Czech Jigsaw 2026")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    for number, name in enumerate(NAMES, start=1):
        made = add_entry(event, number, name, "CZ", category="individuals", group="A")
        done = result_record(
            event=event, stage=QUALI, entry=made, cells={"time": f"1:{number:02d}:00"},
            by=people["referee"], idempotency_key=f"q-{number}", now=at(10, number),
        )  # fmt: skip
        result_confirm(result=done, by=people["head"], now=at(11, 0))
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    return event, people


def test_standings_keep_typed_names_as_text(hostile: Any) -> None:
    event, _people = hostile
    address = reverse("exports:standings", args=[event.slug, QUALI, 1, "xlsx"])
    book = no_formula(Client().get(address).content)
    assert text_cells(book, NAMES) == dict.fromkeys(NAMES, "s")
    ws = book.active
    assert [ws.cell(row=r, column=4).value for r in range(2, 8)] == NAMES
    assert ws["A2"].value == 1
    assert ws["A2"].data_type == "n"

    address = reverse("exports:standings", args=[event.slug, QUALI, 1, "csv"])
    rows = csv_cells(Client().get(address).content)
    assert [r[3] for r in rows[1:]] == ["'" + n for n in HOSTILE] + KEPT
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4", "5", "6"]


@pytest.mark.parametrize("export", ["entries", "start-list"])
def test_entry_and_start_lists_keep_typed_names_as_text(hostile: Any, export: str) -> None:
    event, _people = hostile
    Entry.objects.filter(event=event).update(group="A")
    content = Client().get(reverse(f"exports:{export}", args=[event.slug, "xlsx"])).content
    assert text_cells(no_formula(content), NAMES) == dict.fromkeys(NAMES, "s")
    rows = csv_cells(Client().get(reverse(f"exports:{export}", args=[event.slug, "csv"])).content)
    assert_escaped(rows)


def test_check_in_list_keeps_typed_names_and_seats_as_text(hostile: Any) -> None:
    event, people = hostile
    first = Entry.objects.get(event=event, number=1)
    checkin_record(entry=first, by=people["referee"], seat="=1+1", now=at(8, 45))
    client = Client()
    client.force_login(people["referee"])
    content = client.get(reverse("exports:check-in", args=[event.slug, "xlsx"])).content
    book = no_formula(content)
    assert text_cells(book, [*NAMES, "=1+1"]) == dict.fromkeys([*NAMES, "=1+1"], "s")
    rows = csv_cells(client.get(reverse("exports:check-in", args=[event.slug, "csv"])).content)
    assert_escaped(rows)
    assert rows[1][1] == "'" + HYPERLINK
    assert rows[1][4] == "'=1+1"


def test_computed_numbers_stay_numbers_and_text_is_escaped_in_every_cell() -> None:
    """A score of -3 (a Brainball question difference, say) is a number, not escaped text; a
    sheet title from an uploaded rulebook is escaped like any text; a control character XML
    cannot hold (an old value) does not break the workbook."""
    assert score_value("-3") == -3
    assert number_value("-12") == -12
    assert score_value("-") == "-"
    assert score_value("1:02:03") == dt.timedelta(seconds=3723)
    columns = [Column("name", "Name"), Column("score", "Score", "number")]
    document = Document(
        title="t",
        filename="t",
        sheets=[
            Sheet("-A", columns, [{"name": "\tTab", "score": score_value("-3")}]),
            Sheet("B", columns, [{"name": "\rCR", "score": 0}, {"name": "bell\x07", "score": 1}]),
        ],
        as_of=at(12, 0),
        zone=ZoneInfo("Europe/Prague"),
    )
    rows = csv_cells(write_csv(document))
    assert rows[1] == ["'-A", "'\tTab", "-3"]
    assert rows[2] == ["B", "'\rCR", "0"]
    book = no_formula(write_xlsx(document))
    first, second = book.worksheets
    assert (first["A2"].value, first["A2"].data_type) == ("\tTab", "s")
    assert (first["B2"].value, first["B2"].data_type) == (-3, "n")
    assert second["A3"].value == "bell\ufffd"


def test_a_large_hostile_export_is_quick() -> None:
    """2,000 rows of formula-like names: written as text within a generous bound."""
    columns = [Column("number", "No.", "number"), Column("name", "Name")]
    rows = [{"number": n, "name": f'=HYPERLINK("http://x/{n}","y")'} for n in range(2000)]
    document = Document("t", "t", [Sheet("A", columns, rows)], at(12, 0), ZoneInfo("UTC"))
    tracemalloc.start()
    started = time.process_time()  # CPU time: a busy machine stretches the wall clock
    content = write_xlsx(document)
    text = write_csv(document)
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert cpu < 2, f"{cpu:.2f} s of CPU time"
    assert peak < 100 * 2**20
    assert text.count(b"'=HYPERLINK") == 2000
    ws = no_formula(content).active
    assert ws["B2001"].value == '=HYPERLINK("http://x/1999","y")'
