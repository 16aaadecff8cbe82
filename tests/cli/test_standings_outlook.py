"""`podium standings … --outlook [--remaining N]` and `--why A,B` (DESIGN §3)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from podium.cli.main import app

ROUND = """id,name,country,group,time,pieces
1,Alice,CZ,A,0:40:00,
2,Bob,CZ,A,0:45:00,
3,Cyril,DE,A,,200
4,Dana,CZ,A,,300
"""

SEASON = """id,name,tour,questions
A,Team A,1,10
B,Team B,1,8
C,Team C,1,8
D,Team D,1,5
A,Team A,2,5
B,Team B,2,9
C,Team C,2,9
D,Team D,2,10
"""


def run(tmp_path: Path, text: str, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "results.csv"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["standings", *args[:1], str(path), *args[1:]])
    return result.exit_code, result.stdout, result.stderr


def test_every_row_carries_its_outlook(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, ROUND, "cz-jigsaw", "--stage", "individual-qualification",
                         "--outlook", "--format", "json")  # fmt: skip
    assert code == 0, err
    rows = {r["id"]: r for r in json.loads(out)["tables"][0]["rows"]}
    # The clock is Bob's 0:45:00: Cyril and Dana can still tie him, or finish last.
    got = {i: (r["outlook"]["best"], r["outlook"]["worst"], r["outlook"]["advances"])
           for i, r in rows.items()}  # fmt: skip
    assert got == {
        "1": (1, 1, "certain"),
        "2": (2, 2, "certain"),
        "3": (2, 4, "certain"),
        "4": (2, 4, "certain"),
    }
    reasons = rows["3"]["outlook"]["reasons"]
    assert reasons[0]["text"] == "Can still finish anywhere from 2nd–4th"
    assert all(r["clause"] for r in reasons)
    assert rows["3"]["rank"] == 4  # the standings themselves are unchanged


def test_a_season_with_tours_left_says_its_places_are_bounds(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, SEASON, "deti-kolomny", "--stage", "chgk-season", "--outlook",
                         "--remaining", "1", "--format", "json")  # fmt: skip
    assert code == 0, err
    rows = {r["id"]: r["outlook"] for r in json.loads(out)["tables"][0]["rows"]}
    assert (rows["D"]["best"], rows["D"]["worst"], rows["D"]["advances"]) == (1, 4, None)
    assert rows["D"]["exact"] is False
    assert rows["D"]["needs"]["sure"] == "12 pts in the last tour"


def test_why_names_the_criterion_both_values_and_the_clause(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, ROUND, "cz-jigsaw", "--stage", "individual-qualification",
                         "--why", "2,1", "--format", "json")  # fmt: skip
    assert code == 0, err
    why = json.loads(out)["why"]
    assert why["above"] == "1"
    assert why["below"] == "2"
    assert why["criterion"] == "time"
    assert why["values"] == ["0:40:00", "0:45:00"]
    assert why["text"] == "Alice is ahead of Bob on time, 0:40:00 to 0:45:00"
    assert why["clause"]


def test_bad_outlook_options_exit_2_naming_the_option(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, ROUND, "cz-jigsaw", "--stage", "individual-qualification",
                         "--why", "1")  # fmt: skip
    assert (code, out) == (2, "")
    assert "--why: give two different entrant ids as A,B" in err
    code, out, err = run(tmp_path, ROUND, "cz-jigsaw", "--stage", "individual-qualification",
                         "--why", "1,9", "--format", "json")  # fmt: skip
    assert (code, out) == (2, "")
    assert "1 and 9 are not in one table of this stage" in err
    code, out, err = run(tmp_path, ROUND, "cz-jigsaw", "--stage", "individual-qualification",
                         "--remaining", "2")  # fmt: skip
    assert (code, out) == (2, "")
    assert "--remaining: only with --outlook" in err
