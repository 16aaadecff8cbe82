"""When a round ended, and so when its appeal or protest window closes: by the schedule and
the clock, never by the last typing.

Hand-worked:
- deti-kolomny п. 14: appeals "неделя с момента окончания тура". Tour 1 is on the calendar
  for Sunday 8 November 2026, 19:00 Moscow; its sheets were typed in from paper that evening
  (no clock signals), the last at 21:30:01. Today is Sunday 29 November (three weeks later) and
  the head referee resolves a mismatch, which records a result now. The tour still ended at 21:30 on
  8 November, so filing closed on 15 November at 21:30:01 — two weeks ago — and the tour may be
  published final today; an appeal filed today is refused.
- Sheets typed only the next morning (9 November, 10:00): the tour ended, by the schedule, at
  the close of its day (9 November 00:00 Moscow), filing closed 16 November 00:00.
- cba-qualifier § 14.2: protests "v průběhu turnaje", decided on site (no days after the round).
  The head referee ends the squad at 12:10 after the clock started at 9:00; an upheld protest
  corrects a game at 13:00: the round still ended at 12:10, the window closed then.
- cz-jigsaw (a 90-minute limit): the head referee ends the round early at 10:20 (a start at
  9:00); a correction at 11:00 leaves the end at 10:20, not the limit (10:30) and not 11:00.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest

from podium.web.chgk.services.rounds import round_add
from podium.web.disputes.selectors.appeals import filing_closes, question_rule
from podium.web.disputes.services.appeals import appeal_file
from podium.web.kernel.refusals import Refused
from podium.web.models import Appeal, Result
from podium.web.results.selectors.clock import round_ended_at
from podium.web.results.services.checks import mismatch_resolve, result_confirm, second_entry_record
from podium.web.results.services.clock import round_end, round_start
from podium.web.results.services.results import result_correct, result_record
from podium.web.standings.selectors.publication import appeal_window_closes
from podium.web.standings.services.publication import publication_set

MSK = zoneinfo.ZoneInfo("Europe/Moscow")
PRAGUE = zoneinfo.ZoneInfo("Europe/Prague")
TOUR = "chgk-tour"
MASK = "1" * 8 + "0" * 7


def msk(day: int, h: int, m: int = 0) -> dt.datetime:
    return dt.datetime(2026, 11, day, h, m, tzinfo=MSK)


@pytest.fixture
def club(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event("deti-kolomny", timezone="Europe/Moscow", starts_at=msk(8, 12))
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    round_add(event=event, stage=TOUR, starts_at=msk(8, 19), by=people["organizer"])
    teams = [add_entry(event, n, name, country="RU", category="teams")
             for n, name in ((1, "Сова"), (2, "Ёж"))]  # fmt: skip
    return event, people, teams


def _sheets(event: Any, people: Any, teams: Any, at: dt.datetime) -> list[Result]:
    """Both scorers' sheets of tour 1; the second misreads question 9 of the second team."""
    results = []
    for i, team in enumerate(teams):
        result = result_record(
            event=event, stage=TOUR, entry=team, cells={"mask": MASK}, by=people["referee"],
            idempotency_key=f"t{i}", now=at + dt.timedelta(seconds=i),
        )  # fmt: skip
        second = MASK if i == 0 else MASK[:8] + "1" + MASK[9:]
        second_entry_record(
            result=result, cells={"mask": second}, by=people["referee2"],
            idempotency_key=f"t{i}b", now=at + dt.timedelta(minutes=5),
        )  # fmt: skip
        results.append(result)
    return results


def test_a_correction_three_weeks_later_does_not_reopen_the_tours_window(club: Any) -> None:
    event, people, teams = club
    stage = event.rulebook.stage(TOUR)
    rule = question_rule(event)
    assert rule is not None
    _sheets(event, people, teams, msk(8, 21, 30))
    today = msk(29, 15)
    org = people["organizer"]
    publication_set(event=event, stage=TOUR, state="preliminary", by=org, now=msk(9, 10))
    second = Result.objects.get(entry=teams[1]).second_entries.get()
    mismatch_resolve(
        second_entry=second, choice="second", by=people["head"], reason="the card says 1",
        idempotency_key="fix", now=today,
    )  # fmt: skip
    assert Result.objects.get(event=event, recorded_at=today).kind == Result.Kind.CORRECTION
    ended = msk(8, 21, 30) + dt.timedelta(seconds=1)  # the last sheet typed that evening
    assert round_ended_at(event, stage, 1, today) == ended
    closed = ended + dt.timedelta(days=7)  # 15 November, two weeks before today
    assert filing_closes(event, stage, 1, rule, today) == closed
    assert appeal_window_closes(event, stage, 1, today) == closed
    with pytest.raises(Refused, match=r"it closed Nov\. 15, 2026, 9:30 p\.m\."):
        appeal_file(
            event=event, rule=rule.key, kind=Appeal.Kind.WITHDRAW, stage=TOUR, entry=teams[0],
            by=people["head"], question=3, statement="Two answers are right.", method="cash",
            now=today,
        )  # fmt: skip
    assert Appeal.objects.count() == 0
    final = publication_set(event=event, stage=TOUR, state="final", by=org, now=today)
    assert (final.state, final.version) == ("final", 1)


def test_a_correction_today_after_every_sheet_typed_late_keeps_the_scheduled_end(
    club: Any,
) -> None:
    event, people, teams = club
    stage = event.rulebook.stage(TOUR)
    results = _sheets(event, people, teams, msk(9, 10))  # typed in the next morning
    assert round_ended_at(event, stage, 1, msk(9, 12)) == msk(9, 0)  # the close of 8 November
    result_correct(
        result=results[0], cells={"mask": "1" * 9 + "0" * 6}, by=people["head"],
        reason="question 9 was taken", idempotency_key="c", now=msk(29, 15),
    )  # fmt: skip
    assert round_ended_at(event, stage, 1, msk(29, 16)) == msk(9, 0)
    assert appeal_window_closes(event, stage, 1, msk(29, 16)) == msk(16, 0)


def test_a_tour_not_yet_played_or_still_on_its_day(club: Any) -> None:
    event, people, teams = club
    stage = event.rulebook.stage(TOUR)
    assert round_ended_at(event, stage, 1, msk(8, 23)) is None  # nothing typed: not played
    _sheets(event, people, teams, msk(8, 21, 30))
    assert round_ended_at(event, stage, 1, msk(8, 21, 0)) is None  # typed later than "now"
    assert round_ended_at(event, stage, 1, msk(8, 23)) == msk(8, 21, 30) + dt.timedelta(seconds=1)


def test_a_squad_ended_by_the_head_referee_keeps_its_end_after_a_protest_correction(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("cba-qualifier", timezone="Europe/Prague")
    people = staff(event, organizer="jan", head="pavel", referee="jiri")
    player = add_entry(event, 1, "Karel Novák", division="master-men")
    start = dt.datetime(2026, 3, 24, 9, 0, tzinfo=PRAGUE)
    round_start(event=event, stage="qualification", by=people["head"], now=start)
    games = {f"g{i}": str(s) for i, s in enumerate((201, 188, 176, 210, 195, 199), 1)}
    result = result_record(
        event=event, stage="qualification", entry=player, cells=games, by=people["referee"],
        idempotency_key="k", now=start + dt.timedelta(hours=3),
    )  # fmt: skip
    ended = start + dt.timedelta(hours=3, minutes=10)
    round_end(event=event, stage="qualification", by=people["head"], now=ended)
    result_correct(
        result=result, cells=games | {"g3": "196"}, by=people["head"],
        reason="protest upheld: pins miscounted in frame 7", idempotency_key="p",
        now=start + dt.timedelta(hours=4),
    )  # fmt: skip
    later = start + dt.timedelta(hours=5)
    stage = event.rulebook.stage("qualification")
    assert round_ended_at(event, stage, 1, later) == ended
    assert appeal_window_closes(event, stage, 1, later) == ended  # decided on site: no days
    org = people["organizer"]
    result_confirm(result=Result.objects.get(kind=Result.Kind.CORRECTION), by=org, now=later)
    publication_set(event=event, stage="qualification", state="preliminary", by=org, now=later)
    final = publication_set(event=event, stage="qualification", state="final", by=org, now=later)
    assert final.table["tables"][0]["rows"][0]["score"] == "1189 (210 high)"


def test_an_early_end_is_the_end_not_the_limit_nor_a_later_correction(
    make_event: Any, staff: Any, add_entry: Any
) -> None:
    event = make_event("cz-jigsaw", timezone="Europe/Prague")
    people = staff(event, organizer="olga", head="hana", referee="rudolf")
    solver = add_entry(event, 1, "Eva Dvořáková", group="A", category="individuals")
    start = dt.datetime(2026, 6, 20, 9, 0, tzinfo=PRAGUE)
    stage = event.rulebook.stage("individual-qualification")
    round_start(event=event, stage=stage.key, by=people["head"], now=start)
    result = result_record(
        event=event, stage=stage.key, entry=solver, cells={"time": "1:15:00"},
        by=people["referee"], idempotency_key="e", now=start + dt.timedelta(minutes=76),
    )  # fmt: skip
    early = start + dt.timedelta(minutes=80)
    round_end(event=event, stage=stage.key, by=people["head"], reason="everyone has finished",
              now=early)  # fmt: skip
    result_correct(
        result=result, cells={"time": "1:15:00", "missing": "1"}, by=people["head"],
        reason="one piece missing", idempotency_key="m", now=start + dt.timedelta(hours=2),
    )  # fmt: skip
    assert round_ended_at(event, stage, 1, start + dt.timedelta(hours=3)) == early
