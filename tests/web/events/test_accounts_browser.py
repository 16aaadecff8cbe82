"""A forgotten password reset in a real browser: the link read from the e-mail, a weak new
password refused on the page, a good one accepted, and the log-in with it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail


@pytest.mark.django_db(transaction=True)
def test_a_forgotten_password_is_reset_from_the_e_mails_link(page: Any, make_user: Any) -> None:
    user = make_user("olga")
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.fill("input[name=email]", "olga@example.org")
    page.get_by_role("button", name="Send the link").click()
    page.wait_for_url("**/accounts/password/reset/sent/")
    assert "If an account has this address" in page.locator("main").inner_text()

    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", message.body)
    assert link, message.body
    page.goto(link.group(1))
    assert page.locator("h1").inner_text() == "Choose a new password"
    page.fill("input[name=new_password1]", "1234567890")
    page.fill("input[name=new_password2]", "1234567890")
    page.get_by_role("button", name="Save the password").click()
    errors = page.locator(".errorlist").all_inner_texts()
    assert "This password is entirely numeric." in "\n".join(errors)
    user.refresh_from_db()
    assert user.check_password("correct horse battery")

    page.fill("input[name=new_password1]", "tulip ledger 77")
    page.fill("input[name=new_password2]", "tulip ledger 77")
    page.get_by_role("button", name="Save the password").click()
    page.wait_for_url("**/accounts/password/reset/done/")
    assert "Your new password is set" in page.locator("main").inner_text()
    page.screenshot(path="/tmp/accounts-reset-done.png", full_page=True)

    page.goto("/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", "tulip ledger 77")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(re.compile(r".*/$"))
    assert page.get_by_role("button", name="Log out").is_visible()
    # The link works once.
    page.goto(link.group(1))
    assert "it was used already or is too old" in page.locator("main").inner_text()
