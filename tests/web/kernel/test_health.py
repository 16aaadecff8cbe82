"""``/healthz`` says whether the process reaches its database and its shared cache."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from podium.web.live.cache import SharedRedisCache


def health(client: Client | None = None) -> tuple[int, dict[str, Any]]:
    response = (client or Client()).get("/healthz")
    assert "no-store" in response["Cache-Control"]
    return response.status_code, json.loads(response.content)


def test_healthy(db: None) -> None:
    assert health() == (200, {"status": "ok", "database": "ok", "cache": "ok"})


def test_without_the_database_the_process_is_down(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refused)
    try:
        assert health() == (503, {"status": "down", "database": "unreachable", "cache": "ok"})
    finally:
        monkeypatch.undo()  # the test's own clean-up needs the database


def test_without_the_cache_it_still_serves_and_says_so(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    dead = SharedRedisCache("redis://127.0.0.1:9/0", {})  # nothing listens on port 9
    monkeypatch.setattr("podium.web.kernel.health.cache", dead)
    assert health() == (200, {"status": "degraded", "database": "ok", "cache": "unreachable"})
