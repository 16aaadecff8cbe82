"""The load benchmark's scenarios: (a)–(c) against one running server, and the mixed load of
(d) and (e) (used by ``load.py``; see its vocabulary for each).

Vocabulary:
- plan: how long and how much each run takes (a full run, or ``--quick``).
- runner: a run's name, its request and what its answers must be.
- report: every target with its verdict, PASS or MISS, printed as it is reached.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import os
import random
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import loadgen
from loadgen import Answer, Check, Client, CpuMeter, Stats, expect
from loadsite import (
    API,
    FINISHES,
    FLOOR_PAGE,
    HOST,
    JIGSAW,
    PAGE,
    QUALI,
    SEASON_PAGE,
    SEASON_TABLE,
    TABLE,
    TEAMS,
    TOURS,
    Data,
    Server,
)

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
        self.name = "(d) mixed" if judged else "(e) stress (no target)"
        self.path = "through the API"

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
        name = self.name
        print(f"\n{name}: {args.clients} spectators poll every {POLL_S:.0f} s while "
              f"{args.referees} referees tap “finished” {self.path}\n"
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
            bench.report.target(f"{name[:3]} writes", p95 < TARGET_WRITE_P95_S and errors == 0,
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
        outage_taps = args.outage_phones * args.outage_taps if "g" in args.only else 0
        outaged, left = left[:outage_taps], left[outage_taps:]
        phoned, left = (
            (left[: len(left) // 3], left[len(left) // 3 :]) if "f" in args.only else ([], left)
        )
        stressed = int(len(left) * STRESS_SHARE)
        recorded = data.recorded
        if "d" in args.only:
            mixed = Mixed(bench, left[: len(left) - stressed], WRITE_PAUSE_S, judged=True)
            await mixed.run(recorded)
            recorded += len(mixed.acks)
        if "e" in args.only:
            stress = Mixed(bench, left[len(left) - stressed :], STRESS_PAUSE_S, judged=False)
            await stress.run(recorded)
            recorded += len(stress.acks)
        if "f" in args.only or "g" in args.only:
            from loadphones import phones

            await phones(bench, phoned, outaged, recorded)
    finally:
        bench.one.close()
