"""One time zone: every moment shown, printed, exported or sent by the API is in the event's
zone and says which (podium.web.kernel.moments, the ``moment`` filter, base.html's zone).

Hand-worked: the Puzzle Party starts 2026-05-24 08:00 UTC, which is 10:00 CEST in Rome; pair
#1 checks in at 07:50 UTC, 9:50 CEST. What the test itself records (a draw, a result, a
publication) happens now, so its label is the one Rome has now (CET in winter).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zoneinfo
from html import unescape
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.formats import date_format
from pypdf import PdfReader

from podium.web.draws.services import draw_make
from podium.web.kernel.moments import moment_iso, moment_text, zone_label
from podium.web.models import Draw, Event, Publication, Result
from podium.web.registration.services.checkin import checkin_record
from podium.web.results.services.checks import result_confirm
from podium.web.results.services.results import result_record
from podium.web.standings.services.publication import publication_set

ROME = zoneinfo.ZoneInfo("Europe/Rome")
START = dt.datetime(2026, 5, 24, 8, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("zone", "moment", "label"),
    [
        ("Europe/Prague", dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC), "CET"),
        ("Europe/Prague", dt.datetime(2026, 6, 7, 18, 30, tzinfo=dt.UTC), "CEST"),
        ("Europe/Moscow", dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC), "MSK"),
        ("Asia/Dubai", dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC), "UTC+04"),
        ("America/Sao_Paulo", dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC), "UTC-03"),
        ("Asia/Kathmandu", dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC), "UTC+05:45"),
    ],
)
def test_a_zone_label_is_its_short_name_else_its_offset(
    zone: str, moment: dt.datetime, label: str
) -> None:
    assert zone_label(moment.astimezone(zoneinfo.ZoneInfo(zone))) == label


def test_the_draw_lists_minute_reads_as_the_desks_in_prague() -> None:
    # The moment: 18:30 UTC on 7 December is 19:30 in Prague, CET.
    moment = dt.datetime(2026, 12, 7, 18, 30, tzinfo=dt.UTC)
    assert moment_text(moment, "Europe/Prague", "H:i") == "19:30 CET"
    assert moment_text(moment, "Europe/Prague") == "Dec. 7, 2026, 7:30 p.m. CET"
    assert moment_text(dt.date(2026, 12, 7), "Europe/Prague") == "Dec. 7, 2026"
    assert moment_text(None, "Europe/Prague") == ""
    assert moment_iso(moment, "Europe/Prague") == "2026-12-07T19:30:00+01:00"


@pytest.fixture
def party(make_event: Any, staff: Any, add_entry: Any) -> Any:
    event = make_event(
        "it-puzzle-party", starts_at=START, timezone="Europe/Rome", language="en",
        status=Event.Status.CLOSED,  # draws need the final list of entrants
    )  # fmt: skip
    people = staff(event, organizer="ornella", head="hugo", referee="rita")
    pairs = [add_entry(event, n, f"Pair {n}", "IT/IT") for n in (1, 2)]
    checkin_record(entry=pairs[0], by=people["referee"], now=START - dt.timedelta(minutes=10))
    result = result_record(
        event=event, stage="pairs", entry=pairs[0], cells={"time": "1:01:00"},
        by=people["referee"], idempotency_key="k1",
    )  # fmt: skip
    result_confirm(result=result, by=people["head"])
    draw_make(event=event, kind="tables", stage="pairs", seed="s", by=people["organizer"])
    for state in ("preliminary", "final"):
        publication_set(event=event, stage="pairs", state=state, by=people["organizer"])
    event.people = people  # type: ignore[attr-defined]
    return event


def local(moment: dt.datetime, fmt: str = "DATETIME_FORMAT") -> str:
    """Worked out apart from the code under test: Django's format of the Roman wall clock."""
    wall = moment.astimezone(ROME)
    return f"{date_format(wall, fmt)} {wall.tzname()}"


def text(response: Any) -> str:
    assert response.status_code == 200
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_every_page_that_shows_a_moment_shows_it_in_romes_zone_and_names_it(party: Any) -> None:
    org = Client()
    org.force_login(party.people["organizer"])
    slug = party.slug
    made = Draw.objects.get(event=party).made_at
    recorded = Result.objects.get(event=party).recorded_at
    published = Publication.objects.filter(event=party, state="final").get().changed_at
    start = "May 24, 2026, 10 a.m. CEST"
    expected = {
        reverse("organizer:dashboard", args=[slug]): [start],
        reverse("desk:desk", args=[slug]): [f"Start: {start}", "Checked in 9:50 a.m. CEST"],
        reverse("draws:public", args=[slug]): [local(made)],
        reverse("draws:organize", args=[slug]): [local(made)],
        reverse("results:round", args=[slug, "pairs", 1]): [f"at {local(recorded, 'H:i:s')}"],
        reverse("event", args=[slug]): [start],
        reverse("publication:index", args=[slug]): [local(published)],
        reverse("standings:version", args=[slug, "pairs", 1, 1]): [
            f"Published: {local(published)}"
        ],
        f"/standings/{slug}/pairs/": [f"as of {local(published)}"],
    }  # fmt: skip
    shown = {url: text(org.get(url)) for url in expected}
    missing = {
        url: [want for want in wants if want not in shown[url]] for url, wants in expected.items()
    }
    assert missing == {url: [] for url in expected}
    # None of them shows a moment in UTC.
    assert [url for url, page in shown.items() if re.search(r"\d (a\.m\.|p\.m\.) UTC", page)] == []


def test_exports_and_the_api_give_moments_in_romes_zone(party: Any) -> None:
    referee = Client()
    referee.force_login(party.people["referee"])
    got = referee.get(reverse("exports:check-in", args=[party.slug, "csv"]))
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert "2026-05-24 09:50 CEST" in rows[1]
    pdf = referee.get(reverse("exports:check-in", args=[party.slug, "pdf"]))
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "9:50 a.m. CEST" in printed

    api = Client().get(f"/api/events/{party.slug}").json()
    assert api["starts_at"] == "2026-05-24T10:00:00+02:00"
    table = Client().get(f"/api/events/{party.slug}/stages/pairs/rounds/1/standings").json()
    published = Publication.objects.filter(event=party, state="final").get().changed_at
    offset = published.astimezone(ROME).strftime("%z")
    offset = f"{offset[:3]}:{offset[3:]}"
    assert table["versions"][0]["changed_at"].endswith(offset)
    sent = dt.datetime.fromisoformat(table["versions"][0]["changed_at"])
    assert abs(sent - published) < dt.timedelta(milliseconds=1)  # the API writes milliseconds
