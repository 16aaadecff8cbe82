"""Reading a ChGK tour (or every tour of a season) in the rating site's JSON shape.

Vocabulary:
- rating results, position: see ``podium.web.imports.rating``.
- visible moment: what a visitor may read of a round follows the standings pages
  (``podium.web.selectors.standings``): staff see any round as it is now; anyone else only a
  round published preliminary (as it is now) or final (as its newest frozen table stood).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.dateparse import parse_datetime

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema import ChgkTourStage
from podium.web.imports.rating import result_item
from podium.web.models import Event, Publication
from podium.web.selectors.results import (
    current_results,
    final_versions,
    publication_state,
    stage_rows,
)
from podium.web.selectors.stages import rounds_of
from podium.web.selectors.standings import visible


def visible_moment(
    event: Event, stage: ChgkTourStage, round: int, staff: bool
) -> tuple[bool, dt.datetime | None]:
    """Whether the visitor may read the round, and as of when (``None``: now)."""
    state = publication_state(event, stage.key, round)
    if not visible(state, staff):
        return False, None
    if staff or state != Publication.State.FINAL:
        return True, None
    versions = final_versions(event, stage.key, round)
    frozen = versions[-1].table if versions else None
    at = parse_datetime(frozen["as_of"]) if frozen and frozen.get("as_of") else None
    return True, at


def rating_results(
    event: Event, stage: ChgkTourStage, round: int, at: dt.datetime | None = None
) -> list[dict[str, Any]]:
    """The round's teams as the rating site lists them, best first (positions from the
    engine; a team whose results do not rank yet has none)."""
    results = {r.entry_id: r for r in current_results(event, stage.key, round, at)}
    if not results:
        return []
    places: dict[str, tuple[int, int, int | None]] = {}
    try:
        standings = compute_standings(
            event.rulebook, stage.key, stage_rows(event, stage.key, round, at)
        )
    except InputError:
        standings = None
    order: list[str] = []
    if standings is not None:
        for table in standings.tables:
            for row in table.rows:
                taken = row.entry.metrics.get("questions")
                places[row.entry.id] = (
                    row.rank,
                    row.rank_to,
                    None if taken is None else int(taken),
                )
                order.append(row.entry.id)
    by_number = {str(r.entry.number): r for r in results.values()}
    order += [n for n in sorted(by_number, key=int) if n not in places]
    items = []
    for number in order:
        result = by_number[number]
        entry = result.entry
        rank, rank_to, taken = places.get(number, (None, None, None))
        members = [
            (m.person.first_name, m.person.last_name, m.captain) for m in entry.members.all()
        ]
        items.append(
            result_item(
                number=entry.number,
                name=entry.name,
                mask=result.cells.get("mask") or None,
                taken=taken,
                rank=rank,
                rank_to=rank_to,
                members=members,
            )
        )
    return items


def season_rating(event: Event, stage: ChgkTourStage, staff: bool) -> list[dict[str, Any]]:
    """Every tour on the calendar the visitor may read, each with its rating results."""
    tours = []
    for made in rounds_of(event, stage):
        seen, at = visible_moment(event, stage, made.number, staff)
        if not seen:
            continue
        tours.append(
            {
                "tour": made.number,
                "title": made.title,
                "questions": stage.questions,
                "state": publication_state(event, stage.key, made.number),
                "results": rating_results(event, stage, made.number, at),
            }
        )
    return tours
