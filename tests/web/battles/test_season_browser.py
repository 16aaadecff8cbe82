"""The organizer settles a tie for the ChGK season's prize places on a phone, in a real browser,
and the public season standings follow (deti-kolomny, п. 12); then draws the Brainball
schedule.

Hand-worked (points 12, 10, 8, 7, 6 for places 1–5): tour 1 Alfa 12, Beta 10, Gamma 9, Delta 7,
Epsilon 5 questions; tour 2 Beta 12, Gamma 11, Alfa 9, Epsilon 7, Delta 6; tour 3 Gamma 13,
Alfa 11, Beta 10, Delta 8, Epsilon 4. Season: Alfa, Beta and Gamma 30 points each (tied for
1st–3rd: a play-off), Delta 20, Epsilon 19. The match: Alfa 2, Beta 4, Gamma 4 → Alfa 3rd, Beta
and Gamma still tied; extra question 1: Gamma takes it, Beta does not → Gamma 1st, Beta 2nd.
Brainball, five teams twice round: 2 × 10 = 20 battles, 2 × 4 = 8 per team (one rests each
matchday).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from podium.web.chgk.services.rounds import round_add
from podium.web.models import EventRole, Result
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

PHONE = {"width": 390, "height": 844}
MSK = dt.timezone(dt.timedelta(hours=3))
TOURS = {
    1: {"Alfa": 12, "Beta": 10, "Gamma": 9, "Delta": 7, "Epsilon": 5},
    2: {"Beta": 12, "Gamma": 11, "Alfa": 9, "Epsilon": 7, "Delta": 6},
    3: {"Gamma": 13, "Alfa": 11, "Beta": 10, "Delta": 8, "Epsilon": 4},
}


def places(page: Any) -> list[tuple[str, str, str]]:
    rows = page.locator("table.standings tbody tr")
    return [
        (
            rows.nth(i).locator("td:nth-child(1)").inner_text(),
            rows.nth(i).locator("td:nth-child(4)").inner_text(),
            rows.nth(i).locator("td:last-child").inner_text().strip(),
        )
        for i in range(rows.count())
    ]


def _season_of_five(make_user: Any, make_event: Any, add_entry: Any) -> tuple[Any, Any, dict]:
    """The club's season with the tours of ``TOURS`` recorded and preliminary: the event, its
    organizer and its teams by name."""
    olga, rita = make_user("olga"), make_user("rita")
    event = make_event(
        "deti-kolomny", organizer=olga, title="Дети Коломны 2025/26",
        starts_at=dt.datetime(2026, 1, 10, 16, 0, tzinfo=dt.UTC), timezone="Europe/Moscow",
    )  # fmt: skip
    EventRole.objects.create(event=event, user=rita, role=EventRole.Role.REFEREE)
    teams = {name: add_entry(event, n, name, "RU", category="teams")
             for n, name in enumerate(TOURS[1], start=1)}  # fmt: skip
    for tour, taken in TOURS.items():
        start = dt.datetime(2026, 1, 10, 19, 0, tzinfo=MSK) + dt.timedelta(days=14 * (tour - 1))
        round_add(event=event, stage="chgk-tour", starts_at=start, by=olga)
        for name, questions in taken.items():
            result_record(
                event=event, stage="chgk-tour", round=tour, entry=teams[name],
                cells={"questions": str(questions)}, by=rita, idempotency_key=f"t{tour}{name}",
                now=start + dt.timedelta(hours=2),
            )  # fmt: skip
        publication_set(event=event, stage="chgk-tour", round=tour, state="preliminary", by=olga)
    publication_set(event=event, stage="chgk-season", state="preliminary", by=olga)
    return event, olga, teams


@pytest.mark.django_db(transaction=True)
def test_the_organizer_enters_a_play_off_and_the_public_table_settles(
    new_context: Any, sign_in: Any, make_user: Any, make_event: Any, add_entry: Any
) -> None:
    event, olga, teams = _season_of_five(make_user, make_event, add_entry)

    public = new_context().new_page()
    standings = f"/standings/{event.slug}/chgk-season/"
    public.goto(standings)
    assert [p[:2] for p in places(public)] == [
        ("1–3.", "Alfa"), ("1–3.", "Beta"), ("1–3.", "Gamma"), ("4.", "Delta"), ("5.", "Epsilon"),
    ]  # fmt: skip
    assert all("play-off pending" in p[2] for p in places(public)[:3])
    public.screenshot(path="/tmp/podium-season-standings-pending.png", full_page=True)

    organizer = new_context(viewport=PHONE)
    sign_in(organizer, olga)
    page = organizer.new_page()
    page.goto(f"/organize/{event.slug}/season/")
    tie = page.locator("#tie-1")
    assert "Tied on points for places 1–3" in tie.inner_text()
    assert "play-off pending" in tie.inner_text()
    for name, taken in (("Alfa", "7"), ("Alfa", "2"), ("Beta", "4"), ("Gamma", "4")):
        row = page.locator(f"#playoff-{teams[name].number}")
        row.locator("input[type=text]").fill(taken)
        button = row.get_by_role("button", name="Record")
        box = button.bounding_box()
        assert box is not None
        assert box["height"] >= 48
        button.click()
        page.wait_for_load_state()
        if taken == "7":  # refused, nothing stored
            assert (
                "#1 Alfa: 7 questions taken in a match of 6 questions"
                in page.locator("#playoff-1 .errorlist").inner_text()
            )
            assert not Result.objects.filter(stage="chgk-season").exists()
    extra = page.locator("#extra-1")
    assert "Extra question 1 for places 1–2" in extra.inner_text()
    extra.locator("fieldset", has_text="#2 Beta").get_by_label("not taken").check()
    extra.locator("fieldset", has_text="#3 Gamma").get_by_label("taken", exact=True).check()
    page.screenshot(path="/tmp/podium-season-playoff-extra.png", full_page=True)
    extra.get_by_role("button", name="Record extra question 1").click()
    page.wait_for_load_state()
    tie = page.locator("#tie-1")
    assert "settled" in tie.inner_text()
    assert "Play-off: 4 in the match, then 1 — place 1" in tie.inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways
    page.screenshot(path="/tmp/podium-season-playoff.png", full_page=True)

    public.goto(standings)
    assert [p[:2] for p in places(public)] == [
        ("1.", "Gamma"), ("2.", "Beta"), ("3.", "Alfa"), ("4.", "Delta"), ("5.", "Epsilon"),
    ]  # fmt: skip
    assert not any("play-off pending" in p[2] for p in places(public))
    public.locator("#row-all-2 td:nth-child(4) a").click()
    public.wait_for_selector("#row-all-2 + tr.why-row li")
    assert (
        "Play-off: 4 in the match, then 0 — place 2"
        in public.locator("#row-all-2 + tr.why-row").inner_text()
    )
    public.screenshot(path="/tmp/podium-season-standings.png", full_page=True)

    # The Brainball schedule of the five teams: 2 × 10 battles, each team 8.
    page.locator("#schedule input[name=seed]").fill("kolomna")
    page.get_by_role("button", name="Draw the schedule").click()
    page.wait_for_load_state()
    assert "Battle schedule drawn with seed kolomna: 20 battles." in page.inner_text(".messages")
    assert [page.locator(f"#balance-{n} td").nth(3).inner_text() for n in range(1, 6)] == ["8"] * 5
    page.screenshot(path="/tmp/podium-season-schedule.png", full_page=True)
