"""``podium standings`` reads the rating site's ChGK table: its XLSX (tour blocks on one
worksheet, or a worksheet per tour) and its CSV export.

Hand-worked (deti-kolomny, one tour of 15 questions = the table's three tours of five):
Сфинкс 11010 1?010 11111 → 10 taken (question 7 written in: "А. Кристи", disputed), Авось
11111 11000 and no row in tour 3 → 7, И 01000 00000 10101 → 4. Places 1, 2, 3; tour points
12, 11, 10 (the preset's 12 for the first).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from podium.cli.main import app

MASKS = {
    "101": "110101?01011111",
    "103": "111111100000000",
    "102": "010000000010101",
}


def standings(tmp_path: Path, name: str, data: bytes) -> tuple[int, Any, str]:
    path = tmp_path / name
    path.write_bytes(data)
    done = CliRunner().invoke(
        app, ["standings", "deti-kolomny", str(path), "--stage", "chgk-tour", "--format", "json"]
    )
    return done.exit_code, json.loads(done.stdout) if done.exit_code == 0 else None, done.stderr


@pytest.mark.parametrize(
    ("layout", "name", "cell"),
    [
        ("blocks", "tournament.xlsx", "Sheet1!F7"),
        ("sheets", "tournament.xlsx", "'Тур 2'!F2"),
        ("csv", "tournament.csv", "row 7, column F"),
    ],
)
def test_the_rating_sites_table_ranks_the_tour(
    tmp_path: Path, rating_table: Any, layout: str, name: str, cell: str
) -> None:
    code, doc, err = standings(tmp_path, name, rating_table(layout))
    assert code == 0, err
    [table] = doc["tables"]
    rows = [(r["id"], r["name"], r["rank"], r["metrics"]["questions"]) for r in table["rows"]]
    assert rows == [("101", "Сфинкс", 1, 10), ("103", "Авось", 2, 7), ("102", "И", 3, 4)]
    assert err.splitlines() == [
        f"note: {cell}: the answer “А. Кристи” is written in; read as disputed (?)",
        "note: “Авось” has no marks in tour 3: read as not taken; the team keeps its place in "
        "the list",
    ]


@pytest.mark.parametrize(
    ("layout", "value", "said"),
    [
        ("blocks", "о", "Sheet1!G12: “о” is not a mark"),
        ("blocks", "BH", "Sheet1!G12: “BH” is not a mark"),
        ("sheets", "с", "'Тур 3'!G2: “с” is not a mark"),
        ("csv", "2", "row 12, column G: “2” is not a mark"),
    ],
)
def test_a_stray_mark_is_refused_by_its_cell(
    tmp_path: Path, rating_table: Any, layout: str, value: str, said: str
) -> None:
    name = "t.csv" if layout == "csv" else "t.xlsx"
    code, _doc, err = standings(tmp_path, name, rating_table(layout, {(3, 0, 2): value}))
    assert code == 2
    [line] = err.splitlines()
    assert line.startswith(f"error: {tmp_path / name}: {said}: write 1 (taken), 0 or nothing")


def test_a_workbook_that_is_no_rating_table_is_refused(tmp_path: Path) -> None:
    import io

    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["id", "name", "mask"])
    book.active.append([1, "A", "1" * 15])
    out = io.BytesIO()
    book.save(out)
    code, _doc, err = standings(tmp_path, "plain.xlsx", out.getvalue())
    assert code == 2
    assert "Podium reads a workbook only as the rating site's ChGK table" in err


def test_a_zip_bomb_named_xlsx_is_refused_quickly(tmp_path: Path, bounded: Any) -> None:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 30_000_000 + b"</a>")
    path = tmp_path / "bomb.xlsx"
    path.write_bytes(out.getvalue())

    def run() -> Any:
        return CliRunner().invoke(
            app, ["standings", "deti-kolomny", str(path), "--stage", "chgk-tour"]
        )

    done = bounded(run)
    assert done.exit_code == 2
    assert "unpacks" in done.stderr
    assert "zip bomb" in done.stderr


def test_a_workbook_of_too_many_cells_is_refused_quickly(
    tmp_path: Path, bounded: Any, huge_rating_book: Any
) -> None:
    path = tmp_path / "big.xlsx"
    path.write_bytes(huge_rating_book(6000))  # 240,000 cells: over the reader's 200,000

    def run() -> Any:
        return CliRunner().invoke(
            app, ["standings", "deti-kolomny", str(path), "--stage", "chgk-tour"]
        )

    done = bounded(run)
    assert done.exit_code == 2
    assert done.stderr == (
        f"error: {path}: The worksheet “Sheet1” has more than 200,000 cells (row 5001); Podium "
        "reads smaller tables. Delete the empty or unused cells.\n"
    )
