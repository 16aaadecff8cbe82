"""Results from the command line's CSV: rows mapped to entries by ``id`` (the entry number), the
engine's problems per row and column in the preview, the round's table after the import, and
an import of all rows or none through ``result_record`` (or ``result_correct`` with a reason).

Hand-worked cases:
- cz-jigsaw, individual qualification (90 min, 500 pieces, 10 s per missing piece; groups A
  and B): #1 Jana 1:14:41 with 1 missing → 1:14:51, #3 Lucie 1:07:00 → group A: Lucie 1st, Jana
  2nd; #2 Petr 1:13:51 with 2 missing → 1:14:11, #4 Tomáš unfinished with 479 pieces → group B:
  Petr 1st, Tomáš 2nd (finishers rank before non-finishers).
- A file whose every row is wrong in its own way: #99 is no entry, "I001" is no entry number,
  #2 twice, a time "1:7x", missing "-1", 501 pieces of a 500-piece puzzle, #4 said to be in
  group A while it is in B. Nothing is recorded.
- #1 already has 1:20:00: the file's 1:14:41 is refused without a reason; with the reason
  "typo at the desk" it corrects it (the correction names the reason); a row equal to the
  current result is left alone.
- Brainball (2 points a win, 1 a draw): Sovy 4:2 Ezhi, Lisy 3:3 #4 Volki → Sovy 2, Lisy and
  Volki 1, Ezhi 0.
- Round trip (ČBA, six games): entrants and results exported from one event as CSV, imported
  into a fresh event, give the very same table: Miroslav Beneš 1028 and Petr Novotný 1016
  (standard men), Jan Dvořák 933 (amateur men, average 162.87), Eva Malá 1050 (standard
  women, 170.00), Jana Velká 990 (amateur women: not on the ladder).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from podium.engine.document import standings_data
from podium.web.files.fields import guess_mapping
from podium.web.files.services.imports import (
    ImportRefused,
    entrants_import,
    member_slots,
    results_import,
    results_preview,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Entry, Result
from podium.web.readers.tables import read_upload
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register
from podium.web.results.selectors.rows import current_results, stage_rows, standings_as_of
from podium.web.results.services.results import result_record

UTC = dt.UTC
QUALI = "individual-qualification"

GOOD = """id,name,country,group,time,missing,pieces
1,Jana Nováková,CZ,A,1:14:41,1,
2,Petr Horák,CZ,B,1:13:51,2,
3,Lucie Jelínková,CZ,A,1:07:00,0,
4,Tomáš Svoboda,CZ,B,,,479
"""
BAD = """id,name,group,time,missing,pieces
99,Nobody,A,1:10:00,0,
I001,Jana Nováková,A,1:14:41,1,
2,Petr Horák,B,1:7x,,
2,Petr Horák,B,1:13:51,2,
3,Lucie Jelínková,A,1:07:00,-1,
1,Jana Nováková,A,,,501
4,Tomáš Svoboda,A,,,479
"""


def sheet(text: str, name: str = "results.csv") -> Any:
    return read_upload(name, text.encode())


def problems(found: Any) -> list[tuple[int | None, str, str]]:
    return [(i.row, i.column, i.message) for i in found.issues]


def places(event: Any, stage: str, round: int = 1) -> dict[str, list[tuple[int, str, int]]]:
    """Table → [(entry number, name, place)] in the table's order."""
    standings = standings_as_of(event, stage, round)
    return {
        t.key: [(int(r.entry.id), r.entry.name, r.rank) for r in t.rows] for t in standings.tables
    }


@pytest.fixture
def jigsaw(make_event: Any, make_user: Any, add_entry: Any) -> Any:
    event = make_event("cz-jigsaw", organizer=make_user("olga"))
    for number, name, group in [
        (1, "Jana Nováková", "A"), (2, "Petr Horák", "B"), (3, "Lucie Jelínková", "A"),
        (4, "Tomáš Svoboda", "B"),
    ]:  # fmt: skip
        add_entry(event, number, name, category="individuals", group=group)
    return event


def boss(event: Any) -> Any:
    return event.roles.get(role="organizer").user


def test_a_good_file_is_previewed_then_recorded(jigsaw: Any) -> None:
    data = sheet(GOOD)
    plan = results_preview(event=jigsaw, stage=QUALI, round=1, sheet=data, by=boss(jigsaw))
    assert plan.ok, problems(plan)
    assert [(r.row, r.subject, r.action) for r in plan.rows] == [
        (2, "#1 Jana Nováková", "record"),
        (3, "#2 Petr Horák", "record"),
        (4, "#3 Lucie Jelínková", "record"),
        (5, "#4 Tomáš Svoboda", "record"),
    ]
    # The preview shows the table the import would make.
    shown = {
        t["key"]: [(r["number"], r["rank"], r["score"]) for r in t["rows"]] for t in plan.tables
    }
    assert shown == {
        "A": [("3", 1, "1:07:00"), ("1", 2, "1:14:51 (+10 s)")],
        "B": [("2", 1, "1:14:11 (+20 s)"), ("4", 2, "479 pcs")],
    }
    assert Result.objects.count() == 0
    assert AuditEntry.objects.count() == 0

    made = results_import(
        event=jigsaw, stage=QUALI, round=1, sheet=data, by=boss(jigsaw), token="t"
    )
    assert len(made) == 4
    assert places(jigsaw, QUALI) == {
        "A": [(3, "Lucie Jelínková", 1), (1, "Jana Nováková", 2)],
        "B": [(2, "Petr Horák", 1), (4, "Tomáš Svoboda", 2)],
    }
    jana = Result.objects.get(entry__number=1)
    assert jana.cells == {"time": "1:14:41", "missing": "1", "pieces": ""}
    assert (jana.idempotency_key, jana.detail) == (
        "import-t/2", {"entered": "import", "file": "results.csv"},
    )  # fmt: skip
    [done] = AuditEntry.objects.filter(action="results.import")
    assert (done.data["recorded"], done.data["token"]) == (4, "t")
    with pytest.raises(Refused, match="already imported"):
        results_import(event=jigsaw, stage=QUALI, round=1, sheet=data, by=boss(jigsaw), token="t")
    assert Result.objects.count() == 4


def test_every_problem_is_listed_and_nothing_is_recorded(jigsaw: Any) -> None:
    data = sheet(BAD)
    plan = results_preview(event=jigsaw, stage=QUALI, round=1, sheet=data, by=boss(jigsaw))
    assert problems(plan) == [
        (2, "id", "#99 is not in the entry list of Individuals — qualification"),
        (3, "id", "“I001” is not an entry number"),
        (4, "time", "'1:7x' is not a time: write H:MM:SS or M:SS"),
        (5, "id", "#2 is already on row 4"),
        (6, "missing", "-1 is negative: a number of pieces cannot be below 0"),
        (7, "pieces", "501 is more than the 500 this allows"),
        (8, "group", "the file says group A; #4 is in group B"),
    ]
    with pytest.raises(ImportRefused) as refused:
        results_import(event=jigsaw, stage=QUALI, round=1, sheet=data, by=boss(jigsaw), token="b")
    assert problems(refused.value) == problems(plan)
    assert Result.objects.count() == 0
    assert AuditEntry.objects.count() == 0


def test_the_engines_problems_read_in_the_organizers_language(jigsaw: Any) -> None:
    with translation.override("it"):
        plan = results_preview(
            event=jigsaw, stage=QUALI, round=1, sheet=sheet(BAD), by=boss(jigsaw)
        )
    found = {(row, column): text for row, column, text in problems(plan)}
    assert found[4, "time"] == "'1:7x' non è un tempo: scrivi H:MM:SS o M:SS"
    assert found[7, "pieces"].startswith("501")
    assert "is more than" not in found[7, "pieces"]


def test_a_file_without_the_stages_columns_or_an_id(jigsaw: Any) -> None:
    plan = results_preview(
        event=jigsaw, stage=QUALI, round=1, sheet=sheet("number,score\n1,3\n"), by=boss(jigsaw)
    )
    assert [str(i) for i in plan.general] == [
        "column “id”: missing required column",
        "The file has none of the columns of Individuals — qualification (time, missing, pieces).",
    ]
    assert plan.notes == ["Columns not read: number, score."]


def test_a_result_already_recorded_is_corrected_only_with_a_reason(jigsaw: Any) -> None:
    by = boss(jigsaw)
    first = result_record(
        event=jigsaw, stage=QUALI, entry=Entry.objects.get(number=1),
        cells={"time": "1:20:00", "missing": "1"}, by=by, idempotency_key="desk-1",
    )  # fmt: skip
    result_record(
        event=jigsaw, stage=QUALI, entry=Entry.objects.get(number=3),
        cells={"time": "1:07:00", "missing": "0"}, by=by, idempotency_key="desk-3",
    )  # fmt: skip
    data = sheet(GOOD)
    plan = results_preview(event=jigsaw, stage=QUALI, round=1, sheet=data, by=by)
    assert problems(plan) == [
        (2, "", "#1 Jana Nováková already has a result (time 1:20:00, missing 1); give the "
                "reason for the correction on the form to correct it"),
    ]  # fmt: skip
    with pytest.raises(ImportRefused):
        results_import(event=jigsaw, stage=QUALI, round=1, sheet=data, by=by, token="r")
    assert Result.objects.count() == 2

    plan = results_preview(
        event=jigsaw, stage=QUALI, round=1, sheet=data, by=by, reason="typo at the desk"
    )
    assert plan.ok
    assert [r.action for r in plan.rows] == ["correct", "record", "unchanged", "record"]
    results_import(
        event=jigsaw, stage=QUALI, round=1, sheet=data, by=by, token="r", reason="typo at the desk"
    )
    corrected = Result.objects.get(corrects=first)
    assert (corrected.kind, corrected.reason, corrected.cells["time"]) == (
        "correction", "typo at the desk", "1:14:41",
    )  # fmt: skip
    assert Result.objects.count() == 5  # 2 before, 1 correction, 2 new; #3 left alone
    assert places(jigsaw, QUALI)["A"] == [(3, "Lucie Jelínková", 1), (1, "Jana Nováková", 2)]


def test_a_round_that_is_not_there_is_refused(jigsaw: Any) -> None:
    with pytest.raises(Refused, match="round 1 only"):
        results_preview(event=jigsaw, stage=QUALI, round=2, sheet=sheet(GOOD), by=boss(jigsaw))


# --- battles ----------------------------------------------------------------------------------


@pytest.fixture
def club(make_event: Any, make_user: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny", organizer=make_user("olga"))
    for number, name in enumerate(["Sovy", "Ezhi", "Lisy", "Volki"], start=1):
        add_entry(event, number, name, "RU", category="teams")
    return event


def test_brainball_battles_become_items(club: Any) -> None:
    data = sheet("id,round,team1,team2,score1,score2\nR1-01,1,Sovy,ezhi,4,2\nR1-02,1,Lisy,#4,3,3\n")
    plan = results_preview(event=club, stage="brainball", round=1, sheet=data, by=boss(club))
    assert plan.ok, problems(plan)
    results_import(event=club, stage="brainball", round=1, sheet=data, by=boss(club), token="bb")
    items = {r.item: r.cells for r in current_results(club, "brainball")}
    assert items == {
        "b1-1-2": {"round": "1", "team1": "1", "team2": "2", "score1": "4", "score2": "2"},
        "b1-3-4": {"round": "1", "team1": "3", "team2": "4", "score1": "3", "score2": "3"},
    }
    [table] = standings_as_of(club, "brainball").tables
    got = [(r.entry.name, r.rank, r.entry.metrics["match_points"]) for r in table.rows]
    assert got == [("Sovy", 1, 2), ("Lisy", 2, 1), ("Volki", 2, 1), ("Ezhi", 4, 0)]


def test_the_brainball_preview_shows_the_match_points_the_table_stands_on(club: Any) -> None:
    client = Client()
    client.force_login(boss(club))
    upload = io.BytesIO(b"id,round,team1,team2,score1,score2\nR1-01,1,Sovy,Ezhi,4,2\n")
    upload.name = "brainball.csv"
    response = client.post(
        reverse("imports:results_upload", kwargs={"slug": club.slug}),
        {"results-target": "brainball:1", "results-file": upload},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    html = client.get(response["Location"]).content.decode()
    # Brainball awards no place points, yet its rows stand on match points (DESIGN §3).
    assert '<th class="points">Points</th>' in html
    assert re.search(r'Sovy.*?<td class="points">2</td>', html, re.S)


def test_brainball_problems_name_the_row_and_column(club: Any) -> None:
    data = sheet(
        "id,round,team1,team2,score1,score2\n"
        "R1-01,1,Sovy,Zubry,4,2\n"
        "R1-02,x,Lisy,Volki,3,3\n"
        "R1-03,1,Sovy,Ezhi,5,2\n"
    )
    plan = results_preview(event=club, stage="brainball", round=1, sheet=data, by=boss(club))
    assert problems(plan)[:2] == [
        (2, "team2", "“Zubry” is not a team of Brainball"),
        (3, "round", "“x” is not a round number"),
    ]
    assert problems(plan)[2] == (
        4, "score2", "5 + 2 questions won, but a battle has 6 and each is won by one team at most",
    )  # fmt: skip
    assert Result.objects.count() == 0


# --- round trip ---------------------------------------------------------------------------------


def csv_text(rows: list[dict[str, str]], columns: list[str]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def test_round_trip_export_import_gives_identical_tables(make_event: Any, make_user: Any) -> None:
    start = dt.datetime(2012, 3, 24, 8, 0, tzinfo=UTC)
    on = dt.datetime(2012, 3, 1, tzinfo=UTC)
    source = make_event("cba-qualifier", slug="source", organizer=make_user("a"), starts_at=start)
    by = boss(source)
    players = [
        ("Jan", "Dvořák", "M", "1975-09-16", "162.87", [153, 177, 124, 163, 141, 175]),
        ("Petr", "Novotný", "M", "1960-08-21", "173.34", [146, 168, 171, 183, 173, 175]),
        ("Miroslav", "Beneš", "M", "1973-10-09", "182.92", [172, 180, 176, 155, 169, 176]),
        ("Eva", "Malá", "F", "1980-01-01", "170.00", [150, 160, 170, 180, 190, 200]),
        ("Jana", "Velká", "F", "1981-02-02", "", [140, 150, 160, 170, 180, 190]),
    ]
    for first, last, gender, born, average, games in players:
        entry = entry_register(
            event=source, category="players", by=by, now=on,
            members=[PersonData(first, last, dt.date.fromisoformat(born), "CZ", gender,
                                None if not average else Decimal(average))],
        )  # fmt: skip
        result_record(
            event=source, stage="qualification", entry=entry, by=by, idempotency_key=last,
            cells={f"g{i}": str(g) for i, g in enumerate(games, start=1)},
        )  # fmt: skip
    # Export: the entry list and the results file, as the command line reads them.
    entrants = csv_text(
        [
            {
                "first": m.person.first_name,
                "last": m.person.last_name,
                "gender": m.person.gender,
                "born": m.person.birth_date.isoformat(),
                "average": m.person.ladder_average or "",
            }
            for e in Entry.objects.filter(event=source).order_by("number")
            for m in e.members.all()
        ],
        ["first", "last", "gender", "born", "average"],
    ).replace("first,last,gender,born,average", "First name,Last name,Gender,Birth date,Average")
    results = csv_text(
        [dict(r.cells) for r in stage_rows(source, "qualification")],
        ["id", "name", "gender", "average", "birth_date", "g1", "g2", "g3", "g4", "g5", "g6"],
    )
    # Import both into a fresh event.
    target = make_event("cba-qualifier", slug="target", organizer=make_user("b"), starts_at=start)
    people = read_upload("entrants.csv", entrants.encode())
    mapping = guess_mapping(people.header, member_slots(target))
    entrants_import(
        event=target, sheet=people, mapping=mapping, by=boss(target), token="e", category="players",
        now=on,
    )  # fmt: skip
    results_import(
        event=target, stage="qualification", round=1, sheet=read_upload("q.csv", results.encode()),
        by=boss(target), token="r",
    )  # fmt: skip
    before = standings_data(standings_as_of(source, "qualification"))
    after = standings_data(standings_as_of(target, "qualification"))
    assert after == before
    # Totals of the six games; the divisions come from gender and ladder average (Jana Velká
    # is not on the ladder: the lowest division).
    assert [(t["key"], [(r["name"], r["rank"], r["score"]) for r in t["rows"]])
            for t in after["tables"]] == [
        ("standard-men", [("Miroslav Beneš", 1, "1028 (180 high)"),
                          ("Petr Novotný", 2, "1016 (183 high)")]),
        ("amateur-men", [("Jan Dvořák", 1, "933 (177 high)")]),
        ("standard-women", [("Eva Malá", 1, "1050 (200 high)")]),
        ("amateur-women", [("Jana Velká", 1, "990 (190 high)")]),
    ]  # fmt: skip


def test_superfinal_questions_become_items(club: Any, put_in_stage: Any) -> None:
    sovy, ezhi = Entry.objects.get(number=1), Entry.objects.get(number=2)
    put_in_stage(club, "superfinal", sovy, ezhi, source="chgk-season")
    data = sheet("id,discipline,Sovy,#2\n1,chgk,1,0\n2,chgk,0,0\n")
    plan = results_preview(event=club, stage="superfinal", round=1, sheet=data, by=boss(club))
    assert plan.ok, problems(plan)
    results_import(event=club, stage="superfinal", round=1, sheet=data, by=boss(club), token="sf")
    items = {r.item: r.cells for r in current_results(club, "superfinal")}
    assert items == {
        "q1": {"discipline": "chgk", "1": "1", "2": "0"},
        "q2": {"discipline": "chgk", "1": "0", "2": "0"},
    }
    wrong = sheet("id,discipline,Sovy,Lisy\n3,chgk,1,0\n")
    plan = results_preview(event=club, stage="superfinal", round=1, sheet=wrong, by=boss(club))
    assert [str(i) for i in plan.general] == [
        "column “Lisy”: the column is not a team of Superfinal for the absolute champion",
        "The file has no column for Ezhi.",
    ]


def test_upload_preview_with_a_reason_and_import_on_the_pages(jigsaw: Any) -> None:
    by = boss(jigsaw)
    result_record(
        event=jigsaw, stage=QUALI, entry=Entry.objects.get(number=1),
        cells={"time": "1:20:00", "missing": "1"}, by=by, idempotency_key="desk-1",
    )  # fmt: skip
    client = Client()
    client.force_login(by)
    upload = io.BytesIO(GOOD.encode())
    upload.name = "kvalifikace.csv"
    response = client.post(
        reverse("imports:results_upload", kwargs={"slug": jigsaw.slug}),
        {"results-target": f"{QUALI}:1", "results-file": upload},
    )
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Nothing can be imported yet: 1 problem." in html
    assert "#1 Jana Nováková already has a result (time 1:20:00, missing 1)" in html
    html = client.get(response["Location"], {"reason": "typo at the desk"}).content.decode()
    assert "Ready: 3 to record, 1 to correct, 0 unchanged; nothing is saved yet." in html
    assert "The table after the import" in html
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    url = reverse("imports:results_import", kwargs={"slug": jigsaw.slug, "token": token})
    refused = client.post(url)  # no reason: refused, nothing saved
    assert refused.status_code == 400
    assert "Nothing was imported: the file has 1 problem." in refused.content.decode()
    assert Result.objects.count() == 1
    done = client.post(url, {"reason": "typo at the desk"})
    assert done.status_code == 302
    assert Result.objects.count() == 5
    assert places(jigsaw, QUALI)["A"] == [(3, "Lucie Jelínková", 1), (1, "Jana Nováková", 2)]


def test_the_reason_saved_drops_control_characters_as_its_preview_does(jigsaw: Any) -> None:
    """A NUL in the correction's reason is dropped when the import is saved, as the preview and
    the ChGK import drop it (PostgreSQL refuses NUL in text: it was a 500 there)."""
    by = boss(jigsaw)
    result_record(
        event=jigsaw, stage=QUALI, entry=Entry.objects.get(number=1),
        cells={"time": "1:20:00", "missing": "1"}, by=by, idempotency_key="desk-1",
    )  # fmt: skip
    client = Client()
    client.force_login(by)
    upload = io.BytesIO(GOOD.encode())
    upload.name = "kvalifikace.csv"
    response = client.post(
        reverse("imports:results_upload", kwargs={"slug": jigsaw.slug}),
        {"results-target": f"{QUALI}:1", "results-file": upload},
    )
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    url = reverse("imports:results_import", kwargs={"slug": jigsaw.slug, "token": token})
    done = client.post(url, {"reason": "typo\x00 at the\u202e desk"})
    assert done.status_code == 302
    corrected = Result.objects.get(entry__number=1, kind=Result.Kind.CORRECTION)
    assert corrected.reason == "typo at the desk"
