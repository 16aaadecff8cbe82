"""The bowling desk in a real browser: a referee types a game's rolls on a phone and sees the
running totals while typing (checked by the server on save), and the lane sheet prints without
its forms.

Hand-worked: the World Bowling scoresheet ``X X X 7 2 (8)/ F9 X 7/ 9- XX8`` runs 30, 57, 76, 85,
95, 104, 124, 143, 152, 180; typed up to ``X X X 7`` the page shows 30 and 57 (X X X, then X X 7)
and frame 3 waits for its second bonus roll.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.draws.services import draw_make
from podium.web.models import Event, EventRole, Result, Squad

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_a_referee_types_the_rolls_and_prints_the_lane_sheet(
    page: Any, make_user: Any, make_event: Any, add_entry: Any
) -> None:
    olga, rudolf = make_user("olga"), make_user("rudolf")
    event = make_event("cba-qualifier", organizer=olga, status=Event.Status.CLOSED,
                       title="ČBA qualifier 2012")  # fmt: skip
    EventRole.objects.create(event=event, user=rudolf, role=EventRole.Role.REFEREE)
    squad = Squad.objects.create(event=event, name="Squad A", starts_at=event.starts_at,
                                 capacity=8)  # fmt: skip
    players = [
        add_entry(event, n, name, division="master-men", squad=squad)
        for n, name in enumerate(["Adam Kos", "Bohuš Lev", "Cyril Sova", "David Rys"], start=1)
    ]
    draw_make(event=event, kind="lanes", stage="qualification", seed="squad-a-2012", by=olga,
              squad=squad, lane_pairs=[(1, 2), (3, 4)], per_pair=2)  # fmt: skip

    page.set_viewport_size(PHONE)
    sheet = f"/desk/{event.slug}/bowling/squads/{squad.pk}/"
    page.goto(f"/accounts/login/?next={sheet}")
    page.fill("input[name=username]", "rudolf")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{sheet}")

    adam = page.locator("#player-1")
    adam.get_by_label("Game 1", exact=True).fill("200")
    adam.get_by_label("Game 2", exact=True).fill("190")
    record = adam.get_by_role("button", name="Record block 1")
    box = record.bounding_box()
    assert box is not None
    assert box["height"] >= 44
    record.click()
    page.wait_for_selector("text=#1 Adam Kos: block 1 recorded (g1 200, g2 190); total 390.")
    assert page.locator("#player-1 td.total").inner_text() == "390"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path="/tmp/podium-lane-sheet-phone.png", full_page=True)

    page.locator("#player-1").get_by_role("link", name="Game 3 frame by frame").click()
    page.wait_for_url("**/game/3/")
    rolls = page.get_by_label("Rolls")
    rolls.press_sequentially("X X X 7")
    running = page.locator(".scoresheet .running")
    assert running.all_inner_texts()[:3] == ["30", "57", ""]
    rolls.press_sequentially(" 2 (8)/ F9 X 7/ 9- XX8")
    assert [int(t) for t in running.all_inner_texts()] == [
        30, 57, 76, 85, 95, 104, 124, 143, 152, 180,
    ]  # fmt: skip
    assert page.locator(".scoresheet .frame").nth(9).locator(".marks").inner_text().split() == [
        "X", "X", "8",
    ]  # fmt: skip
    page.screenshot(path="/tmp/podium-frames-phone.png", full_page=True)
    page.get_by_role("button", name="Save game 3").click()
    page.wait_for_selector("text=#1 Adam Kos: game 3 saved: 180")
    result = Result.objects.filter(entry=players[0]).order_by("-id").first()
    assert result is not None
    assert result.cells["g3"] == "180"
    assert result.detail == {"rolls": {"g3": "X X X 7 2 8 / F 9 X 7 / 9 - X X 8"}}

    page.emulate_media(media="print")
    assert page.locator("#player-1 form").first.is_hidden()
    assert page.locator("header.top").is_hidden()
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.screenshot(path="/tmp/podium-lane-sheet-print.png", full_page=True)
