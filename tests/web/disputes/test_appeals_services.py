"""ChGK appeals (deti-kolomny п. 14): filing with the 100 RUB fee, the jury, verdicts, disputed
answers, and what a verdict does to the tour, the season and publication.

Hand-worked (15 questions; points per place 12, 10, 8, 7, 6, 5, shared places share them to
0.001; all times Moscow, November 2010):
- Tour 1 is played on the 7th, 19:00–21:30, so appeals close on the 14th at 21:30 (a week after
  the end) and verdicts are due on the 21st at 21:30. Masks of tour 1 (question 15 last):
  Alfa 111111111000001 (10), Beta 111111111100000 (10), Gamma 111111110000001 (9),
  Delta and Epsilon 111111111000000 (9), Zeta 111111100000000 (7)
  → Alfa, Beta 1st–2nd 11.000 each; Gamma, Delta, Epsilon 3rd–5th (8+7+6)/3 = 7.000; Zeta 5.
- Tour 2 on the 14th: Beta 12, Gamma 11, Epsilon 10, Alfa 9, Zeta 8, Delta 7 questions
  → 12, 10, 8, 7, 6, 5 points.
- Season before any verdict: Beta 11+12 = 23, Alfa 11+7 = 18, Gamma 7+10 = 17,
  Epsilon 7+8 = 15, Delta 7+5 = 12, Zeta 5+6 = 11 → places 1 to 6 in that order.
- (a) Beta appeals to withdraw question 15; upheld on the 20th at 18:00. Tour 1 without it:
  Beta 10 (1st, 12.000), Alfa, Delta, Epsilon 9 (2nd–4th, (10+8+7)/3 = 8.333), Gamma 8 (5th,
  6.000), Zeta 7 (6th, 5.000). Season: Beta 24.000, Epsilon 16.333, Gamma 16.000, Alfa 15.333,
  Delta 13.333, Zeta 11.000 — Alfa falls from 2nd to 4th, Epsilon rises from 4th to 2nd. The
  table as of the 20th at 12:00 (before the verdict) is the one before. The fee (100 RUB,
  receipt 1) is refunded.
- (b) Zeta appeals to accept its answer «Колокол» on question 14; upheld, and the jury names
  Gamma as having given the same answer: Zeta 8, Gamma 10 → Alfa, Beta, Gamma 1st–3rd
  (12+10+8)/3 = 10.000, Delta, Epsilon 4th–5th (7+6)/2 = 6.500, Zeta 6th 5.000. Season: Beta 22,
  Gamma 20, Alfa 17, Epsilon 14.5, Delta 11.5, Zeta 11.
- A rejected appeal forfeits its fee (no cash receipt: a fee, not a deposit).
- (d) Tour 1 is not final while the appeal is open (after the window closed on the 14th), and
  is final after the verdict.
- A disputed answer: Epsilon's question 12 is corrected to ``?`` (9 taken, as before); the jury
  accepts it → Alfa, Beta, Epsilon 10 share 1st–3rd (10.000), Gamma and Delta 4th–5th (6.500).
  A refused decision (no reasons) leaves the dispute open.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from podium.web.chgk.services.rounds import round_add
from podium.web.disputes.selectors.appeals import (
    filing_closes,
    jury_cards,
    open_on_round,
    pending_disputes,
    published_verdicts,
    verdict_due,
)
from podium.web.disputes.services.appeals import (
    appeal_file,
    dispute_decide,
    jury_appoint,
    verdict_record,
)
from podium.web.kernel.refusals import Refused
from podium.web.models import Appeal, EntryMember, EventRole, Payment, Person, Verdict
from podium.web.results.selectors.rows import current_results, standings_as_of
from podium.web.results.services.checks import second_entry_record
from podium.web.results.services.clock import round_end, round_start
from podium.web.results.services.results import result_correct, result_record
from podium.web.standings.services.publication import publication_set

MSK = zoneinfo.ZoneInfo("Europe/Moscow")
TOUR, SEASON, RULE = "chgk-tour", "chgk-season", "chgk-question"
WITHDRAW, ACCEPT = Appeal.Kind.WITHDRAW, Appeal.Kind.ACCEPT

TOUR1 = {
    "Alfa": "111111111000001",
    "Beta": "111111111100000",
    "Gamma": "111111110000001",
    "Delta": "111111111000000",
    "Epsilon": "111111111000000",
    "Zeta": "111111100000000",
}
TOUR2 = {"Alfa": 9, "Beta": 12, "Gamma": 11, "Delta": 7, "Epsilon": 10, "Zeta": 8}


def msk(day: int, h: int, m: int = 0) -> dt.datetime:
    return dt.datetime(2010, 11, day, h, m, tzinfo=MSK)


def mask(taken: int) -> str:
    return "1" * taken + "0" * (15 - taken)


def counts() -> tuple[int, int, int]:
    return Appeal.objects.count(), Verdict.objects.count(), Payment.objects.count()


def table(event: Any, stage: str, round: int = 1, at: dt.datetime | None = None) -> dict:
    """name → (official place, to, points) of the stage's table (a season: the sum of points)."""
    (only,) = standings_as_of(event, stage, round, at).tables
    return {
        r.entry.name: (
            r.official_rank, r.official_rank_to,
            r.entry.metrics["points"] if stage == SEASON else r.points,
        )
        for r in only.rows
    }  # fmt: skip


def order(event: Any, at: dt.datetime | None = None) -> list[str]:
    (only,) = standings_as_of(event, SEASON, at=at).tables
    return [r.entry.name for r in only.rows]


def d(text: str) -> Decimal:
    return Decimal(text)


def play(event: Any, people: Any, number: int, day: int, masks: dict[str, str]) -> None:
    """A tour from 19:00 to 21:30 on ``day``, every mask recorded at 21:00 and checked by a
    second entry."""
    round_start(event=event, stage=TOUR, round=number, by=people.head, now=msk(day, 19))
    for name, marks in masks.items():
        result = result_record(
            event=event, stage=TOUR, round=number, entry=people.teams[name],
            cells={"questions": "", "mask": marks}, by=people.referee,
            idempotency_key=f"t{number}-{name}", now=msk(day, 21),
        )  # fmt: skip
        second_entry_record(
            result=result, cells={"questions": "", "mask": marks}, by=people.checker,
            idempotency_key=f"s{number}-{name}", now=msk(day, 21, 10),
        )  # fmt: skip
    round_end(event=event, stage=TOUR, round=number, by=people.head, now=msk(day, 21, 30))


@pytest.fixture
def club(make_event: Any, staff: Any, add_entry: Any, make_user: Any) -> SimpleNamespace:
    event = make_event("deti-kolomny", timezone="Europe/Moscow")
    roles = staff(event, organizer="ilya", head="mikhail", referee="roman", referee2="rita")
    teams = {
        name: add_entry(event, n, name, country="RU", category="teams")
        for n, name in enumerate(TOUR1, start=1)
    }
    captains = {}
    for name, entry in teams.items():
        captains[name] = make_user(f"{name.lower()}-captain")
        Person.objects.filter(memberships__entry=entry).update(user=captains[name])
    people = SimpleNamespace(
        event=event, org=roles["organizer"], head=roles["head"], referee=roles["referee"],
        checker=roles["referee2"],
        teams=teams, captains=captains,
        jury=[make_user(u) for u in ("yulia", "yakov", "yana")],
    )  # fmt: skip
    round_add(event=event, stage=TOUR, starts_at=msk(7, 19), by=people.org)
    round_add(event=event, stage=TOUR, starts_at=msk(14, 19), by=people.org)
    play(event, people, 1, 7, TOUR1)
    play(event, people, 2, 14, {name: mask(n) for name, n in TOUR2.items()})
    for user in people.jury:
        jury_appoint(event=event, user=user, by=people.org)
    return people


def file(club: Any, team: str, kind: str = WITHDRAW, **kw: Any) -> Appeal:
    kw.setdefault("method", "transfer")
    kw.setdefault("statement", "Our written appeal.")
    kw.setdefault("question", 15)
    kw.setdefault("now", msk(9, 10))
    kw.setdefault("by", club.captains[team])
    return appeal_file(
        event=club.event, rule=RULE, kind=kind, stage=TOUR, entry=club.teams[team], round=1,
        **kw,
    )  # fmt: skip


def refused(call: Any, **kw: Any) -> Refused:
    before = counts()
    with pytest.raises(Refused) as caught:
        call(**kw)
    assert counts() == before  # nothing stored
    return caught.value


# --- filing -----------------------------------------------------------------------------------


def test_a_team_files_with_its_fee_and_the_windows_are_a_week_and_two(club: Any) -> None:
    appeal = file(club, "Beta", statement="Question 15 had two correct answers.")
    assert (appeal.number, appeal.kind, appeal.question, appeal.entry) == (
        1, WITHDRAW, 15, club.teams["Beta"],
    )  # fmt: skip
    fee = appeal.fee
    assert (fee.amount, fee.currency, fee.method, fee.fee_key, fee.receipt_number) == (
        d("100.00"), "RUB", "transfer", "appeal:chgk-question", 1,
    )  # fmt: skip
    assert fee.entry == club.teams["Beta"]
    stage = club.event.rulebook.stage(TOUR)
    rule = club.event.rulebook.appeals[0]
    assert filing_closes(club.event, stage, 1, rule, msk(9, 10)) == msk(14, 21, 30)
    assert verdict_due(club.event, appeal, msk(9, 10)) == msk(21, 21, 30)
    # The staff record an appeal received by e-mail, paid in cash: the next receipt number.
    emailed = file(club, "Zeta", ACCEPT, question=14, answer="Колокол", method="cash", by=club.org)
    assert (emailed.number, emailed.filed_by, emailed.fee.method) == (2, club.org, "cash")
    assert emailed.fee.receipt_number == 2
    assert counts() == (2, 0, 2)


def test_every_refusal_of_filing_names_the_reason_and_stores_nothing(club: Any) -> None:
    file(club, "Beta")
    no_fee = refused(file, club=club, team="Gamma", kind=ACCEPT, answer="Пушкин", method=None)
    assert no_fee.message == (
        "Appeal on a ChGK question needs the fee of 100 RUB, paid when filed."
    )
    assert (no_fee.field, (no_fee.clause or "")[:5]) == ("method", "п. 14")
    late = refused(file, club=club, team="Gamma", now=msk(14, 21, 31))
    assert late.message.startswith(
        "The time for appeals on this round is over: it closed Nov. 14, 2010, 9:30 p.m."
    )
    assert "Срок подачи апелляций – неделя" in (late.clause or "")
    on_time = file(club, "Gamma", now=msk(14, 21, 30))  # the last minute still counts
    assert on_time.number == 2
    both = refused(file, club=club, team="Beta", kind=ACCEPT, answer="Колокол")
    assert both.message == (
        "This team already filed appeal 1 on question 15 to withdraw the question; "
        "a team may not file both kinds on one question."
    )
    assert "не имеет права подавать на один и тот же вопрос апелляции обоих типов" in (
        both.clause or ""
    )
    again = refused(file, club=club, team="Beta")
    assert again.message == "This team already filed appeal 1 of this kind on question 15."
    no_answer = refused(file, club=club, team="Delta", kind=ACCEPT, answer="  ")
    assert (no_answer.message, no_answer.field) == (
        "Write the answer the team asks to be accepted.", "answer",
    )  # fmt: skip
    outsider = refused(file, club=club, team="Delta", by=club.captains["Alfa"])
    assert outsider.message == "An appeal is filed by the team itself or recorded by the staff."
    question = refused(file, club=club, team="Delta", question=16)
    assert (question.message, question.field) == ("Name the question: 1 to 15.", "question")
    assert counts() == (2, 0, 2)


# --- the jury ---------------------------------------------------------------------------------


def test_the_jury_has_three_members_who_do_not_play(club: Any, make_user: Any) -> None:
    event = club.event
    roles = EventRole.objects.filter(event=event, role=EventRole.Role.JURY)
    assert sorted(r.user.username for r in roles) == ["yakov", "yana", "yulia"]
    before = roles.count()
    player = club.captains["Alfa"]
    with pytest.raises(Refused) as caught:
        jury_appoint(event=event, user=player, by=club.org)
    assert caught.value.message == (
        "alfa-captain plays in this championship and may not sit on the jury."
    )
    assert "Члены АЖ не могут принимать участие в играх чемпионата" in (caught.value.clause or "")
    with pytest.raises(Refused, match=r"^The jury has 3 members already\.$"):
        jury_appoint(event=event, user=make_user("fourth"), by=club.org)
    with pytest.raises(Refused, match=r"^Only an organizer appoints the appeal jury\.$"):
        jury_appoint(event=event, user=make_user("fifth"), by=club.head)
    assert roles.count() == before


def test_every_refusal_of_a_verdict_names_the_reason_and_stores_nothing(club: Any) -> None:
    appeal = file(club, "Zeta", ACCEPT, question=14, answer="Колокол")
    judge = club.jury[0]

    def decide(**kw: Any) -> Verdict:
        kw.setdefault("by", judge)
        kw.setdefault("reasons", "The answer names the same object.")
        kw.setdefault("upheld", True)
        return verdict_record(appeal=appeal, now=msk(20, 18), **kw)

    stranger = refused(decide, by=club.org)
    assert stranger.message == "Only a member of the appeal jury records its verdict."
    assert (stranger.clause or "").startswith("п. 14")
    assert refused(decide, reasons="  ").message == "A verdict gives its reasons."
    itself = refused(decide, credited=[club.teams["Zeta"]])
    assert (itself.message, itself.field) == ("The appealing team is credited anyway.", "credited")
    rejected = refused(decide, upheld=False, credited=[club.teams["Gamma"]])
    assert rejected.message == "Other teams are credited only when an answer is accepted."
    # A jury member who joins a team afterwards may not decide any more.
    person = Person.objects.create(first_name="Yulia", last_name="J", user=judge)
    EntryMember.objects.create(entry=club.teams["Delta"], person=person)
    plays = refused(decide)
    assert plays.message == "A jury member who plays in this championship may not decide appeals."
    verdict = decide(by=club.jury[1], credited=[club.teams["Gamma"]])
    assert refused(decide, by=club.jury[2]).message == "Appeal 1 is already decided."
    assert list(verdict.credited.all()) == [club.teams["Gamma"]]


def test_the_fee_is_refunded_when_upheld_and_forfeited_when_rejected(club: Any) -> None:
    upheld = file(club, "Beta")
    rejected = file(club, "Alfa", ACCEPT, question=12, answer="Нил")
    yes = verdict_record(
        appeal=upheld, upheld=True, reasons="Two answers fit.", by=club.jury[0], now=msk(20, 18)
    )
    no = verdict_record(
        appeal=rejected, upheld=False, reasons="Too vague.", by=club.jury[1], now=msk(20, 19)
    )
    assert (yes.fee, yes.forfeit_receipt) == ("refunded", None)
    assert (no.fee, no.forfeit_receipt) == ("forfeited", None)  # a fee, not a deposit
    assert Payment.objects.filter(fee_key="appeal:chgk-question").count() == 2
    # The organizer's view names the team; the jury's does not (the rule is anonymous).
    assert [c.team for c in jury_cards(club.event, msk(20, 20), staff=True)] == [
        club.teams["Beta"], club.teams["Alfa"],
    ]  # fmt: skip
    assert [c.team for c in jury_cards(club.event, msk(20, 20))] == [None, None]


def test_the_organizer_is_warned_three_days_before_the_verdict_is_due(club: Any) -> None:
    file(club, "Beta")
    (card,) = jury_cards(club.event, msk(18, 21, 29))  # 3 days and a minute before the 21st
    assert (card.due, card.warned) == (msk(21, 21, 30), False)
    (card,) = jury_cards(club.event, msk(18, 21, 30))
    assert card.warned
    (card,) = jury_cards(club.event, msk(22, 9))  # overdue: still warned
    assert card.warned


# --- what verdicts do to the standings --------------------------------------------------------


def test_a_withdrawn_question_changes_the_tour_and_the_season(club: Any) -> None:
    event = club.event
    before_tour = {
        "Alfa": (1, 2, d("11.000")), "Beta": (1, 2, d("11.000")),
        "Gamma": (3, 5, d("7.000")), "Delta": (3, 5, d("7.000")), "Epsilon": (3, 5, d("7.000")),
        "Zeta": (6, 6, d("5.000")),
    }  # fmt: skip
    assert table(event, TOUR) == before_tour
    before_season = ["Beta", "Alfa", "Gamma", "Epsilon", "Delta", "Zeta"]
    assert order(event) == before_season
    appeal = file(club, "Beta")
    verdict_record(
        appeal=appeal, upheld=True, reasons="Question 15 had two correct answers.",
        by=club.jury[0], now=msk(20, 18),
    )  # fmt: skip
    assert table(event, TOUR) == {
        "Beta": (1, 1, d("12.000")),
        "Alfa": (2, 4, d("8.333")), "Delta": (2, 4, d("8.333")), "Epsilon": (2, 4, d("8.333")),
        "Gamma": (5, 5, d("6.000")), "Zeta": (6, 6, d("5.000")),
    }  # fmt: skip
    season = table(event, SEASON)
    assert order(event) == ["Beta", "Epsilon", "Gamma", "Alfa", "Delta", "Zeta"]
    assert {name: points for name, (_p, _t, points) in season.items()} == {
        "Beta": d("24.000"), "Epsilon": d("16.333"), "Gamma": d("16.000"),
        "Alfa": d("15.333"), "Delta": d("13.333"), "Zeta": d("11.000"),
    }  # fmt: skip
    assert season["Alfa"][:2] == (4, 4)
    # The table as it stood before the verdict is unchanged.
    assert table(event, TOUR, at=msk(20, 12)) == before_tour
    assert order(event, at=msk(20, 12)) == before_season
    # The tour's rows explain it, and the public sees the verdict with the results.
    (only,) = standings_as_of(event, TOUR).tables
    alfa = next(r for r in only.rows if r.entry.name == "Alfa")
    assert any("Question 15" in str(reason) for reason in alfa.reasons)
    (published,) = published_verdicts(event, TOUR, 1)
    assert (published.number, published.question, published.kind, published.upheld) == (
        1, 15, "withdraw the question", True,
    )  # fmt: skip
    assert (published.reasons, published.credited) == ("Question 15 had two correct answers.", 0)


def test_an_accepted_answer_is_credited_to_the_appellant_and_a_named_team(club: Any) -> None:
    event = club.event
    appeal = file(club, "Zeta", ACCEPT, question=14, answer="Колокол")
    verdict_record(
        appeal=appeal, upheld=True, reasons="«Колокол» is the Tsar Bell itself.",
        by=club.jury[0], credited=[club.teams["Gamma"]], now=msk(20, 18),
    )  # fmt: skip
    assert table(event, TOUR) == {
        "Alfa": (1, 3, d("10.000")), "Beta": (1, 3, d("10.000")), "Gamma": (1, 3, d("10.000")),
        "Delta": (4, 5, d("6.500")), "Epsilon": (4, 5, d("6.500")), "Zeta": (6, 6, d("5.000")),
    }  # fmt: skip
    assert order(event) == ["Beta", "Gamma", "Alfa", "Epsilon", "Delta", "Zeta"]
    points = {name: p for name, (_a, _b, p) in table(event, SEASON).items()}
    assert points == {
        "Beta": d("22.000"), "Gamma": d("20.000"), "Alfa": d("17.000"),
        "Epsilon": d("14.500"), "Delta": d("11.500"), "Zeta": d("11.000"),
    }  # fmt: skip
    (published,) = published_verdicts(event, TOUR, 1)
    assert (published.answer, published.credited) == ("Колокол", 1)
    # Before the verdict: as it was.
    assert table(event, TOUR, at=msk(20, 17))["Zeta"] == (6, 6, d("5.000"))


def test_the_tour_is_final_only_after_every_verdict(club: Any) -> None:
    event, org = club.event, club.org
    publication_set(event=event, stage=TOUR, state="preliminary", by=org, now=msk(8, 10))
    appeal = file(club, "Beta")
    with pytest.raises(Refused, match=r"after the appeal window closes \(Nov\. 14, 2010"):
        publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(12, 10))
    with pytest.raises(Refused) as caught:
        publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(15, 10))
    assert caught.value.message == "Final only once every appeal is decided."
    assert [a.number for a in open_on_round(event, event.rulebook.stage(TOUR), 1)] == [1]
    verdict_record(
        appeal=appeal, upheld=True, reasons="Two answers fit.", by=club.jury[0], now=msk(20, 18)
    )
    final = publication_set(event=event, stage=TOUR, state="final", by=org, now=msk(20, 19))
    rows = {r["name"]: r for r in final.table["tables"][0]["rows"]}
    assert (rows["Beta"]["points"], rows["Alfa"]["points"]) == (12.0, 8.333)
    # Once final, the time for appeals is over.
    late = refused(file, club=club, team="Gamma", now=msk(14, 21))
    assert late.message == "These results are final: the time for appeals is over."


def test_a_disputed_answer_goes_to_the_same_jury(club: Any) -> None:
    event = club.event
    stage = event.rulebook.stage(TOUR)
    epsilon = club.teams["Epsilon"]
    current = next(r for r in current_results(event, TOUR, 1) if r.entry_id == epsilon.pk)
    result_correct(
        result=current, cells={"questions": "", "mask": "11111111100?000"}, by=club.head,
        reason="Question 12 disputed at the table", idempotency_key="eps-q12", now=msk(8, 9),
    )  # fmt: skip
    (dispute,) = pending_disputes(event, stage, 1)
    assert (dispute.entry, dispute.question) == (epsilon, 12)

    def decide(**kw: Any) -> Verdict:
        kw.setdefault("reasons", "«Нил» is the answer on the sheet.")
        kw.setdefault("by", club.jury[0])
        kw.setdefault("question", 12)
        return dispute_decide(
            event=event, stage=TOUR, round=1, entry=epsilon, upheld=True, now=msk(10, 12),
            **kw,
        )  # fmt: skip

    assert refused(decide, reasons="").message == "A verdict gives its reasons."
    assert pending_disputes(event, stage, 1) == [dispute]  # still open
    assert refused(decide, by=club.org).message == (
        "Only a member of the appeal jury records its verdict."
    )
    wrong = refused(decide, question=11)
    assert wrong.message == "#5 has no disputed answer (?) at question 11."
    verdict = decide()
    assert (verdict.upheld, verdict.appeal.kind, verdict.fee) == (True, "disputed", "none")
    assert pending_disputes(event, stage, 1) == []
    assert open_on_round(event, stage, 1) == []
    assert table(event, TOUR)["Epsilon"] == (1, 3, d("10.000"))
    assert table(event, TOUR)["Delta"] == (4, 5, d("6.500"))
    assert table(event, TOUR, at=msk(10, 11))["Epsilon"] == (3, 5, d("7.000"))
