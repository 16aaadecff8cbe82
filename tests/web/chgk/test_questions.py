"""The question duty: the count and deadline, the coordinator's packet, replacements and play,
and п. 23 (services and selectors).

Hand-worked (deti-kolomny, Europe/Moscow, UTC+3 since 2014):
- Tour 1 starts Thu 12 Nov 2026 19:00 MSK (16:00 UTC); the ChGK duty is 15 questions 7 days
  before: due Thu 5 Nov 19:00 MSK (16:00 UTC). Handed in at 18:59 and at 19:00 → on time;
  19:01 → late. 12 on time and 3 late: count 15 (not short), 12 on time, marked late.
- Tour of Fri 1 Apr 2011 19:00 MSK: Moscow moved from UTC+3 to UTC+4 on 27 Mar 2011, so the
  tour starts 15:00 UTC and the deadline, Fri 25 Mar 19:00 MSK on the wall clock, is 16:00 UTC
  — 169 hours before. Handed in at 15:30 UTC (18:30 MSK) → on time, though less than 7 × 24 h
  before; 16:01 UTC (19:01 MSK) → late.
- п. 23: the event starts in Nov 2026; the season (Nov–Jun) ends 30 Jun 2027, the next one
  30 Jun 2028. Host Sovy, players Sova and Filin registered before the tour and Puhach after
  it: bans for the team name "Sovy", Sova and Filin, until 30 Jun 2028 — not Puhach.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from tests.web.chgk.questions_scenario import TOUR, UTC, msk, numbered, packet, player

from podium.web.chgk.selectors.database import database_index, public_questions
from podium.web.chgk.selectors.duty import deadline, duty_of, duty_state, host_missed, packet_of
from podium.web.chgk.services.questions import (
    PacketRefused,
    host_disqualify,
    packet_play,
    packet_select,
    questions_submit,
    replacement_ask,
    replacement_submit,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import AuditEntry, Ban, Entry, Question, QuestionSubmission, Round, Sanction

# --- The count and the deadline -------------------------------------------------------------


def test_deadline_is_seven_days_before_on_the_moscow_wall_clock(season: Any) -> None:
    due = deadline(season.event, season.tour, duty_of(season.event, "chgk"))
    assert due == msk(5, 19)
    assert due.astimezone(UTC) == dt.datetime(2026, 11, 5, 16, tzinfo=UTC)


@pytest.mark.parametrize(
    ("at", "late"),
    [((5, 18, 59), False), ((5, 19, 0), False), ((5, 19, 1), True), ((5, 20, 0), True)],
)
def test_on_time_and_late_around_the_seven_day_mark(
    season: Any, at: tuple[int, int, int], late: bool
) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(15), by=season.sova, now=msk(*at)
    )
    state = duty_state(season.event, season.tour, "chgk")
    assert state.late is late
    assert (state.count, state.on_time) == (15, 0 if late else 15)
    assert AuditEntry.objects.get(action="questions.submit").data["late"] is late


def test_the_deadline_follows_the_wall_clock_across_moscows_2011_change(
    make_event: Any, make_user: Any
) -> None:
    event = make_event(
        "deti-kolomny", slug="dk-2010", timezone="Europe/Moscow",
        starts_at=dt.datetime(2010, 11, 1, 16, tzinfo=UTC),
    )  # fmt: skip
    host = Entry.objects.create(
        event=event, category="teams", number=1, name="Sovy", status=Entry.Status.CONFIRMED
    )
    tour = Round.objects.create(
        event=event, stage=TOUR, number=1, host=host,
        starts_at=dt.datetime(2011, 4, 1, 15, tzinfo=UTC),  # 19:00 MSK (UTC+4)
    )  # fmt: skip
    due = deadline(event, tour, duty_of(event, "chgk"))
    assert due is not None
    assert due.astimezone(UTC) == dt.datetime(2011, 3, 25, 16, tzinfo=UTC)  # 19:00 MSK (UTC+3)
    assert tour.starts_at - due == dt.timedelta(days=7, hours=-1)
    staff = make_user("clerk")
    event.roles.create(user=staff, role="referee")
    questions_submit(
        tour=tour, discipline="chgk", packet=numbered(10), by=staff,
        now=dt.datetime(2011, 3, 25, 15, 30, tzinfo=UTC),
    )  # fmt: skip
    questions_submit(
        tour=tour, discipline="chgk", packet=numbered(5, 11), by=staff,
        now=dt.datetime(2011, 3, 25, 16, 1, tzinfo=UTC),
    )  # fmt: skip
    rows = duty_state(event, tour, "chgk").submissions
    assert [r.late for r in rows] == [False, True]


def test_count_against_the_minimum_short_then_complete_but_late(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(12), by=season.sova, now=msk(4, 12)
    )
    state = duty_state(season.event, season.tour, "chgk")
    assert (state.count, state.minimum, state.missing, state.short) == (12, 15, 3, True)
    assert state.late is False

    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(3, 13), by=season.sova,
        now=msk(6, 10),
    )  # fmt: skip
    state = duty_state(season.event, season.tour, "chgk")
    assert (state.count, state.on_time, state.short, state.late) == (15, 12, False, True)
    assert [r.late for r in state.submissions] == [False, True]

    brainball = duty_state(season.event, season.tour, "brainball")
    assert (brainball.count, brainball.minimum, brainball.short) == (0, 36, True)


def test_only_the_host_or_staff_hands_in_and_a_bad_packet_stores_nothing(season: Any) -> None:
    with pytest.raises(Refused, match="Only the host team"):
        questions_submit(tour=season.tour, discipline="chgk", packet=numbered(15), by=season.ezh)
    with pytest.raises(PacketRefused) as refused:
        questions_submit(
            tour=season.tour, discipline="chgk", packet=packet("bad-packet.txt"), by=season.sova
        )
    assert len(refused.value.errors) == 7
    assert QuestionSubmission.objects.count() == 0
    assert Question.objects.count() == 0
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(2), by=season.olga, now=msk(1, 10)
    )
    assert QuestionSubmission.objects.get().entry == season.sovy


# --- The packet, replacements and play ------------------------------------------------------


@pytest.fixture
def handed_in(season: Any) -> list[Question]:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=packet("tour-packet.txt"), by=season.sova,
        now=msk(4, 20),
    )  # fmt: skip
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(2, 16), by=season.sova,
        now=msk(4, 21),
    )  # fmt: skip
    return list(Question.objects.order_by("submission__submitted_at", "number"))


def test_the_coordinator_selects_15_asks_a_replacement_and_the_host_replaces(
    season: Any, handed_in: list[Question]
) -> None:
    ids = [q.pk for q in handed_in]
    with pytest.raises(Refused, match="The packet has 15 questions; 14 are chosen"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:14], by=season.olga)
    with pytest.raises(Refused, match="Only the coordinator"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.sova)
    assert not Question.objects.filter(status="selected").exists()

    chosen = packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)
    assert [q.pk for q in chosen] == ids[:15]

    first = handed_in[0]
    with pytest.raises(Refused) as refused:
        replacement_ask(question=first, note="  ", by=season.olga)
    assert refused.value.field == "note"
    replacement_ask(question=first, note="Кубок Коломны 2024, вопрос 1", by=season.olga)
    first.refresh_from_db()
    assert (first.status, first.note) == ("replace", "Кубок Коломны 2024, вопрос 1")
    assert len(packet_of(season.tour, "chgk")) == 14
    with pytest.raises(Refused, match="asked to be replaced"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)

    with pytest.raises(Refused, match="one question"):
        replacement_submit(question=first, packet=numbered(2), by=season.sova)
    new = replacement_submit(
        question=first, packet="1. Новый вопрос о крепости?\nОтвет: Петропавловская",
        by=season.sova, now=msk(10, 12),
    )  # fmt: skip
    first.refresh_from_db()
    assert first.replaced_by == new
    assert new.number == 1
    state = duty_state(season.event, season.tour, "chgk")
    # 17 handed in, one replaced by its replacement: still 17; the replacement is not late.
    assert (state.count, state.late, state.asked) == (17, False, [])
    assert [r.replacement for r in state.submissions] == [False, False, True]

    packet_select(
        tour=season.tour, discipline="chgk", questions=[new.pk, *ids[1:15]], by=season.olga
    )
    assert len(packet_of(season.tour, "chgk")) == 15
    assert Question.objects.get(pk=ids[15]).status == "submitted"


def test_the_played_packet_enters_the_database_after_the_tour(
    season: Any, handed_in: list[Question]
) -> None:
    ids = [q.pk for q in handed_in]
    packet_select(tour=season.tour, discipline="chgk", questions=ids[2:17], by=season.olga)
    with pytest.raises(Refused, match="starts"):
        packet_play(tour=season.tour, by=season.olga, now=msk(12, 18, 59))

    moved = packet_play(tour=season.tour, by=season.olga, now=msk(12, 22))

    assert len(moved) == 15
    played = Question.objects.filter(status="archive").order_by("number")
    assert [q.number for q in played] == list(range(1, 16))
    assert played[0].pk == ids[2]
    assert {(q.played_on, q.public_from) for q in played} == {
        (dt.date(2026, 11, 12), dt.date(2027, 11, 12))
    }
    assert {q.source for q in played} == {"Дети Коломны XV, tour 1"}
    assert Question.objects.filter(status="submitted").count() == 2
    assert not public_questions(dt.date(2027, 11, 11)).exists()
    assert public_questions(dt.date(2027, 11, 12)).count() == 15
    # Played: nothing changes any more.
    with pytest.raises(Refused, match="was played"):
        questions_submit(tour=season.tour, discipline="chgk", packet=numbered(1), by=season.sova)
    with pytest.raises(Refused, match="was played"):
        packet_play(tour=season.tour, by=season.olga, now=msk(13, 10))
    # The played questions are now what later packets are checked against.
    index = database_index(dt.date(2026, 11, 13))
    text = Question.objects.get(pk=ids[2]).text
    assert index.closest(text, "Корсика")[0].score == 1.0


# --- п. 23 ----------------------------------------------------------------------------------


def test_a_host_without_questions_is_disqualified_with_its_players(season: Any) -> None:
    late_player = player(season.sovy, "Puhach", added_at=msk(12, 20))
    assert host_missed(season.event, season.tour, msk(12, 18)) is False
    with pytest.raises(Refused, match="has not started"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 18))
    assert host_missed(season.event, season.tour, msk(12, 19)) is True
    with pytest.raises(Refused, match="Only the coordinator"):
        host_disqualify(tour=season.tour, by=season.sova, now=msk(12, 20))

    sanction = host_disqualify(
        tour=season.tour, by=season.olga, reason="Не отвечали на письма.", now=msk(12, 21)
    )

    assert (sanction.key, sanction.entry, sanction.stage, sanction.round) == (
        "host-without-questions", season.sovy, TOUR, 1
    )  # fmt: skip
    assert sanction.reason == (
        "Host of tour 1: no ChGK questions handed in to the coordinator before the tour "
        "started. Не отвечали на письма."
    )
    assert sanction.clause.startswith("п. 23:")
    bans = Ban.objects.filter(sanction=sanction)
    assert sorted((b.team_name or b.person.first_name) for b in bans) == ["Filin", "Sova", "Sovy"]
    assert {b.until for b in bans} == {dt.date(2028, 6, 30)}
    assert not bans.filter(person=late_player).exists()
    assert host_missed(season.event, season.tour, msk(12, 22)) is False
    with pytest.raises(Refused, match="already disqualified"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 22))
    assert Sanction.objects.count() == 1


def test_a_host_that_handed_in_before_the_start_is_not_disqualified(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(3), by=season.sova,
        now=msk(12, 18, 30),
    )  # fmt: skip
    with pytest.raises(Refused, match="handed in 3 ChGK questions"):
        host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 20))
    assert Sanction.objects.count() == 0
    assert Ban.objects.count() == 0


def test_questions_handed_in_only_after_the_start_do_not_save_the_host(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="chgk", packet=numbered(15), by=season.sova,
        now=msk(12, 19, 30),
    )  # fmt: skip
    assert host_missed(season.event, season.tour, msk(12, 20)) is True
    host_disqualify(tour=season.tour, by=season.olga, now=msk(12, 20))
    assert Ban.objects.count() == 3


def test_a_brainball_packet_has_as_many_questions_as_the_coordinator_ticks(season: Any) -> None:
    questions_submit(
        tour=season.tour, discipline="brainball", packet=numbered(40, word="бой"),
        by=season.sova, now=msk(4, 12),
    )  # fmt: skip
    state = duty_state(season.event, season.tour, "brainball")
    assert (state.count, state.minimum, state.short) == (40, 36, False)
    ids = list(Question.objects.values_list("pk", flat=True))
    with pytest.raises(Refused, match="Tick the questions"):
        packet_select(tour=season.tour, discipline="brainball", questions=[], by=season.olga)
    chosen = packet_select(
        tour=season.tour, discipline="brainball", questions=ids[:24], by=season.olga
    )
    assert len(chosen) == 24
    # The ChGK packet is another one: the Brainball questions are not in it.
    with pytest.raises(Refused, match="Choose among the questions handed in"):
        packet_select(tour=season.tour, discipline="chgk", questions=ids[:15], by=season.olga)
