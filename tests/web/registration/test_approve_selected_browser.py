"""The organizer approves three pending pairs with "Tick all" and one button, with the keyboard
alone (it-puzzle-party: approval assigns tables 1, 2, 3 in number order)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from tests.web.registration.test_registration import IT_OPEN, adult, register

from podium.web.models import Entry, EventRole


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_tick_all_and_approve_with_the_keyboard(
    new_context: Any, it: Any, make_user: Any, sign_in: Any
) -> None:
    for n in "abc":
        user = make_user(n)
        register(it, user, [adult(f"{n}1", "X"), adult(f"{n}2", "Y")], "pairs", now=IT_OPEN)
    context = new_context()
    sign_in(context, EventRole.objects.get(event=it).user)
    page = context.new_page()
    page.goto(reverse("registrations:index", args=[it.slug]))
    tick_all = page.locator('[data-tick-all="approve-pairs"]')
    tick_all.focus()
    page.keyboard.press("Enter")
    assert page.locator('input[form="approve-pairs"]:checked').count() == 3
    page.keyboard.press("Tab")  # to "Approve the ticked entries"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "3 entries approved:" in page.inner_text("body")
    page.screenshot(path="/tmp/podium-approve-selected.png", full_page=True)
    tables = list(Entry.objects.filter(event=it).order_by("number").values_list("table_number"))
    assert tables == [(1,), (2,), (3,)]
