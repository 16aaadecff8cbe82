"""The shared cache (``podium.web.live.cache``): Redis, and when Redis does not answer, a cache that
misses quickly and says it is down instead of breaking the page."""

from __future__ import annotations

import os
import secrets
import socket
from typing import Any

import pytest

from podium.web.live import cache as shared
from podium.web.live.cache import SharedRedisCache, is_down

REDIS = os.environ.get("PODIUM_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def test_redis_shared_between_two_clients() -> None:
    prefix = f"test-{secrets.token_hex(4)}"
    one = SharedRedisCache(REDIS, {"KEY_PREFIX": prefix})
    other = SharedRedisCache(REDIS, {"KEY_PREFIX": prefix})  # another process's client
    one.set("tag", ("7", "12x40"), timeout=10)
    assert other.get("tag") == ("7", "12x40")
    assert one.add("lock", 1, timeout=10)
    assert not other.add("lock", 1, timeout=10)
    one.set("n", 5, timeout=10)
    assert other.incr("n") == 6
    assert not is_down(one)
    one.delete_many(["tag", "lock", "n"])


def test_a_cache_that_does_not_answer_misses_fast_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    attempts: list[Any] = []
    connect = socket.socket.connect

    def counted(self: socket.socket, address: Any) -> None:
        attempts.append(address)
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", counted)
    monkeypatch.setattr(shared, "RETRY_S", 600.0)  # known down all along, however busy the machine
    dead = SharedRedisCache("redis://127.0.0.1:9/0", {})  # nothing listens on port 9
    assert dead.get("tag", "missing") == "missing"
    assert dead.is_down
    for _ in range(100):  # skipped while it is known down: no timeout paid per call
        assert dead.get_many(["a", "b"]) == {}
        assert dead.add("lock", 1) is False
        dead.set("x", 1)
    # The work counted, not the wall clock: one attempt to connect (no retry waited for) in
    # 301 calls; every call after the first answers without trying Redis.
    assert [port for _host, port, *_ in attempts] == [9]
    with pytest.raises(ValueError, match="not found"):
        dead.incr("n")  # as for a missing key: the callers know what to do then
