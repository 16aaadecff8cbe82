"""Hostile input the API and the pages still let through before issue 23: query parameters
holding NUL or control characters, or given twice, answer 400 naming the parameter; a JSON
body with a 5,000-digit number or a lone surrogate answers 400 saying so, nothing written; the
rating site's JSON file with either is refused by the upload; and with the database down the
API answers 503 with Retry-After, not 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from podium.web.events.services.tokens import token_create
from podium.web.models import Event
from podium.web.readers.rating import read_rating
from podium.web.readers.tables import FileRefused

HOSTILE = "/api/events/cz-jigsaw/entries"


@pytest.fixture
def cz(make_event: Any, staff: Any, add_entry: Any) -> dict[str, Any]:
    event = make_event("cz-jigsaw", status=Event.Status.CLOSED)
    people = staff(event, organizer="ota", referee="radek")
    add_entry(event, 1, "Anna Nová", group="A")
    _token, secret = token_create(
        event=event, name="tablet", user=people["referee"], by=people["organizer"]
    )
    return {"event": event, "secret": secret}


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


@pytest.mark.parametrize(
    ("query", "name", "said"),
    [
        ("category=%00", "category", "The parameter “category” holds a control character"),
        ("category=a%1Bb", "category", "The parameter “category” holds a control character"),
        ("offset=false&offset=0.0", "offset", "The parameter “offset” is given 2 times"),
    ],
)
def test_a_query_parameter_with_a_control_character_or_given_twice_is_400(
    cz: dict[str, Any], query: str, name: str, said: str
) -> None:
    answer = Client().get(f"{HOSTILE}?{query}")
    assert answer.status_code == 400
    found = answer.json()
    assert (found["code"], list(found["fields"])) == ("bad-request", [name])
    assert found["message"].startswith(said)


@pytest.mark.parametrize("query", ["q=%00", "page=1&page=2"])
def test_a_page_refuses_them_too(cz: dict[str, Any], query: str) -> None:
    answer = Client().get(f"/events/cz-jigsaw/?{query}")
    assert answer.status_code == 400
    assert "The parameter “" in answer.content.decode()


def test_a_plain_query_still_answers(cz: dict[str, Any]) -> None:
    assert Client().get(f"{HOSTILE}?category=individuals&offset=0").status_code == 200


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ('{"entry": ' + "9" * 5000 + ', "cells": {"time": "1:00:00"}}', "a number of 5000 digits"),
        ('{"entry": 1, "cells": {"time": "\\ud800"}}', "$.cells.time holds a lone surrogate"),
    ],
    ids=["5000-digits", "lone-surrogate"],
)
def test_a_json_body_with_a_huge_number_or_a_lone_surrogate_is_400(
    cz: dict[str, Any], raw: str, said: str
) -> None:
    from podium.web.models import Result

    before = Result.objects.count()
    url = "/api/events/cz-jigsaw/stages/individual-qualification/rounds/1/results"
    answer = Client().post(
        url, raw, content_type="application/json", HTTP_IDEMPOTENCY_KEY="h1",
        **bearer(cz["secret"]),
    )  # fmt: skip
    assert answer.status_code == 400, answer.content
    assert said in answer.json()["message"]
    assert Result.objects.count() == before


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (b'[{"team": {"id": ' + b"7" * 5000 + b'}, "mask": "1"}]', "a number of 5000 digits"),
        (b'[{"team": {"id": 7, "name": "\\ud800"}, "mask": "1"}]', "holds a lone surrogate"),
    ],
)
def test_the_rating_sites_json_with_either_is_refused_at_the_door(data: bytes, said: str) -> None:
    with pytest.raises(FileRefused) as refused:
        read_rating(data)
    assert refused.value.message.startswith("The file cannot be read: ")
    assert said in refused.value.message


def test_the_api_answers_503_with_retry_after_when_the_database_is_down(
    cz: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch:  # undone before the test database is cleaned up
        patch.setattr(connection, "cursor", down)
        answer = Client().get("/api/events")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "30"
    assert answer.json()["code"] == "unavailable"
