"""The live round: a round's standings at the stage's current version tag, computed once per
version (one process computes, ``podium.web.live.flight``) and shared by its page, fragments,
charts, the "why" of its rows and the API.

Vocabulary:
- who: ``s`` for the event's staff (they see drafts and the problems that keep results from
  ranking), ``p`` for anyone else; the two see different tables of the same round.
- live round: ``selectors.standings.round_tables`` of the round for who, at a version tag.
- row key: a table's key and a row's number (its id where it has none), as the page names the
  row (``?why=A.12``).
- row shelves: when the first "why" of a live round's version is asked, its rows are kept on
  ``SHELVES`` shelves (by a hash of the row key), so the next "why" reads one small shelf, not
  the whole round.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from typing import Any

from django.core.cache import cache

from podium.rules.schema.stages import Stage
from podium.web.live import flight
from podium.web.models import Event
from podium.web.standings.selectors.standings import RoundTables, round_tables

Row = dict[str, Any]
SHELVES = 32


def who(staff: bool) -> str:
    return "s" if staff else "p"


def row_key(table: str, row: Row) -> str:
    return f"{table}.{row.get('number') or row['id']}"


def find_row(tables: list[Row], key: str) -> tuple[Row, Row] | None:
    """The table and the row a row key names, or ``None``."""
    for table in tables:
        for row in table["rows"]:
            if row_key(table["key"], row) == key:
                return table, row
    return None


def _subject(event: Event, stage: Stage, round: int, staff: bool) -> str:
    return f"podium:round:{event.slug}:{stage.key}:{round}:{who(staff)}"


def _shelf(subject: str, tag: str, key: str) -> str:
    return f"{subject}@{tag}:shelf:{zlib.crc32(key.encode()) % SHELVES}"


def live_round(event: Event, stage: Stage, round: int, staff: bool, tag: str) -> RoundTables:
    """The round for the visitor at ``tag`` (see the vocabulary)."""
    subject = _subject(event, stage, round, staff)
    compute = lambda: round_tables(event, stage, round, staff)  # noqa: E731
    return flight.once(subject, tag, compute, exact=True)[1]


def _shelve(subject: str, tag: str, view: RoundTables) -> bool:
    """Keeps the round's rows on their shelves (see the vocabulary)."""
    shelves: dict[str, dict[str, tuple[Row, Row]]] = defaultdict(dict)
    for number in range(SHELVES):
        shelves[f"{subject}@{tag}:shelf:{number}"] = {}
    for table in view.tables:
        named = {"key": table["key"], "title": table["title"]}
        for row in table["rows"]:
            key = row_key(table["key"], row)
            shelves[_shelf(subject, tag, key)][key] = (named, row)
    cache.set_many(shelves, timeout=flight.GRACE_S * 4)
    return True


def live_row(
    event: Event, stage: Stage, round: int, staff: bool, tag: str, key: str
) -> tuple[Row, Row] | None:
    """The table and the row of the live round a row key names (``None``: no such row). The
    first "why" of a version shelves the round's rows (once per version: a table re-rendered at
    every write does not pay for the shelves of versions nobody asks "why" of)."""
    subject = _subject(event, stage, round, staff)
    shelf = cache.get(_shelf(subject, tag, key))
    if shelf is not None:
        found: tuple[Row, Row] | None = shelf.get(key)
        return found
    view = live_round(event, stage, round, staff, tag)
    flight.once(f"{subject}:shelves", tag, lambda: _shelve(subject, tag, view), exact=True)
    return find_row(view.tables, key)
