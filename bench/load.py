"""Load benchmark of the production server: spectators' polls, whole pages, the API and referees'
writes at 200 concurrent clients, beside the same server's static-file floor (a report, not a
test).

Vocabulary:
- production server: ``podium serve --production`` (gunicorn gthread workers, whitenoise) on
  PostgreSQL and Redis, started by this script on a free loopback port, stopped at its end.
- bench database: a PostgreSQL database of its own (``podium_load…``: dropped and made again at
  the start, dropped at the end) and a Redis database number of its own (flushed at the start
  and at the end; never number 0).
- qualification: a ``cz-jigsaw`` event, 2,000 entrants in groups A and B (about a tenth from
  abroad). Group A's clock ran out: everyone has a result (about one in eight did not finish
  and has pieces). Group B's clock is running: its fast finishers have results, the others
  (``--unrecorded``) are left for the referees. Published preliminary.
- season: a ``deti-kolomny`` event, 200 teams over 40 ChGK tours (each team plays about nine
  tours in ten); every tour and the season published preliminary.
- floor: the same server answering a static file through whitenoise with the same request
  headers — none of Podium's code runs. The conditional floor is a collected static file asked
  with ``If-None-Match`` of its ETag (a ``304``); the page floor is a static file of exactly
  the size of the compressed 2,000-row page (the page's own bytes, with their ``.gz`` beside).
- pair: a floor run and a Podium run one after the other (A B A B …); the ratio of their p95s
  is taken pair by pair, so a change in the machine's load between pairs mostly cancels out.
- client, closed loop, run, check, reconnect: see ``loadgen``. The client is one asyncio
  process on the same 2-core machine as the server: what it spends is taken from the server.
- mixed load: spectators polling the table fragment as htmx does (every 3 s, with the ETag they
  have, taking the new one from a ``200``) while referees tap "finished" through the API for
  distinct entrants, each write with its own ``Idempotency-Key``: in (d) a tap every 3–6 s per
  referee (about ten writes a second from 50 referees: two to three times the busiest minutes
  of a 2,000-entrant qualification, whose finishes spread over its last half hour), in (e), a
  stress run without a target, a tap every 1–2 s (about thirty a second).
- acknowledged write: an API answer ``201`` (or ``200`` to a resubmission) naming the result.
- restarts: gunicorn workers started again during a run (``max_requests``), read from the
  server's log.

Targets (issue 11): (a) the 304 poll's p95 ≤ 3× the conditional floor's; (b) the whole page's
p95 ≤ 3× the page floor's; (d) the writes' p95 < 150 ms with no error, and every acknowledged
write in the database exactly once and in the spectators' final tables (checked in (e) too).
Each is printed as PASS or MISS; the script exits 0 unless the benchmark itself could not run.

Run ``.venv/bin/python bench/load.py`` (about five minutes) or ``--quick`` (a smoke run: short
runs, one pair). See ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gzip
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import loadgen
from loadgen import Answer, Check, Client, CpuMeter, Stats, expect

HOST = "127.0.0.1"
QUALI = "individual-qualification"
TOUR, SEASON = "chgk-tour", "chgk-season"
JIGSAW, CHGK = "cz-jigsaw-load", "deti-kolomny-load"
TABLE = f"/standings/{JIGSAW}/{QUALI}/table/"
PAGE = f"/standings/{JIGSAW}/{QUALI}/"
API = f"/api/events/{JIGSAW}/stages/{QUALI}/rounds/1/standings"
FINISHES = f"/api/events/{JIGSAW}/stages/{QUALI}/rounds/1/finishes"
SEASON_PAGE = f"/standings/{CHGK}/{SEASON}/"
SEASON_TABLE = f"{SEASON_PAGE}table/"
FLOOR_PAGE = "/static/podium-load/page.html"
ENTRANTS, TEAMS, TOURS = 2000, 200, 40
FOREIGN_SHARE = 0.1
# Group B's clock started this long before the data is made: the round (90 minutes) is still
# running when the referees write, however long the scenarios before them take.
B_RUNNING_MIN = 50
POLL_S = 3.0
WRITE_PAUSE_S = (3.0, 6.0)  # (d)
STRESS_PAUSE_S = (1.0, 2.0)  # (e)
STRESS_SHARE = 0.45  # of the entrants left for the referees, recorded in (e)
TARGET_RATIO = 3.0
TARGET_WRITE_P95_S = 0.150
CZECH = "cs,en;q=0.8"
ENGLISH = "en-GB,en;q=0.9"


def browser(language: str = CZECH, **more: str) -> dict[str, str]:
    """What a browser sends with every request here (it accepts gzip; its language)."""
    return {"Accept-Encoding": "gzip, deflate", "Accept-Language": language, **more}


# --- Settings of a run --------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """How long and how much: every run stops at ``cap`` requests or after ``seconds``."""

    pairs: int
    cap: int
    seconds: float
    mixed_seconds: float
    settle_seconds: float


FULL = Plan(pairs=3, cap=30_000, seconds=10.0, mixed_seconds=60.0, settle_seconds=60.0)
QUICK = Plan(pairs=1, cap=5_000, seconds=3.0, mixed_seconds=10.0, settle_seconds=30.0)


def arguments() -> argparse.Namespace:
    cpus = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs, one pair (a smoke run)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "PODIUM_LOAD_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/podium_load"
        ),
        help="the bench database, dropped and made again (env PODIUM_LOAD_DATABASE_URL)",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("PODIUM_LOAD_REDIS_URL", "redis://127.0.0.1:6379/14"),
        help="the bench's Redis database, flushed (env PODIUM_LOAD_REDIS_URL; never /0)",
    )
    parser.add_argument("--workers", type=int, default=2 * cpus + 1, help="gunicorn processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn process")
    parser.add_argument("--clients", type=int, default=200, help="concurrent spectators")
    parser.add_argument("--referees", type=int, default=50, help="referees writing in (d)")
    parser.add_argument(
        "--unrecorded", type=int, default=900, help="group B's entrants left for the referees"
    )
    parser.add_argument("--only", default="abcde", help="the scenarios to run, e.g. 'ad'")
    return parser.parse_args()


# --- The bench database and cache ---------------------------------------------------------------


def database_name(url: str) -> str:
    name = urlsplit(url).path.lstrip("/")
    if not name.startswith("podium_load"):
        raise SystemExit(f"load.py drops its database: name one podium_load…, not {name!r}")
    return name


def recreate_database(url: str, *, drop_only: bool = False) -> None:
    import psycopg
    from psycopg import sql

    name = sql.Identifier(database_name(url))
    maintenance = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name))
        if not drop_only:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(name))


def flush_cache(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    if int(client.connection_pool.connection_kwargs.get("db", 0)) == 0:
        raise SystemExit("load.py flushes its Redis database: name one other than /0")
    client.flushdb()
    client.close()


# --- The data -----------------------------------------------------------------------------------


@dataclass
class Data:
    """What the scenarios need to know of the generated events."""

    referee_secrets: list[str]
    left: list[int]  # group B's entrants without a result, by number
    recorded: int
    tour_results: int
    made_in: float


Person = tuple[str, str, str, str]  # first name, last name, country, gender


def czech_field(rng: random.Random, count: int) -> list[Person]:
    """Entrants of a Czech championship, a tenth from abroad, named as in the demo."""
    from podium.web.demo import CZ_FOREIGN, NAMES

    people = []
    for _ in range(count):
        country = rng.choice(CZ_FOREIGN) if rng.random() < FOREIGN_SHARE else "CZ"
        men, women, surnames = NAMES[country]
        gender = rng.choice("MF")
        last_m, last_f = rng.choice(surnames)
        first = rng.choice(men if gender == "M" else women)
        people.append((first, last_m if gender == "M" else last_f, country, gender))
    return people


def add_entries(
    event: Any, category: str, people: list[Person], names: list[str], groups: list[str]
) -> list[Any]:
    """Confirmed entries numbered 1, 2, … with one member each, written in bulk."""
    from podium.web.models import Entry, EntryMember
    from podium.web.models import Person as Someone

    persons = Someone.objects.bulk_create(
        Someone(first_name=first, last_name=last, country=country, gender=gender)
        for first, last, country, gender in people
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, category=category, number=i, name=name, group=group,
              status=Entry.Status.CONFIRMED)
        for i, (name, group) in enumerate(zip(names, groups, strict=True), 1)
    )  # fmt: skip
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, persons, strict=True)
    )
    return entries


def new_event(slug: str, preset: str, title: str, language: str, zone: str, at: dt.datetime) -> Any:
    from podium.rules.loader import preset_text
    from podium.web.models import Event

    return Event.objects.create(
        slug=slug, title=title, rulebook_key=preset, rulebook_text=preset_text(preset),
        starts_at=at, timezone=zone, venue="Bench", language=language, status=Event.Status.CLOSED,
    )  # fmt: skip


def appoint(event: Any, accounts: dict[str, Any], referees: list[Any]) -> None:
    from podium.web.models import EventRole

    roles = [
        EventRole(event=event, user=accounts["organizer"], role=EventRole.Role.ORGANIZER),
        EventRole(event=event, user=accounts["head"], role=EventRole.Role.HEAD_REFEREE),
    ]
    roles += [EventRole(event=event, user=r, role=EventRole.Role.REFEREE) for r in referees]
    EventRole.objects.bulk_create(roles)


def make_accounts(referees: int) -> tuple[dict[str, Any], list[Any]]:
    """The organizer, the head referee, a scorer and the referees, without passwords (nobody
    logs in: the referees write with API tokens)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    users = get_user_model()
    names = ["load-organizer", "load-head", "load-scorer"]
    names += [f"load-referee-{i:02d}" for i in range(1, referees + 1)]
    made = users.objects.bulk_create(users(username=n, password=make_password(None)) for n in names)
    accounts = {"organizer": made[0], "head": made[1], "scorer": made[2], "referee": made[3]}
    return accounts, made[3:]


def clock_text(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def make_qualification(
    accounts: dict[str, Any], referees: list[Any], unrecorded: int
) -> tuple[list[str], list[int], int]:
    """The 2,000-entrant qualification (see the vocabulary); returns the referees' token
    secrets, the entrants left to record and how many results it has."""
    from django.utils import timezone

    from podium.web.demo.results import _paper, _solo_rows
    from podium.web.events.services.tokens import token_create
    from podium.web.results.services.clock import round_start
    from podium.web.standings.services.publication import publication_set

    rng = random.Random("load:cz-jigsaw")
    now = timezone.now().replace(microsecond=0)
    a_started = now - dt.timedelta(hours=2)
    b_started = now - dt.timedelta(minutes=B_RUNNING_MIN)
    event = new_event(JIGSAW, "cz-jigsaw", "Mistrovství ČR ve skládání puzzle — zátěž", "cs",
                      "Europe/Prague", a_started)  # fmt: skip
    appoint(event, accounts, referees)
    people = czech_field(rng, ENTRANTS)
    groups = ["A", "B"] * (ENTRANTS // 2)
    rng.shuffle(groups)  # as the draw makes them
    names = [f"{first} {last}" for first, last, _country, _gender in people]
    entries = add_entries(event, "individuals", people, names, groups)
    org = accounts["organizer"]
    round_start(event=event, stage=QUALI, group="A", by=org, now=a_started)
    round_start(event=event, stage=QUALI, group="B", by=org, now=b_started)
    in_a = [e for e in entries if e.group == "A"]
    in_b = [e for e in entries if e.group == "B"]
    done_b, left = in_b[: len(in_b) - unrecorded], in_b[len(in_b) - unrecorded :]
    # Group A's round is over: the demo's spread of times, and the non-finishers' pieces.
    rows = _solo_rows(in_a, "load:A", 500, 90 * 60)
    # Group B's fast finishers, within the time its clock has run so far.
    ran = B_RUNNING_MIN * 60 - 120
    rows += [
        (e, {"time": clock_text(rng.randint(ran * 6 // 10, ran)), "missing": "", "pieces": ""})
        for e in done_b
    ]
    # Typed in and checked as the demo's are, one a second over the last 25 minutes.
    _paper(event, QUALI, rows, accounts, now - dt.timedelta(minutes=25))
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    tokens = [
        token_create(event=event, name=f"phone {i}", user=r, by=org)[1]
        for i, r in enumerate(referees, 1)
    ]
    return tokens, [e.number for e in left], len(rows)


def make_season(accounts: dict[str, Any]) -> int:
    """The 40-tour × 200-team ChGK season; returns how many tour results it has."""
    from django.utils import timezone

    from podium.web.chgk.services.rounds import round_add
    from podium.web.demo import NAMES, RU_TEAMS
    from podium.web.demo.results import _paper
    from podium.web.standings.services.publication import publication_set

    rng = random.Random("load:deti-kolomny")
    first = timezone.now().replace(microsecond=0) - dt.timedelta(days=7 * TOURS + 14)
    event = new_event(CHGK, "deti-kolomny", "Чемпионат клуба «Дети Коломны» — нагрузка", "ru",
                      "Europe/Moscow", first)  # fmt: skip
    appoint(event, accounts, [accounts["referee"]])
    men, _women, surnames = NAMES["RU"]
    captains = [(rng.choice(men), rng.choice(surnames)[0], "RU", "M") for _ in range(TEAMS)]
    names = [f"{RU_TEAMS[i % len(RU_TEAMS)]} {i // len(RU_TEAMS) + 1}" for i in range(TEAMS)]
    teams = add_entries(event, "teams", captains, names, [""] * TEAMS)
    strength = {t.pk: rng.uniform(0.25, 0.8) for t in teams}
    org = accounts["organizer"]
    results = 0
    for number in range(1, TOURS + 1):
        starts = first + dt.timedelta(days=7 * (number - 1))
        round_add(event=event, stage=TOUR, starts_at=starts, by=org, title=f"Тур {number}")
        playing = [t for t in teams if rng.random() < 0.9]
        masks = {
            t.pk: "".join("01"[rng.random() < strength[t.pk]] for _ in range(15)) for t in playing
        }
        rows = [(t, {"questions": "", "mask": masks[t.pk]}) for t in playing]
        _paper(event, TOUR, rows, accounts, starts + dt.timedelta(hours=2), round=number)
        publication_set(event=event, stage=TOUR, round=number, state="preliminary", by=org)
        results += len(rows)
    publication_set(event=event, stage=SEASON, state="preliminary", by=org)
    return results


def make_data(args: argparse.Namespace) -> Data:
    from django.core.management import call_command
    from django.db import connections

    began = time.perf_counter()
    call_command("migrate", interactive=False, verbosity=0)
    accounts, referees = make_accounts(args.referees)
    tokens, left, recorded = make_qualification(accounts, referees, args.unrecorded)
    tour_results = make_season(accounts)
    connections.close_all()
    return Data(tokens, left, recorded, tour_results, time.perf_counter() - began)


# --- The server ---------------------------------------------------------------------------------


@dataclass
class Server:
    """A running ``podium serve --production`` and the file its output goes to."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def host(self) -> str:
        return f"{HOST}:{self.port}"

    def boots(self) -> int:
        """How many workers it has booted so far (a restart boots one more)."""
        return self.log.read_text(errors="replace").count("Booting worker")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_server(env: dict[str, str], workers: int, threads: int, log: Path) -> Server:
    podium = Path(sys.executable).with_name("podium")
    port = free_port()
    command = [str(podium), "serve", "--production", "--address", f"{HOST}:{port}",
               "--workers", str(workers), "--threads", str(threads)]  # fmt: skip
    log.write_bytes(b"")
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(process, port, log)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped as it started; it said:\n{log.read_text()}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"http://{server.host}/healthz", timeout=2) as answer,
        ):
            if answer.status == 200 and server.boots() >= workers:
                return server
        time.sleep(0.25)
    stop_server(server)
    raise SystemExit(
        f"the server did not answer /healthz within 120 s; it said:\n{log.read_text()}"
    )


def stop_server(server: Server) -> None:
    """SIGTERM (gunicorn finishes what it is serving), then SIGKILL to whatever of its process
    group is left."""
    process = server.process
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=40)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # its own session, started by this script
    process.wait()


def server_env(args: argparse.Namespace, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PODIUM_", "DJANGO_"))}
    env |= {
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "PODIUM_SECRET_KEY": secrets.token_urlsafe(64),
        "PODIUM_ALLOWED_HOSTS": f"{HOST},localhost",
        "PODIUM_DATA_DIR": str(tmp / "data"),
        "PODIUM_STATIC_ROOT": str(tmp / "static"),
    }
    return env


def write_floor(static_root: Path, page: bytes) -> None:
    """The page floor: the page's HTML as a static file and its compressed bytes beside it
    (whitenoise serves the ``.gz`` to a client that accepts gzip)."""
    path = static_root / FLOOR_PAGE.removeprefix("/static/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.decompress(page))
    path.with_name(path.name + ".gz").write_bytes(page)


# --- Printing -----------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def machine_line(when: str) -> str:
    one, five, fifteen = os.getloadavg()
    return (f"machine load {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) "
            f"on {os.cpu_count()} CPUs")  # fmt: skip


HEAD = (f"    {'run':<22}{'requests':>9}{'errors':>7}{'req/s':>7}{'p50':>11}{'p95':>11}"
        f"{'p99':>11}  CPU server client")  # fmt: skip


def run_line(name: str, stats: Stats, restarts: int = 0) -> str:
    errors = sum(stats.errors.values())
    line = (f"    {name:<22}{stats.count:>9}{errors:>7}{stats.rate:>7.0f}{ms(stats.pct(0.5)):>11}"
            f"{ms(stats.pct(0.95)):>11}{ms(stats.pct(0.99)):>11}  {stats.server_cpu:>10.2f} "
            f"{stats.client_cpu:>6.2f}")  # fmt: skip
    notes = [f"{k} ×{n}" for k, n in stats.errors.most_common(3)]
    if stats.reconnects:
        notes.append(f"{stats.reconnects} reconnects")
    if restarts:
        notes.append(f"{restarts} worker restarts")
    return line + (f"  ({'; '.join(notes)})" if notes else "")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def spread(values: list[float]) -> str:
    return f"{ms(loadgen.median(values))} ({ms(min(values))}–{ms(max(values))})"


@dataclass
class Report:
    targets: list[tuple[str, bool, str]] = field(default_factory=list)

    def target(self, name: str, ok: bool, detail: str) -> None:
        self.targets.append((name, ok, detail))
        print(f"    target {name}: {detail} → {verdict(ok)}")


# --- The scenarios ------------------------------------------------------------------------------


Runner = tuple[str, bytes, Check]  # a run's name, its request and what its answers must be


class Bench:
    """The scenarios (a)–(c) against one running server; (d) is ``Mixed``."""

    def __init__(
        self, server: Server, plan: Plan, args: argparse.Namespace, data: Data, report: Report
    ) -> None:
        self.server, self.plan, self.args, self.data, self.report = server, plan, args, data, report
        self.meter = CpuMeter(server.process.pid)
        self.one = Client(HOST, server.port, None)

    def raw(
        self, path: str, headers: dict[str, str], method: str = "GET", body: bytes = b""
    ) -> bytes:
        return loadgen.request(method, path, self.server.host, headers, body)

    async def get(self, path: str, headers: dict[str, str]) -> Answer:
        return await self.one.send(self.raw(path, headers))

    async def measure(self, clients: list[Client], runner: Runner) -> Stats:
        boots = self.server.boots()
        name, raw, check = runner
        stats = await loadgen.closed_loop(
            clients, raw, check, self.plan.cap, self.plan.seconds, self.meter
        )
        print(run_line(name, stats, self.server.boots() - boots))
        return stats

    def heading(self, title: str) -> None:
        print(f"\n{title}\n    {self.args.clients} clients, closed loop; {machine_line('now')}")
        print(HEAD)

    async def pairs(self, title: str, floor: Runner, podium: Runner, target: str) -> None:
        """Floor and Podium runs alternating, ``plan.pairs`` pairs."""
        self.heading(title)
        clients = loadgen.clients(HOST, self.server.port, self.args.clients)
        ratios, floors, ours = [], [], []
        try:
            await loadgen.warm(clients, floor[1])
            await loadgen.warm(clients, podium[1])
            for n in range(1, self.plan.pairs + 1):
                floors.append(
                    (await self.measure(clients, (f"{floor[0]} {n}", *floor[1:]))).pct(0.95)
                )
                ours.append(
                    (await self.measure(clients, (f"{podium[0]} {n}", *podium[1:]))).pct(0.95)
                )
                ratios.append(ours[-1] / floors[-1])
        finally:
            loadgen.close_all(clients)
        ratio = loadgen.median(ratios)
        print(f"    p95, median (min–max): floor {spread(floors)}, Podium {spread(ours)}")
        print(f"    p95 Podium / floor, pair by pair: {' '.join(f'{r:.2f}×' for r in ratios)}; "
              f"median {ratio:.2f}×")  # fmt: skip
        self.report.target(target, ratio <= TARGET_RATIO,
                           f"p95 {ratio:.2f}× the floor's (≤ {TARGET_RATIO:.0f}×)")  # fmt: skip

    async def alone(self, title: str, runner: Runner) -> Stats:
        self.heading(title)
        clients = loadgen.clients(HOST, self.server.port, self.args.clients)
        try:
            await loadgen.warm(clients, runner[1])
            return await self.measure(clients, runner)
        finally:
            loadgen.close_all(clients)

    async def polls(self, static_root: Path) -> None:
        """(a) the 304 poll of the 2,000-row table fragment vs the conditional floor."""
        first = await self.get(TABLE, browser())
        manifest = json.loads((static_root / "staticfiles.json").read_text())
        css = "/static/" + manifest["paths"]["podium/podium.css"]
        static = await self.get(css, browser())
        if first.status != 200 or static.status != 200:
            raise SystemExit(f"the fragment answered {first.status}, {css} {static.status}")
        html = len(gzip.decompress(first.body))
        print(f"\nthe fragment: {html:,} B of HTML, {len(first.body):,} B compressed; "
              f"the conditional floor: {css}")  # fmt: skip
        poll = browser(**{"HX-Request": "true", "If-None-Match": first.header("ETag")})
        floor = browser(**{"If-None-Match": static.header("ETag")})
        await self.pairs(
            "(a) 304 poll of the 2,000-row table fragment vs the conditional static request",
            ("floor: static 304", self.raw(css, floor), expect(304)),
            ("Podium: poll 304", self.raw(TABLE, poll), expect(304)),
            "(a) 304 poll",
        )

    async def pages(self, size: int) -> None:
        """(b) the whole 2,000-row page vs a static file of the same size."""
        await self.pairs(
            f"(b) the whole 2,000-row page vs a static file of its size ({size:,} B on the wire)",
            ("floor: static page", self.raw(FLOOR_PAGE, browser()), expect(200, size)),
            ("Podium: page", self.raw(PAGE, browser()), expect(200, size)),
            "(b) whole page",
        )

    async def api_and_season(self) -> None:
        """(c) the API's standings, plain and polled; the season's page and fragment."""
        first = await self.get(API, browser())
        if first.status != 200:
            raise SystemExit(f"the API answered {first.status}")
        size = len(first.body)
        await self.alone(
            f"(c) API standings of the qualification ({len(gzip.decompress(first.body)):,} B "
            f"of JSON, {size:,} B compressed)",
            ("API 200", self.raw(API, browser()), expect(200, size)),
        )
        poll = browser(**{"If-None-Match": first.header("ETag")})
        await self.alone("(c) API standings, polled with the current ETag",
                         ("API 304", self.raw(API, poll), expect(304)))  # fmt: skip
        print(f"\n(c) the {TOURS} × {TEAMS} season ({self.data.tour_results:,} tour results), "
              "first requests after the server started")  # fmt: skip
        took, page = await loadgen.timed(lambda: self.get(SEASON_PAGE, browser()))
        print(f"    season page (the season computed and rendered): {ms(took)}, "
              f"{page.status}, {len(page.body):,} B compressed")  # fmt: skip
        took, table = await loadgen.timed(lambda: self.get(SEASON_TABLE, browser()))
        print(f"    season fragment (its tables already rendered for the page): {ms(took)}, "
              f"{table.status}, {len(table.body):,} B compressed")  # fmt: skip
        await self.alone("(c) season page, warm", ("season page", self.raw(SEASON_PAGE, browser()),
                                                    expect(200, len(page.body))))  # fmt: skip
        await self.alone("(c) season fragment, warm",
                         ("season fragment", self.raw(SEASON_TABLE, browser()),
                          expect(200, len(table.body))))  # fmt: skip


@dataclass
class Ack:
    entry: int
    key: str
    result: int
    time: str


class Mixed:
    """(d), (e): spectators polling while referees write (see the vocabulary) — ``entrants``
    recorded, a tap every ``pause`` seconds per referee; ``judged``: against the target."""

    def __init__(
        self, bench: Bench, entrants: list[int], pause: tuple[float, float], *, judged: bool
    ) -> None:
        self.bench = bench
        self.entrants = entrants
        self.pause = pause
        self.judged = judged
        self.polls = Stats()
        self.writes = Stats()
        self.acks: list[Ack] = []
        self.sent_again = 0
        self.versions: set[str] = set()
        # What each spectator holds: its ETag, its language and the last table it was sent.
        self.held: dict[int, tuple[str, str, bytes]] = {}
        self.stop = asyncio.Event()
        self.settled = False

    async def spectator(self, client: Client, number: int, etag: str, language: str) -> None:
        body = b""
        self.held[number] = (etag, language, body)
        await asyncio.sleep(random.uniform(0, POLL_S))
        tick = time.perf_counter()
        while not self.stop.is_set():
            raw = self.bench.raw(TABLE, browser(language, **{"HX-Request": "true",
                                                             "If-None-Match": etag}))  # fmt: skip
            began = time.perf_counter()
            try:
                answer = await client.send(raw)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                self.polls.errors[type(exc).__name__] += 1
            else:
                self.polls.statuses[answer.status] += 1
                if answer.status in (200, 304):
                    self.polls.latencies.append(time.perf_counter() - began)
                else:
                    self.polls.errors[f"status {answer.status}"] += 1
                if answer.status == 200:
                    etag, body = answer.header("ETag"), answer.body
                    self.versions.add(etag)
                    self.held[number] = (etag, language, body)
            tick = max(tick + POLL_S, time.perf_counter())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), tick - time.perf_counter())

    async def referee(self, client: Client, secret: str, entries: list[int], until: float) -> None:
        for entry in entries:
            await asyncio.sleep(random.uniform(*self.pause))
            if time.perf_counter() > until:
                return
            key = f"load-{entry}-{secrets.token_hex(4)}"
            headers = {"Authorization": f"Bearer {secret}", "Idempotency-Key": key,
                       "Content-Type": "application/json"}  # fmt: skip
            raw = self.bench.raw(FINISHES, headers, "POST", json.dumps({"entry": entry}).encode())
            for attempt in range(3):  # a phone that heard nothing sends the same key again
                began = time.perf_counter()
                try:
                    answer = await client.send(raw)
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                    self.writes.errors[type(exc).__name__] += 1
                    self.sent_again += attempt < 2
                    continue
                took = time.perf_counter() - began
                self.writes.statuses[answer.status] += 1
                if answer.status in (200, 201):
                    self.writes.latencies.append(took)
                    made = json.loads(answer.body)
                    self.acks.append(Ack(entry, key, int(made["id"]), made["cells"]["time"]))
                else:
                    self.writes.errors[f"status {answer.status} {answer.body[:100]!r}"] += 1
                break

    async def current(self, language: str) -> str:
        """The ETag a new visitor gets now."""
        fresh = Client(HOST, self.bench.server.port, None)
        try:
            return (await fresh.send(self.bench.raw(TABLE, browser(language)))).header("ETag")
        finally:
            fresh.close()

    async def settle(self, seconds: float) -> None:
        """Until every spectator holds what a new visitor gets, twice in a row."""
        deadline, stable = time.perf_counter() + seconds, 0
        while time.perf_counter() < deadline and stable < 2:
            await asyncio.sleep(POLL_S)
            now = {(await self.current(lang), lang) for lang in (CZECH, ENGLISH)}
            held = {(etag, lang) for etag, lang, _body in self.held.values()}
            stable = stable + 1 if held <= now else 0
        self.settled = stable >= 2

    async def run(self, recorded_before: int) -> None:
        bench, args, plan = self.bench, self.bench.args, self.bench.plan
        left = self.entrants
        name = "(d) mixed" if self.judged else "(e) stress (no target)"
        print(f"\n{name}: {args.clients} spectators poll every {POLL_S:.0f} s while "
              f"{args.referees} referees tap “finished” through the API\n"
              f"    {len(left)} entrants of group B to record, a write per referee every "
              f"{self.pause[0]:.0f}–{self.pause[1]:.0f} s, for at most "
              f"{plan.mixed_seconds:.0f} s; {machine_line('now')}")  # fmt: skip
        # A tenth of the spectators read in English: another language key, another snapshot.
        languages = [ENGLISH if i % 10 == 9 else CZECH for i in range(args.clients)]
        etags = {lang: (await bench.get(TABLE, browser(lang))).header("ETag")
                 for lang in (CZECH, ENGLISH)}  # fmt: skip
        spectators = loadgen.clients(HOST, bench.server.port, args.clients)
        referees = loadgen.clients(HOST, bench.server.port, args.referees, first=args.clients)
        boots = bench.server.boots()
        watching = [
            asyncio.create_task(self.spectator(c, i, etags[languages[i]], languages[i]))
            for i, c in enumerate(spectators)
        ]
        begun = bench.meter.start()
        until = time.perf_counter() + plan.mixed_seconds
        await asyncio.gather(*(
            self.referee(c, bench.data.referee_secrets[i], left[i :: args.referees], until)
            for i, c in enumerate(referees)
        ))  # fmt: skip
        bench.meter.stop(begun, self.writes)
        self.writes.wall = time.perf_counter() - begun[0]
        loadgen.close_all(referees)
        await self.settle(plan.settle_seconds)
        bench.meter.stop(begun, self.polls)
        self.polls.wall = time.perf_counter() - begun[0]
        self.stop.set()
        await asyncio.gather(*watching)
        loadgen.close_all(spectators)
        restarts = bench.server.boots() - boots
        print(HEAD)
        print(run_line("referees' writes", self.writes))
        print(run_line("spectators' polls", self.polls, restarts))
        written = len(self.writes.latencies)
        top = max(self.writes.latencies, default=float("nan"))
        rate = written / self.writes.wall
        print(f"    {written} writes in {self.writes.wall:.1f} s ({rate:.1f}/s), "
              f"{self.sent_again} sent again; write latency p50 {ms(self.writes.pct(0.5))}, "
              f"p95 {ms(self.writes.pct(0.95))}, max {ms(top)}")  # fmt: skip
        after = self.polls.wall - self.writes.wall
        print(f"    polls answered 200 ×{self.polls.statuses[200]}, "
              f"304 ×{self.polls.statuses[304]}; {len(self.versions)} versions of the table seen; "
              f"the spectators' tables {'settled' if self.settled else 'NOT settled'} "
              f"{after:.1f} s after the last write")  # fmt: skip
        errors = sum(self.writes.errors.values())
        p95 = self.writes.pct(0.95)
        if self.judged:
            bench.report.target("(d) writes", p95 < TARGET_WRITE_P95_S and errors == 0,
                                f"p95 {ms(p95)} (< {TARGET_WRITE_P95_S * 1000:.0f} ms), "
                                f"{errors} errors")  # fmt: skip
        else:
            print(f"    stress, not a target: write p95 {ms(p95)}, {errors} errors")
        ok, detail = await asyncio.to_thread(self.check, recorded_before)
        bench.report.target(f"{name[:3]} nothing lost or duplicated", ok, detail)

    def check(self, recorded_before: int) -> tuple[bool, str]:
        """Every acknowledged write once in the database and nothing else written; every
        spectator's last table shows every acknowledged time."""
        from django.db import connections
        from django.db.models import Count

        from podium.web.models import Result

        try:
            results = Result.objects.filter(event__slug=JIGSAW, stage=QUALI)
            stored: dict[str, list[int]] = {}
            keys = [a.key for a in self.acks]
            for key, pk in results.filter(idempotency_key__in=keys).values_list(
                "idempotency_key", "id"
            ):
                stored.setdefault(key, []).append(pk)
            lost = sum(stored.get(a.key) != [a.result] for a in self.acks)
            doubled = (
                results.filter(corrects__isnull=True)
                .values("entry").annotate(n=Count("id")).filter(n__gt=1).count()
            )  # fmt: skip
            extra = results.count() - recorded_before - len(self.acks)
        finally:
            connections.close_all()
        unseen = 0
        tables = {(etag, lang): body for etag, lang, body in self.held.values()}
        for body in tables.values():
            html = gzip.decompress(body).decode() if body else ""
            for ack in self.acks:
                row = re.search(rf'<tr id="row-[^"]*-{ack.entry}"[^\n]*', html)
                unseen += row is None or ack.time not in row.group(0)
        ok = not lost and not doubled and extra == 0 and not unseen and self.settled
        return ok, (
            f"{len(self.acks)} acknowledged, {len(self.acks) - lost} of them stored exactly once, "
            f"{doubled} entrants with two results, {extra} results nobody was told of; "
            f"{unseen} new results missing from the spectators' final tables ({len(tables)})"
        )


# --- The whole run ------------------------------------------------------------------------------


async def fetch_page(server: Server) -> tuple[float, Answer]:
    client = Client(HOST, server.port, None)
    try:
        raw = loadgen.request("GET", PAGE, server.host, browser())
        return await loadgen.timed(lambda: client.send(raw))
    finally:
        client.close()


async def scenarios(
    server: Server, plan: Plan, args: argparse.Namespace, data: Data, report: Report, tmp: Path,
    page_size: int,
) -> None:  # fmt: skip
    bench = Bench(server, plan, args, data, report)
    try:
        if "a" in args.only:
            await bench.polls(tmp / "static")
        if "b" in args.only:
            await bench.pages(page_size)
        if "c" in args.only:
            await bench.api_and_season()
        left = data.left
        stressed = int(len(left) * STRESS_SHARE)
        recorded = data.recorded
        if "d" in args.only:
            mixed = Mixed(bench, left[: len(left) - stressed], WRITE_PAUSE_S, judged=True)
            await mixed.run(recorded)
            recorded += len(mixed.acks)
        if "e" in args.only:
            stress = Mixed(bench, left[len(left) - stressed :], STRESS_PAUSE_S, judged=False)
            await stress.run(recorded)
    finally:
        bench.one.close()


def describe_server(args: argparse.Namespace) -> str:
    from podium.cli.server import gunicorn_options

    options = gunicorn_options(HOST, args.workers, args.threads)
    shown = ", ".join(f"{k} {options[k]}" for k in ("worker_class", "workers", "threads",
                      "keepalive", "max_requests", "max_requests_jitter", "timeout"))  # fmt: skip
    return (f"server: podium serve --production — gunicorn {shown}; PostgreSQL "
            f"{database_name(args.database_url)}, Redis {args.redis_url}\n"
            "client: one asyncio process on the same machine (its CPU is the server's loss)"
            )  # fmt: skip


def main() -> int:
    args = arguments()
    plan = QUICK if args.quick else FULL
    database_name(args.database_url)
    tmp = Path(tempfile.mkdtemp(prefix="podium-load-"))
    env = server_env(args, tmp)
    # This process makes the data and checks it afterwards, with the server's settings.
    os.environ |= {k: v for k, v in env.items() if k != "PODIUM_SECRET_KEY"}
    os.environ["DJANGO_SETTINGS_MODULE"] = "podium.web.settings"
    report = Report()
    server: Server | None = None
    started = time.perf_counter()
    print(
        f"load benchmark — Python {sys.version.split()[0]}, {'quick' if args.quick else 'full'} run"
    )
    print(machine_line("at the start"))
    try:
        recreate_database(args.database_url)
        flush_cache(args.redis_url)
        import django

        django.setup()
        data = make_data(args)
        print(f"data: {ENTRANTS:,} entrants ({data.recorded:,} results, {len(data.left)} left for "
              f"the referees), a {TOURS} × {TEAMS} season ({data.tour_results:,} tour results); "
              f"made in {data.made_in:.0f} s")  # fmt: skip
        print(describe_server(args))
        # whitenoise lists its files when it starts: start once to fetch the page, write the
        # floor of its size, and start again.
        server = start_server(env, args.workers, args.threads, tmp / "server.log")
        took, page = asyncio.run(fetch_page(server))
        if page.status != 200 or page.header("Content-Encoding") != "gzip":
            raise SystemExit(f"the page answered {page.status} {page.headers}")
        stop_server(server)
        server = None
        write_floor(tmp / "static", page.body)
        print(f"the 2,000-row page: {len(gzip.decompress(page.body)):,} B of HTML, "
              f"{len(page.body):,} B compressed; its first request (computed and rendered) "
              f"{ms(took)}")  # fmt: skip
        server = start_server(env, args.workers, args.threads, tmp / "server.log")
        asyncio.run(scenarios(server, plan, args, data, report, tmp, len(page.body)))
    except BaseException:
        if server is not None:
            lines = server.log.read_text(errors="replace").splitlines()
            print("the server's last lines:\n" + "\n".join(lines[-30:]))
        raise
    finally:
        if server is not None:
            stop_server(server)
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        recreate_database(args.database_url, drop_only=True)
        flush_cache(args.redis_url)
        shutil.rmtree(tmp, ignore_errors=True)
    print("\nsummary")
    for name, ok, detail in report.targets:
        print(f"    {verdict(ok)}  {name}: {detail}")
    print(machine_line("at the end"))
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
