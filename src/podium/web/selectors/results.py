"""Reads of recorded results: the rows the engine ranks, standings "as of" a moment, what is
unchecked, and what is published.

Vocabulary:
- result, current result, verification, publication: see ``podium.web.models.results``.
- common columns: the DESIGN §3 columns every row shares, built from the entry and its members
  (``id`` is the entry's number); the format's columns come from the result's cells.
- as of: a moment; a read "as of" T sees only results and verifications made at or before T,
  so any past table can be shown again (``None`` means now).
- frozen table: the standings serialized when a stage is published final.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from podium.engine.compute import compute_standings
from podium.engine.inputs import RawRow
from podium.engine.standings import Standings
from podium.rules.schema import Stage
from podium.web.models import Entry, Event, Publication, Result, Verification

SINGLE_RESULT_FORMATS = ("timed-solve", "team-solve", "games", "chgk-tour")


def format_columns(stage: Stage) -> tuple[str, ...]:
    """The columns a result of this stage holds (besides the common ones)."""
    if stage.format == "timed-solve":
        return ("time", "missing", "pieces")
    if stage.format == "team-solve":
        return ("done", "time", "pieces", "missing")
    if stage.format == "games":
        return tuple(f"g{i}" for i in range(1, stage.games + 1))  # type: ignore[attr-defined]
    if stage.format == "chgk-tour":
        return ("questions", "mask")
    return ()


def common_cells(entry: Entry) -> dict[str, str]:
    """The common columns of an entry, as a results file would give them."""
    members = [m.person for m in entry.members.all()]
    countries = [p.country.upper() for p in members]
    genders = {p.gender for p in members}
    cells = {
        "id": str(entry.number),
        "name": entry.name,
        "country": "/".join(countries) if countries and all(countries) else "",
        "group": entry.group,
        "gender": genders.pop() if len(genders) == 1 else "",
        "scored": "yes" if entry.scored else "no",
    }
    if len(members) == 1:
        person = members[0]
        if person.ladder_average is not None:
            cells["average"] = str(person.ladder_average)
        if person.birth_date is not None:
            cells["birth_date"] = person.birth_date.isoformat()
    if entry.division:
        cells["division"] = entry.division
    return cells


def raw_row(entry: Entry, stage: Stage, cells: dict[str, str], line: int = 1) -> RawRow:
    """One engine row: the entry's common columns and the result's format columns."""
    row = common_cells(entry)
    for column in format_columns(stage):
        row[column] = cells.get(column, "")
    return RawRow(line, row)


def _moment(at: dt.datetime | None) -> dt.datetime:
    return at if at is not None else timezone.now()


def current_results(event: Event, stage: str, at: dt.datetime | None = None) -> list[Result]:
    """The current result of each entry in the stage as of ``at``, in entry-number order."""
    recorded = list(
        Result.objects.filter(event=event, stage=stage, recorded_at__lte=_moment(at))
        .select_related("entry")
        .prefetch_related("entry__members__person")
        .order_by("recorded_at", "id")
    )
    corrected = {r.corrects_id for r in recorded if r.corrects_id is not None}
    current: dict[int, Result] = {}
    for result in recorded:
        if result.id not in corrected:
            current[result.entry_id] = result  # the newest wins, should the chain ever fork
    return sorted(current.values(), key=lambda r: r.entry.number)


def stage_rows(event: Event, stage: str, at: dt.datetime | None = None) -> list[RawRow]:
    """The engine's rows for the stage as of ``at``: one per entry with a current result."""
    the_stage = event.rulebook.stage(stage)
    return [
        raw_row(r.entry, the_stage, r.cells, line)
        for line, r in enumerate(current_results(event, stage, at), start=1)
    ]


def standings_as_of(event: Event, stage: str, at: dt.datetime | None = None) -> Standings:
    """The standings of the stage from the results current at ``at`` (raises ``InputError``)."""
    return compute_standings(event.rulebook, stage, stage_rows(event, stage, at))


def unverified(event: Event, stage: str, at: dt.datetime | None = None) -> list[Result]:
    """The current results as of ``at`` that nobody had verified by then."""
    results = current_results(event, stage, at)
    checked = set(
        Verification.objects.filter(
            result__in=[r.id for r in results], verified_at__lte=_moment(at)
        ).values_list("result_id", flat=True)
    )
    return [r for r in results if r.id not in checked]


def is_current(result: Result) -> bool:
    return not Result.objects.filter(corrects=result).exists()


def serialize(standings: Standings) -> dict[str, Any]:
    """A standings table as plain JSON data (the shape of ``podium standings --format json``)."""
    return {
        "rulebook": standings.rulebook,
        "stage": standings.stage,
        "tables": [
            {
                "key": table.key,
                "title": table.title,
                "rows": [
                    {
                        "id": row.entry.id,
                        "name": row.entry.name,
                        "rank": row.rank,
                        "rank_to": row.rank_to,
                        "official_rank": row.official_rank,
                        "official_rank_to": row.official_rank_to,
                        "points": None if row.points is None else str(row.points),
                        "advances": row.advances,
                        "playoff": row.playoff,
                        "reasons": [{"clause": r.clause, "text": r.text} for r in row.reasons],
                    }
                    for row in table.rows
                ],
            }
            for table in standings.tables
        ],
    }


def publication_history(event: Event, stage: str) -> list[Publication]:
    return list(Publication.objects.filter(event=event, stage=stage).order_by("changed_at", "id"))


def publication_current(event: Event, stage: str) -> Publication | None:
    """The latest change of what is public of the stage (``None``: never changed — a draft)."""
    return Publication.objects.filter(event=event, stage=stage).order_by("changed_at", "id").last()


def final_versions(event: Event, stage: str) -> list[Publication]:
    """Every frozen final table of the stage, oldest version first."""
    return list(
        Publication.objects.filter(
            event=event, stage=stage, state=Publication.State.FINAL
        ).order_by("version")
    )
