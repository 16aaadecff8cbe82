"""``/healthz``: whether this app process reaches the database and the shared cache.

Vocabulary:
- healthy: both answer (``200``, ``"status": "ok"``). Without the database the process can serve
  nothing right, so it answers ``503`` and a load balancer should send no one to it; without the
  cache it still serves right, only slower (``200``, ``"status": "degraded"``), and says so.
"""

from __future__ import annotations

import secrets

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from podium.web.live.cache import is_down


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError:
        return "unreachable"
    return "ok"


def _cache() -> str:
    key = f"podium:healthz:{secrets.token_hex(8)}"
    cache.set(key, 1, timeout=10)
    answered = cache.get(key) == 1
    cache.delete(key)
    return "ok" if answered and not is_down(cache) else "unreachable"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    database, shared = _database(), _cache()
    status = "down" if database != "ok" else ("ok" if shared == "ok" else "degraded")
    return JsonResponse(
        {"status": status, "database": database, "cache": shared},
        status=503 if status == "down" else 200,
    )
