"""Every control of the organizer's pages has a name of its own and every id is unique: the
dashboard's status menu is labelled, and on the payments page each row's amount, method and
button say whose fee they record (``id="id_method"`` used to repeat once per row)."""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from podium.web.demo import load_demo
from podium.web.models import Entry, Event


class Controls(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: Counter[str] = Counter()
        self.labelled: set[str] = set()
        self.controls: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids[str(found["id"])] += 1
        if tag == "label" and found.get("for"):
            self.labelled.add(str(found["for"]))
        hidden = found.get("type") in {"hidden", "submit"}
        if tag in {"select", "input", "textarea"} and not hidden:
            self.controls.append(found)

    def unnamed(self) -> list[str]:
        return [
            str(c.get("name"))
            for c in self.controls
            if not c.get("aria-label") and c.get("id") not in self.labelled
        ]


def read(html: str) -> Controls:
    controls = Controls()
    controls.feed(html)
    return controls


@pytest.mark.django_db
def test_the_dashboard_and_payments_controls_are_named_and_their_ids_unique() -> None:
    load_demo()
    client = Client()
    client.force_login(get_user_model().objects.get(username="organizer"))
    for event in Event.objects.all():
        for path in (f"/organize/{event.slug}/", f"/organize/{event.slug}/payments/"):
            page = read(client.get(path).content.decode())
            assert [i for i, n in page.ids.items() if n > 1] == [], path
            assert page.unnamed() == [], path
    html = client.get("/organize/cba-kvalifikace-2012/payments/").content.decode()
    assert 'aria-label="Payment method of Entry fee for #1 ' in html
    assert html.count('name="method"') > 10
    assert "id_method" not in html
    assert (
        '<label for="id_status">The event\'s status</label>'
        in client.get("/organize/cba-kvalifikace-2012/").content.decode()
    )


@pytest.mark.django_db
def test_every_page_opens_with_a_skip_link_and_row_buttons_name_their_entrant() -> None:
    load_demo()
    client = Client()
    client.force_login(get_user_model().objects.get(username="organizer"))
    html = client.get("/organize/puzzle-party/entries/").content.decode()
    body = html.split("<body>", 1)[1]
    assert body.lstrip().startswith('<a class="skip" href="#main">Skip to the content</a>')
    assert '<main id="main" tabindex="-1">' in html
    pending = Entry.objects.filter(event__slug="puzzle-party", status="pending").first()
    assert pending is not None
    assert f'aria-label="Approve #{pending.number} {pending.name}">Approve</button>' in html
    missing = Client().get("/no/such/page/").content.decode()
    assert '<a class="skip" href="#main">' in missing
