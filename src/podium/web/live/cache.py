"""The cache shared by every app process and machine (Redis), kept from ever breaking a page.

Vocabulary:
- shared cache: Django's Redis cache with short socket timeouts; everything the processes share
  lives there (version tags, rendered tables, locks, rate-limit counters, cached sessions).
- down: Redis did not answer. The cache then behaves as an empty one that keeps nothing — a
  read misses, a write is dropped, a lock is not taken — and says so (``is_down``), so callers
  compute from the database instead of waiting for a lock nobody can hold. After a failure it
  skips Redis for ``RETRY_S`` rather than paying a timeout on every call; pages get slower,
  never wrong.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import BaseCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("podium.cache")

RETRY_S = 1.0
T = TypeVar("T")


class SharedRedisCache(RedisCache):
    """Django's Redis cache that turns an unreachable Redis into misses (see the vocabulary)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = params.setdefault("OPTIONS", {})
        options.setdefault("socket_connect_timeout", 0.5)
        options.setdefault("socket_timeout", 1.0)
        super().__init__(server, params)
        self._down_until = 0.0

    @property
    def is_down(self) -> bool:
        return time.monotonic() < self._down_until

    def _safely(self, call: Callable[[], T], fallback: T) -> T:
        if self.is_down:
            return fallback
        try:
            return call()
        except (RedisError, OSError) as exc:
            if not self.is_down:
                log.warning("the shared cache is unreachable (%s); going on without it", exc)
            self._down_until = time.monotonic() + RETRY_S
            return fallback

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._safely(
            lambda: super(SharedRedisCache, self).get(key, default, version), default
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._safely(lambda: super(SharedRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._safely(lambda: super(SharedRedisCache, self).has_key(key, version), False)

    def add(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> bool:
        return self._safely(
            lambda: super(SharedRedisCache, self).add(key, value, timeout, version), False
        )

    def set(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> None:
        self._safely(lambda: super(SharedRedisCache, self).set(key, value, timeout, version), None)

    def set_many(self, data: Any, timeout: Any = None, version: Any = None) -> list[Any]:
        return self._safely(
            lambda: super(SharedRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def touch(self, key: Any, timeout: Any = None, version: Any = None) -> bool:
        return self._safely(
            lambda: super(SharedRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._safely(lambda: super(SharedRedisCache, self).delete(key, version), False)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._safely(lambda: super(SharedRedisCache, self).delete_many(keys, version), None)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        missing = object()
        found = self._safely(
            lambda: super(SharedRedisCache, self).incr(key, delta, version), missing
        )
        if found is missing:
            raise ValueError(f"Key '{key}' not found (the shared cache is unreachable)")
        return found  # type: ignore[return-value]

    def clear(self) -> None:
        self._safely(lambda: super(SharedRedisCache, self).clear(), None)


def is_down(cache: BaseCache) -> bool:
    """Whether the cache is known to be unreachable right now (a local cache never is)."""
    return bool(getattr(cache, "is_down", False))
