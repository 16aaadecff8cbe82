"""Benchmark of the live results path: recording a result and serving the live standings (a
report, not a test).

What is measured, on a cz-jigsaw individual qualification (groups A and B, half each) with N
results in a fresh SQLite database (or PostgreSQL with ``DATABASE_URL``):

(a) a one-tap finish through ``results.services.clock.result_finish`` — the write a referee's phone
    makes: locks, checks against the clock, validates with the engine, appends, audits;
(b) the live table fragment when nothing changed: the poll every viewer makes every 3 s, answered
    ``304 Not Modified`` from the version tag;
(c) the fragment after a change, first viewer (standings computed from the database and
    rendered), and (d) the next viewers of the same version (served from the cache);
(e) the whole public stage page.

Every time is the median of several runs (``time.perf_counter``; the runs are in brackets). The
script always exits 0. Run ``.venv/bin/python bench/live.py`` (N = 200 and 2,000) or add
``--quick`` (N = 200 only).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from qualification import QUALI, qualification  # sets Django up: before any model

# isort: split

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse

from podium.web.models import Entry, Event, Result
from podium.web.results.services.clock import result_finish
from timing import median


def event_with(n: int, tag: str) -> tuple[Event, Any, Any]:
    """N results in a round started 89 minutes ago, and one entrant left to tap live."""

    def cells(k: int) -> dict[str, str]:
        # Spread over 30:00 to 88:59, inside the 89 minutes the round has run.
        s = 1800 + (k * 37) % 3540
        time = f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
        return {"time": time, "missing": "", "pieces": ""}

    event, ref, entries = qualification(n, tag, cells=cells, started_minutes_ago=89, spare=1)
    return event, ref, entries[n]


def report(n: int, runs: int) -> None:
    event, ref, last = event_with(n, str(n))
    client = Client()
    table = reverse("standings:table", args=[event.slug, QUALI])
    page = reverse("standings:stage", args=[event.slug, QUALI])
    first = client.get(table)
    etag = first["ETag"]
    unchanged, r304 = median(lambda: client.get(table, HTTP_IF_NONE_MATCH=etag), runs * 5)

    counter = iter(range(10**6))

    def fresh() -> None:
        cache.clear()
        client.get(table, HTTP_IF_NONE_MATCH='"stale"')

    cold, rcold = median(fresh, runs)
    client.get(table)
    warm, rwarm = median(lambda: client.get(table, HTTP_IF_NONE_MATCH='"stale"'), runs)
    whole, rwhole = median(lambda: client.get(page), runs)
    tap = Entry.objects.get(pk=last.pk)

    def finish() -> None:
        key = f"tap-{next(counter)}"
        Result.objects.filter(entry=tap).delete()  # the bench taps the same entrant again
        result_finish(event=event, stage=QUALI, entry=tap, by=ref, idempotency_key=key)

    write, rwrite = median(finish, runs)
    print(f"N = {n} results")
    print(f"  (a) one-tap finish (service write)      {write * 1000:8.1f} ms  [{rwrite}]")
    print(f"  (b) fragment, nothing changed (304)     {unchanged * 1000:8.1f} ms  [{r304}]")
    print(f"  (c) fragment after a change, first view {cold * 1000:8.1f} ms  [{rcold}]")
    print(f"  (d) fragment, later viewers (cached)    {warm * 1000:8.1f} ms  [{rwarm}]")
    print(f"  (e) whole stage page                    {whole * 1000:8.1f} ms  [{rwhole}]")
    print(f"      ratio (c)/(b): {cold / unchanged:.0f}×; (c)/(d): {cold / warm:.1f}×")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 200 only")
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"live standings benchmark — Python {sys.version.split()[0]}, database {engine}")
    for n in (200,) if args.quick else (200, 2000):
        report(n, runs=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
