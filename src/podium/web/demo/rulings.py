"""Disputes and discipline in the demo: what the jury, the head referee and the organizer have
already ruled, and what waits for the newcomer.

- deti-kolomny: tour 1 — a team fielded a player of another team (its tour counts 0, the
  player is barred); tour 2 — an accepted answer credited to the appellant and one more team,
  and a rejected appeal (fee forfeited); tour 3 — an appeal to withdraw a question and a
  disputed answer wait for the jury (account ``jury``), so tour 3 cannot be final yet; one team
  withdrew in writing before the middle tour (its Brainball battles are annulled).
- cba-qualifier: a protest upheld with a corrected game, a protest rejected and taken to the
  federation's committee, a warning.

Every ruling goes through the services, at the moment it happened, so the tables "as of" any
earlier moment show what was known then.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from podium.web.disputes.services.appeals import appeal_file, verdict_record
from podium.web.disputes.services.discipline import sanction_impose, withdrawal_record
from podium.web.disputes.services.protests import (
    further_appeal_record,
    protest_decide,
    protest_file,
)
from podium.web.models import Entry, Event, EventRole, Result
from podium.web.results.selectors.rows import current_results


def _first_with(results: list[Result], question: int, mark: str, skip: set[int]) -> Entry:
    return next(
        r.entry
        for r in results
        if r.entry.scored
        and r.entry.pk not in skip
        and (r.cells.get("mask") or "")[question - 1 : question] == mark
    )


def chgk_played(event: Event, accounts: dict[str, Any], tour_ends: dict[int, dt.datetime]) -> None:
    """The rulings on tours 1 and 2 (before they were published final)."""
    head, jury = accounts["head"], accounts["jury"]
    EventRole.objects.get_or_create(event=event, user=jury, role=EventRole.Role.JURY)
    one = current_results(event, "chgk-tour", 1)
    offender, lender = one[3].entry, one[4].entry
    player = lender.members.select_related("person").first()
    assert player is not None
    sanction_impose(
        event=event, key="ineligible-player", by=head, entry=offender, person=player.person,
        stage="chgk-tour", round=1, now=tour_ends[1] + dt.timedelta(days=1),
        reason=f"{player.person}: игра в 1-м туре за «{offender.name}» при заявке за "
        f"«{lender.name}»",
    )  # fmt: skip

    two = current_results(event, "chgk-tour", 2)
    filed = tour_ends[2] + dt.timedelta(days=2)
    appellant = _first_with(two, 7, "0", set())
    also = _first_with(two, 7, "0", {appellant.pk})
    accepted = appeal_file(
        event=event, rule="chgk-question", kind="accept-answer", stage="chgk-tour", round=2,
        entry=appellant, question=7, answer="Коломенская пастила", method="cash",
        statement="Ответ «Коломенская пастила» точнее авторского «пастила».", by=head,
        now=filed,
    )  # fmt: skip
    verdict_record(
        appeal=accepted, upheld=True, credited=[also], by=jury,
        reasons="Уточнение не противоречит авторскому ответу; та же формулировка у ещё одной "
        "команды.", now=filed + dt.timedelta(days=3),
    )  # fmt: skip
    loser = _first_with(two, 12, "0", {appellant.pk, also.pk})
    rejected = appeal_file(
        event=event, rule="chgk-question", kind="withdraw-question", stage="chgk-tour",
        round=2, entry=loser, question=12, method="transfer",
        statement="В вопросе 12 неточность в дате.", by=head, now=filed,
    )  # fmt: skip
    verdict_record(
        appeal=rejected, upheld=False, by=jury, now=filed + dt.timedelta(days=3),
        reasons="Неточность не влияет на однозначность ответа.",
    )  # fmt: skip


def chgk_open(event: Event, accounts: dict[str, Any], tour_ends: dict[int, dt.datetime]) -> None:
    """Tour 3's appeal, waiting for the jury."""
    head = accounts["head"]
    three = current_results(event, "chgk-tour", 3)
    filed = tour_ends[3] + dt.timedelta(days=1)
    appeal_file(
        event=event, rule="chgk-question", kind="withdraw-question", stage="chgk-tour",
        round=3, entry=_first_with(three, 9, "0", set()), question=9, method="cash",
        statement="У вопроса 9 есть второй ответ, подходящий под все условия.", by=head,
        now=filed,
    )  # fmt: skip


def chgk_withdrawal(event: Event, accounts: dict[str, Any], received: dt.datetime) -> None:
    """A team withdraws in writing on the day of the middle tour, before it starts."""
    three = current_results(event, "chgk-tour", 3)
    leaving = [r.entry for r in three if r.entry.scored][-1]
    withdrawal_record(
        entry=leaving, by=accounts["head"], received_at=received, now=received,
        statement=f"Команда «{leaving.name}» прекращает участие в чемпионате.",
    )  # fmt: skip


def bowling(event: Event, accounts: dict[str, Any], at: dt.datetime) -> None:
    """Two protests and a warning after the third squad."""
    head = accounts["head"]
    results = current_results(event, "qualification", 1)
    upheld_on, rejected_on, warned = results[2], results[5], results[8]
    protest = protest_file(
        event=event, rule="protest", stage="qualification",
        entry=upheld_on.entry, result=upheld_on, method="cash", by=head, now=at,
        statement="Ve 3. hře stroj nezapočítal strike v 7. framu (dráha 5).",
    )  # fmt: skip
    game = int(upheld_on.cells["g3"])
    protest_decide(
        appeal=protest, upheld=True, by=head, now=at + dt.timedelta(minutes=25),
        reasons="Záznam kamery potvrdil strike v 7. framu.",
        action=f"3. hra opravena z {game} na {game + 20}",
        corrected_cells={**upheld_on.cells, "g3": str(game + 20)},
    )  # fmt: skip
    other = protest_file(
        event=event, rule="protest", stage="qualification",
        entry=rejected_on.entry, result=rejected_on, method="cash", by=head, now=at,
        statement="Soupeř na vedlejší dráze rušil při náběhu.",
    )  # fmt: skip
    protest_decide(
        appeal=other, upheld=False, by=head, now=at + dt.timedelta(minutes=30),
        reasons="Organizační výbor rušení nezjistil; pravidla se nepřekročila.",
    )  # fmt: skip
    further_appeal_record(appeal=other, by=head, now=at + dt.timedelta(minutes=40))
    sanction_impose(
        event=event, key="breach-of-duties", effect="warning", by=head, entry=warned.entry,
        person=warned.entry.members.first().person,  # type: ignore[union-attr]
        reason="Kouření v prostoru hráčů", now=at + dt.timedelta(minutes=10),
    )  # fmt: skip
