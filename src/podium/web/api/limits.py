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
  throttle's failures too, ``podium.web.events.logins``) in a window of any length.
- client address: ``REMOTE_ADDR``; behind ``PODIUM_API_PROXIES`` trusted reverse proxies, the
  address that many hops from the end of ``X-Forwarded-For`` (a client cannot forge it).
"""

from __future__ import annotations

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from podium.web.api.errors import ApiError
from podium.web.kernel.throttle import client_address, window_hit

WINDOW = 60


def anonymous_limit() -> int:
    return int(getattr(settings, "PODIUM_API_ANONYMOUS_PER_MINUTE", 120))


def token_limit() -> int:
    return int(getattr(settings, "PODIUM_API_TOKEN_PER_MINUTE", 1200))


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
