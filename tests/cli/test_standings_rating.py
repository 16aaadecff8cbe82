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
    ("layout", "cells"),
    [
        ("blocks", ["Sheet1!G12: “о” is not a mark; Podium would read it as 0 (not taken)",
                    "Sheet1!E13: “BH” is not a mark; Podium would read it as ? (disputed)"]),
        ("sheets", ["'Тур 3'!G2: “о” is not a mark; Podium would read it as 0 (not taken)",
                    "'Тур 3'!E3: “BH” is not a mark; Podium would read it as ? (disputed)"]),
        ("csv", ["row 12, column G: “о” is not a mark; Podium would read it as 0 (not taken)",
                 "row 13, column E: “BH” is not a mark; Podium would read it as ? (disputed)"]),
    ],
)  # fmt: skip
def test_the_stray_cells_are_refused_all_in_one_message(
    tmp_path: Path, rating_table: Any, layout: str, cells: list[str]
) -> None:
    name = "t.csv" if layout == "csv" else "t.xlsx"
    data = rating_table(layout, {(3, 0, 2): "о", (3, 1, 0): "BH"})
    code, _doc, err = standings(tmp_path, name, data)
    assert code == 2
    assert err.splitlines() == [
        f"error: {tmp_path / name}: 2 cell(s) are neither marks nor answers: "
        f"{'; '.join(cells)}. Correct them, or give --read-as-disputed to read them all as "
        "disputed (?)"
    ]


def test_read_as_disputed_reads_every_stray_cell_as_disputed_with_a_note(
    tmp_path: Path, rating_table: Any
) -> None:
    """Сфинкс's question 13 (о) and И's 11 (BH) disputed: Сфинкс 9 taken, И 3; places stay."""
    path = tmp_path / "t.xlsx"
    path.write_bytes(rating_table("blocks", {(3, 0, 2): "о", (3, 1, 0): "BH"}))
    done = CliRunner().invoke(
        app, ["standings", "deti-kolomny", str(path), "--stage", "chgk-tour", "--format", "json",
              "--read-as-disputed"],
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    [table] = json.loads(done.stdout)["tables"]
    rows = [(r["name"], r["rank"], r["metrics"]["questions"]) for r in table["rows"]]
    assert rows == [("Сфинкс", 1, 9), ("Авось", 2, 7), ("И", 3, 3)]
    assert done.stderr.splitlines()[-2:] == [
        "note: Sheet1!G12: “о” read as disputed (?) (--read-as-disputed)",
        "note: Sheet1!E13: “BH” read as disputed (?) (--read-as-disputed)",
    ]


def test_the_sites_own_disputed_mark_is_read_as_disputed(tmp_path: Path, rating_table: Any) -> None:
    code, doc, err = standings(tmp_path, "t.xlsx", rating_table("sheets", {(3, 0, 2): "с"}))
    assert code == 0, err
    [table] = doc["tables"]
    assert [r["metrics"]["questions"] for r in table["rows"]] == [9, 7, 4]
    said = "“с” is the rating site's mark for a disputed answer; read as disputed (?)"
    assert f"note: 'Тур 3'!G2: {said}" in err.splitlines()


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
