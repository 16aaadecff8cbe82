"""The `podium standings` command-line contract (DESIGN §3)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from podium.cli.main import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ROW_FIELDS = {
    "id", "name", "rank", "rank_to", "official_rank", "official_rank_to", "points", "advances",
    "playoff", "reasons",
}  # fmt: skip


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str, name: str = "results.csv") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def standings_json(*args: str) -> dict:
    code, out, err = run("standings", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


QUALIFICATION = """id,name,country,group,time,missing,pieces
1,Alice,CZ,A,1:02:03,,
2,Bob,SK,A,1:01:00,2,
3,Cyril,CZ,A,,,420
4,Dana,CZ,A,1:02:03,0,
5,Eva,CZ,B,0:59:59,1,
6,Filip,DE,B,,,480
"""


def test_json_contract_for_jigsaw_qualification(tmp_path: Path) -> None:
    doc = standings_json(
        "cz-jigsaw", write(tmp_path, QUALIFICATION), "--stage", "individual-qualification"
    )
    assert doc["rulebook"] == "cz-jigsaw"
    assert doc["stage"] == "individual-qualification"
    assert [t["key"] for t in doc["tables"]] == ["A", "B"]
    group_a = {r["id"]: r for r in doc["tables"][0]["rows"]}
    assert [r["id"] for r in doc["tables"][0]["rows"]] == ["2", "1", "4", "3"]
    # Bob is foreign: overall first (1:01:00 + 2 × 10 s), no official place, a foreign spot.
    bob = group_a["2"]
    assert (bob["rank"], bob["rank_to"], bob["official_rank"]) == (1, 1, None)
    assert bob["advances"] is True
    assert bob["score"] == "1:01:20 (+20 s)"
    # Alice and Dana share 2nd–3rd overall and 1st–2nd officially.
    for entrant in ("1", "4"):
        row = group_a[entrant]
        assert (row["rank"], row["rank_to"]) == (2, 3)
        assert (row["official_rank"], row["official_rank_to"]) == (1, 2)
        assert row["points"] is None
        assert row["playoff"] is False
    cyril = group_a["3"]
    assert (cyril["rank"], cyril["official_rank"]) == (4, 3)
    assert cyril["score"] == "420 pcs"
    assert any("not finished" in r["text"] for r in cyril["reasons"])
    for row in group_a.values():
        assert row.keys() >= ROW_FIELDS
        assert all({"clause", "text"} == set(r) for r in row["reasons"])


def test_semicolon_columns_in_any_order_and_unknown_columns_ignored(tmp_path: Path) -> None:
    text = "pieces;time;note;id;group;country;name\n;0:59:59;fast;5;B;CZ;Eva\n480;;;6;B;DE;Filip\n"
    doc = standings_json("cz-jigsaw", write(tmp_path, text), "--stage", "individual-qualification")
    rows = doc["tables"][0]["rows"]
    assert [(r["id"], r["rank"], r["official_rank"]) for r in rows] == [("5", 1, 1), ("6", 2, None)]


def test_csv_and_table_formats(tmp_path: Path) -> None:
    path = write(tmp_path, QUALIFICATION)
    code, out, _ = run("standings", "cz-jigsaw", path, "--stage", "individual-qualification",
                       "--format", "csv")  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("table,rank,rank_to,official_rank,official_rank_to,id,name,score")
    assert lines[1].startswith("A,1,1,,,2,Bob,1:01:20 (+20 s),,yes,no,no,foreign,")
    code, out, _ = run("standings", "cz-jigsaw", path, "--stage", "individual-qualification")
    assert code == 0
    assert "group A" in out
    assert "Bob (2)" in out
    assert "outside" in out
    assert "✓ advances" in out


def test_csv_escapes_names_a_spreadsheet_would_run(tmp_path: Path) -> None:
    text = QUALIFICATION.replace("Alice", '"=HYPERLINK(""http://x"",""y"")"').replace(
        "Dana", "@SUM(A1)"
    )
    code, out, err = run("standings", "cz-jigsaw", write(tmp_path, text), "--stage",
                         "individual-qualification", "--format", "csv")  # fmt: skip
    assert code == 0, err
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["1"]["name"] == '\'=HYPERLINK("http://x","y")'
    assert rows["4"]["name"] == "'@SUM(A1)"
    assert rows["2"]["name"] == "Bob"
    # Podium's own figures stay as they are.
    assert (rows["1"]["rank"], rows["1"]["rank_to"], rows["1"]["score"]) == ("2", "3", "1:02:03")


def bad(tmp_path: Path, preset: str, stage: str, text: str | bytes) -> list[str]:
    path = tmp_path / "bad.csv"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    code, out, err = run("standings", preset, str(path), "--stage", stage)
    assert code == 2
    assert out == ""
    return err.splitlines()


HEAD = "id,name,country,group,time,missing,pieces\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (HEAD + "1,A,CZ,A,1:2,,\n", "row 2, column time: '1:2' is not a time"),
        (HEAD + "1,A,CZ,A,1:30:01,,\n", "row 2, column time: 1:30:01 is over the 90-minute limit"),
        (HEAD + "1,A,CZ,A,1:00:00,-1,\n", "row 2, column missing: -1 is negative"),
        (HEAD + "1,A,CZ,A,,,501\n", "row 2, column pieces: 501 is more than the 500"),
        (HEAD + "1,A,CZ,A,1:00:00,501,\n", "row 2, column missing: 501 is more than the 500"),
        (HEAD + "1,A,CZ,A,1:00:00,,\n1,B,CZ,A,1:00:01,,\n", "row 3, column id: duplicate id '1'"),
        (HEAD + "1,A,CZ,C,1:00:00,,\n", "row 2, column group: unknown group 'C'"),
        ("id,name,country,group\n1,A,CZ,A\n", "column time: missing required column"),
        ("", "the file is empty"),
        (b"id,name\n1,\xe9\n", "not UTF-8"),
    ],
)
def test_bad_jigsaw_input(tmp_path: Path, text: str | bytes, expected: str) -> None:
    lines = bad(tmp_path, "cz-jigsaw", "individual-qualification", text)
    assert any(expected in line for line in lines), lines


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    text = HEAD + "1,A,CZ,A,1:2,,\n2,B,CZ,Z,1:00:00,,\n2,C,XX1,A,,-3,\n"
    lines = bad(tmp_path, "cz-jigsaw", "individual-qualification", text)
    assert [line.split(":")[1].strip() for line in lines] == [
        "row 2, column time",
        "row 3, column group",
        "row 4, column id",
        "row 4, column country",
        "row 4, column missing",
        "row 4, column pieces",
    ]


BOWLING_HEAD = "id,name,gender,average,g1,g2,g3,g4,g5,g6\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (BOWLING_HEAD + "1,A,M,190,301,200,200,200,200,200\n", "row 2, column g1: 301 is more"),
        (BOWLING_HEAD + "1,A,X,190,200,200,200,200,200,200\n", "row 2, column gender: 'X'"),
        (
            "id,name,division,g1,g2,g3,g4,g5,g6\n1,A,elite,1,1,1,1,1,1\n",
            "row 2, column division: unknown division 'elite'",
        ),
    ],
)
def test_bad_bowling_input(tmp_path: Path, text: str, expected: str) -> None:
    lines = bad(tmp_path, "cba-qualifier", "qualification", text)
    assert any(expected in line for line in lines), lines


def test_unknown_stage_and_rulebook(tmp_path: Path) -> None:
    path = write(tmp_path, QUALIFICATION)
    code, out, err = run("standings", "cz-jigsaw", path, "--stage", "semifinal")
    assert (code, out) == (2, "")
    assert "unknown stage 'semifinal'" in err
    code, out, err = run("standings", "no-such-preset", path, "--stage", "x")
    assert (code, out) == (2, "")
    assert "not a preset name" in err


EXAMPLE_FILES = sorted(EXAMPLES.glob("*/*.csv"))


def test_examples_cover_every_stage_of_every_preset() -> None:
    from podium.rules.loader import PRESETS, load

    expected = {(p, s.key) for p in PRESETS for s in load(p).stages}
    assert {(f.parent.name, f.stem) for f in EXAMPLE_FILES} == expected


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_example_answers_the_contract(path: Path) -> None:
    doc = standings_json(path.parent.name, str(path), "--stage", path.stem)
    assert doc["tables"]
    for table in doc["tables"]:
        rows = table["rows"]
        assert rows
        ranks = [r["rank"] for r in rows]
        assert ranks == sorted(ranks)
        assert ranks[0] == 1
        for row in rows:
            assert row.keys() >= ROW_FIELDS
            assert row["rank"] <= row["rank_to"]
            assert (row["official_rank"] is None) == (row["official_rank_to"] is None)
            assert (row["official_rank"] is None) != row["official"]
            assert row["reasons"]


@pytest.mark.parametrize(
    ("stage", "text", "expected"),
    [
        ("chgk-tour", "id,name,mask\n1,A,1110\n", "row 2, column mask"),
        ("chgk-tour", "id,name,mask\n1,A,11101110111011Z\n", "row 2, column mask"),
        ("chgk-tour", "id,name,questions\n1,A,16\n", "row 2, column questions"),
        ("chgk-tour", "id,name,questions\n1,A,-2\n", "row 2, column questions"),
        (
            "brainball",
            "id,round,team1,team2,score1,score2\nb1,1,A,B,4,3\n",
            "row 2, column score2",
        ),
        ("superfinal", "id,discipline,A,B\n1,brainball,1,0\n", "row 2, column discipline"),
    ],
)
def test_bad_chgk_input(tmp_path: Path, stage: str, text: str, expected: str) -> None:
    lines = bad(tmp_path, "deti-kolomny", stage, text)
    assert any(expected in line for line in lines), lines


def test_chgk_tour_points_shared_to_the_thousandth(tmp_path: Path) -> None:
    """п. 11: teams sharing places share those places' points, to 0.001."""
    counts = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 6, 6]  # places 10–12 are shared by three
    text = "id,name,questions\n" + "".join(f"t{i},T{i},{q}\n" for i, q in enumerate(counts))
    doc = standings_json("deti-kolomny", write(tmp_path, text), "--stage", "chgk-tour")
    rows = {r["id"]: r for r in doc["tables"][0]["rows"]}
    assert [rows[f"t{i}"]["points"] for i in range(9)] == [12, 10, 8, 7, 6, 5, 4, 3, 2]
    for i in (9, 10, 11):
        assert rows[f"t{i}"]["points"] == 0.333
        assert (rows[f"t{i}"]["rank"], rows[f"t{i}"]["rank_to"]) == (10, 12)


def test_points_are_the_season_sum_and_the_match_points() -> None:
    """DESIGN §3: ``points`` holds the points the row stands on in every stage that sums them;
    a superfinal has none."""
    season = EXAMPLES / "deti-kolomny" / "chgk-season.csv"
    doc = standings_json("deti-kolomny", str(season), "--stage", "chgk-season")
    rows = doc["tables"][0]["rows"]
    assert rows
    assert all(r["points"] == float(r["metrics"]["points"]) for r in rows)
    assert [(r["id"], r["points"]) for r in rows[:3]] == [
        ("K02", 39.0),
        ("K01", 36.5),
        ("K04", 32.333),
    ]
    league = EXAMPLES / "deti-kolomny" / "brainball.csv"
    doc = standings_json("deti-kolomny", str(league), "--stage", "brainball")
    rows = doc["tables"][0]["rows"]
    assert all(r["points"] == float(r["metrics"]["match_points"]) for r in rows)
    assert [(r["id"], r["points"]) for r in rows] == [
        ("Ноев ковчег", 13.0),
        ("Дети Коломны", 13.0),
        ("Ультиматум", 10.0),
        ("Сфинкс", 10.0),
        ("Эрудиты", 9.0),
        ("Бесконечность", 5.0),
    ]
    final = EXAMPLES / "deti-kolomny" / "superfinal.csv"
    doc = standings_json("deti-kolomny", str(final), "--stage", "superfinal")
    assert {r["points"] for r in doc["tables"][0]["rows"]} == {None}
