"""Two production servers (``podium serve --production``) on two ports share one database and
one Redis, and nothing else: a result recorded through one shows in a spectator's poll through
the other; a login on one is a login on the other; the API's rate limit counts the requests of
both; and a worker killed in the middle of a burst of writes loses nothing that was
acknowledged and duplicates nothing a client sent again.

Real processes on loopback, as in production: PostgreSQL when ``DATABASE_URL`` names it (a
database of its own, dropped afterwards), else a SQLite file both servers open; Redis at
``PODIUM_TEST_REDIS_URL`` (under a key prefix of the run's own).

No assertion here reads the wall clock, which other processes on a busy machine stretch: how
soon spectators see a write is ``bench/load.py``'s (d); a deadline only stops a test that
would otherwise wait for ever, and the cost of a refusal is the servers' CPU time.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import pytest

PODIUM = str(Path(sys.executable).with_name("podium"))
REDIS = os.environ.get("PODIUM_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")
SLUG, QUALI = "two-servers", "individual-qualification"
ANONYMOUS_PER_MINUTE = 40

pytestmark = pytest.mark.slow  # two servers in processes of their own, started once: 1 min

# Run by ``podium manage shell``: an event whose qualification is live and public, a referee
# with an API token (printed), 40 entrants of whom the first 20 have a result.
SET_UP = """
import datetime as dt
from django.contrib.auth import get_user_model
from django.utils import timezone
from podium.rules.loader import preset_text
from podium.web.models import Entry, EntryMember, Event, EventRole, Person
from podium.web.results.services.clock import round_start
from podium.web.standings.services.publication import publication_set
from podium.web.results.services.results import result_record
from podium.web.events.services.tokens import token_create

users = get_user_model()
org = users.objects.create_user("olga", password="correct horse battery")
ref = users.objects.create_user("rudolf", password="correct horse battery")
event = Event.objects.create(
    slug="two-servers", title="Two servers", rulebook_key="cz-jigsaw",
    rulebook_text=preset_text("cz-jigsaw"), starts_at=timezone.now(), status="closed",
    language="en",
)
EventRole.objects.create(event=event, user=org, role="organizer")
EventRole.objects.create(event=event, user=ref, role="referee")
for n in range(1, 41):
    entry = Entry.objects.create(event=event, number=n, name=f"Entrant {n:02d}",
                                 category="individuals", status="confirmed", group="A")
    person = Person.objects.create(first_name="Entrant", last_name=f"{n:02d}", country="CZ")
    EntryMember.objects.create(entry=entry, person=person, captain=True)
round_start(event=event, stage="individual-qualification", group="A", by=org,
            now=timezone.now() - dt.timedelta(minutes=80))
for n in range(1, 21):
    result_record(event=event, stage="individual-qualification",
                  entry=Entry.objects.get(event=event, number=n),
                  cells={"time": f"1:{n:02d}:00"}, by=ref, idempotency_key=f"set-up-{n}")
publication_set(event=event, stage="individual-qualification", state="preliminary", by=org)
print("TOKEN", token_create(event=event, name="scoring", user=ref, by=org)[1])
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    port: int
    process: subprocess.Popen[str]
    log: IO[str]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            payload = json.dumps(body).encode() if body is not None else None
            sent = {"Content-Type": "application/json"} if payload else {}
            connection.request(method, path, body=payload, headers=sent | (headers or {}))
            answer = connection.getresponse()
            return answer.status, dict(answer.getheaders()), answer.read()
        finally:
            connection.close()


@dataclass
class Cluster:
    env: dict[str, str]
    token: str
    servers: list[Server]
    database_url: str


def _database(tmp: Path) -> Iterator[str]:
    """A database of the test's own: PostgreSQL beside ``DATABASE_URL``'s, or a SQLite file."""
    configured = os.environ.get("DATABASE_URL", "")
    if not configured.startswith("postgres"):
        yield f"sqlite:///{tmp / 'shared.sqlite3'}"
        return
    import psycopg

    name = f"podium_two_servers_{os.getpid()}"
    admin = configured.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield configured.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _serve(env: dict[str, str], port: int, log: Path) -> Server:
    output = log.open("w")
    process = subprocess.Popen(
        [PODIUM, "serve", "--production", "--address", f"127.0.0.1:{port}", "--workers", "2",
         "--threads", "2"],
        env=env, stdout=output, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    server = Server(port, process, output)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output.close()
            raise AssertionError(f"the server stopped: {log.read_text()[-2000:]}")
        try:
            if server.request("GET", "/healthz")[0] == 200:
                return server
        except OSError:
            pass
        time.sleep(0.3)
    _stop(server)  # not left running behind the failure
    raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")


def _cpu_of(server: Server) -> float:
    """The CPU time used so far by a server's processes (gunicorn's arbiter and its workers),
    as the kernel counts it in ``/proc``."""
    children = subprocess.run(
        ["pgrep", "-P", str(server.process.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    ticks = 0
    for pid in [server.process.pid, *map(int, children)]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:  # a worker that has just ended
            continue
        fields = stat.rsplit(")", 1)[1].split()  # from the third field of proc(5) on
        ticks += int(fields[11]) + int(fields[12])  # utime and stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _stop(server: Server) -> None:
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
    server.log.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    import redis

    tmp = tmp_path_factory.mktemp("two-servers")
    prefix = f"podium-test-{secrets.token_hex(6)}"
    databases = _database(tmp)
    database_url = next(databases)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PODIUM_")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own, never a server's
    env |= {
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS,
        "PODIUM_SECRET_KEY": secrets.token_urlsafe(64),
        "PODIUM_DATA_DIR": str(tmp),
        "PODIUM_API_ANONYMOUS_PER_MINUTE": str(ANONYMOUS_PER_MINUTE),
        "PODIUM_CACHE_PREFIX": prefix,
    }
    shell = [PODIUM, "manage", "shell", "-c", SET_UP]
    subprocess.run([PODIUM, "manage", "migrate", "-v", "0"], env=env, check=True, timeout=300)
    made = subprocess.run(shell, env=env, check=True, capture_output=True, text=True, timeout=120)
    token = re.search(r"TOKEN (\S+)", made.stdout)
    assert token, made.stdout + made.stderr
    servers: list[Server] = []
    try:
        for name in ("one", "two"):
            servers.append(_serve(env, free_port(), tmp / f"server-{name}.log"))
        yield Cluster(env, token.group(1), servers, database_url)
    finally:
        for server in servers:
            _stop(server)
        next(databases, None)
        shared = redis.Redis.from_url(REDIS)
        for key in shared.scan_iter(f"{prefix}:*"):
            shared.delete(key)


def _record(server: Server, token: str, number: int, key: str) -> int:
    status, _headers, _body = server.request(
        "POST",
        f"/api/events/{SLUG}/stages/{QUALI}/rounds/1/results",
        {"entry": number, "cells": {"time": f"1:15:{number:02d}"}},
        {"Authorization": f"Bearer {token}", "Idempotency-Key": key},
    )
    return status


def test_a_result_recorded_on_one_server_shows_in_a_poll_on_the_other(cluster: Cluster) -> None:
    one, two = cluster.servers
    table = f"/standings/{SLUG}/{QUALI}/table/"
    status, headers, body = two.request("GET", table)
    assert status == 200
    assert "Entrant 21" not in body.decode()
    etag = headers["ETag"]
    assert two.request("GET", table, headers={"If-None-Match": etag})[0] == 304
    assert one.request("GET", table, headers={"If-None-Match": etag})[0] == 304  # same tag

    assert _record(one, cluster.token, 21, "poll-21") == 201
    recorded = time.monotonic()
    while True:
        status, headers, body = two.request("GET", table, headers={"If-None-Match": etag})
        if status == 200:
            break
        assert status == 304
        # Only against waiting for ever: how soon is bench/load.py's, not a busy machine's.
        assert time.monotonic() - recorded < 60, "not seen through the other server in 60 s"
        time.sleep(0.1)
    print(f"seen through the other server after {time.monotonic() - recorded:.2f} s")
    assert "Entrant 21" in body.decode()
    assert headers["ETag"] != etag


def _log_in(server: Server, username: str, password: str, browser: Any = None) -> str:
    """Logs in through ``server``'s form as a browser would; the page it ends on."""
    browser = browser or urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    form = browser.open(server.url("/accounts/login/")).read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert csrf
    fields = {"csrfmiddlewaretoken": csrf.group(1), "username": username, "password": password}
    login = urllib.request.Request(
        server.url("/accounts/login/"), data=urllib.parse.urlencode(fields).encode(),
        headers={"Referer": server.url("/accounts/login/")},
    )  # fmt: skip
    return str(browser.open(login).read().decode())


def test_a_login_on_one_server_holds_on_the_other(cluster: Cluster) -> None:
    one, two = cluster.servers
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    _log_in(one, "olga", "correct horse battery", browser)
    page = browser.open(two.url(f"/organize/{SLUG}/publication/")).read().decode()
    assert "Log out" in page
    assert "Individuals — qualification" in page


def test_the_api_rate_limit_counts_both_servers(cluster: Cluster) -> None:
    one, two = cluster.servers
    answers = [
        (one if i % 2 else two).request("GET", f"/api/events/{SLUG}")[0]
        for i in range(ANONYMOUS_PER_MINUTE + 1)
    ]
    assert answers == [200] * ANONYMOUS_PER_MINUTE + [429]


def test_a_worker_killed_mid_burst_loses_nothing_acknowledged(cluster: Cluster) -> None:
    one, _two = cluster.servers
    numbers = list(range(22, 41))

    def send(number: int) -> tuple[int, int]:
        """Like a referee's program: sent again with the same key until answered."""
        for _attempt in range(20):
            try:
                status = _record(one, cluster.token, number, f"burst-{number}")
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)
                continue
            if status < 500:
                return number, status
            time.sleep(0.2)
        return number, -1  # never answered

    workers = subprocess.run(
        ["pgrep", "-P", str(one.process.pid)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert len(workers) == 2
    with ThreadPoolExecutor(8) as pool:
        sent = [pool.submit(send, n) for n in numbers]
        time.sleep(0.05)
        os.kill(int(workers[0]), signal.SIGKILL)  # mid-burst
        answers = dict(f.result() for f in sent)
    assert set(answers.values()) <= {200, 201}, answers  # every write answered in the end
    now = subprocess.run(
        ["pgrep", "-P", str(one.process.pid)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert workers[0] not in now  # it was killed, and gunicorn started another
    assert len(now) == 2
    rows = _results_of(cluster)
    for number in numbers:
        assert rows.count(number) == 1, f"entrant {number}: {rows.count(number)} results"


def _results_of(cluster: Cluster) -> list[int]:
    code = (
        "from podium.web.models import Result\n"
        f"print(list(Result.objects.filter(event__slug='{SLUG}')"
        ".values_list('entry__number', flat=True)))"
    )
    done = subprocess.run(
        [PODIUM, "manage", "shell", "-c", code], env=cluster.env, capture_output=True,
        text=True, check=True, timeout=120,
    )  # fmt: skip
    found = re.search(r"\[[\d, ]*\]", done.stdout)
    assert found, done.stdout
    return [int(n) for n in json.loads(found.group(0))]


def test_connections_to_the_database_stay_within_workers_times_threads(cluster: Cluster) -> None:
    """Each server runs 2 workers × 2 threads: however many requests come at once, it holds at
    most 4 connections to PostgreSQL (each worker pools its own), and the two at most 8."""
    one, two = cluster.servers
    pages = [f"/e/{SLUG}/", f"/e/{SLUG}/entries/", f"/standings/{SLUG}/", f"/draws/{SLUG}/"]
    seen: list[int] = []

    def ask(i: int) -> int:
        server = one if i % 2 else two
        return server.request("GET", pages[i % len(pages)], headers={"Cookie": f"x={i}"})[0]

    with ThreadPoolExecutor(60) as pool:
        answers = pool.map(ask, range(240))
        for _ in range(10):
            seen.append(_connections(cluster))
            time.sleep(0.05)
        assert set(answers) == {200}
    assert max(seen) <= 2 * 2 * 2, seen


def test_failed_log_ins_through_one_server_lock_out_through_the_other(cluster: Cluster) -> None:
    """The throttle counts in Redis: five wrong passwords for an account through one server (two
    worker processes), and the right one is refused through the other; twenty failures from one
    address, whichever server got them, and every account is refused from there."""
    one, two = cluster.servers
    wrong = "Please enter a correct username and password."
    for n in range(5):
        assert wrong in _log_in(one, "rudolf", f"guess {n}")
    started = _cpu_of(two) + time.process_time()
    refused = _log_in(two, "rudolf", "correct horse battery")
    took = _cpu_of(two) + time.process_time() - started  # CPU time, the servers' and ours
    assert "Too many failed log-ins for this account. Try again in 15 minutes." in refused
    assert took < 2.0, f"the refusal (the form and its answer) took {took:.2f} s of CPU time"
    print(f"refused through the other server in {took * 1000:.0f} ms of CPU time")
    for n in range(15):
        assert wrong in _log_in((one, two)[n % 2], f"nobody-{n}", "guess")
    refused = _log_in(one, "olga", "correct horse battery")
    assert "Too many failed log-ins from your address. Try again in 15 minutes." in refused


def test_the_development_server_leaves_no_connection_behind(
    cluster: Cluster, tmp_path: Path
) -> None:
    """Django's development server runs a thread per request: each closes its connection when
    done, so a burst leaves nothing idle (it used to keep one per thread until PostgreSQL's
    limit)."""
    pooled = _connections(cluster)  # the production servers' own, idle
    port = free_port()
    output = (tmp_path / "dev.log").open("w")
    process = subprocess.Popen(
        [PODIUM, "serve", "--address", f"127.0.0.1:{port}"],
        env=cluster.env, stdout=output, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    server = Server(port, process, output)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if server.request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "dev.log").read_text()[-2000:]
                time.sleep(0.3)
        with ThreadPoolExecutor(60) as pool:
            answers = list(pool.map(lambda i: server.request("GET", f"/e/{SLUG}/")[0], range(60)))
        assert set(answers) == {200}
        deadline = time.monotonic() + 30  # each thread closes its own as it ends
        while _connections(cluster) > pooled and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _connections(cluster) <= pooled
    finally:
        _stop(server)


def _connections(cluster: Cluster) -> int:
    """The connections open to the cluster's database (SQLite has none to count: 0)."""
    if not cluster.database_url.startswith("postgres"):
        return 0
    import psycopg

    base, name = cluster.database_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres") as admin:
        found = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
        ).fetchone()
    return int(found[0]) if found else 0
