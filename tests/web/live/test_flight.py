"""Single flight (``podium.web.live.flight``): one computation per version; while one process
computes, the others answer with the newest version made — or wait for it when they need that
very version; a subject that changes many times a second is made at most once per
``SETTLE_S``."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache

from podium.web.live import flight
from podium.web.live.cache import SharedRedisCache


def counted(value: str, made: list[str]) -> Any:
    def build() -> str:
        made.append(value)
        return value

    return build


def test_computed_once_per_version() -> None:
    made: list[str] = []
    assert flight.once("s", "v1", counted("one", made)) == ("v1", "one")
    assert flight.once("s", "v1", counted("other", made)) == ("v1", "one")
    assert flight.once("s", "v2", counted("two", made)) == ("v2", "two")
    assert made == ["one", "two"]


def test_while_another_process_computes_the_newest_version_made_is_served() -> None:
    made: list[str] = []
    flight.once("s", "v1", counted("one", made))
    cache.add("s:flight", 1, timeout=60)  # another process is making the subject (v2 or v3)
    assert flight.once("s", "v2", counted("two", made)) == ("v1", "one")
    assert flight.once("s", "v3", counted("three", made)) == ("v1", "one")
    assert flight.peek("s", "v3") == ("v1", "one")
    assert made == ["one"]
    cache.delete("s:flight")  # landed
    assert flight.once("s", "v3", counted("three", made)) == ("v3", "three")
    assert made == ["one", "three"]


def test_a_table_changing_every_moment_is_made_once_per_settling_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(flight, "SETTLE_S", 1)
    made: list[str] = []
    assert flight.once("s", "v1", counted("one", made)) == ("v1", "one")
    # Writes keep coming: until the flight has settled, the newest made is the answer.
    assert flight.once("s", "v2", counted("two", made)) == ("v1", "one")
    assert flight.once("s", "v3", counted("three", made)) == ("v1", "one")
    assert flight.peek("s", "v3") == ("v1", "one")
    time.sleep(1.1)
    assert flight.once("s", "v3", counted("three", made)) == ("v3", "three")
    assert made == ["one", "three"]  # v2 was never made: nobody asked once it could be
    # What must be exact (a round's standings for a page of that version) never waits to settle.
    assert flight.once("e", "v1", counted("e1", made), exact=True) == ("v1", "e1")
    assert flight.once("e", "v2", counted("e2", made), exact=True) == ("v2", "e2")


def test_a_caller_who_needs_the_version_waits_for_the_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(flight, "PAUSE_S", 0.01)
    flight.once("s", "v1", counted("one", []))
    cache.add("s@v2:flight", 1, timeout=60)

    def the_other_process() -> None:
        time.sleep(0.1)
        cache.set("s@v2", "two by the other")
        cache.delete("s@v2:flight")

    other = threading.Thread(target=the_other_process)
    other.start()
    made: list[str] = []
    assert flight.once("s", "v2", counted("two here", made), exact=True) == (
        "v2",
        "two by the other",
    )
    other.join()
    assert made == []


def test_a_failed_flight_is_computed_by_the_next_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flight, "PAUSE_S", 0.01)

    def broken() -> str:
        raise RuntimeError("the engine refused")

    with pytest.raises(RuntimeError):
        flight.once("s", "v1", broken)
    assert not cache.has_key("s@v1:flight")  # the lock is given back
    assert flight.once("s", "v1", counted("one", [])) == ("v1", "one")


def test_with_the_cache_down_every_caller_computes(monkeypatch: pytest.MonkeyPatch) -> None:
    dead = SharedRedisCache("redis://127.0.0.1:9/0", {})
    monkeypatch.setattr(flight, "cache", dead)
    dead.get("wake")  # learns that Redis is down
    made: list[str] = []
    assert flight.once("s", "v1", counted("one", made)) == ("v1", "one")
    assert flight.once("s", "v1", counted("one", made)) == ("v1", "one")
    assert made == ["one", "one"]
