"""Filing a ChGK appeal and deciding it at the jury's anonymous desk, in a real browser on a
phone-sized screen.

Hand-worked (deti-kolomny, 15 questions): tour 1 was played yesterday — Sovy 10, Ezhi 9, Lisy 8
questions. Ezhi's captain files appeal 1 to accept «Колокол» on question 11, ticking the 100 RUB
fee as paid; the confirmation shows number 1, filing open until a week after the results and the
verdict due two weeks after. A jury member opens the desk: appeal 1 is there with the answer and
the statement, and the page never says Ezhi filed it (the credit picker lists all three teams).
The jury upholds it: Ezhi 10 shares 1st–2nd with Sovy.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from podium.web.disputes.services.appeals import appeal_file, jury_appoint, verdict_record
from podium.web.models import Appeal, Entry, Event, Person, Round, Verdict
from podium.web.results.selectors.rows import standings_as_of
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

PHONE = {"width": 390, "height": 844}
TOUR = "chgk-tour"
MASKS = {"Sovy": "111111111100000", "Ezhi": "111111111000000", "Lisy": "111111110000000"}


def tour_played(
    make_event: Any, staff: Any, add_entry: Any, days_ago: int
) -> tuple[Event, dict[str, Any], dict[str, Entry], dt.datetime]:
    """deti-kolomny with its organizer and referee, and tour 1 of Sovy, Ezhi and Lisy (``MASKS``)
    played and recorded ``days_ago`` days ago."""
    event = make_event("deti-kolomny", timezone="Europe/Moscow", language="en")
    people = staff(event, organizer="ilya", referee="roman")
    teams = {
        name: add_entry(event, n, name, country="RU", category="teams")
        for n, name in enumerate(MASKS, start=1)
    }
    played = timezone.now() - dt.timedelta(days=days_ago)
    Round.objects.create(event=event, stage=TOUR, number=1, starts_at=played)
    for name, marks in MASKS.items():
        result_record(
            event=event, stage=TOUR, entry=teams[name], cells={"questions": "", "mask": marks},
            by=people["referee"], idempotency_key=name, now=played,
        )  # fmt: skip
    return event, people, teams, played


def captain_of(team: Entry, username: str, make_user: Any) -> Any:
    """An account for the team's player, who files the team's appeals as its captain."""
    captain = make_user(username)
    Person.objects.filter(memberships__entry=team).update(user=captain)
    return captain


def jury_of(event: Event, organizer: Any, make_user: Any, *usernames: str) -> list[Any]:
    """Accounts for the jury members, appointed by the organizer."""
    jurors = [make_user(u) for u in usernames]
    for user in jurors:
        jury_appoint(event=event, user=user, by=organizer)
    return jurors


@pytest.mark.django_db(transaction=True)
def test_a_captain_files_and_the_jury_decides_without_knowing_who(
    browser: Any,
    live_server: Any,
    sign_in: Any,
    make_event: Any,
    staff: Any,
    add_entry: Any,
    make_user: Any,
) -> None:
    event, people, teams, _played = tour_played(make_event, staff, add_entry, days_ago=1)
    captain = captain_of(teams["Ezhi"], "cap-ezhi", make_user)
    [juror] = jury_of(event, people["organizer"], make_user, "yulia")

    # The captain, on a phone.
    context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport=PHONE)
    try:
        sign_in(context, captain)
        page = context.new_page()
        page.goto(f"/appeals/{event.slug}/file/")
        assert page.locator("select[name=entry] option").all_inner_texts() == ["#2 Ezhi"]
        page.fill("input[name=question]", "11")
        page.get_by_label("accept the answer").check()
        page.fill("input[name=answer]", "Колокол")
        page.fill("textarea[name=statement]", "The Tsar Bell is a bell: «Колокол» names it.")
        page.screenshot(path="/tmp/podium-appeal-form.png", full_page=True)
        page.get_by_role("button", name="File the appeal").click()
        # Without the fee ticked: refused with the rule's reason next to the tick.
        error = page.locator("#field-paid .errorlist")
        assert "needs the fee of 100 RUB, paid when filed" in error.inner_text()
        assert Appeal.objects.count() == 0
        assert page.input_value("input[name=answer]") == "Колокол"  # what was typed is kept
        page.get_by_label("We paid the fee of 100 RUB by bank transfer").check()
        page.get_by_role("button", name="File the appeal").click()
        page.wait_for_url("**/filed/1/")
        assert page.locator("h1").inner_text() == "Appeal 1 is filed"
        assert page.locator("dd.number").inner_text() == "1"
        assert page.locator("dd.closes").inner_text()
        assert page.locator("dd.due").inner_text()
        page.screenshot(path="/tmp/podium-appeal-filed.png", full_page=True)
    finally:
        context.close()
    appeal = Appeal.objects.get()
    assert (appeal.entry, appeal.kind, appeal.answer, appeal.fee.amount) == (
        teams["Ezhi"], "accept-answer", "Колокол", Decimal("100.00"),
    )  # fmt: skip

    # The jury member, on a phone.
    context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport=PHONE)
    try:
        sign_in(context, juror)
        page = context.new_page()
        page.goto(f"/jury/{event.slug}/")
        card = page.locator("#appeal-1")
        assert "Appeal 1" in card.inner_text()
        assert "Колокол" in card.inner_text()
        html = page.content()
        assert "cap-ezhi" not in html
        # Ezhi appears only as one of the three teams of the credit picker, like the others.
        picker = page.locator("#field-a1-credited label").all_inner_texts()
        assert [p.strip() for p in picker] == ["#1 Sovy", "#2 Ezhi", "#3 Lisy"]
        assert len(re.findall("Ezhi", html)) == 1
        page.screenshot(path="/tmp/podium-jury-desk.png", full_page=True)
        card.get_by_label("Upheld").check()
        card.locator("textarea").fill("A «Колокол» is what the question asked for.")
        card.get_by_role("button", name="Record the verdict on appeal 1").click()
        page.wait_for_selector("text=Verdict on appeal 1 recorded: upheld.")
        decided = page.locator("section.decided#appeal-1")
        assert "upheld" in decided.inner_text()
        assert "Ezhi" not in page.content()
        page.screenshot(path="/tmp/podium-jury-decided.png", full_page=True)
    finally:
        context.close()
    verdict = Verdict.objects.get()
    assert (verdict.upheld, verdict.decided_by, verdict.fee) == (True, juror, "refunded")
    (table,) = standings_as_of(event, TOUR).tables
    assert {r.entry.name: (r.official_rank, r.points) for r in table.rows} == {
        "Sovy": (1, Decimal("11.000")), "Ezhi": (1, Decimal("11.000")),
        "Lisy": (3, Decimal("8.000")),
    }  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_overview_and_the_public_tour_page_on_a_phone(
    browser: Any,
    live_server: Any,
    sign_in: Any,
    make_event: Any,
    staff: Any,
    add_entry: Any,
    make_user: Any,
) -> None:
    """Tour 1 was played 12 days ago: the verdict on Lisy's appeal (withdraw question 10,
    received by e-mail) is due in 2 days, so the overview warns. Upheld: Sovy, who alone took
    question 10, has 9 like Ezhi → both 1st–2nd with (12 + 10) / 2 = 11 points, Lisy 8."""
    event, people, teams, played = tour_played(make_event, staff, add_entry, days_ago=12)
    jurors = jury_of(event, people["organizer"], make_user, "yulia", "yakov")
    appeal = appeal_file(
        event=event, rule="chgk-question", kind="withdraw-question", stage=TOUR,
        entry=teams["Lisy"], by=people["organizer"], question=10, method="cash",
        statement="Received by e-mail: question 10 had a wrong fact.",
        now=played + dt.timedelta(days=1),
    )  # fmt: skip
    context = browser.new_context(base_url=live_server.url, locale="en-GB", viewport=PHONE)
    try:
        sign_in(context, people["organizer"])
        page = context.new_page()
        page.goto(f"/appeals/{event.slug}/")
        assert "1 appeal needs its verdict soon" in page.locator("section.warnings").inner_text()
        assert "#3 Lisy" in page.locator("#appeal-1").inner_text()
        assert page.locator("#appeal-1 .warn").inner_text() == "due soon"
        page.screenshot(path="/tmp/podium-appeals-overview.png", full_page=True)
        verdict_record(appeal=appeal, upheld=True, reasons="The fact was wrong.", by=jurors[0])
        publication_set(
            event=event, stage=TOUR, state="preliminary", by=people["organizer"],
            now=timezone.now() + dt.timedelta(days=1),
        )  # fmt: skip
        page.goto(f"/standings/{event.slug}/{TOUR}/1/")
        verdicts = page.locator("section.verdicts")
        assert "Appeal 1, question 10: withdraw the question" in verdicts.inner_text()
        assert "upheld" in verdicts.inner_text()
        rows = page.locator("table.standings tbody tr").all()
        assert [
            (r.locator("td:nth-child(4)").inner_text(), r.locator("td:nth-child(6)").inner_text())
            for r in rows
        ] == [("Ezhi", "11"), ("Sovy", "11"), ("Lisy", "8")]
        page.screenshot(path="/tmp/podium-appeals-public.png", full_page=True)
    finally:
        context.close()
