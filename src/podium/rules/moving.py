"""Moving a rulebook's dates with its event: a preset written for one year's event serves an
event on another day.

Vocabulary:
- event day: the rulebook's ``event_date``, the day its other dates were written against.
- window date: a date counted in days from the event day — the registration's ``opens`` and
  ``closes`` ("closes three days before"); moved by the days between the two event days.
- calendar date: any other date — a birth-date cut-off ("born by 30 June 1999"), a fixed day
  ages are counted on, a reference date for averages; moved by whole years, so it stays on its
  day of the year (29 February becomes the 28th in a common year).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from podium.rules.edit import SettingPath, Value, _read, with_settings

WINDOW = {("event_date",), ("registration", "opens"), ("registration", "closes")}


def _dates(data: Any, path: SettingPath = ()) -> Iterator[tuple[SettingPath, dt.date]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _dates(value, (*path, key))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _dates(value, (*path, n))
    elif isinstance(data, dt.date) and not isinstance(data, dt.datetime):
        yield path, data


def _years_on(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February in a common year
        return day.replace(year=day.year + years, day=28)


def moved_to(text: str, day: dt.date) -> str:
    """The rulebook ``text`` with its dates moved so that its event day is ``day`` (see the
    vocabulary); a rulebook without an event day gets ``day`` as its own, its other dates
    kept. ``text`` is a rulebook that was already read without problems."""
    _, data = _read(text)
    old = data.get("event_date") if isinstance(data, dict) else None
    if not isinstance(old, dt.date):
        return with_settings(text, {("event_date",): day})
    if old == day:
        return text
    days, years = day - old, day.year - old.year
    changes: dict[SettingPath, Value] = {}
    for path, value in _dates(data):
        changes[path] = value + days if path in WINDOW else _years_on(value, years)
    return with_settings(text, changes)
