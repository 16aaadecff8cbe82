"""Benchmark of re-rendering the standings after a write (a report, not a test).

What is measured, in a fresh SQLite database (or PostgreSQL with ``DATABASE_URL``):

(a) a cz-jigsaw qualification of N entrants (10,000 by default, groups A and B) with a result
    each: the live table fragment cold (the cache cleared: the round read, ranked and rendered);
(b) the same fragment at the next poll after one write (a one-tap finish of one more entrant
    through ``results.services.clock.result_finish``), as a spectator's poll meets it — over
    several writes, each time another entrant's result; the single flight's settling pause
    (``live.flight.SETTLE_S``) is set to 0 so that every write's poll renders;
(c) a ``deti-kolomny`` season of 40 tours × 200 teams (each team plays nine tours in ten), its
    public season page cold (the season and its chart computed and rendered);
floors: the same rows written by a bare string join (place, name, score) — no page of these
rows can cost less in Python; for (c) the season's rows and its chart's 40 × 200 cells.

Every figure is the median of several runs with the fastest and the slowest, wall time and the
CPU time of this process (the test client serves in it; on a shared machine other processes
inflate the wall time, not the CPU time), then the ratios to the floors. Targets (issue 20,
part 3): (b) under 0.5 s, (c) under 1 s. The machine's load (``uptime``) is printed first.
The script always exits 0. Run ``.venv/bin/python bench/render.py`` or ``--quick`` (2,000
entrants, 10 tours, fewer runs).
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from qualification import QUALI, qualification  # sets Django up: before any model

# isort: split

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse
from django.utils import timezone

from podium.rules.loader import preset_text
from podium.web.live import flight
from podium.web.models import Entry, EntryMember, Event, Person, Result
from podium.web.results.services.clock import result_finish
from podium.web.standings.selectors.standings import round_tables

TOUR, SEASON = "chgk-tour", "chgk-season"


def runs_of(fn: Callable[[], Any], runs: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def line(label: str, walls: list[float], cpus: list[float]) -> str:
    return (
        f"  {label:<44} wall {statistics.median(walls):6.3f} s "
        f"({min(walls):.3f}–{max(walls):.3f}) CPU {statistics.median(cpus):6.3f} s "
        f"({min(cpus):.3f}–{max(cpus):.3f}) [{len(walls)}]"
    )


def floor_rows(tables: list[dict[str, Any]]) -> str:
    """The rows as a bare string join: place, name, score."""
    return "".join(
        f"<tr><td>{row['rank']}</td><td>{html.escape(str(row['name']))}</td>"
        f"<td>{html.escape(str(row['score']))}</td></tr>\n"
        for table in tables
        for row in table["rows"]
    )


def cells(k: int) -> dict[str, str]:
    s = 1200 + (k * 37) % 2340  # 20:00 to 58:59, inside the hour the round has run
    return {"time": f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}", "missing": "", "pieces": ""}


def live_report(n: int, writes: int) -> None:
    event, ref, entries = qualification(
        n, f"r{n}", cells=cells, started_minutes_ago=60, spare=writes
    )
    client = Client()
    table = reverse("standings:table", args=[event.slug, QUALI])

    def cold() -> None:
        cache.clear()
        assert client.get(table, HTTP_IF_NONE_MATCH='"stale"').status_code == 200

    cold_walls, cold_cpus = runs_of(cold, 3)
    size = len(client.get(table).content)
    spare = iter(Entry.objects.filter(pk__in=[e.pk for e in entries[n:]]).order_by("number"))
    after_walls, after_cpus, write_walls = [], [], []
    for i in range(writes):
        start = time.perf_counter()
        result_finish(event=event, stage=QUALI, entry=next(spare), by=ref,
                      idempotency_key=f"bench-{i}")  # fmt: skip
        write_walls.append(time.perf_counter() - start)
        walls, cpus = runs_of(lambda: client.get(table, HTTP_IF_NONE_MATCH='"stale"'), 1)
        after_walls += walls
        after_cpus += cpus
    stage = event.rulebook.stage(QUALI)
    tables = round_tables(event, stage, 1, False).tables
    floor_walls, floor_cpus = runs_of(lambda: floor_rows(tables), 5)
    print(f"N = {n:,} entrants, fragment {size / 1e6:.2f} MB")
    print(line("(a) table fragment, cold", cold_walls, cold_cpus))
    print(line(f"(b) table fragment after one write ({writes} writes)", after_walls, after_cpus))
    print(line("    floor: the same rows by a string join", floor_walls, floor_cpus))
    floor = statistics.median(floor_cpus)
    a, b = statistics.median(cold_cpus), statistics.median(after_cpus)
    print(f"      (a)/floor {a / floor:.0f}×, (b)/floor {b / floor:.0f}×,"
          f" (b)/(a) {b / a:.2f}; target (b) < 0.5 s:"
          f" CPU {'PASS' if b < 0.5 else 'MISS'}, wall"
          f" {'PASS' if statistics.median(after_walls) < 0.5 else 'MISS'}")  # fmt: skip


def season_event(tours: int, teams: int) -> Event:
    """A season of ``tours`` tours × ``teams`` teams, every tour and the season public."""
    from podium.web.chgk.services.rounds import round_add
    from podium.web.standings.services.publication import publication_set

    users = __import__("django.contrib.auth", fromlist=["get_user_model"]).get_user_model()
    org = users.objects.create_user(f"season-org-{tours}", password="x")
    first = timezone.now() - dt.timedelta(days=7 * tours + 14)
    event = Event.objects.create(
        slug=f"season-{tours}-{teams}", title="Season", rulebook_key="deti-kolomny",
        rulebook_text=preset_text("deti-kolomny"), starts_at=first, status="closed",
        language="ru", timezone="Europe/Moscow",
    )  # fmt: skip
    event.roles.create(user=org, role="organizer")
    made = Entry.objects.bulk_create(
        Entry(event=event, category="teams", name=f"Команда {i}", number=i, status="confirmed")
        for i in range(1, teams + 1)
    )
    people = Person.objects.bulk_create(
        Person(first_name="Капитан", last_name=str(e.number), country="RU") for e in made
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(made, people, strict=True)
    )
    rng = random.Random("bench:season")
    strength = {e.pk: rng.uniform(0.25, 0.8) for e in made}
    for number in range(1, tours + 1):
        starts = first + dt.timedelta(days=7 * (number - 1))
        round_add(event=event, stage=TOUR, starts_at=starts, by=org, title=f"Тур {number}")
        Result.objects.bulk_create(
            Result(event=event, stage=TOUR, round=number, entry=e, recorded_by=org,
                   recorded_at=starts + dt.timedelta(hours=2), idempotency_key=f"s{number}-{e.pk}",
                   cells={"questions": "", "mask": "".join(
                       "01"[rng.random() < strength[e.pk]] for _ in range(15))})
            for e in made
            if rng.random() < 0.9
        )  # fmt: skip
        publication_set(event=event, stage=TOUR, round=number, state="preliminary", by=org)
    publication_set(event=event, stage=SEASON, state="preliminary", by=org)
    return event


def season_report(tours: int, teams: int, runs: int) -> None:
    event = season_event(tours, teams)
    client = Client()
    page = reverse("standings:stage", args=[event.slug, SEASON])

    def cold() -> None:
        cache.clear()
        assert client.get(page).status_code == 200

    walls, cpus = runs_of(cold, runs)
    view = round_tables(event, event.rulebook.stage(SEASON), 1, False)

    def floor() -> str:
        chart = "".join(f"<td>{t}.{k}</td>" for k in range(teams) for t in range(tours))
        return floor_rows(view.tables) + chart

    floor_walls, floor_cpus = runs_of(floor, 5)
    print(f"Season: {tours} tours × {teams} teams")
    print(line("(c) season page, cold", walls, cpus))
    print(line("    floor: its rows and chart cells joined", floor_walls, floor_cpus))
    c = statistics.median(cpus)
    print(f"      (c)/floor {c / statistics.median(floor_cpus):.0f}×; target < 1 s:"
          f" CPU {'PASS' if c < 1 else 'MISS'}, wall"
          f" {'PASS' if statistics.median(walls) < 1 else 'MISS'}")  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 entrants, 10 tours")
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    flight.SETTLE_S = 0  # every write's next poll renders (see (b))
    call_command("migrate", verbosity=0)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    load = os.getloadavg()
    print(f"standings render benchmark — Python {sys.version.split()[0]}, database {engine}, "
          f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")  # fmt: skip
    live_report(2000 if args.quick else 10000, writes=3 if args.quick else 7)
    season_report(10 if args.quick else 40, 200, runs=2 if args.quick else 5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
