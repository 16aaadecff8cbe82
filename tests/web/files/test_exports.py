"""Standings exports: a round's table as CSV, XLSX and PDF — the same rows as the page, in the
language of the page they came from, visible to whom the page is (the lists are in
``test_exports_lists``).

Hand-worked (cz-jigsaw, individual qualification, group A; ranked by time, a non-finisher by
pieces after every finisher; only Czech entrants take official places; the quotas take 50
Czech and 5 foreign entrants per group, so everyone advances):
- #3 Hans Meier (DE) 1:00:00, #2 Bohdan Malý 1:02:03, #1 Anna Nová and #4 Dana Zelená
  1:10:00, #5 Eva Malá not finished, 415 pieces.
- Positions 1, 2, 3–4, 3–4, 5; official places —, 1, 2–3, 2–3, 4. Hans is outside the
  competition.
- In Excel, Bohdan's 1:02:03 is 3723 s / 86 400 s = 0.043090277… of a day, shown [h]:mm:ss.
- As of 20 June 2026 12:00 UTC = 14:00 in Prague: "preliminary · as of June 20, 2026, 2 p.m."

Real data (WJPC 2024, individual final, the first 12 rows, replayed as a cz-jigsaw group):
positions follow the official WJPC placements — P0003 and P0031 share 43:59, so both are 7th
(our 7–8) — and the only Czech entrant, P0369 (10th overall), is official place 1. Twelve rows
with their reasons fill two landscape pages: "page 1 of 2", "page 2 of 2".
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pypdfium2 as pdfium
import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from podium.web.models import Entry, Event, Round
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

QUALI = "individual-qualification"
WJPC = Path(__file__).resolve().parents[2] / "data/jigsaw/wjpc2024-individual.json"
NOON = dt.datetime(2026, 6, 20, 12, 0, tzinfo=dt.UTC)
BOM = b"\xef\xbb\xbf"


def at(h: int, m: int) -> dt.datetime:
    return dt.datetime(2026, 6, 20, h, m, tzinfo=dt.UTC)


def url(event: Event, fmt: str, stage: str = QUALI, round: int = 1) -> str:
    return reverse("exports:standings", args=[event.slug, stage, round, fmt])


def csv_rows(content: bytes) -> list[list[str]]:
    assert content.startswith(BOM), "Excel needs the byte-order mark to read UTF-8"
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"), newline="")))


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def record(event: Event, stage: str, who: Entry, cells: dict[str, str], people: Any) -> None:
    done = result_record(
        event=event, stage=stage, entry=who, cells=cells, by=people["referee"],
        idempotency_key=f"{stage}-{who.number}", now=at(10, who.number % 60),
    )  # fmt: skip
    result_confirm(result=done, by=people["head"], now=at(11, 0))


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> tuple[Event, Any]:
    event = make_event("cz-jigsaw", language="en", title="Czech Jigsaw 2026", venue="Praha")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    for number, name, country, cells in (
        (1, "Anna Nová", "CZ", {"time": "1:10:00"}),
        (2, "Bohdan Malý", "CZ", {"time": "1:02:03"}),
        (3, "Hans Meier", "DE", {"time": "1:00:00"}),
        (4, "Dana Zelená", "CZ", {"time": "1:10:00"}),
        (5, "Eva Malá", "CZ", {"pieces": "415"}),
    ):
        made = add_entry(event, number, name, country, category="individuals", group="A")
        record(event, QUALI, made, cells, people)
    return event, people


# --- Standings -------------------------------------------------------------------------------


def test_standings_csv_has_the_rows_of_the_page(cz: Any) -> None:
    event, people = cz
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    response = Client().get(url(event, "csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="cz-jigsaw-individual-qualification-1.csv"'
    )
    assert b"\r\n" in response.content
    assert b";" not in response.content.split(b"\r\n")[0]
    rows = csv_rows(response.content)
    assert rows[0] == ["Place", "Position", "No.", "Name", "Score", "Marks", "Why"]
    assert [r[:6] for r in rows[1:]] == [
        ["", "1", "3", "Hans Meier", "1:00:00", "advances, outside the competition"],
        ["1", "2", "2", "Bohdan Malý", "1:02:03", "advances"],
        ["2–3", "3–4", "1", "Anna Nová", "1:10:00", "advances"],
        ["2–3", "3–4", "4", "Dana Zelená", "1:10:00", "advances"],
        ["4", "5", "5", "Eva Malá", "415 pcs", "advances"],
    ]
    hans_why = rows[1][6].split("\n")
    assert hans_why[0].startswith("Outside the competition: registered in DE, not CZ — “O titul")
    eva_why = rows[5][6].split("\n")
    assert eva_why[0] == (
        "Below Dana Zelená on finish: not finished against finished — “Výsledné skóre se určuje "
        "podle počtu složených dílků a času dokončení.”"
    )
    assert eva_why[1] == (
        "Not finished: 415 pieces counted (in joined groups of at least 3) — “počítají se pouze "
        "skupiny minimálně 3 dílků”"
    )
    assert eva_why[2].startswith("Advances: 4th of the 50 places for Czech entrants in group A")


def _export_link(page: str, fmt: str) -> str:
    found = re.search(rf'href="([^"]*/standings/[^"]*\.{fmt})"', page)
    assert found, f"no {fmt} link on the page"
    return found.group(1)


def test_standings_files_speak_the_language_of_the_page_they_came_from(cz: Any) -> None:
    """A Czech event: its standings page read in Czech, Russian and English gives files in
    that language (the event's own language does not matter)."""
    event, people = cz
    Event.objects.filter(pk=event.pk).update(language="cs")
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    page = visitor.get(f"/cs/standings/{event.slug}/{QUALI}/").content.decode()
    link = _export_link(page, "csv")
    assert link == f"/cs/export/{event.slug}/standings/{QUALI}/1.csv"
    rows = csv_rows(visitor.get(link).content)
    assert rows[0] == ["Umístění", "Pozice", "Č.", "Jméno", "Výsledek", "Poznámky", "Proč"]
    assert rows[1][5] == "postupuje, mimo soutěž"
    hans_why = rows[1][6].split("\n")
    assert hans_why[0].startswith("Mimo soutěž: země registrace DE, nikoli CZ — “O titul")
    assert "Postupuje: 1. místo z 5 (zahraniční účastníci ve skupině A)" in rows[1][6]

    page = visitor.get(f"/ru/standings/{event.slug}/{QUALI}/").content.decode()
    book = openpyxl.load_workbook(io.BytesIO(visitor.get(_export_link(page, "xlsx")).content))
    assert [c.value for c in book.worksheets[0][1]][:4] == ["Место", "Позиция", "№", "Название"]

    # The English page (the browser says English; the address no language): English files.
    page = visitor.get(f"/standings/{event.slug}/{QUALI}/").content.decode()
    assert '<html lang="en">' in page
    rows = csv_rows(visitor.get(_export_link(page, "csv")).content)
    assert rows[0] == ["Place", "Position", "No.", "Name", "Score", "Marks", "Why"]
    pdf = PdfReader(io.BytesIO(visitor.get(_export_link(page, "pdf")).content))
    assert "preliminary · as of" in pdf.pages[0].extract_text()


def test_standings_xlsx_reads_back_typed(cz: Any) -> None:
    event, people = cz
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    response = Client().get(url(event, "xlsx"))
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('-individual-qualification-1.xlsx"')
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Group A"]
    ws = book["Group A"]
    assert ws.freeze_panes == "A2"
    assert [c.value for c in ws[1]] == ["Place", "Position", "No.", "Name", "Score", "Marks", "Why"]
    assert all(c.font.b for c in ws[1])
    place, position, number, name, score = (c for c in ws[3][:5])  # Bohdan
    assert (place.value, position.value, number.value, name.value) == (1, 2, 2, "Bohdan Malý")
    assert score.number_format == "[h]:mm:ss"
    assert score.value == dt.timedelta(hours=1, minutes=2, seconds=3)
    assert score.value.total_seconds() / 86400 == pytest.approx(0.04309027777)
    assert ws["A2"].value is None  # Hans: no official place
    assert ws["A4"].value == "2–3"
    assert ws["B4"].value == "3–4"
    assert ws["E6"].value == "415 pcs"
    assert ws["G2"].alignment.wrap_text
    widths = {k: d.width for k, d in ws.column_dimensions.items()}
    assert widths["D"] >= len("Dana Zelená")
    assert widths["G"] > widths["D"]
    # Stored as Excel stores a time: a number, the fraction of a day.
    with zipfile.ZipFile(io.BytesIO(response.content)) as xlsx:
        sheet = xlsx.read("xl/worksheets/sheet1.xml").decode()
    stored = re.search(r'<c r="E3"[^>]*><v>([^<]+)</v>', sheet)
    assert stored
    assert float(stored.group(1)) == pytest.approx(3723 / 86400)
    assert book.properties.subject == "preliminary"


def test_standings_pdf_names_in_order_with_state_on_every_page(
    make_event: Any, staff: Any, add_entry: Any, monkeypatch: Any
) -> None:
    event = make_event("cz-jigsaw", language="en", title="WJPC 2024 replay")
    people = staff(event, organizer="olga", referee="rudolf", head="renata")
    codes = {"Norway": "NO", "Poland": "PL", "USA": "US", "Germany": "DE", "Hungary": "HU",
             "Spain": "ES", "Australia": "AU", "The Netherlands": "NL", "Czech Republic": "CZ",
             "Italy": "IT"}  # fmt: skip
    final = [r for r in json.loads(WJPC.read_text()) if r["competition"] == "individual_final"]
    for number, row in enumerate(final[:12], start=1):
        made = add_entry(
            event, number, row["competitor"], codes[row["country"]], category="individuals",
            group="A",
        )  # fmt: skip
        record(event, QUALI, made, {"time": row["result"].removeprefix("0")}, people)
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOON)

    response = Client().get(url(event, "pdf"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pages = pdf_pages(response.content)
    assert len(pages) == 3  # the table, its notes, then the charts on a page of their own
    for n, page in enumerate(pages, start=1):
        assert "preliminary · as of June 20, 2026, 2 p.m." in page
        assert f"page {n} of 3" in page
        assert "WJPC 2024 replay — Individuals — qualification" in page
    assert "Finish times" in pages[2]
    text = pages[0]
    found = [text.index(row["competitor"]) for row in final[:12]]
    assert found == sorted(found), "names in the order of the table"
    # The compact table: place, number, name, country, score, marks and the notes' numbers;
    # the Czech P0369 is official 1st; the reasons are notes on page 2, the two Germans
    # (5th and 12th) share note 12 "registered in DE, not CZ".
    assert "— 7 P0003 ES 0:43:59 outside the competition 18–21" in text
    assert "1. 10 P0369 CZ 0:44:30 advances 26, 27" in text
    assert "— 12 P0046 DE 0:45:10 outside the competition 12, 31, 32" in text
    assert "12 Outside the competition: registered in DE, not CZ [A]" in pages[1]
    assert "20 Shares places 7th–8th: equal on finish, time, pieces placed [B]" in pages[1]
    assert "[B] “Výsledné skóre se určuje podle počtu složených dílků a času" in pages[1]
    first_page = pdfium.PdfDocument(response.content)[0]
    assert tuple(round(x) for x in first_page.get_size()) == (595, 842)  # A4 portrait, points
    first_page.render(scale=1.5).to_pil().save("/tmp/podium-export-page.png")


def test_a_final_round_exports_its_frozen_version(cz: Any) -> None:
    event, people = cz
    for state, moment in (("preliminary", at(12, 0)), ("final", at(13, 30))):
        publication_set(event=event, stage=QUALI, state=state, by=people["organizer"], now=moment)
    pages = pdf_pages(Client().get(url(event, "pdf")).content)
    assert all("final (version 1) · as of June 20, 2026, 3:30 p.m." in p for p in pages)
    rows = csv_rows(Client().get(url(event, "csv")).content)
    assert [r[3] for r in rows[1:]] == [
        "Hans Meier", "Bohdan Malý", "Anna Nová", "Dana Zelená", "Eva Malá",
    ]  # fmt: skip
    book = openpyxl.load_workbook(io.BytesIO(Client().get(url(event, "xlsx")).content))
    assert book.properties.subject == "final (version 1)"


def test_a_draft_round_is_for_staff_only(cz: Any) -> None:
    event, people = cz
    public = Client()
    for fmt in ("csv", "xlsx", "pdf"):
        assert public.get(url(event, fmt)).status_code == 404
    referee = signed_in(people["referee"])
    response = referee.get(url(event, "pdf"))
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert all("draft · as of" in page for page in pages)
    assert len(csv_rows(referee.get(url(event, "csv")).content)) == 6
    # the links on the page: staff see them for the draft, the public once it is published
    page = referee.get(reverse("standings:stage", args=[event.slug, QUALI])).content.decode()
    assert f'href="{url(event, "xlsx")}"' in page
    page = public.get(reverse("standings:stage", args=[event.slug, QUALI])).content.decode()
    assert url(event, "xlsx") not in page
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    page = public.get(reverse("standings:stage", args=[event.slug, QUALI])).content.decode()
    assert f'href="{url(event, "pdf")}"' in page
    assert public.get(url(event, "csv")).status_code == 200


def test_unknown_stages_rounds_formats_and_draft_events_are_404(cz: Any, make_event: Any) -> None:
    event, people = cz
    publication_set(event=event, stage=QUALI, state="preliminary", by=people["organizer"])
    public = Client()
    assert public.get(url(event, "csv", stage="nope")).status_code == 404
    assert public.get(url(event, "csv", round=2)).status_code == 404  # one sitting only
    assert public.get(f"/export/{event.slug}/standings/{QUALI}/1.docx").status_code == 404
    Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
    assert public.get(url(event, "csv")).status_code == 404
    assert signed_in(people["organizer"]).get(url(event, "csv")).status_code == 200


# --- A round on the calendar, with points ----------------------------------------------------


def test_a_chgk_tour_exports_its_points(make_event: Any, staff: Any, add_entry: Any) -> None:
    """Deti-kolomny tour 1: Alfa 14, Beta 12, Gamma 10, Delta 8, Epsilon 5 questions → points
    12, 10, 8, 7, 6 for places 1–5 (whole points read as whole numbers)."""
    event = make_event("deti-kolomny", language="en", title="Deti Kolomny")
    people = staff(event, organizer="ilya", referee="roman", referee2="rita")
    for tour in (1, 2):
        Round.objects.create(
            event=event, stage="chgk-tour", number=tour, starts_at=at(16 + tour, 0)
        )
    names = ("Alfa", "Beta", "Gamma", "Delta", "Epsilon")
    for number, (name, taken) in enumerate(zip(names, (14, 12, 10, 8, 5), strict=True), 1):
        team = add_entry(event, number, name, "RU", category="teams")
        first = result_record(
            event=event, stage="chgk-tour", round=1, entry=team, cells={"questions": str(taken)},
            by=people["referee"], idempotency_key=f"t{number}", now=at(18, number),
        )  # fmt: skip
        second_entry_record(
            result=first, cells={"questions": str(taken)}, by=people["referee2"],
            idempotency_key=f"s{number}", now=at(18, number),
        )  # fmt: skip
    publication_set(
        event=event, stage="chgk-tour", round=1, state="preliminary", by=people["organizer"]
    )  # fmt: skip
    response = Client().get(url(event, "csv", stage="chgk-tour", round=1))
    assert response["Content-Disposition"] == 'attachment; filename="deti-kolomny-chgk-tour-1.csv"'
    rows = csv_rows(response.content)
    assert rows[0][:6] == ["Place", "Position", "No.", "Name", "Score", "Points"]
    assert [r[:6] for r in rows[1:]] == [
        ["1", "1", "1", "Alfa", "14 q", "12"],
        ["2", "2", "2", "Beta", "12 q", "10"],
        ["3", "3", "3", "Gamma", "10 q", "8"],
        ["4", "4", "4", "Delta", "8 q", "7"],
        ["5", "5", "5", "Epsilon", "5 q", "6"],
    ]
    ws = openpyxl.load_workbook(
        io.BytesIO(Client().get(url(event, "xlsx", stage="chgk-tour", round=1)).content)
    ).active
    assert [ws.cell(row=r, column=6).value for r in range(2, 7)] == [12, 10, 8, 7, 6]
    pages = pdf_pages(Client().get(url(event, "pdf", stage="chgk-tour", round=1)).content)
    assert "Deti Kolomny — ChGK tour — round 1" in pages[0]
    assert Client().get(url(event, "csv", stage="chgk-tour", round=2)).status_code == 404  # draft
    assert Client().get(url(event, "csv", stage="chgk-tour", round=3)).status_code == 404  # none
