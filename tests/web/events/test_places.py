"""My places: after login each person finds the desks of their events in the top bar (links on
a wide screen, a menu opened by a tap on a phone), the desk index and the organizer's page.

Hand-worked: Hana is head referee of the club championship (ChGK and Brainball) and referee of
the bowling qualifier; Jana sits on the club's jury; Olga organizes the club. Hana's places:
the bowling qualifier (check-in desk, results console, bowling desk) and the club (check-in
desk, results console, ChGK grid, battles, checks); Jana's: the club's jury desk only.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from podium.web.events.selectors.places import my_places
from podium.web.models import EventRole


@pytest.fixture
def world(make_user: Any, make_event: Any) -> Any:
    olga, hana, jana, pavel = (make_user(n) for n in ("olga", "hana", "jana", "pavel"))
    club = make_event(
        "deti-kolomny", organizer=olga, title="Deti Kolomny",
        starts_at=dt.datetime(2026, 11, 14, 12, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    bowling = make_event(
        "cba-qualifier", title="CBA qualifier",
        starts_at=dt.datetime(2026, 3, 24, 9, 0, tzinfo=dt.UTC),
    )  # fmt: skip
    EventRole.objects.create(event=club, user=hana, role=EventRole.Role.HEAD_REFEREE)
    EventRole.objects.create(event=bowling, user=hana, role=EventRole.Role.REFEREE)
    EventRole.objects.create(event=club, user=jana, role=EventRole.Role.JURY)
    return {"olga": olga, "hana": hana, "jana": jana, "pavel": pavel, "club": club}


def labels(user: Any) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(e.event.title, [(p.label, p.url) for p in e.places]) for e in my_places(user)]


@pytest.mark.django_db
def test_each_person_sees_the_desks_their_roles_open(world: Any) -> None:
    assert labels(world["hana"]) == [
        ("Deti Kolomny", [
            ("Check-in desk", "/desk/deti-kolomny/"),
            ("Results console", "/desk/deti-kolomny/results/"),
            ("ChGK grid", "/desk/deti-kolomny/chgk/"),
            ("Battles", "/desk/deti-kolomny/battles/"),
            ("Checks", "/desk/deti-kolomny/checks/"),
        ]),
        ("CBA qualifier", [
            ("Check-in desk", "/desk/cba-qualifier/"),
            ("Results console", "/desk/cba-qualifier/results/"),
            ("Bowling desk", "/desk/cba-qualifier/bowling/"),
        ]),
    ]  # fmt: skip
    assert labels(world["jana"]) == [("Deti Kolomny", [("Jury desk", "/jury/deti-kolomny/")])]
    olga = labels(world["olga"])
    assert olga[0][1][-2:] == [
        ("Checks", "/desk/deti-kolomny/checks/"),
        ("Organize", "/organize/deti-kolomny/"),
    ]
    assert labels(world["pavel"]) == []
    assert (my_places(world["hana"]).staff, my_places(world["jana"]).staff) == (True, False)


@pytest.mark.django_db
def test_my_places_read_in_one_query_whatever_the_number_of_events(
    world: Any, make_event: Any
) -> None:
    with CaptureQueriesContext(connection) as two:
        list(my_places(world["hana"]))
    for n in range(5):
        event = make_event("it-puzzle-party", slug=f"party-{n}")
        EventRole.objects.create(event=event, user=world["hana"], role=EventRole.Role.REFEREE)
        EventRole.objects.create(event=event, user=world["hana"], role=EventRole.Role.JURY)
    with CaptureQueriesContext(connection) as seven:
        assert len(my_places(world["hana"])) == 7
    assert len(two) == len(seven) == 1


def page_for(user: Any, url: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


@pytest.mark.django_db
def test_the_top_bar_and_its_phone_menu_lead_to_the_desks(world: Any) -> None:
    html = page_for(world["hana"], "/")
    bar = html[html.index('<header class="top">') : html.index("</header>")]
    assert '<a href="/desk/">Desk</a>' in bar  # the wide screen's link
    menu = bar[bar.index('<details class="places">') : bar.index("</details>")]
    assert "<summary>My places</summary>" in menu  # opened by a tap, no hover
    for url in ("/desk/deti-kolomny/checks/", "/desk/cba-qualifier/bowling/", "/me/entries/"):
        assert f'href="{url}"' in menu
    jury = page_for(world["jana"], "/")
    assert 'href="/jury/deti-kolomny/"' in jury
    assert '<a href="/desk/">Desk</a>' not in jury  # a juror staffs no desk
    assert 'rel="icon" href="/static/podium/favicon.svg"' in html


@pytest.mark.django_db
def test_organize_shows_a_referee_their_desks_instead_of_nothing(world: Any) -> None:
    html = page_for(world["hana"], "/organize/")
    assert "You organize no event yet." in html
    assert "None yet." not in html
    page = html[html.index("<main ") :]
    assert "Your desks" in page
    assert 'href="/desk/deti-kolomny/checks/"' in page
    assert 'href="/desk/cba-qualifier/bowling/"' in page
    desks = page_for(world["hana"], "/desk/")
    assert "<h1>My desks</h1>" in desks
    assert 'class="button" href="/desk/deti-kolomny/chgk/"' in desks


@pytest.mark.django_db
def test_login_and_signup_pages_have_their_own_titles() -> None:
    client = Client()
    assert "<title>Log in — Podium</title>" in client.get("/accounts/login/").content.decode()
    assert "<title>Sign up — Podium</title>" in client.get("/accounts/signup/").content.decode()
