"""A head referee runs the "Дети Коломны" superfinal on a phone in a real browser: one tap per
question, through a tied 24 and one pair, to the absolute champion.

Hand-worked: both teams take all 12 ChGK questions (12:12), then win the 12 Brainball questions
in turn, six each (18:18 after the 24 regular questions). Pair 1: question 25 (ChGK) only Sovy
takes (19:18), question 26 (Brainball) nobody wins: Sovy leads 19:18 after the pair and is the
absolute champion; the page stops asking.
"""

from __future__ import annotations

from typing import Any

import pytest

from podium.web.models import EventRole, Result

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_a_head_referee_taps_through_a_superfinal_to_the_champion(
    page: Any, make_user: Any, make_event: Any, add_entry: Any, put_in_stage: Any
) -> None:
    olga, hana = make_user("olga"), make_user("hana")
    event = make_event("deti-kolomny", organizer=olga, title="Дети Коломны 2010/11")
    EventRole.objects.create(event=event, user=hana, role=EventRole.Role.HEAD_REFEREE)
    sovy = add_entry(event, 1, "Sovy", country="RU")
    filiny = add_entry(event, 2, "Filiny", country="RU")
    put_in_stage(event, "superfinal", sovy, filiny, source="chgk-season")

    page.set_viewport_size(PHONE)
    url = f"/desk/{event.slug}/battles/superfinal/superfinal/"
    page.goto(f"/accounts/login/?next={url}")
    page.fill("input[name=username]", "hana")
    page.fill("input[name=password]", "correct horse battery")
    page.click("main button[type=submit]")
    page.wait_for_url(f"**{url}")

    ask = page.locator("#ask")
    for n in range(1, 13):
        assert ask.locator("h2").inner_text() == f"Question {n} — ChGK"
        both = ask.get_by_role("button", name="Both took it")
        if n == 1:
            box = both.bounding_box()
            assert box is not None
            assert box["height"] >= 48
        both.click()
        page.wait_for_selector(f"#score-1:text-is('{n}')")
    for n in range(13, 25):
        assert ask.locator("h2").inner_text() == f"Question {n} — Brainball"
        team = "Sovy" if n % 2 else "Filiny"
        ask.get_by_role("button", name=f"{team} won it").click()
        page.wait_for_selector(
            f"#ask h2:text-is('Question {n + 1} — {'ChGK' if n == 24 else 'Brainball'}')"
        )
    assert page.locator("#score-1").inner_text() == "18"
    assert page.locator("#score-2").inner_text() == "18"
    assert page.locator(".course").inner_text() == (
        "After the 24 regular questions: Sovy 18 – 18 Filiny"
    )
    assert "Pair 1 after a tie" in ask.inner_text()
    page.screenshot(path="/tmp/podium-superfinal-asking.png", full_page=True)

    ask.get_by_role("button", name="Sovy took it").click()  # question 25, ChGK
    page.wait_for_selector("#ask h2:text-is('Question 26 — Brainball')")
    assert ask.get_by_role("button", name="Both took it").count() == 0  # not in Brainball
    ask.get_by_role("button", name="Nobody won it").click()  # question 26
    champion = page.locator("#champion")
    champion.wait_for()
    assert "Sovy — absolute champion!" in champion.inner_text()
    assert "Decided after question 26: 19 : 18." in champion.inner_text()
    assert page.locator("#ask").count() == 0  # no 27th question is asked
    assert (
        "After pair 1 (questions 25–26): Sovy 19 – 18 Filiny"
        in page.locator(".course").inner_text()
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing sticks out sideways
    page.screenshot(path="/tmp/podium-superfinal.png", full_page=True)

    assert Result.objects.filter(stage="superfinal").count() == 26
    assert Result.objects.get(item="q25").cells == {"discipline": "chgk", "1": "1", "2": "0"}
    assert Result.objects.get(item="q26").recorded_by == hana
