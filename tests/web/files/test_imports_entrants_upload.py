"""Uploading an entrants sheet: files that cannot be read (broken, empty, too large, in an
encoding named so it can be saved again), and the pages an organizer goes through — upload,
mapping, preview and import. The import itself, row by row: ``test_imports_entrants``."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tests.web.files.test_imports_entrants import (
    CZECH,
    ITALIAN,
    issues,
    mapped,
    organizer,
    sheet,
)

from podium.web.files.services.imports import entrants_preview
from podium.web.models import Entry
from podium.web.readers.tables import MAX_ROWS, FileRefused, read_upload

# --- files that cannot be read ------------------------------------------------------------------


def refusal(name: str, data: bytes) -> str:
    with pytest.raises(FileRefused) as refused:
        read_upload(name, data)
    return refused.value.message


def test_broken_files_are_refused_clearly() -> None:
    assert refusal("entrants.xlsx", b"PK\x03\x04 this is no workbook") == (
        "This file is not an Excel workbook (.xlsx) that Podium can read (BadZipFile)."
    )
    assert refusal("entrants.xlsx", b"Name,Surname\n").startswith(
        "This file is not an Excel workbook (.xlsx)"
    )
    assert refusal("old.xls", b"\xd0\xcf\x11\xe0rest") == (
        "This is an old Excel workbook (.xls); save it as .xlsx or as CSV UTF-8."
    )
    assert refusal("empty.csv", b"") == "The file is empty."
    assert refusal("blank.csv", b" \n;;\n") == "The file is empty."
    assert refusal("header.csv", "Jméno;Příjmení\n".encode()) == (
        "The file has a header but no rows."
    )
    assert refusal("no-header.csv", "Jana;Nováková;1990-03-12;CZ\n".encode()) == (
        "The first row (row 1) holds values such as “1990-03-12”, not column names: the file "
        "needs a header row that names its columns."
    )
    huge = b"Name\n" + b"x" * (2 * 1024 * 1024)
    assert refusal("huge.csv", huge) == (
        "The file is 2.0 MB; Podium reads files of up to 2 MB. Split it."
    )
    many = "Name\n" + "x\n" * (MAX_ROWS + 1)
    assert refusal("many.csv", many.encode()) == (
        "The file has more than 5000 rows; split it into smaller files."
    )


def test_encodings_are_read_or_named() -> None:
    czech = read_upload("cz.csv", "Jméno;Příjmení\nJiří;Kovář\nRůžena;Němcová\n".encode("cp1250"))
    assert czech.rows == ((2, ("Jiří", "Kovář")), (3, ("Růžena", "Němcová")))
    assert "Windows-1250 (Central European)" in czech.note
    russian = read_upload("ru.csv", "Имя;Фамилия\nИван;Петров\n".encode("cp1251"))
    assert russian.rows == ((2, ("Иван", "Петров")),)
    assert "Windows-1251 (Cyrillic)" in russian.note
    assert read_upload("bom.csv", "\ufeffName\nAnna\n".encode()).note == ""
    assert refusal("it.csv", "Nome;Città\nNiccolò;Forlì\n".encode("cp1252")) == (
        "The file is not UTF-8 text (byte 10); it seems to be Windows-1252 (Western European). "
        "Save it as CSV UTF-8 and upload it again."
    )


def test_cells_beyond_the_header_are_a_problem_of_their_row(cz: Any) -> None:
    data = sheet("Jméno;Příjmení;Narozen;Kategorie\nJana;Nováková;1990-01-01;Jednotlivci;extra\n")
    plan = entrants_preview(event=cz, sheet=data, mapping=mapped(cz, data), by=organizer(cz))
    assert issues(plan) == [(2, "", "1 cell is filled beyond the header's last column.")]


# --- the pages --------------------------------------------------------------------------------


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_upload_map_preview_and_import_on_the_pages(cz: Any) -> None:
    client = signed_in(organizer(cz))
    index = reverse("imports:index", kwargs={"slug": cz.slug})
    assert client.get(index).status_code == 200
    upload = io.BytesIO(CZECH.encode())
    upload.name = "prihlasky.csv"
    response = client.post(
        reverse("imports:entrants_upload", kwargs={"slug": cz.slug}), {"entrants-file": upload}
    )
    assert response.status_code == 302
    mapping_url = response["Location"]
    page = client.get(mapping_url)
    html = page.content.decode()
    assert page.status_code == 200
    # The guessed field is preselected for "Příjmení" (column 1).
    assert '<option value="m0_last_name" selected>' in html
    form = page.context["form"]
    data = {name: field.initial or "" for name, field in form.fields.items()}
    token = mapping_url.rstrip("/").rsplit("/", 1)[1]
    preview = client.post(
        reverse("imports:entrants_preview", kwargs={"slug": cz.slug, "token": token}), data
    )
    assert preview.status_code == 200
    assert preview.context["plan"].ok
    assert Entry.objects.count() == 0
    done = client.post(
        reverse("imports:entrants_import", kwargs={"slug": cz.slug, "token": token}), data
    )
    assert done.status_code == 302
    assert done["Location"] == reverse("registrations:index", kwargs={"slug": cz.slug})
    assert Entry.objects.count() == 2
    # The stash is gone: the same page again is not found, and nothing more is imported.
    again = client.post(
        reverse("imports:entrants_import", kwargs={"slug": cz.slug, "token": token}), data
    )
    assert again.status_code == 404
    assert Entry.objects.count() == 2


def test_a_bad_file_is_refused_on_the_upload_form(cz: Any) -> None:
    client = signed_in(organizer(cz))
    upload = io.BytesIO(b"PK\x03\x04 broken")
    upload.name = "entrants.xlsx"
    response = client.post(
        reverse("imports:entrants_upload", kwargs={"slug": cz.slug}), {"entrants-file": upload}
    )
    assert response.status_code == 400
    assert "not an Excel workbook" in response.content.decode()
    assert "podium.imports" not in client.session


def test_problems_are_shown_on_the_preview_page(party: Any) -> None:
    client = signed_in(organizer(party))
    upload = io.BytesIO(ITALIAN.encode())
    upload.name = "coppie.csv"
    response = client.post(
        reverse("imports:entrants_upload", kwargs={"slug": party.slug}), {"entrants-file": upload}
    )
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    form = client.get(response["Location"]).context["form"]
    data = {name: field.initial or "" for name, field in form.fields.items()}
    preview = client.post(
        reverse("imports:entrants_preview", kwargs={"slug": party.slug, "token": token}), data
    )
    html = preview.content.decode()
    # Today is after the Puzzle Party's registration closed: the service refuses row 2 too.
    assert "Nothing can be imported yet: 7 problems." in html
    assert "Registration closed on 2026-05-21." in html
    assert "“XX” is not a country" in html
    assert (
        reverse("imports:entrants_import", kwargs={"slug": party.slug, "token": token}) not in html
    )
    assert Entry.objects.count() == 0


def test_outsiders_get_404_and_visitors_log_in(cz: Any, make_user: Any) -> None:
    index = reverse("imports:index", kwargs={"slug": cz.slug})
    assert signed_in(make_user("mallory")).get(index).status_code == 404
    assert Client().get(index).status_code == 302
