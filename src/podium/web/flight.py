"""Single flight: a costly value (a round's standings, its rendered table, a page) computed once
per version by one process, while the others keep serving the version before it.

Vocabulary:
- subject: what is computed, as a cache key prefix (``podium:html:<event>:<stage>:…``).
- version: the version tag it is computed for (``podium.web.versions``); a value is kept in the
  shared cache under its subject and version for ``KEEP_S``.
- retired version: once a newer version of a subject is made, the one before is kept only
  ``GRACE_S`` more (for whoever is still reading it), so the cache holds about one version of
  each subject however fast results come in.
- flight: the computation of a subject at a version, under a lock in the shared cache held at
  most ``LOCK_S``. The process that takes the lock computes; the others answer with the newest
  version of the subject already computed (and its tag, so their clients ask again), or, when
  there is none (or the caller needs that very version), wait for the flight up to ``WAIT_S``
  before computing themselves. With the cache down every process computes for itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

from podium.web.cache import is_down

T = TypeVar("T")

KEEP_S = 600
GRACE_S = 30
LOCK_S = 60
WAIT_S = 15.0
PAUSE_S = 0.05


def _newest_key(subject: str) -> str:
    return f"{subject}@newest"


def once(
    subject: str, version: str, build: Callable[[], T], *, exact: bool = False
) -> tuple[str, T]:
    """The subject's value at ``version`` and that version — or, while another process computes
    it and ``exact`` is not asked for, the newest version already computed and its value.
    ``build`` must not return ``None``."""
    key = f"{subject}@{version}"
    found = cache.get(key)
    if found is not None:
        return version, found
    if is_down(cache):
        return version, build()
    flight = f"{key}:flight"
    if cache.add(flight, 1, timeout=LOCK_S):
        try:
            value = build()
            before = cache.get(_newest_key(subject))
            cache.set_many({key: value, _newest_key(subject): version}, timeout=KEEP_S)
            if before is not None and before != version:
                cache.touch(f"{subject}@{before}", GRACE_S)
        finally:
            cache.delete(flight)
        return version, value
    if not exact:
        newest = cache.get(_newest_key(subject))
        if newest is not None and newest != version:
            previous = cache.get(f"{subject}@{newest}")
            if previous is not None:
                return str(newest), previous
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        time.sleep(PAUSE_S)
        flying = cache.has_key(flight)
        found = cache.get(key)
        if found is not None:
            return version, found
        if not flying:
            break  # the flight failed: compute here
    value = build()
    cache.set(key, value, timeout=KEEP_S)
    return version, value


def peek(subject: str, version: str) -> tuple[str, object] | None:
    """Without computing: the value at ``version`` if made, else the newest one while a flight
    for ``version`` is on (what ``once`` would answer), else ``None``."""
    key = f"{subject}@{version}"
    found = cache.get_many([key, f"{key}:flight", _newest_key(subject)])
    if key in found:
        return version, found[key]
    newest = found.get(_newest_key(subject))
    if f"{key}:flight" in found and newest is not None:
        previous = cache.get(f"{subject}@{newest}")
        if previous is not None:
            return str(newest), previous
    return None
