"""Spectators through a shared cache: Debian's nginx with ``docs/proxy/nginx.conf`` in front of
``podium serve --production``, side by side in one run with the same load sent to Podium
directly and with a static file through the same nginx (a report, not a test).

Vocabulary:
- spectator: one browser tab on a round's page, polling its table every 3 s with the ETag it
  has (as htmx does), taking the new one from a ``200``. Spectators share a pool of keep-alive
  connections (at most ``--connections``), each from its own loopback address, so the client
  is not bounded by one address's ports; latency is that of the exchange alone.
- run: N spectators for ``--seconds`` (each starts at a random moment of its first interval),
  bounded by a request cap as well; everything on 127.0.0.1.
- origin load: requests that reached Podium per second during a run, counted in its access log.
- targets: ``proxy`` (the table through nginx), ``direct`` (the table from Podium itself), and
  ``static`` (a static file of the table's size through nginx, from disk: the floor).
- spread: each run is repeated ``--repeats`` times; medians are printed with the smallest and
  largest value (runs of the three targets alternate, so the machine's load mostly cancels).

Targets (issue 24): the origin load stays flat as spectators grow from 200 to 10,000 through
the proxy, and the spectators' p95 through the proxy is within 1.5× the static file's. Each is
printed as PASS or MISS; the script exits 0 unless the benchmark itself could not run.

Run ``.venv/bin/python bench/proxy.py`` (about three minutes) or ``--quick`` (one repeat).
Needs Debian's nginx (``make proxy``) and Redis (``REDIS_URL``, a database of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import loadgen
from loadgen import Client, Stats, percentile
from loadscenarios import machine_line, ms
from loadsite import HOST, server_env, start_server, stop_server

sys.path.insert(0, str(Path(__file__).parents[1]))  # the nginx set-up of the proxy test
from tests.cli.test_server_production import SLUG, _stop, free_port
from tests.cli.test_server_proxy import SET_UP, _nginx, nginx_config

QUALI = "individual-qualification"
TABLE = f"/standings/{SLUG}/{QUALI}/table/"
STATIC = "/static/podium-proxy/table.html"
POLL_S = 3.0


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repeat, short runs")
    parser.add_argument("--seconds", type=float, default=9.0, help="length of a run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--sizes", default="200,2000,10000", help="spectators through nginx")
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/14")
    )
    args = parser.parse_args()
    if args.quick:
        args.repeats, args.seconds = 1, 6.0
    return args


async def spectators(port: int, path: str, count: int, seconds: float, pool: int) -> Stats:
    """``count`` spectators polling ``path`` for ``seconds`` (see the vocabulary)."""
    stats = Stats()
    free: asyncio.Queue[Client] = asyncio.Queue()
    for client in loadgen.clients(HOST, port, min(count, pool)):
        free.put_nowait(client)
    cap = int(count * (seconds / POLL_S + 1))
    began = time.monotonic()
    end = began + seconds
    rng = random.Random(count)

    async def watch(start: float) -> None:
        etag = ""
        await asyncio.sleep(start)
        while time.monotonic() < end and stats.count < cap:
            sent = time.monotonic()
            client = await free.get()
            asked = {"If-None-Match": etag} if etag else {}
            raw = loadgen.request("GET", path, HOST, {"Accept-Encoding": "gzip"} | asked)
            exchanged = time.perf_counter()
            try:
                answer = await client.send(raw)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                stats.errors[type(error).__name__] += 1
            else:
                stats.statuses[answer.status] += 1
                if answer.status in (200, 304):
                    stats.latencies.append(time.perf_counter() - exchanged)
                    etag = answer.header("ETag") or etag
                else:
                    stats.errors[f"status {answer.status}"] += 1
            finally:
                free.put_nowait(client)
            await asyncio.sleep(max(0.0, POLL_S - (time.monotonic() - sent)))

    await asyncio.gather(*(watch(rng.uniform(0, POLL_S)) for _ in range(count)))
    stats.wall = time.monotonic() - began
    while not free.empty():
        free.get_nowait().close()
    return stats


def reached(log: Path, path: str) -> int:
    return sum(f'"GET {path} ' in line for line in log.read_text(errors="replace").splitlines())


def run(
    port: int, log: Path, path: str, count: int, args: argparse.Namespace
) -> tuple[Stats, float]:
    before = reached(log, TABLE)
    stats = asyncio.run(spectators(port, path, count, args.seconds, args.connections))
    return stats, (reached(log, TABLE) - before) / stats.wall


def spread(values: list[float], unit: str = "") -> str:
    ordered = sorted(values)
    middle = percentile(ordered, 0.5)
    return f"{middle:.2f}{unit} ({ordered[0]:.2f}–{ordered[-1]:.2f})"


def set_up(env: dict[str, str]) -> None:
    podium = str(Path(sys.executable).with_name("podium"))
    made = subprocess.run(
        [podium, "manage", "shell", "-c", SET_UP], env=env, capture_output=True, text=True,
        check=False, timeout=300,
    )  # fmt: skip
    if made.returncode or not re.search(r"TOKEN \S+", made.stdout):
        raise SystemExit(f"the event could not be made:\n{made.stdout}\n{made.stderr}")


def main() -> int:
    args = arguments()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(machine_line("at the start"))
    with tempfile.TemporaryDirectory(prefix="podium-proxy-") as folder:
        tmp = Path(folder)
        args.database_url = f"sqlite:///{tmp / 'podium.sqlite3'}"
        prefix = f"podium-proxy-{secrets.token_hex(4)}"
        env = server_env(args, tmp) | {"PODIUM_ACCESS_LOG": "1", "PODIUM_CACHE_PREFIX": prefix}
        (tmp / "data").mkdir()
        server = start_server(env, 2, 4, tmp / "podium.log")
        nginx = None
        try:
            set_up(env)
            port = free_port()
            nginx = _nginx(tmp, nginx_config(tmp, server.port, port), port)
            with urllib.request.urlopen(f"http://{HOST}:{server.port}{TABLE}") as answer:
                body = answer.read()
            floor = tmp / "static" / STATIC.removeprefix("/static/")
            floor.parent.mkdir(parents=True, exist_ok=True)
            floor.write_bytes(body)
            print(
                f"table: {len(body):,} bytes; {args.seconds:.0f} s runs, {args.repeats} "
                f"repeats, at most {args.connections} connections; polls every {POLL_S:.0f} s"
            )
            report(args, sizes, server.port, port, tmp / "podium.log")
        finally:
            if nginx is not None:
                _stop(nginx)
            stop_server(server)
            import redis

            shared = redis.Redis.from_url(args.redis_url)
            for key in shared.scan_iter(f"{prefix}:*"):
                shared.delete(key)
    print(machine_line("at the end"))
    return 0


def report(args: argparse.Namespace, sizes: list[int], origin: int, proxy: int, log: Path) -> None:
    top = max(sizes)
    origin_rates: dict[int, list[float]] = {n: [] for n in sizes}
    ratios: dict[int, list[float]] = {n: [] for n in sizes}
    p95: dict[str, list[float]] = {"proxy": [], "direct": [], "static": []}
    rows = []
    for repeat in range(args.repeats):
        for n in sizes:
            stats, rate = run(proxy, log, TABLE, n, args)
            floor, _none = run(proxy, log, STATIC, n, args)
            origin_rates[n].append(rate)
            ratios[n].append(stats.pct(0.95) / floor.pct(0.95))
            rows += [(f"proxy {n:,}", stats, rate), (f"static {n:,}", floor, 0.0)]
            if n == top:
                p95["proxy"].append(stats.pct(0.95) * 1000)
                p95["static"].append(floor.pct(0.95) * 1000)
        stats, rate = run(origin, log, TABLE, top, args)
        p95["direct"].append(stats.pct(0.95) * 1000)
        rows.append((f"direct {top:,}", stats, rate))
        print(f"  repeat {repeat + 1}: {machine_line('now')}")
    print(f"\n    {'run':<16}{'requests':>9}{'errors':>7}{'req/s':>8}{'p50':>10}{'p95':>10}"
          f"{'at Podium/s':>13}")  # fmt: skip
    for name, stats, rate in rows:
        errors = sum(stats.errors.values())
        print(f"    {name:<16}{stats.count:>9}{errors:>7}{stats.rate:>8.0f}"
              f"{ms(stats.pct(0.5)):>10}{ms(stats.pct(0.95)):>10}{rate:>13.2f}")  # fmt: skip
    print("\nrequests that reached Podium per second, median (min–max):")
    for n in sizes:
        print(f"  {n:>6,} spectators through nginx: {spread(origin_rates[n])}")
    first, last = (percentile(sorted(origin_rates[n]), 0.5) for n in (sizes[0], top))
    flat = last <= 2 * first + 0.5
    print(f"  {'PASS' if flat else 'MISS'}: flat from {sizes[0]:,} to {top:,} spectators")
    print("\np95 through nginx / p95 of the static file through nginx, median (min–max):")
    for n in sizes:
        print(f"  {n:>6,} spectators: {spread(ratios[n], '×')}")
    print(f"p95 at {top:,} spectators, ms: proxy {spread(p95['proxy'])}, static "
          f"{spread(p95['static'])}, direct {spread(p95['direct'])}")  # fmt: skip
    within = percentile(sorted(ratios[top]), 0.5) <= 1.5
    print(f"  {'PASS' if within else 'MISS'}: at {top:,} spectators within 1.5× the static file")


if __name__ == "__main__":
    raise SystemExit(main())
