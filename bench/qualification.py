"""The benchmarks' event: Django set up on a fresh database, and a cz-jigsaw individual
qualification of N entrants with their results, published preliminary.

Vocabulary:
- fresh database: SQLite in a temporary folder of its own, unless ``DATABASE_URL`` names
  another (PostgreSQL); importing this module sets Django up on it, so a script imports it
  before any model.
- entrant k: ``Entrant k`` with table number k, in group A or B by parity, one person each,
  from Slovakia when k is a multiple of nine (so outside the competition), else Czechia.
- spare: entrants made after the N with no result (a bench taps them live).
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

TMP = tempfile.mkdtemp(prefix="podium-bench-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(TMP) / 'bench.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "podium.web.settings")
os.environ["PODIUM_DATA_DIR"] = TMP

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import timezone  # noqa: E402

from podium.rules.loader import preset_text  # noqa: E402
from podium.web.models import Entry, EntryMember, Event, EventRole, Person, Result  # noqa: E402
from podium.web.results.services.clock import round_start  # noqa: E402
from podium.web.standings.services.publication import publication_set  # noqa: E402

QUALI = "individual-qualification"


def qualification(
    n: int,
    tag: str,
    *,
    cells: Callable[[int], dict[str, str]],
    started_minutes_ago: int,
    spare: int = 0,
) -> tuple[Event, Any, list[Entry]]:
    """The event, its referee and its entrants (see the vocabulary): both groups' clocks
    started ``started_minutes_ago``, entrant k's result ``cells(k)`` for k up to ``n``."""
    users = get_user_model()
    org = users.objects.create_user(f"org-{tag}", password="x")
    ref = users.objects.create_user(f"ref-{tag}", password="x")
    event = Event.objects.create(
        slug=f"bench-{tag}",
        title="Bench",
        rulebook_key="cz-jigsaw",
        rulebook_text=preset_text("cz-jigsaw"),
        starts_at=timezone.now(),
        status="closed",
        language="en",
    )
    EventRole.objects.create(event=event, user=org, role="organizer")
    EventRole.objects.create(event=event, user=ref, role="referee")
    entries = Entry.objects.bulk_create(
        Entry(event=event, category="individuals", name=f"Entrant {i}", number=i,
              status="confirmed", group="AB"[i % 2])
        for i in range(1, n + spare + 1)
    )  # fmt: skip
    people = Person.objects.bulk_create(
        Person(first_name="E", last_name=str(e.number), country="CZ" if e.number % 9 else "SK")
        for e in entries
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, people, strict=True)
    )
    start = timezone.now() - dt.timedelta(minutes=started_minutes_ago)
    for group in ("A", "B"):
        round_start(event=event, stage=QUALI, group=group, by=org, now=start)
    Result.objects.bulk_create(
        Result(event=event, stage=QUALI, entry=e, recorded_by=ref, recorded_at=start,
               cells=cells(e.number), idempotency_key=f"b{e.number}")
        for e in entries[:n]
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    return event, ref, entries
