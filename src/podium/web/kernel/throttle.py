"""Counting what one client does in a window of time, in the shared cache.

Vocabulary:
- window: a span of time (a minute for the API) that starts with a client's first counted
  event; the events in it are counted in Django's cache (shared by every app process when the
  cache is Redis). The API's rate limits (``podium.web.api.limits``) and the log-in throttle
  (``podium.web.events.logins``) count with it.
- client address: ``REMOTE_ADDR``; behind ``PODIUM_API_PROXIES`` trusted reverse proxies, the
  address that many hops from the end of ``X-Forwarded-For`` (a client cannot forge it).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import BaseCache
from django.http import HttpRequest


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
