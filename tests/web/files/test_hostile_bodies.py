"""Hostile bodies on the web: the rulebook upload, a request over its cap, Django's form caps
and the API's JSON bodies refuse each case of issue 12 clearly, quickly, in bounded memory,
never with a 500, and change nothing in the database. The event and the helpers are those of
``test_hostile_uploads``.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.test import Client
from tests.web.files import test_hostile_uploads
from tests.web.files.test_hostile_uploads import counts, signed_in

from podium.rules.loader import preset_text

pytestmark = pytest.mark.django_db

cz = test_hostile_uploads.cz  # the fixture: the cz-jigsaw event the API's address names


# --- the rulebook upload ---------------------------------------------------------------------

FORM = {
    "title": "Hostile",
    "slug": "hostile",
    "preset": "",
    "starts_at": "2026-06-20T09:00",
    "timezone": "Europe/Prague",
    "language": "en",
}


def laughs() -> bytes:
    lines, previous = ["z: &z [lol]"], "z"
    for name in "abcdefghi":
        lines.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]")
        previous = name
    return ("\n".join(lines) + "\n" + preset_text("it-puzzle-party")).encode()


def new_event(client: Client, name: str, data: bytes) -> Any:
    file = io.BytesIO(data)
    file.name = name
    return client.post("/organize/new/", FORM | {"rulebook_file": file})


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (laughs(), "more than 50,000 settings and values once its aliases are expanded"),
        (b"x: " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "nested deeper than 50 levels"),
        (b"- " * 50_000 + b"x\n", "nested deeper than 50 levels"),
        (
            b"# " + b"x" * 300_000 + b"\n",
            "The file is 293 KB; Podium reads rulebooks of up to 256 KB.",
        ),
    ],
    ids=["billion-laughs", "deep-flow", "deep-block", "over-256KB"],
)  # fmt: skip
def test_the_rulebook_upload_refuses_hostile_yaml(
    make_user: Any, data: bytes, said: str, bounded: Any
) -> None:
    client = signed_in(make_user("alice"))
    before = counts()
    response = bounded(lambda: new_event(client, "rulebook.yaml", data))
    assert response.status_code == 200  # the form again, with the problem
    assert said in response.content.decode()
    assert counts() == before


def test_a_body_over_the_cap_is_refused_before_it_is_read(make_user: Any, bounded: Any) -> None:
    """The issue's 50 MB YAML: answered 413 from its Content-Length, its bytes never read."""
    client = signed_in(make_user("alice"))
    before = counts()
    declared = bounded(
        lambda: client.post(
            "/organize/new/", FORM, CONTENT_LENGTH=str(50 * 1024 * 1024), HTTP_ACCEPT_LANGUAGE="cs"
        )
    )
    assert declared.status_code == 413
    assert (
        "Požadavek má 50 MB; Podium zde přijme nejvýše 3 MB. Nic nebylo načteno ani uloženo."
    ) in declared.content.decode()
    italian = client.post("/it/organize/new/", FORM, CONTENT_LENGTH=str(50 * 1024 * 1024))
    assert "La richiesta è di 50 MB; qui Podium accetta al massimo 3 MB." in (
        italian.content.decode()
    )
    real = bounded(lambda: new_event(client, "rulebook.yaml", b"#" * (4 * 1024 * 1024)))
    assert real.status_code == 413
    assert "The request is 4 MB; Podium accepts at most 3 MB here." in real.content.decode()
    assert counts() == before


# --- the API ---------------------------------------------------------------------------------

RESULTS = "/api/events/cz-jigsaw/stages/individual-qualification/rounds/1/results"


def test_the_api_refuses_a_large_body_with_its_error_body(cz: Any, bounded: Any) -> None:
    before = counts()
    body = json.dumps({"entry": 1, "cells": {"note": "x" * (2 * 1024 * 1024)}})
    response = bounded(lambda: Client().post(RESULTS, body, content_type="application/json"))
    assert response.status_code == 413
    assert response.json()["code"] == "too-large"
    assert response.json()["message"] == (
        "The request is 2 MB; Podium accepts at most 1 MB here. Nothing was read or saved."
    )
    assert counts() == before


def test_the_api_refuses_a_body_nested_200000_deep_unread(cz: Any, bounded: Any) -> None:
    before = counts()
    body = '{"entry": 1, "cells": ' + "[" * 200_000 + "]" * 200_000 + "}"
    response = bounded(lambda: Client().post(RESULTS, body, content_type="application/json"))
    assert response.status_code == 400
    assert response.json()["code"] == "bad-request"
    assert response.json()["message"] == (
        "The JSON body nests arrays and objects more than 32 levels deep; Podium refuses it unread."
    )
    assert counts() == before


def test_a_deep_api_body_is_refused_whatever_its_declared_type(cz: Any) -> None:
    body = "[" * 200_000 + "]" * 200_000
    response = Client().post(RESULTS, body, content_type="text/plain")
    assert response.status_code == 400
    assert response.json()["code"] == "bad-request"


def test_an_ordinary_api_body_still_reaches_the_api(cz: Any) -> None:
    response = Client().post(RESULTS, {"entry": 1}, content_type="application/json")
    assert response.status_code == 401  # the token is asked for, as before


def test_django_form_caps_are_named(make_user: Any, bounded: Any) -> None:
    client = signed_in(make_user("alice"))
    assert client.get("/organize/new/").status_code == 200  # warmed up: the post is timed
    before = counts()
    many = bounded(lambda: client.post("/organize/new/", {f"f{i}": "x" for i in range(1001)}))
    assert many.status_code == 400
    assert "The form sends more than 1000 fields, the most Podium accepts." in (
        many.content.decode()
    )
    large = bounded(lambda: client.post("/organize/new/", FORM | {"venue": "x" * 2_700_000}))
    assert large.status_code == 413
    assert "The form&#x27;s fields (without its files) are larger than 2.5 MB" in (
        large.content.decode()
    )
    assert counts() == before


def test_unclosed_strings_do_not_slow_the_nesting_scan(cz: Any, bounded: Any) -> None:
    """'"\\' repeated: a string pattern that could fail and restart at every quote would take
    minutes on this 600 KB body; the scan is linear and the API answers that it is not JSON."""
    body = '"\\' * 300_000
    assert Client().get("/api/events").status_code == 200  # warmed up: the post is timed
    response = bounded(lambda: Client().post(RESULTS, body, content_type="application/json"))
    assert response.status_code in (400, 401)
    assert response.json()["code"] in ("bad-request", "unauthorized")


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    from podium.web.kernel.limits import json_depth

    assert json_depth(json.dumps({"a": ["[[[", {"b": '"]]\\'}]}).encode()) == 3
    assert json_depth(b'["a]\\"[", [[1]], "x\\\\"]') == 3
