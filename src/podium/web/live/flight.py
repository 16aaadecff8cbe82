"""Single flight: a costly value (a round's standings, its rendered table, a page) computed once
per version by one process, while the others keep serving the version before it.

Vocabulary:
- subject: what is computed, as a cache key prefix (``podium:html:<event>:<stage>:…``).
- version: the version tag it is computed for (``podium.web.live.versions``); a value is kept in the
  shared cache under its subject and version for ``KEEP_S``.
- newest: the version of a subject made last, and its value: what is served while a newer one
  is being made.
- retired version: once a newer version of a subject is made, the one before is kept only
  ``GRACE_S`` more (for whoever is still reading it), so the cache holds about one version of
  each subject however fast results come in.
- flight: the computation of a subject, under a lock in the shared cache held at most
  ``LOCK_S``. What may be served a little late (a page, a fragment: ``once``) has one flight
  per subject: while one process makes a version, every other request — for that version or a
  newer one — gets the newest made, and the next version is made once the flight has landed.
  The lock is then kept ``SETTLE_S`` more, so a table that changes many times a second is
  rendered at most once per ``SETTLE_S`` (its spectators poll every few seconds anyway). What
  must be exactly the version asked for (a round's standings from which that version's page is
  made: ``once(…, exact=True)``) has one flight per version, and its callers wait for it.
- waiting: a caller with nothing to serve meanwhile waits for the flight up to ``WAIT_S``, then
  computes itself. With the cache down every process computes for itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

from podium.web.live.cache import is_down

T = TypeVar("T")

KEEP_S = 600
GRACE_S = 30
SETTLE_S = 2
LOCK_S = 60
WAIT_S = 15.0
PAUSE_S = 0.05


def _newest_key(subject: str) -> str:
    return f"{subject}@newest"


def _flight_key(subject: str, version: str, exact: bool) -> str:
    return f"{subject}@{version}:flight" if exact else f"{subject}:flight"


def _newest(subject: str, version: str) -> tuple[str, object] | None:
    newest = cache.get(_newest_key(subject))
    if newest is None or newest == version:
        return None
    previous = cache.get(f"{subject}@{newest}")
    return (str(newest), previous) if previous is not None else None


def once(
    subject: str, version: str, build: Callable[[], T], *, exact: bool = False
) -> tuple[str, T]:
    """The subject's value at ``version`` and that version — or, while a flight of the subject
    is on and ``exact`` is not asked for, the newest version made and its value.
    ``build`` must not return ``None``."""
    key = f"{subject}@{version}"
    found = cache.get(key)
    if found is not None:
        return version, found
    if is_down(cache):
        return version, build()
    flight = _flight_key(subject, version, exact)
    if cache.add(flight, 1, timeout=LOCK_S):
        landed = False
        try:
            value = build()
            before = cache.get(_newest_key(subject))
            cache.set_many({key: value, _newest_key(subject): version}, timeout=KEEP_S)
            if before is not None and before != version:
                cache.touch(f"{subject}@{before}", GRACE_S)
            landed = True
        finally:
            if landed and not exact and SETTLE_S > 0:
                cache.touch(flight, SETTLE_S)
            else:
                cache.delete(flight)
        return version, value
    if not exact and (newest := _newest(subject, version)) is not None:
        return newest  # type: ignore[return-value]
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        time.sleep(PAUSE_S)
        flying = cache.has_key(flight)
        found = cache.get(key)
        if found is not None:
            return version, found
        if not exact and (newest := _newest(subject, version)) is not None:
            return newest  # type: ignore[return-value]
        if not flying:
            break  # the flight failed: compute here
    value = build()
    cache.set(key, value, timeout=KEEP_S)
    return version, value


def peek(subject: str, version: str) -> tuple[str, object] | None:
    """Without computing: the value at ``version`` if made, else the newest one while a flight
    of the subject is on (what ``once`` would answer), else ``None``."""
    key = f"{subject}@{version}"
    flight = _flight_key(subject, version, exact=False)
    found = cache.get_many([key, flight, _newest_key(subject)])
    if key in found:
        return version, found[key]
    newest = found.get(_newest_key(subject))
    if flight in found and newest is not None and newest != version:
        previous = cache.get(f"{subject}@{newest}")
        if previous is not None:
            return str(newest), previous
    return None
