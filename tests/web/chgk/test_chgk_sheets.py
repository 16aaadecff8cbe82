"""The ChGK tour sheet: several teams' masks recorded at once (all or nothing), and the second
scorer's blind sheet that verifies them.

Hand-worked (deti-kolomny, chgk-tour of 15 questions; places by questions taken; points 12, 10,
8, 7, … per official place, shared places share their points to 0.001; a team outside the
competition takes no place and no points):
- Tour 1: #1 Sovy 10 taken, #2 Ezhi 8, #3 Lisy 8, #4 Volki 5, #5 Gosti (outside) 11.
  Overall: Gosti 1st, Sovy 2nd, Ezhi and Lisy 3rd–4th, Volki 5th. Official: Sovy 1st → 12;
  Ezhi and Lisy share 2nd–3rd → (10 + 8) / 2 = 9.000 each; Volki 4th → 7; Gosti none.
- Tour 2: Sovy 10, Ezhi, Lisy and Volki 8 each, share 2nd–4th → (10 + 8 + 7) / 3 = 8.333.
- The real sheet tournament-tours-8917-28-May-2023 (36 questions, 8 teams): four teams took
  22 (1st–4th: (12 + 10 + 8 + 7) / 4 = 9.250), two 20 (5th–6th: (6 + 5) / 2 = 5.500), one 19
  (7th: 4), one 18 (8th: 3).
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from podium.engine.standings import Standings
from podium.rules.loader import preset_text
from podium.web.chgk.services.sheets import SheetRefused, tour_check_record, tour_sheet_record
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
    SecondEntry,
    Verification,
)
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.selectors.verification import unverified
from podium.web.results.services.results import result_correct

TOUR = "chgk-tour"
VENUE = Path(__file__).resolve().parents[2] / "data" / "chgk" / "venue-results"


def mask(taken: int, questions: int = 15) -> str:
    return "1" * taken + "0" * (questions - taken)


def team(event: Event, number: int, name: str, scored: bool = True) -> Entry:
    made = Entry.objects.create(
        event=event, category="teams", number=number, name=name,
        status=Entry.Status.CONFIRMED, scored=scored,
    )  # fmt: skip
    person = Person.objects.create(first_name=name, last_name="Captain", country="RU")
    EntryMember.objects.create(entry=made, person=person, captain=True)
    return made


def table(standings: Standings) -> dict[str, tuple[int, int, int | None, Decimal | None]]:
    """Entry number → (overall place, its last, official place, points)."""
    return {
        r.entry.id: (r.rank, r.rank_to, r.official_rank, r.points)
        for t in standings.tables
        for r in t.rows
    }


@pytest.fixture
def club(make_user: Any, make_event: Any) -> Any:
    """Two scorers (Irina, Pavel), five teams (Gosti outside the competition), two tours."""
    org, irina, pavel = make_user("olga"), make_user("irina"), make_user("pavel")
    event = make_event("deti-kolomny", organizer=org)
    for user in (irina, pavel):
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.REFEREE)
    names = ["Sovy", "Ezhi", "Lisy", "Volki"]
    teams = [team(event, n, name) for n, name in enumerate(names, start=1)]
    teams.append(team(event, 5, "Gosti", scored=False))
    for number in (1, 2):
        Round.objects.create(
            event=event, stage=TOUR, number=number,
            starts_at=dt.datetime(2026, 11, number, 16, 0, tzinfo=dt.UTC),
        )  # fmt: skip

    return SimpleNamespace(event=event, org=org, irina=irina, pavel=pavel, teams=teams)


def first_sheet(club: Any) -> dict[Entry, str]:
    sovy, ezhi, lisy, volki, gosti = club.teams
    return {sovy: mask(10), ezhi: mask(8), lisy: mask(8), volki: mask(5), gosti: mask(11)}


def test_a_sheet_records_every_team_and_gives_the_tour_points(club: Any) -> None:
    rows = tour_sheet_record(
        event=club.event, stage=TOUR, round=1, masks=first_sheet(club), by=club.irina,
        idempotency_key="sheet-1",
    )  # fmt: skip
    assert [(r.entry.number, r.action) for r in rows] == [(n, "recorded") for n in range(1, 6)]
    assert Result.objects.filter(round=1).count() == 5
    assert {r.entry.number: r.cells["mask"] for r in current_results(club.event, TOUR, 1)}[4] == (
        "111110000000000"
    )
    assert table(standings_as_of(club.event, TOUR, 1)) == {
        "5": (1, 1, None, None),
        "1": (2, 2, 1, Decimal("12.000")),
        "2": (3, 4, 2, Decimal("9.000")),
        "3": (3, 4, 2, Decimal("9.000")),
        "4": (5, 5, 4, Decimal("7.000")),
    }
    assert AuditEntry.objects.filter(action="sheet.record").get().data["teams"] == {
        "recorded": [1, 2, 3, 4, 5], "corrected": [], "unchanged": [],
    }  # fmt: skip


def test_three_teams_sharing_places_share_their_points_to_the_thousandth(club: Any) -> None:
    sovy, ezhi, lisy, volki, _ = club.teams
    tour_sheet_record(
        event=club.event, stage=TOUR, round=2, by=club.irina, idempotency_key="sheet-2",
        masks={sovy: mask(10), ezhi: mask(8), lisy: mask(8), volki: "11111111 0000000"},
    )  # fmt: skip
    points = {n: row[3] for n, row in table(standings_as_of(club.event, TOUR, 2)).items()}
    assert points == {
        "1": Decimal("12.000"), "2": Decimal("8.333"), "3": Decimal("8.333"),
        "4": Decimal("8.333"),
    }  # fmt: skip
    assert not Result.objects.filter(round=1).exists()  # the other tour is untouched


def test_bad_masks_refuse_the_whole_sheet_naming_every_team(club: Any) -> None:
    sovy, ezhi, lisy, volki, _ = club.teams
    masks = {sovy: mask(10), ezhi: mask(8)[:14], lisy: mask(8), volki: "11211" + "0" * 10}
    with pytest.raises(SheetRefused) as refused:
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, masks=masks, by=club.irina,
            idempotency_key="bad",
        )  # fmt: skip
    problems = refused.value.problems
    assert len(problems) == 2
    assert problems[0].startswith("#2 Ezhi:")
    assert "14 marks, but the tour has 15 questions" in problems[0]
    assert problems[1].startswith("#4 Volki:")
    assert "'2' at question 3" in problems[1]
    assert Result.objects.count() == 0
    assert not AuditEntry.objects.filter(action__startswith="result.").exists()


def test_a_withdrawn_question_is_withdrawn_for_every_team_on_the_sheet(club: Any) -> None:
    sovy, ezhi, *_ = club.teams
    with pytest.raises(SheetRefused) as refused:
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="x",
            masks={sovy: "X" + mask(9, 14), ezhi: mask(8)},
        )  # fmt: skip
    assert refused.value.problems == (
        "#2 Ezhi: question 1 is withdrawn (X) on #1 Sovy but not here",
    )
    assert Result.objects.count() == 0
    # Lower-case x is the same mark; with it on both rows the sheet is stored.
    tour_sheet_record(
        event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="x2",
        masks={sovy: "x" + mask(9, 14), ezhi: "X" + mask(8, 14)},
    )  # fmt: skip
    assert sorted(r.cells["mask"][0] for r in Result.objects.all()) == ["X", "X"]


def test_a_changed_row_needs_a_reason_and_unchanged_rows_are_skipped(club: Any) -> None:
    ezhi = club.teams[1]
    tour_sheet_record(
        event=club.event, stage=TOUR, round=1, masks=first_sheet(club), by=club.irina,
        idempotency_key="first",
    )  # fmt: skip
    changed = {**first_sheet(club), ezhi: mask(9)}
    with pytest.raises(SheetRefused) as refused:
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, masks=changed, by=club.irina,
            idempotency_key="second",
        )  # fmt: skip
    assert refused.value.problems == (
        "#2 Ezhi: the recorded mask would change; give the reason for it.",
    )
    assert Result.objects.count() == 5
    rows = tour_sheet_record(
        event=club.event, stage=TOUR, round=1, masks=changed, by=club.irina,
        idempotency_key="third", reason="question 9: the answer sheet was misread",
    )  # fmt: skip
    assert [r.action for r in rows] == [
        "unchanged",
        "corrected",
        "unchanged",
        "unchanged",
        "unchanged",
    ]
    assert Result.objects.count() == 6
    correction = Result.objects.get(kind=Result.Kind.CORRECTION)
    assert (correction.entry, correction.reason) == (
        ezhi,
        "question 9: the answer sheet was misread",
    )
    # Ezhi (9) now stands alone in 2nd place: 10 points; Lisy 3rd: 8.
    points = table(standings_as_of(club.event, TOUR, 1))
    assert (points["2"][3], points["3"][3]) == (Decimal("10.000"), Decimal("8.000"))


def test_a_row_changed_meanwhile_by_someone_else_is_refused(club: Any) -> None:
    sovy, ezhi, *_ = club.teams
    rows = tour_sheet_record(
        event=club.event, stage=TOUR, round=1, masks={sovy: mask(10), ezhi: mask(8)},
        by=club.irina, idempotency_key="first",
    )  # fmt: skip
    seen = {r.entry: r.result for r in rows}
    result_correct(
        result=seen[ezhi], cells={"mask": mask(7)}, by=club.pavel, reason="recount",
        idempotency_key="pavel",
    )  # fmt: skip
    with pytest.raises(SheetRefused) as refused:
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, masks={sovy: mask(11), ezhi: mask(9)},
            by=club.irina, idempotency_key="stale", reason="recount", seen=seen,
        )  # fmt: skip
    (problem,) = refused.value.problems
    assert problem.startswith("#2 was changed meanwhile: it is now “mask 111111100000000”")
    assert Result.objects.count() == 3  # Sovy's correction was rolled back with the sheet
    # A seen result must be the team's own in this tour.
    with pytest.raises(SheetRefused) as refused:
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, masks={sovy: mask(9)}, by=club.irina,
            idempotency_key="other", reason="recount", seen={sovy: seen[ezhi]},
        )  # fmt: skip
    assert refused.value.problems == ("#1 Sovy: the result seen is not this team's in this tour.",)


def test_a_resubmitted_sheet_records_nothing_twice(club: Any) -> None:
    kwargs = {"event": club.event, "stage": TOUR, "round": 1, "by": club.irina}
    first = tour_sheet_record(masks=first_sheet(club), idempotency_key="again", **kwargs)
    again = tour_sheet_record(masks=first_sheet(club), idempotency_key="again", **kwargs)
    assert [r.result.pk for r in again] == [r.result.pk for r in first]
    assert Result.objects.count() == 5
    assert AuditEntry.objects.filter(action="result.record").count() == 5


def test_only_staff_of_the_event_record_a_sheet(club: Any, make_user: Any) -> None:
    with pytest.raises(Refused, match="Only an organizer or referee"):
        tour_sheet_record(
            event=club.event, stage=TOUR, round=1, masks=first_sheet(club),
            by=make_user("stranger"), idempotency_key="s",
        )  # fmt: skip
    with pytest.raises(Refused, match="not on the calendar"):
        tour_sheet_record(
            event=club.event, stage=TOUR, round=3, masks=first_sheet(club), by=club.irina,
            idempotency_key="s",
        )  # fmt: skip
    assert Result.objects.count() == 0


def test_the_second_scorers_sheet_verifies_matches_and_lists_mismatches(club: Any) -> None:
    sovy, ezhi, lisy, volki, gosti = club.teams
    tour_sheet_record(
        event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="first",
        masks={sovy: mask(10), ezhi: mask(8), lisy: mask(8)},
    )  # fmt: skip
    ezhi_second = "110" + mask(8)[3:14] + "1"  # question 3 not taken, question 15 taken
    checked = tour_check_record(
        event=club.event, stage=TOUR, round=1, by=club.pavel, idempotency_key="check",
        masks={sovy: mask(10), ezhi: ezhi_second, lisy: mask(8), volki: mask(5)},
    )  # fmt: skip
    assert [r.entry for r in checked.matches] == [sovy, lisy]
    assert [(r.entry, r.questions) for r in checked.mismatches] == [(ezhi, (3, 15))]
    assert [r.entry for r in checked.skipped] == [volki]
    verified = Verification.objects.select_related("result__entry")
    assert {(v.result.entry.number, v.method, v.verified_by) for v in verified} == {
        (1, Verification.Method.SECOND_ENTRY, club.pavel),
        (3, Verification.Method.SECOND_ENTRY, club.pavel),
    }
    assert [r.entry for r in unverified(club.event, TOUR, 1)] == [ezhi]
    assert SecondEntry.objects.get(result__entry=ezhi).differences == ["mask"]
    # The same check sheet sent again stores nothing more; a later sheet leaves verified teams.
    again = tour_check_record(
        event=club.event, stage=TOUR, round=1, by=club.pavel, idempotency_key="check",
        masks={sovy: mask(10), ezhi: ezhi_second, lisy: mask(8), volki: mask(5)},
    )  # fmt: skip
    assert [r.status for r in again.rows] == ["match", "mismatch", "match", "no-first"]
    later = tour_check_record(
        event=club.event, stage=TOUR, round=1, by=club.pavel, idempotency_key="later",
        masks={sovy: mask(10)},
    )  # fmt: skip
    assert [r.status for r in later.rows] == ["verified"]
    assert SecondEntry.objects.count() == 3
    assert Verification.objects.count() == 2
    assert gosti not in [r.entry for r in again.rows]


def test_the_same_scorer_cannot_make_both_entries(club: Any) -> None:
    sovy, ezhi, *_ = club.teams
    tour_sheet_record(
        event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="first",
        masks={sovy: mask(10), ezhi: mask(8)},
    )  # fmt: skip
    with pytest.raises(SheetRefused) as refused:
        tour_check_record(
            event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="check",
            masks={sovy: mask(10), ezhi: mask(8)},
        )  # fmt: skip
    assert refused.value.problems == (
        "#1 Sovy: The second entry must be made by someone else than the first.",
        "#2 Ezhi: The second entry must be made by someone else than the first.",
    )
    assert SecondEntry.objects.count() == 0
    assert Verification.objects.count() == 0


def test_a_bad_mask_on_the_check_sheet_is_refused_before_anything_is_stored(club: Any) -> None:
    sovy, ezhi, *_ = club.teams
    tour_sheet_record(
        event=club.event, stage=TOUR, round=1, by=club.irina, idempotency_key="first",
        masks={sovy: mask(10), ezhi: mask(8)},
    )  # fmt: skip
    with pytest.raises(SheetRefused, match=r"#2 Ezhi: .*16 marks"):
        tour_check_record(
            event=club.event, stage=TOUR, round=1, by=club.pavel, idempotency_key="check",
            masks={sovy: mask(10), ezhi: mask(8) + "0"},
        )  # fmt: skip
    assert SecondEntry.objects.count() == 0


def test_a_real_venue_sheet_gives_the_files_taken_counts_and_places(
    make_user: Any, make_event: Any
) -> None:
    sheet = json.loads((VENUE / "tournament-tours-8917-28-May-2023.json").read_text("utf-8"))
    questions = sheet["questions"]
    org, scorer = make_user("olga"), make_user("irina")
    event = make_event("deti-kolomny", organizer=org)
    # The venue played 36 questions; this event's rulebook says so for its tour.
    text = preset_text("deti-kolomny").replace("questions: 15", f"questions: {questions}", 1)
    Event.objects.filter(pk=event.pk).update(rulebook_text=text)
    event = Event.objects.get(pk=event.pk)
    EventRole.objects.create(event=event, user=scorer, role=EventRole.Role.REFEREE)
    Round.objects.create(event=event, stage=TOUR, number=1, starts_at=event.starts_at)
    teams = {t["name"]: team(event, n, t["name"]) for n, t in enumerate(sheet["teams"], 1)}

    tour_sheet_record(
        event=event, stage=TOUR, round=1, by=scorer, idempotency_key="venue",
        masks={teams[t["name"]]: t["mask"] for t in sheet["teams"]},
    )  # fmt: skip

    rows = {r.entry.name: r for t in standings_as_of(event, TOUR, 1).tables for r in t.rows}
    assert len(rows) == len(sheet["teams"]) == 8
    for t in sheet["teams"]:
        row = rows[t["name"]]
        place = 1 + sum(other["taken"] > t["taken"] for other in sheet["teams"])
        last = place - 1 + sum(other["taken"] == t["taken"] for other in sheet["teams"])
        assert row.entry.metrics["questions"] == t["taken"], t["name"]
        assert (row.rank, row.rank_to) == (place, last), t["name"]
    points = sorted({(r.rank, r.points) for r in rows.values()})
    assert points == [
        (1, Decimal("9.250")), (5, Decimal("5.500")), (7, Decimal("4.000")),
        (8, Decimal("3.000")),
    ]  # fmt: skip
