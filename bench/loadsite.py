"""The load benchmark's site: its database and cache, the events it loads, and the production
server it starts (used by ``load.py``; see its vocabulary).

Vocabulary:
- bench database: a PostgreSQL database of its own (``podium_load…``) and a Redis database number
  of its own (never number 0), made afresh for a run and dropped after it.
- data: the two events of the benchmark, the 2,000-entrant qualification and the 40-tour season,
  written in bulk as the demo writes its results.
- server: ``podium serve --production`` on a free loopback port, its output in a log file.
- floor page: the page's own bytes served as a static file (see ``load.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import gzip
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

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
    from podium.web.demo.jigsaw import CZ_FOREIGN
    from podium.web.demo.people import NAMES

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
    from podium.web.demo.club import RU_TEAMS
    from podium.web.demo.people import NAMES
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
