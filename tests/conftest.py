"""Shared test set-up: Django's database on SQLite or, with DATABASE_URL, PostgreSQL."""

from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis times every example on the wall clock (a 200 ms deadline, and a health check on
# slow generation); a busy machine stretches both, so neither is asked here. Each test still
# runs its examples in full.
settings.register_profile("podium", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("podium")

# The web tests' scenario builders, one module per scenario (pytest takes plugins only here).
pytest_plugins = [
    "tests.web.fixtures.sizes",
    "tests.web.fixtures.jigsaw",
    "tests.web.fixtures.club",
    "tests.web.fixtures.bowling",
]


def pytest_configure(config: Any) -> None:
    from django.conf import settings as django_settings

    # Test users log in with known passwords; the production hasher's million rounds only
    # cost time here (about half a second per user).
    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    """Every test that drives Chromium (the ``browser`` fixture, which ``page`` and
    ``new_context`` open theirs from) is marked ``browser``: by what it uses, not by the name
    of its file, so ``-m "not browser"`` holds wherever the tests live."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def cpu_seconds() -> float:
    """The CPU time spent so far by this process (all its threads) and by its children that
    have ended: what a bound on work checks, since other processes on a busy machine stretch
    the wall clock but not this."""
    import resource
    import time

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.fixture
def bounded(request: Any) -> Any:
    """Runs a hostile input's call twice: for its CPU time (``cpu_seconds``, under
    ``seconds``), then under tracemalloc (its peak under ``megabytes``), as the issue asks:
    refused quickly with bounded memory. The bounds are several times what the call costs on
    an idle machine, in CPU time rather than on the wall clock, so that a busy machine passes
    and a refusal that does the work it should skip does not. Returns what the call returned,
    or the exception it raised."""
    import time
    import tracemalloc

    def run(call: Any, seconds: float = 2.0, megabytes: float = 100.0) -> Any:
        def once() -> Any:
            try:
                return call()
            except Exception as exc:  # the refusal is what the test looks at
                return exc

        wall, start = time.perf_counter(), cpu_seconds()
        outcome = once()
        took, wall = cpu_seconds() - start, time.perf_counter() - wall
        tracemalloc.start()
        try:
            once()
            peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
        finally:
            tracemalloc.stop()
        # Printed for the record (pytest -s): which case, its CPU (and wall) time, its memory.
        print(
            f"\nbounded: {request.node.name}: {took * 1000:.0f} ms CPU ({wall * 1000:.0f} ms"
            f" wall), peak {peak:.1f} MB"
        )
        assert took < seconds, f"took {took:.2f} s of CPU time"
        assert peak < megabytes, f"peak {peak:.0f} MB"
        return outcome

    return run


# The rating site's ChGK table, as its exports lay it out: per tour a block "Team ID, Название,
# Город, Тур, 1 … n". Three tours of five questions; Авось has no row in tour 3 (unscored).
RATING_TOURS = {
    1: [(101, "Сфинкс", "Эссен", [1, 1, 0, 1, 0]), (102, "И", "Дюссельдорф", [0, 1, 0, 0, 0]),
        (103, "Авось", "Бонн", [1, 1, 1, 1, 1])],
    2: [(101, "Сфинкс", "Эссен", [1, "А. Кристи", 0, 1, None]),
        (102, "И", "Дюссельдорф", [0, 0, 0, 0, 0]), (103, "Авось", "Бонн", [1, 1, 0, 0, 0])],
    3: [(101, "Сфинкс", "Эссен", [1, 1, 1, 1, 1]), (102, "И", "Дюссельдорф", [1, 0, 1, 0, 1])],
}  # fmt: skip


def _rating_rows(tour: int, numbering: int) -> list[list[Any]]:
    header = ["Team ID", "Название", "Город", "Тур"]
    first = numbering * (tour - 1) + 1
    rows: list[list[Any]] = [header + list(range(first, first + 5))]
    rows += [[i, name, city, tour, *marks] for i, name, city, marks in RATING_TOURS[tour]]
    return rows


@pytest.fixture
def rating_table() -> Any:
    """``make(layout, change)``: the table as bytes. ``layout`` ``"blocks"`` (one worksheet
    "Sheet1": tour 1 on rows 1–4, tour 2 on rows 6–9, tour 3 on rows 11–13, questions numbered
    on through the tours), ``"sheets"`` (worksheets "Тур 1" … "Тур 3", each from row 1,
    numbered from 1) or ``"csv"`` (the blocks, ``;``-separated). ``change`` maps (tour, team
    index, question index) to another mark cell."""
    import csv
    import io

    from openpyxl import Workbook

    def make(layout: str, change: dict[tuple[int, int, int], Any] | None = None) -> bytes:
        tours = {t: _rating_rows(t, 0 if layout == "sheets" else 5) for t in RATING_TOURS}
        for (tour, team, question), value in (change or {}).items():
            tours[tour][team + 1][4 + question] = value
        if layout == "csv":
            out = io.StringIO()
            writer = csv.writer(out, delimiter=";")
            for rows in tours.values():
                writer.writerows([*rows, []])
            return out.getvalue().encode()
        book = Workbook()
        book.active.title = "Sheet1" if layout == "blocks" else "Тур 1"
        for tour, rows in tours.items():
            if layout == "sheets":
                sheet = book.active if tour == 1 else book.create_sheet(f"Тур {tour}")
                for row in rows:
                    sheet.append(row)
            else:
                for row in [*rows, []]:
                    book.active.append(row)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()

    return make


@pytest.fixture
def huge_rating_book() -> Any:
    """``make(rows, width=40)``: a rating table's workbook of ``rows`` team rows."""
    import io
    import zipfile

    def make(rows: int, width: int = 40) -> bytes:
        # Written as XML directly: openpyxl would take seconds to make it.
        header = "".join(
            f'<c r="{c}1" t="inlineStr"><is><t>{t}</t></is></c>'
            for c, t in zip("ABCDE", ["Team ID", "Название", "Город", "Тур", "1"], strict=True)
        )
        # Five marks, then empty cells: they count against the budget, as padding does.
        row = "<c><v>1</v></c>" * 5 + "<c/>" * (width - 5)
        body = "".join(f'<row r="{n}">{row}</row>' for n in range(2, rows + 2))
        sheet = (
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'<sheetData><row r="1">{header}</row>{body}</sheetData></worksheet>'
        )
        book = (
            '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
        )
        rels = (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="worksheet"/>'
            "</Relationships>"
        )
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as made:
            made.writestr("xl/workbook.xml", book)
            made.writestr("xl/_rels/workbook.xml.rels", rels)
            made.writestr("xl/worksheets/sheet1.xml", sheet)
        return out.getvalue()

    return make
