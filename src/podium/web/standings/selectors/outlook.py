"""The outlook of a live round (``podium.engine.outlook``) laid over its page rows.

Vocabulary:
- outlook of a page row: ``{"best", "worst", "advances", "exact", "needs", "reasons"}``; ``needs``
  is the "what it takes" reason (its data, shown in the visitor's language) or ``None``; each
  reason as page rows keep them (``kernel.texts.reason_data``).
- pending entrants: the stage's entrants with nothing recorded in the round yet: they still
  play, so they are in every completion though not in the table (a file does not know them).
- remaining tours: a season's tours on the calendar not yet in the table.
- clock: a timed round's outlook reads "now" as the largest recorded time, never later than the
  clock: a little earlier only widens the places, and the outlook stays a function of the
  results (one per version, as the table is).

- scheduled battles: a league's bouts of its current battle schedule with no result recorded
  yet; they reach the engine as battle rows with empty scores, which it reads as still to play
  (as the CLI reads such rows of a file). No schedule drawn: no outlook, since nothing tells
  which battles are still to play (the recorded ones alone would pass for the whole league).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from podium.engine.errors import InputError
from podium.engine.inputs import RawRow
from podium.engine.outlook import Outlook, outlook
from podium.rules.schema.stages import ChgkSeasonStage, Stage
from podium.web.draws.selectors import scheduled_bouts
from podium.web.kernel.stages import rounds_of, stage_entries
from podium.web.kernel.texts import reason_data
from podium.web.models import Event
from podium.web.registration.selectors.entries import roster
from podium.web.results.selectors.rows import (
    ENTRY_FORMATS,
    battle_item,
    groups_by_number,
    item_row,
    labels_by_number,
    raw_row,
)


def outlook_data(o: Outlook) -> dict[str, Any]:
    return {
        "best": o.best,
        "worst": o.worst,
        "advances": o.advances,
        "exact": o.exact,
        "needs": reason_data(o.needs.reason) if o.needs is not None else None,
        "reasons": [reason_data(r) for r in o.reasons],
    }


def with_outlook(
    event: Event,
    stage: Stage,
    round: int,
    tables: list[dict[str, Any]],
    tours: list[int] | None,
    rows: Sequence[RawRow],
) -> list[dict[str, Any]]:
    """``tables`` (live page rows, ranked from ``rows``) with each row's ``outlook`` (``None``
    where there is none)."""
    found = _outlook(event, stage, tours, rows)
    return [
        table | {"rows": [row | {"outlook": found.get((table["key"], row["id"]))}
                          for row in table["rows"]]}
        for table in tables
    ]  # fmt: skip


def _outlook(
    event: Event, stage: Stage, tours: list[int] | None, rows: Sequence[RawRow]
) -> dict[tuple[str, str], dict[str, Any]]:
    if not rows:
        return {}
    remaining = None
    seen = {(r.cells.get("id") or "") for r in rows}
    pending: list[RawRow] = []
    if isinstance(stage, ChgkSeasonStage):
        tour = event.rulebook.stage(stage.tour)
        played = set(tours or ())
        remaining = len([r for r in rounds_of(event, tour) if r.number not in played])
        numbers = stage_entries(event, tour).values_list("number", flat=True)
        pending = [RawRow(len(rows) + n + 1, {"id": str(number)})
                   for n, number in enumerate(numbers) if str(number) not in seen]  # fmt: skip
    elif stage.format in ENTRY_FORMATS:
        numbers = stage_entries(event, stage).values_list("number", flat=True)
        missing = [number for number in numbers if str(number) not in seen]
        if missing:  # only the entrants with nothing recorded yet are read in full
            waiting = stage_entries(event, stage).filter(number__in=missing)
            pending = [raw_row(e, stage, {}, len(rows) + n + 1)
                       for n, e in enumerate(waiting.prefetch_related(roster()))]  # fmt: skip
    elif stage.format == "head-to-head":
        scheduled = _scheduled(event, stage, rows)
        if scheduled is None:
            return {}
        rows = [*rows, *scheduled]
    try:
        seen_outlook = outlook(event.rulebook, stage.key, rows, remaining=remaining,
                               pending=pending)  # fmt: skip
    except InputError:
        return {}  # the table itself says what keeps the results from ranking
    return {key: outlook_data(o) for key, o in seen_outlook.rows.items()}


def _scheduled(event: Event, stage: Stage, rows: Sequence[RawRow]) -> list[RawRow] | None:
    """The schedule's battles with no row among ``rows``, as rows with empty scores; ``None``
    when no schedule is drawn."""
    drawn = scheduled_bouts(event, stage.key)
    if not drawn:
        return None
    recorded = {r.cells.get("id") for r in rows}
    bouts = [(battle_item(b["round"], b["team1"], b["team2"]), b) for b in drawn]
    waiting = [(item, b) for item, b in bouts if item not in recorded]
    if not waiting:
        return []
    labels, groups = labels_by_number(event, stage), groups_by_number(event, stage)
    return [
        item_row(stage, item, {"round": str(b["round"]), "team1": str(b["team1"]),
                               "team2": str(b["team2"])}, labels, len(rows) + n + 1, groups)
        for n, (item, b) in enumerate(waiting)
    ]  # fmt: skip
