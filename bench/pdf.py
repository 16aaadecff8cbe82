"""Benchmark of the standings PDF (a report, not a test).

What is measured, on a cz-jigsaw individual qualification of N entrants (groups A and B, half
each, published preliminary) in a fresh SQLite database (or PostgreSQL with ``DATABASE_URL``):

(a) the download of the round's PDF (``/export/<event>/standings/<stage>/1.pdf``) as a visitor
    gets it: the standings computed, the compact print template rendered, WeasyPrint's layout;
(b) the floor: WeasyPrint rendering a bare table of the same rows (place, name, country, score,
    mark) with no margin boxes, notes or charts — no PDF of these rows can cost less with the
    same library.

Every time is the median of several runs, with the fastest and the slowest (the runs are in
brackets), then the median CPU time of the process (what other people's processes on a shared
machine do not inflate), and the page count of each PDF. Target (issue 13): a 200-entrant stage
in under 3 s, judged on the wall time and, on a busy machine, on the CPU time. The script
always exits 0. Run ``.venv/bin/python bench/pdf.py`` (N = 200) or add ``--sizes 200 400``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import html
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TMP = tempfile.mkdtemp(prefix="podium-bench-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(TMP) / 'bench.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "podium.web.settings")
os.environ["PODIUM_DATA_DIR"] = TMP

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from pypdf import PdfReader  # noqa: E402
from weasyprint import HTML  # noqa: E402

from podium.rules.loader import preset_text  # noqa: E402
from podium.web.models import Entry, EntryMember, Event, EventRole, Person, Result  # noqa: E402
from podium.web.selectors.exports import standings_document  # noqa: E402
from podium.web.services.clock import round_start  # noqa: E402
from podium.web.services.publication import publication_set  # noqa: E402

QUALI = "individual-qualification"
TARGET_S = 3.0


def event_with(n: int, tag: str) -> Event:
    """N entrants in groups A and B (every ninth from Slovakia, so outside the competition),
    every tenth not finished (ranked by pieces), the rest within the 90 minutes; published
    preliminary, so a visitor downloads it."""
    users = get_user_model()
    org = users.objects.create_user(f"org-{tag}", password="x")
    ref = users.objects.create_user(f"ref-{tag}", password="x")
    event = Event.objects.create(
        slug=f"bench-{tag}",
        title="Bench",
        rulebook_key="cz-jigsaw",
        rulebook_text=preset_text("cz-jigsaw"),
        starts_at=timezone.now(),
        status="closed",
        language="en",
    )
    EventRole.objects.create(event=event, user=org, role="organizer")
    entries = Entry.objects.bulk_create(
        Entry(event=event, category="individuals", name=f"Entrant {i}", number=i,
              status="confirmed", group="AB"[i % 2])
        for i in range(1, n + 1)
    )  # fmt: skip
    people = Person.objects.bulk_create(
        Person(first_name="E", last_name=str(e.number), country="CZ" if e.number % 9 else "SK")
        for e in entries
    )
    EntryMember.objects.bulk_create(
        EntryMember(entry=e, person=p, captain=True) for e, p in zip(entries, people, strict=True)
    )
    start = timezone.now() - dt.timedelta(minutes=100)
    for group in ("A", "B"):
        round_start(event=event, stage=QUALI, group=group, by=org, now=start)

    def cells(k: int) -> dict[str, str]:
        if k % 10 == 0:
            return {"time": "", "missing": "", "pieces": str(200 + k % 250)}
        minutes = 30 + k % 59  # 0:30 to 1:28, within the 90-minute limit
        clock = f"{minutes // 60}:{minutes % 60:02d}:{(7 * k) % 60:02d}"
        return {"time": clock, "missing": str(k % 3), "pieces": ""}

    Result.objects.bulk_create(
        Result(event=event, stage=QUALI, entry=e, recorded_by=ref, recorded_at=start,
               cells=cells(e.number), idempotency_key=f"b{e.number}")
        for e in entries
    )  # fmt: skip
    publication_set(event=event, stage=QUALI, state="preliminary", by=org)
    return event


def runs_of(fn: Callable[[], bytes], runs: int) -> tuple[list[float], list[float], bytes]:
    """Wall times, CPU times of this process (the test client serves in it) and the PDF."""
    walls, cpus, out = [], [], b""
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return walls, cpus, out


def floor_html(event: Event) -> str:
    """The same rows as a bare table: place, name, country, score, mark."""
    document = standings_document(event, event.rulebook.stage(QUALI), 1, False, timezone.now())
    assert document is not None
    cells = []
    for sheet in document.sheets:
        for row in sheet.rows:
            values = (row["place"], row["name"], row.get("country", ""), row["score"], row["marks"])
            cells.append("<tr>" + "".join(f"<td>{html.escape(str(v or ''))}</td>" for v in values))
    return (
        "<html><head><style>@page { size: A4 } table { width: 100%; border-collapse: collapse }"
        " td { border-bottom: .4pt solid #bbb; font-size: 8pt }</style></head><body><table>"
        + "".join(cells)
        + "</table></body></html>"
    )


def pages(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


def line(label: str, walls: list[float], cpus: list[float], pdf: bytes) -> str:
    return (
        f"  {label:<34} median {statistics.median(walls):6.2f} s  "
        f"(fastest {min(walls):5.2f}, slowest {max(walls):5.2f})  [{len(walls)}]  "
        f"CPU {statistics.median(cpus):5.2f} s  {pages(pdf)} pages"
    )


def report(n: int, runs: int) -> None:
    event = event_with(n, f"pdf{n}")
    client = Client()
    url = reverse("exports:standings", args=[event.slug, QUALI, 1, "pdf"])

    def download() -> bytes:
        cache.clear()
        response = client.get(url)
        assert response.status_code == 200, response.status_code
        return bytes(response.content)

    floor = floor_html(event)
    pdf_times, pdf_cpu, pdf = runs_of(download, runs)
    floor_times, floor_cpu, bare = runs_of(lambda: bytes(HTML(string=floor).write_pdf()), runs)
    print(f"N = {n} entrants")
    print(line("(a) the standings PDF", pdf_times, pdf_cpu, pdf))
    print(line("(b) floor: a bare table, same rows", floor_times, floor_cpu, bare))
    ratio = statistics.median(pdf_cpu) / statistics.median(floor_cpu)
    wall = "PASS" if statistics.median(pdf_times) < TARGET_S else "MISS"
    cpu = "PASS" if statistics.median(pdf_cpu) < TARGET_S else "MISS"
    print(f"      (a)/(b) in CPU: {ratio:.1f}×; target < {TARGET_S:.0f} s: wall {wall}, CPU {cpu}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"standings PDF benchmark — Python {sys.version.split()[0]}, database {engine}")
    for n in args.sizes:
        report(n, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
