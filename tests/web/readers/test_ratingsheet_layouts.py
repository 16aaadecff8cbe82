"""The rating site's workbooks as venues really save them (issue 23), built here with openpyxl
in the site's layout: a title and a note line above the header, a legend typed under the
table, a blank row and a tour's title between the blocks, a team the site does not rate
(``-1``, or no number), the site's ``с`` for a disputed answer and a stray ``BH``.

Hand-worked (two tours of three questions):
- Лисы (1001) 1 1 0 | 1 с 1 → 4 taken, question 5 disputed;
- Совы (-1, unrated) 0 1 1 | 0 0 1 → 3 taken;
- Ежи (no number) 1 0 0 | BH 1 1 → 3 taken until question 4 is decided.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from typer.testing import CliRunner

from podium.cli.main import app
from podium.web.readers.tables import read_upload

HEADER = ["Team ID", "Название", "Город", "Тур"]


def venue_workbook() -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = "Sheet1"
    rows: list[list[Any]] = [
        ["Кубок Гармонии — синхрон"],  # row 1: the title
        ["Результаты предварительные"],  # row 2: a note line above the header
        [*HEADER, 1, 2, 3],  # row 3
        [1001, "Лисы", "Минск", 1, 1, 1, 0],
        [-1, "Совы", "Брест", 1, 0, 1, 1],
        [None, "Ежи", "Гродно", 1, 1, 0, 0],
        [],  # row 7: blank
        ["Тур 2"],  # row 8: the tour's title between the blocks
        [*HEADER, 4, 5, 6],  # row 9
        [1001, "Лисы", "Минск", 2, 1, "с", 1],
        [-1, "Совы", "Брест", 2, 0, 0, 1],
        [None, "Ежи", "Гродно", 2, "BH", 1, 1],
        [],
        ["1 - Зачтен АЖ"],  # row 14: the legend under the table
        ["0 - Отклонен АЖ"],
    ]
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_the_venues_workbook_reads_its_teams_and_keeps_the_rest_as_notes() -> None:
    sheet = read_upload("venue.xlsx", venue_workbook(), rating=True)
    assert [cells for _n, cells in sheet.rows] == [
        ("", "Лисы", "1101?1"),
        ("", "Совы", "011001"),
        ("", "Ежи", "100?11"),  # BH: Podium's reading (disputed) until the organizer decides
    ]
    assert list(sheet.table_notes) == [
        "Sheet1!A1: “Кубок Гармонии — синхрон” is no team: kept as a note",
        "Sheet1!A2: “Результаты предварительные” is no team: kept as a note",
        "Sheet1!A8: “Тур 2” is no team: kept as a note",
        "Sheet1!A14: “1 - Зачтен АЖ” is no team: kept as a note",
        "Sheet1!A15: “0 - Отклонен АЖ” is no team: kept as a note",
    ]
    assert sheet.cell_notes[4] == [
        "Sheet1!F10: “с” is the rating site's mark for a disputed answer; read as disputed (?)"
    ]
    assert [(s["row"], s["position"], s["message"]) for s in sheet.stray] == [
        (6, 3, "Sheet1!E12: “BH” is not a mark; Podium would read it as ? (disputed)"),
    ]


def test_the_command_line_reads_the_venues_workbook_when_told_how_to_read_the_stray_cell(
    tmp_path: Path,
) -> None:
    path = tmp_path / "venue.xlsx"
    path.write_bytes(venue_workbook())
    # The club's preset with a tour of 6 questions, as the venue's two tours of three.
    shown = CliRunner().invoke(app, ["rulebook", "show", "deti-kolomny"]).stdout
    rulebook = tmp_path / "six.yaml"
    rulebook.write_text(shown.replace("questions: 15", "questions: 6", 1), encoding="utf-8")
    args = ["standings", str(rulebook), str(path), "--stage", "chgk-tour", "--format", "csv"]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2
    assert "Sheet1!E12: “BH” is not a mark" in refused.stderr
    done = CliRunner().invoke(app, [*args, "--read-as-disputed"])
    assert done.exit_code == 0, done.stderr
    rows = {r["name"]: (r["rank"], r["rank_to"], r["score"], r["id"])
            for r in csv.DictReader(io.StringIO(done.stdout))}  # fmt: skip
    assert rows == {
        "Лисы": ("1", "1", "4 q", "1001"),
        "Совы": ("2", "3", "3 q", "2"),  # unrated: numbered by its place in the file
        "Ежи": ("2", "3", "3 q", "3"),
    }
    assert "note: Sheet1!A14: “1 - Зачтен АЖ” is no team: kept as a note" in done.stderr


def test_the_web_preview_shows_the_notes_and_asks_for_the_stray_cell(
    make_event: Any, make_user: Any, add_entry: Any
) -> None:
    from podium.web.files.services.imports import results_import, results_preview
    from podium.web.models import Result, Round

    boss = make_user("olga")
    event = make_event("deti-kolomny", organizer=boss)
    event.rulebook_text = event.rulebook_text.replace("questions: 15", "questions: 6", 1)
    event.save()
    Round.objects.get_or_create(event=event, stage="chgk-tour", number=1,
                                defaults={"starts_at": event.starts_at})  # fmt: skip
    for number, name in [(1, "Лисы"), (2, "Совы"), (3, "Ежи")]:
        add_entry(event, number, name, category="teams")
    sheet = read_upload("venue.xlsx", venue_workbook(), rating=True)
    plan = results_preview(event=event, stage="chgk-tour", round=1, sheet=sheet, by=boss)
    assert "Sheet1!A14: “1 - Зачтен АЖ” is no team: kept as a note" in plan.notes
    assert [i.message for i in plan.issues] == [
        "Sheet1!E12: “BH” is not a mark; Podium would read it as ? (disputed): decide how to "
        "read it"
    ]
    results_import(event=event, stage="chgk-tour", round=1, sheet=sheet, by=boss, token="v",
                   decisions={0: "0"})  # fmt: skip
    masks = {r.entry.name: r.cells["mask"] for r in Result.objects.select_related("entry")}
    assert masks == {"Лисы": "1101?1", "Совы": "011001", "Ежи": "100011"}
