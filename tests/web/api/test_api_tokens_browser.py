"""The API tokens page in a real browser on a phone, and the API's documentation page.

Hand-worked case (cba-qualifier): the organizer opens *API tokens* from the event's dashboard,
names a token "lane 3 scoring machine" acting as the referee Rudolf and creates it; the page
shows the secret once, and the secret then reads the event through the API. The docs page
lists every operation and loads nothing from another host.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

from podium.web.models import Event

PHONE = {"width": 390, "height": 844}


@pytest.mark.django_db(transaction=True)
def test_an_organizer_creates_a_token_on_a_phone(
    new_context: Any, sign_in: Any, live_server: Any, make_event: Any, staff: Any
) -> None:
    event = make_event("cba-qualifier", status=Event.Status.CLOSED)
    people = staff(event, organizer="olga", referee="rudolf")
    context = new_context(viewport=PHONE)
    sign_in(context, people["organizer"])
    page = context.new_page()
    page.goto("/organize/cba-qualifier/")
    page.get_by_role("link", name="API tokens").click()
    page.get_by_label("Name").fill("lane 3 scoring machine")
    page.get_by_label("Acts as").select_option(label="rudolf")
    button = page.get_by_role("button", name="Create the token")
    assert button.bounding_box()["height"] >= 48  # a 3rem touch target
    button.click()
    secret = page.locator("#new-secret code").inner_text().strip()
    assert secret.startswith("podium_")
    page.screenshot(path="/tmp/podium-api-tokens.png", full_page=True)
    assert page.locator("tr.active").count() == 1

    answer = requests.get(
        f"{live_server.url}/api/events/cba-qualifier/stages",
        headers={"Authorization": f"Bearer {secret}"},
        timeout=10,
    )
    assert answer.status_code == 200
    assert [s["key"] for s in answer.json()] == ["qualification"]

    page.goto("/organize/cba-qualifier/tokens/")
    assert page.locator("#new-secret").count() == 0  # shown once
    page.get_by_role("button", name="Revoke").click()
    assert page.locator("tr.revoked").count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_docs_page_uses_no_other_host(page: Any, live_server: Any) -> None:
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith(live_server.url) else elsewhere.append(r.url),
    )
    page.goto("/api/docs")
    assert page.get_by_role("heading", name="HTTP API").count() == 1
    assert page.locator("section.api-op").count() == 12
    page.screenshot(path="/tmp/podium-api-docs.png")
    assert elsewhere == []
