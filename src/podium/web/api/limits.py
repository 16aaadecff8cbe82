"""How often the API answers one client: anonymous use per IP address, a token per token.

Vocabulary:
- window: a minute that starts with a client's first request; the requests in it are counted in
  Django's cache (shared by every app process when the cache is Redis), and over the limit the
  client is told how many seconds are left (``Retry-After``).
- anonymous use: a request without a valid token, counted per client IP address
  (``PODIUM_API_ANONYMOUS_PER_MINUTE``, 120 by default). A token holder (a scoring machine
  posting every frame) is counted per token, with a higher limit
  (``PODIUM_API_TOKEN_PER_MINUTE``, 1200 by default).
- window counters: ``window_hit``/``window_count``/``window_reset`` count any events (the log-in
  throttle's failures too, ``podium.web.logins``) in a window of any length.
- client address: ``REMOTE_ADDR``; behind ``PODIUM_API_PROXIES`` trusted reverse proxies, the
  address that many hops from the end of ``X-Forwarded-For`` (a client cannot forge it).
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import BaseCache, cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from podium.web.api.errors import ApiError

WINDOW = 60


def anonymous_limit() -> int:
    return int(getattr(settings, "PODIUM_API_ANONYMOUS_PER_MINUTE", 120))


def token_limit() -> int:
    return int(getattr(settings, "PODIUM_API_TOKEN_PER_MINUTE", 1200))


def client_address(request: HttpRequest) -> str:
    proxies = int(getattr(settings, "PODIUM_API_PROXIES", 0))
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [h.strip() for h in forwarded.split(",") if h.strip()]
        if hops:
            return hops[-min(proxies, len(hops))]
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def window_start(store: BaseCache, base: str, window: int, now: float) -> float:
    """When the window of ``base`` began (now, when none is running)."""
    return float(store.get_or_set(f"{base}:start", now, timeout=window))


def window_hit(store: BaseCache, base: str, window: int, now: float) -> tuple[int, float]:
    """Counts one event under ``base`` in ``store``: the count in its window, and its start."""
    start = window_start(store, base, window, now)
    key = f"{base}:{int(start * 1000)}"
    if store.add(key, 1, timeout=window + 1):
        return 1, start
    try:
        return store.incr(key), start
    except ValueError:  # the window ended between the two calls
        store.add(key, 1, timeout=window + 1)
        return 1, start


def window_count(store: BaseCache, base: str) -> tuple[int, float]:
    """The count under ``base`` in its running window and the window's start, without counting
    (0 when no window runs)."""
    start = store.get(f"{base}:start")
    if start is None:
        return 0, 0.0
    return int(store.get(f"{base}:{int(float(start) * 1000)}") or 0), float(start)


def window_reset(store: BaseCache, base: str) -> None:
    """Forgets the running window of ``base``: the next event starts a new one."""
    store.delete(f"{base}:start")


def _count(scope: str, limit: int, now: float | None = None) -> None:
    """Counts one request of ``scope``; over ``limit`` in its window, a 429 with Retry-After."""
    now = time.time() if now is None else now
    count, start = window_hit(cache, f"podium:api:rate:{scope}", WINDOW, now)
    if count > limit:
        wait = max(1, math.ceil(start + WINDOW - now))
        raise ApiError(
            429,
            "rate-limited",
            _("Too many requests: at most %(limit)d a minute. Try again in %(wait)d s.")
            % {"limit": limit, "wait": wait},
            headers={"Retry-After": str(wait)},
        )


def count_anonymous(request: HttpRequest) -> None:
    _count(f"ip:{client_address(request)}", anonymous_limit())


def count_token(token_id: int) -> None:
    _count(f"token:{token_id}", token_limit())
