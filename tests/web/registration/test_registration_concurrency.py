"""Registrations at the same moment never push a category over its cap.

On PostgreSQL the registrations race in real threads, each with its own connection; the event
row lock makes them count one after another. SQLite's test database lives in one process's
shared memory, where a second writer fails instead of waiting, so there the same registrations
run one after another and check the same arithmetic.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
from typing import Any

import pytest
from django.db import connection

from podium.web.models import AuditEntry, Entry
from podium.web.registration.services.members import PersonData
from podium.web.registration.services.registering import entry_register

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
NOW = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
RACERS = 8


def _fill(make_event: Any, make_user: Any, *, cap: int, taken: int) -> tuple[Any, list[Any]]:
    event = make_event("cz-jigsaw")
    event.rulebook_text = event.rulebook_text.replace("cap: 200", f"cap: {cap}", 1)
    event.save()
    for i in range(taken):
        entry_register(
            event=event,
            category="individuals",
            by=make_user(f"early{i}"),
            members=[PersonData("Early", f"Bird{i}", dt.date(1990, 1, 1), "CZ")],
            now=NOW,
        )
    return event, [make_user(f"racer{i}") for i in range(RACERS)]


def _register(event: Any, user: Any, i: int) -> Entry:
    return entry_register(
        event=event,
        category="individuals",
        by=user,
        members=[PersonData("Racer", f"Number{i}", dt.date(1990, 1, i + 1), "CZ")],
        now=NOW,
    )


def _check(event: Any, *, cap: int, taken: int) -> None:
    entries = Entry.objects.filter(event=event, category="individuals")
    assert entries.filter(status__in=Entry.ACTIVE).count() == cap
    waiting = entries.filter(status=Entry.Status.WAITING)
    assert waiting.count() == taken + RACERS - cap
    assert sorted(waiting.values_list("waiting_position", flat=True)) == list(
        range(1, taken + RACERS - cap + 1)
    )
    assert sorted(entries.values_list("number", flat=True)) == list(range(1, taken + RACERS + 1))
    assert AuditEntry.objects.filter(event=event, action="entry.register").count() == (
        taken + RACERS
    )


@pytest.mark.skipif(not ON_POSTGRES, reason="threads need a database with real row locks")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("cap", "taken"), [(3, 2), (4, 1), (3, 0)])
def test_parallel_registrations_keep_the_cap_on_postgres(
    make_event: Any, make_user: Any, cap: int, taken: int
) -> None:
    event, users = _fill(make_event, make_user, cap=cap, taken=taken)
    start = threading.Barrier(RACERS)
    errors: list[BaseException] = []

    def race(i: int) -> None:
        try:
            start.wait()
            _register(event, users[i], i)
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    _check(event, cap=cap, taken=taken)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("cap", "taken"), [(3, 2), (4, 1)])
def test_registrations_one_after_another_keep_the_cap(
    make_event: Any, make_user: Any, cap: int, taken: int
) -> None:
    event, users = _fill(make_event, make_user, cap=cap, taken=taken)
    for i, user in enumerate(users):
        _register(event, user, i)
    _check(event, cap=cap, taken=taken)
