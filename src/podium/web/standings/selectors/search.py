"""Finding a name in a round's tables: the rows whose entry or a member matches the visitor's
search (see ``podium.web.registration.selectors.search``), as the visitor may see them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from podium.rules.schema.stages import Stage
from podium.web.kernel.texts import table_title
from podium.web.models import Event
from podium.web.registration.selectors.search import matching_numbers, query_words
from podium.web.standings.selectors.live import live_round


def matching_rows(
    tables: list[dict[str, Any]], numbers: set[str]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(table, row) of the rows whose entry matched, in table order."""
    return [
        (table, row)
        for table in tables
        for row in table["rows"]
        if str(row.get("number") or row["id"]) in numbers
    ]


@dataclass(frozen=True)
class Found:
    table: str  # the table's title
    row: dict[str, Any]
    number: str


def name_search(
    event: Event, stage: Stage, round: int, staff: bool, tag: str, query: str
) -> list[Found]:
    """The rows of a round's tables whose entry matches the query, as the visitor may see them
    — from the round computed once per version (``tag``), as its page shows it, so a search
    costs a cache read and one query for the names."""
    words = query_words(query)
    view = live_round(event, stage, round, staff, tag)
    if not words or not view.visible:
        return []
    numbers = matching_numbers(event, words)
    return [
        Found(table_title(table, stage), row, str(row.get("number") or row["id"]))
        for table, row in matching_rows(view.tables, numbers)
    ]
