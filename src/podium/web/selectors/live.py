"""The live round: a round's standings at the stage's current version tag, computed once per
version (one process computes, ``podium.web.flight``) and shared by its page, fragments,
charts, the "why" of its rows and the API.

Vocabulary:
- who: ``s`` for the event's staff (they see drafts and the problems that keep results from
  ranking), ``p`` for anyone else; the two see different tables of the same round.
- live round: ``selectors.standings.round_tables`` of the round for who, at a version tag.
- row key: a table's key and a row's number (its id where it has none), as the page names the
  row (``?why=A.12``).
"""

from __future__ import annotations

from typing import Any

from podium.rules.schema import Stage
from podium.web import flight
from podium.web.models import Event
from podium.web.selectors.standings import RoundTables, round_tables


def who(staff: bool) -> str:
    return "s" if staff else "p"


def row_key(table: str, row: dict[str, Any]) -> str:
    return f"{table}.{row.get('number') or row['id']}"


def find_row(
    tables: list[dict[str, Any]], key: str
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """The table and the row a row key names, or ``None``."""
    for table in tables:
        for row in table["rows"]:
            if row_key(table["key"], row) == key:
                return table, row
    return None


def live_round(event: Event, stage: Stage, round: int, staff: bool, tag: str) -> RoundTables:
    """The round for the visitor at ``tag`` (see the vocabulary)."""
    return flight.once(
        f"podium:round:{event.slug}:{stage.key}:{round}:{who(staff)}",
        tag,
        lambda: round_tables(event, stage, round, staff),
        exact=True,
    )[1]
