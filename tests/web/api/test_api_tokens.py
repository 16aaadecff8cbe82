"""API tokens: the organizer's page to create, list and revoke them, and the services behind it.

Hand-worked case (cba-qualifier): the organizer Olga appoints Rudolf as a referee and creates
"lane 3 scoring machine" acting as Rudolf. The page shows the secret once; the database keeps
only its SHA-256 (64 hex digits), so the list shows the name, Rudolf and "never" used. The
secret reads the event's draft standings through the API; after Olga revokes it, the API
answers 401 and the list says "revoked". Rudolf himself (a referee) cannot open the page (404),
a token acting as Petr (no role in the event) or a second active "lane 3 scoring machine" is
refused with the field named, and nothing is stored.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.test import Client

from podium.web.events.services.tokens import token_create, token_revoke
from podium.web.kernel.refusals import Refused
from podium.web.models import ApiToken, AuditEntry, Event

NAME = "lane 3 scoring machine"


@pytest.fixture
def bowling(make_event: Any, staff: Any, make_user: Any) -> dict[str, Any]:
    event = make_event("cba-qualifier", status=Event.Status.CLOSED)
    people = staff(event, organizer="olga", referee="rudolf")
    return {"event": event, "petr": make_user("petr"), **people}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organizer_creates_a_token_and_sees_its_secret_once(bowling: dict[str, Any]) -> None:
    olga = client_for(bowling["organizer"])
    dashboard = olga.get("/organize/cba-qualifier/").content.decode()
    assert 'href="/organize/cba-qualifier/tokens/"' in dashboard
    made = olga.post(
        "/organize/cba-qualifier/tokens/new/", {"name": NAME, "user": bowling["referee"].pk}
    )
    assert made.status_code == 201
    assert made["Cache-Control"] == "no-store"
    page = made.content.decode()
    secret = re.search(r"<code>(podium_[A-Za-z0-9_-]+)</code>", page).group(1)  # type: ignore[union-attr]
    token = ApiToken.objects.get()
    assert (token.name, token.user, token.created_by) == (
        NAME, bowling["referee"], bowling["organizer"],
    )  # fmt: skip
    assert token.secret_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(ApiToken.objects.values()))
    audit = AuditEntry.objects.get(action="token.create")
    assert audit.data == {"token": token.pk, "name": NAME, "user": "rudolf"}
    assert secret not in str(audit.data)

    listed = olga.get("/organize/cba-qualifier/tokens/").content.decode()
    assert NAME in listed
    assert secret not in listed  # shown once: never again
    assert "never" in listed

    url = "/api/events/cba-qualifier/stages/qualification/rounds/1/standings"
    assert Client().get(url).status_code == 404  # a draft
    assert Client().get(url, HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 200

    revoked = olga.post(f"/organize/cba-qualifier/tokens/{token.pk}/revoke/", follow=True)
    assert "is revoked" in revoked.content.decode()
    assert ApiToken.objects.get().revoked_by == bowling["organizer"]
    assert AuditEntry.objects.filter(action="token.revoke").count() == 1
    assert Client().get(url, HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 401


def test_only_organizers_and_only_for_the_events_staff(bowling: dict[str, Any]) -> None:
    rudolf = client_for(bowling["referee"])
    assert rudolf.get("/organize/cba-qualifier/tokens/").status_code == 404
    assert rudolf.post("/organize/cba-qualifier/tokens/new/", {"name": NAME}).status_code == 404
    olga = client_for(bowling["organizer"])
    stranger = olga.post(
        "/organize/cba-qualifier/tokens/new/", {"name": NAME, "user": bowling["petr"].pk}
    )
    assert stranger.status_code == 400
    assert "Select a valid choice" in stranger.content.decode()  # Petr is not offered at all
    with pytest.raises(Refused, match="appoint the user first") as refused:
        token_create(
            event=bowling["event"], name=NAME, user=bowling["petr"], by=bowling["organizer"]
        )
    assert refused.value.field == "user"
    with pytest.raises(Refused, match="Only an organizer"):
        token_create(
            event=bowling["event"], name=NAME, user=bowling["referee"], by=bowling["referee"]
        )
    assert ApiToken.objects.count() == 0

    # The organizer may hold one too; a second active token of the same name is refused.
    olga.post(
        "/organize/cba-qualifier/tokens/new/", {"name": NAME, "user": bowling["organizer"].pk}
    )
    again = olga.post(
        "/organize/cba-qualifier/tokens/new/", {"name": NAME, "user": bowling["referee"].pk}
    )
    assert again.status_code == 400
    assert "already named" in again.content.decode()
    assert ApiToken.objects.count() == 1
    blank = olga.post("/organize/cba-qualifier/tokens/new/", {"name": " ", "user": ""})
    assert blank.status_code == 400
    assert ApiToken.objects.count() == 1


def test_revoking_is_for_organizers_and_happens_once(bowling: dict[str, Any]) -> None:
    token, _secret = token_create(
        event=bowling["event"], name=NAME, user=bowling["referee"], by=bowling["organizer"]
    )
    with pytest.raises(Refused, match="Only an organizer"):
        token_revoke(token=token, by=bowling["referee"])
    first = token_revoke(token=token, by=bowling["organizer"])
    again = token_revoke(token=token, by=bowling["organizer"])
    assert first.revoked_at == again.revoked_at
    assert AuditEntry.objects.filter(action="token.revoke").count() == 1
    # a token of the event is not found from another event's page
    assert (
        client_for(bowling["organizer"])
        .post(f"/organize/other/tokens/{token.pk}/revoke/")
        .status_code
        == 404
    )
