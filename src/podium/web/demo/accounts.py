"""The demo's accounts: the staff of all four demo events, the appeal jury and a participant,
created only when missing (the password is the one the README publishes)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model

from podium.web.events.forms.accounts import DEMO_PASSWORD
from podium.web.models import Account, Person

PASSWORD = DEMO_PASSWORD
ACCOUNTS = (
    ("organizer", "Olga", "Organizátorová", "organizer of all four demo events"),
    ("head", "Hana", "Hlavní", "head referee of all four demo events"),
    ("referee", "Rudolf", "Rozhodčí", "referee of all four demo events"),
    ("scorer", "Sergej", "Sčítač", "a second referee (the second scorer of the ChGK tours)"),
    ("jury", "Julia", "Porotová", "the ChGK appeal jury (sees appeals without the team's name)"),
    (
        "player",
        "Petra",
        "Hráčová",
        "a participant: waiting in the Czech championship, a pair pending approval in Italy",
    ),
)


def load_accounts() -> dict[str, Any]:
    users = get_user_model()
    accounts: dict[str, Any] = {}
    for username, first, last, _role in ACCOUNTS:
        user = users.objects.filter(username=username).first()
        if user is None:
            user = users.objects.create_user(
                username, f"{username}@podium.example", PASSWORD, first_name=first, last_name=last
            )
        accounts[username] = user
    # The demo's organizer may create events where only approved accounts may (production).
    Account.objects.update_or_create(
        user=accounts["organizer"], defaults={"may_create_events": True}
    )
    player = accounts["player"]
    person = Person.objects.filter(user=player).first()
    if person is None:
        person = Person.objects.create(
            user=player,
            first_name="Petra",
            last_name="Hráčová",
            birth_date=dt.date(1990, 5, 17),
            country="CZ",
            gender="F",
            email=player.email,
        )
    accounts["player_person"] = person
    return accounts
