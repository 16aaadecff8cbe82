"""How often one account or one address may get a password wrong, and what else is throttled.

Vocabulary:
- throttle: a limit of failures per key (an account's name, a client address) in a window
  that starts with the first failure, counted with the API's window counters
  (``podium.web.api.limits``) in the shared cache, so every app process and machine counts
  the same attempts. Over the limit, attempts are refused before the password is even checked
  (the right one too) until the window ends; a successful log-in clears its account's count.
- account throttle: ``PODIUM_LOGIN_FAILURES_PER_ACCOUNT`` (5) failures per user name in
  ``PODIUM_LOGIN_WINDOW_MINUTES`` (15); address throttle: ``PODIUM_LOGIN_FAILURES_PER_ADDRESS``
  (20) per client address (``client_address``: behind ``PODIUM_TRUSTED_PROXIES`` proxies, the
  address they saw). Sign-ups and password-reset requests, which send e-mail, are counted per
  address the same way (``PODIUM_MAIL_REQUESTS_PER_ADDRESS``, 10 an hour).
- fail: one failure counted; wait: the seconds left before a key over its limit may try again.
- cache down: when the shared cache (Redis) does not answer, each process counts in its own
  memory instead, with the same limits. Nobody is locked out because Redis is gone, and an
  attacker gets at most the limit per process (workers × machines times as many) rather than
  unlimited attempts; the cache logs that it is unreachable.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.conf import settings
from django.core.cache import BaseCache, cache
from django.core.cache.backends.locmem import LocMemCache

from podium.web.kernel.throttle import window_count, window_hit, window_reset
from podium.web.live.cache import is_down

T = TypeVar("T")

# Each process's own counters, used only while the shared cache is down.
_LOCAL = LocMemCache("podium-logins", {"OPTIONS": {"MAX_ENTRIES": 100_000}})


def _counted(call: Callable[[BaseCache], T]) -> T:
    """``call`` on the shared cache; on this process's own counters if the cache is down."""
    if not is_down(cache):
        found = call(cache)
        if not is_down(cache):
            return found
    return call(_LOCAL)


@dataclass(frozen=True)
class Throttle:
    name: str
    limit_setting: str
    default_limit: int
    window_setting: str
    default_minutes: int

    @property
    def limit(self) -> int:
        return int(getattr(settings, self.limit_setting, self.default_limit))

    @property
    def window(self) -> int:
        return int(getattr(settings, self.window_setting, self.default_minutes)) * 60

    def _base(self, key: str) -> str:
        # Hashed: a user name may hold any character, and the cache keys stay short and plain.
        digest = hashlib.sha256(key.casefold().encode()).hexdigest()[:32]
        return f"podium:throttle:{self.name}:{digest}"

    def wait(self, key: str, now: float | None = None) -> int:
        """Seconds until ``key`` may try again (0: it may now)."""
        now = time.time() if now is None else now
        count, start = _counted(lambda store: window_count(store, self._base(key)))
        if count < self.limit:
            return 0
        return max(1, math.ceil(start + self.window - now))

    def fail(self, key: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        _counted(lambda store: window_hit(store, self._base(key), self.window, now))

    def clear(self, key: str) -> None:
        _counted(lambda store: window_reset(store, self._base(key)))


_LOGIN_WINDOW = "PODIUM_LOGIN_WINDOW_MINUTES"
ACCOUNT = Throttle("login-account", "PODIUM_LOGIN_FAILURES_PER_ACCOUNT", 5, _LOGIN_WINDOW, 15)
ADDRESS = Throttle("login-address", "PODIUM_LOGIN_FAILURES_PER_ADDRESS", 20, _LOGIN_WINDOW, 15)
MAIL = Throttle("mail-address", "PODIUM_MAIL_REQUESTS_PER_ADDRESS", 10, "PODIUM_MAIL_WINDOW", 60)
