"""After a log-in each demo person lands on their own work, not on the public list; a ``next``
still wins; *Organize* is in the top bar only for those who organize an event."""

from __future__ import annotations

import pytest
from django.test import Client

from podium.web.demo import load_demo
from podium.web.demo.accounts import PASSWORD


def log_in(username: str, path: str = "/accounts/login/") -> tuple[Client, str]:
    client = Client()
    answer = client.post(path, {"username": username, "password": PASSWORD})
    assert answer.status_code == 302, username
    return client, answer["Location"]


@pytest.mark.django_db
def test_each_demo_person_lands_on_their_own_work() -> None:
    load_demo()
    landed = {name: log_in(name)[1] for name in ("organizer", "head", "referee", "jury", "player")}
    assert landed == {
        "organizer": "/organize/",
        "head": "/desk/",
        "referee": "/desk/",
        "jury": "/jury/deti-kolomny-xv/",
        "player": "/me/entries/",
    }
    assert log_in("player", "/accounts/login/?next=/e/puzzle-party/")[1] == "/e/puzzle-party/"


@pytest.mark.django_db
def test_organize_is_in_the_top_bar_of_organizers_only() -> None:
    load_demo()
    organizer, _ = log_in("organizer")
    assert '<a href="/organize/">Organize</a>' in organizer.get("/").content.decode()
    player, _ = log_in("player")
    home = player.get("/").content.decode()
    assert '<a href="/organize/">Organize</a>' not in home
    # Anyone may create events in development: the home page says where, once.
    assert home.count('href="/organize/new/"') == 1
    assert 'href="/organize/new/"' not in organizer.get("/").content.decode()
