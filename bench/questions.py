"""Benchmark of the near-duplicate search of the question database (a report, not a test).

What is measured, with 5,000 synthetic archive questions in a fresh SQLite database (or
PostgreSQL with ``DATABASE_URL``): texts of 20–40 words drawn from 8,000 pseudo-words with a
Zipf-like frequency (so common words are shared by many questions, as in real packets), plus
stop-words; answers of one to three words.

(a) building the index: reading the 5,000 rows and indexing their stems
    (``chgk.selectors.database.database_index``);
(b) one search (``DatabaseIndex.closest``, the three closest) on a fresh index (cold: the
    candidates' profiles are computed) and on an index already used (warm);
(c) the check of a tour: building the index and searching 15 questions, as the packet page
    does;
(d) the same 15 searches without the prefilter: every database question scored (its profile
    computed beforehand, outside the time), for scale;
(e) the coordinator's whole packet page (15 questions handed in) through Django's test client.

It also prints how many of 15 reworded questions (words shuffled, a fifth of them dropped,
upper case) are found as the closest match above the "published before" threshold.

Every time is the median of several runs (``time.perf_counter``; the runs are in brackets).
The script always exits 0. Run ``.venv/bin/python bench/questions.py`` (``--n`` sets the
database size).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

TMP = tempfile.mkdtemp(prefix="podium-bench-")
os.environ.setdefault("DATABASE_URL", f"sqlite:///{Path(TMP) / 'bench.sqlite3'}")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "podium.web.settings")
os.environ["PODIUM_DATA_DIR"] = TMP

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from podium.rules.loader import preset_text  # noqa: E402
from podium.web.chgk.selectors.database import (  # noqa: E402
    PUBLISHED,
    STOP_WORDS,
    Profile,
    database_index,
    normalize,
    similarity,
)
from podium.web.chgk.services.questions import questions_submit  # noqa: E402
from podium.web.models import Entry, Event, EventRole, Question, Round  # noqa: E402
from timing import median  # noqa: E402

PACKET = Path(__file__).parent.parent / "tests" / "web" / "data" / "questions" / "tour-packet.txt"
_SYLLABLES = "ка ро ми ту ле са но ви да пе ло жу ры бо чи за го ны ве ду"
SYLLABLES = _SYLLABLES.split()


def corpus(n: int, rng: random.Random) -> list[tuple[str, str]]:
    words = ["".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))) for _ in range(8000)]
    weights = [1 / (rank + 1) for rank in range(len(words))]
    stop = sorted(STOP_WORDS)
    out = []
    for _ in range(n):
        text = rng.choices(words, weights, k=rng.randint(20, 40))
        for _ in range(6):
            text.insert(rng.randrange(len(text)), rng.choice(stop))
        answer = " ".join(rng.choices(words, k=rng.randint(1, 3)))
        out.append((" ".join(text).capitalize() + "?", answer))
    return out


def reword(text: str, rng: random.Random) -> str:
    words = text.rstrip("?").split()
    rng.shuffle(words)
    return " ".join(words[: len(words) * 4 // 5]).upper() + "!"


def brute(profiles: list[Profile], text: str, answer: str) -> list[float]:
    query = Profile.of(normalize(text), answer)
    return sorted((similarity(query, p) for p in profiles), reverse=True)[:3]


def page_setup(questions: list[tuple[str, str]]) -> tuple[Client, str]:
    users = get_user_model()
    org = users.objects.create_user("bench-org", password="x")
    event = Event.objects.create(
        slug="bench-questions", title="Bench", rulebook_key="deti-kolomny",
        rulebook_text=preset_text("deti-kolomny"), status="closed", timezone="Europe/Moscow",
        starts_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC), language="en",
    )  # fmt: skip
    EventRole.objects.create(event=event, user=org, role="organizer")
    host = Entry.objects.create(
        event=event, category="teams", number=1, name="Host", status="confirmed"
    )
    tour = Round.objects.create(
        event=event, stage="chgk-tour", number=1, host=host,
        starts_at=dt.datetime(2030, 1, 10, 16, tzinfo=dt.UTC),
    )  # fmt: skip
    questions_submit(
        tour=tour, discipline="chgk", packet=PACKET.read_text(encoding="utf-8"), by=org
    )
    client = Client()
    client.force_login(org)
    return client, reverse("questions:packet", args=[event.slug, 1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5000, help="database questions (5,000)")
    args = parser.parse_args()
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    call_command("migrate", verbosity=0)
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    rng = random.Random(2026)
    rows = corpus(args.n, rng)
    Question.objects.bulk_create(
        (
            Question(
                discipline="chgk",
                number=i % 15 + 1,
                text=t,
                answer=a,
                normalized=normalize(t),
                status=Question.Status.ARCHIVE,
                source=f"synthetic {i // 15 + 1}",
                played_on=dt.date(2020, 1, 1),
            )
            for i, (t, a) in enumerate(rows)
        ),
        batch_size=1000,
    )
    picked = rng.sample(range(len(rows)), 15)
    queries = [(reword(rows[i][0], rng), rows[i][1]) for i in picked]
    print(
        f"question database benchmark — Python {sys.version.split()[0]}, database {engine}, "
        f"{args.n:,} questions"
    )

    build, rb = median(database_index, 5)
    cold = []
    for text, answer in queries[:5]:
        index = database_index()
        start = time.perf_counter()
        index.closest(text, answer)
        cold.append(time.perf_counter() - start)
    index = database_index()
    for text, answer in queries:
        index.closest(text, answer)
    warm, rw = median(lambda: index.closest(*queries[0]), 50)

    def tour_check() -> None:
        fresh = database_index()
        for text, answer in queries:
            fresh.closest(text, answer)

    check, rc = median(tour_check, 5)
    profiles = [Profile.of(normalize(t), a) for t, a in rows]
    without, rn = median(lambda: [brute(profiles, t, a) for t, a in queries], 3)
    found = 0
    fresh = database_index()
    ids = list(Question.objects.order_by("id").values_list("id", flat=True))
    for (text, answer), i in zip(queries, picked, strict=True):
        best = fresh.closest(text, answer)
        found += bool(best) and best[0].question == ids[i] and best[0].score >= PUBLISHED
    client, address = page_setup(queries)
    client.get(address)
    whole, rp = median(lambda: client.get(address), 5)

    print(f"  (a) index of the database              {build * 1000:8.1f} ms  [{rb}]")
    print(f"  (b) one search, cold                   {statistics.median(cold) * 1000:8.1f} ms  [5]")
    print(f"      one search, warm                   {warm * 1000:8.1f} ms  [{rw}]")
    print(f"  (c) a tour's check: index + 15         {check * 1000:8.1f} ms  [{rc}]")
    print(f"  (d) 15 searches without the prefilter  {without * 1000:8.1f} ms  [{rn}]")
    print(f"  (e) the whole packet page              {whole * 1000:8.1f} ms  [{rp}]")
    print(f"      reworded questions found: {found} of {len(queries)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
