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

- phones (f), outage (g): see ``loadphones`` — (d) through the phone's own taps endpoint, and
  phones that were offline reconnecting in the same second with their outboxes.

Targets (issue 11): (a) the 304 poll's p95 ≤ 3× the conditional floor's; (b) the whole page's
p95 ≤ 3× the page floor's; (d) the writes' p95 < 150 ms with no error, and every acknowledged
write in the database exactly once and in the spectators' final tables (checked in (e) too);
(f) as (d), through the phones' path (issue 20); (g) the outage's queue drained within a minute,
every acknowledged tap stored once.
Each is printed as PASS or MISS; the script exits 0 unless the benchmark itself could not run.

Run ``.venv/bin/python bench/load.py`` (about five minutes) or ``--quick`` (a smoke run: short
runs, one pair). See ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import loadgen
from loadgen import Answer, Client
from loadscenarios import FULL, QUICK, Report, browser, machine_line, ms, scenarios, verdict
from loadsite import (
    ENTRANTS,
    HOST,
    PAGE,
    TEAMS,
    TOURS,
    Server,
    database_name,
    flush_cache,
    make_data,
    recreate_database,
    server_env,
    start_server,
    stop_server,
    write_floor,
)


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
    parser.add_argument("--only", default="abcdefg", help="the scenarios to run, e.g. 'ad'")
    parser.add_argument("--outage-phones", type=int, default=20, help="phones offline in (g)")
    parser.add_argument("--outage-taps", type=int, default=20, help="taps each kept in (g)")
    parser.add_argument(
        "--outage-seconds", type=float, default=600.0, help="how long they were offline in (g)"
    )
    return parser.parse_args()


# --- The whole run ------------------------------------------------------------------------------


async def fetch_page(server: Server) -> tuple[float, Answer]:
    client = Client(HOST, server.port, None)
    try:
        raw = loadgen.request("GET", PAGE, server.host, browser())
        return await loadgen.timed(lambda: client.send(raw))
    finally:
        client.close()


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
    args.secret_key = env["PODIUM_SECRET_KEY"]  # the phones' sessions are made as it makes them
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
