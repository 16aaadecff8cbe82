"""The results file's ``status`` column (DESIGN §3, extended compatibly): an entrant marked
DNS, DNF or absent is listed in its table's ``absent`` list, never ranked, in JSON, CSV and the
table; a file without the column gives ``"absent": []``.

Hand-worked (cz-jigsaw, individual qualification, groups A and B): #1 Alice 1:02:03 and
#2 Bob 1:01:00 in A (Bob first), #3 Eva 0:59:59 in B; #4 Dana did not come to group A (the
no-show rule: the seat may be given away 10 minutes after the start), #5 Filip did not
finish in B (the rulebook is silent: Podium's default).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from podium.cli.main import app

RESULTS = """id,name,country,group,time,missing,pieces,status
1,Alice,CZ,A,1:02:03,,,
2,Bob,SK,A,1:01:00,,,
3,Eva,CZ,B,0:59:59,,,
4,Dana,CZ,A,,,,absent
5,Filip,DE,B,,,,DNF
"""
NO_SHOW = (
    "Organizátor může přidělit místo jinému účastníkovi, pokud se soutěžící nedostaví do 10 "
    "minut po zahájení kola. V takovém případě nevzniká nárok na vrácení startovného."
)


def standings(tmp_path: Path, fmt: str, text: str = RESULTS) -> str:
    path = tmp_path / "results.csv"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        app,
        ["standings", "cz-jigsaw", str(path), "--stage", "individual-qualification",
         "--format", fmt],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_json_lists_the_absent_at_the_foot_of_their_groups(tmp_path: Path) -> None:
    tables = {t["key"]: t for t in json.loads(standings(tmp_path, "json"))["tables"]}
    assert [(r["id"], r["rank"]) for r in tables["A"]["rows"]] == [("2", 1), ("1", 2)]
    assert [(r["id"], r["rank"]) for r in tables["B"]["rows"]] == [("3", 1)]
    assert tables["A"]["absent"] == [
        {"id": "4", "name": "Dana", "table": "A", "status": "absent", "reasons": [
            {"clause": NO_SHOW, "text": "Did not come: no place and no points; the seat may be "
             "given to someone else 10 minutes after the start"}]},
    ]  # fmt: skip
    assert tables["B"]["absent"] == [
        {"id": "5", "name": "Filip", "table": "B", "status": "dnf", "reasons": [
            {"clause": None, "text": "Did not finish: no place and no points (no clause: "
             "Podium's default)"}]},
    ]  # fmt: skip


def test_without_the_column_every_table_has_an_empty_absent_list(tmp_path: Path) -> None:
    text = "\n".join(",".join(line.split(",")[:7]) for line in RESULTS.splitlines()[:4])
    tables = json.loads(standings(tmp_path, "json", text + "\n"))["tables"]
    assert [t["absent"] for t in tables] == [[], []]


def test_csv_and_table_list_them_without_a_place(tmp_path: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(standings(tmp_path, "csv"))))
    assert [(r["table"], r["id"], r["rank"], r["score"]) for r in rows] == [
        ("A", "2", "1", "1:01:00"), ("A", "1", "2", "1:02:03"), ("A", "4", "", "absent"),
        ("B", "3", "1", "0:59:59"), ("B", "5", "", "dnf"),
    ]  # fmt: skip
    table = standings(tmp_path, "table")
    assert "Dana (4)" in table
    assert "did not finish" in table


def test_an_unknown_status_exits_2_naming_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_text(RESULTS.replace("DNF", "gone"), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["standings", "cz-jigsaw", str(path), "--stage", "individual-qualification"]
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "row 6, column status" in result.stderr
