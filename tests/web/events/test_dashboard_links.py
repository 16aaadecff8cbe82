"""The organizer's dashboard links only to the desks its event has: every button of its bar
opens a page (an event without protests has no *Protests* button leading to a 404)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from podium.web.demo import load_demo
from podium.web.models import Event


@pytest.mark.django_db
def test_every_button_of_each_demo_dashboard_opens_a_page() -> None:
    load_demo()
    client = Client()
    client.force_login(get_user_model().objects.get(username="organizer"))
    broken, buttons = [], {}
    for event in Event.objects.order_by("slug"):
        html = client.get(f"/organize/{event.slug}/").content.decode()
        bar = html.split('<nav class="actions">')[1].split("</nav>")[0]
        buttons[event.slug] = re.findall(r'href="([^"]+)"', bar)
        for href in buttons[event.slug]:
            status = client.get(href).status_code
            if status != 200:
                broken.append(f"{event.slug}: {href} HTTP {status}")
    assert broken == []
    # Puzzle Party's rulebook has a protest rule but no games to protest: no desk, no button.
    assert "/desk/puzzle-party/protests/" not in buttons["puzzle-party"]
    assert "/desk/cba-kvalifikace-2012/protests/" in buttons["cba-kvalifikace-2012"]
    assert "/appeals/deti-kolomny-xv/" in buttons["deti-kolomny-xv"]
    assert not any("/appeals/" in href for href in buttons["cz-jigsaw-2027"])
