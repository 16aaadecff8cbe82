"""The web results import reads the rating site's ChGK table (``podium.web.readers.ratingsheet``):
both workbook layouts and the CSV export, teams found by name, a note per written-in answer, a
stray mark refused by its cell with nothing recorded, and hostile sizes refused quickly.

Hand-worked (deti-kolomny, one tour of 15 questions = the table's three tours of five; see
``rating_table`` in ``tests/conftest.py``): Сфинкс 10 taken (question 7 written in, "А.
Кристи", disputed), Авось 7 (no row in tour 3), И 4 → places 1, 2, 3.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.files.services.imports import ImportRefused, results_import, results_preview
from podium.web.models import AuditEntry, Result, Round
from podium.web.readers.ratingsheet import RatingSheetRefused, read_tables
from podium.web.readers.tables import FileRefused, read_upload
from podium.web.results.selectors.rows import standings_as_of

TOUR = "chgk-tour"
NOTE = "the answer “А. Кристи” is written in; read as disputed (?)"
STRAY = "is not a mark; Podium would read it as "
UNSCORED = "“Авось” has no marks in tour 3: read as not taken; the team keeps its place in the list"


@pytest.fixture
def club(make_event: Any, make_user: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny", organizer=make_user("olga"))
    Round.objects.get_or_create(event=event, stage=TOUR, number=1,
                                defaults={"starts_at": event.starts_at})  # fmt: skip
    for number, name in [(1, "Сфинкс"), (2, "авось"), (3, "И")]:
        add_entry(event, number, name, category="teams")
    return event


def boss(event: Any) -> Any:
    return event.roles.get(role="organizer").user


def table(event: Any) -> list[tuple[int, str, int, int]]:
    [t] = standings_as_of(event, TOUR, 1).tables
    return [(int(r.entry.id), r.entry.name, r.rank, r.entry.metrics["questions"]) for r in t.rows]


@pytest.mark.parametrize(
    ("layout", "name", "cell", "row"),
    [
        ("blocks", "tournament.xlsx", "Sheet1!F7", 2),
        ("sheets", "tournament.xlsx", "'Тур 2'!F2", 2),
        ("csv", "tournament.csv", "row 7, column F", 2),
    ],
)
def test_the_rating_sites_table_is_previewed_and_imported(
    club: Any, rating_table: Any, layout: str, name: str, cell: str, row: int
) -> None:
    sheet = read_upload(name, rating_table(layout), rating=True)
    assert sheet.note == (
        "Read as the rating site's ChGK table: 3 teams, 3 tours, 15 questions; teams are found "
        "by their names."
    )
    plan = results_preview(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club))
    assert plan.ok, [(i.row, i.column, i.message) for i in plan.issues]
    assert [(r.subject, r.cells["mask"], r.notes) for r in plan.rows] == [
        ("#1 Сфинкс", "110101?01011111", [f"{cell}: {NOTE}"]),
        ("#3 И", "010000000010101", []),
        ("#2 авось", "111111100000000", [UNSCORED]),  # names match in any case
    ]
    assert plan.rows[0].row == row
    results_import(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club), token="r")
    assert table(club) == [(1, "Сфинкс", 1, 10), (2, "авось", 2, 7), (3, "И", 3, 4)]
    assert Result.objects.count() == 3


def test_a_team_not_in_the_event_is_named_and_nothing_is_recorded(
    club: Any, rating_table: Any
) -> None:
    club.entries.filter(number=3).delete()
    sheet = read_upload("t.xlsx", rating_table("blocks"), rating=True)
    plan = results_preview(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club))
    assert [(i.row, i.column, i.message) for i in plan.issues] == [
        (3, "name", "“И” is not a team of ChGK tour: register it first"),
    ]
    with pytest.raises(ImportRefused):
        results_import(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club), token="x")
    assert (Result.objects.count(), AuditEntry.objects.count()) == (0, 0)


@pytest.mark.parametrize(
    ("layout", "change", "said"),
    [
        ("blocks", {(3, 0, 2): "о"}, f"Sheet1!G12: “о” {STRAY}0 (not taken)"),
        ("sheets", {(2, 2, 4): "BH"}, f"'Тур 2'!I4: “BH” {STRAY}? (disputed)"),
        ("csv", {(3, 1, 0): "0,5"}, f"row 13, column E: “0,5” {STRAY}? (disputed)"),
    ],
)
def test_a_stray_mark_waits_for_the_organizers_decision(
    club: Any, rating_table: Any, layout: str, change: Any, said: str
) -> None:
    name = "t.csv" if layout == "csv" else "t.xlsx"
    sheet = read_upload(name, rating_table(layout, change), rating=True)
    assert [s["message"] for s in sheet.stray] == [said]
    plan = results_preview(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club))
    assert [(i.column, i.message) for i in plan.issues] == [
        ("mask", f"{said}: decide how to read it")
    ]
    with pytest.raises(ImportRefused):
        results_import(event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club), token="x")
    assert (Result.objects.count(), AuditEntry.objects.count()) == (0, 0)


def test_the_organizers_decision_on_a_stray_cell_is_recorded_with_a_note(
    club: Any, rating_table: Any
) -> None:
    """Сфинкс's question 8 (tour 2, question 3) holds a Cyrillic о: decided as taken, it
    takes Сфинкс from 10 to 11 questions, and the result keeps the decision as a note."""
    sheet = read_upload("t.xlsx", rating_table("blocks", {(2, 0, 2): "о"}), rating=True)
    assert sheet.stray[0]["message"].startswith("Sheet1!G7: “о” is not a mark")
    plan = results_preview(
        event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club), decisions={0: "1"}
    )
    assert plan.ok
    said = "Sheet1!G7: “о” read as 1 (taken), as the organizer decided"
    assert plan.rows[0].notes == [f"Sheet1!F7: {NOTE}", said]
    assert plan.rows[0].cells["mask"] == "110101?11011111"
    results_import(
        event=club, stage=TOUR, round=1, sheet=sheet, by=boss(club), token="d", decisions={0: "1"}
    )
    assert table(club) == [(1, "Сфинкс", 1, 11), (2, "авось", 2, 7), (3, "И", 3, 4)]
    sphinx = Result.objects.get(entry__number=1)
    assert (sphinx.cells["mask"], sphinx.detail["notes"]) == ("110101?11011111", [said])
    assert Result.objects.get(entry__number=3).detail.get("notes") is None


def test_the_upload_page_reads_the_workbook_and_shows_the_notes(
    club: Any, rating_table: Any
) -> None:
    client = Client()
    client.force_login(boss(club))
    upload = io.BytesIO(rating_table("blocks"))
    upload.name = "9737-29-Oct-2023.xlsx"
    response = client.post(
        reverse("imports:results_upload", kwargs={"slug": club.slug}),
        {"results-target": f"{TOUR}:1", "results-file": upload},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    html = client.get(response["Location"]).content.decode()
    assert "not column names" not in html
    assert "Read as the rating site&#x27;s ChGK table: 3 teams, 3 tours, 15 questions" in html
    assert f"Sheet1!F7: {NOTE}".replace("(?)", "(?)") in html
    assert "Ready: 3 to record, 0 to correct, 0 unchanged; nothing is saved yet." in html


def test_a_table_of_too_many_cells_is_refused_quickly(bounded: Any, huge_rating_book: Any) -> None:
    data = huge_rating_book(6000)  # 240,000 cells: over the workbook's 200,000
    refused = bounded(lambda: read_upload("big.xlsx", data, rating=True))
    assert isinstance(refused, FileRefused)
    assert "has more than 200,000 cells" in refused.message


def test_a_table_of_too_many_rows_is_refused_quickly(bounded: Any, huge_rating_book: Any) -> None:
    data = huge_rating_book(5001, width=10)
    refused = bounded(lambda: read_upload("big.xlsx", data, rating=True))
    assert isinstance(refused, FileRefused)
    assert refused.message == "The table “Sheet1” has more than 5000 rows; split it."


def test_a_csv_of_too_many_rows_is_refused_quickly(bounded: Any) -> None:
    row = "1;A;B;1;" + ";".join("1" * 10) + "\n"
    data = ("Team ID;Название;Город;Тур;" + ";".join(map(str, range(1, 11))) + "\n").encode()
    data += (row * 6000).encode()
    refused = bounded(lambda: read_upload("big.csv", data, rating=True))
    assert isinstance(refused, FileRefused)
    assert refused.message == "The table “CSV” has more than 5000 rows; split it."


VENUE_RESULTS = Path(__file__).resolve().parents[2] / "data" / "chgk" / "venue-results"


def _venue_tables(sheet: dict[str, Any]) -> list[tuple[str, list[tuple[int, list[str]]]]]:
    """A real venue sheet's cells laid out again as the rating site's blocks: tours of 12
    questions (one tour when the count is not a multiple of 12), one row per team and tour."""
    questions = sheet["questions"]
    size = 12 if questions % 12 == 0 else questions
    rows: list[tuple[int, list[str]]] = []
    for tour in range(questions // size):
        numbers = range(tour * size + 1, (tour + 1) * size + 1)
        rows.append((len(rows) + 1, ["Team ID", "Название", "Город", "Тур", *map(str, numbers)]))
        for team in sheet["teams"]:
            cells = [team["raw_cells"].get(str(n), "") for n in numbers]
            rows.append((len(rows) + 1, [str(team["team_id"]), team["name"], "", str(tour + 1),
                                         *cells]))  # fmt: skip
    return [("Sheet1", rows)]


def test_the_real_venue_sheets_read_as_their_masks_with_every_stray_cell_listed() -> None:
    """The 42 real sheets (tests/data/chgk/venue-results) came from the rating site's
    workbooks: read again from their cells, every team's mask is the sheet's, with ``?`` where
    an answer is written in or the site's ``с`` (disputed) stands; the 4 cells that are
    neither marks nor answers (``о``, ``BH``, ``S``, ``9``) are all listed by their cells,
    none refusing its sheet."""
    stray: list[tuple[str, str]] = []
    for path in sorted(VENUE_RESULTS.glob("*.json")):
        sheet = json.loads(path.read_text(encoding="utf-8"))
        found = read_tables(_venue_tables(sheet))
        by_id = {t.rating_id: t for t in found.teams}
        lines = {t.line: t for t in found.teams}
        readings = {(s.line, s.position): s.reading for s in found.stray}
        stray += [(s.value, s.reading) for s in found.stray]
        assert all(s.where.startswith("Sheet1!") for s in found.stray)
        for team in sheet["teams"]:
            read = by_id[str(team["team_id"])]
            expected = list(team["mask"])
            for written in team["controversial_answers_in_cells"]:
                expected[written["question"] - 1] = "?"
            for number, cell in team["raw_cells"].items():
                if cell.strip() in ("с", "С"):
                    expected[int(number) - 1] = "?"
            for (line, position), reading in readings.items():
                if lines[line] is read:
                    expected[position] = reading
            assert read.mask == "".join(expected), path.name
    assert sorted(stray) == [("9", "?"), ("BH", "?"), ("S", "?"), ("о", "0")]


HEADER = ["Team ID", "Название", "Город", "Тур", "1", "2", "3"]


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (
            [["7", "Лисы", "", "1", "1", "0", "1"]],
            "Sheet1!A1: a team row before any header row (Team ID, Название, Город, Тур, 1 … n)",
        ),
        ([HEADER, ["7", "", "", "1", "1", "0", "1"]], "Sheet1!B2: the team has no name"),
        (
            [HEADER, ["7a", "Лисы", "", "1", "1", "0", "1"]],
            "Sheet1!A2: “7a” is not a team number of the rating site",
        ),
        (
            [HEADER, ["7", "Лисы", "", "1", "1", "0", "1"], ["7", "Лисы", "", "1", "1", "1", "1"]],
            "Sheet1!B3: “Лисы” has a second row for tour 1",
        ),
        (
            [
                HEADER,
                ["7", "Лисы", "", "1", "1", "0", "1"],
                HEADER[:-1],
                ["7", "Лисы", "", "1", "1", "0"],
            ],
            "Sheet1!D4: tour 1 has 2 questions here but 3 in an earlier block",
        ),
    ],
    ids=["no-header", "no-name", "bad-id", "twice", "tour-length"],
)
def test_a_table_that_cannot_be_read_is_refused_by_its_cell(
    rows: list[list[str]], said: str
) -> None:
    table = [(n, row) for n, row in enumerate(rows, start=1)]
    with pytest.raises(RatingSheetRefused) as refused:
        read_tables([("Sheet1", table)])
    assert refused.value.message.startswith(said)


def test_teams_without_a_rating_number_are_told_apart_by_name() -> None:
    table = [(1, HEADER), (2, ["", "Лисы", "", "1", "1", "x", "?"]), (3, ["", "Совы", "", "1"])]
    found = read_tables([("Sheet1", table)])
    assert [(t.line, t.name, t.mask) for t in found.teams] == [
        (2, "Лисы", "1X?"),
        (3, "Совы", "000"),
    ]
    assert found.teams[1].notes == [
        "“Совы” has no marks in tour 1: read as not taken; the team keeps its place in the list"
    ]


def test_the_preview_page_asks_for_each_stray_cell_and_imports_the_decision(
    club: Any, rating_table: Any
) -> None:
    client = Client()
    client.force_login(boss(club))
    upload = io.BytesIO(rating_table("blocks", {(2, 0, 2): "о"}))
    upload.name = "venue.xlsx"
    response = client.post(
        reverse("imports:results_upload", kwargs={"slug": club.slug}),
        {"results-target": f"{TOUR}:1", "results-file": upload},
    )
    preview = response["Location"]
    html = client.get(preview).content.decode()
    assert '<select id="stray-0" name="stray-0">' in html
    assert "Sheet1!G7: “о” is not a mark; Podium would read it as 0 (not taken)" in html
    assert "Import the results" not in html
    html = client.get(preview, {"stray-0": "1"}).content.decode()
    assert '<option value="1" selected>1 (taken)</option>' in html
    assert '<input type="hidden" name="stray-0" value="1">' in html
    token = preview.rstrip("/").rsplit("/", 1)[-1]
    done = client.post(
        reverse("imports:results_import", kwargs={"slug": club.slug, "token": token}),
        {"reason": "", "stray-0": "1"},
    )
    assert done.status_code == 302
    assert table(club) == [(1, "Сфинкс", 1, 11), (2, "авось", 2, 7), (3, "И", 3, 4)]
    assert Result.objects.get(entry__number=1).detail["notes"] == [
        "Sheet1!G7: “о” read as 1 (taken), as the organizer decided"
    ]
