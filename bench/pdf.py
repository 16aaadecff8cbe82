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
import html
import io
import statistics
import sys
import time
from collections.abc import Callable

from qualification import QUALI, qualification  # sets Django up: before any model

# isort: split

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.test.utils import setup_test_environment
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader
from weasyprint import HTML

from podium.web.files.selectors.exports import standings_document
from podium.web.models import Event

TARGET_S = 3.0


def cells(k: int) -> dict[str, str]:
    """Every tenth not finished (ranked by pieces), the rest within the 90 minutes."""
    if k % 10 == 0:
        return {"time": "", "missing": "", "pieces": str(200 + k % 250)}
    minutes = 30 + k % 59  # 0:30 to 1:28, within the 90-minute limit
    clock = f"{minutes // 60}:{minutes % 60:02d}:{(7 * k) % 60:02d}"
    return {"time": clock, "missing": str(k % 3), "pieces": ""}


def event_with(n: int, tag: str) -> Event:
    """N entrants, the round over (published preliminary, so a visitor downloads it)."""
    return qualification(n, tag, cells=cells, started_minutes_ago=100)[0]


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
