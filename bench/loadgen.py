"""The load benchmark's HTTP client: many keep-alive connections on loopback, driven by one
asyncio loop, each request timed (used by ``load.py``).

Vocabulary:
- client: one keep-alive HTTP/1.1 connection, as one browser tab or phone holds it; each client
  connects from its own loopback address (127.0.x.y), as each spectator has its own address.
- closed loop: every client sends its next request as soon as the previous answer is read, so
  the server is kept saturated; latency then includes the time spent queued in the server.
- paced: a client sends on its own timetable (a poll every 3 s, a write every 1–2 s), as
  people do; latency is then the service time under that load.
- run: one measured stretch of requests, bounded by a request cap and a wall-clock cap,
  whichever comes first.
- check: what makes an answer right (its status, its body's length); a wrong answer, a dropped
  connection or a timeout is an error.
- reconnect: a keep-alive connection the server closed between two requests (idle timeout, a
  worker recycled after ``max_requests``); the request is sent again on a new connection, as
  browsers do, and counted, not as an error.
"""

from __future__ import annotations

import asyncio
import math
import os
import statistics
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

TIMEOUT_S = 30.0
HEADER_LIMIT = 64 * 1024


@dataclass
class Answer:
    status: int
    headers: dict[bytes, bytes]
    body: bytes

    def header(self, name: str) -> str:
        return self.headers.get(name.lower().encode(), b"").decode("latin-1")


def source_address(index: int) -> str:
    """The loopback address of client ``index`` (127.0.0.2 onwards, 250 per /24)."""
    return f"127.0.{1 + index // 250}.{2 + index % 250}"


def request(
    method: str, path: str, host: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> bytes:
    """The bytes of one HTTP/1.1 request (keep-alive is HTTP/1.1's default)."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class Client:
    """One keep-alive connection that sends a request and reads its whole answer."""

    def __init__(self, host: str, port: int, local: str | None) -> None:
        self.host, self.port, self.local = host, port, local
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.reconnects = 0

    async def connect(self) -> None:
        local = (self.local, 0) if self.local else None
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, local_addr=local, limit=HEADER_LIMIT
        )

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, raw: bytes) -> Answer:
        """Sends ``raw`` and reads the answer; a keep-alive connection found closed before any
        byte of the answer is opened again and the request sent again once."""
        fresh = self.writer is None
        if fresh:
            await self.connect()
        try:
            return await asyncio.wait_for(self._exchange(raw), TIMEOUT_S)
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            partial = isinstance(exc, asyncio.IncompleteReadError) and exc.partial
            self.close()
            if fresh or partial:
                raise
            self.reconnects += 1
            await self.connect()
            return await asyncio.wait_for(self._exchange(raw), TIMEOUT_S)
        except BaseException:
            self.close()
            raise

    async def _exchange(self, raw: bytes) -> Answer:
        assert self.reader is not None
        assert self.writer is not None
        self.writer.write(raw)
        reader = self.reader
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0][9:12])
        headers: dict[bytes, bytes] = {}
        for line in lines[1:]:
            name, _colon, value = line.partition(b":")
            if name:
                headers[name.strip().lower()] = value.strip()
        if status in (204, 304) or status < 200:
            body = b""
        elif b"content-length" in headers:
            body = await reader.readexactly(int(headers[b"content-length"]))
        elif headers.get(b"transfer-encoding", b"").lower() == b"chunked":
            body = await _chunked(reader)
        else:
            body = await reader.read()
            headers[b"connection"] = b"close"
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return Answer(status, headers, body)


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    parts = []
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return b"".join(parts)
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)


def clients(host: str, port: int, count: int, first: int = 0) -> list[Client]:
    """``count`` clients, each from its own loopback address. They connect when they first
    send, as browsers do: gunicorn's gthread worker gives a new connection a thread until its
    first request arrives, so connections opened ahead and left idle would hold every thread."""
    return [Client(host, port, source_address(first + i)) for i in range(count)]


def close_all(clients: list[Client]) -> None:
    for client in clients:
        client.close()


@dataclass
class Stats:
    """What a run measured: every latency in seconds, the errors by kind, the run's wall time,
    and the CPU the client and the server used meanwhile (in cores)."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    wall: float = 0.0
    reconnects: int = 0
    client_cpu: float = 0.0
    server_cpu: float = 0.0

    @property
    def count(self) -> int:
        return len(self.latencies) + sum(self.errors.values())

    @property
    def rate(self) -> float:
        return self.count / self.wall if self.wall else 0.0

    def pct(self, q: float) -> float:
        return percentile(self.latencies, q)

    def add(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.errors.update(other.errors)
        self.statuses.update(other.statuses)


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile (``q`` from 0 to 1); NaN when there is nothing."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else math.nan


Check = Callable[[Answer], str | None]


def expect(status: int, length: int | None = None) -> Check:
    """A check: the status, and the body's length when given; returns what is wrong."""

    def check(answer: Answer) -> str | None:
        if answer.status != status:
            return f"status {answer.status}"
        if length is not None and len(answer.body) != length:
            return f"length {len(answer.body)} instead of {length}"
        return None

    return check


class CpuMeter:
    """CPU time used by this process and by a process tree (the server), in cores over a
    stretch of wall time: read from /proc, so it costs nothing while the run goes on."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, root: int | None) -> None:
        self.root = root

    def _tree(self) -> list[int]:
        if self.root is None:
            return []
        children: dict[int, list[int]] = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                try:
                    with open(f"/proc/{name}/stat", "rb") as f:
                        parent = int(f.read().rsplit(b")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                children.setdefault(parent, []).append(int(name))
        tree, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo += children.get(pid, [])
        return tree

    def _server_seconds(self) -> float:
        total = 0
        for pid in self._tree():
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime, stime
                if pid == self.root:  # and what its workers used before they were replaced
                    total += int(fields[13]) + int(fields[14])  # cutime, cstime
            except (OSError, IndexError, ValueError):
                continue
        return total / self.TICK

    def start(self) -> tuple[float, float, float]:
        return time.perf_counter(), time.process_time(), self._server_seconds()

    def stop(self, begun: tuple[float, float, float], stats: Stats) -> None:
        wall = time.perf_counter() - begun[0]
        stats.client_cpu = (time.process_time() - begun[1]) / wall
        stats.server_cpu = (self._server_seconds() - begun[2]) / wall


async def closed_loop(
    clients: list[Client], raw: bytes, check: Check, cap: int, seconds: float, meter: CpuMeter
) -> Stats:
    """Every client sends ``raw`` again and again until ``cap`` requests were sent or
    ``seconds`` passed; every answer is checked."""
    stats = Stats()
    left = [cap]
    deadline = time.perf_counter() + seconds

    async def drive(client: Client) -> None:
        while left[0] > 0 and time.perf_counter() < deadline:
            left[0] -= 1
            began = time.perf_counter()
            try:
                answer = await client.send(raw)
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as exc:
                stats.errors[type(exc).__name__] += 1
                continue
            took = time.perf_counter() - began
            stats.statuses[answer.status] += 1
            wrong = check(answer)
            if wrong is None:
                stats.latencies.append(took)
            else:
                stats.errors[wrong] += 1

    before = sum(c.reconnects for c in clients)
    begun = meter.start()
    await asyncio.gather(*(drive(c) for c in clients))
    meter.stop(begun, stats)
    stats.wall = time.perf_counter() - begun[0]
    stats.reconnects = sum(c.reconnects for c in clients) - before
    return stats


async def warm(clients: list[Client], raw: bytes) -> None:
    """One request on every connection, unmeasured: the connections are open and used."""
    await asyncio.gather(*(c.send(raw) for c in clients))


async def timed(call: Callable[[], Awaitable[Answer]]) -> tuple[float, Answer]:
    began = time.perf_counter()
    answer = await call()
    return time.perf_counter() - began, answer
