"""Hostile uploads to the imports: the entrants and ChGK imports refuse each case of issue 12
(workbooks, CSV files, the rating site's JSON) clearly, quickly, in bounded memory, never
with a 500, and change nothing in the database. The rulebook upload and hostile request
bodies are in ``test_hostile_bodies``.

The files are made here, small: a workbook is a real one written by openpyxl with one part
replaced by the hostile XML.
"""

from __future__ import annotations

import io
import json
import random
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.models import AuditEntry, Entry, Event, Result
from podium.web.readers.tables import FileRefused, read_upload

pytestmark = pytest.mark.django_db

SHEET = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
HEADER = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'


def workbook(
    first: bytes | None = None, second: bytes | None = None, stored: bool = False
) -> bytes:
    """A two-sheet workbook (Name/Surname, one entrant; an empty "Other") with either
    worksheet's XML replaced; ``stored`` keeps its parts uncompressed (no zip ratio to catch)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Entrants"
    sheet.append(["Name", "Surname"])
    sheet.append(["Jana", "Nová"])
    book.create_sheet("Other")
    written = io.BytesIO()
    book.save(written)
    source = zipfile.ZipFile(written)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED) as z:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml" and first is not None:
                data = first
            if info.filename == "xl/worksheets/sheet2.xml" and second is not None:
                data = second
            z.writestr(info.filename, data)
    return out.getvalue()


def sheet(rows: bytes, dimension: bytes = b"") -> bytes:
    return SHEET + dimension + b"<sheetData>" + rows + b"</sheetData></worksheet>"


def counts() -> tuple[int, int, int, int]:
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Result.objects.count(),
        (AuditEntry.objects.count()),
    )


@pytest.fixture
def cz(make_event: Any, make_user: Any) -> Any:
    return make_event("cz-jigsaw", organizer=make_user("olga"))


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- XLSX ------------------------------------------------------------------------------------


def test_a_declared_dimension_of_a_whole_sheet_costs_nothing(bounded: Any) -> None:
    """The issue's 1.9 KB workbook: a second sheet declaring A1:XFD1048576 (hours before)."""
    data = workbook(second=sheet(b"", b'<dimension ref="A1:XFD1048576"/>'))
    assert len(data) < 6000
    read = bounded(lambda: read_upload("entrants.xlsx", data), seconds=0.2, megabytes=5)
    assert read.header == ("Name", "Surname")
    assert read.rows == ((2, ("Jana", "Nová")),)
    assert read.note == ""  # the declared sheet holds no value: nothing to name


def test_a_far_value_on_a_declared_sheet_is_named_without_walking_to_it(bounded: Any) -> None:
    far = b'<row r="1048576"><c r="XFD1048576"><v>7</v></c></row>'
    data = workbook(second=sheet(far, b'<dimension ref="A1:XFD1048576"/>'))
    read = bounded(lambda: read_upload("entrants.xlsx", data), seconds=0.2, megabytes=5)
    assert read.note == (
        "Read the worksheet “Entrants”; the workbook's other worksheets with data (“Other”) "
        "were not read."
    )


def refused(data: bytes, bounded: Any, name: str = "entrants.xlsx") -> str:
    outcome = bounded(lambda: read_upload(name, data))
    assert isinstance(outcome, FileRefused), outcome
    return outcome.message


def test_one_row_of_five_million_cells_is_refused_from_the_zip_directory(bounded: Any) -> None:
    """The issue's 554 KB workbook (103 s and 5.6 GB before)."""
    data = workbook(sheet(HEADER + b'<row r="2">' + b"<c><v>1</v></c>" * 5_000_000 + b"</row>"))
    assert len(data) < 600_000
    assert refused(data, bounded) == (
        "The workbook unpacks to 71 MB; Podium reads workbooks that unpack to at most 40 MB."
    )


def test_a_highly_compressed_part_is_refused_as_a_zip_bomb(bounded: Any) -> None:
    data = workbook(sheet(HEADER + b'<row r="2">' + b"<c/>" * 600_000 + b"</row>"))
    message = refused(data, bounded)
    assert message.startswith("The workbook's part xl/worksheets/sheet1.xml unpacks ")
    # The ratio itself depends a little on the zlib that packed it (about 960).
    assert message.endswith(" times its packed size (a zip bomb?); Podium refuses it unread.")


def test_cells_beyond_the_budget_are_refused_by_the_streaming_reader(bounded: Any) -> None:
    # Stored, not compressed: only the cell budget stands between the file and the server.
    data = workbook(sheet(HEADER + b'<row r="2">' + b"<c/>" * 200_001 + b"</row>"), stored=True)
    assert len(data) < 2 * 1024 * 1024
    assert refused(data, bounded) == (
        "The worksheet “Entrants” has more than 200,000 cells (row 2); Podium reads smaller "
        "tables. Delete the empty or unused cells."
    )


def test_a_flood_of_xml_elements_is_refused(bounded: Any) -> None:
    # Random tags pack about ten times: past the zip's ratio bound, into the element budget.
    tags = [f"<{t}/>".encode() for t in "abcdefgh"]
    flood = b"".join(random.Random(12).choices(tags, k=900_000))
    data = workbook(sheet(HEADER + flood))
    assert len(data) < 2 * 1024 * 1024
    assert refused(data, bounded) == (
        "The workbook has more than 800,000 XML elements (in xl/worksheets/sheet1.xml)."
    )


def test_elements_within_the_budget_are_read(bounded: Any) -> None:
    data = workbook(sheet(HEADER + b"<x/>" * 300_000), stored=True)
    assert refused(data, bounded) == "The file has a header but no rows."


@pytest.mark.parametrize("kind", ["inline", "shared"])
def test_a_200k_character_string_is_refused_by_its_cell(kind: str, bounded: Any) -> None:
    """The issue's 1.4 MB workbook of 200k-character strings (30 s and 3.5 GB before)."""
    long = b"x" * 200_000
    if kind == "inline":
        data = workbook(
            sheet(
                HEADER
                + b'<row r="2"><c r="B2" t="inlineStr"><is><t>'
                + long
                + b"</t></is></c></row>"
            )
        )
        said = "Cell B2 of the worksheet “Entrants” holds more than 10,000 characters"
    else:
        from openpyxl import Workbook

        book = Workbook()
        book.active.append(["Name", "Surname"])
        book.active.append(["Jana", long.decode()])
        written = io.BytesIO()
        book.save(written)
        data = written.getvalue()
        said = "Cell B2 of the worksheet “Sheet” holds more than 10,000 characters"
    assert refused(data, bounded).startswith(said)


def test_a_document_type_in_a_part_is_refused(bounded: Any) -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
        + sheet(HEADER)
    )
    assert refused(workbook(laughs), bounded) == (
        "The workbook's part xl/worksheets/sheet1.xml declares a document type; workbooks have "
        "none."
    )


def test_dates_numbers_and_booleans_read_as_before() -> None:
    import datetime as dt

    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Name", "Born", "Time", "Paid", "Fee", "Score"])
    book.active.append(["Jana", dt.date(2010, 5, 3), dt.time(9, 30), True, 12.5, 7.0])
    written = io.BytesIO()
    book.save(written)
    read = read_upload("entrants.xlsx", written.getvalue())
    assert read.rows == ((2, ("Jana", "2010-05-03", "9:30:00", "True", "12.5", "7")),)


# --- CSV -------------------------------------------------------------------------------------

CSV = "Jméno,Příjmení,Narozen\nJana,Nováková,2010-05-03\nПётр,Иванов,2011-01-02\n"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_read_and_said(codec: str, bounded: Any) -> None:
    read = bounded(lambda: read_upload("entrants.csv", CSV.encode(codec)), seconds=0.5)
    assert read.header == ("Jméno", "Příjmení", "Narozen")
    assert read.rows[1] == (3, ("Пётр", "Иванов", "2011-01-02"))
    assert read.note == "The file is UTF-16 text without a byte-order mark; Podium read it as such."
    assert "1251" not in read.note


def test_cyrillic_only_utf16_is_not_named_windows_1251() -> None:
    read = read_upload("t.csv", "Имя;Фамилия\nПётр;Иванов\n".encode("utf-16-le"))
    assert read.rows == ((2, ("Пётр", "Иванов")),)


@pytest.mark.parametrize(
    "data",
    [
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8,
        b"%PDF-1.7\n" + bytes(range(1, 32)) * 40,
        b"Name,Surname\n\x00\x01\x02\x03" * 100,
    ],
    ids=["png", "control-bytes", "nul-bytes"],
)
def test_a_binary_file_is_refused_as_such(data: bytes, bounded: Any) -> None:
    assert refused(data, bounded, "entrants.csv") == (
        "This is not a text table (CSV) or an Excel workbook: the file holds binary data. Save "
        "it as CSV UTF-8 or .xlsx."
    )


def test_one_stray_control_byte_is_not_binary() -> None:
    read = read_upload("e.csv", b"Name,Surname\nJana,Nova\n\x1a")  # an old editor's end mark
    assert read.rows == ((2, ("Jana", "Nova")),)
    read = read_upload("e.csv", b"Name,Surname\nJana,No\x07va\n")
    assert read.rows == ((2, ("Jana", "No\x07va")),)  # read; the import judges its text


def test_csv_cells_over_the_budget_are_refused_by_row(bounded: Any) -> None:
    medium = b"Name,Surname\nJana," + b"x" * 20_000 + b"\n"
    assert refused(medium, bounded, "e.csv") == (
        "Row 2, column B holds more than 10,000 characters; Podium reads at most that many in "
        "one cell."
    )
    huge = b"Name,Surname\nJana," + b"x" * 200_000 + b"\n"
    assert refused(huge, bounded, "e.csv") == (
        "Row 2 holds a cell of more than 10,000 characters; Podium reads at most that many in "
        "one cell."
    )


def test_a_row_of_a_million_columns_is_refused_quickly(bounded: Any) -> None:
    data = b"Name" + b"," * 1_000_000 + b"x\nJana\n"
    assert refused(data, bounded, "e.csv") == "The file has more than 200 columns."


# --- the pages -------------------------------------------------------------------------------


LONG_ROW = b'<row r="2"><c r="B2" t="inlineStr"><is><t>' + b"x" * 200_000 + b"</t></is></c></row>"


def upload(client: Client, cz: Any, name: str, data: bytes) -> Any:
    file = io.BytesIO(data)
    file.name = name
    url = reverse("imports:entrants_upload", kwargs={"slug": cz.slug})
    return client.post(url, {"entrants-file": file})


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        (
            "entrants.xlsx",
            workbook(sheet(HEADER + b'<row r="2">' + b"<c><v>1</v></c>" * 5_000_000 + b"</row>")),
            "unpack to at most 40 MB",
        ),
        (
            "entrants.xlsx",
            workbook(sheet(HEADER + LONG_ROW)),
            "holds more than 10,000 characters",
        ),
        ("entrants.csv", b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)) * 8, "binary data"),
        ("entrants.csv", b"Name,Surname\n" + b"x" * 2_200_000, "Podium reads files of up to 2 MB"),
    ],
    ids=["5M-cells", "200k-string", "binary", "over-2MB"],
)  # fmt: skip
def test_the_entrants_page_refuses_with_the_reason_and_keeps_nothing(
    cz: Any, name: str, data: bytes, said: str, bounded: Any
) -> None:
    client = signed_in(cz.roles.get(role="organizer").user)
    # Warmed up (URLs, templates) so that the time measured is the upload's own.
    assert client.get(reverse("imports:index", kwargs={"slug": cz.slug})).status_code == 200
    before = counts()
    response = bounded(lambda: upload(client, cz, name, data))
    assert response.status_code == 400
    assert said in response.content.decode()
    assert counts() == before
    assert "podium.imports" not in client.session


def test_the_dimension_workbook_goes_through_to_the_mapping(cz: Any, bounded: Any) -> None:
    client = signed_in(cz.roles.get(role="organizer").user)
    data = workbook(second=sheet(b"", b'<dimension ref="A1:XFD1048576"/>'))
    response = bounded(lambda: upload(client, cz, "entrants.xlsx", data), seconds=1.0)
    assert response.status_code == 302


# --- ChGK rating JSON ------------------------------------------------------------------------


@pytest.fixture
def club(make_event: Any, make_user: Any) -> Any:
    from podium.web.models import Round

    event = make_event("deti-kolomny", slug="kolomna", organizer=make_user("boss"))
    Round.objects.create(event=event, stage="chgk-tour", number=1, starts_at=event.starts_at)
    return event


def chgk(client: Client, club: Any, data: bytes) -> Any:
    file = io.BytesIO(data)
    file.name = "results.json"
    url = reverse("imports:chgk_upload", kwargs={"slug": club.slug})
    return client.post(url, {"chgk-target": "chgk-tour:1", "chgk-file": file})


TEAM = {"team": {"id": 1, "name": "Sovy"}, "mask": "110", "questionsTotal": 2, "position": 1}


@pytest.mark.parametrize(
    ("team", "said"),
    [
        (
            {**TEAM, "team": None, "current": "abc"},
            "[0].current: expected an object, found &quot;abc&quot;.",
        ),
        ({**TEAM, "teamMembers": 5}, "[0].teamMembers: expected a list, found 5."),
        (
            {**TEAM, "teamMembers": [{"player": "Ivanov"}]},
            "[0].teamMembers[0].player: expected an object",
        ),
        ({**TEAM, "teamMembers": ["Ivanov"]}, "[0].teamMembers[0]: expected an object"),
    ],
    ids=["current-text", "members-number", "player-text", "member-text"],
)  # fmt: skip
def test_the_chgk_import_refuses_a_wrong_type_by_its_path(
    club: Any, team: dict[str, Any], said: str, bounded: Any
) -> None:
    client = signed_in(club.roles.get(role="organizer").user)
    before = counts()
    response = bounded(lambda: chgk(client, club, json.dumps([team]).encode()))
    assert response.status_code == 400
    assert said in response.content.decode()
    assert counts() == before


def test_the_chgk_import_refuses_arrays_nested_200000_deep(club: Any, bounded: Any) -> None:
    client = signed_in(club.roles.get(role="organizer").user)
    before = counts()
    data = b"[" * 200_000 + b"]" * 200_000
    response = bounded(lambda: chgk(client, club, data))
    assert response.status_code == 400
    assert (
        "The file nests arrays and objects more than 32 levels deep; the rating site's results "
        "nest four. Podium refuses it unread."
    ) in response.content.decode().replace("&#x27;", "'")
    assert counts() == before


def test_numbers_out_of_range_are_problems_of_the_team_not_a_500(club: Any) -> None:
    client = signed_in(club.roles.get(role="organizer").user)
    team = {**TEAM, "questionsTotal": 10**30, "position": 1e300}
    response = chgk(client, club, json.dumps([team]).encode())
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code in (200, 400)
    html = page.content.decode()
    assert "questionsTotal is not a whole number" in html
    assert "position is not a number" in html


@pytest.mark.parametrize(
    ("team", "said", "code"),
    [
        ({**TEAM, "team": {"id": 1, "name": "So\x00vy"}}, "name", "U+0000"),
        ({**TEAM, "team": {"id": 1, "name": "\u202eSovy"}}, "name", "U+202E"),
        ({**TEAM, "mask": "1\x000"}, "mask", "U+0000"),
        (
            {**TEAM, "teamMembers": [{"player": {"id": 7, "name": "Iv\x00an", "surname": "Ov"}}]},
            "[0].teamMembers[0].player.name",
            "U+0000",
        ),
    ],
    ids=["nul-in-name", "override-in-name", "nul-in-mask", "nul-in-player"],
)
def test_the_chgk_import_refuses_control_characters_and_stores_nothing(
    club: Any, team: dict[str, Any], said: str, code: str, bounded: Any
) -> None:
    """PostgreSQL cannot store a NUL in text or JSON: a clear refusal, never a 500."""
    client = signed_in(club.roles.get(role="organizer").user)
    before = counts()
    data = json.dumps([team]).encode()
    assert bounded(lambda: chgk(client, club, data)).status_code == 302
    response = chgk(client, club, data)  # measured twice above: each upload replaces the last
    preview = client.get(response["Location"])
    assert f"{said}: The character {code} (at position" in preview.content.decode()
    refused = client.post(response["Location"])
    assert refused.status_code in (200, 400)
    assert counts() == before
