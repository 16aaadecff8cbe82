"""Tours of their own length (``podium.web.results.selectors.tours``): set on the calendar, followed
by the sheet, the console, the scorecards, the rating file and the imports, and never mixed.

Hand-worked (deti-kolomny with ``max_questions: 36``; teams #1 Sovy, #2 Ezhi, #3 Lisy):
- Tour 1 is added with 12 questions: its sheet has 12 boxes; Sovy 10, Ezhi 8, Lisy 8 typed as
  12 marks each give Sovy 1st, Ezhi and Lisy 2nd–3rd. A 15-mark mask for Lisy is refused
  ("15 marks, but tour 1 has 12 questions") and nothing of the sheet is saved.
- A tour typed into 15 boxes that had 12 questions (marks 13–15 all 0): set to 12, each mask is
  corrected to its first 12 marks with the reason "Tour 1 has 12 questions, not 15."; the
  questions taken stay 10, 8, 8. Had Ezhi a 1 at question 14, the change is refused naming #2.
- An import of 12-mark masks into a tour the calendar gave 15 and that has no mask yet takes the
  file's length, and says so; into a tour with masks of 12, a 15-mark row is refused.
- Scorecards of tour 1 have boxes q1–q12, of tour 2 (24 questions) q1–q24; the rating file
  and the API's stage list give each tour's length; an appeal on question 13 of a 12-question
  tour is refused.
"""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from podium.web.chgk.selectors.rating import season_rating
from podium.web.chgk.services.rounds import round_add, round_questions_set
from podium.web.chgk.services.sheets import SheetRefused, tour_sheet_record
from podium.web.disputes.services.appeals import appeal_file
from podium.web.files.selectors.scorecards import scorecards_document
from podium.web.files.services.imports import results_import, results_preview
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Entry, EventRole, Result, Round
from podium.web.readers.tables import read_upload
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.services.results import result_record

TOUR = "chgk-tour"
MSK = dt.timezone(dt.timedelta(hours=3))


def mask(taken: int, questions: int) -> str:
    return "1" * taken + "0" * (questions - taken)


def varying(text: str, longest: int = 36) -> str:
    return text.replace("questions: 15", f"questions: 15\n    max_questions: {longest}", 1)


@pytest.fixture
def club(make_event: Any, make_user: Any, add_entry: Any) -> SimpleNamespace:
    org, referee = make_user("olga"), make_user("irina")
    event = make_event("deti-kolomny", organizer=org, timezone="Europe/Moscow")
    event.rulebook_text = varying(event.rulebook_text)
    event.save(update_fields=["rulebook_text"])
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    teams = [add_entry(event, n, name, "RU", category="teams") for n, name in
             enumerate(["Sovy", "Ezhi", "Lisy"], start=1)]  # fmt: skip
    return SimpleNamespace(event=event, org=org, referee=referee, teams=teams)


def add_tour(club: Any, questions: int | None = None, day: int = 5) -> Round:
    starts = dt.datetime(2026, 11, day, 19, tzinfo=MSK)
    return round_add(
        event=club.event, stage=TOUR, starts_at=starts, by=club.org, questions=questions
    )


def sheet(club: Any, masks: list[str], key: str = "s1", number: int = 1) -> Any:
    return tour_sheet_record(
        event=club.event, stage=TOUR, round=number, by=club.referee, idempotency_key=key,
        masks=dict(zip(club.teams, masks, strict=True)),
    )  # fmt: skip


def places(club: Any, number: int = 1) -> list[tuple[str, int, int, int]]:
    [table] = standings_as_of(club.event, TOUR, number).tables
    return [(r.entry.name, r.rank, r.rank_to, r.entry.metrics["questions"]) for r in table.rows]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- the calendar -----------------------------------------------------------------------------


def test_a_tour_is_added_with_its_own_number_of_questions(club: Any) -> None:
    client = client_for(club.org)
    url = reverse("calendar:add", kwargs={"slug": club.event.slug, "stage": TOUR})
    data = {f"{TOUR}-date": "2026-11-05", f"{TOUR}-time": "19:00", f"{TOUR}-questions": "12"}
    assert client.post(url, data).status_code == 302
    assert Round.objects.get(event=club.event, number=1).questions == 12
    page = client.get(reverse("calendar:index", kwargs={"slug": club.event.slug}))
    html = page.content.decode()
    assert 'aria-label="Questions of tour 1"' in html
    assert 'name="chgk-tour-1-questions" value="12"' in html
    # The next tour's form offers the last tour's length.
    assert 'name="chgk-tour-questions" value="12"' in html
    too_long = client.post(url, {**data, f"{TOUR}-questions": "37"})
    assert too_long.status_code == 400
    assert "Ensure this value is less than or equal to 36." in too_long.content.decode()
    assert Round.objects.filter(event=club.event).count() == 1
    # Without a length given, a tour has the rulebook's.
    assert add_tour(club, day=12).questions == 15
    entry = AuditEntry.objects.get(action="round.add", data__number=1)
    assert entry.data["questions"] == 12


def test_a_rulebook_of_fixed_tours_keeps_every_tour_at_its_length(
    make_event: Any, make_user: Any
) -> None:
    org = make_user("fixed")
    event = make_event("deti-kolomny", organizer=org, timezone="Europe/Moscow")
    starts = dt.datetime(2026, 11, 5, 19, tzinfo=MSK)
    with pytest.raises(Refused, match=r"^This rulebook gives every tour 15 questions\.$"):
        round_add(event=event, stage=TOUR, starts_at=starts, by=org, questions=12)
    made = round_add(event=event, stage=TOUR, starts_at=starts, by=org)
    assert made.questions is None
    with pytest.raises(Refused, match="the same number of questions"):
        round_questions_set(round=made, questions=12, by=org)
    html = client_for(org).get(reverse("calendar:index", kwargs={"slug": event.slug}))
    assert 'name="chgk-tour-questions"' not in html.content.decode()
    assert 'name="chgk-tour-1-questions"' not in html.content.decode()


def test_the_organizer_changes_a_tours_length_on_the_calendar(club: Any) -> None:
    made = add_tour(club)
    client = client_for(club.org)
    url = reverse(
        "calendar:questions", kwargs={"slug": club.event.slug, "stage": TOUR, "number": 1}
    )
    answer = client.post(url, {f"{TOUR}-1-questions": "12"})
    assert answer.status_code == 302
    assert answer["Location"].endswith("/calendar/#round-1")
    made.refresh_from_db()
    assert made.questions == 12
    refused = client.post(url, {f"{TOUR}-1-questions": "0"})
    assert refused.status_code == 400
    assert "Ensure this value is greater than or equal to 1." in refused.content.decode()
    # A referee may not set the calendar.
    assert client_for(club.referee).post(url, {f"{TOUR}-1-questions": "9"}).status_code == 404
    made.refresh_from_db()
    assert made.questions == 12


# --- the sheet and the console ----------------------------------------------------------------


def test_the_sheet_of_a_12_question_tour_has_12_boxes_and_takes_12_marks(club: Any) -> None:
    add_tour(club, questions=12)
    url = reverse("chgk:grid", kwargs={"slug": club.event.slug, "stage": TOUR, "round": 1})
    html = client_for(club.referee).get(url).content.decode()
    assert 'data-questions="12"' in html
    assert "One mask per team, 12 marks" in html
    assert "This tour has 12 questions, as set on the tour calendar." in html
    assert "Change it" not in html  # a referee does not set the calendar
    assert "Change it" in client_for(club.org).get(url).content.decode()

    with pytest.raises(SheetRefused) as caught:
        sheet(club, [mask(10, 12), mask(8, 12), mask(8, 15)])
    assert caught.value.problems == ("#3 Lisy: 15 marks, but tour 1 has 12 questions",)
    assert Result.objects.count() == 0

    sheet(club, [mask(10, 12), mask(8, 12), mask(8, 12)])
    assert places(club) == [("Sovy", 1, 1, 10), ("Ezhi", 2, 3, 8), ("Lisy", 2, 3, 8)]


def test_the_console_refuses_a_mask_of_another_length(club: Any) -> None:
    add_tour(club, questions=12)
    with pytest.raises(Refused, match=r"^#1: 15 marks, but tour 1 has 12 questions$"):
        result_record(
            event=club.event, stage=TOUR, round=1, entry=club.teams[0],
            cells={"mask": mask(3, 15)}, by=club.referee, idempotency_key="c1",
        )  # fmt: skip
    with pytest.raises(Refused, match=r"^#1: 13 questions taken, but tour 1 has 12$"):
        result_record(
            event=club.event, stage=TOUR, round=1, entry=club.teams[0],
            cells={"questions": "13"}, by=club.referee, idempotency_key="c2",
        )  # fmt: skip
    made = result_record(
        event=club.event, stage=TOUR, round=1, entry=club.teams[0],
        cells={"mask": mask(3, 12)}, by=club.referee, idempotency_key="c3",
    )  # fmt: skip
    assert made.cells["mask"] == "111000000000"


# --- shortening a tour ------------------------------------------------------------------------


def test_a_tour_typed_into_15_boxes_is_shortened_without_losing_a_question(club: Any) -> None:
    made = add_tour(club)
    sheet(club, [mask(10, 15), mask(8, 15), "101" + mask(6, 12)])
    with pytest.raises(Refused, match="marks nobody typed"):
        round_questions_set(round=made, questions=16, by=club.org)
    round_questions_set(round=made, questions=12, by=club.org)
    masks = {r.entry.name: r.cells["mask"] for r in current_results(club.event, TOUR, 1)}
    assert masks == {"Sovy": mask(10, 12), "Ezhi": mask(8, 12), "Lisy": "101111111000"}
    reasons = {r.reason for r in current_results(club.event, TOUR, 1)}
    assert reasons == {"Tour 1 has 12 questions, not 15."}
    assert places(club) == [("Sovy", 1, 1, 10), ("Ezhi", 2, 3, 8), ("Lisy", 2, 3, 8)]
    entry = AuditEntry.objects.get(action="round.questions")
    assert (entry.data["before"], entry.data["questions"], entry.data["corrected"]) == (
        15, 12, [1, 2, 3],
    )  # fmt: skip


def test_a_tour_is_not_shortened_past_a_question_a_team_took(club: Any) -> None:
    made = add_tour(club)
    sheet(club, [mask(10, 15), "0" * 13 + "1?", mask(8, 15)])
    before = list(Result.objects.values_list("pk", "cells"))
    with pytest.raises(Refused) as caught:
        round_questions_set(round=made, questions=12, by=club.org)
    assert caught.value.message == (
        "Tour 1 cannot have 12 questions: a question after question 12 is taken or disputed by #2."
    )
    assert list(Result.objects.values_list("pk", "cells")) == before
    made.refresh_from_db()
    assert made.questions == 15


# --- what follows the length ------------------------------------------------------------------


def test_scorecards_and_the_rating_file_follow_each_tour(club: Any) -> None:
    add_tour(club, questions=12)
    add_tour(club, questions=24, day=12)
    stage = club.event.rulebook.stage(TOUR)
    now = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
    first = scorecards_document(club.event, stage, now, tour=1)
    assert first is not None
    names = [c.key for c in first.sheets[0].columns]
    assert names == ["number", "name", *(f"q{n}" for n in range(1, 13)), "total"]
    assert first.title.endswith("ChGK tour, tour 1 — Scorecards")
    newest = scorecards_document(club.event, stage, now)  # the newest tour by default
    assert newest is not None
    assert [c.key for c in newest.sheets[0].columns][-2:] == ["q24", "total"]
    client = client_for(club.org)
    url = reverse("exports:scorecards", args=[club.event.slug, TOUR, "csv"])
    assert (
        client.get(url, {"tour": "1"}).content.decode().splitlines()[0].endswith("10,11,12,Total")
    )
    assert client.get(url, {"tour": "3"}).status_code == 404
    sheet(club, [mask(10, 12), mask(8, 12), mask(8, 12)])
    tours = season_rating(club.event, stage, staff=True)
    assert [(t["tour"], t["questions"]) for t in tours] == [(1, 12), (2, 24)]
    stages = {s["key"]: s for s in client.get(f"/api/events/{club.event.slug}/stages").json()}
    assert [(r["number"], r["questions"]) for r in stages[TOUR]["rounds"]] == [(1, 12), (2, 24)]
    assert {r["questions"] for r in stages["brainball"]["rounds"]} <= {None}


def test_a_tour_added_before_tours_had_lengths_reads_its_masks(club: Any) -> None:
    Round.objects.create(
        event=club.event, stage=TOUR, number=1,
        starts_at=dt.datetime(2026, 11, 5, 16, tzinfo=dt.UTC),
    )  # fmt: skip
    sheet(club, [mask(10, 12), mask(8, 12), mask(8, 12)])
    url = reverse("chgk:grid", kwargs={"slug": club.event.slug, "stage": TOUR, "round": 1})
    assert 'data-questions="12"' in client_for(club.referee).get(url).content.decode()
    html = client_for(club.org).get(reverse("calendar:index", args=[club.event.slug]))
    assert 'name="chgk-tour-1-questions" value="12"' in html.content.decode()


def test_the_calendar_reads_as_much_for_six_tours_as_for_two(club: Any, queries_of: Any) -> None:
    url = reverse("calendar:index", kwargs={"slug": club.event.slug})
    client = client_for(club.org)

    def tours(upto: int) -> None:
        for number in range(Round.objects.filter(event=club.event).count() + 1, upto + 1):
            Round.objects.create(
                event=club.event, stage=TOUR, number=number,
                starts_at=dt.datetime(2026, 11, number, 16, tzinfo=dt.UTC),
            )  # fmt: skip
            sheet(club, [mask(3, 12)] * 3, key=f"t{number}", number=number)

    tours(2)
    few = queries_of(client, url)
    tours(6)
    assert queries_of(client, url) == few


# --- imports ----------------------------------------------------------------------------------


def csv_sheet(rows: list[str]) -> Any:
    text = "id,mask\n" + "\n".join(rows) + "\n"
    return read_upload("tour.csv", text.encode())


def test_an_import_into_an_empty_tour_takes_the_files_length(club: Any) -> None:
    made = add_tour(club)  # 15, the rulebook's
    data = csv_sheet([f"1,{mask(10, 12)}", f"2,{mask(8, 12)}", f"3,{mask(8, 12)}"])
    note = "Tour 1 gets 12 questions, as the file gives (the calendar said 15)."
    plan = results_preview(event=club.event, stage=TOUR, round=1, sheet=data, by=club.org)
    assert plan.ok, plan.issues
    assert note in plan.notes
    made.refresh_from_db()
    assert made.questions == 15  # a preview changes nothing
    results_import(event=club.event, stage=TOUR, round=1, sheet=data, by=club.org, token="a")
    made.refresh_from_db()
    assert made.questions == 12
    assert places(club) == [("Sovy", 1, 1, 10), ("Ezhi", 2, 3, 8), ("Lisy", 2, 3, 8)]

    longer = csv_sheet([f"3,{mask(9, 15)}"])
    plan = results_preview(
        event=club.event, stage=TOUR, round=1, sheet=longer, by=club.org, reason="retyped"
    )
    assert [(i.row, i.column, i.message) for i in plan.issues] == [
        (2, "mask", "#3: 15 marks, but tour 1 has 12 questions")
    ]
    assert Entry.objects.get(number=3).results.count() == 1


def test_an_appeal_names_a_question_of_its_tour(club: Any) -> None:
    # Played an hour ago: the week for appeals is open.
    starts = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
    round_add(event=club.event, stage=TOUR, starts_at=starts, by=club.org, questions=12)
    sheet(club, [mask(10, 12), mask(8, 12), mask(8, 12)])

    def file(question: int) -> Any:
        return appeal_file(
            event=club.event, rule="chgk-question", kind="withdraw-question", stage=TOUR,
            entry=club.teams[1], by=club.org, round=1, question=question,
            statement="Two answers were right.", method="transfer",
        )  # fmt: skip

    with pytest.raises(Refused, match=r"^Name the question: 1 to 12\.$"):
        file(13)
    assert file(12).question == 12
