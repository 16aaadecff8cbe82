"""Every desk request of a phone costs the same at 20 and at 200 entrants: the console opened
on one entrant or on its first page, the card list, a batch of taps, the check-in desk's list
and its taps — the same number of SQL queries, and answers of the same size (the card lists,
which the phone keeps and searches itself, grow by their rows alone).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

QUALI = "individual-qualification"


def measured(built: Any, method: str, url: str, body: Any = None) -> tuple[int, int]:
    """(queries, bytes) of one request by the head referee, with an empty cache."""
    client = Client()
    client.force_login(built.head)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(url)
        else:
            response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, (url, response.status_code)
    return len(queries), len(response.content)


def desk_requests(built: Any, entrants: int) -> dict[str, tuple[int, int]]:
    slug = built.event.slug
    console = f"/desk/{slug}/results/{QUALI}/1/"
    # The last entrant has no result yet; an even number is not checked in yet: both stored.
    tap = {"key": f"k{entrants}", "number": entrants, "cells": {"time": "0:45:00"}}
    return {
        "console, one entrant": measured(built, "get", f"{console}?q={entrants - 5}"),
        "console, first page": measured(built, "get", console),
        "console, no result yet": measured(built, "get", f"{console}?show=open&order=table"),
        "card list": measured(built, "get", f"{console}cards.json"),
        "taps": measured(built, "post", f"{console}taps/", {"taps": [tap]}),
        "desk list": measured(built, "get", f"/desk/{slug}/entries.json"),
        "check-in taps": measured(
            built, "post", f"/desk/{slug}/taps/", {"taps": [{"key": "c1", "number": entrants - 2}]}
        ),
    }


@pytest.mark.slow
@pytest.mark.django_db
def test_every_desk_request_costs_the_same_at_20_and_200_entrants(jigsaw_at: Any) -> None:
    small = desk_requests(jigsaw_at(20, 1), 20)
    large = desk_requests(jigsaw_at(200, 1), 200)
    for name in small:
        assert small[name][0] == large[name][0], (name, small[name], large[name])
    # Pages and answers about a few entrants: the same size but for the digits of numbers.
    for name in ("console, one entrant", "console, no result yet", "taps", "check-in taps"):
        assert abs(small[name][1] - large[name][1]) < 0.01 * small[name][1] + 20, (
            name, small[name], large[name],
        )  # fmt: skip
    # The first page shows 40 cards of 200, all 20 of 20: at most twice as large.
    assert large["console, first page"][1] < 2.2 * small["console, first page"][1]
    # The lists the phone keeps (the desk's lists individuals and teams): at most 160 bytes a
    # row (number, name, group, table, value, who, when).
    for name, rows in (("card list", 180), ("desk list", 180 + 180)):
        per_row = (large[name][1] - small[name][1]) / rows
        assert per_row < 160, (name, per_row)
    assert small["taps"][0] < 40, small
    assert small["card list"][0] < 12, small
