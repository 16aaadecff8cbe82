"""ChGK tours in the rating site's JSON shape, both ways, and every real venue sheet imported.

Hand-worked (deti-kolomny, a tour of 15 questions; places by questions taken; points 12, 10,
8, 7 … per official place, shared places share their points):
- Tour 1: #1 Sovy 10 taken, #2 Ezhi 8, #3 Lisy 8, #4 Volki 5. Exported: Sovy position 1,
  Ezhi and Lisy 2.5 (they share 2nd–3rd, shown as the mean), Volki 4; questionsTotal 10, 8,
  8, 5; each team's captain flagged К. Imported into a fresh event whose teams were registered
  in another order (other entry numbers) and named in another case: the same table — Sovy 12
  points, Ezhi and Lisy (10 + 8) / 2 = 9 each, Volki 7.
- A file with a team that is not an entry ("Gosti"), a mask one question short, the same team
  twice and a team without a mask: every one is listed, nothing is recorded; "Gosti" is skipped
  when the organizer says so.
- Each of the 42 venue sheets of ``tests/data/chgk/venue-results`` (most of 36 questions):
  the tour is set to the sheet's question count, its teams are registered, the sheet is
  imported, and every team's questions taken and place (standard competition places on the
  taken counts: 1 + the number of teams that took more, to the number that took as many or
  more) are those of the file.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.rules.loader import preset_text
from podium.web.chgk.selectors.rating import rating_results
from podium.web.chgk.services.sheets import tour_sheet_record
from podium.web.files.services.imports import ImportRefused, chgk_import, chgk_preview
from podium.web.kernel.refusals import Refused
from podium.web.models import (
    AuditEntry,
    Entry,
    EntryMember,
    Event,
    EventRole,
    Person,
    Result,
    Round,
)
from podium.web.readers.rating import read_rating
from podium.web.readers.tables import FileRefused
from podium.web.results.selectors.rows import standings_as_of
from podium.web.standings.services.publication import publication_set

TOUR = "chgk-tour"
UTC = dt.UTC
VENUE_RESULTS = Path(__file__).resolve().parents[2] / "data" / "chgk" / "venue-results"


def mask(taken: int, questions: int = 15) -> str:
    return "1" * taken + "0" * (questions - taken)


def make_club(
    make_user: Any, slug: str, questions: int = 15, longest: int | None = None
) -> tuple[Event, Any]:
    """``longest``: the rulebook lets a tour take its masks' length, up to that many questions."""
    boss = make_user(f"boss-{slug}")
    length = f"questions: {questions}" + (f"\n    max_questions: {longest}" if longest else "")
    text = preset_text("deti-kolomny").replace("questions: 15", length, 1)
    event = Event.objects.create(
        slug=slug, title=slug, rulebook_key="deti-kolomny", rulebook_text=text,
        starts_at=dt.datetime(2026, 11, 1, 16, 0, tzinfo=UTC), status=Event.Status.OPEN,
    )  # fmt: skip
    EventRole.objects.create(event=event, user=boss, role=EventRole.Role.ORGANIZER)
    Round.objects.create(event=event, stage=TOUR, number=1, starts_at=event.starts_at)
    return event, boss


def team(event: Event, number: int, name: str, players: tuple[str, ...] = ("Captain",)) -> Entry:
    made = Entry.objects.create(
        event=event, category="teams", number=number, name=name, status=Entry.Status.CONFIRMED
    )
    for i, last in enumerate(players):
        person = Person.objects.create(first_name=f"{name}-{i}", last_name=last)
        EntryMember.objects.create(entry=made, person=person, captain=i == 0)
    return made


def table(event: Event) -> list[tuple[str, int, int, Decimal | None]]:
    """(name, place, its last, points) in the table's order."""
    [t] = standings_as_of(event, TOUR, 1).tables
    return [(r.entry.name, r.rank, r.rank_to, r.points) for r in t.rows]


def problems(found: Any) -> list[tuple[int | None, str, str]]:
    return [(i.row, i.column, i.message) for i in found.issues]


@pytest.fixture
def club(make_user: Any) -> tuple[Event, Any]:
    event, boss = make_club(make_user, "kolomna")
    teams = {
        name: team(event, n, name, ("Ivanov", "Petrov"))
        for n, name in enumerate(["Sovy", "Ezhi", "Lisy", "Volki"], start=1)
    }
    tour_sheet_record(
        event=event, stage=TOUR, round=1, by=boss, idempotency_key="desk",
        masks={teams["Sovy"]: mask(10), teams["Ezhi"]: mask(8), teams["Lisy"]: mask(8),
               teams["Volki"]: mask(5)},
    )  # fmt: skip
    return event, boss


def test_a_tour_is_exported_in_the_rating_shape(club: tuple[Event, Any]) -> None:
    event, _boss = club
    exported = rating_results(event, event.rulebook.stage(TOUR), 1)
    assert [(t["team"]["name"], t["questionsTotal"], t["position"]) for t in exported] == [
        ("Sovy", 10, 1), ("Ezhi", 8, 2.5), ("Lisy", 8, 2.5), ("Volki", 5, 4),
    ]  # fmt: skip
    first = exported[0]
    assert first["mask"] == "111111111100000"
    assert first["team"] == {"id": 1, "name": "Sovy"}
    assert first["teamMembers"] == [
        {"flag": "К", "player": {"name": "Sovy-0", "surname": "Ivanov", "patronymic": None}},
        {"flag": "Б", "player": {"name": "Sovy-1", "surname": "Petrov", "patronymic": None}},
    ]


def test_the_export_follows_the_standings_visibility(club: tuple[Event, Any]) -> None:
    event, boss = club
    url = reverse("imports:rating_round", kwargs={"slug": event.slug, "stage": TOUR, "round": 1})
    assert Client().get(url).status_code == 404  # a draft: staff only
    staff = Client()
    staff.force_login(boss)
    assert [t["position"] for t in staff.get(url).json()] == [1, 2.5, 2.5, 4]
    publication_set(event=event, stage=TOUR, state="preliminary", by=boss)
    public = Client().get(url)
    assert public.status_code == 200
    assert public["Content-Type"] == "application/json"
    assert [t["team"]["name"] for t in public.json()] == ["Sovy", "Ezhi", "Lisy", "Volki"]
    season = Client().get(
        reverse("imports:rating_season", kwargs={"slug": event.slug, "stage": TOUR})
    )
    assert [(t["tour"], t["state"], len(t["results"])) for t in season.json()["tours"]] == [
        (1, "preliminary", 4)
    ]
    missing = reverse(
        "imports:rating_round", kwargs={"slug": event.slug, "stage": TOUR, "round": 2}
    )
    assert Client().get(missing).status_code == 404


def test_round_trip_export_import_gives_the_same_table(
    club: tuple[Event, Any], make_user: Any
) -> None:
    source, _boss = club
    exported = json.dumps(rating_results(source, source.rulebook.stage(TOUR), 1)).encode()
    fresh, boss = make_club(make_user, "fresh")
    # Registered in another order, so the entry numbers differ; names in another case.
    for number, name in enumerate(["VOLKI", "lisy", "Sovy", "Ezhi"], start=1):
        team(fresh, number, name)
    rating = read_rating(exported)
    plan = chgk_preview(event=fresh, stage=TOUR, round=1, rating=rating, by=boss)
    assert plan.ok, problems(plan)
    assert [(r.team.name, r.entry.number, r.taken, r.place) for r in plan.rows] == [
        ("Sovy", 3, 10, "1"), ("Ezhi", 4, 8, "2–3"), ("Lisy", 2, 8, "2–3"), ("Volki", 1, 5, "4"),
    ]  # fmt: skip
    assert Result.objects.filter(event=fresh).count() == 0
    chgk_import(event=fresh, stage=TOUR, round=1, rating=rating, by=boss, token="t")
    d = Decimal
    assert table(source) == [
        ("Sovy", 1, 1, d("12.000")), ("Ezhi", 2, 3, d("9.000")), ("Lisy", 2, 3, d("9.000")),
        ("Volki", 4, 4, d("7.000")),
    ]  # fmt: skip
    assert [(n.casefold(), a, b, p) for n, a, b, p in table(fresh)] == [
        (n.casefold(), a, b, p) for n, a, b, p in table(source)
    ]
    [done] = AuditEntry.objects.filter(event=fresh, action="chgk.import")
    assert done.data["teams"]["recorded"] == [1, 2, 3, 4]
    with pytest.raises(Refused, match="already imported"):
        chgk_import(event=fresh, stage=TOUR, round=1, rating=rating, by=boss, token="t")


def rating_json(*teams: dict[str, Any]) -> bytes:
    return json.dumps(list(teams)).encode()


def entry(name: str, m: str | None, total: int | None = None) -> dict[str, Any]:
    return {"team": {"id": 900, "name": name}, "mask": m, "questionsTotal": total}


def test_every_problem_is_listed_and_nothing_is_recorded(make_user: Any) -> None:
    event, boss = make_club(make_user, "problems")
    for number, name in enumerate(["Sovy", "Ezhi", "Lisy", "Volki"], start=1):
        team(event, number, name)
    rating = read_rating(
        rating_json(
            entry("Sovy", mask(10), 10),
            entry("Gosti", mask(11)),
            entry("Ezhi", mask(8)[:-1]),
            entry("sovy", mask(3)),
            entry("Lisy", None),
        )
    )
    plan = chgk_preview(event=event, stage=TOUR, round=1, rating=rating, by=boss)
    assert problems(plan) == [
        (2, "name", "“Gosti” is not a team of ChGK tour: register it first, or import without "
                    "the teams that are not entries"),
        (4, "name", "“sovy” is already team 1"),
        (5, "mask", "team 5 has no mask: Podium records a tour question by question"),
    ]  # fmt: skip
    assert [r.team.name for r in plan.unmatched] == ["Gosti"]
    # Without those, the tour sheet's own check finds the short mask.
    rating = read_rating(rating_json(entry("Sovy", mask(10)), entry("Ezhi", mask(8)[:-1])))
    plan = chgk_preview(event=event, stage=TOUR, round=1, rating=rating, by=boss)
    assert [(i.row, i.message) for i in plan.issues] == [
        (2, "#2 Ezhi: mask '11111111000000' has 14 marks, but the tour has 15 questions"),
    ]
    with pytest.raises(ImportRefused):
        chgk_import(event=event, stage=TOUR, round=1, rating=rating, by=boss, token="x")
    assert Result.objects.count() == 0
    assert AuditEntry.objects.count() == 0


def test_unmatched_teams_are_skipped_when_the_organizer_says_so(make_user: Any) -> None:
    event, boss = make_club(make_user, "skip")
    team(event, 1, "Sovy")
    rating = read_rating(rating_json(entry("Sovy", mask(10), 11), entry("Gosti", mask(11))))
    plan = chgk_import(
        event=event, stage=TOUR, round=1, rating=rating, by=boss, token="s", skip_unmatched=True
    )
    assert [(r.team.name, r.action) for r in plan.rows] == [
        ("Sovy", "recorded"),
        ("Gosti", "skipped"),
    ]
    # The file's questionsTotal differs from its mask: said, not refused.
    assert plan.rows[0].notes == ["the file says 11 taken; the mask has 10"]
    assert Result.objects.count() == 1


def test_a_recorded_mask_changes_only_with_a_reason(club: tuple[Event, Any]) -> None:
    event, boss = club
    rating = read_rating(rating_json(entry("Sovy", mask(11)), entry("Ezhi", mask(8))))
    plan = chgk_preview(event=event, stage=TOUR, round=1, rating=rating, by=boss)
    assert [(i.row, i.message) for i in plan.issues] == [
        (1, "#1 Sovy: the recorded mask would change; give the reason for it."),
    ]
    plan = chgk_import(
        event=event, stage=TOUR, round=1, rating=rating, by=boss, token="c", reason="appeal upheld"
    )
    assert [(r.team.name, r.action) for r in plan.rows] == [
        ("Sovy", "corrected"),
        ("Ezhi", "unchanged"),
    ]
    assert Result.objects.get(entry__name="Sovy", kind="correction").reason == "appeal upheld"


def test_files_that_are_not_rating_results_are_refused() -> None:
    def refusal(data: bytes) -> str:
        with pytest.raises(FileRefused) as refused:
            read_rating(data)
        return refused.value.message

    assert refusal(b"") == "The file is empty."
    assert refusal(b"[{").startswith("The file is not JSON (line 1, column 3:")
    assert refusal(b'{"hello": 1}').startswith("This JSON is not a tournament's results")
    assert refusal(b"[]") == "The file lists no team."
    assert refusal("[]".encode("utf-16")) == "The file is not UTF-8 text, so it is not a JSON file."
    odd = read_rating(b'[{"team": {"name": "Sovy"}, "mask": 5, "position": "first"}]')
    assert odd.teams[0].problems == ("the mask is not text", "position is not a number")


def test_upload_preview_and_import_on_the_pages(club: tuple[Event, Any], make_user: Any) -> None:
    source, _boss = club
    fresh, boss = make_club(make_user, "pages")
    for number, name in enumerate(["Sovy", "Ezhi", "Lisy", "Volki"], start=1):
        team(fresh, number, name)
    client = Client()
    client.force_login(boss)
    upload = io.BytesIO(json.dumps(rating_results(source, source.rulebook.stage(TOUR), 1)).encode())
    upload.name = "results.json"
    response = client.post(
        reverse("imports:chgk_upload", kwargs={"slug": fresh.slug}),
        {"chgk-target": f"{TOUR}:1", "chgk-file": upload},
    )
    assert response.status_code == 302
    preview = client.get(response["Location"])
    html = preview.content.decode()
    assert preview.status_code == 200
    assert "Ready: 4 to record, 0 to correct, 0 unchanged; nothing is saved yet." in html
    assert Result.objects.filter(event=fresh).count() == 0
    token = response["Location"].rstrip("/").rsplit("/", 1)[1]
    done = client.post(reverse("imports:chgk_import", kwargs={"slug": fresh.slug, "token": token}))
    assert done.status_code == 302
    assert Result.objects.filter(event=fresh).count() == 4
    outsider = Client()
    outsider.force_login(make_user("mallory"))
    assert outsider.get(reverse("imports:index", kwargs={"slug": fresh.slug})).status_code == 404


# --- every real venue sheet -----------------------------------------------------------------------


def venue_sheets() -> list[Any]:
    paths = sorted(VENUE_RESULTS.glob("*.json"))
    # One failing case rather than none (pytest skips an empty parameter list).
    return [pytest.param(p, id=p.stem) for p in paths] or [
        pytest.param(VENUE_RESULTS, id="missing")
    ]


def test_all_venue_sheets_are_there() -> None:
    assert len(list(VENUE_RESULTS.glob("*.json"))) == 42


@pytest.mark.parametrize("path", venue_sheets())
def test_every_venue_sheet_imports_with_its_taken_counts_and_places(
    path: Path, make_user: Any
) -> None:
    data = path.read_bytes()
    sheet = json.loads(data)
    event, boss = make_club(make_user, "venue", questions=sheet["questions"])
    for number, t in enumerate(sheet["teams"], start=1):
        team(event, number, t["name"])
    rating = read_rating(data)
    assert rating.kind == "venue"
    assert rating.questions == sheet["questions"]
    plan = chgk_import(event=event, stage=TOUR, round=1, rating=rating, by=boss, token="v")
    assert plan.ok
    assert plan.count("recorded") == len(sheet["teams"])
    taken = {t["name"]: t["taken"] for t in sheet["teams"]}
    [ranked] = standings_as_of(event, TOUR, 1).tables
    assert {r.entry.name for r in ranked.rows} == set(taken)
    for row in ranked.rows:
        count = taken[row.entry.name]
        assert row.entry.metrics["questions"] == count
        first = 1 + sum(other > count for other in taken.values())
        last = sum(other >= count for other in taken.values())
        assert (row.rank, row.rank_to) == (first, last)


def test_a_venue_sheet_with_more_questions_than_the_tour_is_refused(make_user: Any) -> None:
    path = VENUE_RESULTS / "tournament-tours-8917-28-May-2023.json"
    event, boss = make_club(make_user, "short")
    for number, t in enumerate(json.loads(path.read_bytes())["teams"], start=1):
        team(event, number, t["name"])
    plan = chgk_preview(
        event=event, stage=TOUR, round=1, rating=read_rating(path.read_bytes()), by=boss
    )
    assert [str(i) for i in plan.general] == [
        "The sheet has 36 questions; a tour of ChGK tour has 15."
    ]
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    "name",
    [
        "tournament-tours-8917-28-May-2023.json",  # 36 questions
        "tournament-tours-8669-28-Dec-2022.json",  # 39
        "tournament-tours-8871-30-Jan-2023.json",  # 45
    ],
)
def test_one_rulebook_with_max_questions_imports_sheets_of_any_length(
    name: str, make_user: Any
) -> None:
    data = (VENUE_RESULTS / name).read_bytes()
    sheet = json.loads(data)
    event, boss = make_club(make_user, "any-length", longest=45)
    for number, t in enumerate(sheet["teams"], start=1):
        team(event, number, t["name"])
    plan = chgk_import(
        event=event, stage=TOUR, round=1, rating=read_rating(data), by=boss, token="any"
    )
    assert plan.ok
    assert not plan.general
    [ranked] = standings_as_of(event, TOUR, 1).tables
    taken = {t["name"]: t["taken"] for t in sheet["teams"]}
    assert {r.entry.name: r.entry.metrics["questions"] for r in ranked.rows} == taken


def test_a_sheet_longer_than_max_questions_is_refused(make_user: Any) -> None:
    path = VENUE_RESULTS / "tournament-tours-8871-30-Jan-2023.json"
    event, boss = make_club(make_user, "longest", longest=39)
    for number, t in enumerate(json.loads(path.read_bytes())["teams"], start=1):
        team(event, number, t["name"])
    plan = chgk_preview(
        event=event, stage=TOUR, round=1, rating=read_rating(path.read_bytes()), by=boss
    )
    assert [str(i) for i in plan.general] == [
        "The sheet has 45 questions; a tour of ChGK tour has at most 39."
    ]
    assert Result.objects.count() == 0
