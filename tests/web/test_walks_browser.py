"""The README's demo walks, in a real browser, each to its end.

Each test loads one demo event (``podium.web.demo``) and does what the README's "A round in
the demo" and the sentences after it (and "Disputes in the demo") tell a newcomer to do, as the
demo's people: ``head``, ``referee`` on a phone, ``organizer``, ``jury``. A walk that cannot
finish is a bug of the product, not of the walk.

Hand-worked:
- cz-jigsaw: three entrants of each group (A, B) are left. The clock runs since 44 minutes
  before loading, so the two finishes tapped live are between 0:44:00 and 0:47:00 (the fastest
  typed-in time is 0:45:00). The head ends the round early and counts the pieces of the other
  four (groups 120 45 12 3 2 → 180 pieces: groups of at least 3 count). The final's entry list
  is 50 Czechs and 5 foreigners from each group: 110.

Every walk confirms a round (a group's, a superfinal's) in ONE action from the round board,
which shows what is left before and after (``_confirm_round``): the referee's and the head's
results of the jigsaw qualification, the Puzzle Party's pairs, the bowling squad's games, the
superfinal's 24 questions run by the head ("Question 13 (Brainball): …").
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from podium.web.demo import load_demo
from podium.web.models import Advancement, AuditEntry, Entry, Event, Result

PHONE = {"width": 390, "height": 844}


def _people() -> dict[str, Any]:
    users = get_user_model().objects.filter(
        username__in=["organizer", "head", "referee", "scorer", "jury", "player"]
    )
    return {u.username: u for u in users}


@pytest.fixture
def as_user(new_context: Any, sign_in: Any, live_server: Any) -> Any:
    """A signed-in page of a demo person, reading English (the staff pages' default)."""

    def page(user: Any, **options: Any) -> Any:
        context = new_context(**options)
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        context.set_default_timeout(30_000)  # only against a hung walk: a busy machine is slow
        sign_in(context, user)
        return context.new_page()

    return page


def _left(event: Event, stage: str) -> list[Entry]:
    """The entrants of the stage without a result yet, by number."""
    done = Result.objects.filter(event=event, stage=stage).values_list("entry_id", flat=True)
    category = event.rulebook.stage(stage).category
    return list(
        event.entries.filter(status=Entry.Status.CONFIRMED, category=category)
        .exclude(pk__in=list(done))
        .order_by("number")
    )


def _tap(page: Any, console: str, entry: Entry, missing: str = "", compensation: str = "") -> None:
    """A referee taps "Finished" on the entrant's card (found by number), then the competitor
    agrees where the rulebook asks."""
    page.goto(f"{console}?q={entry.number}")
    card = page.locator(f"#entry-{entry.number}")
    if missing:
        card.locator("input[name$=finish-missing]").fill(missing)
    if compensation:
        card.locator("summary", has_text="Time compensated").click()
        card.locator("input[name$=finish-compensation]").fill(compensation)
        card.locator("input[name$=finish-compensation_reason]").fill("faulty puzzle replaced")
    card.get_by_role("button", name="Finished").click()
    page.wait_for_selector(f"#entry-{entry.number} .score")
    agree = page.locator(f"#entry-{entry.number}").get_by_role(
        "button", name=re.compile("Competitor agrees")
    )
    if agree.count():
        agree.click()
        page.wait_for_selector(f"#entry-{entry.number} .mark-agreed")


def _submit(page: Any, button: Any) -> None:
    """Clicks a form's button and waits for the page the server answers with."""
    with page.expect_navigation():
        button.click()


def _end_early(page: Any, console: str, reason: str) -> None:
    page.goto(console)
    page.locator("summary", has_text="Start or end the round").click()
    page.get_by_label("Reason (a restart, or an end before the time limit)").fill(reason)
    page.get_by_role("button", name="End the round").click()
    page.wait_for_selector("[data-clock] [data-ended]:not([hidden])")


def _count_pieces(page: Any, console: str, entry: Entry, field: str, value: str) -> None:
    page.goto(f"{console}?q={entry.number}")
    card = page.locator(f"#entry-{entry.number}")
    card.locator(f"input[name$=pieces-{field}]").fill(value)
    card.get_by_role("button", name="Record the pieces").click()
    page.wait_for_selector(f"#entry-{entry.number} .score")


def _board_line(page: Any, event: Event, stage: str, round: int = 1) -> Any:
    """The round's line on the round board (opened afresh)."""
    page.goto(f"/desk/{event.slug}/board/")
    return page.locator(f"#line-{stage}-{round}")


def _count(line: Any, name: str) -> str:
    return str(line.locator(f'[data-count="{name}"]').inner_text())


def _confirm_round(page: Any, event: Event, stage: str, round: int = 1) -> None:
    """From the round board, the person follows the round's next step to the checks and
    confirms everything of the round in ONE action; the board then shows nothing unconfirmed."""
    before = AuditEntry.objects.filter(action__startswith="result.confirm").count()
    line = _board_line(page, event, stage, round)
    _submit(page, line.get_by_role("link", name=re.compile(r"^Confirm \d+ results?$")))
    section = page.locator(f"#confirm-{stage}-{round}")
    _submit(page, section.get_by_role("button", name=re.compile("I may confirm here$")))
    said = page.inner_text("body")  # the messages sit above the main part
    assert re.search(r"\d+ results? confirmed\.", said), said[:600]
    # One confirmation action for the whole round, whatever its groups and entrants.
    assert AuditEntry.objects.filter(action__startswith="result.confirm").count() == before + 1
    assert _count(_board_line(page, event, stage, round), "unconfirmed") == "0"


def _publish(page: Any, event: Event, stage: str, state: str, round: int = 1) -> None:
    page.goto(f"/organize/{event.slug}/publication/")
    button = {"preliminary": "Publish as preliminary", "final": "Publish as final"}[state]
    _submit(page, page.locator(f"#stage-{stage}-{round}").get_by_role("button", name=button))
    published = page.locator(f"#stage-{stage}-{round} .publication-{state}")
    assert published.count() == 1, page.inner_text("main")[:600]  # else: why it was refused


@pytest.mark.django_db(transaction=True)
def test_the_jigsaw_qualification_walk_ends_with_the_finals_110(
    as_user: Any, new_context: Any
) -> None:
    load_demo(only=["cz-jigsaw-2027"])
    event = Event.objects.get(slug="cz-jigsaw-2027")
    people = _people()
    quali = "individual-qualification"
    left = _left(event, quali)
    assert len(left) == 6  # three of each group

    # 1. The head opens the console: the clock has run for about 44 minutes, the time left is
    #    said in words, never with a minus sign.
    head = as_user(people["head"])
    head.goto(f"/desk/{event.slug}/results/")
    head.get_by_role("link", name=re.compile("Individuals — qualification")).click()
    clock = head.locator("[data-clock]").first
    assert re.fullmatch(r"0:4[4-6]:\d\d", clock.locator(".clock-elapsed").inner_text())
    assert re.fullmatch(r"0:4[3-6]:\d\d left", clock.locator(".clock-remaining").inner_text())
    assert "−" not in clock.inner_text()

    # 2. (step 4's first half) The organizer publishes the round as preliminary for visitors.
    organizer = as_user(people["organizer"])
    _publish(organizer, event, quali, "preliminary")

    # 3. The referee on a phone taps two finishes, one with a missing piece; the competitor
    #    agrees.
    phone = as_user(people["referee"], viewport=PHONE)
    console = f"/desk/{event.slug}/results/{quali}/1/"
    _tap(phone, console, left[0], missing="1")
    _tap(phone, console, left[3])
    tapped = Result.objects.filter(event=event, stage=quali, entry__in=[left[0], left[3]])
    for result in tapped:
        h, m, _s = (int(x) for x in result.cells["time"].split(":"))
        assert (h, 44) <= (0, m) <= (0, 46), result.cells  # near the fastest typed-in 45:00
    assert {r.cells.get("missing") or "" for r in tapped} == {"1", ""}
    # A visitor (not signed in) sees the preliminary table with the live finishes in it.
    visitor = new_context().new_page()
    visitor.goto(f"/standings/{event.slug}/{quali}/")
    for entry in (left[0], left[3]):
        assert visitor.locator(f"#row-{entry.group}-{entry.number}").count() == 1

    # The head ends the round early with a reason and counts the pieces of the four left.
    _end_early(head, console, "the last six are done or have given up")
    for entry in (left[1], left[2], left[4], left[5]):
        _count_pieces(head, console, entry, "groups", "120 45 12 3 2")
    counted = Result.objects.filter(event=event, stage=quali, entry__in=[left[1], left[2]])
    assert {r.cells["pieces"] for r in counted} == {"180"}

    # 4. The round board shows what is left: every entrant in, the referee's two and the
    #    head's four to confirm. The organizer (who recorded none) confirms them all in one
    #    action; the board's next step is then to publish final; then the final's entry list.
    line = _board_line(organizer, event, quali)
    assert _count(line, "results") == "200 of 200"
    unconfirmed = _count(line, "unconfirmed")
    assert "2 by Rudolf Rozhodčí" in unconfirmed, unconfirmed
    assert "4 by Hana Hlavní" in unconfirmed, unconfirmed
    _confirm_round(organizer, event, quali)
    line = _board_line(organizer, event, quali)
    assert "Publish the final results" in line.inner_text()
    _publish(organizer, event, quali, "final")
    assert "Done: the results are final" in _board_line(organizer, event, quali).inner_text()
    organizer.goto(f"/organize/{event.slug}/publication/")
    create = "Create the entry list of Individuals — final from the final table"
    _submit(organizer, organizer.get_by_role("button", name=create))
    assert Advancement.objects.filter(event=event, to_stage="individual-final").count() == 110
    head.goto(f"/desk/{event.slug}/results/individual-final/1/")
    # The console shows its first 40 cards and finds the others by search; the phone keeps the
    # list of all 110.
    assert head.locator(".card").count() == 40
    head.wait_for_selector("text=The first 40 cards are shown")
    cards = head.request.get(f"/desk/{event.slug}/results/individual-final/1/cards.json")
    assert len(cards.json()["cards"]) == 110


@pytest.mark.django_db(transaction=True)
def test_the_puzzle_party_walk_with_a_faulty_puzzle_ends_final(as_user: Any) -> None:
    """Four pairs are left; the clock has run 59 minutes (the fastest typed-in pair: 1:00:00).
    One pair's puzzle was faulty and replaced: 3:00 is given back, so its time is about 0:56
    and it wins; the judges' decisions are final, so the day ends with the final table."""
    load_demo(only=["puzzle-party"])
    event = Event.objects.get(slug="puzzle-party")
    people = _people()
    left = _left(event, "pairs")
    assert len(left) == 4
    head = as_user(people["head"])
    head.goto(f"/desk/{event.slug}/results/")
    head.get_by_role("link", name=re.compile("Puzzle Party")).click()
    elapsed = head.locator("[data-clock] .clock-elapsed").first.inner_text()
    assert re.fullmatch(r"0:(59|60|61):\d\d|1:0[01]:\d\d", elapsed), elapsed
    console = f"/desk/{event.slug}/results/pairs/1/"
    phone = as_user(people["referee"], viewport=PHONE)
    _tap(phone, console, left[0], compensation="3:00")
    _tap(phone, console, left[1])
    faulty = Result.objects.get(event=event, entry=left[0])
    assert faulty.cells["compensation"] == "3:00"
    _end_early(head, console, "every pair has finished or given up")
    for entry in left[2:]:
        _count_pieces(head, console, entry, "pieces", "412")
    organizer = as_user(people["organizer"])
    assert "Confirm" in _board_line(organizer, event, "pairs").inner_text()
    _confirm_round(organizer, event, "pairs")
    line = _board_line(organizer, event, "pairs")
    assert "Publish the preliminary results" in line.inner_text()
    _publish(organizer, event, "pairs", "preliminary")
    _publish(organizer, event, "pairs", "final")
    organizer.goto(f"/standings/{event.slug}/pairs/")
    first = organizer.locator("table.standings tbody tr").first
    assert left[0].name in first.inner_text()


@pytest.mark.django_db(transaction=True)
def test_the_bowling_walk_ends_with_the_qualifiers_of_every_division(as_user: Any) -> None:
    """Three players of squad 3 are left. The lane referee types their six games by hand, the
    organizer confirms them from the round board in one action and publishes final —
    protests are decided on site and the day is long over — and records who goes to the
    national final: § 9's places per division (Master men 1–6, women 1–2; Standard and Amateur
    men 1–8, women 1–4), every tie at a cut line included."""
    load_demo(only=["cba-kvalifikace-2012"])
    event = Event.objects.get(slug="cba-kvalifikace-2012")
    people = _people()
    left = _left(event, "qualification")
    assert len(left) == 3
    console = f"/desk/{event.slug}/results/qualification/1/"
    referee = as_user(people["referee"], viewport=PHONE)
    for n, entry in enumerate(left):
        referee.goto(f"{console}?q={entry.number}")
        card = referee.locator(f"#entry-{entry.number}")
        for g, pins in enumerate((180 + n, 192, 201, 167, 210 - n, 188), 1):
            card.locator(f"form.result input[name$=-g{g}]").fill(str(pins))
        card.locator("form.result").get_by_role("button", name="Record").click()
        referee.wait_for_selector(f"#entry-{entry.number} .score")
    organizer = as_user(people["organizer"])
    # The organizer confirms the referee's three and the head's own correction of game 3 (the
    # upheld protest of the demo) in one action; the board then says to publish.
    _confirm_round(organizer, event, "qualification")
    line = _board_line(organizer, event, "qualification")
    assert "Publish the" in line.inner_text()
    _publish(organizer, event, "qualification", "preliminary")
    _publish(organizer, event, "qualification", "final")
    advance = organizer.get_by_role("button", name="Record who advances from the final table")
    _submit(organizer, advance)
    quotas = {"master-men": 6, "master-women": 2, "standard-men": 8, "standard-women": 4,
              "amateur-men": 8, "amateur-women": 4}  # fmt: skip
    advanced = {key: Advancement.objects.filter(event=event, table=key).count() for key in quotas}
    players = {
        key: event.entries.filter(division=key, status=Entry.Status.CONFIRMED).count()
        for key in quotas
    }
    assert advanced == {key: min(q, players[key]) for key, q in quotas.items()}, players


@pytest.mark.django_db(transaction=True)
def test_the_chgk_season_walk_ends_with_the_superfinal_decided(as_user: Any) -> None:
    """Tour 3 (12 December 2010) waits for the jury (an appeal, a disputed answer) and the head
    referee (a mismatch; taking the second scorer's value corrects the result today). The tour
    still ended on its day: its week for appeals closed on 19 December 2010, so it becomes
    final now, then the season and Brainball; the winners are taken into the superfinal and it
    is played to a decision: the first team shown takes all 24 questions (12 ChGK, 12
    Brainball), 24 : 0."""
    load_demo(only=["deti-kolomny-xv"])
    event = Event.objects.get(slug="deti-kolomny-xv")
    people = _people()
    jury = as_user(people["jury"])
    jury.goto(f"/jury/{event.slug}/")
    for section in ("form[action*='/appeal/']", "form[action*='/dispute/']"):
        while jury.locator(section).count():
            card = jury.locator(section).first
            card.locator("input[name$=outcome][value=rejected]").check()
            card.locator("textarea").first.fill("The answer given is not the author's.")
            _submit(jury, card.get_by_role("button", name=re.compile("Record the")))
    assert "No appeal is waiting for a verdict." in jury.inner_text("main")
    assert "No disputed answer is waiting." in jury.inner_text("main")

    head = as_user(people["head"])
    head.goto(f"/desk/{event.slug}/checks/")
    mismatch = head.locator(".card.mismatch").first
    mismatch.get_by_label("Why this value is right").fill("the captain's card says so")
    _submit(head, mismatch.get_by_role("button", name=re.compile("Take the second")))
    assert "No mismatch is waiting." in head.inner_text("main")
    # Taking the second scorer's value records a correction today, 16 years after the tour.
    corrected = Result.objects.get(event=event, stage="chgk-tour", round=3, kind="correction")
    assert corrected.recorded_at.year >= 2026

    organizer = as_user(people["organizer"])
    _publish(organizer, event, "chgk-tour", "final", round=3)
    _publish(organizer, event, "chgk-season", "final")
    _publish(organizer, event, "brainball", "final")
    organizer.goto(f"/organize/{event.slug}/publication/")
    _submit(organizer, organizer.get_by_role("button", name="Take the winners of the final tables"))
    entered = Advancement.objects.filter(event=event, to_stage="superfinal")
    assert entered.count() == 2

    runner = f"/desk/{event.slug}/battles/superfinal/superfinal/"
    head.goto(runner)
    for _question in range(12):
        _submit(head, head.get_by_role("button", name=re.compile("took it$")).first)
    for _question in range(12):
        _submit(head, head.get_by_role("button", name=re.compile("won it$")).first)
    first, second = (a.entry.name for a in entered.select_related("entry").order_by("pk"))
    text = head.inner_text("main")
    assert f"{first} — absolute champion!" in text or f"{second} — absolute champion!" in text
    assert "Decided after question 24: 24 : 0." in text

    # The head ran the superfinal, so another confirms it: the board shows its 24 questions
    # waiting, the organizer confirms them in one action, the board then says to publish.
    line = _board_line(organizer, event, "superfinal")
    assert _count(line, "results") == "24 of 24"
    assert _count(line, "unconfirmed") == "24 (24 by Hana Hlavní)", _count(line, "unconfirmed")
    organizer.goto(f"/desk/{event.slug}/checks/")
    words = organizer.locator("#confirm-superfinal-1").inner_text()
    assert f"Question 13 (Brainball): {first} 1, {second} 0" in words or (
        f"Question 13 (Brainball): {second} 1, {first} 0" in words
    ), words
    _confirm_round(organizer, event, "superfinal")
    line = _board_line(organizer, event, "superfinal")
    assert "Publish the preliminary results" in line.inner_text()
