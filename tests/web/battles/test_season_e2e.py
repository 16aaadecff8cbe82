"""A whole ChGK club season through the services, as the organizer runs it (deti-kolomny).

Six tours of 15 questions, ten teams T1…T10 (entry numbers 1…10), a tour every two weeks. In
every tour the teams take, by number: T1 14, T2 and T3 13 and 12 (T2 ahead in the odd tours,
T3 in the even ones), T4 11, T5 10, T6 9, T7 8, T8 7, T9 6, T10 5. Masks take the first
questions in order, except T4 in tour 2, which took question 15 (and not 11–14): only T4 did.

Tour 2: T4 11, T5 10 → T4 7 points, T5 6. T5 appeals to withdraw question 15; the jury upholds
it: T4 and T5 both have 10 and share 4th–5th, (7 + 6) / 2 = 6.5 points each.

T10 withdraws in writing after tour 2, before the middle tour (tour 4 of 6): its ChGK results
stay, it plays no more tours (tours 3–6 have 9 teams, the same points for places 1–9), and its
Brainball battles are annulled because it had not played a full round.

Season points: T1 6 × 12 = 72; T2 10 + 8 + 10 + 8 + 10 + 8 = 54; T3 8 + 10 + … = 54 (a tie for
2nd–3rd: a play-off, п. 12); T4 7 + 6.5 + 4 × 7 = 41.5 (42 before the verdict); T5 6 + 6.5 + 4 ×
6 = 36.5 (36 before); T6 30; T7 24; T8 18; T9 12; T10 1 + 1 = 2.

Play-off: T2 and T3 both take 4 of the 6 questions, then T3 takes the first extra question and
T2 not → T3 2nd, T2 3rd.

Brainball (round 1 only, as far as the season goes): T2 beats everybody; T10 beats T1 and T3; T1
beats T3. With T10's battles annulled: T2 8 wins (16 points), T1 1 win (2), everyone else 0. So
ChGK is won by T1, Brainball by T2: they meet in the superfinal, where T1 takes 7 ChGK and 6
Brainball questions, T2 4 and 6: T1 13 – 10 T2 after 24, the absolute champion.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from podium.web.battles.services.extra_questions import playoff_next
from podium.web.battles.services.playoffs import playoff_record
from podium.web.chgk.services.rounds import round_add
from podium.web.disputes.services.appeals import appeal_file, jury_appoint, verdict_record
from podium.web.disputes.services.discipline import withdrawal_record
from podium.web.kernel.refusals import Refused
from podium.web.kernel.stages import stage_entries
from podium.web.models import Appeal, Ban, Entry, Publication, Verdict
from podium.web.results.selectors.publication import publication_state
from podium.web.results.selectors.rows import battle_item, question_item, standings_as_of
from podium.web.results.services.checks import result_confirm, second_entry_record
from podium.web.results.services.results import result_record
from podium.web.standings.services.advancement import superfinal_winners
from podium.web.standings.services.publication import publication_set

MSK = dt.timezone(dt.timedelta(hours=3))
TOURS = 6


def tour_start(n: int) -> dt.datetime:
    return dt.datetime(2026, 1, 10, 19, 0, tzinfo=MSK) + dt.timedelta(days=14 * (n - 1))


def taken(tour: int, team: int) -> int | None:
    if team == 10 and tour > 2:
        return None  # withdrew
    if team in (2, 3):
        return 13 if (team == 2) == (tour % 2 == 1) else 12
    return 15 - team if team != 1 else 14


def mask(tour: int, team: int, count: int) -> str:
    if tour == 2 and team == 4:
        return "1" * 10 + "0000" + "1"
    return "1" * count + "0" * (15 - count)


@pytest.fixture
def season(make_event: Any, staff: Any, add_entry: Any, make_user: Any) -> dict[str, Any]:
    event = make_event(
        "deti-kolomny", starts_at=dt.datetime(2026, 1, 10, 16, 0, tzinfo=dt.UTC),
        timezone="Europe/Moscow",
    )  # fmt: skip
    people = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    teams = {n: add_entry(event, n, f"T{n}", "RU", category="teams") for n in range(1, 11)}
    for n in range(1, TOURS + 1):
        round_add(event=event, stage="chgk-tour", starts_at=tour_start(n), by=people["organizer"])
    jury = [make_user(f"jury{i}") for i in range(3)]
    for member in jury:
        jury_appoint(event=event, user=member, by=people["organizer"])
    return {"event": event, "people": people, "teams": teams, "jury": jury}


def play_tour(s: dict[str, Any], tour: int) -> None:
    """Records the tour's masks; a second scorer's matching entry verifies each."""
    event, people = s["event"], s["people"]
    at = tour_start(tour) + dt.timedelta(hours=2)
    for team, entry in s["teams"].items():
        count = taken(tour, team)
        if count is None:
            continue
        cells = {"mask": mask(tour, team, count)}
        first = result_record(
            event=event, stage="chgk-tour", round=tour, entry=entry, cells=cells,
            by=people["referee"], idempotency_key=f"t{tour}-{team}", now=at,
        )  # fmt: skip
        second_entry_record(
            result=first, cells=cells, by=people["referee2"],
            idempotency_key=f"c{tour}-{team}", now=at,
        )  # fmt: skip


def battle(s: dict[str, Any], a: int, b: int, sa: int, sb: int, at: dt.datetime) -> None:
    event, people = s["event"], s["people"]
    recorded = result_record(
        event=event, stage="brainball", item=battle_item(1, a, b),
        cells={"round": "1", "team1": str(a), "team2": str(b), "score1": str(sa),
               "score2": str(sb)},
        by=people["referee"], idempotency_key=f"b{a}-{b}", now=at,
    )  # fmt: skip
    result_confirm(result=recorded, by=people["head"], now=at)


def points(event: Any, stage: str, round: int = 1, at: dt.datetime | None = None) -> dict:
    [table] = standings_as_of(event, stage, round, at).tables
    return {row.entry.name: row for row in table.rows}


def publish_final(s: dict[str, Any], stage: str, round: int, at: dt.datetime) -> Publication:
    org = s["people"]["organizer"]
    if publication_state(s["event"], stage, round) == "draft":
        publication_set(event=s["event"], stage=stage, round=round, state="preliminary", by=org,
                        now=at)  # fmt: skip
    return publication_set(event=s["event"], stage=stage, round=round, state="final", by=org,
                           now=at)  # fmt: skip


def _first_tours_and_battles(s: dict[str, Any]) -> None:
    """Tours 1 and 2, Brainball round 1 so far."""
    event = s["event"]
    play_tour(s, 1)
    play_tour(s, 2)
    day = tour_start(2) + dt.timedelta(hours=3)
    for other in (1, 3, 4, 5, 6, 7, 8, 9, 10):
        battle(s, 2, other, 4, 2, day)
    battle(s, 10, 1, 4, 1, day)
    battle(s, 10, 3, 5, 1, day)
    battle(s, 1, 3, 3, 2, day)

    tour2 = points(event, "chgk-tour", 2)
    assert (tour2["T4"].points, tour2["T5"].points) == (Decimal("7.000"), Decimal("6.000"))


def _the_appeal_on_tour_2(s: dict[str, Any]) -> None:
    """The appeal on tour 2."""
    event = s["event"]
    people = s["people"]
    teams = s["teams"]
    filed_at = tour_start(2) + dt.timedelta(days=2)
    appeal = appeal_file(
        event=event, rule="chgk-question", kind="withdraw-question", stage="chgk-tour",
        round=2, entry=teams[5], question=15, statement="Вопрос 15 некорректен: два ответа.",
        by=people["referee"], method="cash", now=filed_at,
    )  # fmt: skip
    assert (appeal.fee.amount, appeal.fee.currency) == (Decimal("100.00"), "RUB")
    with pytest.raises(Refused, match="every appeal is decided"):
        publish_final(s, "chgk-tour", 2, tour_start(2) + dt.timedelta(days=8))
    assert publication_state(event, "chgk-tour", 2) == "preliminary"

    decided_at = tour_start(2) + dt.timedelta(days=9)
    verdict = verdict_record(
        appeal=appeal, upheld=True, reasons="У вопроса два верных ответа.", by=s["jury"][0],
        now=decided_at,
    )  # fmt: skip
    assert verdict.fee == Verdict.Fee.REFUNDED

    tour2 = points(event, "chgk-tour", 2)
    assert (tour2["T4"].rank, tour2["T4"].rank_to, tour2["T4"].points) == (4, 5, Decimal("6.500"))
    assert (tour2["T5"].rank, tour2["T5"].rank_to, tour2["T5"].points) == (4, 5, Decimal("6.500"))
    assert tour2["T1"].entry.metrics["questions"] == 14  # it had not taken question 15
    assert any("Question 15 withdrawn for every team" in r.text for r in tour2["T6"].reasons)
    # The table before the verdict is still there, as of a moment before it.
    before = points(event, "chgk-tour", 2, at=decided_at - dt.timedelta(minutes=1))
    assert before["T4"].points == Decimal("7.000")
    publish_final(s, "chgk-tour", 1, tour_start(1) + dt.timedelta(days=8))
    publish_final(s, "chgk-tour", 2, decided_at + dt.timedelta(hours=1))


def _t10_withdraws_before_the_middle_tour(s: dict[str, Any]) -> Any:
    """T10 withdraws before the middle tour."""
    event = s["event"]
    people = s["people"]
    teams = s["teams"]
    org = people["organizer"]
    received = tour_start(2) + dt.timedelta(days=10)
    withdrawal = withdrawal_record(
        entry=teams[10], statement="Команда T10 прекращает участие в чемпионате.",
        received_at=received, by=org, now=received,
    )  # fmt: skip
    assert (withdrawal.rule, withdrawal.before_middle, withdrawal.middle) == (
        "withdrawal-before-middle-tour",
        True,
        4,
    )
    assert set(Ban.objects.filter(team_name="T10").values_list("until", flat=True)) == {
        dt.date(2027, 8, 31)  # the end of the next season: Jan–Aug (as Nov–Jun), a year on
    }
    assert Ban.objects.filter(person__memberships__entry=teams[10]).count() == 1
    with pytest.raises(Refused, match="withdrew on"):
        result_record(
            event=event, stage="chgk-tour", round=3, entry=teams[10],
            cells={"mask": "1" * 5 + "0" * 10}, by=people["referee"], idempotency_key="late",
            now=tour_start(3) + dt.timedelta(hours=2),
        )  # fmt: skip

    brainball = points(event, "brainball")
    assert "T10" not in brainball  # every battle of it annulled: no full round
    assert brainball["T2"].entry.metrics["match_points"] == Decimal(16)
    assert brainball["T1"].entry.metrics["match_points"] == Decimal(2)
    assert brainball["T3"].entry.metrics["match_points"] == Decimal(0)
    assert any("battle against T10 annulled" in r.text for r in brainball["T1"].reasons)
    return withdrawal


def _tours_3_to_6(s: dict[str, Any]) -> None:
    """Tours 3 to 6."""
    event = s["event"]
    for tour in range(3, TOURS + 1):
        play_tour(s, tour)
        publish_final(s, "chgk-tour", tour, tour_start(tour) + dt.timedelta(days=8))

    season_table = points(event, "chgk-season")
    got = {name: row.entry.metrics["points"] for name, row in season_table.items()}
    assert got == {
        "T1": Decimal("72.000"), "T2": Decimal("54.000"), "T3": Decimal("54.000"),
        "T4": Decimal("41.500"), "T5": Decimal("36.500"), "T6": Decimal("30.000"),
        "T7": Decimal("24.000"), "T8": Decimal("18.000"), "T9": Decimal("12.000"),
        "T10": Decimal("2.000"),
    }  # fmt: skip
    assert (season_table["T2"].rank, season_table["T2"].rank_to) == (2, 3)
    assert season_table["T2"].playoff
    assert season_table["T3"].playoff
    assert any("Withdrew on" in r.text for r in season_table["T10"].reasons)


def _the_play_off_for_2nd_3rd(s: dict[str, Any]) -> dt.datetime:
    """The play-off for 2nd–3rd."""
    event = s["event"]
    people = s["people"]
    teams = s["teams"]
    org = people["organizer"]
    at = tour_start(TOURS) + dt.timedelta(days=9)
    t2 = playoff_record(event=event, entry=teams[2], playoff="4", by=org,
                        idempotency_key="p2", now=at)  # fmt: skip
    t3 = playoff_record(event=event, entry=teams[3], playoff="4", by=org,
                        idempotency_key="p3", now=at)  # fmt: skip
    still = points(event, "chgk-season")
    assert (still["T2"].rank, still["T2"].rank_to, still["T2"].playoff) == (2, 3, True)
    playoff_next(result=t3, taken=True, by=org, idempotency_key="p3-1", now=at)
    playoff_next(result=t2, taken=False, by=org, idempotency_key="p2-1", now=at)
    settled = points(event, "chgk-season")
    assert [(n, settled[n].rank, settled[n].rank_to) for n in ("T1", "T3", "T2", "T4")] == [
        ("T1", 1, 1), ("T3", 2, 2), ("T2", 3, 3), ("T4", 4, 4),
    ]  # fmt: skip
    assert "Play-off: 4 in the match, then 1 — place 2" in [r.text for r in settled["T3"].reasons]
    return at


def _both_disciplines_final_and_the_superfinal(
    s: dict[str, Any], at: dt.datetime, withdrawal: Any
) -> None:
    """Both disciplines final, the superfinal between their winners."""
    event = s["event"]
    people = s["people"]
    teams = s["teams"]
    org = people["organizer"]
    publish_final(s, "chgk-season", 1, at + dt.timedelta(hours=1))
    publish_final(s, "brainball", 1, at + dt.timedelta(hours=1))
    made = superfinal_winners(event=event, stage="superfinal", by=org, now=at)
    assert [(a.from_stage, a.entry.name) for a in made] == [
        ("chgk-season", "T1"),
        ("brainball", "T2"),
    ]
    final = event.rulebook.stage("superfinal")
    assert list(stage_entries(event, final)) == [teams[1], teams[2]]
    for n in range(1, 25):
        chgk = n <= 12
        first = "1" if (chgk and n <= 7) or (not chgk and n % 2) else "0"
        second = "1" if (chgk and 8 <= n <= 11) or (not chgk and not n % 2) else "0"
        result_record(
            event=event, stage="superfinal", item=question_item(n),
            cells={"discipline": "chgk" if chgk else "brainball", "1": first, "2": second},
            by=people["referee"], idempotency_key=f"q{n}", now=at,
        )  # fmt: skip
    superfinal = points(event, "superfinal")
    assert (superfinal["T1"].rank, superfinal["T2"].rank) == (1, 2)
    assert (
        superfinal["T1"].entry.metrics["questions"],
        superfinal["T2"].entry.metrics["questions"],
    ) == (13, 10)
    assert Appeal.objects.count() == 1
    assert Entry.objects.get(pk=teams[10].pk).withdrawal == withdrawal


@pytest.mark.django_db
def test_a_whole_season_with_an_appeal_a_withdrawal_a_play_off_and_the_superfinal(
    season: dict[str, Any],
) -> None:
    _first_tours_and_battles(season)
    _the_appeal_on_tour_2(season)
    withdrawal = _t10_withdraws_before_the_middle_tour(season)
    _tours_3_to_6(season)
    at = _the_play_off_for_2nd_3rd(season)
    _both_disciplines_final_and_the_superfinal(season, at, withdrawal)
