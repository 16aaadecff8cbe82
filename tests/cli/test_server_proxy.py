"""Debian's nginx with ``docs/proxy/nginx.conf`` in front of ``podium serve --production``:
2,000 spectators polling one table cost Podium a few requests a second, a recorded result
reaches every spectator within the poll interval plus the cache's age, and a logged-in
referee's pages never come from the cache.

nginx runs as the current user with its prefix, temporary files, cache and logs in the test's
own folder, on a free loopback port (``make proxy`` installs it when missing, as ``make
browser`` installs Chromium). The requests that reached Podium are counted in its access log.

No assertion reads the wall clock as a limit: how soon spectators see a result is counted in
their own polls, and a deadline only stops a run that would otherwise wait for ever.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import getpass
import os
import random
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.cli.test_server_production import PODIUM, REDIS, SLUG, Server, _serve, _stop, free_port
from tests.cli.test_server_production import SET_UP as SET_UP_EVENT

pytestmark = pytest.mark.slow  # nginx and a production server in processes of their own

CONFIG = Path(__file__).parents[2] / "docs" / "proxy" / "nginx.conf"
QUALI = "individual-qualification"
TABLE = f"/standings/{SLUG}/{QUALI}/table/"
SPECTATORS, POLLS, POLL_S = 2_000, 5, 3.0

# The two-servers test's event (40 entrants, 20 with a result, a referee's token), and a
# logged-in session of its referee (printed).
SET_UP = (
    SET_UP_EVENT
    + """
from django.test import Client
client = Client()
client.force_login(ref)
print("SESSION", client.cookies["sessionid"].value)
"""
)


@dataclass
class Proxied:
    podium: Server
    nginx: Server
    podium_log: Path
    token: str
    session: str


def nginx_binary() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else "")
    assert found, "Debian's nginx is missing: `make proxy` installs it"
    return found


def nginx_config(tmp: Path, podium_port: int, port: int) -> Path:
    """``docs/proxy/nginx.conf`` as it is, its addresses and paths moved into ``tmp``, inside a
    main configuration that runs as the current user."""
    site = CONFIG.read_text()
    for documented, here in (
        ("listen 80;", f"listen 127.0.0.1:{port};"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{podium_port};"),
        ("/var/cache/nginx/podium", str(tmp / "cache")),
        ("/srv/podium/var/static/", f"{tmp / 'static'}/"),
    ):
        assert documented in site, f"docs/proxy/nginx.conf no longer says {documented!r}"
        site = site.replace(documented, here)
    (tmp / "podium.conf").write_text(site)
    temp = "\n".join(
        f"  {kind}_temp_path {tmp / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                          "uwsgi", "scgi")
    )  # fmt: skip
    user = f"user {getpass.getuser()};" if os.geteuid() == 0 else ""
    main = tmp / "nginx.conf"
    main.write_text(f"""{user}
daemon off;
worker_processes 2;
worker_rlimit_nofile 8192;
pid {tmp / "nginx.pid"};
error_log {tmp / "error.log"} warn;
events {{ worker_connections 4096; }}
http {{
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log {tmp / "access.log"};
{temp}
  include {tmp / "podium.conf"};
}}
""")
    return main


def _nginx(tmp: Path, config: Path, port: int) -> Server:
    log = (tmp / "nginx.out").open("w")
    process = subprocess.Popen(
        [nginx_binary(), "-p", str(tmp), "-c", str(config), "-e", str(tmp / "error.log")],
        stdout=log, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    server = Server(port, process, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, (tmp / "error.log").read_text()[-2000:]
        try:
            if server.request("GET", "/healthz")[0] == 200:
                return server
        except OSError:
            time.sleep(0.2)
    raise AssertionError("nginx did not start")


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    import redis

    tmp = tmp_path_factory.mktemp("proxied")
    prefix = f"podium-test-{secrets.token_hex(6)}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PODIUM_")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env |= {
        "DATABASE_URL": f"sqlite:///{tmp / 'podium.sqlite3'}",
        "REDIS_URL": REDIS,
        "PODIUM_SECRET_KEY": secrets.token_urlsafe(64),
        "PODIUM_DATA_DIR": str(tmp),
        "PODIUM_STATIC_ROOT": str(tmp / "static"),
        "PODIUM_CACHE_PREFIX": prefix,
        "PODIUM_ACCESS_LOG": "1",
    }
    podium = _serve(env, free_port(), tmp / "podium.log")  # migrates the database first
    nginx = None
    try:
        made = subprocess.run(
            [PODIUM, "manage", "shell", "-c", SET_UP], env=env, check=True, capture_output=True,
            text=True, timeout=120,
        )  # fmt: skip
        token = re.search(r"TOKEN (\S+)", made.stdout)
        session = re.search(r"SESSION (\S+)", made.stdout)
        assert token, made.stdout + made.stderr
        assert session, made.stdout + made.stderr
        port = free_port()
        nginx = _nginx(tmp, nginx_config(tmp, podium.port, port), port)
        yield Proxied(podium, nginx, tmp / "podium.log", token.group(1), session.group(1))
    finally:
        if nginx is not None:
            _stop(nginx)
        _stop(podium)
        shared = redis.Redis.from_url(REDIS)
        for key in shared.scan_iter(f"{prefix}:*"):
            shared.delete(key)


def reached_podium(proxied: Proxied, path: str) -> int:
    """How many requests for ``path`` Podium answered (its access log)."""
    return sum(f'"GET {path} ' in line for line in proxied.podium_log.read_text().splitlines())


@dataclass
class Spectator:
    etag: str = ""
    polls: list[tuple[float, bool]] = field(default_factory=list)  # (sent at, shows entrant 21)
    errors: list[str] = field(default_factory=list)


async def _answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:] if h)}
    status = int(head[0][9:12])
    body = b""
    if status != 304 and "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    elif status != 304:  # chunked
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            body += (await reader.readexactly(size + 2))[:-2]
        await reader.readuntil(b"\r\n")
    return status, headers, body


async def _watch(port: int, spectator: Spectator, start: float, deadline: float) -> None:
    """One spectator: a keep-alive connection, a poll every 3 s with the ETag it has."""
    await asyncio.sleep(start)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for _ in range(POLLS):
            if time.monotonic() > deadline:
                spectator.errors.append("deadline")
                return
            sent = time.monotonic()
            asked = f"If-None-Match: {spectator.etag}\r\n" if spectator.etag else ""
            writer.write(f"GET {TABLE} HTTP/1.1\r\nHost: 127.0.0.1\r\n{asked}\r\n".encode())
            status, headers, body = await _answer(reader)
            if status == 200:
                spectator.etag = headers["etag"]
                shows = b"Entrant 21" in body
            elif status == 304:
                shows = spectator.polls[-1][1]
            else:
                spectator.errors.append(f"status {status}")
                return
            spectator.polls.append((sent, shows))
            await asyncio.sleep(max(0.0, POLL_S - (time.monotonic() - sent)))
    finally:
        writer.close()


async def _crowd(proxied: Proxied, spectators: list[Spectator]) -> float:
    """The spectators polling, a result recorded once each has polled once; its time."""
    rng = random.Random(24)
    deadline = time.monotonic() + 120  # against waiting for ever only
    watching = [
        asyncio.create_task(_watch(proxied.nginx.port, s, rng.uniform(0, POLL_S), deadline))
        for s in spectators
    ]
    while any(not s.polls for s in spectators) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    status, _headers, _body = await asyncio.to_thread(
        proxied.podium.request, "POST", f"/api/events/{SLUG}/stages/{QUALI}/rounds/1/results",
        {"entry": 21, "cells": {"time": "1:15:21"}},
        {"Authorization": f"Bearer {proxied.token}", "Idempotency-Key": "proxied-21"},
    )  # fmt: skip
    recorded = time.monotonic()
    assert status == 201
    await asyncio.gather(*watching)
    return recorded


def test_two_thousand_spectators_cost_podium_a_few_requests_a_second(proxied: Proxied) -> None:
    before = reached_podium(proxied, TABLE)
    spectators = [Spectator() for _ in range(SPECTATORS)]
    began = time.monotonic()
    # A loop of its own in a thread: a browser test before this one may leave Playwright's
    # loop running in the main thread, where asyncio.run refuses to start.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        recorded = pool.submit(asyncio.run, _crowd(proxied, spectators)).result()
    lasted = time.monotonic() - began
    assert [s.errors for s in spectators if s.errors] == []
    polls = sum(len(s.polls) for s in spectators)
    assert polls == SPECTATORS * POLLS
    reached = reached_podium(proxied, TABLE) - before
    print(f"{polls} polls in {lasted:.1f} s; {reached} reached Podium ({reached / lasted:.2f}/s)")
    # The cache asks Podium once per poll interval (and once more for the new result);
    # a few a second at most, against the spectators' 600 a second.
    assert reached <= 3 * lasted
    assert polls >= 100 * reached
    # Every spectator holds the new result by its second poll sent after the result was
    # recorded: the poll interval (3 s) plus the cache's age (at most 2 s).
    for spectator in spectators:
        after = [shows for sent, shows in spectator.polls if sent > recorded]
        assert len(after) >= 2
        assert after[1], spectator.polls
        assert after == sorted(after)  # never back to the old table


def test_a_referees_pages_never_come_from_the_cache(proxied: Proxied) -> None:
    nginx = proxied.nginx
    page = f"/standings/{SLUG}/{QUALI}/"
    console = f"/desk/{SLUG}/results/{QUALI}/1/"
    referee = {"Cookie": f"sessionid={proxied.session}"}
    for _ in range(3):
        for path in (page, TABLE, console):
            anonymous = nginx.request("GET", path)
            status, headers, body = nginx.request("GET", path, headers=referee)
            assert status == 200, path
            assert headers["X-Cache"] == "BYPASS", path
            assert "private" in headers["Cache-Control"], path
            assert "public" not in headers["Cache-Control"], path
            if path != TABLE:
                assert "Log out" in body.decode(), path  # a page made for who is logged in
            if path == console:
                assert anonymous[0] in (302, 403, 404)  # the console is no spectator's
            else:
                assert "Log out" not in anonymous[2].decode(), path
    # The spectators' copy of the page, meanwhile, is the cache's.
    assert "HIT" in [nginx.request("GET", page)[1]["X-Cache"] for _ in range(5)]
