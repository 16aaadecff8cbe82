"""The referees' phones in the load benchmark: (f) the mixed load of (d) through the phone's own
path, and (g) an outage — phones that were offline reconnecting in the same second.

Vocabulary:
- phone's path: the results console's taps endpoint (``/desk/<event>/results/<stage>/1/taps/``),
  signed in with a session cookie and a CSRF token as the page's script sends them; one tap a
  request in (f), as a phone on the network sends them.
- phone session: a session made in the bench database before the run, as a login would make
  it (the server's own secret key), for each referee; the CSRF token is a fresh secret sent as
  both the cookie and the header.
- acknowledged tap: an answer ``stored`` or ``already`` naming the result.
- outage (g): ``--outage-phones`` phones (20) each kept ``--outage-taps`` taps (20) while offline
  for ``--outage-seconds`` (600; the taps were made over that time, each finish timed when it was
  tapped), and all reconnect in the same second, each sending its outbox as one batch, in order.
  Drained: every phone answered; the queue drains within the target (60 s).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from typing import Any

import loadgen
from loadgen import Client, Stats
from loadscenarios import Ack, Bench, Mixed, machine_line, ms, run_line
from loadsite import HOST, JIGSAW, QUALI

TAPS = f"/desk/{JIGSAW}/results/{QUALI}/1/taps/"
TARGET_DRAIN_S = 60.0


def phone_sessions(secret_key: str) -> list[str]:
    """Each referee's session, in the order of their API tokens, made as the server's logins
    make them (see the vocabulary)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client as DjangoClient
    from django.test.utils import override_settings

    made = []
    try:
        with override_settings(SECRET_KEY=secret_key):
            for user in get_user_model().objects.filter(username__startswith="load-referee-"):
                client = DjangoClient()
                client.force_login(user)
                made.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
    finally:
        connections.close_all()
    return made


def tap_headers(session: str) -> dict[str, str]:
    from django.conf import settings

    token = secrets.token_hex(16)  # 32 characters: a CSRF secret, unmasked
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={token}"
    return {"Cookie": cookie, "X-CSRFToken": token, "Content-Type": "application/json"}


def tap(entry: int, at_ms: int | None = None) -> dict[str, Any]:
    made = {"key": f"phone-{entry}-{secrets.token_hex(4)}", "number": entry, "finish": True}
    return made | ({"at_ms": at_ms, "offset_ms": 0} if at_ms is not None else {})


class PhoneMixed(Mixed):
    """(f): (d) with each referee's taps through the phone's path."""

    def __init__(self, bench: Bench, entrants: list[int], sessions: list[str]) -> None:
        super().__init__(bench, entrants, (3.0, 6.0), judged=True)
        self.name, self.path = "(f) phones", "through the phone's own path (session, CSRF)"
        self.sessions = dict(zip(bench.data.referee_secrets, sessions, strict=True))

    async def referee(self, client: Client, secret: str, entries: list[int], until: float) -> None:
        headers = tap_headers(self.sessions[secret])
        for entry in entries:
            await asyncio.sleep(random.uniform(*self.pause))
            if time.perf_counter() > until:
                return
            sent = tap(entry)
            raw = self.bench.raw(TAPS, headers, "POST", json.dumps({"taps": [sent]}).encode())
            for attempt in range(3):  # a phone that heard nothing sends the same tap again
                began = time.perf_counter()
                try:
                    answer = await client.send(raw)
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                    self.writes.errors[type(exc).__name__] += 1
                    self.sent_again += attempt < 2
                    continue
                self.note(entry, sent["key"], answer, time.perf_counter() - began, self.writes)
                break

    def note(self, entry: int, key: str, answer: Any, took: float, stats: Stats) -> None:
        stats.statuses[answer.status] += 1
        said = json.loads(answer.body)["answers"][0] if answer.status == 200 else {}
        if said.get("status") in ("stored", "already"):
            stats.latencies.append(took)
            self.acks.append(Ack(entry, key, int(said["result"]), said["cells"]["time"]))
        else:
            stats.errors[f"status {answer.status} {said or answer.body[:100]!r}"] += 1


async def outage(bench: Bench, mixed: PhoneMixed, entrants: list[int], args: Any) -> None:
    """(g): the phones of an outage reconnect in the same second (see the vocabulary)."""
    phones, per = args.outage_phones, args.outage_taps
    print(f"\n(g) outage: {phones} phones offline for {args.outage_seconds:.0f} s with {per} taps "
          f"each reconnect in the same second; {machine_line('now')}")  # fmt: skip
    now_ms = int(time.time() * 1000)
    batches = []
    for p in range(phones):
        mine = entrants[p * per : (p + 1) * per]
        step = args.outage_seconds * 1000 / max(per, 1)
        taps = [tap(e, now_ms - int((per - i) * step)) for i, e in enumerate(mine)]
        session = list(mixed.sessions.values())[p % len(mixed.sessions)]  # a referee's phone
        batches.append((taps, bench.raw(TAPS, tap_headers(session), "POST",
                                        json.dumps({"taps": taps}).encode())))  # fmt: skip
    clients = loadgen.clients(HOST, bench.server.port, phones, first=args.clients + args.referees)
    stats = Stats()
    began = time.perf_counter()

    async def reconnect(client: Client, taps: list[dict[str, Any]], raw: bytes) -> None:
        start = time.perf_counter()
        answer = await client.send(raw)
        took = time.perf_counter() - start
        stats.statuses[answer.status] += 1
        said = json.loads(answer.body)["answers"] if answer.status == 200 else []
        for sent, one in zip(taps, said, strict=False):
            if one.get("status") in ("stored", "already"):
                stats.latencies.append(took)
                mixed.acks.append(Ack(sent["number"], sent["key"], int(one["result"]),
                                      one["cells"]["time"]))  # fmt: skip
            else:
                stats.errors[str(one.get("message") or answer.status)[:80]] += 1

    await asyncio.gather(
        *(reconnect(c, t, raw) for c, (t, raw) in zip(clients, batches, strict=True))
    )
    stats.wall = time.perf_counter() - began
    loadgen.close_all(clients)
    print(run_line("phones' batches", stats))
    drained = stats.wall
    bench.report.target(
        "(g) outage drained",
        drained < TARGET_DRAIN_S and not stats.errors,
        f"{len(stats.latencies)} of {phones * per} taps acknowledged in {drained:.1f} s "
        f"(< {TARGET_DRAIN_S:.0f} s), slowest batch {ms(max(stats.latencies, default=0.0))}, "
        f"{sum(stats.errors.values())} refused",
    )


def stored_once(acks: list[Ack]) -> tuple[bool, str]:
    """Every acknowledged tap of (g) once in the database, under its key."""
    from django.db import connections

    from podium.web.models import Result

    try:
        keys = [a.key for a in acks]
        found = list(
            Result.objects.filter(idempotency_key__in=keys).values_list("idempotency_key", "id")
        )
    finally:
        connections.close_all()
    by_key = {a.key: a.result for a in acks}
    once = sum(by_key.get(key) == pk for key, pk in found)
    ok = once == len(acks) == len(found)
    return ok, f"{len(acks)} acknowledged, {once} stored exactly once under their keys"


async def phones(bench: Bench, phoned: list[int], outaged: list[int], recorded: int) -> None:
    """(f) and (g), as ``--only`` asks."""
    sessions = await asyncio.to_thread(phone_sessions, bench.args.secret_key)
    mixed = PhoneMixed(bench, phoned, sessions)
    if "f" in bench.args.only:
        await mixed.run(recorded)
    if "g" in bench.args.only:
        before = len(mixed.acks)
        await outage(bench, mixed, outaged, bench.args)
        ok, detail = await asyncio.to_thread(stored_once, mixed.acks[before:])
        bench.report.target("(g) nothing lost or duplicated", ok, detail)
