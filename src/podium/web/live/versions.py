"""Version tags: whether anything a standings page shows has changed, answered from the shared
cache without touching the database.

Vocabulary:
- scope: what of an event's standings an audited action can change (``AuditEntry.scope``):
  ``""`` every table of the event (entries, rosters, rulings, roles, draws…), a stage's key
  that stage's tables (results, checks, clocks, publication of its rounds), ``"-"`` none
  (payments, tokens, question packets…), ``"desk"`` the check-in desk's counts (check-ins, their
  undoing, seats given away) and no standings. An action not known here changes every table: a
  forgotten action costs a recomputation, never a stale table.
- scopes of a stage: the event's, the stage's own, and for a ChGK season the tour stage it sums.
- fingerprint of a scope: how many audit entries it has and the newest one's id, read from the
  database. Audit entries are only ever added, in the transaction of the change they record, so
  every committed change changes it — even one committed after a newer entry — and a
  fingerprint never comes back once changed.
- generation: a counter per scope in the shared cache, incremented when a transaction that
  wrote in the scope commits. A fingerprint is cached with the generation it was read at and is
  trusted while that is still the generation, for at most ``CHECK_S`` seconds: a write is seen
  at the next poll, and an increment that never came (a process killed between its commit and
  the increment, a cache that was down) within ``CHECK_S``.
- tag: the fingerprints of a stage's scopes joined with dots (``"41x9023.17x9020"``). Pages add
  the round, the view, whether the visitor is staff and the language to make their ETag.
- memo: the poll gate remembers a stage's tag in its own process for ``MEMO_S``, so the polls
  of a busy half second cost no round trip to the cache at all; a write through this process
  makes it forget at once, one through another process is seen up to ``MEMO_S`` later.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max

from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.live.cache import is_down
from podium.web.models import AuditEntry

EVENT = ""
UNSHOWN = "-"
DESK = "desk"
CHECK_S = 30
MEMO_S = 0.5
_memo: dict[tuple[str, str], tuple[float, str]] = {}

# Actions that change the tables of the stage named in their data (and seasons summing it).
STAGE_ACTIONS = (
    "result.", "table.", "round.", "sheet.", "publication.", "playoff.", "results.import",
    "chgk.import", "appeal.file",
)  # fmt: skip
# Actions that change nothing any standings page shows.
UNSHOWN_ACTIONS = (
    "token.", "payment.", "waiting.reorder", "questions.", "appeal.further", "jury.appoint",
)  # fmt: skip
# Actions that change only the check-in desk's counts (``entry.check-in`` and its undoing).
DESK_ACTIONS = ("entry.check-in", "seat.offer")


def scope_of(action: str, data: Mapping[str, Any]) -> str:
    """The scope of an audited action (see the vocabulary)."""
    if action.startswith(UNSHOWN_ACTIONS):
        return UNSHOWN
    if action.startswith(DESK_ACTIONS):
        return DESK
    stage = data.get("stage")
    if action.startswith(STAGE_ACTIONS) and isinstance(stage, str) and stage:
        return stage
    return EVENT


def stage_scopes(stage: Stage) -> tuple[str, ...]:
    if isinstance(stage, ChgkSeasonStage):
        return (EVENT, stage.key, stage.tour)
    return (EVENT, stage.key)


def _generation_key(slug: str, scope: str) -> str:
    return f"podium:v:g:{slug}:{scope}"


def _fingerprint_key(slug: str, scope: str) -> str:
    return f"podium:v:f:{slug}:{scope}"


def _scopes_key(slug: str, stage: str) -> str:
    return f"podium:v:d:{slug}:{stage}"


def forget(slug: str | None = None) -> None:
    """Forgets the memo of the event's stages (of every event when ``None``)."""
    for remembered in list(_memo):
        if slug is None or remembered[0] == slug:
            _memo.pop(remembered, None)


def _bump(slug: str, scope: str) -> None:
    forget(slug)
    key = _generation_key(slug, scope)
    try:
        cache.incr(key)
    except ValueError:
        # A random start: a counter lost from the cache never counts up to an old value again.
        if not cache.add(key, secrets.randbits(48), timeout=None):
            # Added meanwhile by another process; or the cache is down, and then the
            # fingerprint's age tells.
            with contextlib.suppress(ValueError):
                cache.incr(key)


def on_commit(call: Any) -> None:
    transaction.on_commit(call)


def changed(slug: str, scope: str) -> None:
    """Marks the scope changed once the current transaction commits (now, outside one)."""
    if scope != UNSHOWN:
        on_commit(lambda: _bump(slug, scope))


def _tag(fingerprints: Mapping[str, str], scopes: Sequence[str]) -> str:
    return ".".join(fingerprints[s] for s in scopes)


def _trusted(generation: Any, cached: Any) -> str | None:
    if isinstance(cached, tuple) and len(cached) == 2 and cached[0] == generation:
        return str(cached[1])
    return None


def _pair(slug: str, scope: str) -> tuple[str, str]:
    return _generation_key(slug, scope), _fingerprint_key(slug, scope)


def cached_tag(slug: str, stage: str) -> str | None:
    """The tag of a stage's pages from the memo or the cache alone (one or, for a season, two
    round trips), or ``None`` when the cache does not know the stage's scopes or a fingerprint
    is stale."""
    now = time.monotonic()
    remembered = _memo.get((slug, stage))
    if remembered is not None and remembered[0] > now:
        return remembered[1]
    tag = _cached_tag(slug, stage)
    if tag is not None:
        _memo[(slug, stage)] = (now + MEMO_S, tag)
    return tag


def _cached_tag(slug: str, stage: str) -> str | None:
    scopes_key = _scopes_key(slug, stage)
    keys = [scopes_key, *_pair(slug, EVENT), *_pair(slug, stage)]
    found = cache.get_many(keys)
    scopes = found.get(scopes_key)
    if not isinstance(scopes, tuple):
        return None
    more = [k for s in scopes if s not in (EVENT, stage) for k in _pair(slug, s)]
    if more:
        found |= cache.get_many(more)
    fingerprints = {}
    for scope in scopes:
        generation_key, fingerprint_key = _pair(slug, scope)
        trusted = _trusted(found.get(generation_key), found.get(fingerprint_key))
        if trusted is None:
            return None
        fingerprints[scope] = trusted
    return _tag(fingerprints, scopes)


def _read(slug: str, scopes: Iterable[str]) -> dict[str, str]:
    """Fingerprints from the database, one query for all the scopes."""
    wanted = set(scopes)
    found = {
        row["scope"]: f"{row['n']}x{row['m']}"
        for row in AuditEntry.objects.filter(event__slug=slug, scope__in=wanted)
        .values("scope")
        .annotate(n=Count("id"), m=Max("id"))
        .order_by()
    }
    return {scope: found.get(scope, "0") for scope in wanted}


def stage_tag(slug: str, stage: Stage) -> str:
    """The tag of a stage's pages: from the cache, the stale fingerprints read again from the
    database (and cached with the generation they were read at)."""
    return _scopes_tag(slug, stage_scopes(stage), stage.key)


def desk_tag(slug: str) -> str:
    """The tag of the check-in desk's counts: the event's entries and its check-ins."""
    return _scopes_tag(slug, (EVENT, DESK), DESK)


def board_tag(slug: str, stages: Sequence[Stage]) -> str:
    """The tag of the round board: the event's scope and that of every stage it lists."""
    scopes = (EVENT, *dict.fromkeys(k for s in stages for k in stage_scopes(s) if k != EVENT))
    return _scopes_tag(slug, scopes, ":board")  # never a stage key


def _scopes_tag(slug: str, scopes: tuple[str, ...], name: str) -> str:
    if is_down(cache):
        return _tag(_read(slug, scopes), scopes)
    keys = {s: _pair(slug, s) for s in scopes}
    scopes_key = _scopes_key(slug, name)
    found = cache.get_many([scopes_key, *(k for pair in keys.values() for k in pair)])
    fingerprints: dict[str, str] = {}
    generations: dict[str, Any] = {}
    for scope, (generation_key, fingerprint_key) in keys.items():
        generations[scope] = found.get(generation_key)
        trusted = _trusted(generations[scope], found.get(fingerprint_key))
        if trusted is not None:
            fingerprints[scope] = trusted
    stale = [s for s in scopes if s not in fingerprints]
    if stale:
        # The generations were read before the database: a write committed meanwhile moves its
        # generation on, and the next reader reads again.
        fresh = _read(slug, stale)
        cache.set_many({keys[s][1]: (generations[s], fresh[s]) for s in stale}, timeout=CHECK_S)
        fingerprints |= fresh
    if found.get(scopes_key) != scopes:
        cache.set(scopes_key, scopes, timeout=None)
    return _tag(fingerprints, scopes)
