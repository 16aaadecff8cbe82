"""The ChGK season the question tests share (deti-kolomny, Europe/Moscow): the tour's host team
Sovy with its players, the packets they hand in, and moments on the Moscow wall clock.

The ``season`` fixture itself is in this folder's ``conftest.py``.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from podium.web.models import Entry, EntryMember, Person

DATA = Path(__file__).parents[1] / "data" / "questions"
TOUR = "chgk-tour"
UTC = dt.UTC


def packet(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def numbered(n: int, start: int = 1, word: str = "вопрос") -> str:
    """A packet of ``n`` distinct plain questions numbered from ``start``."""
    return "\n".join(
        f"{i}. Простой {word} номер {i} о предмете {i * 7919 % 1000}.\nОтвет: ответ {i}\n"
        for i in range(start, start + n)
    )


def player(entry: Entry, name: str, user: Any = None, added_at: dt.datetime | None = None) -> Any:
    person = Person.objects.create(first_name=name, last_name="Test", country="RU", user=user)
    member = EntryMember.objects.create(entry=entry, person=person)
    if added_at is not None:
        EntryMember.objects.filter(pk=member.pk).update(added_at=added_at)
    return person


def msk(day: int, hour: int, minute: int = 0) -> dt.datetime:
    """A moment of November 2026 in Moscow time (UTC+3)."""
    return dt.datetime(2026, 11, day, hour - 3, minute, tzinfo=UTC)
