"""Reading a ChGK tour (or every tour of a season) in the rating site's JSON shape.

Vocabulary:
- rating results, position: see ``podium.web.readers.rating``.
- visible moment: what a visitor may read of a round follows the standings pages
  (``podium.web.standings.selectors.standings``): staff see any round as it is now; anyone else only
  a round published preliminary (as it is now) or final (as its newest frozen table stood).
- mask: as the table reads it, the jury's verdicts applied and an open dispute blind
  (``podium.web.disputes.selectors.anonymity``), for staff too: the file leaves the entry screen.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.dateparse import parse_datetime

from podium.engine.compute import compute_standings
from podium.engine.errors import InputError
from podium.rules.schema.stages import ChgkTourStage
from podium.web.kernel.stages import rounds_of
from podium.web.models import Event, Publication
from podium.web.readers.rating import result_item
from podium.web.results.selectors.publication import publications_current
from podium.web.results.selectors.rows import RoundRows, rounds_rows
from podium.web.results.selectors.tours import length_of
from podium.web.standings.selectors.standings import visible


def visible_moment(
    event: Event, stage: ChgkTourStage, round: int, staff: bool
) -> tuple[bool, dt.datetime | None]:
    """Whether the visitor may read the round, and as of when (``None``: now)."""
    seen = _visible(event, stage, [round], staff)
    return round in seen, seen[round][1] if round in seen else None


def _visible(
    event: Event, stage: ChgkTourStage, rounds: list[int], staff: bool
) -> dict[int, tuple[str, dt.datetime | None]]:
    """Round → its state and as of when the visitor reads it, for those of ``rounds`` the
    visitor may read (see the vocabulary), in two reads for any number of rounds."""
    current = publications_current(event, stage.key)
    seen: dict[int, tuple[str, dt.datetime | None]] = {}
    for round in rounds:
        state = current[round].state if round in current else Publication.State.DRAFT
        if visible(state, staff):
            seen[round] = (state, None)
    frozen = [n for n, (state, _at) in seen.items() if state == Publication.State.FINAL]
    if frozen and not staff:
        tables: dict[int, Any] = {}
        finals = Publication.objects.filter(
            event=event, stage=stage.key, round__in=frozen, state=Publication.State.FINAL
        )
        for final in finals.order_by("version"):
            tables[final.round] = final.table  # the newest version last
        for round in frozen:
            table = tables.get(round)
            at = parse_datetime(table["as_of"]) if table and table.get("as_of") else None
            seen[round] = (Publication.State.FINAL, at)
    return seen


def rating_results(
    event: Event, stage: ChgkTourStage, round: int, at: dt.datetime | None = None
) -> list[dict[str, Any]]:
    """The round's teams as the rating site lists them, best first (positions from the
    engine; a team whose results do not rank yet has none)."""
    return _rating(event, stage, rounds_rows(event, stage.key, {round: at})[round])


def _rating(event: Event, stage: ChgkTourStage, read: RoundRows) -> list[dict[str, Any]]:
    results = {r.entry_id: r for r in read.results}
    if not results:
        return []
    places: dict[str, tuple[int, int, int | None]] = {}
    try:
        standings = compute_standings(event.rulebook, stage.key, read.rows)
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
    # The masks as the table reads them: verdicts applied, open disputes blind (a ``?`` shown
    # as a miss until the verdict, so the file never tells whose answer is disputed).
    masks = {row.cells["id"]: row.cells.get("mask") or None for row in read.rows}
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
                mask=masks.get(number),
                taken=taken,
                rank=rank,
                rank_to=rank_to,
                members=members,
            )
        )
    return items


def season_rating(event: Event, stage: ChgkTourStage, staff: bool) -> list[dict[str, Any]]:
    """Every tour on the calendar the visitor may read, each with its rating results."""
    calendar = rounds_of(event, stage)
    seen = _visible(event, stage, [made.number for made in calendar], staff)
    read = rounds_rows(event, stage.key, {number: at for number, (_state, at) in seen.items()})
    return [
        {
            "tour": made.number,
            "title": made.title,
            "questions": length_of(
                stage, made, (r.cells.get("mask") or "" for r in read[made.number].rows)
            ),
            "state": seen[made.number][0],
            "results": _rating(event, stage, read[made.number]),
        }
        for made in calendar
        if made.number in seen
    ]
